"""Python's memory as the build leaves it (tools/snapshot.mjs), and what a start from it does first.

Runs inside Pyodide as the module `tableside_snapshot`. At build time prepare() imports what a
first screen needs that does not touch the page: our modules that import no pyscript (all of them:
ui.shell's look the page's objects up when used, ui.shell.page_objects) and the stdlib that
PyScript's own package imports; it keeps our code's zip, and PyScript's package compiled, in
memory. The memory is then saved.
static/python.mjs restores it and calls restored() before anything else runs.
"""
import ast
import importlib
import importlib.util
import os
import random
import sys
from importlib._bootstrap_external import _code_to_hash_pyc

APP_ZIP = "/home/pyodide/py.zip"  # where py/ui/main.py puts our code: tracebacks name it
HOME = "/home/pyodide/"  # PyScript writes its package here (pyscript/…) on every start
PAGE_ONLY = ("pyscript", "polyscript", "_pyscript", "js", "jsffi")  # modules that exist only in the page

app_zip = b""  # our code's zip, written back to APP_ZIP at each start
bytecode = {}  # path -> a .pyc PyScript's import of its package finds beside its sources


def prepare(modules: list[str], pyscript: dict[str, str]) -> None:
    """Our code's zip is at APP_ZIP; modules: ours to import; pyscript: PyScript's package as it
    writes it, path (e.g. pyscript/web.py) -> source."""
    global app_zip
    with open(APP_ZIP, "rb") as code:
        app_zip = code.read()
    sys.path.insert(0, APP_ZIP)
    for name in sorted(stdlib_imports(pyscript.values())) + modules:
        importlib.import_module(name)
    for path, source in pyscript.items():
        bytecode[importlib.util.cache_from_source(HOME + path)] = compiled(HOME + path, source)


def stdlib_imports(sources) -> set[str]:
    """The modules these sources import that this Python has (not PyScript's, not the page's)."""
    names = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names.add(node.module)
    return {name for name in names if name.split(".")[0] not in PAGE_ONLY and importlib.util.find_spec(name)}


def compiled(path: str, source: str) -> bytes:
    """A .pyc that Python checks against the source beside it (a hash, not a date): used when
    PyScript wrote that same source, compiled afresh otherwise."""
    code = compile(source, path, "exec", dont_inherit=True)
    return _code_to_hash_pyc(code, importlib.util.source_hash(source.encode()), checked=True)


def restored() -> None:
    """What the saved memory holds that must differ from one start to the next, made fresh; our
    code's zip and PyScript's bytecode written back (files are not part of the memory)."""
    random.seed()  # the module-level generator was seeded at build time (secrets reads the OS)
    with open(APP_ZIP, "wb") as unpacked:
        unpacked.write(app_zip)
    for path, data in bytecode.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as pyc:
            pyc.write(data)
    # No importlib.invalidate_caches(): it imports importlib.metadata (80 ms in WebKit), and the
    # folders are new (another mtime), which is what makes Python list them again.
