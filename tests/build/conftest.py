"""Shared by the checks of the built folder: dist/ served like Netlify serves it."""
import threading
from pathlib import Path

import pytest

from serve import make_server

DIST = Path(__file__).resolve().parents[2] / "dist"


@pytest.fixture(scope="module")
def served():
    """Base URL (no trailing slash) of dist/ behind tools/serve.py."""
    if not (DIST / "sw.js").exists():
        pytest.skip("run `make build` first")
    server = make_server(DIST, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://localhost:{server.server_address[1]}"
    server.shutdown()
