"""The trimmed standard library still holds every module the page can import.

tools/build.py leaves out stdlib modules the page never imports (STDLIB_LEFT_OUT,
most codecs). These checks read imports statically, so a module added to py/
or imported by a shipped package is caught here, not at the table.
"""
import ast
import io
import lzma
import re
import zipfile

import pytest

from build import PYODIDE_STDLIB, ROOT

DIST = ROOT / "dist"
ORIGINAL = ROOT / "node_modules" / "pyodide" / PYODIDE_STDLIB

pytestmark = pytest.mark.skipif(not (DIST / "index.html").exists(), reason="run `make build` first")


def module_names(names) -> set[str]:
    """Dotted module names of the .py/.pyc entries of a stdlib zip."""
    modules = set()
    for name in names:
        if name.endswith((".py", ".pyc")):
            modules.add(name.rsplit(".", 1)[0].removesuffix("/__init__").replace("/", "."))
    return modules


# Module-level imports of stdlib sources, read by pattern: they use Python 3.14 syntax
# (t-strings) that the CPython 3.11 running the tests cannot parse.
TOP_LEVEL_IMPORT = re.compile(rb"^(?:import ([\w., ]+)|from ([\w.]+) import ([\w, ]+))", re.MULTILINE)


def imported_at_load(source: bytes) -> set[str]:
    found = set()
    for names, module, members in TOP_LEVEL_IMPORT.findall(source):
        if names:
            found.update(name.split(" as ")[0].strip() for name in names.decode().split(","))
        else:
            module = module.decode()
            found.add(module)
            found.update(f"{module}.{member.split(' as ')[0].strip()}" for member in members.decode().split(","))
    return found


def imported(source: bytes) -> set[str]:
    """Every absolute import in a source file, at any depth, `from a import b` also as `a.b`."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.fixture(scope="module")
def stdlib():
    [shipped] = DIST.glob(f"vendor/pyodide-*/{PYODIDE_STDLIB}")
    with zipfile.ZipFile(ORIGINAL) as original, zipfile.ZipFile(shipped) as trimmed:
        return module_names(original.namelist()), module_names(trimmed.namelist())


def package_sources():
    """The page's packages' modules, in our code's bundle beside py/'s."""
    [bundle] = DIST.glob("app/py-*.zip.xz")
    with zipfile.ZipFile(io.BytesIO(lzma.decompress(bundle.read_bytes()))) as archive:
        for name in archive.namelist():
            if name.endswith(".py") and not name.startswith(("rules/", "session/", "ui/")):
                yield name, archive.read(name)


def test_every_stdlib_module_our_code_imports_is_shipped(stdlib):
    everything, shipped = stdlib
    missing = {(path.name, name) for path in (ROOT / "py").rglob("*.py")
               for name in imported(path.read_bytes())
               if name in everything and name not in shipped}
    assert missing == set()


def test_every_stdlib_module_a_package_imports_when_loaded_is_shipped(stdlib):
    """Imports inside functions are left to the features we use (segno's command line and
    show(), which open a browser, are not)."""
    everything, shipped = stdlib
    missing = {(where, name) for where, source in package_sources()
               for name in imported_at_load(source)
               if name in everything and name not in shipped}
    assert missing == set()


def test_shipped_stdlib_modules_import_only_shipped_modules_at_load_time(stdlib):
    everything, shipped = stdlib
    missing = set()
    with zipfile.ZipFile(ORIGINAL) as original:
        for name in original.namelist():
            module = name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            if name.endswith(".py") and module in shipped:
                missing |= {(module, imported_name)
                            for imported_name in imported_at_load(original.read(name))
                            if imported_name in everything and imported_name not in shipped}
    assert missing == set()


def test_the_trimmed_stdlib_is_much_smaller_than_the_full_one(stdlib):
    everything, shipped = stdlib
    assert "json" in shipped and "asyncio" in shipped and "unittest" not in shipped
    assert len(shipped) < len(everything)
