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

import re
import time

import pytest

import netns

netns.require_isolated()  # before anything opens a page: outside, a browser would reach the real network

from conftest import ARTIFACTS  # noqa: E402
from engines import EnginePage, VirtualDisplay, start_firefox, start_webkit  # noqa: E402
from inside_live_channel import phones, playwright_instance  # noqa: E402,F401 (fixtures)
from session.links.v2 import session_link  # noqa: E402
from session.live import signal as live_signal  # noqa: E402
from session.replica import Replica  # noqa: E402

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


# --- The app's live table, not only its channel ------------------------------------------------------

TYPE = """const field = document.querySelector(input[0]);
field.value = input[1];
field.dispatchEvent(new Event("input", { bubbles: true }));"""


def app_in(engine: str, driver, site: str, refusing_proxy) -> EnginePage:
    page = EnginePage(engine, driver, refusing_proxy, ARTIFACTS / "screenshots")
    page.goto(site)
    page.wait_until_ready()
    return page


def gm_and_firefox(gm_browser, driver, site: str, refusing_proxy, watch):
    """The GM's phone (Chromium) on the party's session, saying it is the GM's, and Firefox on the app:
    (the GM's phone, Firefox's page, Firefox's version)."""
    from inside_live_table import Phone, party

    gm = Phone(gm_browser, "GM", watch, site)
    gm.page.goto(site + "#" + session_link(Replica.from_session(party())))
    gm.page.get_by_test_id("role-chooser").get_by_role("button", name="The GM").tap()
    firefox = app_in("firefox", driver, site, refusing_proxy)
    return gm, firefox, firefox.evaluate("return navigator.userAgent.match(/Firefox\\/[0-9.]+/)[0];")


def pasted_join(gm, engine: EnginePage):
    """The GM's phone (Chromium) makes the table live and a code; the other engine's player pastes it,
    the GM's phone pastes its answer, and the player says it is Ash."""
    from inside_live_table import nav, read_code

    nav(gm.page, "Session")
    gm.page.get_by_role("button", name="Make this table live").tap()
    gm.page.locator("#live-connect").tap()
    engine.tap("Session", within="nav[aria-label=Screens]")
    engine.evaluate(TYPE, ["#pasted-link", read_code(gm.code("live-offer"))])
    engine.tap("Open")
    engine.wait_for("document.querySelector('#live-answer-text')?.value.startsWith('A1.')", 20)
    gm.page.locator("#live-pasted").fill(engine.evaluate("return document.querySelector('#live-answer-text').value;"))
    gm.page.get_by_role("button", name="Use this code").tap()
    engine.tap("Ash", within="[data-testid=role-chooser]")


def test_firefox_joins_the_apps_live_table_by_its_codes_and_its_roll_reaches_the_gm(site, refusing_proxy,
                                                                                       playwright_instance, watch,
                                                                                       tmp_path):
    """Firefox has no fake camera to scan with here, so its player pastes the GM's code and the GM's
    phone (Chromium) pastes Firefox's answer: the same codes a scan reads, through the same actions."""
    from inside_live_table import Browser  # one browser's helpers

    gm_browser = Browser(playwright_instance, tmp_path, "gm")
    driver = start_firefox()
    try:
        gm, firefox, version = gm_and_firefox(gm_browser, driver, site, refusing_proxy, watch)
        started = time.perf_counter()
        pasted_join(gm, firefox)
        gm.page.get_by_test_id("live-phones").get_by_text("Ash's phone").wait_for(timeout=20_000)
        joined = time.perf_counter() - started
        firefox.tap(re.compile(r"^Roll \d+ di(c)?e$"), within="[data-testid=side-player]")
        firefox.tap("Log and send to the GM")
        logged = time.perf_counter()
        entry = firefox.evaluate("return document.querySelector('[data-testid=live-newest]').dataset.entry;")
        gm.page.wait_for_function("(id) => document.querySelector('[data-testid=live-newest]')?.dataset.entry === id",
                                  arg=entry, timeout=10_000)
        print(f"\n  {version} joined the app's live table as Ash's phone in {joined:.2f} s (codes pasted, not "
              f"scanned); its roll was on the GM's phone {1000 * (time.perf_counter() - logged):.0f} ms after the tap")
        firefox.check()
    finally:
        driver.close()
        gm_browser.close()
    watch.check()


def test_webkitgtk_offers_the_live_table_says_it_cannot_and_links_still_work(site, refusing_proxy):
    display = VirtualDisplay()
    driver = start_webkit(display.name)
    try:
        page = app_in("webkit", driver, site, refusing_proxy)
        page.tap("Session", within="nav[aria-label=Screens]")
        page.tap("Make this table live")
        page.tap("Connect a phone")
        page.wait_for("document.body.innerText.includes('it has no WebRTC')", 20)
        page.tap("Session", within="nav[aria-label=Screens]")
        assert page.evaluate("return document.querySelectorAll('.share-card [data-testid=qr]').length;") == 1
        print(f"\n  {driver.version}: the live table says this browser has no WebRTC; the session's link and QR code "
              "are there as before")
        page.check()
    finally:
        driver.close()
        display.close()
