"""The app's model, without markup or browser: the state (`state`), the action registry
(`actions`), one tap's step (`step`: handler, commit, the saving and sending queued), the work a
change queues (`commands`), the sessions on this device as screens read them (`library`), a
live table as the state holds it (`live_table`) and what it sends (`outgoing`), roster
`events`, and the rest a screen reads. May import session and rules only."""
