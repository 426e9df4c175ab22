"""The Tension Engine: its conflict screen (view, actions, draft), its words and its
roster sheet. May import handoff, kit, core, session and rules; never another system or screen."""
