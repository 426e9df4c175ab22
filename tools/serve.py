"""Serve a built folder on localhost the way Netlify serves it.

Applies the [[headers]] rules of netlify.toml (same path matching as Netlify:
`*` as a catch-all, `:name` as one segment), Netlify's default Cache-Control,
`/` as index.html, ETag revalidation, and gzip when the client accepts it,
so tests and benchmarks see what production sends. Stdlib only.

    python3 tools/serve.py [--port 8000] [--root dist]
"""
from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import http.server
import mimetypes
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NETLIFY_DEFAULT_CACHE = "public, max-age=0, must-revalidate"
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".toml", ".py", ".svg", ".wasm",
                ".webmanifest", ".txt")


def path_pattern(for_path: str) -> re.Pattern:
    parts = []
    for part in filter(None, (p.rstrip() for p in for_path.split("/"))):
        if part.startswith(":"):
            parts.append("([^/]+)")
        elif part == "*":
            parts.append("?(.*)")
        elif "*" in part:
            parts.append(".*".join(re.escape(piece) for piece in part.split("*")))
        else:
            parts.append(re.escape(part))
    return re.compile("^/" + "/".join(parts) + "/?$", re.IGNORECASE)


def load_header_rules(netlify_toml: Path) -> list[tuple[re.Pattern, dict[str, str]]]:
    config = tomllib.loads(netlify_toml.read_text())
    return [(path_pattern(rule["for"]), dict(rule.get("values", {})))
            for rule in config.get("headers", [])]


def headers_for(rules, path: str) -> dict[str, str]:
    """Headers of every matching rule; a later rule wins for the same header."""
    headers: dict[str, str] = {}
    for pattern, values in rules:
        if pattern.match(path):
            headers.update(values)
    return headers


@functools.lru_cache(maxsize=256)
def file_body(path: Path, mtime_ns: int, compressed: bool) -> tuple[bytes, str]:
    data = path.read_bytes()
    etag = '"' + hashlib.sha256(data).hexdigest()[:20] + ('-gz"' if compressed else '"')
    if compressed:
        data = gzip.compress(data, compresslevel=6, mtime=0)
    return data, etag


class NetlifyLikeHandler(http.server.BaseHTTPRequestHandler):
    server_version = "tableside-serve"
    # Like Netlify. Chromium ignores the ETag of an HTTP/1.0 response, so on 1.0
    # nothing would ever be revalidated (no 304s for the page or the service worker).
    protocol_version = "HTTP/1.1"
    root: Path
    rules: list

    def do_HEAD(self):
        self.respond(send_body=False)

    def do_GET(self):
        self.respond(send_body=True)

    def resolve(self, url_path: str) -> Path | None:
        if ".." in url_path.split("/"):
            return None
        candidate = self.root / url_path.lstrip("/")
        if candidate.is_dir():
            candidate = candidate / "index.html"
        return candidate if candidate.is_file() else None

    def respond(self, send_body: bool):
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        file = self.resolve(url_path)
        if file is None:
            self.send_error(404, "Not Found")
            return
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        compressed = accepts_gzip and file.suffix in COMPRESSIBLE
        body, etag = file_body(file, file.stat().st_mtime_ns, compressed)
        headers = {
            "Content-Type": mimetypes.guess_type(file.name)[0] or "application/octet-stream",
            "Cache-Control": NETLIFY_DEFAULT_CACHE,
            "ETag": etag,
            "Vary": "Accept-Encoding",
        }
        headers.update(headers_for(self.rules, url_path))
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            for name in ("ETag", "Cache-Control", "Vary"):
                self.send_header(name, headers[name])
            self.end_headers()
            return
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        if compressed:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


def make_server(root: Path, port: int, host: str = "127.0.0.1", verbose: bool = False):
    handler = type("Handler", (NetlifyLikeHandler,), {
        "root": root.resolve(),
        "rules": load_header_rules(ROOT / "netlify.toml"),
    })
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    server.verbose = verbose
    return server


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--root", type=Path, default=ROOT / "dist")
    parser.add_argument("--quiet", action="store_true")
    options = parser.parse_args()
    if not (options.root / "index.html").is_file():
        raise SystemExit(f"serve: {options.root}/index.html not found; run `make build` first.")
    server = make_server(options.root, options.port, verbose=not options.quiet)
    print(f"Serving {options.root} on http://localhost:{options.port}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
