"""Build the deployable folder `dist/`: exactly the files the page loads.

Inputs: the repo's index.html, pyscript.toml, py/ and static/; Pyodide,
PyScript and morphdom from node_modules (pinned in package.json); the page's Python
packages as wheels pinned in requirements/page.txt. The stdlib is compiled
to bytecode with Pyodide's own Python (tools/precompile.mjs), and so are the modules
of ours a first screen imports; the packages and the rest of py/ stay source (readable
tracebacks; they load after the first screen), all of it in one xz stream. Python's memory
after its start and the first screen's imports is saved as a snapshot (tools/snapshot.mjs)
that later starts restore (static/python.mjs).

Every vendored folder and our code's bundle carry a content hash in their name, so
they can be cached as immutable; index.html and pyscript.toml name them.
static/sw.js becomes the top-level dist/sw.js (scope: the whole app) with the
precache list and a version prepended, so every deploy changes its bytes;
static/manifest.webmanifest is published as dist/manifest.webmanifest (its URLs
are relative to the site root).
Stdlib only: runs before any virtualenv exists (Netlify, CI, a fresh clone).
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import lzma
import re
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

from linking import table_grown_once
from shipped_source import shipped, without_docstrings  # tools/: beside this script
from startup_modules import SYSTEMS, first_screen_modules, page_free_modules

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
CACHE = ROOT / "build"
NODE_MODULES = ROOT / "node_modules"

PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"]
GLUE = "pyodide.asm.mjs"  # shipped with its function table grown once (tools/linking.py)
PYODIDE_STDLIB = "python_stdlib.zip"
PYODIDE_STDLIB_PATH = "/lib/python314.zip/"  # where Pyodide mounts the stdlib zip
FIXED_DATE = (1980, 1, 1, 0, 0, 0)
APP_PATH = "/home/pyodide/py.zip/"  # where py/ui/main.py imports our code from: tracebacks name it
APP_BUNDLE = "py.zip.xz"  # our code, as [files] writes it for py/ui/main.py
SHIPPED_BYTECODE_SYSTEMS = ("tension",)  # whose first screens ship as bytecode: a new session's system
# A 2 MB dictionary holds the whole zip (1.8 MB); xz's default (8 MB) would only take memory.
# Extreme, and literals read without position bits (lc=4, pb=0: text and bytecode are bytes, not
# words): 2 KB fewer than preset 9 alone.
BUNDLE_XZ = {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 1 << 21,
             "lc": 4, "lp": 0, "pb": 0}
# Standard library the page never imports: development tools, servers, mail, REPLs,
# processes and codecs nobody at the table needs; 1.7 MB of the 3.9 MB stdlib zip.
# Found by listing sys.modules after a full session in the page; tests/build checks that
# every module py/ or a shipped package imports is still in the zip.
STDLIB_LEFT_OUT = (
    "_pyrepl", "argparse", "bdb", "cProfile", "cmd", "code", "compileall",
    "_pydatetime", "_pyio",  # pure-Python stand-ins for C modules Pyodide has (_datetime, _io)
    "configparser", "ctypes", "curses", "dbm", "difflib", "doctest", "ensurepip", "filecmp",
    "fileinput", "ftplib", "getopt", "idlelib", "imaplib", "lib2to3", "mailbox", "modulefinder",
    "multiprocessing", "optparse", "pdb", "pickletools", "plistlib", "poplib", "profile",
    "pstats", "pyclbr", "pydoc", "pydoc_data", "runpy", "sched", "shelve", "smtplib",
    "socketserver", "sqlite3", "symtable", "tabnanny", "timeit",
    "tkinter", "tomllib", "trace", "tracemalloc", "turtle", "turtledemo", "unittest", "venv",
    "wave", "webbrowser", "wsgiref", "xmlrpc", "zipapp", "zoneinfo",
    # Entry points and servers inside kept packages, which import the modules above.
    "antigravity", "asyncio.__main__", "concurrent.futures.process", "http.server", "json.__main__",
    "json.tool", "logging.config",
)
# Of the codecs, only the ones text in this app can meet (UTF-8 above all; cp437 for zip names).
STDLIB_CODECS = (
    "__init__", "aliases", "ascii", "charmap", "cp437", "idna", "latin_1", "punycode",
    "raw_unicode_escape", "undefined", "unicode_escape", "utf_16", "utf_16_be", "utf_16_le",
    "utf_32", "utf_32_be", "utf_32_le", "utf_8", "utf_8_sig",
)
# PyScript chunks of features the page never uses: the code editor, the
# terminal, MicroPython (its unzip too) and `packages`. Not precached.
UNUSED_PYSCRIPT_FEATURES = ("codemirror", "xterm", "mpy", "zip", "pyodide_graph")
VERSION_STAMP = re.compile(r'data-version="[0-9a-z]*"')
JS_IMPORT = re.compile(r'(?:\bfrom\s*|\bimport\s*\(?\s*)"\./([\w.-]+\.js)"')
# Files published at the top level rather than under static/.
TOP_LEVEL = ("sw.js", "manifest.webmanifest")
JSQR_LOGICAL = "./vendor/jsqr/jsQR.js"  # in static/scan.js
INTERPRETER = "./static/python.mjs"  # pyscript.toml's interpreter: Pyodide's loadPyodide, wrapped
PYODIDE_LOGICAL = "../vendor/pyodide/"  # in static/python.mjs
SNAPSHOT_EARLY = "./app/python.snapshot.gz"  # in index.html
SNAPSHOT_PAGE = 4096  # the snapshot ships only its pages of this size that a fresh instance lacks


def short_hash(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths, key=lambda p: p.name):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def npm_version(package: str) -> str:
    return json.loads((NODE_MODULES / package / "package.json").read_text())["version"]


def pinned_page_packages() -> list[str]:
    lines = (ROOT / "requirements" / "page.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def download_wheels(pins: list[str]) -> list[Path]:
    """Pure-Python wheels for the page, fetched once into build/wheels."""
    folder = CACHE / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    wheels = []
    for pin in pins:
        name, version = pin.split("==")
        pattern = f"{name.replace('-', '_')}-{version}-*.whl"
        found = sorted(folder.glob(pattern))
        if not found:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                 "--only-binary=:all:", "--platform", "any", "--python-version", "3.14",
                 "--implementation", "py", "--dest", str(folder), pin],
                check=True,
            )
            found = sorted(folder.glob(pattern))
        if not found:
            sys.exit(f"build: no pure-Python wheel for {pin}")
        wheels.append(found[0])
    return wheels


def precompile(sources: list[Path], path_prefix: str) -> list[Path]:
    """Bytecode zips for `sources`, cached in build/pyc by a hash of their inputs."""
    tools = ("pyc_zip.py", "shipped_source.py", "precompile.mjs")
    recipe = b"".join((ROOT / "tools" / name).read_bytes() for name in tools) + path_prefix.encode()
    targets, pending = [], []
    for source in sources:
        key = hashlib.sha256(recipe + source.read_bytes()).hexdigest()[:16]
        name = "-".join(source.stem.split("-")[:2])  # icepool-2.1.3-py3-none-any -> icepool-2.1.3
        target = CACHE / "pyc" / key / f"{name}.zip"
        targets.append(target)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            pending += [str(source), str(target)]
    if pending:
        subprocess.run(["node", str(ROOT / "tools" / "precompile.mjs"), path_prefix, *pending],
                       check=True, cwd=ROOT)
    return targets


def hashed_folder(parent: Path, stem: str, files: list[Path]) -> Path:
    folder = parent / f"{stem}-{short_hash(files)}"
    folder.mkdir(parents=True)
    for file in files:
        shutil.copy2(file, folder / file.name)
    return folder


def stdlib_keeps(name: str) -> bool:
    """Whether the stdlib zip entry `name` (e.g. "email/utils.pyc") ships."""
    module = name.removesuffix(".pyc").removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    parts = module.split(".")
    if parts[0] == "encodings" and len(parts) > 1:
        return parts[1] in STDLIB_CODECS
    return not any(module == left or module.startswith(left + ".") for left in STDLIB_LEFT_OUT)


def trimmed_stdlib(compiled: Path) -> Path:
    """The compiled stdlib without the modules the page never imports (same entries, same dates)."""
    target = compiled.parent / "trimmed" / PYODIDE_STDLIB
    target.parent.mkdir(exist_ok=True)
    with zipfile.ZipFile(compiled) as source, zipfile.ZipFile(target, "w") as trimmed:
        for info in source.infolist():
            if stdlib_keeps(info.filename):
                trimmed.writestr(info, source.read(info))
    return target


def linked_glue(source: Path) -> Path:
    """Pyodide's pyodide.asm.mjs with its function table grown once at start-up (tools/linking.py)."""
    target = CACHE / "linked" / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(table_grown_once(source.read_text()))
    return target


