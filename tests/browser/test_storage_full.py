"""Storage that fills and saved data that fails its check (issue 23, items 7 and 8), in Chromium at
390x844: a roll the log store refuses is said at once, with no error in the console, and is there
after a reload once there is room; a change a full localStorage refuses is said; a session that
fails its check at start opens repaired and says what was set aside, and stays so after a reload;
a link too long for a QR code keeps the screen."""
from __future__ import annotations

import json
import secrets

import pytest

from session import check_roster_entry, new_session
from session.links.v1 import encode_session
from conftest import BOOT_TIMEOUT_MS, READY, at_desktop_size
from offline_helpers import wait_until_controlled
from test_sessions import message, nav, not_now, party
from test_tension_flows import enter_dice

# How the log store is made to refuse, and how room is made again. "quota" is the browser's own
# refusal: Chromium's quota for the page's origin set, through the DevTools protocol, to what the
# origin already uses, so the transaction aborts with a QuotaExceededError (a DOMException subclass
# with no stack, which Pyodide turned into no exception at all: the roll was lost without a word).
# It is set before the log store's first write: this Chromium (156) took no notice of an override
# sent after one (60 KB writes were still stored with a quota of 1 byte, in an incognito context
# and a profile on disk alike), and navigator.storage.estimate() never reports it.
# The imitations cover the paths Chromium's quota does not take, while localStorage holds
# test.refuse: "abort", the transaction is aborted before it holds an error (each request first
# fails with an AbortError, and tx.error is null); "throw", put() itself throws the browser's
# QuotaExceededError, as an engine that refuses at once would.
REFUSE = """
const realPut = IDBObjectStore.prototype.put;
IDBObjectStore.prototype.put = function (value) {
  const mode = localStorage.getItem("test.refuse");
  if (mode === "throw") throw new QuotaExceededError("The quota has been exceeded.");
  const request = realPut.call(this, value);
  if (mode === "abort") this.transaction.abort();
  return request;
};
"""


class FullStore:
    """The log store of one page made to refuse writes, and given room again."""

    def __init__(self, page, site, how: str):
        self.page, self.origin, self.how = page, site.rstrip("/"), how
        if how != "quota":
            page.add_init_script(script=REFUSE)

    def fill(self):
        """Before the first roll (see above)."""
        if self.how == "quota":
            wait_until_controlled(self.page)  # everything precached: no write of the page's own is refused
            usage = self.page.evaluate("navigator.storage.estimate().then((estimate) => estimate.usage)")
            self.devtools = self.page.context.new_cdp_session(self.page)
            self.devtools.send("Storage.overrideQuotaForOrigin", {"origin": self.origin, "quotaSize": usage})
        else:
            self.page.evaluate("(mode) => localStorage.setItem('test.refuse', mode)", self.how)

    def make_room(self):
        if self.how == "quota":
            self.devtools.send("Storage.overrideQuotaForOrigin", {"origin": self.origin})  # the browser's own again
        else:
            self.page.evaluate("() => localStorage.removeItem('test.refuse')")


def reload(page):
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def open_id(page) -> str:
    return page.evaluate("() => JSON.parse(localStorage.getItem('tableside.index')).active")


def log_roll(page, gm, player):
    enter_dice(page.get_by_test_id("side-gm"), gm)
    enter_dice(page.get_by_test_id("side-player"), player)
    page.get_by_role("button", name="Log this result").tap()


@pytest.mark.parametrize("how", ["quota", "abort", "throw"])
def test_a_refused_roll_is_said_at_once_and_is_there_after_a_reload_with_room(page, open_app, site, screenshot, how):
    store = FullStore(page, site, how)
    open_app(page)
    store.fill()
    log_roll(page, [5, 5, 2], [1, 1])
    said = page.locator(".message p").filter(has_text="Storage is full: the last roll is kept aside on this phone")
    said.wait_for(timeout=2_000)  # at once
    tension = page.get_by_test_id("tension").inner_text()
    assert tension == "6"  # 3, +1 for the failure, +2 for the two 1s
    session_id = open_id(page)
    kept = page.evaluate("(id) => localStorage.getItem('tableside.unstored.' + id)", session_id)
    assert [entry["record"]["player"]["dice"] for entry in json.loads(kept)] == [[1, 1]]
    if how == "quota":
        said.scroll_into_view_if_needed()
        screenshot(page, "storage-full", full_page=False)
        at_desktop_size(page, lambda: screenshot(page, "storage-full", full_page=False))

    reload(page)  # still refused: the roll shows from where it was kept, and that is said again
    said.wait_for()
    assert page.get_by_test_id("tension").inner_text() == tension

    store.make_room()
    reload(page)
    assert page.get_by_test_id("tension").inner_text() == tension
    page.wait_for_function("(id) => localStorage.getItem('tableside.unstored.' + id) === null", arg=session_id)
    assert page.evaluate("(id) => window.tablesideLog.count(id)", session_id) == 1
    nav(page, "Log")
    assert page.get_by_test_id("log-entry").count() == 1
    reload(page)
    nav(page, "Log")
    assert page.get_by_test_id("log-entry").count() == 1 and page.get_by_test_id("tension").inner_text() == tension


# localStorage filled by the page's own data to the last character: the browser's own refusal.
FILL_LOCAL_STORAGE = """() => {
  let size = 1 << 20, count = 0;
  while (size >= 1) {
    try { localStorage.setItem("test.filler." + count, "x".repeat(size)); count += 1; } catch (full) { size >>= 1; }
  }
  const last = "test.filler." + (count - 1);
  for (let value = localStorage.getItem(last) + "x"; ; value += "x") {
    try { localStorage.setItem(last, value); } catch (full) { return; }
  }
}"""


