"""A live table in the app: the GM's phone and four players' phones, in three Chromium browsers,
joined by scanning each other's codes through the fake camera, play a round in each system;
run only inside a private network namespace, by test_live_table.py (never collected on its own:
its name is not test_*.py, and it refuses to start anywhere else).

Each browser process has one fake camera (a Y4M file, read again whenever a camera starts), so
the phones of one browser scan in turn: before each scan the test writes the code on the other
phone's screen into that browser's camera file. Every phone must come to show the same table
after each change: the test waits on that condition and prints how long it took (join time,
roll to the GM's phone, roll to every phone), and the taps each person made.
"""
from __future__ import annotations

import collections
import dataclasses
import os
import re
import statistics
import time
from pathlib import Path

import pytest
import zxingcpp
from playwright.sync_api import TimeoutError as PlaywrightTimeout, sync_playwright

import netns

netns.require_isolated()  # before anything opens a page: outside, Chromium would reach the real network

from crashes import RendererCrashes  # noqa: E402
from conftest import ARTIFACTS, BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, PHONE, READY  # noqa: E402
from offline_helpers import record_csp_violations  # noqa: E402
from session import check_roster_entry, new_session  # noqa: E402
from session.links.v2 import session_link  # noqa: E402
from session.live import signal as live_signal  # noqa: E402
from session.replica import Replica  # noqa: E402
from test_accessibility import violations  # noqa: E402
from test_scan import qr_gray, write_y4m  # noqa: E402
from test_sessions import RECORD_COPIES, both_sizes, nav, png_gray  # noqa: E402

CAMERA_ARGS = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
NAMES = ("Ash", "Brin", "Cato", "Dell")
ROLL = re.compile(r"^Roll \d+ di(c)?e$")
AGREE_MS = 10_000  # generous: what is measured is printed, not asserted


class Browser:
    """One Chromium process with a fake camera showing whatever `show` last wrote. With a `profile`
    (a folder), it keeps its storage there as a phone's browser does, and its one phone is `context`
    (closing it ends the browser; launched again on that folder, the phone has its storage back)."""

    def __init__(self, playwright, folder: Path, name: str, *args: str, camera: bool = True, profile: Path | None = None):
        self.video, self.camera = folder / f"{name}.y4m", camera
        write_y4m(self.video, memoryview(b"\xff" * 64).cast("B", (8, 8)))
        cameras = [*CAMERA_ARGS, f"--use-file-for-fake-video-capture={self.video}"] if camera else []
        switches = {"executable_path": CHROMIUM, "args": [*CHROMIUM_ARGS, *cameras, *args]}
        if profile:
            self.context = playwright.chromium.launch_persistent_context(str(profile), **switches, **PHONE)
            self.browser = self.context.browser
        else:
            self.context, self.browser = None, playwright.chromium.launch(**switches)
        self.crashes = RendererCrashes(self.browser)

    def show(self, gray):
        """The camera's next picture: a whole new file, so the camera never reads half of one."""
        write_y4m(self.video.with_suffix(".next"), gray)
        os.replace(self.video.with_suffix(".next"), self.video)

    def close(self):
        (self.context or self.browser).close()