def vendor_pyodide(vendor: Path) -> Path:
    source = NODE_MODULES / "pyodide"
    [compiled] = precompile([source / PYODIDE_STDLIB], PYODIDE_STDLIB_PATH)
    files = [source / name for name in PYODIDE_FILES if name != GLUE] + [linked_glue(source / GLUE)]
    files += [trimmed_stdlib(compiled)]
    return hashed_folder(vendor, f"pyodide-{npm_version('pyodide')}", files)


def vendor_pyscript(vendor: Path) -> Path:
    source = NODE_MODULES / "@pyscript" / "core" / "dist"
    files = sorted(p for p in source.iterdir() if p.suffix in (".js", ".css"))
    return hashed_folder(vendor, f"pyscript-{npm_version('@pyscript/core')}", files)


def vendor_jsqr(vendor: Path) -> Path:
    """jsQR, the QR decoder static/scan.js loads on the first scan where the browser has no
    BarcodeDetector; precached like everything in dist/, so scanning works offline."""
    files = [NODE_MODULES / "jsqr" / "dist" / "jsQR.js"]
    return hashed_folder(vendor, f"jsqr-{npm_version('jsqr')}", files)


def write_scanner(jsqr: Path) -> None:
    """dist/static/scan.js names the hashed jsQR folder."""
    scanner = DIST / "static" / "scan.js"
    text = scanner.read_text()
    if JSQR_LOGICAL not in text:
        sys.exit(f"build: static/scan.js must name {JSQR_LOGICAL}")
    scanner.write_text(text.replace(JSQR_LOGICAL, relative(jsqr / "jsQR.js")))


