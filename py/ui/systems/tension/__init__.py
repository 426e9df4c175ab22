"""The Tension Engine: its conflict screen (`view`, `actions`, `draft`: the conflict being set up,
`odds`), its result sentences (`words`) and its roster sheet (`sheet`)."""