class Phone:
    """One person's phone: a context of its own (its own storage), counting that person's taps."""

    def __init__(self, browser: Browser, who: str, watch, site: str):
        self.browser, self.who = browser, who
        self.context = browser.context or browser.browser.new_context(**PHONE)
        watch.attach(self.context)
        self.csp = record_csp_violations(self.context)
        self.page = self.context.pages[0] if browser.context else self.context.new_page()
        # The camera, the Screen Wake Lock (which Playwright cannot grant by name) and copying, as a player allows them.
        devtools = self.context.new_cdp_session(self.page)
        context_id = devtools.send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
        # (Playwright's own grant would not add the clipboard: this grant sets the origin's whole list.)
        allowed = ["wakeLockScreen", "clipboardSanitizedWrite", *(["videoCapture"] if browser.camera else [])]
        devtools.send("Browser.grantPermissions", {"permissions": allowed, "origin": site.rstrip("/"),
                                                   "browserContextId": context_id})
        self.taps = collections.Counter()
        self.console = collections.deque(maxlen=200)
        self.page.on("console", lambda line: self.console.append(f"{line.type}: {line.text}"))

    def keep_evidence(self, test: str):
        if self.page.is_closed():  # its browser was closed by the test (a restart)
            return
        folder = ARTIFACTS / "live-failures"
        folder.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(folder / f"{test}-{self.who}.png"), full_page=True)
        (folder / f"{test}-{self.who}.log").write_text("\n".join(self.console))

    def tap(self, locator, what: str):
        locator.tap()
        self.taps[what] += 1

    def button(self, name: str, what: str, exact: bool = False):
        self.tap(self.page.get_by_role("button", name=name, exact=exact), what)

    def code(self, where: str):
        """The QR code in the part of the screen `where` (a test id, or a CSS selector), as the
        other phone's camera sees it."""
        part = self.page.locator(where) if where.startswith(".") else self.page.get_by_test_id(where)
        code = part.get_by_test_id("qr")
        code.wait_for()
        code.evaluate("code => code.scrollIntoView({block: 'center'})")
        return png_gray(code.screenshot(scale="device"))

    def newest(self) -> str:
        """The id of the newest log entry, as the live line shows it ("" for none)."""
        found = self.page.get_by_test_id("live-newest")
        return found.get_attribute("data-entry") if found.count() else ""

    def seen(self) -> dict:
        """What the phone shows of the session: its log and roster (and Tension where it is shown)."""
        page = self.page
        nav(page, "Log")
        entries = page.get_by_test_id("log-entry")
        texts = [" ".join(text.split("\n", 1)[-1].replace("Share roll", "").split())
                 for text in entries.all_inner_texts()]
        nav(page, "Roster")
        roster = [" ".join(card.replace("Edit", "").split()) for card in page.locator(".roster-card").all_inner_texts()]
        return {"log": texts, "roster": roster}


def party() -> dict:
    """Four people with a sheet in each rule system (matched by name across systems)."""
    session = new_session("Friday at Kim's", players=4)
    session["tension"] = 4
    for who, rating in zip(NAMES, (3, 2, 2, 3)):
        session["roster"] += [
            check_roster_entry({"system": "tension", "kind": "character", "name": who, "ap": 2, "health": 10,
                                "willpower": 10, "attributes": [{"name": "Wits", "rating": rating}], "skills": []}),
            check_roster_entry({"system": "anomaly", "kind": "character", "name": who, "modifiers": [
                {"name": "Sword", "kind": "Gear", "value": 1, "stacks": False}]}),
            check_roster_entry({"system": "manners", "kind": "character", "name": who,
                                "manners": {"Force": 3, "Speed": 2, "Precision": 2, "Imagination": 1},
                                "skills": [], "descriptors": []})]
    return session


@pytest.fixture(scope="module")
def playwright_instance():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture
def table(playwright_instance, site, watch, tmp_path, request):
    """table(): the GM's phone in one browser, four players' phones in two others (two contexts
    each; `gm_args`, `player_args`: their command lines' extra switches; `profiles`: each players'
    browser keeps its storage in a folder, one phone each), all on the app; the GM's phone holds the session and says it is the GM's. When the test
    fails, each phone's screen and console are kept beside the screenshots, to say why."""
    made = {"browsers": [], "phones": []}
    failed_before = request.session.testsfailed

    def table(stranger: bool = False, names=NAMES, cameras: bool = True, player_args=(), gm_args=(), session=None,
              profiles: bool = False):
        gm_browser = Browser(playwright_instance, tmp_path, "gm", *gm_args)
        players_browsers = [Browser(playwright_instance, tmp_path, name, *player_args, camera=cameras,
                                    profile=tmp_path / f"profile-{name}" if profiles else None)
                            for name in ("b", "c")[:len(names)]]
        made["browsers"] += [gm_browser, *players_browsers]
        gm = Phone(gm_browser, "GM", watch, site)
        players = [Phone(players_browsers[index % len(players_browsers)], who, watch, site)
                   for index, who in enumerate(names)]
        if stranger:
            players.append(Phone(players_browsers[0], "Eve", watch, site))
        made["phones"] += [gm, *players]
        gm.page.goto(site + "#" + session_link(Replica.from_session(session or party())), wait_until="commit")
        for player in players:
            player.page.goto(site, wait_until="commit")
        for phone in made["phones"]:
            phone.page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        gm.tap(gm.page.get_by_test_id("role-chooser").get_by_role("button", name="The GM"), "setup")
        return gm, players

    yield table
    if request.session.testsfailed > failed_before:
        for phone in made["phones"]:
            phone.keep_evidence(request.node.name)
    crashed = "\n".join(browser.crashes.report() for browser in made["browsers"]).strip()
    for browser in made["browsers"]:
        browser.close()
    assert not crashed, crashed
    assert [phone.csp for phone in made["phones"]] == [[] for _ in made["phones"]]  # connect-src 'self' holds
    watch.check()


