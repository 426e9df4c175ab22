"""The Tables screen: the Manner Cards resolution tables, and the session's Tension Table as it
is edited (`editing`)."""
