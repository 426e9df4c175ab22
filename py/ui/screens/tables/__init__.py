"""The Tables screen: the Manner Cards resolution tables and the session's Tension Table.
May import the systems, kit, core, session and rules; never another screen."""