def join(gm: Phone, player: Phone, first: bool = True, pictures=None, connect: bool = True) -> float:
    """Two scans: the GM's offer on the player's phone, the player's answer on the GM's; seconds
    from the GM's tap to both phones live (scanning included)."""
    started = time.perf_counter()
    if connect:
        gm.tap(gm.page.locator("#live-connect"), "setup")
    player.browser.show(gm.code("live-offer"))
    if pictures:
        both_sizes(gm.page, pictures, "live-gm-offer", gm.page.get_by_test_id("live-offer"))
        assert violations(gm.page) == []
    nav(player.page, "Session")
    player.taps["setup"] += 1
    player.button("Scan a code", "setup")
    gm.browser.show(player.code("live-player"))
    if pictures:
        both_sizes(player.page, pictures, "live-player-answer", player.page.get_by_test_id("live-player"))
        assert violations(player.page) == []
    gm.tap(gm.page.locator("#live-scan"), "setup")
    if first:
        chooser = player.page.get_by_test_id("role-chooser")
        chooser.wait_for(timeout=AGREE_MS)
        joined = time.perf_counter()
        player.tap(chooser.get_by_role("button", name=player.who), "setup")
    else:
        player.page.get_by_test_id("live-line").get_by_text("the GM since").wait_for(timeout=AGREE_MS)
        joined = time.perf_counter()
    gm.page.get_by_test_id("live-phones").get_by_text(f"{player.who}'s phone").wait_for(timeout=AGREE_MS)
    return joined - started


# The ways back a phone stores to the live table it is on (issue 31: a reload rejoins through them).
# [phone id, what this phone stores to rejoin it] for each phone of the live table it is on.
PEERS_BACK = """() => Object.entries(localStorage).filter(([key]) => key.startsWith("tableside.table."))
  .flatMap(([, text]) => Object.entries(JSON.parse(text).rejoin?.peers ?? {}))"""
WAYS_BACK = f"() => ({PEERS_BACK})().flatMap(([, peer]) => peer.ways)"
FORGET_WAYS_BACK = """() => {
  for (const key of Object.keys(localStorage).filter((key) => key.startsWith("tableside.table."))) {
    const table = JSON.parse(localStorage.getItem(key));
    delete table.rejoin;
    localStorage.setItem(key, JSON.stringify(table));
  }
}"""


WAYS = f"() => ({WAYS_BACK})().map((way) => way.id)"
WAYS_BY_PEER = f"() => Object.fromEntries(({PEERS_BACK})().map(([peer, back]) => [peer, back.ways.map((way) => way.id)]))"


def armed(phone: Phone, peers: int, before=()) -> list[int]:
    """Wait until the phone stores three ways back to each of `peers` phones, none of them in `before`."""
    try:
        phone.page.wait_for_function(f"""(before) => {{
            const ids = ({WAYS})();
            return ids.length === {3 * peers} && ids.every((id) => !before.includes(id));
        }}""", arg=list(before), timeout=AGREE_MS)
    except PlaywrightTimeout:  # armed in well under a second otherwise: say what this phone holds instead
        held = phone.page.evaluate(WAYS_BY_PEER)
        raise AssertionError(f"{phone.who}'s phone did not store 3 new ways back to each of {peers} phones in "
                             f"{AGREE_MS} ms; it holds {held} (ways from before: {list(before)})") from None
    return phone.page.evaluate(WAYS)


def live_again(phone: Phone, timeout: float = AGREE_MS):
    phone.page.get_by_test_id("live-line").get_by_text("Live with the GM's phone").wait_for(timeout=timeout)


def without_a_way_back(phone: Phone, peers: int = 1):
    """Once the phone stored its ways back (three for each of `peers` phones), they are removed: its
    next reload needs the two scans, as for a phone whose ways back were all used."""
    phone.page.wait_for_function(f"() => ({WAYS_BACK})().length === {3 * peers}", timeout=AGREE_MS)
    phone.page.evaluate(FORGET_WAYS_BACK)


def agree(phones, entry_id: str, since: float) -> list[float]:
    """Seconds until each phone's live line shows `entry_id` as the newest roll."""
    took = []
    for phone in phones:
        phone.page.wait_for_function(
            "(id) => document.querySelector('[data-testid=live-newest]')?.dataset.entry === id", arg=entry_id,
            timeout=AGREE_MS)
        took.append(time.perf_counter() - since)
    return took


