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


def test_the_contracts_catch_a_screen_importing_another_the_browser_in_pure_code_and_links_in_the_replica(tmp_path):
    py = tmp_path / "py"
    shutil.copytree(ROOT / "py", py, ignore=shutil.ignore_patterns("__pycache__"))
    with (py / "ui" / "tension" / "view.py").open("a") as view:
        view.write("\nfrom ui.screens.log import record  # noqa: E402\n")
    with (py / "ui" / "kit" / "html.py").open("a") as html:
        html.write("\nimport pyscript  # noqa: E402\n")
    with (py / "session" / "replica.py").open("a") as replica:
        replica.write("\nfrom session.links import v2  # noqa: E402\n")
    completed = lint(py)
    assert completed.returncode != 0
    assert "ui.systems.tension.view -> ui.screens.log.record" in completed.stdout
    assert "ui.kit.html -> pyscript" in completed.stdout
    assert "session.replica -> session.links.v2" in completed.stdout


def by_name() -> list[str]:
    from ui import router

    named = [name for modules in screens.every_screen() for name in modules]
    return named + [*screens.DRAFT_CHECKS.values(), *screens.FACE_DOWN.values()]


def test_every_module_loaded_by_name_is_in_a_layer_below_the_loader():
    import importlib.util

    below = ("live", "frame", "roster", "log", "tables", "session_screen", "tension", "anomaly", "manners")
    for name in by_name():
        assert importlib.util.find_spec(name) is not None, name
        assert name.split(".")[1] in below, f"{name} is not below ui.router"


def test_nothing_else_in_ui_loads_a_module_by_name():
    loaders = [path.relative_to(ROOT).as_posix() for path in (ROOT / "py" / "ui").rglob("*.py")
               if "import_module" in path.read_text() or "__import__" in path.read_text()]
    assert loaders == ["py/ui/router.py"]


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
