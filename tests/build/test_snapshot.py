"""Python's memory snapshot (tools/snapshot.mjs, restored by static/python.mjs): it ships hashed
and precached like every other file, holds the first screen's modules that do not touch the page,
and two starts from it draw different randomness: dice, ids, `random`. Restored here under Node
with the page's own Pyodide, as the page restores it."""
import gzip
import json
import struct
import subprocess
from pathlib import Path

import pytest

from build import bytecode_files, snapshot_length
from startup_modules import first_screen_modules, page_free_modules
from test_offline_build import integrity, precache

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"

pytestmark = pytest.mark.skipif(not (DIST / "sw.js").exists(), reason="run `make build` first")

# One start from the snapshot, the way static/python.mjs makes it (static/snapshot_pages.mjs writes
# the shipped pages into a fresh instance's memory); prints what it drew.
RESTORE = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
const [dist, folder, shipped, length] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
const { default: createPyodideModule } = await import(pathToFileURL(`${folder}/pyodide.asm.mjs`).href);
const { pagesOf, restoring } = await import(pathToFileURL(`${dist}/static/snapshot_pages.mjs`).href);
const packed = new Uint8Array(gunzipSync(readFileSync(shipped))).buffer;
const pyodide = await loadPyodide({ indexURL: `${folder}/`, ...restoring(pagesOf(packed, Number(length)), createPyodideModule) });
pyodide.pyimport("tableside_snapshot").restored();
console.log(pyodide.runPython(`
import json, os, random, sys
from rules.dice import DEFAULT_SOURCE, roll
from session.model import new_id
from session.replica import new_device
json.dumps({
    "dice": [roll(10, 6, DEFAULT_SOURCE) for _ in range(3)],
    "random": random.random(), "device": new_device(), "session": new_id(), "urandom": os.urandom(8).hex(),
    "ours": sorted(name for name in sys.modules if name.split(".")[0] in ("rules", "session", "ui")),
    "modules": sorted(sys.modules),
    "later": __import__("ui.screens.log.view").screens.log.view.__file__,  # a module imported after the first screen
    "shell": __import__("importlib.util").util.find_spec("ui.shell.boot").origin,  # imported after the restore
    "compiled": sorted(name for name in __import__("zipfile").ZipFile("/home/pyodide/py.zip").namelist() if name.endswith(".pyc")),
})
`));
"""


def shipped_snapshot() -> Path:
    [snapshot] = DIST.glob("app/python-*.snapshot.gz")
    return snapshot


def start_from_snapshot() -> dict:
    [folder] = DIST.glob("vendor/pyodide-*")
    result = subprocess.run(["node", "--input-type=module", "-e", RESTORE, str(DIST), str(folder), str(shipped_snapshot()),
                             str(snapshot_length(shipped_snapshot()))], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_snapshot_is_precached_with_its_hash():
    shipped = shipped_snapshot()
    assert precache()["./" + shipped.relative_to(DIST).as_posix()] == integrity(shipped)
    pages = gzip.decompress(shipped.read_bytes())
    length, size, count = struct.unpack_from("<3I", pages)
    first_page = 12 + 4 * count  # Pyodide's header starts it: its magic number, then its length
    assert pages[first_page:first_page + 4] == (1886286592).to_bytes(4, "little")
    assert length - struct.unpack_from("<I", pages, first_page + 4)[0] == 31457280  # the wasm's first memory


def test_the_snapshot_holds_the_first_screens_modules_that_do_not_touch_the_page():
    start = start_from_snapshot()
    assert set(start["ours"]) == set(page_free_modules())  # and none that imports pyscript
    assert start["later"] == "/home/pyodide/py.zip/ui/screens/log/view.py"  # our code's zip is back in place


def test_a_start_from_the_snapshot_compiles_none_of_any_first_screens_modules():
    """The snapshot holds its own zip, with every system's first-screen modules as bytecode (the
    page ships only a new session's as bytecode): written back at each start, ui.shell's modules
    and any system's first screen import from it without compiling."""
    start = start_from_snapshot()
    assert start["shell"] == "/home/pyodide/py.zip/ui/shell/boot.pyc"
    assert set(start["compiled"]) == {name + "c" for name in bytecode_files()}
    assert {"ui/systems/anomaly/view.pyc", "ui/systems/manners/view.pyc"} <= set(start["compiled"])


def test_every_first_screen_module_is_in_the_snapshot_ui_shell_too():
    """ui.shell looks the page's objects up when it uses them (ui.shell.page_objects): a module
    that imported pyscript (or js, pyodide) would leave the snapshot, with every module importing
    it, and be imported at each start instead (62 ms in WebKit for ui.shell's)."""
    assert set(first_screen_modules()) == set(page_free_modules())
    start = start_from_snapshot()
    shell = {"ui.shell", "ui.shell.app", "ui.shell.boot", "ui.shell.dom", "ui.shell.offline", "ui.shell.page_objects",
             "ui.shell.paint_keeper", "ui.shell.storage", "ui.shell.commands", "ui.shell.browser", "ui.shell.channels"}
    assert shell <= set(start["ours"])
    assert not {"pyscript", "pyscript.ffi", "polyscript", "js"} & set(start["modules"])  # no page object kept


