"""The Tension Engine: its conflict screen (view, actions, draft, odds), its words and its
roster sheet. May import systems (what every system shares), handoff, kit, core, session and
rules; never another system or screen."""
