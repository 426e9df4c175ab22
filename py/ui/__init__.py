"""Tableside's browser side: DOM handlers that turn taps into conflict records and
results into markup. State in, markup out: views and actions are pure Python
(tested under CPython); only ui.shell touches the browser. All rule logic lives
in `rules`; nothing here decides an outcome.

Layers, top to bottom (pyproject.toml's import-linter contracts enforce them):
main > shell > screens (frame, roster, log, tables, sessions) > summaries >
systems (tension, anomaly, manners) > kit > core. A package never imports one
above it, and screens (like systems) never import each other.
"""
