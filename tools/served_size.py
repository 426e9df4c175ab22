"""How many bytes the page's files take as served (gzip where tools/serve.py and Netlify compress):
our code and the page's Python packages against the 400 KB budget (issue 33), Python's memory
snapshot counted apart. Used by bench/bench_boot.py (which prints both) and tests/build."""
from __future__ import annotations

import gzip
from pathlib import Path

from serve import COMPRESSIBLE  # tools/: beside this module

OWN_CODE_BUDGET = 400_000  # bytes of our code and packages as served; not Pyodide, PyScript nor the snapshot


def served_bytes(paths) -> int:
    """As served: gzip where the server compresses."""
    return sum(len(gzip.compress(path.read_bytes(), 6)) if path.suffix in COMPRESSIBLE
               else path.stat().st_size for path in paths)


def own_code_bytes(dist: Path) -> int:
    """Our code and the page's Python packages as served; not Pyodide, PyScript, nor Python's
    memory snapshot (snapshot_bytes: counted apart)."""
    files = [*(path for path in dist.glob("app/*") if not path.name.endswith(".snapshot.gz")),
             *dist.glob("vendor/python-*/*"), *dist.glob("vendor/morphdom-*/*"), dist / "py" / "ui" / "main.py",
             dist / "static" / "regions.js", dist / "static" / "boot.js", dist / "static" / "python.mjs",
             dist / "static" / "snapshot_pages.mjs"]
    return served_bytes(files)


def snapshot_bytes(dist: Path) -> int:
    """Python's memory snapshot as served (gzipped by the build), downloaded by the precache."""
    return served_bytes(dist.glob("app/*.snapshot.gz"))