def call(gm: Phone, system: str, title: str, pictures=None):
    """The GM calls all four for a roll (from the Live table screen)."""
    page = gm.page
    if page.get_by_test_id("live-call").count() == 0:
        page.get_by_role("button", name="Live table", exact=True).first.tap()
    form = page.get_by_test_id("live-call")
    if system != "tension":
        form.get_by_label("Rule system").select_option(system)
        gm.taps["call"] += 1
    if system == "anomaly":
        form.get_by_label("Difficulty (any number)").fill("6")
        gm.taps["call"] += 1
    if system == "tension":  # the GM rolls the Tension Pool first (seed step 3): one total for every player
        gm.tap(form.get_by_test_id("side-gm").get_by_role("button", name=ROLL), "call")
    form.get_by_label("The conflict").fill(title)
    gm.taps["call"] += 1
    form.get_by_label("What is at stake").fill("Time")
    gm.taps["call"] += 1
    if pictures:
        both_sizes(page, pictures, "live-call", form)
    gm.tap(page.get_by_role("button", name="Call for the roll"), "call")


def tension_roll(player: Phone):
    side = player.page.get_by_test_id("side-player")
    player.tap(side.get_by_role("button", name=ROLL), "roll")
    player.button("Log and send to the GM", "roll")


def anomaly_roll(player: Phone):
    player.tap(player.page.get_by_test_id("side-actor").get_by_role("button", name=ROLL), "roll")
    player.button("Log and send to the GM", "roll")


