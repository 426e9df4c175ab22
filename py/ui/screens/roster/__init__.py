"""The Roster screen: every character and adversary of the active system, and the sheet editor;
each system's sheet comes from its own package (`sheets`)."""