def vendor_morphdom(vendor: Path) -> Path:
    """morphdom: py/ui/shell/dom.py changes regions in place with it (static/regions.js)."""
    source = NODE_MODULES / "morphdom" / "dist" / "morphdom-umd.min.js"
    return hashed_folder(vendor, f"morphdom-{npm_version('morphdom')}", [source])


# Modules of the page's packages that nothing the page runs imports: segno's command line, and its
# helpers for vCard, Wi-Fi and geo codes.
NEVER_IMPORTED = ("segno/cli.py", "segno/helpers.py")


def read_by_the_page(name: str) -> bool:
    """Whether the page needs the wheel's file `name`. Not a wheel's metadata (its licences stay:
    they ask to go with every copy), nor type stubs, a man page or NEVER_IMPORTED: 17 KB."""
    top = name.split("/")[0]
    if top.endswith(".dist-info"):
        return "/licenses/" in name
    return not top.endswith(".data") and not name.endswith((".pyi", "/py.typed")) and name not in NEVER_IMPORTED


def page_packages() -> dict[str, bytes]:
    """The page's Python packages (requirements/page.txt), the files it reads, for our code's bundle.
    As source without docstrings (comments, licence headers and line numbers kept): the page
    imports them after it is ready (icepool for Anomaly odds, segno for QR codes), where
    compiling costs less than the bytes bytecode adds; the docstrings were 30% of their bytes."""
    entries = {}
    for wheel in download_wheels(pinned_page_packages()):
        with zipfile.ZipFile(wheel) as source:
            for entry in source.infolist():
                if not read_by_the_page(entry.filename):
                    continue
                data = source.read(entry)
                if entry.filename.endswith(".py"):
                    data = without_docstrings(data.decode("utf-8")).encode("utf-8")
                entries[entry.filename] = data
    return entries


