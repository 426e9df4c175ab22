"""Pyodide's glue as shipped (tools/linking.py): its function table grown once at start-up gives
every exported function the slot Pyodide's own glue gives it, so a start is linked the same way
(and the memory snapshot, made with the shipped glue, finds the table it left)."""
import json
import subprocess
from pathlib import Path

import pytest

from linking import GROWN_ONCE, RELIED_ON, table_grown_once

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
PYODIDE = ROOT / "node_modules" / "pyodide"

pytestmark = pytest.mark.skipif(not (DIST / "sw.js").exists(), reason="run `make build` first")

# A plain start with the given glue; prints the table's length and a digest of every GOT entry.
LINKED = r"""
import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
const [folder, glue] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
const { default: createPyodideModule } = await import(pathToFileURL(glue).href);
const pyodide = await loadPyodide({ indexURL: `${folder}/`, createPyodideModule });
const module = pyodide._module;
const entries = Object.entries(module.GOT).map(([name, global]) => `${name}=${global.value}`).sort();
console.log(JSON.stringify({ table: module.wasmTable.length, got: entries.length,
                             digest: createHash("sha256").update(entries.join("\n")).digest("hex") }));
"""


def shipped_folder() -> Path:
    [folder] = (DIST / "vendor").glob("pyodide-*")
    return folder


def linked(glue: Path) -> dict:
    run = subprocess.run(["node", "--input-type=module", "-e", LINKED, str(shipped_folder()), str(glue)],
                         capture_output=True, text=True, check=True, timeout=120)
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_the_shipped_glue_is_pyodides_with_the_table_grown_once():
    original = (PYODIDE / "pyodide.asm.mjs").read_text()
    shipped = (shipped_folder() / "pyodide.asm.mjs").read_text()
    assert shipped == table_grown_once(original)
    assert shipped.count(GROWN_ONCE) == 1


def test_every_exported_function_keeps_its_slot():
    ours, pyodides = linked(shipped_folder() / "pyodide.asm.mjs"), linked(PYODIDE / "pyodide.asm.mjs")
    assert ours == pyodides
    assert ours["got"] > 7000  # the exports were linked at all


def test_another_glue_stops_the_build():
    with pytest.raises(SystemExit, match="tools/linking.py"):
        table_grown_once("var updateGOT=(exports)=>{}")


@pytest.mark.parametrize("relied_on", RELIED_ON)
def test_a_glue_that_links_another_way_stops_the_build(relied_on):
    original, middle = (PYODIDE / "pyodide.asm.mjs").read_text(), len(relied_on) // 2
    with pytest.raises(SystemExit, match="tools/linking.py"):
        table_grown_once(original.replace(relied_on, relied_on[:middle] + " " + relied_on[middle:]))