def saved(page, count: int):
    """Until the open session's head holds this phone's Tension count."""
    page.wait_for_function("""(count) => Object.keys(localStorage).some((key) => key.startsWith("tableside.head.")
        && Object.values(JSON.parse(localStorage.getItem(key)).tension).some(([counted]) => counted === count))""",
                           arg=count)


def test_a_change_a_really_full_local_storage_refuses_is_said_and_saved_once_there_is_room(app):
    page = app
    raise_tension = page.get_by_role("button", name="Raise Tension by 1")
    for _ in range(9):
        raise_tension.tap()
    saved(page, 9)
    page.evaluate(FILL_LOCAL_STORAGE)
    raise_tension.tap()  # this phone's count in the head, 9 -> 10, is a character longer
    page.locator(".message p").filter(has_text="storage for Tableside is full, so the last change is not saved").wait_for()
    assert page.get_by_test_id("tension").inner_text() == "13"

    page.evaluate("() => Object.keys(localStorage).filter((key) => key.startsWith('test.filler.'))"
                  ".forEach((key) => localStorage.removeItem(key))")
    raise_tension.tap()
    saved(page, 11)
    reload(page)
    assert page.get_by_test_id("tension").inner_text() == "14"


def test_a_session_that_fails_its_check_at_start_opens_repaired_and_says_so(page, open_app, screenshot):
    session = party()
    open_app(page, "#" + encode_session(session))
    not_now(page)
    key = f"tableside.head.{session['id']}"
    page.wait_for_function("(key) => localStorage.getItem(key) !== null", arg=key)
    head = json.loads(page.evaluate("(key) => localStorage.getItem(key)", key))
    brin = next(entry_id for entry_id, entry in head["roster"].items() if entry["fields"]["name"][0] == "Brin")
    head["roster"][brin]["fields"]["name"] = [["not", "a", "name"], 1, ""]  # as an older version or a bug wrote it
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [key, json.dumps(head)])
    reload(page)
    assert "Part of" in message(page) and "could not be read: 1 roster entry was set aside" in message(page)
    assert page.locator(".session-name").inner_text() == session["name"]  # not "New session"
    screenshot(page, "storage-repaired", full_page=False)
    at_desktop_size(page, lambda: screenshot(page, "storage-repaired", full_page=False))
    nav(page, "Roster")
    assert "Ash" in page.locator("#app").inner_text() and "Brin" not in page.locator("#app").inner_text()
    nav(page, "Session")
    page.get_by_test_id("unreadable").get_by_role("button", name="Download a copy").first.wait_for()

    reload(page)
    assert page.locator(".session-name").inner_text() == session["name"]
    assert "Part of" not in message(page)  # repaired in place; its copy is still offered
    nav(page, "Roster")
    assert "Ash" in page.locator("#app").inner_text()


def test_a_session_link_too_long_for_a_qr_code_keeps_share_and_copy(page, open_app, screenshot):
    session = new_session("Big table", players=3)
    session["roster"] = [check_roster_entry(
        {"system": "tension", "kind": "character", "name": secrets.token_hex(30), "ap": 3, "health": 10,
         "willpower": 10, "attributes": [{"name": secrets.token_hex(20), "rating": 3}], "skills": []})
        for _ in range(60)]
    open_app(page, "#" + encode_session(session))
    chooser = page.get_by_test_id("role-chooser")  # 60 characters to choose from: put it away with Escape
    chooser.wait_for()
    page.keyboard.press("Escape")
    chooser.wait_for(state="detached")
    # 60 names of 60 characters with no space: the page stays as wide as the phone, the navigation in reach.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.get_by_role("navigation", name="Screens").get_by_role("button", name="Session").click()
    card = page.locator(".share-card")
    card.get_by_test_id("qr-too-long").wait_for()
    assert "too long for a QR code" in card.get_by_test_id("qr-too-long").inner_text()
    assert card.get_by_role("button", name="Share link").is_visible()
    assert card.get_by_test_id("session-link").input_value().startswith("http")
    assert "too long for a QR code" in card.get_by_test_id("link-size").inner_text()
    assert card.locator(".qr-code").count() == 0
    card.scroll_into_view_if_needed()
    screenshot(page, "session-link-too-long", full_page=False)
    at_desktop_size(page, lambda: screenshot(page, "session-link-too-long", full_page=False))



def damage_index(page):
    page.evaluate("() => localStorage.setItem('tableside.index', '{\"active\": [[[cut short')")


def cut_the_head_short(page):
    page.evaluate("""() => {
      const key = Object.keys(localStorage).find((key) => key.startsWith("tableside.head."));
      localStorage.setItem(key, localStorage.getItem(key).slice(0, 200));
    }""")


@pytest.mark.parametrize("damage", [damage_index, cut_the_head_short])
def test_a_start_at_a_full_store_says_what_could_not_be_read_not_that_a_change_was_lost(page, open_app, damage):
    """Issue 30's leftover: a start that could not read saved data, with the store full, was
    reported to say "storage is full, so the last change is not saved" though the player changed
    nothing. Tried here with the list of sessions and with the open session damaged: each start
    says what could not be read, and a damaged list loses nothing (it is rebuilt from the sessions)."""
    open_app(page, "#" + encode_session(party()))
    not_now(page)
    page.get_by_role("button", name="Raise Tension by 1").tap()
    tension = page.get_by_test_id("tension").inner_text()
    saved(page, 1)
    damage(page)
    page.evaluate(FILL_LOCAL_STORAGE)
    reload(page)
    said = " ".join(page.locator(".message").all_inner_texts())
    assert "could not be read" in said and "Nothing was deleted" in said
    assert "last change is not saved" not in said
    if damage is damage_index:
        assert page.get_by_test_id("tension").inner_text() == tension
