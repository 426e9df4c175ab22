"""Sessions that last and travel, driven like people at a table: saved across reloads and
closed tabs, joined on a second phone by link (and its QR code), undone, exported and
imported, shared roll by roll; hostile links and broken storage never break anything."""
from __future__ import annotations

import copy
import json
import re
import struct
import zlib

import zxingcpp

from session import check_roster_entry, new_session
from session.links import v2 as link_v2
from session.links.files import read_export
from session.links.v1 import compact_session, encode_roll, encode_session, pack
from conftest import DESKTOP, PHONE, READY, BOOT_TIMEOUT_MS

HOSTILE = "<img src=x onerror=window.hacked=1>"


# --- Helpers ------------------------------------------------------------------------------------------

def party(name="Friday at Kim's", ap=2, tension=3) -> dict:
    session = new_session(name, players=3)
    session["tension"] = tension
    session["roster"] = [
        check_roster_entry({"system": "tension", "kind": "character", "name": "Ash", "ap": ap,
                                     "health": 10, "willpower": 10, "attributes": [{"name": "Agility", "rating": 3}],
                                     "skills": [{"name": "Climb", "rating": 2}]}),
        check_roster_entry({"system": "tension", "kind": "character", "name": "Brin", "ap": 3,
                                     "health": 10, "willpower": 10, "attributes": [{"name": "Wits", "rating": 2}],
                                     "skills": []})]
    return session


def not_now(page):
    """Put away the "Who are you at this table?" dialog a phone gets when it joins a session."""
    chooser = page.get_by_test_id("role-chooser")
    chooser.get_by_role("button", name="Not now").tap()
    chooser.wait_for(state="detached")


def nav(page, screen: str):
    page.get_by_role("navigation", name="Screens").get_by_role("button", name=screen).tap()


def message(page) -> str:
    return page.locator(".message p").inner_text()


def stored(page) -> dict:
    return page.evaluate("() => Object.fromEntries(Object.entries(localStorage))")


def stored_data(page) -> dict:
    """What is stored but the table in progress (tableside.table.*: which screen is open, the
    drafts) and the last painted screen (tableside.snapshot, written a second after a change),
    which are this phone's own and follow every tap."""
    return {key: value for key, value in stored(page).items()
            if not key.startswith("tableside.table.") and key != "tableside.snapshot"}


def stored_head(page, session_id: str) -> dict:
    """A session's head as stored, once it is (a head waits for its log entries to be stored)."""
    for _ in range(200):
        text = stored(page).get(f"tableside.head.{session_id}")
        if text is not None:
            return json.loads(text)
        page.wait_for_timeout(25)
    raise AssertionError(f"the head of {session_id} was never stored")


def roster_names(page) -> list[str]:
    nav(page, "Roster")
    return page.locator(".roster-name").all_inner_texts()


def enter_dice(card, faces):
    card.get_by_role("button", name="Real dice").tap()
    for face in faces:
        card.get_by_role("button", name=f"Add a die showing {face}").tap()


def log_a_success_with_ap(page, players_phone: bool = False):
    """Ash (Agility 3 + Climb 2, 2 AP) against 3 Tension dice; one AP wins it; two 1s add Tension.
    On Ash's own phone (`players_phone`) the roll is logged and shown to the GM, then put away."""
    nav(page, "Conflict")
    enter_dice(page.get_by_test_id("side-gm"), [6, 5, 2])
    player = page.get_by_test_id("side-player")
    enter_dice(player, [6, 4, 3, 1, 1])
    player.get_by_role("button", name="Spend 1 AP to win (you have 2)").tap()
    if players_phone:
        page.get_by_role("button", name="Log and show to the GM").tap()
        page.locator("#handoff-done").tap()
        return
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_text("Result (logged)").wait_for()


def glance(page) -> tuple[str, str]:
    """Tension and each character's AP as the chips show them (their Health left out: these tests follow AP)."""
    chips = re.sub(r", \d+ Health", "", page.locator(".glance-ap").inner_text().replace("\n", " "))
    return page.get_by_test_id("tension").inner_text(), chips


