"""Hostile data in the page: links, saved data and files that once killed Python or
locked the app out, a broken import, broken characters and right-to-left overrides. Each
time the app reaches ready, says what happened, and changes nothing saved; plus a sample of
the unit fuzzing (tests/unit/hostile.py) run through the real page."""
from __future__ import annotations

import base64
import json
import sys
import zlib
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

from session import Library, MemoryLog, MemoryStore, new_session
from session.links import v2 as link_v2
from session.links.files import export_text, ImportFileError, read_export
from session.links.text import LinkError
from session.links.v1 import decode, encode_session
from session.on_device import parse_session, session_text
from session.replica import Replica
from conftest import BOOT_TIMEOUT_MS, DESKTOP, PHONE, READY

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))  # the unit tests' samples and fuzzing
from hostile import hostile_export_text, hostile_fragment, hostile_session_text  # noqa: E402
from samples import logged_party, party_of_five, seen  # noqa: E402
from test_sessions import not_now  # noqa: E402

DEEP = 10_000
RLO = "\u202e"
SAMPLE = settings(max_examples=6, derandomize=True, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))


def packed(text: str) -> str:
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode().rstrip("=")


def deep(levels: int = DEEP) -> str:
    return "[" * levels + "]" * levels


def stored(page) -> dict:
    return page.evaluate("() => Object.fromEntries(Object.entries(localStorage))")


def store(page, items: dict):
    """Write raw text to localStorage exactly, lone surrogates too (passed as JSON escapes)."""
    page.evaluate("(items) => { for (const [key, text] of Object.entries(JSON.parse(items))) "
                  "localStorage.setItem(key, text); }", json.dumps(items))


def both_sizes(page, screenshot, name: str):
    """What the screen shows now, on a phone (390x844) and on a desktop (1280x800)."""
    for size in (PHONE["viewport"], DESKTOP["viewport"]):
        page.set_viewport_size(size)
        screenshot(page, name, full_page=False)
    page.set_viewport_size(PHONE["viewport"])


def message(page) -> str:
    return page.locator(".message p").inner_text()


def nav(page, screen: str):
    page.get_by_role("navigation", name="Screens").get_by_role("button", name=screen).tap()


def reload(page):
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def saved_party(page, party=None) -> dict:
    """A session saved by the previous version, opened (and moved to this version's storage)."""
    party = party or party_of_five()
    store(page, {f"tableside.session.{party['id']}": session_text(party)})
    reload(page)
    page.wait_for_function("(id) => localStorage.getItem('tableside.session.' + id) === null", arg=party["id"])
    return party


def readable(key: str, text: str) -> dict | None:
    try:
        return parse_session(text, key.removeprefix("tableside.session."))[0]
    except Exception:
        return None


def unchanged_but_the_index(before: dict, after: dict):
    """Every key kept its text, or (a readable session the app saved again) the same session; a
    rebuilt index's old text lives on under tableside.recovered.*."""
    for key, text in before.items():
        if key == "tableside.index" and after.get(key) != text:
            assert text in [value for name, value in after.items() if name.startswith("tableside.recovered.")] \
                or json.loads(text)["v"] == 1
        elif key not in after:  # a readable session of the previous version, moved to a head
            session_id = key.removeprefix("tableside.session.")
            assert key.startswith("tableside.session.") and readable(key, text) is not None, key
            assert f"tableside.head.{session_id}" in after, key
        elif after.get(key) != text:
            assert key.startswith("tableside.session.") and readable(key, text) is not None, key
            assert readable(key, after[key]) == readable(key, text), key


# --- Deep nesting ------------------------------------------------------------------------------------

def test_links_nested_10000_deep_get_a_message_at_start_and_in_the_running_app(app, open_app, site):
    page = app
    for kind in ("s1.", "r1."):
        page.goto(site + "#" + kind + packed(deep()))  # the app is open: a hashchange
        page.locator(".message p", has_text="nest far deeper").wait_for()
        page.get_by_role("button", name="Dismiss").tap()
    page.goto("about:blank")
    open_app(page, "#s1." + packed(deep()))  # the first thing a fresh page reads
    assert "nest far deeper than any Tableside link" in message(page)
    assert page.locator(".session-name").inner_text() == "New session" and stored(page) == {}


