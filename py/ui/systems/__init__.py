"""What every rule system's conflict screen shares, so that the systems hold only what their
rules make different: `dice_entry` (a side's dice as they come to the table: rolled here, real
dice entered by hand, a total announced; the taps, the same in every system that rolls) and
`conflict` (around a result: what lies on the table set aside in the log, a result logged,
the result bar, the next conflict). The systems (ui.systems.tension, ui.systems.anomaly, ui.systems.manners) sit one
layer above; this package may import handoff, kit, core, session and rules."""