def test_two_starts_from_the_same_snapshot_draw_different_dice_and_ids():
    first, second = start_from_snapshot(), start_from_snapshot()
    for drawn in ("dice", "random", "device", "session", "urandom"):
        assert first[drawn] != second[drawn], drawn


# A start from the shipped pages (static/snapshot_pages.mjs writes them into the fresh instance's
# memory as Pyodide restores the snapshot) against the snapshot whole (the fresh instance's memory
# with every shipped page over it, which Pyodide itself would copy in): prints the memory's 4 KiB
# pages that differ once Pyodide has restored it, and where the fresh memory's data ends and the
# stack begins. argv's last: a shipped page to leave out (-1: none).
RESTORED_MEMORY = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
const [dist, folder, shipped, length, leftOut] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
const { default: createPyodideModule } = await import(pathToFileURL(`${folder}/pyodide.asm.mjs`).href);
const { pagesOf, restoring } = await import(pathToFileURL(`${dist}/static/snapshot_pages.mjs`).href);
const packed = new Uint8Array(gunzipSync(readFileSync(shipped))).buffer;
const pages = pagesOf(packed, Number(length));
const header = new DataView(pages.pages.buffer, pages.pages.byteOffset, 8).getUint32(4, true);
let shippedPages = pages;
if (Number(leftOut) >= 0) {
  const index = Number(leftOut);
  const at = index * pages.size;
  shippedPages = { ...pages, numbers: pages.numbers.filter((_, i) => i !== index),
                   pages: new Uint8Array([...pages.pages.subarray(0, at), ...pages.pages.subarray(at + pages.size)]) };
}
let fresh = null;
let stackLow = null;
let restored = null;
const start = restoring(shippedPages, (settings) => {
  const { instantiateWasm } = settings;
  settings.instantiateWasm = (imports, instantiated) => instantiateWasm(imports, (instance, module) => {
    fresh = new Uint8Array(instance.exports.memory.buffer).slice();
    stackLow = instance.exports.__stack_low.value;
    instantiated(instance, module);
  });
  return createPyodideModule(settings);
});
await loadPyodide({ indexURL: `${folder}/`, _loadSnapshot: start._loadSnapshot,
                    createPyodideModule: (settings) => start.createPyodideModule(settings).then((module) => {
  const { restoreSnapshot } = module.API;
  module.API.restoreSnapshot = (snapshot) => {
    const config = restoreSnapshot(snapshot);
    restored = module.HEAPU8.slice();
    return config;
  };
  return module;
}) });
const whole = new Uint8Array(pages.length);
whole.set(fresh.subarray(0, pages.length - header), header);
let read = 0;
for (const number of pages.numbers) {
  const end = read + Math.min(pages.size, pages.length - number * pages.size);
  whole.set(pages.pages.subarray(read, end), number * pages.size);
  read = end;
}
const differing = [];
for (let at = 0; at < pages.length - header; at += 4096) {
  const page = restored.subarray(at, at + 4096);
  if (page.some((byte, i) => byte !== whole[header + at + i])) differing.push(at / 4096);
}
let dataEnd = fresh.length;
while (dataEnd > 0 && fresh[dataEnd - 1] === 0) dataEnd--;
console.log(JSON.stringify({ differing, numbers: [...pages.numbers], header, dataEnd, stackLow }));
"""


def restored_memory(left_out: int = -1) -> dict:
    [folder] = DIST.glob("vendor/pyodide-*")
    shipped = shipped_snapshot()
    result = subprocess.run(["node", "--input-type=module", "-e", RESTORED_MEMORY, str(DIST), str(folder), str(shipped),
                             str(snapshot_length(shipped)), str(left_out)], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_memory_restored_from_the_shipped_pages_is_the_snapshot_byte_for_byte():
    """No 31 MB snapshot is put together at a start: the pages that a fresh instance lacks are
    written into its memory, and the rest is that memory's own, as instantiated (what the start
    wrote before the restore is put back). Leaving one page out shows the comparison sees it."""
    restored = restored_memory()
    assert restored["differing"] == []
    # What putting back relies on: as instantiated, the memory is zeros from the stack up.
    assert 0 < restored["dataEnd"] <= restored["stackLow"]
    whole = restored_memory(left_out=1)
    number, header = whole["numbers"][1], whole["header"]
    assert whole["differing"] and set(whole["differing"]) <= {number - 1, number}
    assert header == 128


def wasm_sections(wasm: bytes) -> list[int]:
    """The ids of a wasm module's sections, in order."""
    ids, at = [], 8  # after the magic number and the version
    while at < len(wasm):
        ids.append(wasm[at])
        at, size, shift = at + 1, 0, 0
        while True:  # the section's size, LEB128
            byte, at = wasm[at], at + 1
            size, shift = size | (byte & 0x7F) << shift, shift + 7
            if byte < 0x80:
                break
        at += size
    return ids


def test_the_wasm_runs_no_code_as_it_is_instantiated():
    """static/snapshot_pages.mjs copies the memory as instantiated for the wasm's data alone: no
    start function (section 8) has run in it, in any engine."""
    [folder] = DIST.glob("vendor/pyodide-*")
    sections = wasm_sections((folder / "pyodide.asm.wasm").read_bytes())
    assert 11 in sections and 8 not in sections  # the data, and no start
