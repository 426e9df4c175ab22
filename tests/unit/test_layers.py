"""The architecture holds: import-linter's contracts in pyproject.toml are kept.

Only what grimp can see is checked: ui.router also loads screens by name
(importlib), which the UI unit tests exercise by drawing every screen.
"""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint(py: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--config", str(ROOT / "pyproject.toml")],
                          cwd=ROOT, env={"PYTHONPATH": str(py), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=300)


def test_every_import_contract_is_kept():
    completed = lint(ROOT / "py")
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-2000:]
    assert "0 broken" in completed.stdout


# One import that breaks it, for every contract in pyproject.toml (by id): module, what it imports.
BREAKS = {
    "packages": ("session.errors", "ui.core.clock"),  # the model never imports the page
    "session-parts": ("session.replica", "session.links.v2"),  # how a session is kept never imports how it travels
    "pure": ("ui.kit.html", "pyscript"),  # pure code never touches the browser
    "kit": ("ui.kit.controls", "ui.core.state"),  # markup building blocks know no state
    "ui-layers": ("ui.systems.tension.view", "ui.screens.log.record"),  # a system never imports a screen
    "keeping": ("ui.keeping.progress", "ui.keeping.first_paint"),  # the table in progress never the snapshot
    "screens": ("ui.screens.log.view", "ui.screens.roster.sheets"),  # a screen never imports another
    "arrivals": ("ui.arrivals.changes", "ui.arrivals.files"),
    "systems": ("ui.systems.handoff", "ui.systems.summaries"),  # Show to the GM sits under every system
    "feature": ("ui.screens.roster.actions", "ui.screens.roster.view"),  # actions never import their view
    "acyclic": ("ui.core.state", "ui.core.step"),  # step imports state: a cycle
}


def contract_names() -> dict[str, str]:
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    return {contract["id"]: contract["name"] for contract in contracts}


def test_each_contract_bites(tmp_path):
    names = contract_names()
    assert set(BREAKS) == set(names), "every contract needs an import that breaks it here"
    py = tmp_path / "py"
    shutil.copytree(ROOT / "py", py, ignore=shutil.ignore_patterns("__pycache__"))
    for module, imported in BREAKS.values():
        path = py.joinpath(*module.split(".")).with_suffix(".py")
        with path.open("a") as source:
            source.write(f"\nimport {imported}  # noqa: E402\n")
    completed = lint(py)
    assert completed.returncode != 0
    report = " ".join(completed.stdout.split())  # contract names wrap across lines
    for contract, (module, imported) in BREAKS.items():
        assert f"{' '.join(names[contract].split())} BROKEN" in report, contract
        if contract == "acyclic":  # named relative to their package: ".state -> .step"
            module, imported = (f".{name.rsplit('.', 1)[1]}" for name in (module, imported))
        assert f"{module} -> {imported}" in report, contract
    assert f"{len(BREAKS)} broken" in report


def by_name() -> list[str]:
    from ui import router

    named = [name for modules in router.every_screen() for name in modules]
    return named + [*router.DRAFT_CHECKS.values(), *router.FACE_DOWN.values()]


def test_every_module_loaded_by_name_is_in_a_layer_below_the_loader():
    import importlib.util

    below = ("screens", "arrivals", "systems")  # pyproject.toml's "ui-layers": the layers under the router
    for name in by_name():
        assert importlib.util.find_spec(name) is not None, name
        assert name.split(".")[1] in below, f"{name} is not below ui.router"


def test_nothing_else_in_ui_loads_a_module_by_name():
    loaders = [path.relative_to(ROOT).as_posix() for path in (ROOT / "py" / "ui").rglob("*.py")
               if "import_module" in path.read_text() or "__import__" in path.read_text()]
    # ui.shell.page_objects loads only the page's own modules (pyscript, pyodide.ffi), by name at
    # call time so that the build can import ui.shell where they do not exist.
    assert sorted(loaders) == ["py/ui/router.py", "py/ui/shell/page_objects.py"]


MAX_MODULE_LINES = 650
MAX_CLASS_LINES = 250


def test_no_module_or_class_grows_past_what_a_newcomer_reads_in_one_go():
    import ast

    too_long = []
    for path in sorted((ROOT / "py").rglob("*.py")):
        text = path.read_text()
        name = path.relative_to(ROOT).as_posix()
        if text.count("\n") > MAX_MODULE_LINES:
            too_long.append(f"{name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES:
                too_long.append(f"{name}: class {node.name}, {node.end_lineno - node.lineno + 1} lines")
    assert too_long == []
