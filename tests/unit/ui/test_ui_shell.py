"""ui.shell under CPython, with stand-ins for pyscript and pyodide: the command table has one row
for every kind of command (ui.shell.commands); background work (reading a file, sharing, copying,
the storage answer, odds, loading screens) that fails says so on screen and leaves its traceback
in the console, never nothing (ui.shell.background, ui.shell.browser); and an import is the first
thing a fresh start can do (session.links.files, loaded on first use, is not needed before)."""
from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from session import new_session
from ui.core import actions
from ui.core.state import AppState

ROOT = Path(__file__).resolve().parents[3]


SHELL = ("ui.shell", "ui.shell.commands", "ui.shell.browser", "ui.shell.channels", "ui.shell.background",
         "ui.shell.scripts", "ui.shell.scanner", "ui.shell.storage")


@pytest.fixture
def shell(monkeypatch):
    """ui.shell's modules imported against stand-ins for the browser modules (and forgotten after):
    shell("browser") is ui.shell.browser."""
    browser = mock.MagicMock()
    for name in ("pyscript", "pyscript.ffi", "pyodide", "pyodide.ffi", "js"):
        monkeypatch.setitem(sys.modules, name, browser)
    for name in SHELL:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield lambda name: importlib.import_module(f"ui.shell.{name}")
    for name in SHELL:
        sys.modules.pop(name, None)


def test_every_kind_of_command_has_one_row_with_its_runner_and_a_failure_sentence(shell):
    from ui.core import commands
    from ui.keeping import runners

    kinds = {value for name, value in vars(commands).items() if name.isupper() and isinstance(value, str)}
    table = shell("commands").TABLE
    assert set(table) == kinds
    assert all(callable(row.run) for row in table.values())
    said_by_the_command = {commands.JOB, *runners.NEED_A_LIBRARY}  # a job names its failure; storage says why
    assert [kind for kind, row in table.items() if not row.failure and kind not in said_by_the_command] == []


def settle(work):
    async def main():
        work()
        for _ in range(5):
            await asyncio.sleep(0)
    asyncio.run(main())


def test_background_work_that_fails_says_so_and_keeps_the_traceback(shell, capsys):
    state = AppState(session=new_session())
    redrawn = []

    async def deep():
        raise RecursionError("maximum recursion depth exceeded")

    settle(lambda: shell("background").later(state, lambda: redrawn.append(True), deep(), "That did not work here."))
    assert state.message.text == "That did not work here." and state.message.tone == "error"
    assert redrawn == [True]
    assert "RecursionError" in capsys.readouterr().err


class Chosen:
    name, size = "friday.json", 10

    async def text(self):
        return "{}"


def test_a_file_whose_handling_breaks_gets_a_message_naming_it(shell, monkeypatch, capsys):
    def breaks(state, event):
        raise TypeError("a value no check foresaw")

    monkeypatch.setitem(actions.HANDLERS, "test-breaks", breaks)
    state = AppState(session=new_session())
    element = mock.MagicMock()
    element.files.length = 1
    element.files.item.return_value = Chosen()
    settle(lambda: shell("browser").read_file(state, {"action": "test-breaks"}, element, lambda: None,
                                               "That file could not be read."))
    assert "Something went wrong with" in state.message.text and "friday.json" in state.message.text
    assert "TypeError" in capsys.readouterr().err


def test_import_is_the_first_thing_done_after_start():
    # A fresh interpreter where only start-up ran: session.links.files (loaded lazily) is not in yet.
    probe = """
from session import Library, MemoryStore
from ui import router
from ui.core.actions import Input, dispatch
from ui.core.opening import starting_state
state = starting_state(Library(MemoryStore()), "http://localhost/")
state.screen = "session"
router.page(state)
assert "session.links.files" not in __import__("sys").modules
assert dispatch(state, "log-import", Input())
assert state.commands == [("read-file", {"action": "log-import-text", "limit": 80_000_000})], state.message
"""
    subprocess.run([sys.executable, "-c", probe], check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "py")})


def test_the_page_objects_are_looked_up_when_used_not_at_import(monkeypatch):
    """ui.shell imports where there is no page (the build's memory snapshot, under Node); window,
    document and the FFI's helpers then go to the page's modules at each use."""
    import types

    from ui.shell import page_objects

    for name in ("pyscript", "pyscript.ffi"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(ImportError):
        page_objects.window.location  # noqa: B018  (no page: found only when used)
    location = types.SimpleNamespace(href="http://localhost/")
    monkeypatch.setitem(sys.modules, "pyscript", types.SimpleNamespace(window=types.SimpleNamespace(location=location),
                                                                       document=None))
    monkeypatch.setitem(sys.modules, "pyscript.ffi", types.SimpleNamespace(is_none=lambda value: value is None))
    assert page_objects.window.location is location
    page_objects.window.name = "table"
    assert sys.modules["pyscript"].window.name == "table"
    assert page_objects.is_none(None) and not page_objects.is_none(0)
    assert getattr(page_objects.window, "tableside", None) is None
