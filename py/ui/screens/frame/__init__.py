"""The page around every screen: the session bar, system tabs, messages, bottom navigation, who
holds this phone, a live table's line, "Show to the GM". `view` draws it, `actions` its buttons."""
