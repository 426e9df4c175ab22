"""The Log screen: logged conflicts (`record` draws one), undo, roll links, export and import,
archiving (`limits`: how many entries it shows, reads and keeps), Tension over the session as a
line (`tension_line`), and a shared roll shown read-only (`roll_link`)."""