def bundle_app_code(app: Path) -> tuple[Path, bytes]:
    """Our py/ tree and the page's packages as one xz stream around a zip of stored files
    (py/ui/main.py inflates it and imports from the zip); and, for the snapshot, the same zip with
    every first screen's modules as bytecode (snapshot_zip).

    The page ships as bytecode, compiled by Pyodide's own Python, only the modules the Tension
    Engine's first screen imports (a new session's system), so a first visit does not compile them
    (about 2 s at 4x CPU); the rest is source without comments and docstrings
    (tools/shipped_source.py): the other systems' own first-screen modules are compiled on a first
    visit to them (Anomaly 34 ms, Manner Cards 147 ms, unthrottled). A start from the snapshot
    uses neither: the snapshot holds its own zip, written back at each start (tools/snapshot.py).
    Bytecode compresses poorly file by file: in one xz stream our tree takes 256 KB, in a zip of
    deflated files about 400; the packages 97 KB in the same stream, 146 as zips of their own."""
    compiled = snapshot_zip_entries()
    shipped_zip = app_zip(bytecode_files(SHIPPED_BYTECODE_SYSTEMS), compiled)
    bundle = CACHE / APP_BUNDLE
    bundle.write_bytes(lzma.compress(shipped_zip, check=lzma.CHECK_CRC32, filters=[BUNDLE_XZ]))
    app.mkdir(parents=True)
    target = app / f"py-{short_hash([bundle])}.zip.xz"
    shutil.copy2(bundle, target)
    return target, app_zip(bytecode_files(), compiled)


def snapshot_zip_entries() -> dict[str, bytes]:
    """Every first screen's modules (tools/startup_modules.py) as bytecode, by their .pyc names."""
    sources = {name: ROOT / "py" / name for name in bytecode_files()}
    staging = CACHE / "startup.zip"
    with zipfile.ZipFile(staging, "w") as archive:
        for name in sorted(sources):
            archive.writestr(zipfile.ZipInfo(name, FIXED_DATE), sources[name].read_bytes())
    [compiled] = precompile([staging], APP_PATH)
    with zipfile.ZipFile(compiled) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def app_zip(bytecode: set[str], compiled: dict[str, bytes]) -> bytes:
    """A zip of stored files: py/ (the files in `bytecode` as .pyc, from `compiled`, the others as
    shipped source) and the page's packages."""
    sources = {p.relative_to(ROOT / "py").as_posix(): p for p in (ROOT / "py").rglob("*.py")
               if "__pycache__" not in p.parts}
    entries = {name: shipped(path.read_text(encoding="utf-8")).encode("utf-8")
               for name, path in sources.items() if name not in bytecode}
    entries |= {name: data for name, data in compiled.items() if name.removesuffix("c") in bytecode}
    packages = page_packages()
    if clash := {name.split("/")[0] for name in packages} & {name.split("/")[0] for name in entries}:
        sys.exit(f"build: a page package and py/ both have {sorted(clash)}")
    entries |= packages
    stored = io.BytesIO()
    with zipfile.ZipFile(stored, "w") as archive:  # stored: the xz stream around it compresses
        for name in sorted(entries, key=lambda name: (Path(name).suffix, name)):  # like beside like: 2.6 KB
            archive.writestr(zipfile.ZipInfo(name, FIXED_DATE), entries[name])
    return stored.getvalue()


