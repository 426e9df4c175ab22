"""The page around every screen: session bar, system tabs, messages, bottom navigation,
who holds this phone. (Which screen module draws the middle is ui.router.)
May import handoff, kit, core, session and rules; never another screen."""
