"""What comes from another phone, read, checked and merged in one place, for the shell, the Session
screen and the Live table: links (`links`: the address bar, a scan; `changes`: what merging one
changes, in words), text scanned or pasted (`codes`: a link, or a live table's code), an
imported file (`files`), a live table's messages (`messages`) and its catch-up walk
(`catchup`). May import the systems, kit, core, session and rules; no screen."""
