"""Tableside's browser side: DOM handlers that turn taps into conflict records and
results into markup. State in, markup out: views and actions are pure Python
(tested under CPython); only ui.shell touches the browser. All rule logic lives
in `rules`; nothing here decides an outcome.

Layers, top to bottom (pyproject.toml's import-linter contracts enforce them):
main > shell > storage_effects | first_paint > progress > screens (which module draws
each screen) > live (the live table) > the screens (frame, roster, log, tables, session_screen) > summaries >
systems (tension, anomaly, manners) > handoff > kit > core. A package never imports one
above it, and screens (like systems) never import each other. A tap: the shell calls
ui.core.step, then runs the effects it queued (storage through ui.keeping.runners).
"""
