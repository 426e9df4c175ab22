"""Browser test harness: the built dist/ served by tools/serve.py (netlify.toml
headers applied), driven by Playwright on Debian's Chromium.

Every other host is unresolvable inside the browser (--host-resolver-rules),
and every request URL is recorded: a test fails if one left localhost, or if
the console logged an error. One browser for the whole run; a fresh context
per test (a phone: 390x844, touch) unless a test asks otherwise.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

from serve import make_server

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-quic",
    # Nothing but localhost resolves: a request to any other host fails fast
    # (and is recorded below), without turning off the HTTP cache as page.route would.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
READY = "html[data-app-state=ready]"
BOOT_TIMEOUT_MS = 60_000


def serve_folder(root: Path):
    server = make_server(root, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://localhost:{server.server_address[1]}/"


@pytest.fixture(scope="session")
def site():
    """Base URL of dist/ served like Netlify serves it."""
    if not (DIST / "index.html").is_file():
        pytest.exit("dist/ is missing: run the tests with `make test` (it builds first).", 2)
    server, url = serve_folder(DIST)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Watch:
    """What one browser context did: every request URL and every console error."""

    def __init__(self):
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.expected_errors: list[str] = []

    def attach(self, context):
        context.on("request", lambda request: self.requests.append(request.url))
        context.on("page", self.attach_page)
        for page in context.pages:
            self.attach_page(page)

    def attach_page(self, page):
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def off_localhost(self) -> list[str]:
        return [url for url in self.requests
                if urlsplit(url).scheme in ("http", "https", "ws", "wss")
                and urlsplit(url).hostname not in ("localhost", "127.0.0.1")]

    def unexpected_errors(self) -> list[str]:
        return [error for error in self.errors
                if not any(expected in error for expected in self.expected_errors)]

    def check(self):
        assert self.off_localhost() == [], "requests left localhost"
        assert self.unexpected_errors() == [], "the console logged errors"


@pytest.fixture
def watch():
    return Watch()


@pytest.fixture
def context(browser, watch):
    context = browser.new_context(**PHONE)
    watch.attach(context)
    yield context
    context.close()
    watch.check()


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture
def open_app(site):
    """Open the app (optionally a fragment or path) and wait until Python is ready."""

    def open_app(page, path: str = ""):
        page.goto(site + path)
        page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        return page

    return open_app


@pytest.fixture
def app(page, open_app):
    return open_app(page)


@pytest.fixture
def screenshot():
    """Save a screenshot under tests/artifacts/screenshots/ (kept as a CI artifact)."""

    def screenshot(page, name: str, full_page: bool = True):
        folder = ARTIFACTS / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        path = folder / f"{name}-{size['width']}x{size['height']}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return screenshot