def make_snapshot(pyodide: Path, bundle: Path, code_zip: bytes) -> Path:
    """Python's memory after start-up and the imports of the first screen that do not touch the
    page (tools/snapshot.mjs), with our code from `code_zip` (every first screen's modules as
    bytecode: none is compiled in the memory, whose dirty pages would ship), as
    app/python-<hash>.snapshot.gz beside `bundle`: its pages that are not all zeros
    (snapshot_pages), gzipped. Cached in build/snapshot by a hash of its inputs."""
    modules = json.dumps(page_free_modules()).encode()
    recipe = b"".join((ROOT / "tools" / name).read_bytes() for name in ("snapshot.mjs", "snapshot.py", "build.py"))
    pyscript = npm_version("@pyscript/core").encode()
    key = hashlib.sha256(recipe + modules + code_zip + pyodide.name.encode() + pyscript).hexdigest()[:16]
    cached = CACHE / "snapshot" / key / "python.snapshot.gz"
    if not cached.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        listing, code, memory, fresh = (cached.parent / name for name in
                                        ("modules.json", "py.zip", "python.snapshot", "fresh.memory"))
        listing.write_bytes(modules)
        code.write_bytes(code_zip)
        subprocess.run(["node", str(ROOT / "tools" / "snapshot.mjs"), str(pyodide),
                        str(NODE_MODULES / "@pyscript" / "core"), str(code), str(listing), str(memory), str(fresh)],
                       check=True, cwd=ROOT)
        cached.write_bytes(gzip.compress(snapshot_pages(memory.read_bytes(), fresh.read_bytes()), 9, mtime=0))
        whole_digest(cached).write_text(hashlib.sha256(memory.read_bytes()).hexdigest())
        for scratch in (code, memory, fresh):
            scratch.unlink()
    target = bundle.parent / f"python-{short_hash([cached])}.snapshot.gz"
    shutil.copy2(cached, target)
    shutil.copy2(whole_digest(cached), whole_digest(target, CACHE))
    return target


def whole_digest(shipped: Path, folder: Path | None = None) -> Path:
    """Where the SHA-256 of the snapshot whole, as Pyodide made it, is kept for the tests (not
    shipped): beside the shipped pages in the cache, and in `folder` by the shipped file's name
    (tests/browser/test_restored_memory.py checks each engine's restored memory against it)."""
    return (folder or shipped.parent) / f"{shipped.name}.sha256"


def snapshot_pages(snapshot: bytes, fresh: bytes) -> bytes:
    """The snapshot without the pages a fresh instance's memory already holds (zeros and the
    wasm's data: 19 MB of its 31), which static/snapshot_pages.mjs leaves in that memory (putting
    back what a start wrote there before the restore):
    [length, page size, page count] (little-endian u32), the page numbers, the pages. Page 0, with
    Pyodide's header, is always kept."""
    size, header = SNAPSHOT_PAGE, struct.unpack_from("<I", snapshot, 4)[0]
    if len(snapshot) - header > len(fresh):
        sys.exit("build: Python's memory grew while the snapshot was made: Pyodide could not restore it")
    like_fresh = snapshot[:header] + fresh[:len(snapshot) - header]
    kept = [number for number, start in enumerate(range(0, len(snapshot), size))
            if number == 0 or snapshot[start:start + size] != like_fresh[start:start + size]]
    numbers = struct.pack(f"<3I{len(kept)}I", len(snapshot), size, len(kept), *kept)
    return numbers + b"".join(snapshot[number * size:(number + 1) * size] for number in kept)


def snapshot_length(shipped: Path) -> int:
    """The snapshot's own length (its first header field): what static/boot.js rebuilds."""
    with gzip.open(shipped) as pages:
        return struct.unpack("<I", pages.read(4))[0]


def bytecode_files(systems: tuple[str, ...] = SYSTEMS) -> set[str]:
    """The files under py/ of the modules these systems' first screens import: ui.shell.app ->
    ui/shell/app.py, ui.shell (a package) -> ui/shell/__init__.py."""
    files = set()
    for module in first_screen_modules(systems):
        path = ROOT / "py" / module.replace(".", "/")
        files.add((path / "__init__.py" if path.is_dir() else path.with_suffix(".py")).relative_to(ROOT / "py").as_posix())
    return files


def relative(path: Path) -> str:
    return "./" + path.relative_to(DIST).as_posix()


