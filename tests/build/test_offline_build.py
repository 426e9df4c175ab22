"""The build's offline, install and boot pieces: the service worker at the top level
with a precache list of every file the page loads (with content hashes, so each
deploy changes its cache name), the early downloads, bytecode without docstrings, the
manifest and its icons."""
import base64
import gzip
import hashlib
import json
import re
import shutil
import struct
import tomllib
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from build import UNUSED_PYSCRIPT_FEATURES, js_imports, snapshot_length, write_service_worker

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
PRECACHE_ENTRY = re.compile(r'\["(\./[^"]*)", "(sha256-[^"]+)"\]')
VERSION = re.compile(r'^const VERSION = "([0-9a-f]{12})";$', re.MULTILINE)

pytestmark = pytest.mark.skipif(not (DIST / "sw.js").exists(), reason="run `make build` first")


def precache(folder=DIST) -> dict[str, str]:
    return dict(PRECACHE_ENTRY.findall((folder / "sw.js").read_text()))


def integrity(path: Path) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()


def file_for(url: str, folder=DIST) -> Path:
    return folder / ("index.html" if url == "./" else url[2:])


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("href") or attrs.get("src"):
            self.links.append((tag, attrs))


def index_links():
    parser = Links()
    parser.feed((DIST / "index.html").read_text())
    return parser.links


def test_the_worker_is_published_at_the_top_level_with_a_version():
    text = (DIST / "sw.js").read_text()
    assert VERSION.search(text)
    assert text.count("const PRECACHE = [") == 1
    assert not (DIST / "static" / "sw.js").exists()
    assert not (DIST / "static" / "manifest.webmanifest").exists()


def test_every_precached_file_is_in_the_folder_with_its_hash():
    entries = precache()
    assert entries
    for url, expected in entries.items():
        assert file_for(url).is_file(), url
        assert integrity(file_for(url)) == expected, url


def test_the_precache_holds_everything_the_page_names():
    entries = set(precache())
    named = {"./", "./manifest.webmanifest"}
    named |= {url for _, attrs in index_links() if (url := attrs.get("href") or attrs.get("src")).startswith("./")}
    config = tomllib.loads((DIST / "pyscript.toml").read_text())
    named |= {config["interpreter"], *config["files"]}
    [pyodide] = DIST.glob("vendor/pyodide-*")
    named |= {"./" + path.relative_to(DIST).as_posix() for path in pyodide.iterdir()}
    manifest = json.loads((DIST / "manifest.webmanifest").read_text())
    named |= {icon["src"] for icon in manifest["icons"]}
    assert named - entries == set()


def test_unused_pyscript_features_are_not_precached():
    names = [url.rsplit("/", 1)[-1] for url in precache() if "/vendor/pyscript-" in url]
    assert "core.js" in names
    assert not [name for name in names if name.startswith(UNUSED_PYSCRIPT_FEATURES)]
    assert "./sw.js" not in precache() and "./build.json" not in precache()


def test_the_qr_decoder_is_vendored_named_by_the_scanner_and_precached():
    """Scanning works offline: static/scan.js loads jsQR (pinned in package.json) from dist/."""
    pin = json.loads((ROOT / "package.json").read_text())["dependencies"]["jsqr"]
    [decoder] = DIST.glob(f"vendor/jsqr-{pin}-*/jsQR.js")
    url = "./" + decoder.relative_to(DIST).as_posix()
    scanner = (DIST / "static" / "scan.js").read_text()
    assert f'"{url}"' in scanner and "./vendor/jsqr/" not in scanner
    assert precache()[url] == integrity(decoder)
    assert precache()["./static/scan.js"] == integrity(DIST / "static" / "scan.js")


def test_the_precache_names_no_other_host():
    assert not re.search(r"https?://", (DIST / "sw.js").read_text())


def test_a_changed_file_changes_the_version_and_so_the_cache(tmp_path):
    copy = tmp_path / "dist"
    shutil.copytree(DIST, copy)
    shipped = VERSION.search((DIST / "sw.js").read_text())[1]
    assert write_service_worker(copy) == shipped  # the same files give the same version
    css = copy / "static" / "app.css"
    css.write_text(css.read_text() + "\n")
    changed = write_service_worker(copy)
    assert changed != shipped
    assert precache(copy)["./static/app.css"] == integrity(css)


