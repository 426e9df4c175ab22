"""Manner Cards: its conflict screen (view, actions, draft), its words, its roster sheet
and the card drawings (the Tables screen uses them too).
May import kit, core, session and rules; never another system or screen."""
