"""Capture the browsers' own offers and answers (SDP after ICE gathering) for the codec's unit
tests (tests/unit/session/live_sdp/), in a private network namespace. Run it again when a
browser's SDP may have changed (a new major version); it adds files, named
<engine>-<major version>-<camera|no-camera>-<offer|answer>.sdp. As root, after `make build`:

    .venv/bin/python tests/browser/capture_live_sdp.py
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SAMPLES = ROOT / "tests" / "unit" / "session" / "live_sdp"


def capture():
    from playwright.sync_api import sync_playwright

    from conftest import DIST, Watch, serve_folder
    from engines import EnginePage, RefusingProxy, start_firefox
    from inside_live_channel import Phone
    from inside_live_engines import EnginePhone

    server, site = serve_folder(DIST)
    server.handle_error = lambda request, address: None  # a browser hanging up is no failure
    proxy = RefusingProxy()
    with sync_playwright() as playwright:
        hub = Phone(playwright, "hub", Watch())  # a camera is open: it offers real addresses
        hub.open(site)
        hub.get_ready()
        for camera in (True, False):
            phone = Phone(playwright, "phone", Watch(), camera)
            phone.open(site)
            phone.get_ready()
            save(f"chromium-{phone.browser.version.split('.')[0]}", camera, phone, hub)
            phone.close()
        driver = start_firefox()
        firefox = EnginePhone("firefox", EnginePage("firefox", driver, proxy, ROOT / "tests" / "artifacts"), site)
        major = re.search(r"Firefox/(\d+)", firefox.page.evaluate("return navigator.userAgent;"))[1]
        save(f"firefox-{major}", False, firefox, hub)  # Firefox offers only mDNS names, camera or not
        driver.close()
        hub.close()
    server.shutdown()
    proxy.close()


def save(engine: str, camera: bool, phone, hub):
    """phone's offer (to nobody: it is only kept) and its answer to a fresh offer of hub, as
    the codec rebuilds it (what phones will answer)."""
    from session.live import signal as live_signal

    offer = phone.call("offer", "nobody")
    answer = phone.call("answer", hub.name, live_signal.read(live_signal.offer_code(hub.call("offer", phone.name), 1)).sdp())
    for kind, sdp in (("offer", offer), ("answer", answer)):
        path = SAMPLES / f"{engine}-{'camera' if camera else 'no-camera'}-{kind}.sdp"
        path.write_bytes(sdp.encode())
        print(f"wrote {path.relative_to(ROOT)} ({len(sdp)} characters)")


if __name__ == "__main__":
    sys.path[:0] = [str(HERE), str(ROOT / "py"), str(ROOT / "tools")]
    import netns

    if netns.isolated():
        capture()
    else:
        reason = netns.unavailable()
        if reason:
            sys.exit(reason)
        result = netns.run([sys.executable, __file__], timeout=300)
        print(result.stdout + result.stderr, end="")
        sys.exit(result.returncode)
