"""Keeping the table on this phone, pure Python: the commands that need no browser, carried out on
the session Library (`runners`: saving, the log store, other sessions, background work, a live
table's inbox), the table in progress saved and restored after a reload (`progress`), and the
last table drawn kept for the next start's first paint (`first_paint`)."""
