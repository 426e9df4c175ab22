"""The deployable folder holds exactly what the page needs, all of it local."""
import ast
import importlib.util
import io
import lzma
import re
import tomllib
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from build import NEVER_IMPORTED, SHIPPED_BYTECODE_SYSTEMS, bytecode_files, download_wheels, pinned_page_packages
from shipped_source import documented
from served_size import OWN_CODE_BUDGET, own_code_bytes, snapshot_bytes

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"

pytestmark = pytest.mark.skipif(not (DIST / "index.html").exists(), reason="run `make build` first")


def pyscript_config():
    return tomllib.loads((DIST / "pyscript.toml").read_text())


def app_zip() -> zipfile.ZipFile:
    """Our code as the page gets it: the zip inside the xz stream that [files] names."""
    [path] = [Path(DIST, name[2:]) for name in pyscript_config()["files"] if "/app/" in name]
    return zipfile.ZipFile(io.BytesIO(lzma.decompress(path.read_bytes())))


def source_name(name: str) -> str:
    return name.removesuffix("c") if name.endswith(".pyc") else name


OURS = ("rules/", "session/", "ui/")  # py/'s packages; the bundle also holds the page's packages


def page_packages() -> dict[str, dict[str, bytes]]:
    """The page's packages in our code's bundle: distribution (e.g. icepool-2.1.3) -> the files of
    its wheel (the one the build downloaded) that the bundle holds."""
    with app_zip() as archive:
        names = set(archive.namelist())
        packages = {}
        for wheel in download_wheels(pinned_page_packages()):
            with zipfile.ZipFile(wheel) as files:
                shipped = names & set(files.namelist())
            packages["-".join(wheel.stem.split("-")[:2])] = {path: archive.read(path) for path in shipped}
        return packages


