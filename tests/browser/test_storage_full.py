"""Storage that fills and saved data that fails its check (issue 23, items 7 and 8), in Chromium at
390x844: a roll the log store refuses is said at once, with no error in the console, and is there
after a reload once there is room; a session that fails its check at start opens repaired and says
what was set aside, and stays so after a reload; a link too long for a QR code keeps the screen."""
from __future__ import annotations

import json
import secrets

import pytest

from session import check_roster_entry, new_session
from session.links.v1 import encode_session
from conftest import BOOT_TIMEOUT_MS, READY, at_desktop_size
from test_sessions import message, nav, not_now, party
from test_tension_flows import enter_dice

# The log store refuses while localStorage holds test.refuse: "abort", its transaction is aborted
# as a quota error aborts it (each request first fails with an AbortError: the path that reached
# Python as "invalid exception object"); "throw", put() itself throws QuotaExceededError.
REFUSE = """
const realPut = IDBObjectStore.prototype.put;
IDBObjectStore.prototype.put = function (value) {
  const mode = localStorage.getItem("test.refuse");
  if (mode === "throw") throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  const request = realPut.call(this, value);
  if (mode === "abort") this.transaction.abort();
  return request;
};
"""


def reload(page):
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def open_id(page) -> str:
    return page.evaluate("() => JSON.parse(localStorage.getItem('tableside.index')).active")


@pytest.mark.parametrize("refusal", ["abort", "throw"])
def test_a_refused_roll_is_said_at_once_and_is_there_after_a_reload_with_room(page, open_app, screenshot, refusal):
    page.add_init_script(script=REFUSE)
    open_app(page)
    page.evaluate("(mode) => localStorage.setItem('test.refuse', mode)", refusal)
    enter_dice(page.get_by_test_id("side-gm"), [5, 5, 2])
    enter_dice(page.get_by_test_id("side-player"), [1, 1])
    page.get_by_role("button", name="Log this result").tap()
    said = page.locator(".message p").filter(has_text="Storage is full: the last roll is kept aside on this phone")
    said.wait_for(timeout=2_000)  # at once
    tension = page.get_by_test_id("tension").inner_text()
    assert tension != "3"  # the two 1s fed it
    session_id = open_id(page)
    kept = page.evaluate("(id) => localStorage.getItem('tableside.unstored.' + id)", session_id)
    assert [entry["record"]["player"]["dice"] for entry in json.loads(kept)] == [[1, 1]]
    if refusal == "abort":
        said.scroll_into_view_if_needed()
        screenshot(page, "storage-full", full_page=False)
        at_desktop_size(page, lambda: screenshot(page, "storage-full", full_page=False))

    reload(page)  # still refused: the roll shows from where it was kept, and that is said again
    said.wait_for()
    assert page.get_by_test_id("tension").inner_text() == tension

    page.evaluate("() => localStorage.removeItem('test.refuse')")  # room was freed
    reload(page)
    assert page.get_by_test_id("tension").inner_text() == tension
    page.wait_for_function("(id) => localStorage.getItem('tableside.unstored.' + id) === null", arg=session_id)
    assert page.evaluate("(id) => window.tablesideLog.count(id)", session_id) == 1
    nav(page, "Log")
    assert page.get_by_test_id("log-entry").count() == 1
    reload(page)
    nav(page, "Log")
    assert page.get_by_test_id("log-entry").count() == 1 and page.get_by_test_id("tension").inner_text() == tension


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