def test_saved_data_nested_deep_never_locks_the_app_out(app, screenshot):
    page = app
    party = saved_party(page)
    broken = logged_party()
    text = json.dumps(broken).replace('"outcome"', '"extra": ' + deep(2000) + ', "outcome"', 1)
    store(page, {"tableside.index": deep(), f"tableside.session.{broken['id']}": text})
    before = stored(page)
    for _ in range(2):  # and again: what could not be read never stops a start
        reload(page)
        assert "could not be read (2 items). Nothing was deleted" in message(page)
        assert page.locator(".session-name").inner_text() == party["name"]
    both_sizes(page, screenshot, "hostile-deep-storage-message")
    unchanged_but_the_index(before, stored(page))
    nav(page, "Session")
    card = page.get_by_test_id("unreadable")
    assert "nests far deeper than any session" in card.inner_text()  # the session, in place
    assert "saved as tableside.recovered." in card.inner_text()  # the index's copy (it was rebuilt)
    card.scroll_into_view_if_needed()
    both_sizes(page, screenshot, "hostile-deep-storage")


# --- Import ------------------------------------------------------------------------------------------

def export_file(session=None) -> dict:
    text = export_text(Replica.from_session(session or logged_party()))
    return {"name": "friday.json", "mimeType": "application/json", "buffer": text.encode("utf-8")}


def test_import_is_the_first_thing_done_after_opening_the_app(browser, site, watch):
    for screen, label in (("Session", "Import a session file as a new session"),
                          ("Log", "Import a session file (becomes a new session)")):
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        watch.attach(context)
        page = context.new_page()
        page.goto(site)
        page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
        nav(page, screen)
        page.get_by_label(label).set_input_files(files=[export_file()])
        page.get_by_text("Imported “Friday at Kim's” as a new session").wait_for()
        assert len(json.loads(stored(page)["tableside.index"])["sessions"]) == 1
        context.close()


def test_an_import_nested_2000_deep_says_why_and_imports_nothing(app):
    page = app
    party = saved_party(page)
    data = json.loads(export_text(Replica.from_session(logged_party())))
    text = json.dumps(data).replace('"outcome"', '"extra": ' + deep(2000) + ', "outcome"', 1)
    nav(page, "Log")
    before = stored(page)  # the open screen is saved too (the table in progress)
    page.get_by_label("Import a session file (becomes a new session)").set_input_files(
        files=[{"name": "deep.json", "mimeType": "application/json", "buffer": text.encode()}])
    page.locator(".message p", has_text="“deep.json” was not imported").wait_for()
    assert "nests far deeper than any session" in message(page)
    assert stored(page) == before and page.locator(".session-name").inner_text() == party["name"]


# --- Broken characters and right-to-left overrides --------------------------------------------------------

def test_a_lone_surrogate_in_a_saved_name_is_repaired_and_the_session_screen_opens(app, site, screenshot):
    page = app
    party = party_of_five()
    raw = json.dumps(party).replace("Friday at Kim's", "Friday\\ud800 at Kim's")
    store(page, {f"tableside.session.{party['id']}": raw})
    reload(page)
    assert message(page) == "Repaired saved text: “Friday\ufffd at Kim's”: 1 broken character now shown as \ufffd."
    both_sizes(page, screenshot, "hostile-repaired-name")
    nav(page, "Session")
    link = page.get_by_test_id("session-link").input_value()
    assert link_v2.read(link.split("#")[1]).replica.session()["name"] == "Friday\ufffd at Kim's"
    page.wait_for_function("(id) => localStorage.getItem('tableside.head.' + id) !== null", arg=party["id"])
    assert json.loads(stored(page)[f"tableside.head.{party['id']}"])["fields"]["name"][0] == "Friday\ufffd at Kim's"
    page.goto(site + "#s1." + packed('["abcdef012345","\\ud800","tension",3,3,3,0,[]]'))
    page.locator(".message p", has_text="broken character").wait_for()