class References(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value and not value.startswith("#"):
                self.urls.append(value)


def test_every_python_module_under_py_reaches_the_page():
    sources = {p.relative_to(ROOT / "py").as_posix() for p in (ROOT / "py").rglob("*.py")
               if "__pycache__" not in p.parts}
    with app_zip() as archive:
        shipped = [source_name(name) for name in archive.namelist() if name.startswith(OURS)]
    assert sources and sorted(sources) == sorted(shipped)


def test_the_modules_a_new_sessions_first_screen_imports_ship_as_bytecode_for_pyodides_python():
    with app_zip() as archive:
        compiled = {source_name(name) for name in archive.namelist() if name.endswith(".pyc")}
        magic = {archive.read(name + "c")[:4] for name in compiled}
    assert compiled == bytecode_files(SHIPPED_BYTECODE_SYSTEMS) and SHIPPED_BYTECODE_SYSTEMS == ("tension",)
    assert {"ui/shell/app.py", "ui/systems/tension/view.py"} <= compiled
    assert {"ui/systems/anomaly/view.py", "ui/systems/manners/view.py"}.isdisjoint(compiled)  # in the snapshot's zip
    assert len(magic) == 1 and magic != {importlib.util.MAGIC_NUMBER}  # Pyodide's 3.14, not this 3.11


def test_the_other_modules_ship_as_source_for_readable_tracebacks():
    with app_zip() as archive:
        sources = {name for name in archive.namelist() if name.endswith(".py") and name.startswith(OURS)}
    assert sources.isdisjoint(bytecode_files(SHIPPED_BYTECODE_SYSTEMS)) and "ui/screens/log/view.py" in sources


def shape(source: str) -> tuple[str, list]:
    """A module's code without its docstrings, and the line of every node: what runs and what a
    traceback names."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body[0].value.value = ""
    return ast.dump(tree), [(type(node).__name__, node.lineno) for node in ast.walk(tree) if hasattr(node, "lineno")]


def test_our_code_ships_without_comments_and_docstrings_on_the_same_lines():
    with app_zip() as archive:
        for name in (name for name in archive.namelist() if name.endswith(".py") and name.startswith(OURS)):
            original = (ROOT / "py" / name).read_text(encoding="utf-8")
            shipped = archive.read(name).decode("utf-8")
            assert shape(shipped) == shape(original), name
            assert len(shipped.splitlines()) == len(original.splitlines()), name
            assert not [token for token in re.findall(r"^\s*#.*$", shipped, re.M)], name


def test_pyscript_config_loads_nothing_from_another_host():
    config = pyscript_config()
    assert "packages" not in config
    interpreter = config["interpreter"]  # our wrapper of Pyodide's loadPyodide, and what it imports
    assert interpreter == "./static/python.mjs" and (DIST / interpreter).is_file()
    imported = re.findall(r'from "([^"]+)"', (DIST / interpreter).read_text())
    assert imported and all(name.startswith(("../vendor/pyodide-", "./")) and (DIST / "static" / name).resolve().is_file()
                            for name in imported)
    for source in config["files"]:
        assert source.startswith("./") and (DIST / source).is_file(), source


def test_page_python_packages_are_the_pinned_ones_in_our_codes_bundle():
    pins = [line for line in (ROOT / "requirements/page.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    with app_zip() as archive:  # each pinned version's licence, and every file ours or a package's
        assert {name.split("/")[0].removesuffix(".dist-info") for name in archive.namelist()
                if ".dist-info/" in name} == {pin.replace("==", "-") for pin in pins}
        assert {name for name in archive.namelist() if not name.startswith(OURS)} \
            == {path for files in page_packages().values() for path in files}
    assert list(pyscript_config()["files"].values()) == ["./py.zip.xz"]


def test_page_python_packages_ship_their_licences_and_code_not_what_the_page_never_reads():
    for dist, files in page_packages().items():
        assert any("/licenses/" in name for name in files), dist
        assert not [name for name in files if name.endswith((".pyi", "METADATA", "RECORD")) or ".data/" in name]
        assert not set(files) & set(NEVER_IMPORTED)


def test_page_python_packages_ship_without_docstrings_but_with_their_comments():
    for dist, files in page_packages().items():
        modules = {name: data.decode("utf-8") for name, data in files.items() if name.endswith(".py")}
        licences = [name for name in files if "LICENSE" in name.upper()]
        docstrings = {owner.body[0].value.value for text in modules.values() for owner in documented(ast.parse(text))}
        assert modules and docstrings == {""}, dist
        assert any(re.search(r"^\s*#", text, re.M) for text in modules.values()), dist
        assert licences, dist


def test_every_file_index_html_names_is_in_the_folder():
    parser = References()
    parser.feed((DIST / "index.html").read_text())
    assert parser.urls
    for url in parser.urls:
        assert url.startswith("./"), url
        assert (DIST / url).is_file(), url


def test_no_shipped_text_file_names_another_host():
    shipped = [DIST / "index.html", DIST / "pyscript.toml", *(DIST / "static").rglob("*")]
    pattern = re.compile(r"https?://(?!localhost|127\.0\.0\.1)[\w.-]+")
    for path in shipped:
        if path.is_file() and path.suffix in (".html", ".toml", ".css", ".js", ".json", ".webmanifest"):
            assert not pattern.search(path.read_text()), path


def test_folder_holds_no_development_files():
    names = {p.relative_to(DIST).as_posix() for p in DIST.rglob("*")}
    assert not any(part in ("node_modules", "tests", "__pycache__") for name in names for part in name.split("/"))
    assert not any(name.endswith(".map") for name in names)


def test_stdlib_ships_as_bytecode():
    [stdlib] = DIST.glob("vendor/pyodide-*/python_stdlib.zip")
    with zipfile.ZipFile(stdlib) as archive:
        names = archive.namelist()
    assert "json/__init__.pyc" in names and "json/__init__.py" not in names


def test_vendor_folder_names_change_with_their_content():
    folders = sorted(p.name for p in (DIST / "vendor").iterdir())
    assert all(re.fullmatch(r"[a-z]+(-[\d.]+)?-[0-9a-f]{10}", name) for name in folders), folders


def test_our_code_and_packages_fit_the_budget_as_served_with_the_snapshot_apart():
    own, snapshot = own_code_bytes(DIST), snapshot_bytes(DIST)
    print(f"\n  our code and packages as served: {own:,} bytes (budget {OWN_CODE_BUDGET:,}); "
          f"Python's memory snapshot, apart: {snapshot:,} bytes")
    assert own <= OWN_CODE_BUDGET