def manners_roll(player: Phone):
    page = player.page
    player.tap(page.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3"), "roll")
    player.tap(page.get_by_role("button", name=re.compile("^Lock Manner for ")), "roll")
    player.tap(page.get_by_test_id("side-gm").get_by_role("button", name="Time"), "roll")  # the Complication said
    player.button("Log and send to the GM", "roll")


ROUNDS = (("tension", "Tension Engine", tension_roll), ("anomaly", "Anomaly", anomaly_roll),
          ("manners", "Manner Cards", manners_roll))


def everyone_agrees(phones):
    seen = [phone.seen() for phone in phones]
    assert all(one == seen[0] for one in seen), [phone.who for phone, one in zip(phones, seen) if one != seen[0]]
    for phone in phones:
        phone.page.get_by_role("navigation", name="Screens").get_by_role("button", name="Conflict").tap()
    return seen[0]


def test_four_players_join_by_scanning_and_play_a_round_in_each_system(table, screenshot):
    gm, players = table()
    everyone = [gm, *players]
    print("\nA live table: the GM's phone and four players' phones, three Chromium browsers, no server:")
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    joins = [join(gm, player, pictures=screenshot if player is players[0] else None) for player in players]
    print("  join (two scans each, camera start and decoding included): "
          + ", ".join(f"{seconds:.2f} s" for seconds in joins) + f"; median {statistics.median(joins):.2f} s")
    gm.page.get_by_test_id("live-phones").get_by_text("Dell's phone").wait_for()
    both_sizes(gm.page, screenshot, "live-gm-phones", gm.page.get_by_test_id("live-gm"))
    both_sizes(players[0].page, screenshot, "live-player-line", players[0].page.get_by_test_id("live-line"))
    problems = {"gm live screen": violations(gm.page), "player live line": violations(players[0].page)}
    players[0].page.bring_to_front()  # a wake lock is for the page in front
    wake = players[0].page.get_by_role("button", name="Keep the screen on")
    wake.tap()  # the Screen Wake Lock, offered while live
    players[0].page.wait_for_function("() => document.querySelector('[data-action=live-wake]')"
                                      "?.getAttribute('aria-pressed') === 'true'")
    assert players[0].page.evaluate("document.visibilityState") == "visible"

    to_gm, to_all = [], []
    for system, label, roll in ROUNDS:
        before = {phone.who: collections.Counter(phone.taps) for phone in everyone}
        call(gm, system, f"{label}: cross the bridge", pictures=screenshot if system == "tension" else None)
        for player in players:
            player.page.get_by_test_id("live-call-banner").wait_for(timeout=AGREE_MS)
        if system == "tension":
            problems["player called"] = violations(players[0].page)
            both_sizes(players[0].page, screenshot, "live-player-called")
        for player in players:
            roll(player)
            logged = time.perf_counter()
            entry = player.newest()
            [reached] = agree([gm], entry, logged)
            to_gm.append(reached)
            to_all.append(max(agree([other for other in players if other is not player], entry, logged)))
        gm.page.get_by_test_id("live-round-count").get_by_text("4 of 4 rolled").wait_for()
        if system == "tension":
            problems["gm round"] = violations(gm.page)
            both_sizes(gm.page, screenshot, "live-gm-round", gm.page.get_by_test_id("live-round"))
        gm.tap(gm.page.get_by_role("button", name="End the round"), "call")
        seen = everyone_agrees(everyone)
        # four rolls a round, and the Tension Pool the GM's phone rolled for the call (set aside there)
        assert len(seen["log"]) == 4 * (1 + [one for one, _, _ in ROUNDS].index(system)) + 1
        taken = {phone.who: dict(phone.taps - before[phone.who]) for phone in everyone}
        print(f"  a four-player {label} round, live: every phone shows the same log ({len(seen['log'])} entries) and "
              f"roster; taps per person {taken} (the GM's 'call': the system, the difficulty, the conflict's words, "
              f"what is at stake, Call, End the round; no share, no update)")
    print(f"  roll -> the GM's phone: median {statistics.median(to_gm) * 1000:.0f} ms, max {max(to_gm) * 1000:.0f} ms "
          f"({len(to_gm)} rolls, from the Log tap to the GM's screen showing it); -> every other phone: median "
          f"{statistics.median(to_all) * 1000:.0f} ms, max {max(to_all) * 1000:.0f} ms")
    print(f"  joining once: the GM {gm.taps['setup']} taps for four phones (its role, Make this table live, then "
          f"Connect and Scan its answer for each), each player {players[0].taps['setup']} (Session, Scan a code, who "
          f"they are)")
    assert all(phone.taps["sync"] == 0 for phone in everyone)
    assert {name: found for name, found in problems.items() if found} == {}



def test_a_phone_without_a_camera_joins_by_pasting_the_gms_code(table, screenshot):
    """Ash's phone has no camera (and no camera permission: its addresses are mDNS names, as on any
    such phone). The GM's phone shares its code as text ("Share the code": the clipboard, with no
    share sheet here); Ash's "Scan a code" says there is no camera and offers the field, where the
    code is pasted; the GM's phone scans Ash's answer, and Ash's roll reaches it."""
    gm, [ash] = table(names=("Ash",), cameras=False)
    started = time.perf_counter()
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    gm.tap(gm.page.locator("#live-connect"), "setup")
    offer = gm.page.get_by_test_id("live-offer-text")
    offer.wait_for()
    gm.page.evaluate("() => { delete navigator.share; delete navigator.canShare; }")  # a phone with no share sheet
    gm.page.evaluate(RECORD_COPIES)  # the page's Permissions-Policy allows no clipboard reading
    gm.button("Share the code", "setup")
    gm.page.get_by_text("Code copied").wait_for()
    [copied] = gm.page.evaluate("window.copied")
    assert copied == offer.input_value() and copied.startswith("O1.")
    both_sizes(gm.page, screenshot, "live-gm-offer-text", gm.page.locator(".live-code-text"))
    problems = {"gm offer": violations(gm.page)}

    nav(ash.page, "Session")
    ash.button("Scan a code", "setup")
    field = ash.page.get_by_label("Or paste a link or code")
    ash.page.locator(".message p").filter(has_text="instead").wait_for()
    assert field.evaluate("field => field === document.activeElement")
    both_sizes(ash.page, screenshot, "live-player-no-camera", field)
    ash.tap(field, "setup")
    field.fill(copied)  # pasted, as from the message the GM's phone shared it in
    ash.button("Open", "setup", exact=True)
    ash.page.get_by_test_id("live-answer-text").wait_for()
    both_sizes(ash.page, screenshot, "live-player-answer-text", ash.page.locator(".live-code-text"))
    problems["player answer"] = violations(ash.page)
    gm.browser.show(ash.code("live-player"))
    gm.tap(gm.page.locator("#live-scan"), "setup")
    chooser = ash.page.get_by_test_id("role-chooser")
    chooser.wait_for(timeout=AGREE_MS)
    joined = time.perf_counter() - started
    ash.tap(chooser.get_by_role("button", name="Ash"), "setup")
    gm.page.get_by_test_id("live-phones").get_by_text("Ash's phone").wait_for(timeout=AGREE_MS)
    nav(ash.page, "Conflict")
    tension_roll(ash)
    logged = time.perf_counter()
    [reached] = agree([gm], ash.newest(), logged)
    ash.page.get_by_text("Logged. It is on the GM's phone.").wait_for(timeout=AGREE_MS)  # the GM's phone stored it
    print(f"\n  a phone without a camera joined by pasting the GM's code in {joined:.2f} s from the GM's first tap "
          f"(the GM {gm.taps['setup']} taps: its role, Make this table live, Connect, Share the code, Scan its answer; "
          f"Ash {ash.taps['setup']}: Scan a code, the field, Open, who they are); its roll reached the GM's phone in "
          f"{reached * 1000:.0f} ms")
    assert {name: found for name, found in problems.items() if found} == {}


def test_a_roll_sent_as_the_gms_phone_reloads_reaches_it_at_the_next_connection(table, screenshot):
    """The GM's log is empty; its page reloads (the channel goes with it) just as Ash logs the first
    roll of the session. Ash's phone never says the roll is on the GM's phone: it waits, and the
    roll goes again when Ash joins the GM's new code (catching up alone would not send it)."""
    gm, [ash] = table(names=("Ash",))
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    join(gm, ash)
    without_a_way_back(gm)  # the next connection by scanning, as before (inside_live_rejoin.py: with none)
    gm.page.reload()
    nav(ash.page, "Conflict")
    ash.tap(ash.page.get_by_test_id("side-player").get_by_role("button", name=ROLL), "roll")
    # "send" while Ash's phone has not seen the channel go yet, "show" once it has: the roll waits either way
    ash.tap(ash.page.get_by_role("button", name=re.compile("^Log and (send|show) to the GM$")), "roll")
    entry = ash.newest()
    line = ash.page.get_by_test_id("live-line")
    line.get_by_text("1 roll waiting to reach the GM").wait_for(timeout=AGREE_MS)
    assert ash.page.get_by_text("It is on the GM's phone").count() == 0
    handoff = ash.page.get_by_role("button", name="Done")
    if handoff.count():  # Ash's phone had seen the channel go: the roll was shown as a QR code too
        handoff.tap()
    both_sizes(ash.page, screenshot, "live-player-roll-waiting", line)
    gm.page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert gm.seen()["log"] == []
    started = time.perf_counter()
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    join(gm, ash, first=False)
    [reached] = agree([gm], entry, started)
    line.get_by_text("waiting to reach the GM").wait_for(state="detached", timeout=AGREE_MS)
    print(f"\n  the first roll, logged as the GM's phone reloaded, reached it {reached:.2f} s after the GM's tap "
          f"for a new code (two scans included), and only then left Ash's 'waiting to reach the GM'")


def read_code(gray) -> str:
    [found] = zxingcpp.read_barcodes(gray)
    return found.text


def unreachable(code: str) -> str:
    """The same offer or answer naming only an address no phone has (an answer: none at all), so
    neither phone's connection checks ever reach the other."""
    signal = live_signal.read(code)
    nowhere = (live_signal.Candidate("10.77.0.99", 9),) if signal.kind == live_signal.OFFER else ()
    return dataclasses.replace(signal, candidates=nowhere).code()


def wait_until_all_agree(phones, timeout_s: float = 15) -> float:
    """Seconds until every phone shows the same log and roster (looked at again and again)."""
    started = time.perf_counter()
    while True:
        seen = [phone.seen() for phone in phones]
        if all(one == seen[0] for one in seen):
            return time.perf_counter() - started
        if time.perf_counter() - started > timeout_s:  # a wait's deadline: the latency is printed, not judged
            apart = {phone.who: {part: [line for line in one[part] if line not in seen[0][part]] +
                                 [f"(lacks) {line}" for line in seen[0][part] if line not in one[part]]
                                 for part in one}
                     for phone, one in zip(phones, seen) if one != seen[0]}
            pytest.fail(f"These phones never came to show the same table as {phones[0].who}'s: {apart}")


def test_a_phone_that_comes_back_catches_up_and_one_that_never_connects_uses_links(table, screenshot):
    """Dell's phone reloads (its channel is gone, as after a screen lock), logs a roll while away
    and joins again with two scans: both sides catch up. Eve's phone and the GM's can't reach each
    other (the codes they scan name an address nobody has, as on Wi-Fi that keeps phones apart), so
    it never connects: the GM's phone says so in a sentence, and Eve's roll reaches the table by
    its QR code, as today."""
    gm, players = table(stranger=True)
    *players, eve = players
    ash, brin, cato, dell = players
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    for player in players:
        join(gm, player)
    call(gm, "tension", "Hold the door")
    for player in players:
        player.page.get_by_test_id("live-call-banner").wait_for(timeout=AGREE_MS)
    tension_roll(ash)

    without_a_way_back(dell)  # it comes back by scanning (inside_live_rejoin.py: by itself)
    dell.page.reload()  # the channel goes with the page
    dell.page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    gm.page.get_by_test_id("live-phones").get_by_text("lost at").wait_for(timeout=AGREE_MS)
    both_sizes(gm.page, screenshot, "live-gm-lost", gm.page.get_by_test_id("live-gm"))
    for player in (brin, cato):
        tension_roll(player)
    nav(dell.page, "Conflict")
    dell.tap(dell.page.get_by_test_id("side-player").get_by_role("button", name=ROLL), "roll")
    dell.button("Log and show to the GM", "roll")  # not live: its code is on screen, as before
    dell.button("Done", "roll")
    started = time.perf_counter()
    gm.tap(gm.page.get_by_role("button", name="New code for Dell's phone"), "setup")
    join_again = join(gm, dell, first=False, connect=False)
    caught_up = wait_until_all_agree([gm, *players])
    assert len(gm.seen()["log"]) == 5  # four rolls and the call's Tension Pool, set aside on the GM's phone
    print(f"\n  Dell's phone, reloaded, joined again in {join_again:.2f} s (two scans; "
          f"{time.perf_counter() - started - caught_up:.2f} s from the GM's tap) and every phone agreed "
          f"{caught_up:.2f} s later (looking at each phone's Log and Roster in turn): its roll, logged while away, "
          f"is on every phone, and the rolls it missed are on it")

    started = time.perf_counter()
    gm.page.get_by_role("button", name="Live table", exact=True).first.tap()  # from the Roster, where it looked
    gm.tap(gm.page.locator("#live-connect"), "setup")
    eve.browser.show(qr_gray(unreachable(read_code(gm.code("live-offer")))))
    nav(eve.page, "Session")
    eve.button("Scan a code", "setup")
    answer = eve.page.get_by_test_id("live-answer-text")
    answer.wait_for()
    gm.browser.show(qr_gray(unreachable(answer.input_value())))
    gm.tap(gm.page.locator("#live-scan"), "setup")
    gm.page.locator(".message p").filter(has_text="could not connect").wait_for(timeout=30_000)
    words = gm.page.locator(".message p").inner_text()
    assert "same Wi-Fi" in words and "Links and QR codes keep working" in words
    print(f"  Eve's phone never connected; {time.perf_counter() - started:.1f} s after the GM's first tap the GM's "
          f"phone said: {words}")
    both_sizes(gm.page, screenshot, "live-gm-no-route", gm.page.get_by_test_id("live-gm"))

    nav(gm.page, "Session")  # Eve joins the session by its QR code, as before
    eve.browser.show(gm.code(".share-card"))
    nav(eve.page, "Session")
    eve.button("Scan a code", "setup")
    eve.tap(eve.page.get_by_test_id("role-chooser").get_by_role("button", name="Ash"), "setup")  # Eve plays Ash too
    nav(eve.page, "Conflict")
    eve.tap(eve.page.get_by_test_id("side-player").get_by_role("button", name=ROLL), "roll")
    eve.button("Log and show to the GM", "roll")
    gm.browser.show(eve.code("handoff"))
    eve.button("Done", "roll")
    gm.button("Scan a code", "roll")
    gm.button("Add to this session", "roll")
    gm.page.get_by_text("roll to “").wait_for()
    # and on to every live phone (one entry is the call's Tension Pool, set aside on the GM's phone)
    assert wait_until_all_agree([gm, *players]) < 15 and len(gm.seen()["log"]) == 6
    print("  Eve's roll, shown to the GM's phone as a QR code and added there, reached every live phone")


def live_message(phone: Phone, text: str):
    phone.page.locator(".message p").filter(has_text=text).wait_for(timeout=AGREE_MS)


def no_link_on(phone: Phone):
    """A step that travels by itself: no link, no QR code, no "Open the link" on the sealed panel."""
    panel = phone.page.get_by_test_id("sealed-exchange")
    assert panel.get_by_test_id("qr").count() == 0 and panel.get_by_test_id("sealed-link").count() == 0
    assert "link" not in panel.inner_text().lower()


def three_sizes(page, screenshot, name: str, locator=None):
    """both_sizes, then 320 px wide: the screen fits with no sideways scroll."""
    both_sizes(page, screenshot, name, locator)
    page.set_viewport_size({"width": 320, "height": 640})
    screenshot(page, f"{name}-320", full_page=False)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 320, name
    page.set_viewport_size(PHONE["viewport"])


def newest_entry(phone: Phone) -> str:
    nav(phone.page, "Log")
    text = phone.page.get_by_test_id("log-entry").first.inner_text()
    phone.page.get_by_role("navigation", name="Screens").get_by_role("button", name="Conflict").tap()
    return re.sub(r"\d{1,2} \w{3}, \d{2}:\d{2}", "(time)", text)


def test_sealed_cards_between_any_two_phones_of_a_live_table(table, screenshot):
    """Issue 30, item 5: a sealed Test for a player who joined in the Tension Engine, then a sealed
    Confrontation between two players' phones through the GM's phone; each phone restarts after."""
    gm, (ash, brin) = table(names=("Ash", "Brin"))
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    for player in (ash, brin):
        join(gm, player)
    page = gm.page
    page.get_by_role("navigation", name="Screens").get_by_role("button", name="Conflict").tap()
    page.get_by_role("button", name="Manner Cards").tap()
    page.locator("#manners-player-person").select_option(label="Ash")
    page.get_by_role("button", name="GM says").tap()
    page.get_by_test_id("side-gm").get_by_role("button", name="Difficulty 5").tap()
    page.get_by_test_id("seal-offer").get_by_role("button", name="Hostility").tap()
    page.get_by_role("button", name="Seal and share").tap()
    live_message(gm, "The GM's sealed card: on the other phone.")  # once Ash's phone stored it
    no_link_on(gm)
    three_sizes(page, screenshot, "live-sealed-1-gm-sealed", page.get_by_test_id("sealed-exchange"))
    live_message(ash, "A sealed card came in for you in Manner Cards")
    assert ash.page.get_by_role("heading", name="Manner Cards conflict").count() == 0  # not switched
    three_sizes(ash.page, screenshot, "live-sealed-2-ash-told")
    ash.page.get_by_role("button", name="Manner Cards").tap()
    no_link_on(ash)
    ash.page.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3").tap()
    ash.page.get_by_role("button", name="Lock Manner for Ash").tap()
    ash.page.get_by_role("button", name="Send my Manner to the GM").tap()
    live_message(ash, "The player's Manner: on the other phone.")
    page.get_by_role("button", name="Reveal to the player").tap()
    page.get_by_test_id("result").wait_for()
    page.get_by_role("button", name="Log this result").tap()
    ash.page.get_by_test_id("result").wait_for(timeout=AGREE_MS)
    ash.page.get_by_role("button", name="Log this result").tap()
    both_sizes(ash.page, screenshot, "live-sealed-3-ash-result")

    # A Confrontation between Ash's phone and Brin's: through the GM's phone, which takes no side.
    ash.page.get_by_role("button", name="New conflict").first.tap()
    ash.page.get_by_role("button", name="Confrontation").tap()
    ash.page.locator("#manners-opponent-person").select_option(label="Brin")
    ash.page.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3").tap()
    ash.page.get_by_role("button", name="Seal and share Ash's Manner").tap()
    live_message(ash, "A sealed Manner: on the other phone.")  # stored on Brin's phone
    live_message(brin, "A sealed card came in for you in Manner Cards")
    brin.page.get_by_role("button", name="Manner Cards").tap()
    no_link_on(brin)
    three_sizes(brin.page, screenshot, "live-sealed-4-brin-to-seal", brin.page.get_by_test_id("sealed-exchange"))
    brin.page.get_by_test_id("cards-opponent").get_by_role("button", name="Speed, rating 2").tap()
    brin.page.get_by_role("button", name="Seal and share Brin's Manner").tap()
    for player in (ash, brin):
        player.page.get_by_role("button", name="Reveal to the other phone").tap()
    for player in (ash, brin):
        player.page.get_by_test_id("result").wait_for(timeout=AGREE_MS)
    live_message(gm, "A sealed Confrontation, both cards turned over")
    # The GM's table untouched: still its own Test, turned over, not the players' Confrontation.
    assert page.get_by_role("button", name="Reveal to the other phone").count() == 0
    assert "Every card is turned over and checked" in page.get_by_test_id("sealed-exchange").inner_text()
    three_sizes(page, screenshot, "live-sealed-5-gm-told")
    for player in (ash, brin):
        player.page.get_by_role("button", name="Log this result").tap()
    both_sizes(brin.page, screenshot, "live-sealed-6-brin-result")
    # Each phone restarts once the one before is back: a player's phone that reloads before it stored the
    # GM's new ways back has only ways to the GM's old page, and shows its one-scan code instead.
    ways = {player.who: player.page.evaluate(WAYS) for player in (ash, brin)}
    for phone in (gm, ash, brin):
        phone.page.reload()
        phone.page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        for player in (ash, brin) if phone is gm else (phone,):
            live_again(player)
            if phone is gm:
                armed(player, 1, ways[player.who])
    entries = [newest_entry(phone) for phone in (gm, ash, brin)]
    assert entries[0] == entries[1] == entries[2] and "Speed" in entries[0], entries