def test_the_core_chunk_is_modulepreloaded():
    [pyscript] = DIST.glob("vendor/pyscript-*")
    preloaded = {attrs["href"] for tag, attrs in index_links() if attrs.get("rel") == "modulepreload"}
    chunks = js_imports(pyscript / "core.js")
    assert chunks and all(name.startswith("core-") for name in chunks)
    for name in ["core.js", *chunks]:
        assert "./" + (pyscript / name).relative_to(DIST).as_posix() in preloaded


def boot_script() -> dict:
    [boot] = [attrs for tag, attrs in index_links() if attrs.get("src") == "./static/boot.js"]
    return boot


def test_every_file_fetched_at_start_up_downloads_early_and_once():
    """boot.js starts these downloads and answers the page's first fetch() of each with
    them; it compiles the wasm as it downloads and, from the worker's cache, reads Python's
    memory snapshot (its size written beside it). No <link rel=preload as=fetch>: WebKit's
    fetch() does not reuse one, so the file (the 9.6 MB wasm too) would download twice."""
    [pyodide] = DIST.glob("vendor/pyodide-*")
    config = tomllib.loads((DIST / "pyscript.toml").read_text())
    early = boot_script()["data-fetch-early"].split()
    at_start_up = ["python_stdlib.zip", "pyodide-lock.json"]
    needed = [f"./{(pyodide / name).relative_to(DIST).as_posix()}" for name in at_start_up]
    needed += ["./pyscript.toml", "./py/ui/main.py", *config["files"]]
    assert sorted(early) == sorted(needed) and len(set(early)) == len(early)
    assert boot_script()["data-compile-early"] == f"./{(pyodide / 'pyodide.asm.wasm').relative_to(DIST).as_posix()}"
    [snapshot] = DIST.glob("app/python-*.snapshot.gz")
    assert boot_script()["data-snapshot"] == f"./{snapshot.relative_to(DIST).as_posix()}"
    assert boot_script()["data-snapshot-bytes"] == str(snapshot_length(snapshot))
    for url in [*early, boot_script()["data-compile-early"], boot_script()["data-snapshot"]]:
        assert file_for(url).is_file() and url in precache(), url
    assert [attrs for tag, attrs in index_links() if attrs.get("rel") == "preload"] == []


def test_bytecode_leaves_docstrings_out():
    [stdlib] = DIST.glob("vendor/pyodide-*/python_stdlib.zip")
    with zipfile.ZipFile(stdlib) as archive:
        bytecode = archive.read("json/__init__.pyc")
    assert b"JSON (JavaScript Object Notation)" not in bytecode  # the module's docstring
    assert b"JSONDecodeError" in bytecode


def test_the_manifest_makes_the_app_installable():
    manifest = json.loads((DIST / "manifest.webmanifest").read_text())
    assert manifest["name"] == "Tableside" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["theme_color"] == manifest["background_color"] == "#15171d"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    links = {attrs.get("rel"): attrs.get("href") for tag, attrs in index_links() if tag == "link"}
    assert links["manifest"] == "./manifest.webmanifest"
    assert links["apple-touch-icon"]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return struct.unpack(">II", data[16:24])


def test_every_icon_is_a_png_of_its_declared_size():
    manifest = json.loads((DIST / "manifest.webmanifest").read_text())
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        width, height = png_size(DIST / icon["src"])
        assert f"{width}x{height}" == icon["sizes"], icon["src"]
    [touch] = [attrs["href"] for tag, attrs in index_links() if attrs.get("rel") == "apple-touch-icon"]
    assert png_size(DIST / touch) == (180, 180)


def test_full_bleed_icons_are_opaque():
    """Maskable and iOS icons are cropped by the launcher: no transparent corners."""
    for name in ("icon-maskable-512.png", "apple-touch-icon.png"):
        colour_type = (DIST / "static" / "icons" / name).read_bytes()[25]
        assert colour_type in (0, 2), name  # greyscale or RGB, no alpha channel