def write_pyscript_toml(bundle: Path) -> None:
    """[files] writes our code's bundle as ./py.zip.xz; nothing is unpacked, which would write
    hundreds of files before the first screen: py/ui/main.py inflates it and puts the zip on
    sys.path (zipimport)."""
    text = (ROOT / "pyscript.toml").read_text()
    if f'interpreter = "{INTERPRETER}"' not in text:
        sys.exit(f"build: pyscript.toml must name {INTERPRETER} as interpreter")
    files = f'"{relative(bundle)}" = "./{APP_BUNDLE}"'
    (DIST / "pyscript.toml").write_text(f"{text.rstrip()}\n\n# Generated by tools/build.py\n[files]\n{files}\n")


def write_interpreter(pyodide: Path) -> None:
    """dist/static/python.mjs names the hashed Pyodide folder."""
    module = DIST / INTERPRETER
    text = module.read_text()
    if PYODIDE_LOGICAL not in text:
        sys.exit(f"build: {INTERPRETER} must name {PYODIDE_LOGICAL}")
    module.write_text(text.replace(PYODIDE_LOGICAL, "../" + pyodide.relative_to(DIST).as_posix() + "/"))


def js_imports(module: Path) -> list[str]:
    """The sibling modules `module` imports, statically or dynamically."""
    return JS_IMPORT.findall(module.read_text())


def write_index(pyodide: Path, pyscript: Path, morphdom: Path, bundle: Path, snapshot: Path) -> None:
    text = (ROOT / "index.html").read_text()
    # core.js only re-exports a hashed chunk, and PyScript fetches the [files]
    # zips only once Pyodide runs: start both from the first moment (boot.js
    # fetches what data-fetch-early lists).
    anchor = '<link rel="modulepreload" href="./vendor/pyscript/core.js">'
    early = re.search(r'data-fetch-early="([^"]*)"', text)
    if anchor not in text or not early:
        sys.exit(f"build: index.html must contain {anchor} and boot.js's data-fetch-early")
    chunks = [f'<link rel="modulepreload" href="./vendor/pyscript/{name}">'
              for name in js_imports(pyscript / "core.js")]
    text = text.replace(anchor, "\n  ".join([anchor, *chunks]))
    urls = f"{early[1]} {relative(bundle)}"
    text = text.replace(early[0], f'data-fetch-early="{urls}"')
    if f'data-snapshot="{SNAPSHOT_EARLY}" data-snapshot-bytes="0"' not in text:
        sys.exit(f'build: boot.js in index.html must have data-snapshot="{SNAPSHOT_EARLY}" data-snapshot-bytes="0"')
    inflated = snapshot_length(snapshot)  # what static/boot.js rebuilds and checks
    text = text.replace(f'data-snapshot="{SNAPSHOT_EARLY}" data-snapshot-bytes="0"',
                        f'data-snapshot="{relative(snapshot)}" data-snapshot-bytes="{inflated}"')
    for logical, real in (("./vendor/pyodide/", pyodide), ("./vendor/pyscript/", pyscript),
                          ("./vendor/morphdom/", morphdom)):
        if logical not in text:
            sys.exit(f"build: index.html does not reference {logical}")
        text = text.replace(logical, relative(real) + "/")
    (DIST / "index.html").write_text(text)


def copy_static() -> None:
    shutil.copytree(ROOT / "static", DIST / "static",
                    ignore=shutil.ignore_patterns("vendor", ".*", "css", *TOP_LEVEL))
    # One stylesheet for the page: base.css first, then one file per screen.
    sheets = sorted((ROOT / "static" / "css").glob("*.css"), key=lambda p: (p.name != "base.css", p.name))
    (DIST / "static" / "app.css").write_text("\n".join(sheet.read_text() for sheet in sheets))
    shutil.copy2(ROOT / "static" / "manifest.webmanifest", DIST / "manifest.webmanifest")
    main = ROOT / "py" / "ui" / "main.py"
    (DIST / "py" / "ui").mkdir(parents=True)
    shutil.copy2(main, DIST / "py" / "ui" / "main.py")


