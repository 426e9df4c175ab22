"""The people a session keeps, in the page (issue 30, item 1): a session of 60 characters and adversaries,
each with a sheet in every rule system, refuses a 61st at Save with a sentence, keeps the sheet open with
what was typed, and loads after a restart with its 60 people and nothing more."""
from __future__ import annotations

from session import check_roster_entry, new_session
from session.headcount import MAX_PEOPLE
from session.links import v2 as link_v2
from session.replica import Replica
from ui.core.people import everywhere
from conftest import READY, BOOT_TIMEOUT_MS, at_desktop_size
from test_sessions import message, not_now


def full_party() -> dict:
    session = new_session("A full table", system="tension")
    for number in range(MAX_PEOPLE):
        entry = check_roster_entry({"system": "tension", "kind": "character", "name": f"Hero {number}", "ap": 3,
                                    "health": 10, "willpower": 10, "attributes": [], "skills": []})
        session["roster"] = everywhere(session["roster"] + [entry], entry)
    return session


def test_a_sixty_first_person_is_refused_at_save_in_a_sentence_and_nothing_is_lost(page, open_app, screenshot):
    open_app(page, "#" + link_v2.session_link(Replica.from_session(full_party())))
    assert "Joined “A full table”" in message(page)
    not_now(page)
    page.get_by_role("button", name="Roster", exact=True).tap()
    page.get_by_role("button", name="Add a character").tap()
    page.get_by_label("Name", exact=True).first.fill("One more")
    page.get_by_role("button", name="Save").tap()
    refusal = page.locator(".message p").filter(has_text="can't be added")
    refusal.wait_for()
    assert refusal.inner_text().startswith(
        f"This session keeps {MAX_PEOPLE} characters and adversaries, each with a sheet in every rule system")
    assert page.get_by_label("Name", exact=True).first.input_value() == "One more"  # the sheet stays open
    refusal.scroll_into_view_if_needed()
    screenshot(page, "people-limit", full_page=False)
    at_desktop_size(page, lambda: screenshot(page, "people-limit", full_page=False))
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    if page.get_by_test_id("role-chooser").count():
        not_now(page)
    page.get_by_role("button", name="Roster", exact=True).tap()
    body = page.locator("body").inner_text()
    assert f"Hero {MAX_PEOPLE - 1}" in body and "One more" not in body
