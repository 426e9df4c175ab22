"""The local server sends what Netlify sends for the built folder (netlify.toml)."""
import urllib.request
from pathlib import Path

import pytest

from serve import load_header_rules, path_pattern

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"


@pytest.mark.parametrize("pattern, path, matches", [
    ("/*", "/", True),
    ("/*", "/vendor/a/b.js", True),
    ("/vendor/*", "/vendor/pyodide-1/pyodide.asm.wasm", True),
    ("/vendor/*", "/vendor", True),
    ("/vendor/*", "/static/app.css", False),
    ("/*.wasm", "/vendor/x/pyodide.asm.wasm", True),
    ("/*.wasm", "/index.html", False),
    ("/", "/", True),
    ("/", "/index.html", False),
    ("/posts/:id", "/posts/12", True),
    ("/posts/:id", "/posts/12/edit", False),
])
def test_path_patterns_match_like_netlify(pattern, path, matches):
    assert bool(path_pattern(pattern).match(path)) is matches


def test_no_two_rules_set_the_same_header_for_one_path():
    rules = load_header_rules(ROOT / "netlify.toml")
    for path in ["/", "/index.html", "/sw.js", "/pyscript.toml", "/manifest.webmanifest",
                 "/static/app.css", "/vendor/pyodide-x/pyodide.asm.wasm", "/vendor/x/core.js",
                 "/app/py-1.zip", "/py/ui/main.py", "/build.json"]:
        seen = {}
        for pattern, values in rules:
            if pattern.match(path):
                for name in values:
                    assert name not in seen or seen[name] == values[name], (path, name)
                    seen[name] = values[name]


def head(url, **headers):
    request = urllib.request.Request(url, method="GET", headers=headers)
    with urllib.request.urlopen(request) as response:
        return response.status, response.headers, response.read()


def vendor_file(pattern):
    return "/" + next(DIST.glob(pattern)).relative_to(DIST).as_posix()


def test_wasm_is_served_as_application_wasm_and_cached_for_a_year(served):
    status, headers, _ = head(served + vendor_file("vendor/pyodide-*/pyodide.asm.wasm"))
    assert headers["Content-Type"] == "application/wasm"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_module_scripts_and_config_have_the_right_types(served):
    assert head(served + vendor_file("vendor/pyodide-*/pyodide.mjs"))[1]["Content-Type"].startswith("text/javascript")
    assert head(served + "/pyscript.toml")[1]["Content-Type"].startswith("application/toml")


def test_html_is_revalidated_on_every_load_with_security_headers(served):
    status, headers, body = head(served + "/")
    assert status == 200 and b"data-app-state" in body
    assert headers["Cache-Control"] == "no-cache"
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'" in csp
    assert "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "'unsafe-inline'" not in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"


def test_gzip_and_etag_revalidation(served):
    status, headers, body = head(served + "/static/app.css", **{"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] == "gzip"
    request = urllib.request.Request(served + "/static/app.css",
                                     headers={"If-None-Match": headers["ETag"], "Accept-Encoding": "gzip"})
    with pytest.raises(urllib.error.HTTPError) as not_modified:
        urllib.request.urlopen(request)
    assert not_modified.value.code == 304
