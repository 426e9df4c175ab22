"""A campaign-sized session in the browser (issue 15): a session saved by the previous version
moves once to a head in localStorage and its entries in IndexedDB; the Log pages its entries;
a storage nearly full is said early and calmly, with the way out."""
from __future__ import annotations

import json

import rules
from session import check_roster_entry, log_conflict, new_session
from session.links.v1 import encode_session
from conftest import BOOT_TIMEOUT_MS, READY, at_desktop_size
from test_sessions import not_now

ENTRIES = 45


def campaign(count: int = ENTRIES) -> dict:
    """A version-1 session (as the previous version saved it) with `count` logged conflicts."""
    session = new_session("Long campaign", players=3)
    session["roster"] = [check_roster_entry(
        {"system": "tension", "kind": "character", "name": "Ash", "ap": 3, "health": 10, "willpower": 10,
         "attributes": [{"name": "Agility", "rating": 3}], "skills": []})]
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 3,
                            "gm": {"name": "The GM", "total": 4},
                            "player": {"name": "Quick", "pool": 2, "dice": [5, 4]}})
    for number in range(count):
        session = log_conflict(session, record, at=f"2025-06-01T20:{number % 60:02d}:00+02:00", by="Quick")
    return session


def stored(page) -> dict:
    return page.evaluate("() => Object.fromEntries(Object.entries(localStorage))")


def logged_in_indexeddb(page, session_id: str) -> int:
    return page.evaluate("(id) => window.tablesideLog.count(id)", session_id)


def nav(page, screen: str):
    page.get_by_role("navigation", name="Screens").get_by_role("button", name=screen).tap()


def reload(page):
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def test_a_version_one_session_moves_once_and_its_log_pages(app, screenshot):
    page = app
    old = campaign()
    raw = json.dumps(old)
    page.evaluate("""([id, raw]) => {
        localStorage.clear();
        localStorage.setItem("tableside.session." + id, raw);
        localStorage.setItem("tableside.index", JSON.stringify({v: 1, active: id, sessions: [{id, saved: ""}]}));
    }""", [old["id"], raw])
    reload(page)
    assert page.locator(".session-name").inner_text() == "Long campaign"
    page.wait_for_function("(id) => localStorage.getItem('tableside.session.' + id) === null", arg=old["id"])
    keys = stored(page)
    head = json.loads(keys[f"tableside.head.{old['id']}"])
    assert "log" not in head and head["logged"] == {"conflict": ENTRIES, "set-aside": 0}
    assert logged_in_indexeddb(page, old["id"]) == ENTRIES
    log_keys = page.evaluate("(id) => window.tablesideLog.keys(id)", old["id"])  # a live table's print reads these
    assert log_keys == sorted(log_keys) and {key[2] for key in log_keys} == {entry["id"] for entry in old["log"]}

    reload(page)  # from the new storage now: the head, then the newest page of the log
    assert page.get_by_test_id("tension").inner_text() == str(old["tension"])
    nav(page, "Log")
    assert f"{ENTRIES} conflicts logged" in page.get_by_test_id("log-count").inner_text()
    cards = page.get_by_test_id("log-entry")
    more = page.get_by_test_id("log-more")
    more.filter(has_text=f"Show older entries ({ENTRIES - 20} more)").wait_for()
    assert cards.count() == 20 and f"#{ENTRIES}" in cards.first.inner_text()
    screenshot(page, "log-paging")
    at_desktop_size(page, lambda: (screenshot(page, "log-paging", full_page=False), more.scroll_into_view_if_needed(),
                                   screenshot(page, "log-paging-foot", full_page=False)))
    more.tap()
    more.filter(has_text=f"Show older entries ({ENTRIES - 40} more)").wait_for()
    assert cards.count() == 40
    more.tap()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=log-entry]').length === 45")
    assert more.count() == 0 and "#1" in cards.last.inner_text()

    # Undo is a mark in the head: the entry stays in IndexedDB, the count and the numbers follow.
    page.get_by_role("button", name="Undo last").tap()
    page.get_by_role("button", name="Yes, undo it").tap()
    page.get_by_test_id("log-count").filter(has_text=f"{ENTRIES - 1} conflicts logged").wait_for()
    reload(page)
    nav(page, "Log")
    page.get_by_test_id("log-count").filter(has_text=f"{ENTRIES - 1} conflicts logged").wait_for()
    assert logged_in_indexeddb(page, old["id"]) == ENTRIES


def test_a_failed_migration_keeps_the_version_one_session_and_says_so(app):
    page = app
    old = campaign(3)
    raw = json.dumps(old)
    page.evaluate("""([id, raw]) => {
        localStorage.clear();
        localStorage.setItem("tableside.session." + id, raw);
    }""", [old["id"], raw])
    page.add_init_script(script="""
        window.addEventListener("DOMContentLoaded", () => {
            window.tablesideLog.append = () => Promise.reject(new DOMException("full", "QuotaExceededError"));
        });""")
    reload(page)
    page.locator(".message p").filter(has_text="could not be moved").wait_for()
    assert stored(page)[f"tableside.session.{old['id']}"] == raw
    assert page.locator(".session-name").inner_text() == "Long campaign"


def test_storage_nearly_full_is_said_at_start_with_export_and_archive(context, open_app, screenshot):
    page = context.new_page()
    page.add_init_script(script="""
        navigator.storage.estimate = () => Promise.resolve({usage: 900e6, quota: 1000e6});""")
    open_app(page, "#" + encode_session(campaign(0)))
    not_now(page)
    notice = page.get_by_test_id("space-notice")
    notice.wait_for()
    assert "Storage is 90% full" in notice.inner_text() and "Everything is saved for now" in notice.inner_text()
    assert page.get_by_role("button", name="Raise Tension by 1").is_enabled()
    screenshot(page, "storage-nearly-full")
    at_desktop_size(page, lambda: screenshot(page, "storage-nearly-full"))
    notice.get_by_role("button", name="Export and archive…").tap()
    archive = page.get_by_test_id("archive")
    archive.wait_for()
    assert "Nothing to archive here" in archive.inner_text()  # a new session: delete old ones instead
    screenshot(page, "archive-old-entries")
    at_desktop_size(page, lambda: screenshot(page, "archive-old-entries"))
    page.get_by_role("button", name="Cancel").tap()
    notice.get_by_role("button", name="Not now").tap()
    assert notice.count() == 0