def pyscript_modules(folder: Path) -> set[str]:
    """core.js and every chunk it pulls in, except those of unused features."""
    found, pending = set(), ["core.js"]
    while pending:
        name = pending.pop()
        if name not in found and not name.startswith(UNUSED_PYSCRIPT_FEATURES):
            found.add(name)
            pending += js_imports(folder / name)
    return found


def precached_files(dist: Path) -> list[Path]:
    """Every file the page can load: all of dist/ but the service worker itself,
    build.json, and PyScript files outside pyscript_modules()."""
    [pyscript] = dist.glob("vendor/pyscript-*")
    needed = pyscript_modules(pyscript)
    return [path for path in sorted(dist.rglob("*"))
            if path.is_file() and path.relative_to(dist).as_posix() not in ("sw.js", "build.json")
            and (path.parent != pyscript or path.name in needed)]


def precache_entries(dist: Path) -> list[list[str]]:
    """[url, integrity] for every precached file; index.html is cached as "./"."""
    entries = []
    for path in precached_files(dist):
        url = "./" + path.relative_to(dist).as_posix()
        digest = base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()
        entries.append(["./" if url == "./index.html" else url, f"sha256-{digest}"])
    return entries


def stamp_version(dist: Path, version: str) -> None:
    """index.html carries the version on <html data-version>: the page's snapshot of the
    last table (static/regions.js, py/ui/shell/paint_keeper.py) is painted only by its own version."""
    index = dist / "index.html"
    text, count = VERSION_STAMP.subn(f'data-version="{version}"', index.read_text())
    if count != 1:
        sys.exit('build: index.html must have one data-version="…" on <html>')
    index.write_text(text)


def write_service_worker(dist: Path) -> str:
    """dist/sw.js: static/sw.js after the precache list and a version naming its
    cache. Each entry is [url, integrity]: the worker refuses a file whose bytes
    are not this build's. The version is a hash of every precached file (index.html
    with its version stamp blank) and of the worker; index.html is stamped with it."""
    template = (ROOT / "static" / "sw.js").read_bytes()
    stamp_version(dist, "")
    version = hashlib.sha256(json.dumps(precache_entries(dist)).encode() + template).hexdigest()[:12]
    stamp_version(dist, version)
    entries = precache_entries(dist)
    listing = ",\n".join(f"  {json.dumps(entry)}" for entry in entries)
    header = (f"// Generated by tools/build.py from static/sw.js.\n"
              f"const VERSION = {json.dumps(version)};\n"
              f"const PRECACHE = [\n{listing},\n];\n\n")
    (dist / "sw.js").write_bytes(header.encode() + template)
    return version


def write_build_manifest() -> None:
    """Every file in dist with its size and hash: what exactly this deploy holds."""
    files = {}
    for path in sorted(DIST.rglob("*")):
        if path.is_file():
            files[path.relative_to(DIST).as_posix()] = {
                "bytes": path.stat().st_size,
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            }
    version = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:12]
    (DIST / "build.json").write_text(json.dumps({"version": version, "files": files}, indent=1))


def build() -> None:
    if not (NODE_MODULES / "pyodide").is_dir():
        sys.exit("build: node_modules is missing; run `npm ci` first (make build does).")
    shutil.rmtree(DIST, ignore_errors=True)
    vendor = DIST / "vendor"
    pyodide = vendor_pyodide(vendor)
    pyscript = vendor_pyscript(vendor)
    jsqr = vendor_jsqr(vendor)
    morphdom = vendor_morphdom(vendor)
    bundle, snapshot_code = bundle_app_code(DIST / "app")
    snapshot = make_snapshot(pyodide, bundle, snapshot_code)
    write_pyscript_toml(bundle)
    write_index(pyodide, pyscript, morphdom, bundle, snapshot)
    copy_static()
    write_scanner(jsqr)
    write_interpreter(pyodide)
    version = write_service_worker(DIST)
    write_build_manifest()
    total = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    print(f"build: dist/ ready, {total / 1e6:.1f} MB, version {version}")


if __name__ == "__main__":
    build()
