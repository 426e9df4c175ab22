"""Tableside's page: taps in, conflict records and markup out. State in, markup out: everything
here is pure Python, tested under CPython, except ui.shell (and main.py), the only code that
touches the browser; all rule logic lives in `rules`, sessions in `session`.

The packages, top to bottom, import only downwards: the order is written once, in
pyproject.toml's import-linter contract "ui-layers" (one line of reason beside each), and each
package's __init__ says what lives there. A tap: the shell calls ui.core.step, carries out the
commands it queued (ui.shell.commands) and patches the regions that changed.
"""
