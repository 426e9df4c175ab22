"""Links and export files: how a session travels between phones without a live table.
text.py is what every link is (LinkError), v1.py and v2.py its two versions, files.py the export
files (ImportFileError), size.py whether a link this phone made is one phones of this version open.
May import the rest of session, never session.live; loaded on first use (session.LATER), not by
`import session`."""
