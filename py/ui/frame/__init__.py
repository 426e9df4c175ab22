"""The page around every screen: session bar, system tabs, messages, bottom navigation,
and which screen module draws the middle (loaded by name on first use).
May import core, kit, session and rules; never another screen."""
