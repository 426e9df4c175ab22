"""Tableside's browser shell: DOM handlers that turn taps into conflict records
and results into markup. All rule logic lives in `rules`; nothing here decides
an outcome."""