def png_gray(png: bytes) -> memoryview:
    """A PNG screenshot (8-bit RGB or RGBA, not interlaced) as grayscale rows, for zxing-cpp."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks = 8, []
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position:position + 8])
        data = png[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            chunks.append(data)
    channels = {2: 3, 6: 4}[color]
    assert depth == 8 and interlace == 0
    raw, stride = zlib.decompress(b"".join(chunks)), width * channels
    previous, gray = bytearray(stride), bytearray()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
                line[i] = (line[i] + near[2]) & 255
        gray += line[0::channels]
        previous = line
    return memoryview(bytes(gray)).cast("B", (height, width))


RECORD_COPIES = """() => {
    const clipboard = navigator.clipboard, write = clipboard.writeText.bind(clipboard);
    window.copied = [];
    clipboard.writeText = (text) => { window.copied.push(text); return write(text); };
}"""


def both_sizes(page, screenshot, name: str, locator=None):
    """Screenshots at 390x844 and 1280x800 (of the screen around `locator` if given, else the
    whole page), then back to the phone."""
    for size in (PHONE["viewport"], DESKTOP["viewport"]):
        page.set_viewport_size(size)
        if locator is not None:
            locator.scroll_into_view_if_needed()
        screenshot(page, name, full_page=locator is None)
    page.set_viewport_size(PHONE["viewport"])


def no_horizontal_scroll_at_320(page, screens):
    page.set_viewport_size({"width": 320, "height": 640})
    for screen in screens:
        nav(page, screen)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 320, screen
    page.set_viewport_size(PHONE["viewport"])


# --- Persistence and the session list -------------------------------------------------------------------

def test_session_survives_reload_and_closing_the_page_and_the_list_manages_sessions(app, context, open_app):
    page = app
    assert stored(page) == {}  # an untouched new session is not saved
    page.get_by_role("button", name="Raise Tension by 1").tap()
    nav(page, "Roster")
    page.get_by_role("button", name="Add a character").tap()
    page.get_by_label("Name", exact=True).fill("Ash")
    page.get_by_role("button", name="Save").tap()
    page.get_by_text("Ash saved.").wait_for()

    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert page.get_by_test_id("tension").inner_text() == "4" and roster_names(page) == ["Ash"]

    page.close()
    page = open_app(context.new_page())
    assert page.get_by_test_id("tension").inner_text() == "4" and roster_names(page) == ["Ash"]
    keys = stored(page)
    assert all(key.startswith("tableside.") for key in keys)
    # the index, this phone's id, the session's head and its table in progress (beside the last table's
    # snapshot, painted at the next start); the log is in IndexedDB
    assert json.loads(keys["tableside.index"])["v"] == 1 and len(set(keys) - {"tableside.snapshot"}) == 4 and "tableside.device" in keys
    assert any(key.startswith("tableside.head.") for key in keys)
    assert json.loads(keys[next(key for key in keys if key.startswith("tableside.table."))])["screen"] == "roster"

    nav(page, "Session")
    page.get_by_role("button", name="Start a new session").tap()
    rows = page.get_by_test_id("session-row")
    assert rows.count() == 2 and roster_names(page) == []
    nav(page, "Session")
    page.get_by_role("button", name="Rename New session 2").tap()
    page.get_by_label("New name for “New session 2”").fill("Second night")
    page.get_by_role("button", name="Save name").tap()
    page.get_by_role("button", name="Duplicate Second night").tap()
    page.get_by_text("Made a copy").wait_for()  # the copy reads the whole log first, in the background
    assert sorted(page.locator(".session-row-name").all_inner_texts()) == \
        ["New session", "Second night", "Second night (copy)"]
    page.get_by_role("button", name="Delete Second night (copy)").tap()
    page.get_by_role("button", name="Keep it").tap()
    assert rows.count() == 3
    page.get_by_role("button", name="Delete Second night (copy)").tap()
    page.get_by_role("button", name="Yes, delete").tap()
    assert rows.count() == 2
    page.get_by_role("button", name="Open New session").tap()
    assert roster_names(page) == ["Ash"]
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert page.locator(".session-name").inner_text() == "New session"

    # A full storage: the change stays on screen, the message says it is not saved.
    page.evaluate("""() => { Storage.prototype.setItem = function () {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError"); }; }""")
    page.get_by_role("button", name="Raise Tension by 1").tap()
    assert "storage for Tableside is full" in message(page)
    assert page.get_by_test_id("tension").inner_text() == "5"


# --- Joining on a second phone ------------------------------------------------------------------------

def test_join_a_session_link_on_a_second_phone_and_its_qr_code(app, browser, watch, screenshot):
    page = app
    nav(page, "Roster")
    page.get_by_role("button", name="Add a character").tap()
    page.get_by_label("Name", exact=True).fill("Ash")
    page.get_by_label("AP").fill("2")
    page.get_by_role("button", name="Save").tap()
    page.get_by_text("Ash saved.").wait_for()
    nav(page, "Session")
    link = page.get_by_test_id("session-link").input_value()
    assert "#S2." in link and len(link) < 1200  # version 2: base32 capitals, QR's alphanumeric mode

    qr = page.get_by_test_id("qr")
    qr.evaluate("code => code.scrollIntoView({block: 'center'})")  # clear of the bottom navigation
    image = png_gray(qr.screenshot(scale="css"))
    # every reading zxing-cpp makes of the screenshot is the link (one full run here read this code twice)
    assert {found.text for found in zxingcpp.read_barcodes(image)} == {link}
    box = qr.bounding_box()
    assert box["width"] >= 300  # big enough to scan from across the table
    both_sizes(page, screenshot, "session-screen", page.get_by_test_id("qr"))
    no_horizontal_scroll_at_320(page, ["Session", "Log"])

    # The share button: no share sheet on this desktop Chromium, so the link is copied.
    # With a share sheet (a phone), Share opens it; without one (this Chromium), it copies.
    nav(page, "Session")
    page.evaluate("""() => { navigator.canShare = () => true;
        navigator.share = (data) => { window.shared = data; return Promise.resolve(); }; }""")
    page.get_by_role("button", name="Share link").tap()
    page.get_by_text("Session link shared.").wait_for()
    assert page.evaluate("window.shared.url") == link
    page.evaluate("() => { delete navigator.share; delete navigator.canShare; }")
    page.context.grant_permissions(["clipboard-write"])
    page.evaluate(RECORD_COPIES)  # the page's Permissions-Policy allows no clipboard reading
    page.get_by_role("button", name="Share link").tap()
    page.get_by_text("Session link copied").wait_for()
    assert page.evaluate("window.copied") == [link]

    second = browser.new_context(**PHONE)
    watch.attach(second)
    try:
        phone = second.new_page()
        phone.goto(link)
        phone.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        assert "Joined “New session”" in message(phone)
        assert "#" not in phone.url  # a reload won't ask again
        not_now(phone)
        nav(phone, "Roster")
        assert phone.locator(".roster-name").all_inner_texts() == ["Ash"]
        assert "Ash 2 AP" in glance(phone)[1]

        phone.goto(link)  # the same link again: no copy
        phone.get_by_text("You already have everything in this link of “New session”").wait_for()
        not_now(phone)  # nobody said who holds this phone: the link asks again
        nav(phone, "Session")
        assert phone.get_by_test_id("session-row").count() == 1

        other = party("Sunday crew")
        phone.goto(link.split("#")[0] + "#" + encode_session(other))
        prompt = phone.get_by_test_id("join-prompt")
        prompt.wait_for()
        assert "Join this session?" in prompt.inner_text() and "Brin" in prompt.inner_text()
        both_sizes(phone, screenshot, "join-prompt")
        phone.get_by_role("button", name="Join as a new session").tap()
        not_now(phone)
        nav(phone, "Roster")
        assert phone.locator(".roster-name").all_inner_texts() == ["Ash", "Brin"]
        nav(phone, "Session")
        assert phone.get_by_test_id("session-row").count() == 2

        later = {**other, "tension": 8}  # the GM shares again after a few conflicts
        phone.goto(link.split("#")[0] + "#" + encode_session(later))
        prompt.filter(has_text="Update this session?").wait_for()
        both_sizes(phone, screenshot, "update-prompt")
        phone.get_by_role("button", name="Update mine from the link").tap()
        phone.get_by_text("Nothing this phone had is lost").wait_for()  # the merge runs in the background
        assert glance(phone)[0] == "8"
        not_now(phone)
        nav(phone, "Session")
        assert phone.get_by_test_id("session-row").count() == 2
    finally:
        second.close()


# --- The log: undo, roll links, export and import ---------------------------------------------------------

def test_log_undo_restores_numbers_and_a_roll_link_shows_the_roll(page, open_app, context, site, screenshot):
    table = party()
    open_app(page, "#" + encode_session(table))
    not_now(page)
    assert glance(page) == ("3", "Ash 2 AP Brin 3 AP")
    log_a_success_with_ap(page)
    assert glance(page) == ("5", "Ash 1 AP Brin 3 AP")

    nav(page, "Log")
    entry = page.get_by_test_id("log-entry")
    assert entry.count() == 1
    text = entry.inner_text()
    assert "Ash keeps 6, 4 and 3 (1 AP spent): 13 against the GM's 11." in text
    assert "Success" in text and "Tension 3 → 5." in text
    assert entry.get_by_role("img", name="Die 1: 6, kept").count() == 2  # the GM's 6 and Ash's 6

    context.grant_permissions(["clipboard-write"])
    page.evaluate(RECORD_COPIES)
    entry.get_by_role("button", name="Share roll Phone 1").tap()
    page.get_by_text("Roll link copied").wait_for()
    roll_link = page.get_by_test_id("roll-link").input_value()
    assert page.evaluate("window.copied") == [roll_link]
    both_sizes(page, screenshot, "log-screen")

    page.get_by_role("button", name="Undo last").tap()
    page.get_by_role("button", name="Yes, undo it").tap()
    assert glance(page) == ("3", "Ash 2 AP Brin 3 AP")
    assert page.get_by_test_id("log-entry").count() == 0
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert glance(page) == ("3", "Ash 2 AP Brin 3 AP")

    before = stored(page)
    page.goto(roll_link)
    view = page.get_by_test_id("roll-link-view")
    view.wait_for()
    assert "A player's roll" in view.inner_text() and "13 against the GM's 11" in view.inner_text()
    assert "already in this session's log, and was undone there" in view.inner_text()  # never added twice
    assert "does not match" not in view.inner_text()
    both_sizes(page, screenshot, "roll-link", view)

    roll = link_v2.read(roll_link.split("#")[1]).roll
    tampered = copy.deepcopy(roll["record"])
    tampered["result"]["outcome"] = "failure"
    page.goto(site + "#" + encode_roll(tampered, at=roll["at"], by=roll["by"]))  # an older app's link
    page.get_by_test_id("roll-link-mismatch").wait_for()
    assert "does not match its dice" in page.get_by_test_id("roll-link-view").inner_text()
    page.get_by_role("button", name="Close the shared roll").tap()
    assert stored(page) == before and glance(page) == ("3", "Ash 2 AP Brin 3 AP")


def test_log_export_then_import_gives_an_equal_session(page, open_app, tmp_path):
    open_app(page, "#" + encode_session(party()))
    not_now(page)
    log_a_success_with_ap(page)
    nav(page, "Log")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export this session to a file").tap()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name.startswith("tableside-friday-at-kims-")
    exported = read_export(path.read_text())  # version 2: the replica, its whole log
    head = json.loads(stored(page)[f"tableside.head.{exported.id}"])
    parts = ("clock", "fields", "tension", "roster", "undone")
    assert {part: head[part] for part in parts} == {part: exported.to_dict()[part] for part in parts}
    assert len(exported.session()["log"]) == 1 and head["logged"] == {"conflict": 1, "set-aside": 0}

    page.get_by_label("Import a session file (becomes a new session)").set_input_files(str(path))
    page.get_by_text("Imported “Friday at Kim's (imported)” as a new session").wait_for()
    imported_id = json.loads(stored(page)["tableside.index"])["active"]
    imported = stored_head(page, imported_id)  # written once its log entries are in the log store
    assert imported_id != exported.id
    assert {part: imported[part] for part in ("tension", "roster", "undone", "logged")} == \
        {part: head[part] for part in ("tension", "roster", "undone", "logged")}

    page.get_by_label("Import a session file (becomes a new session)").set_input_files(
        files=[{"name": "notes.json", "mimeType": "application/json", "buffer": b'{"format": "other"}'}])
    page.get_by_text("“notes.json” was not imported").wait_for()
    assert len(json.loads(stored(page)["tableside.index"])["sessions"]) == 2


# --- Hostile links and broken storage ---------------------------------------------------------------------

def test_hostile_links_never_break_the_app_or_touch_stored_data(page, open_app, site):
    hostile = party(HOSTILE)
    hostile["roster"][0]["name"] = HOSTILE
    open_app(page, "#" + encode_session(hostile))
    not_now(page)
    assert roster_names(page) == [HOSTILE, "Brin"]
    assert page.locator(".session-name").inner_text() == HOSTILE
    assert page.locator("#app img").count() == 0
    assert page.evaluate("window.hacked") is None

    good = encode_session(party("Good"))
    compact = compact_session(party("Numbers"))
    compact[4] = 10**30
    long_name = compact_session(party("Long"))
    long_name[7][0][2] = "A" * 5000
    bomb = zlib.compress(b" " * 50_000_000, 9)
    bad_links = {
        good[:len(good) // 2]: "incomplete",
        "s1.Not*base64!": "characters a Tableside link never has",
        "s3." + good[3:]: "newer version",
        "S2." + good[3:]: "characters a Tableside link never has",
        "s1." + pack({"a": 1}): "does not hold a Tableside session",
        "s1." + pack(compact): "not readable",
        "s1." + pack(long_name): "too long",
        "s1." + __import__("base64").urlsafe_b64encode(bomb).decode().rstrip("="): "this version of Tableside opens",
        "r1." + pack({"r": {"system": "dice"}}): "can't be shown",
    }
    before = stored_data(page)
    for fragment, words in bad_links.items():
        page.goto(site + "#" + fragment)  # the app is open: a hashchange
        problem = page.get_by_test_id("roll-link-view") if fragment.startswith("r1.") else page.locator(".message p")
        problem.filter(has_text=words).wait_for()
        assert stored_data(page) == before and page.locator(".session-name").inner_text() == HOSTILE
    page.reload()  # and as the first thing a fresh page reads
    page.goto(site + "#s1.AAAA")
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert stored_data(page) == before


def test_corrupted_storage_is_reported_kept_and_downloadable(page, open_app, site, screenshot):
    open_app(page, "#" + encode_session(party()))
    not_now(page)
    raw_session = '{"v": 1, "system": "tension", "roster": [{"name": "Ash", "ap": -'
    page.evaluate("""([raw]) => {
        localStorage.setItem("tableside.index", "{cut short");
        localStorage.setItem("tableside.session.0badc0ffee00", raw);
    }""", [raw_session])
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    alert = page.locator(".message-error p")
    assert "could not be read (2 items). Nothing was deleted" in alert.inner_text()
    both_sizes(page, screenshot, "storage-message", alert)
    assert page.locator(".session-name").inner_text() == "Friday at Kim's"  # the good session is open
    nav(page, "Session")
    card = page.get_by_test_id("unreadable")
    assert "could not be read" in card.inner_text()
    both_sizes(page, screenshot, "storage-unreadable", card)
    with page.expect_download() as download:
        card.get_by_role("button", name="Download a copy of unreadable item 2").tap()
    assert download.value.path().read_text() == raw_session
    assert stored_data(page)["tableside.session.0badc0ffee00"] == raw_session
    copies = [value for key, value in stored_data(page).items() if key.startswith("tableside.recovered.")]
    assert copies == ["{cut short"]
    # The table still works.
    log_a_success_with_ap(page)
    assert glance(page)[0] == "5"
