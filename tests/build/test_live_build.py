"""The live table's pieces in the built folder: static/live.js ships and is precached (a
live table works offline, like scanning), and the shipped codec (session.live.signal, in our
bundle) gives the same codes and SDP in the shipped Pyodide, with its trimmed stdlib, as
under CPython."""
import json
import subprocess
from pathlib import Path

import pytest

from session.live import signal as live_signal
from test_offline_build import integrity, precache

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
SAMPLES = ROOT / "tests" / "unit" / "session" / "live_sdp"

pytestmark = pytest.mark.skipif(not (DIST / "sw.js").exists(), reason="run `make build` first")

# Under Node, the page's own Pyodide and bundle, loaded the way py/ui/main.py loads it.
IN_PYODIDE = r"""
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [folder, bundle, samples] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${folder}/` });
pyodide.FS.writeFile("/py.zip.xz", readFileSync(bundle));
pyodide.globals.set("samples", samples);
console.log(pyodide.runPython(`
import json, lzma, sys
with open("/py.zip.xz", "rb") as packed, open("/py.zip", "wb") as unpacked:
    unpacked.write(lzma.decompress(packed.read()))
sys.path.insert(0, "/py.zip")
from session.live import signal as live_signal
json.dumps({name: [live_signal.read(code).sdp(), code]
            for name, sdp in json.loads(samples).items()
            for code in [live_signal.from_sdp("answer" if name.endswith("answer.sdp") else "offer", sdp, 42).code()]})
`));
"""


def test_live_js_ships_and_is_precached():
    shipped = DIST / "static" / "live.js"
    assert shipped.read_bytes() == (ROOT / "static" / "live.js").read_bytes()
    assert precache()["./static/live.js"] == integrity(shipped)


def test_the_shipped_codec_gives_the_same_codes_in_pyodide():
    samples = {path.name: path.read_bytes().decode() for path in sorted(SAMPLES.glob("*.sdp"))}
    [folder] = DIST.glob("vendor/pyodide-*")
    [bundle] = DIST.glob("app/py-*.zip.xz")
    result = subprocess.run(["node", "--input-type=module", "-e", IN_PYODIDE, str(folder), str(bundle),
                             json.dumps(samples)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    expected = {}
    for name, sdp in samples.items():
        code = live_signal.from_sdp(live_signal.ANSWER if name.endswith("answer.sdp") else live_signal.OFFER,
                                    sdp, 42).code()
        expected[name] = [live_signal.read(code).sdp(), code]
    assert samples and json.loads(result.stdout.strip().splitlines()[-1]) == expected
