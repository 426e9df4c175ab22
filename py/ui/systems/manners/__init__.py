"""Manner Cards: its conflict screen (`view`, `actions`, `draft`: the conflict being set up), its
result sentences (`words`), its roster sheet (`sheet`), the cards drawn (`cards`, the Tables
screen's too) and a conflict sealed across phones (`exchange`, `exchange_view`)."""