def reads_before(page, locator, first: str, second: str) -> bool:
    """True when, on screen, the text `first` reads before `second` in `locator`: on an earlier
    line, or on the same line and further left (a phone's narrow screen may wrap the sentence)."""
    return locator.evaluate("""(element, [first, second]) => {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        const boxes = {};
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of [first, second]) {
                const at = node.data.indexOf(word);
                if (at >= 0 && !(word in boxes)) {
                    const range = document.createRange();
                    range.setStart(node, at);
                    range.setEnd(node, at + 1);
                    boxes[word] = range.getBoundingClientRect();
                }
            }
        }
        const [a, b] = [boxes[first], boxes[second]];
        if (!a || !b) return false;
        if (Math.abs(a.top - b.top) > a.height / 2) return a.top < b.top;
        return a.left < b.left;
    }""", [first, second])


def test_a_right_to_left_override_in_shared_names_never_reverses_the_apps_words(app, site, screenshot):
    page = app
    party = party_of_five()
    party["name"] = RLO + "Friday"
    party["roster"][0]["name"] = RLO + "Ash"
    saved_party(page, new_session("Other"))  # not a fresh phone: joining asks first
    page.goto(site + "#" + encode_session(party))
    prompt = page.get_by_test_id("join-prompt")
    prompt.wait_for()
    sentence = prompt.locator("p").first
    both_sizes(page, screenshot, "hostile-rtl-join")
    assert reads_before(page, sentence, "Someone", "shared") and reads_before(page, sentence, "with", "you:")
    prompt.get_by_role("button", name="Join as a new session").tap()
    not_now(page)
    chip = page.locator(".glance-ap li").first
    assert reads_before(page, chip, "3", "AP")
    assert reads_before(page, page.locator(".message p"), "Joined", "characters")
    nav(page, "Conflict")
    both_sizes(page, screenshot, "hostile-rtl-joined")


def test_a_name_that_shows_nothing_is_refused(app):
    page = app
    nav(page, "Roster")
    page.get_by_role("button", name="Add a character").tap()
    page.get_by_label("Name", exact=True).fill("\u200b\u3164")
    page.get_by_role("button", name="Save").tap()
    assert message(page) == "A character's name has no visible characters."


# --- A sample of the fuzzing, through the page ---------------------------------------------------------

def first_words(sentence: str) -> str:
    return " ".join(seen(sentence).split()[:4])


@SAMPLE
@given(hostile_fragment())
def test_a_sample_of_hostile_links_at_start(page, open_app, fragment):
    page.goto("about:blank")
    open_app(page, "#" + fragment)
    try:
        kind, _ = decode(fragment)
    except LinkError as error:
        assert first_words(str(error)) in message(page)
        assert stored(page) == {}
        return
    if kind == "roll":
        page.get_by_test_id("roll-link-view").wait_for()
    else:
        assert message(page).startswith("Joined")


@SAMPLE
@given(hostile_session_text())
def test_a_sample_of_hostile_saved_sessions(page, open_app, text):
    if page.url == "about:blank":
        open_app(page)
    page.evaluate("() => localStorage.clear()")
    party = party_of_five()
    store(page, {f"tableside.session.{party['id']}": session_text(party),
                 "tableside.session.0hostile0000": text})
    before = stored(page)
    reload(page)
    unchanged_but_the_index(before, stored(page))
    library = Library(MemoryStore(before), MemoryLog())
    library.load()
    if library.unreadable:
        assert "could not be read" in message(page)
    elif library.repairs:
        assert message(page).startswith("Repaired saved text")
    else:
        assert page.locator(".message p").count() == 0


@SAMPLE
@given(hostile_export_text())
def test_a_sample_of_hostile_import_files(page, open_app, text):
    if page.url == "about:blank":
        open_app(page)
        nav(page, "Log")
    before = stored(page)
    raw = text.encode("utf-8", "surrogatepass")
    page.get_by_label("Import a session file (becomes a new session)").set_input_files(
        files=[{"name": "hostile.json", "mimeType": "application/json", "buffer": raw}])
    try:
        read_export(raw.decode("utf-8", "replace"))  # what File.text() gives Python
    except ImportFileError as error:
        page.locator(".message p", has_text="“hostile.json” was not imported").wait_for()
        assert first_words(str(error)) in message(page) and stored(page) == before
    else:
        page.locator(".message p", has_text="as a new session").wait_for()
    page.get_by_role("button", name="Dismiss").tap()
    nav(page, "Log")
