"""Rejoining a live table with no scan, in the app, in Chromium browsers joined once by scanning
(inside_live_table.py's phones): a player's phone that reloads, the GM's phone that reloads (every
player comes back), a killed renderer, a browser that refuses changed ICE credentials (Chromium's
WebRTC-NoSdpMangleUfrag field trial: the one-scan code), a stranger holding a copy of a phone's
stored ways back but not its key (refused), and a way back that leads nowhere (said in a
sentence within seconds). Then a Firefox ESR player's phone at a Chromium GM's table: reloaded,
killed and closed, each rejoining with no scan, and the one-scan code where it refuses changed
credentials. Run only inside a private network namespace, by test_live_rejoin.py.
Times are printed (medians), never asserted.
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import statistics
import time
from pathlib import Path

import pytest

import netns

netns.require_isolated()  # before anything opens a page: outside, Chromium would reach the real network

from conftest import BOOT_TIMEOUT_MS  # noqa: E402
from inside_live_table import AGREE_MS, WAYS, Browser, Phone, agree, armed, join, live_again, tension_roll  # noqa: E402
from inside_live_table import playwright_instance, table  # noqa: E402,F401 (fixtures)
from test_sessions import both_sizes, nav  # noqa: E402

REFUSE_MUNGING = "--force-fieldtrials=WebRTC-NoSdpMangleUfrag/Enabled/"
RELOADS = 5
# From the rejoin's start (live.js's mark) to its channel open, in this page.
HANDSHAKE_MS = """() => {
  const [start] = performance.getEntriesByName("tableside-rejoin"), [open] = performance.getEntriesByName("tableside-live-open");
  return start && open ? open.startTime - start.startTime : null;
}"""


@pytest.fixture
def phones(table):
    """phones(names): inside_live_table's table of the GM's phone and these players' (one browser each
    for up to two; `refusing`: "players" or "gm", whose browsers refuse changed ICE credentials), made
    live and joined by scanning (unless not `joined`), each phone's ways back stored (`profiles`: each
    player's browser keeps its storage in a folder, as inside_live_table's Browser)."""
    def phones(names, refusing: str = "", joined: bool = True, profiles: bool = False):
        gm, players = table(names=tuple(names), player_args=(REFUSE_MUNGING,) if refusing == "players" else (),
                            gm_args=(REFUSE_MUNGING,) if refusing == "gm" else (), profiles=profiles)
        nav(gm.page, "Session")
        gm.button("Make this table live", "setup")
        for player in players if joined else []:
            join(gm, player)
        for phone in [gm, *players] if joined else []:
            armed(phone, len(players) if phone is gm else 1)
        return gm, players

    return phones


def to_live(phone: Phone):
    """The Live table screen, from wherever the phone is."""
    if phone.page.locator("#live-title").count() == 0:
        phone.page.get_by_role("button", name="Live table", exact=True).first.tap()
    phone.page.locator("#live-title").wait_for()


def reload_and_rejoin(phone: Phone) -> tuple[float, float | None]:
    """The page reloads and rejoins by itself: seconds from the reload to live, and the handshake in ms."""
    started = time.perf_counter()
    phone.page.reload(wait_until="commit")
    live_again(phone, BOOT_TIMEOUT_MS)
    return time.perf_counter() - started, phone.page.evaluate(HANDSHAKE_MS)


def test_a_players_phone_reloads_and_is_live_again_with_no_scan(phones, screenshot):
    gm, [ash] = phones(["Ash"])
    totals, handshakes = [], []
    for _ in range(RELOADS):
        before = ash.page.evaluate(WAYS)
        total, handshake = reload_and_rejoin(ash)
        totals.append(total)
        handshakes.append(handshake)
        gm.page.locator(".live-phone-open").filter(has_text="Ash's phone").wait_for(timeout=AGREE_MS)
        armed(ash, 1, before)  # armed anew, the used ways gone
    assert ash.taps["setup"] == 3  # the first join's taps only: no scan since
    nav(ash.page, "Conflict")
    tension_roll(ash)
    logged = time.perf_counter()
    [reached] = agree([gm], ash.newest(), logged)
    ash.page.get_by_text("Logged. It is on the GM's phone.").wait_for(timeout=AGREE_MS)
    print(f"\n  Chromium: a player's phone reloaded {RELOADS} times, live again with no scan each time: reload -> live "
          f"median {statistics.median(totals):.2f} s (the page's start included; {', '.join(f'{t:.2f}' for t in totals)}), "
          f"the rejoin's handshake (rejoin -> channel open) median {statistics.median(handshakes):.0f} ms "
          f"({', '.join(f'{ms:.0f}' for ms in handshakes)}); its next roll reached the GM's phone in {reached * 1000:.0f} ms")


def test_the_gms_phone_reloads_and_every_player_comes_back(phones, screenshot):
    gm, players = phones(["Ash", "Brin"])
    totals = []
    for _ in range(3):
        before = gm.page.evaluate(WAYS)
        started = time.perf_counter()
        gm.page.reload(wait_until="commit")
        gm.page.wait_for_function("() => /Ash since/.test(document.querySelector('[data-testid=live-line]')?.textContent) "
                                  "&& /Brin since/.test(document.querySelector('[data-testid=live-line]')?.textContent)",
                                  timeout=BOOT_TIMEOUT_MS)
        totals.append(time.perf_counter() - started)
        for player in players:
            live_again(player)
        armed(gm, 2, before)
    nav(players[1].page, "Conflict")
    tension_roll(players[1])
    [reached] = agree([gm, players[0]], players[1].newest(), time.perf_counter())[-1:]
    print(f"\n  Chromium: the GM's phone reloaded 3 times and both players' phones came back with no scan: reload -> "
          f"both live median {statistics.median(totals):.2f} s ({', '.join(f'{t:.2f}' for t in totals)})")


# The phone's next standby comes to nothing: its gathering found no address before live.js stopped
# waiting (the SDP it returns has no candidate, as under heavy load), or the browser could not make it.
STANDBY_COMES_TO_NOTHING = """(how) => {
  const live = self.tableside.live, real = live.standby;
  live.standby = async (peer, id) => {
    live.standby = real;  // once
    self.standbyCameToNothing = how;
    if (how === "fails") throw new Error("refused");
    return (await real(peer, id)).replace(/^a=candidate:.*\\r?\\n/gm, "");
  };
}"""


def test_a_standby_that_comes_to_nothing_is_made_again_and_every_way_back_is_stored(phones):
    gm, players = phones(["Ash", "Brin"])
    for player, how in zip(players, ("no address", "fails")):
        player.page.evaluate(STANDBY_COMES_TO_NOTHING, how)
    before = gm.page.evaluate(WAYS)
    gm.page.reload(wait_until="commit")
    for player in players:
        live_again(player, BOOT_TIMEOUT_MS)
    armed(gm, 2, before)  # three new ways back to each player, not two: the spare took the lost one's place
    assert [player.page.evaluate("() => self.standbyCameToNothing") for player in players] == ["no address", "fails"]


def kill_renderers(browser: Browser):
    """SIGKILL every renderer process of the browser (its one phone's page), as the system does to a
    page in the background."""
    processes = browser.crashes.session.send("SystemInfo.getProcessInfo")["processInfo"]
    for process in processes:
        if process["type"] == "renderer":
            os.kill(process["id"], signal.SIGKILL)


def test_a_killed_renderer_and_a_closed_page_rejoin_with_no_scan(phones):
    gm, [ash] = phones(["Ash"])
    took = {}
    for how in ("killed", "closed"):
        before = ash.page.evaluate(WAYS)
        old, crashes = ash.page, len(ash.browser.crashes.seen)
        url = old.url.split("#")[0]
        started = time.perf_counter()
        if how == "killed":
            kill_renderers(ash.browser)
            old.wait_for_event("crash", timeout=AGREE_MS) if len(ash.browser.crashes.seen) == crashes else None
        old.close()
        ash.page = ash.context.new_page()  # the phone opens the app again: same storage, same key
        ash.page.goto(url, wait_until="commit")
        live_again(ash, BOOT_TIMEOUT_MS)
        took[how] = (time.perf_counter() - started, ash.page.evaluate(HANDSHAKE_MS))
        armed(ash, 1, before)
        del ash.browser.crashes.seen[crashes:]  # the renderer this test killed: not a crash to report
    print("\n  Chromium: " + "; ".join(f"a {how} page, opened again: live with no scan {total:.2f} s after it ended "
                                      f"(the page's start included), handshake {ms:.0f} ms"
                                      for how, (total, ms) in took.items()))


RESTARTS = 3


# Every text the live line shows from the page's first script on, each change as it is made (not sampled).
LINES_SHOWN = """(() => {
  const shown = (window.tablesideLiveLines = []);
  new MutationObserver(() => {
    const words = document.querySelector('[data-testid="live-line"]')?.textContent.trim();
    if (words && shown[shown.length - 1] !== words) shown.push(words);
  }).observe(document, { subtree: true, childList: true, characterData: true });
})()"""


def test_a_players_whole_browser_restarts_and_is_live_again_with_no_scan(phones, playwright_instance, watch, site,
                                                                          tmp_path, screenshot):
    """Brin's browser (Brin is not the roster's first character) keeps its storage in a folder (its
    IndexedDB key, its localStorage), as a phone's does: closed whole and launched again on that folder,
    the app opened again is Brin's and rejoins by itself, never saying that a roll the GM's phone
    already stored is waiting to reach it."""
    gm, [brin] = phones(["Brin"], profiles=True)
    nav(brin.page, "Conflict")
    tension_roll(brin)
    agree([gm], brin.newest(), time.perf_counter())
    brin.page.get_by_text("Logged. It is on the GM's phone.").wait_for(timeout=AGREE_MS)  # acknowledged: no longer waiting
    launched, handshakes, said = [], [], set()
    try:
        for _ in range(RESTARTS):
            before, url = brin.page.evaluate(WAYS), brin.page.url.split("#")[0]
            brin.browser.close()  # the whole browser: its last context closed
            started = time.perf_counter()
            browser = Browser(playwright_instance, tmp_path, "b", profile=tmp_path / "profile-b")
            brin = Phone(browser, "Brin", watch, site)
            brin.context.add_init_script(LINES_SHOWN)
            brin.page.goto(url, wait_until="commit")
            live_again(brin, BOOT_TIMEOUT_MS)
            shown = brin.page.evaluate("window.tablesideLiveLines")
            said.update(shown)  # what the phone said from its first words until live
            assert any(words.startswith("Not live") for words in shown), shown  # read before it was live too
            assert not [words for words in shown if "waiting to reach the GM" in words], shown  # its roll is on the GM's
            launched.append((time.perf_counter() - started) * 1000)
            handshakes.append(brin.page.evaluate(HANDSHAKE_MS))
            gm.page.locator(".live-phone-open").filter(has_text="Brin's phone").wait_for(timeout=AGREE_MS)
            armed(brin, 1, before)
        assert brin.taps["setup"] == 0  # no scan since the browser came back
        screenshot(brin.page, "live-player-after-browser-restart", full_page=True)
        nav(brin.page, "Conflict")
        brin.page.get_by_test_id("holder").filter(has_text="You: Brin").wait_for()
        assert "Brin" in brin.page.get_by_test_id("side-player").inner_text()  # its own side, not Ash's
        brin.button("New conflict", "roll")  # the roll before the restart is still shown, as logged
        tension_roll(brin)
        [reached] = agree([gm], brin.newest(), time.perf_counter())
        brin.page.get_by_text("Logged. It is on the GM's phone.").wait_for(timeout=AGREE_MS)
    finally:
        brin.browser.close()
    print(f"\n  Chromium on a kept profile: a player's whole browser restarted {RESTARTS} times, live again with no scan "
          f"each time: launch -> live median {statistics.median(launched):.0f} ms ({', '.join(f'{ms:.0f}' for ms in launched)}; "
          f"the browser's start and the page's included), handshake {', '.join(f'{ms:.0f}' for ms in handshakes)} ms; "
          f"its next roll reached the GM's phone in {reached * 1000:.0f} ms; the live line said meanwhile: {sorted(said)}")


def test_where_the_browser_refuses_changed_credentials_one_scan_rejoins(phones, screenshot):
    gm, [ash] = phones(["Ash"], refusing="players")
    started = time.perf_counter()
    ash.page.reload(wait_until="commit")
    code = ash.page.get_by_test_id("live-rejoin-code")
    code.wait_for(timeout=BOOT_TIMEOUT_MS)
    shown = time.perf_counter() - started
    line = ash.page.get_by_test_id("live-line")
    assert "show this phone's code to the GM's phone" in line.inner_text()
    text = ash.page.locator("[data-testid^=live-rejoin-text-]").input_value()
    assert text.startswith("J1.") and len(text) < 50
    both_sizes(ash.page, screenshot, "live-player-rejoin-code", code)
    ash.page.set_viewport_size({"width": 320, "height": 640})
    screenshot(ash.page, "live-player-rejoin-code", full_page=True)
    assert ash.page.evaluate("document.scrollingElement.scrollWidth") <= 320
    ash.page.set_viewport_size({"width": 390, "height": 844})
    gm.browser.show(ash.code("live-rejoin-code"))
    scanned = time.perf_counter()
    to_live(gm)
    both_sizes(gm.page, screenshot, "live-gm-rejoin-scan", gm.page.get_by_test_id("live-phones"))
    gm.button("Scan Ash's phone's rejoin code", "rejoin")
    live_again(ash)
    print(f"\n  Chromium refusing changed ICE credentials (WebRTC-NoSdpMangleUfrag): the reloaded phone showed its "
          f"one-scan code ({len(text)} characters) {shown:.2f} s after the reload; live {time.perf_counter() - scanned:.2f} s "
          f"after the GM's tap (camera start and decoding included; {gm.taps['rejoin']} tap on the GM's phone, none on Ash's)")


def test_a_gms_phone_that_refuses_changed_credentials_shows_a_code_each_player_scans(phones, screenshot):
    gm, players = phones(["Ash", "Brin"], refusing="gm")
    gm.page.reload(wait_until="commit")
    codes = gm.page.get_by_test_id("live-rejoin-code")
    codes.nth(1).wait_for(timeout=BOOT_TIMEOUT_MS)
    both_sizes(gm.page, screenshot, "live-gm-rejoin-codes", codes.first)
    gm.page.set_viewport_size({"width": 320, "height": 640})
    screenshot(gm.page, "live-gm-rejoin-codes", full_page=True)
    assert gm.page.evaluate("document.scrollingElement.scrollWidth") <= 320
    gm.page.set_viewport_size({"width": 390, "height": 844})
    for index, player in enumerate(players):
        item = gm.page.get_by_role("list", name="Codes to rejoin phones with").get_by_role("listitem").filter(
            has_text=f"{player.who}'s phone")
        player.browser.show(gm.code(f".live-card li:has-text(\"{player.who}'s phone\") .live-rejoin-code"))
        assert item.count() == 1
        to_live(player)
        player.button("Scan a new code from the GM", "rejoin")
        live_again(player)
    gm.page.wait_for_function("() => document.querySelectorAll('.live-phone-open').length === 2", timeout=AGREE_MS)
    print(f"\n  the GM's phone refusing changed ICE credentials reloaded: it showed a one-scan code for each of "
          f"{len(players)} phones, each player's phone scanned its own (1 tap each) and was live again")


def test_a_stranger_with_a_copy_of_the_stored_ways_but_not_the_key_is_refused_and_says_so(phones, site, watch):
    gm, [ash] = phones(["Ash"])
    stored = ash.page.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    eve = Phone(ash.browser, "Eve", watch, site)  # another phone (another context: no IndexedDB key of Ash's)
    # Ash's storage is in place before Eve's page runs: copied into a page that had started, it raced that
    # page's own first saves (which could leave Eve on a new session of her own, with no way back to try).
    eve.context.add_init_script("""(() => { if (sessionStorage.getItem("copied")) return;
        localStorage.clear(); for (const [key, value] of %s) localStorage.setItem(key, value);
        sessionStorage.setItem("copied", "1"); })()""" % stored)
    started = time.perf_counter()
    eve.page.goto(site, wait_until="commit")
    line = eve.page.get_by_test_id("live-line")
    line.get_by_text("Not live: rejoining the GM's phone…").wait_for(timeout=BOOT_TIMEOUT_MS)
    refused = eve.page.locator(".message p").filter(has_text=re.compile("could not be rejoined|can't rejoin it on its own"))
    code = eve.page.get_by_test_id("live-rejoin-code")
    eve.page.wait_for_function("() => document.querySelector('[data-testid=live-rejoin-code]') || "
                               "/could not be rejoined|can't rejoin it on its own/.test(document.body.textContent)", timeout=30_000)
    said = time.perf_counter() - started
    assert refused.count() or code.count()
    assert "Live with" not in line.inner_text()
    to_live(gm)
    assert gm.page.locator(".live-phone-open").count() == 1  # Ash's phone only, still live
    live_again(ash)
    how = "showed its one-scan code" if code.count() else f"said: {refused.first.inner_text()}"
    eve.context.close()
    print(f"\n  a stranger with a copy of Ash's stored ways back but not its key: refused by the handshake; "
          f"{said:.1f} s after its start its phone {how}")


def test_two_phones_that_reload_together_say_so_and_join_again_with_two_scans(phones, screenshot):
    """The GM's phone and Ash's reload within a second: each stored way back leads to the other's old
    page, so neither can rejoin on its own (no page knows where the other's new one listens). Each says
    so in a sentence (not the Wi-Fi one), with no useless one-scan code; the two scans join them again."""
    gm, [ash] = phones(["Ash"])
    started = time.perf_counter()
    gm.page.reload(wait_until="commit")
    ash.page.reload(wait_until="commit")
    gap = time.perf_counter() - started
    said = {}
    for phone in (ash, gm):
        phone.page.locator(".message p").filter(has_text="restarted at about the same moment").wait_for(timeout=30_000)
        said[phone.who] = time.perf_counter() - started
    both_sizes(ash.page, screenshot, "live-player-both-reloaded", ash.page.locator(".message"))
    both_sizes(gm.page, screenshot, "live-gm-both-reloaded", gm.page.locator(".message"))
    for phone in (ash, gm):
        to_live(phone)
        said_there = " ".join(phone.page.locator(".message, .side-problem, [data-testid=live-phones]").all_inner_texts())
        assert "same Wi-Fi" not in said_there and phone.page.get_by_test_id("live-rejoin-code").count() == 0
    assert "Not live: ask the GM for a code" in ash.page.get_by_test_id("live-line").inner_text()
    gone = gm.page.locator("[data-action=live-connect][data-peer]").get_attribute("data-peer")
    for phone, peer in ((ash, "gm"), (gm, gone)):  # the last attempts were closed: no late "could not connect"
        assert phone.page.evaluate("(peer) => self.tableside.live.state(peer)", peer) == "none"
    both_sizes(ash.page, screenshot, "live-player-both-reloaded-card", ash.page.get_by_test_id("live-player"))
    both_sizes(gm.page, screenshot, "live-gm-both-reloaded-phones", gm.page.get_by_test_id("live-phones"))
    gm.tap(gm.page.locator("[data-action=live-connect][data-peer]"), "setup")  # “New code” for Ash's phone
    join(gm, ash, first=False, connect=False)
    print(f"\n  the GM's phone and Ash's reloaded {gap * 1000:.0f} ms apart: Ash's phone said neither can rejoin on its "
          f"own {said['Ash']:.1f} s after, the GM's {said['GM']:.1f} s after; the two scans joined them again")


def test_a_way_back_that_leads_nowhere_says_so_within_seconds(phones, screenshot):
    gm, [ash] = phones(["Ash"])
    gm.page.close()  # the GM's phone is gone (its standbys with it)
    started = time.perf_counter()
    ash.page.reload(wait_until="commit")
    line = ash.page.get_by_test_id("live-line")
    line.get_by_text("Not live: rejoining the GM's phone…").wait_for(timeout=BOOT_TIMEOUT_MS)
    booted = time.perf_counter() - started
    both_sizes(ash.page, screenshot, "live-player-rejoining", line)
    ash.page.set_viewport_size({"width": 320, "height": 640})
    screenshot(ash.page, "live-player-rejoining", full_page=True)
    ash.page.set_viewport_size({"width": 390, "height": 844})
    ash.page.locator(".message p").filter(has_text="can't rejoin it on its own").wait_for(timeout=30_000)
    said = time.perf_counter() - started
    assert ash.page.get_by_test_id("live-rejoin-code").count() == 0  # its standby went with the GM's page
    assert "same Wi-Fi" not in ash.page.locator(".message").inner_text()
    print(f"\n  the GM's phone gone: Ash's reloaded phone said it could not rejoin quietly {said - booted:.1f} s after "
          f"its start ({said:.1f} s after the reload), with no one-scan code (its standby went with that page)")


def test_a_join_the_gms_phone_does_not_answer_says_so_within_seconds(phones, screenshot):
    """Ash scans a code whose offer names an address no phone has (as on Wi-Fi that keeps phones apart,
    or a code the GM's phone gave up): its phone says so within seconds, not after the 20 s wait. Then
    Ash scans the GM's real code and the GM's phone is slow to scan the answer: nothing is said."""
    from inside_live_table import read_code, unreachable
    from test_scan import qr_gray

    gm, [ash] = phones(["Ash"], joined=False)
    gm.tap(gm.page.locator("#live-connect"), "setup")
    real = read_code(gm.code("live-offer"))
    ash.browser.show(qr_gray(unreachable(real)))
    nav(ash.page, "Session")
    ash.button("Scan a code", "setup")
    ash.page.get_by_test_id("live-answer-text").wait_for(timeout=AGREE_MS)
    shown = time.perf_counter()
    said = ash.page.locator(".message p").filter(has_text="does not answer this code")
    said.wait_for(timeout=AGREE_MS)
    took = time.perf_counter() - shown
    assert "Not live: ask the GM for a new code" in ash.page.get_by_test_id("live-line").inner_text()
    both_sizes(ash.page, screenshot, "live-player-not-answered", said)
    ash.browser.show(qr_gray(real))
    nav(ash.page, "Session")
    ash.button("Scan a code", "setup")
    ash.page.get_by_test_id("live-answer-text").wait_for(timeout=AGREE_MS)
    time.sleep(6)  # the GM's phone is slow to scan: its offer replies to Ash's checks meanwhile
    assert ash.page.locator(".message p").filter(has_text="does not answer").count() == 0
    gm.browser.show(ash.code("live-player"))
    gm.tap(gm.page.locator("#live-scan"), "setup")
    ash.page.get_by_test_id("role-chooser").wait_for(timeout=AGREE_MS)
    print(f"\n  a code the GM's phone can't answer: Ash's phone said so {took:.1f} s after showing its answer "
          f"(before: the 20 s notice); a real code the GM scanned 6 s late said nothing and joined")


# --- Firefox ESR --------------------------------------------------------------------------------------
# Firefox joins the Chromium GM's table by pasted codes (no fake camera to scan with here), as in
# inside_live_engines.py. What Firefox can't do is not tried here: an answer set in advance fails in Firefox
# ("ICE failed"), so a Firefox phone holds only its scan standby for the GM; and a Firefox GM cannot reach
# players that offer only mDNS names.

# Firefox has no switch like Chromium's WebRTC-NoSdpMangleUfrag: its JSEP does not check a local
# description's ICE credentials at all (JsepSessionImpl::ValidateLocalDescription: "TODO(bug 1095226): Check
# ice-ufrag and ice-pwd"), and no media.peerconnection pref changes that. So the test makes its page's
# RTCPeerConnection refuse them the way Chromium's trial does, before the app's scripts run (the driver's
# init script; nothing of it ships): a local description whose ICE username or password differs from the one
# the connection made is refused. The app's own probe (static/live.js) then finds the refusal, as in Chromium.
REFUSE_CHANGED_CREDENTIALS = """(() => {
  const made = new WeakMap();  // connection -> the ICE credentials of the description it last made
  const credentials = (sdp) => (String(sdp).match(/^a=ice-(ufrag|pwd):.*$/gm) ?? []).join("\\n");
  const prototype = RTCPeerConnection.prototype;
  for (const name of ["createOffer", "createAnswer"]) {
    const real = prototype[name];
    prototype[name] = async function (...args) {
      const description = await real.apply(this, args);
      made.set(this, credentials(description.sdp));
      return description;
    };
  }
  const setLocal = prototype.setLocalDescription;
  prototype.setLocalDescription = function (description, ...rest) {
    if (description?.sdp && made.has(this) && credentials(description.sdp) !== made.get(this)) {
      return Promise.reject(new DOMException("SDP is modified in a non-acceptable way", "InvalidModificationError"));
    }
    return setLocal.call(this, description, ...rest);
  };
})();"""
FIREFOX_LIVE = "/Live with the GM's phone/.test(document.querySelector('[data-testid=live-line]')?.textContent)"
FIREFOX_TIMES = 3  # each case, each run


@contextlib.contextmanager
def firefox_at_the_table(site, refusing_proxy, playwright_instance, watch, tmp_path, before_the_app: str = ""):
    """The Chromium GM's phone and a Firefox player's (Ash), joined by pasted codes, Ash's three ways back
    stored: (gm, Firefox's page, Firefox's version, the driver). `before_the_app`: a script every Firefox
    page runs before the app's own (from the join on)."""
    from engines import start_firefox
    from inside_live_engines import gm_and_firefox, pasted_join

    gm_browser = Browser(playwright_instance, tmp_path, "gm")
    driver = start_firefox()
    try:
        gm, firefox, version = gm_and_firefox(gm_browser, driver, site, refusing_proxy, watch)
        if before_the_app:
            firefox.add_init_script(before_the_app)
            firefox.reload()
            firefox.wait_until_ready()
        pasted_join(gm, firefox)
        firefox_armed(firefox)
        yield gm, firefox, version, driver
        firefox.check()
    finally:
        driver.close()
        gm_browser.close()
    watch.check()


def firefox_armed(firefox, before=()) -> list[int]:
    """Wait until Firefox's page stores three ways back to the GM's phone, none of them in `before`."""
    firefox.wait_for(f"(({WAYS})()).length === 3 && ({WAYS})().every((id) => !{list(before)}.includes(id))", 20)
    return firefox.evaluate(f"return ({WAYS})();")


def firefox_processes(driver) -> tuple[int, list[int]]:
    """The Firefox the driver launched (its pid) and its web content processes: the page's and spares
    (puppeteer started it; each content process names it as -parentPid)."""
    def cmdline(pid: str) -> str:
        try:
            return (Path("/proc") / pid / "cmdline").read_text().replace("\0", " ")
        except OSError:
            return ""

    def parent(pid: str) -> int:
        try:
            return int((Path("/proc") / pid / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            return -1

    pids = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    [firefox] = [int(pid) for pid in pids if parent(pid) == driver.process.pid and "firefox" in cmdline(pid)]
    return firefox, [int(pid) for pid in pids if "-isForBrowser" in cmdline(pid) and f"-parentPid {firefox} " in cmdline(pid)]


def kill_firefox_pages(firefox, driver):
    """SIGKILL every web content process of the driver's Firefox, as the system does to a page in the
    background, and wait until Firefox shows its crashed tab. Which process holds the page is not knowable
    from outside (with Fission, a content process's command line does not name its site), and this Firefox
    holds only the one phone's page: the others are spares, which Firefox makes again."""
    from engines import EngineError

    _, pages = firefox_processes(driver)
    assert pages, "no web content process found under the driver's Firefox"
    for pid in pages:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while True:  # the page is gone: its tab is Firefox's own "tab crashed" page, which no script may run in
        try:
            firefox.evaluate("return 1;")
        except EngineError as error:
            assert "parent process" in str(error), error
            return
        assert time.monotonic() < deadline, "Firefox's content processes were killed but its page still answers"
        time.sleep(0.02)


def test_a_firefox_players_phone_reloads_and_is_live_again_with_no_scan(site, refusing_proxy, playwright_instance,
                                                                         watch, tmp_path):
    """Firefox reloads: it rejoins through the Chromium GM's standby with no code at all."""
    with firefox_at_the_table(site, refusing_proxy, playwright_instance, watch, tmp_path) as (gm, firefox, version, _):
        totals, handshakes = [], []
        for _ in range(FIREFOX_TIMES):
            before = firefox_armed(firefox)
            started = time.perf_counter()
            firefox.reload()
            firefox.wait_for(FIREFOX_LIVE, 60)
            totals.append(time.perf_counter() - started)
            handshakes.append(firefox.evaluate(f"return ({HANDSHAKE_MS})();"))
            firefox_armed(firefox, before)
        gm.page.locator(".live-phone-open").filter(has_text="Ash's phone").wait_for(timeout=AGREE_MS)
        print(f"\n  {version}: a player's phone reloaded {FIREFOX_TIMES} times, live again with no scan each time (the "
              f"Chromium GM's standbys): reload -> live median {statistics.median(totals):.2f} s "
              f"({', '.join(f'{t:.2f}' for t in totals)}), handshake median {statistics.median(handshakes):.0f} ms "
              f"({', '.join(f'{ms:.0f}' for ms in handshakes)}); 0 taps")


def test_a_firefox_players_page_killed_or_closed_opens_again_and_is_live_with_no_scan(site, refusing_proxy,
                                                                                       playwright_instance, watch,
                                                                                       tmp_path):
    """Firefox's page is killed (its content processes), or closed; a new tab on the same profile opens the app
    again, as a phone reopening it: it rejoins through the Chromium GM's standby with no code at all."""
    with firefox_at_the_table(site, refusing_proxy, playwright_instance, watch, tmp_path) as (gm, firefox, version,
                                                                                           driver):
        url = firefox.evaluate("return location.href.split('#')[0];")
        took = {"killed": [], "closed": []}
        for how in [*["killed"] * FIREFOX_TIMES, *["closed"] * FIREFOX_TIMES]:
            before = firefox_armed(firefox)
            started = time.perf_counter()
            if how == "killed":
                kill_firefox_pages(firefox, driver)
            firefox.new_tab()  # (the killed page's tab shows Firefox's "tab crashed" page: closed too)
            firefox.goto(url)
            firefox.wait_for(FIREFOX_LIVE, 60)
            took[how].append((time.perf_counter() - started, firefox.evaluate(f"return ({HANDSHAKE_MS})();")))
            firefox_armed(firefox, before)
            gm.page.locator(".live-phone-open").filter(has_text="Ash's phone").wait_for(timeout=AGREE_MS)
        print(f"\n  {version}: " + "; ".join(
            f"a {how} page opened again {len(times)} times, live with no scan each time: end -> live median "
            f"{statistics.median(total for total, _ in times):.2f} s ({', '.join(f'{total:.2f}' for total, _ in times)}; "
            f"the page's start included), handshake median {statistics.median(ms for _, ms in times):.0f} ms "
            f"({', '.join(f'{ms:.0f}' for _, ms in times)})" for how, times in took.items()) + "; 0 taps")


def firefox_code_on_screen(firefox, name: str):
    """The one-scan code Firefox draws, as the GM's camera sees it: Firefox's screenshot (kept as `name`)
    around the QR code, in gray."""
    from test_sessions import png_gray

    box = firefox.evaluate("""const code = document.querySelector("[data-testid=live-rejoin-code] [data-testid=qr]");
code.scrollIntoView({ block: "center" });
await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
const { x, y, width, height } = code.getBoundingClientRect();
return { x, y, width, height };""")
    gray = png_gray(firefox.screenshot(name).read_bytes())
    rows, columns = gray.shape
    margin = 12
    left, top = max(0, int(box["x"]) - margin), max(0, int(box["y"]) - margin)
    right = min(columns, int(box["x"] + box["width"]) + margin)
    bottom = min(rows, int(box["y"] + box["height"]) + margin)
    pixels = gray.tobytes()
    part = b"".join(pixels[y * columns + left:y * columns + right] for y in range(top, bottom))
    return memoryview(part).cast("B", (bottom - top, right - left))


def test_where_firefox_refuses_changed_credentials_one_scan_rejoins(site, refusing_proxy, playwright_instance, watch,
                                                                   tmp_path):
    """Firefox refusing changed ICE credentials (REFUSE_CHANGED_CREDENTIALS) reloads: its probe finds the
    refusal, it shows its one-scan code, and the Chromium GM scans it from Firefox's screen."""
    from inside_live_table import read_code

    with firefox_at_the_table(site, refusing_proxy, playwright_instance, watch, tmp_path,
                              before_the_app=REFUSE_CHANGED_CREDENTIALS) as (gm, firefox, version, _):
        shown, live, lengths = [], [], set()
        for _ in range(FIREFOX_TIMES):
            before = firefox_armed(firefox)
            started = time.perf_counter()
            firefox.reload()
            firefox.wait_for("document.querySelector('[data-testid=live-rejoin-code] [data-testid=qr]')", 60)
            shown.append(time.perf_counter() - started)
            line = firefox.evaluate("return document.querySelector('[data-testid=live-line]').textContent;")
            assert "show this phone's code to the GM's phone" in line, line
            text = firefox.evaluate("return document.querySelector('[data-testid^=live-rejoin-text-]').value;")
            assert text.startswith("J1.") and len(text) < 50, text
            lengths.add(len(text))
            seen = firefox_code_on_screen(firefox, "live-player-rejoin-code")
            assert read_code(seen) == text  # the QR code Firefox drew is the code
            gm.browser.show(seen)
            scanned = time.perf_counter()
            to_live(gm)
            gm.button("Scan Ash's phone's rejoin code", "rejoin")
            firefox.wait_for(FIREFOX_LIVE, 30)
            live.append(time.perf_counter() - scanned)
            firefox_armed(firefox, before)
            gm.page.locator(".live-phone-open").filter(has_text="Ash's phone").wait_for(timeout=AGREE_MS)
        refused = [message["text"] for message in firefox.console() if "refuses changed ICE credentials" in message["text"]]
        assert len(refused) >= FIREFOX_TIMES, refused  # the probe said so at each start
        print(f"\n  {version} refusing changed ICE credentials: the reloaded phone showed its one-scan code "
              f"({'/'.join(map(str, sorted(lengths)))} characters) median {statistics.median(shown):.2f} s after the "
              f"reload ({', '.join(f'{t:.2f}' for t in shown)}); live median {statistics.median(live):.2f} s after the "
              f"GM's tap ({', '.join(f'{t:.2f}' for t in live)}; camera start and decoding included); "
              f"{gm.taps['rejoin'] // FIREFOX_TIMES} tap on the GM's phone each time, none on Firefox's")
