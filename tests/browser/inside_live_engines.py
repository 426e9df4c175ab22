"""A live table across engines: Firefox ESR and WebKitGTK beside a Chromium phone, run only
inside a private network namespace, by test_live_channel.py (like inside_live_channel.py).

Firefox (puppeteer-core over WebDriver BiDi, tests/browser/drivers/firefox.mjs) joins a
Chromium hub and hosts a Chromium player, with offers and answers as codes. Firefox offers
only mDNS names here (no camera permission), and still connects: its checks reach the
Chromium phone's real addresses, and Firefox resolves another Firefox's names too. Debian's
WebKitGTK is built without WebRTC (no RTCPeerConnection), so there live.js must say
"unsupported", the word the app will turn into "links and codes still work".
"""
from __future__ import annotations

import time

import pytest

import netns

netns.require_isolated()  # before anything opens a page: outside, a browser would reach the real network

from conftest import ARTIFACTS  # noqa: E402
from engines import EnginePage, VirtualDisplay, start_firefox, start_webkit  # noqa: E402
from inside_live_channel import phones, playwright_instance  # noqa: E402,F401 (fixtures)
from session import live_signal  # noqa: E402

LOAD_LIVE = """await new Promise((resolve, reject) => {
  const script = Object.assign(document.createElement("script"), { src: "./static/live.js" });
  script.onload = resolve;
  script.onerror = () => reject(new Error("live.js did not load"));
  document.head.append(script);
});
window.live = { events: [], arrived: [] };
tableside.live.listen((peer, event, detail) => {
  live.events.push([peer, event, event === "message" ? detail.length : detail]);
  if (event === "message") live.arrived.push([peer, detail]);
});
return typeof RTCPeerConnection;"""


class EnginePhone:
    """A phone in another engine, with the calls of inside_live_channel.Phone that join() and talk() use."""

    def __init__(self, name: str, page: EnginePage, site: str):
        self.name, self.page = name, page
        page.goto(site)
        page.wait_until_ready()
        self.peer_connection = page.evaluate(LOAD_LIVE)

    def call(self, function: str, *args):
        return self.page.evaluate(f"return await tableside.live.{function}(...input);", list(args))

    def wait_open(self, peer: str):
        self.page.wait_for(f"tableside.live.state({peer!r}) === 'open'", 20)

    def arrived(self) -> list[list]:
        return self.page.evaluate("return live.arrived;")


def join(hub, player) -> float:
    """Seconds from the hub's offer to both ends open, every description through a code."""
    started = time.perf_counter()
    offer = live_signal.read(live_signal.offer_code(hub.call("offer", player.name), 77))
    answer = live_signal.read(live_signal.answer_code(player.call("answer", hub.name, offer.sdp()), 77))
    hub.call("accept", player.name, answer.sdp())
    hub.wait_open(player.name)
    player.wait_open(hub.name)
    return time.perf_counter() - started


def talk(one, other):
    """A message each way, waited for."""
    assert one.call("send", other.name, f"from {one.name}") and other.call("send", one.name, f"from {other.name}")
    for phone, sender in ((one, other), (other, one)):
        deadline = time.monotonic() + 10
        while [sender.name, f"from {sender.name}"] not in [item[:2] for item in phone.arrived()]:
            assert time.monotonic() < deadline, f"{phone.name} never heard from {sender.name}"
            time.sleep(0.05)


@pytest.fixture
def firefox(site, refusing_proxy):
    driver = start_firefox()
    page = EnginePage("firefox", driver, refusing_proxy, ARTIFACTS / "screenshots")
    yield EnginePhone("F", page, site)
    page.check()
    driver.close()


def test_firefox_joins_a_chromium_hub_and_hosts_a_chromium_player(phones, firefox):
    hub, bea = phones("A", "B")
    assert firefox.peer_connection == "function"
    version = firefox.page.evaluate("return navigator.userAgent.match(/Firefox\\/[0-9.]+/)[0];")
    print(f"\nlive table, {version} (ESR) and Chromium:")
    print(f"  Firefox joined a Chromium hub in {join(hub, firefox):.2f} s")
    talk(hub, firefox)
    print(f"  a Chromium player joined a Firefox hub in {join(firefox, bea):.2f} s")
    talk(firefox, bea)


def test_webkitgtk_says_unsupported_where_it_has_no_webrtc(site, refusing_proxy):
    display = VirtualDisplay()
    driver = start_webkit(display.name)
    try:
        page = EnginePage("webkit", driver, refusing_proxy, ARTIFACTS / "screenshots")
        phone = EnginePhone("W", page, site)
        if phone.peer_connection != "undefined":
            pytest.fail(f"{driver.version} now has RTCPeerConnection: join it like Firefox above")
        with pytest.raises(Exception, match="unsupported"):
            phone.call("offer", "A")
        assert page.evaluate("return tableside.live.state('A');") == "none"
        print(f"\n  {driver.version}: no RTCPeerConnection; live.js says 'unsupported'")
        page.check()
    finally:
        driver.close()
        display.close()
