"""Manner Cards: its conflict screen (view, actions, draft), its words, its roster sheet,
the card drawings (the Tables screen uses them too) and a conflict sealed across phones
(exchange). May import systems (what every system shares), handoff, kit, core, session and
rules; never another system or screen."""
