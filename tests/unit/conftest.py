"""Unit tests run under CPython with `py/` importable, so `import rules` works."""

import sys
from pathlib import Path

PY = Path(__file__).resolve().parents[2] / "py"
if str(PY) not in sys.path:
    sys.path.insert(0, str(PY))
