"""Browser test harness: the built dist/ served by tools/serve.py (netlify.toml
headers applied), driven by Playwright on Debian's Chromium; test_engines.py also
runs in WebKit and Firefox (engines.py, the fixtures at the end).

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

from crashes import RendererCrashes, browser_said, keep_cores, where_it_crashed
from engines import ENGINES, EnginePage, PlaywrightDriver, RefusingProxy, VirtualDisplay, start_firefox, start_webkit
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
    # Chromium's in-process heap profiler (HeapProfilerReporting, on by default, with
    # --disable-field-trial-config) samples half of all browser starts of a build with no
    # channel, and a tenth of their renderers. A sample taken while Pyodide ran on a JSPI stack
    # walked frame pointers off that stack and segfaulted the renderer (forced on: the app's boot
    # crashed 6 times in 6). The app now starts Python without JSPI (static/python.mjs), which ends
    # that for every frame walk; the profiler stays off all the same (the suite needs nothing from
    # it). Chromium keeps only the last --disable-features, so this one repeats Playwright's own
    # (playwright-core's chromiumSwitches, 1.65.2).
    "--disable-features=" + ",".join([
        "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
        "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
        "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
        "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
        "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
        "HeapProfilerReporting",
    ]),
]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def at_desktop_size(page, look):
    """Look at the page at 1280x800 too, then give it back its phone size."""
    phone = page.viewport_size
    page.set_viewport_size(DESKTOP["viewport"])
    look()
    page.set_viewport_size(phone)


keep_cores()  # a renderer that crashes leaves its core, and the test that failed by it says where


def pytest_configure(config):
    # Playwright's driver copies what its browsers write to stderr (V8's "# Fatal error" among it)
    # into ours, so a test that failed by a crash can show what the renderer said before it died.
    # (Here, not at import: bench/ imports this module and should not print the browser's log.)
    os.environ.setdefault("DEBUG", "pw:browser")

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
        browser.renderer_crashes = RendererCrashes(browser)
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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that failed because a renderer crashed (whichever browser it launched) shows the
    crashed thread's frames, read from the core the renderer left."""
    report = (yield).get_result()
    if report.failed and any(words in str(report.longrepr) for words in ("Target crashed", "status crashed")):
        report.sections.append(("where the renderer crashed", where_it_crashed()))
        report.sections.append(("what the browser said", browser_said(report.capstderr)))


@pytest.fixture
def watch():
    return Watch()


@pytest.fixture
def context(browser, watch):
    crashes_before = len(browser.renderer_crashes.seen)
    context = browser.new_context(**PHONE)
    watch.attach(context)
    yield context
    context.close()
    assert not browser.renderer_crashes.report(crashes_before), browser.renderer_crashes.report(crashes_before)
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


# Chromium, WebKit and Firefox behind one interface (engines.py): a test that takes
# `engine_page` runs once in each, each engine started once for the whole run.

class RecordingSite:
    """dist/ (or a copy) served on a port of its own, so every test is a first visit
    to a new origin; records every request, and can go offline (nothing answers)."""

    def __init__(self, root: Path = DIST):
        self.requests: list[tuple[str, int]] = []  # (path, status), in the order answered
        self.server = make_server(root, 0)
        site = self

        class Recording(self.server.RequestHandlerClass):
            def handle_one_request(self):
                if site.offline:
                    self.close_connection = True  # also on a kept-alive connection: no answer
                    return
                super().handle_one_request()

            def log_request(self, code="-", size="-"):
                site.requests.append((self.path.split("?", 1)[0], int(code)))

        self.offline = False
        self.server.RequestHandlerClass = Recording
        self.server.handle_error = lambda request, address: None  # a browser hanging up is no failure
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://localhost:{self.server.server_address[1]}/"

    def downloads(self) -> dict[str, int]:
        """How many times each path was answered in full (200)."""
        counts: dict[str, int] = {}
        for path, status in self.requests:
            if status == 200:
                counts[path] = counts.get(path, 0) + 1
        return counts

    def go_offline(self):
        self.offline = True
        self.server.shutdown()
        self.server.server_close()

    def close(self):
        if not self.offline:
            self.go_offline()


@pytest.fixture
def engine_site():
    site = RecordingSite()
    yield site
    site.close()


@pytest.fixture(scope="session")
def refusing_proxy():
    proxy = RefusingProxy()
    yield proxy
    proxy.close()


@pytest.fixture(scope="session")
def virtual_display():
    display = VirtualDisplay()
    yield display
    display.close()


@pytest.fixture(scope="session", params=ENGINES)
def engine(request):
    """(name, driver) of one engine, started once for the run."""
    name = request.param
    if name == "chromium":
        driver = PlaywrightDriver(request.getfixturevalue("browser"))
    elif name == "webkit":
        driver = start_webkit(request.getfixturevalue("virtual_display").name)
    else:
        driver = start_firefox()
    yield name, driver
    driver.close()


@pytest.fixture
def engine_page(engine, refusing_proxy):
    """A fresh profile's page at 390x844 in one engine; checked at the end like `context`."""
    name, driver = engine
    page = EnginePage(name, driver, refusing_proxy, ARTIFACTS / "screenshots")
    yield page
    page.check()
