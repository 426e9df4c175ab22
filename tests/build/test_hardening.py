"""The hardened headers of netlify.toml, as the local server sends them: a strict
CSP, no referrer, no sniffing, powerful features denied, and caching that lets
a deploy reach phones (HTML, manifest and worker revalidated; vendor immutable)."""
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
REVALIDATE = "no-cache"
IMMUTABLE = "public, max-age=31536000, immutable"


def headers(url):
    with urllib.request.urlopen(url) as response:
        return response.headers


def directives(csp: str) -> dict[str, list[str]]:
    parsed = {}
    for directive in filter(None, (part.strip() for part in csp.split(";"))):
        name, *sources = directive.split()
        parsed[name] = sources
    return parsed


def test_the_csp_allows_only_what_pyodide_and_pyscript_need(served):
    csp = directives(headers(served + "/")["Content-Security-Policy"])
    assert csp["default-src"] == ["'none'"]
    assert csp["script-src"] == ["'self'", "'unsafe-eval'", "'wasm-unsafe-eval'"]
    assert csp["style-src"] == ["'self'"]
    for name in ("img-src", "connect-src", "worker-src", "manifest-src"):
        assert csp[name] == ["'self'"], name
    for name in ("base-uri", "form-action", "frame-ancestors"):
        assert csp[name] == ["'none'"], name
    assert not [source for sources in csp.values() for source in sources
                if source == "'unsafe-inline'" or "://" in source or source in ("data:", "blob:", "*")]


def test_every_csp_source_is_justified_in_netlify_toml():
    text = (ROOT / "netlify.toml").read_text()
    comments = "\n".join(line for line in text.splitlines() if line.strip().startswith("#"))
    for source in ("'wasm-unsafe-eval'", "'unsafe-eval'", "connect-src 'self'", "worker-src 'self'",
                   "manifest-src 'self'", "img-src 'self'", "style-src 'self'", "default-src 'none'"):
        assert source in comments, source


def test_the_other_security_headers(served):
    sent = headers(served + "/")
    assert sent["Referrer-Policy"] == "no-referrer"
    assert sent["X-Content-Type-Options"] == "nosniff"
    policy = dict(part.strip().split("=", 1) for part in sent["Permissions-Policy"].split(","))
    for feature in ("microphone", "geolocation", "payment", "usb", "clipboard-read"):
        assert policy[feature] == "()", feature
    assert policy["camera"] == "(self)"  # "Scan a code", this origin only
    assert policy["clipboard-write"] == "(self)"
    assert policy["screen-wake-lock"] == "(self)"  # "Keep the screen on", on a live table


def test_the_wake_lock_is_justified_in_netlify_toml():
    text = (ROOT / "netlify.toml").read_text()
    comments = "\n".join(line for line in text.splitlines() if line.strip().startswith("#"))
    assert "screen-wake-lock=(self)" in comments and "Keep the screen on" in comments


def test_the_camera_is_justified_in_netlify_toml():
    text = (ROOT / "netlify.toml").read_text()
    comments = "\n".join(line for line in text.splitlines() if line.strip().startswith("#"))
    assert "camera=(self)" in comments and "Scan a code" in comments


@pytest.mark.parametrize("path", ["/", "/index.html", "/sw.js", "/manifest.webmanifest", "/pyscript.toml",
                                  "/static/app.css", "/static/icons/icon-192.png"])
def test_what_keeps_its_name_between_deploys_is_revalidated(served, path):
    assert headers(served + path)["Cache-Control"] == REVALIDATE


def test_versioned_files_are_immutable_for_a_year(served):
    for pattern in ("vendor/pyodide-*/pyodide.asm.wasm", "vendor/pyscript-*/core.js",
                    "app/python-*.snapshot.gz", "app/py-*.zip.xz"):
        path = "/" + next(DIST.glob(pattern)).relative_to(DIST).as_posix()
        assert headers(served + path)["Cache-Control"] == IMMUTABLE, path


def test_the_worker_and_the_manifest_have_their_content_types(served):
    assert headers(served + "/sw.js")["Content-Type"].startswith("text/javascript")
    assert headers(served + "/manifest.webmanifest")["Content-Type"].startswith("application/manifest+json")
