"""Which of our modules the page imports before its first screen, counted under CPython.

Imports ui.shell.app with stand-ins for the browser modules (pyscript, pyodide),
builds the starting state and draws the first screen of each rule system, the
way ui.shell.app.start does. Screens other than the open one must not be among
them: they load on first use (ui.router). Used by tools/build.py (these
ship as bytecode), bench/bench_boot.py (the count it prints) and tests/unit/test_startup.py.

Usage: python tools/startup_modules.py   (prints one module per line)
"""
from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = ("rules", "session", "ui")
SYSTEMS = ("tension", "anomaly", "manners")

PROBE = """
import json, sys, types
from unittest import mock

browser = mock.MagicMock()
for name in ("pyscript", "pyscript.ffi", "pyodide", "pyodide.ffi", "js"):
    sys.modules[name] = browser
before = set(sys.modules)

from ui.shell import app  # noqa: E402
from session import Library, MemoryStore  # noqa: E402
from ui import router  # noqa: E402
from ui.core.opening import starting_state  # noqa: E402

state = starting_state(Library(MemoryStore()), "http://localhost/")
state.session["system"] = sys.argv[1]
router.page(state)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def startup_modules(system: str = "tension") -> list[str]:
    """Our modules (rules, session, ui) imported before the first screen of `system` is drawn."""
    completed = subprocess.run([sys.executable, "-c", PROBE, system], cwd=ROOT, capture_output=True, text=True,
                               env={"PYTHONPATH": str(ROOT / "py"), "PATH": "/usr/bin:/bin"}, check=True)
    return [name for name in json.loads(completed.stdout) if name.split(".")[0] in OURS]


@functools.cache
def first_screen_modules(systems: tuple[str, ...] = SYSTEMS) -> frozenset[str]:
    """Our modules these systems' first screens import (tools/build.py: as bytecode)."""
    return frozenset(name for system in systems for name in startup_modules(system))


# Imports the modules named in argv[1] (JSON) with the browser's modules refused; prints those
# that imported.
PAGE_FREE_PROBE = """
import importlib, json, sys

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pyscript", "pyodide", "js"):
            raise ImportError(f"{name} exists only in the page")

sys.meta_path.insert(0, Refuse())
imported = []
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
        imported.append(name)
    except ImportError:
        pass
print(json.dumps(imported))
"""


@functools.cache
def page_free_modules() -> tuple[str, ...]:
    """The first screen's modules that import nothing of the page (pyscript, js): the build
    imports them into Python's memory snapshot (tools/snapshot.py)."""
    completed = subprocess.run([sys.executable, "-c", PAGE_FREE_PROBE, json.dumps(sorted(first_screen_modules()))],
                               cwd=ROOT, capture_output=True, text=True, check=True,
                               env={"PYTHONPATH": str(ROOT / "py"), "PATH": "/usr/bin:/bin"})
    return tuple(json.loads(completed.stdout))


if __name__ == "__main__":
    print("\n".join(startup_modules(*sys.argv[1:2])))
