"""Saved data is only as safe as the browser keeps it: the Log and Session screens say when
the session was last backed up, offer a backup after play, and in iOS Safari outside the
Home Screen (where data goes after 7 days unvisited) suggest adding it there."""
import random
import re

import pytest

from conftest import DESKTOP, PHONE, READY

ROLL = re.compile(r"^Roll \d+ dic?e")
IOS_SAFARI_TAB = "Object.defineProperty(Navigator.prototype, 'standalone', { get: () => false });"


def play_a_conflict(page):
    page.get_by_test_id("side-gm").get_by_role("button", name=ROLL).tap()
    page.get_by_test_id("side-player").get_by_role("button", name=ROLL).tap()
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("button", name="New conflict").tap()


def both_sizes(page, screenshot, name, element):
    element.scroll_into_view_if_needed()
    screenshot(page, name, full_page=False)
    page.set_viewport_size(DESKTOP["viewport"])
    element.scroll_into_view_if_needed()
    screenshot(page, name, full_page=False)
    page.set_viewport_size(PHONE["viewport"])


def test_after_play_the_log_offers_a_backup_and_remembers_the_export(app, screenshot):
    page = app
    for _ in range(5):
        play_a_conflict(page)
    page.get_by_role("button", name="Log", exact=True).tap()
    backup = page.get_by_test_id("backup")
    assert backup.inner_text().startswith("Back up this session: export it to a file")
    assert "Its 5 logged entries are only here." in backup.inner_text()
    both_sizes(page, screenshot, "backup-offer", backup)
    with page.expect_download():
        page.get_by_role("button", name="Export this session to a file").tap()
    assert re.fullmatch(r"Last exported to a file on \d+ \w{3}, \d\d:\d\d\.", backup.inner_text())
    page.reload()
    page.locator(READY).wait_for(state="attached")
    page.get_by_role("button", name="Log", exact=True).tap()
    assert backup.inner_text().startswith("Last exported to a file on")


def test_in_safari_outside_the_home_screen_the_session_screen_suggests_it(context, page, open_app, screenshot):
    context.add_init_script(script=IOS_SAFARI_TAB)
    open_app(page)
    page.get_by_role("button", name="Session", exact=True).tap()
    card = page.locator("section", has=page.get_by_role("heading", name="Saved on this phone"))
    hint = page.get_by_test_id("home-screen")
    assert "add Tableside to the Home Screen" in hint.inner_text()
    assert "Not exported to a file from this phone yet." in card.inner_text()
    assert "safe" not in card.inner_text().lower()
    both_sizes(page, screenshot, "storage-safari-tab", card)


# --- A session too large to share as a link (issue 30) ---------------------------------------------------

def too_large_to_share():
    """A long campaign's session whose link phones of this version would not open, built from the limits
    themselves (session.links.size, never a copied number): a full roster whose counts were stepped on more
    and more phones, differently on each, until its link passes them."""
    from session.links.size import too_large
    from session.links.v2 import session_link
    from session.headcount import MAX_PEOPLE
    from session.model import new_session
    from session.replica import Replica
    from session.replica_check import MAX_DEVICES, check_replica

    draw = random.Random(30)
    session = new_session("A long campaign", "tension", 3)
    session["roster"] = [{"id": f"c{number:02d}", "system": "tension", "kind": "character",
                          "name": f"Character {number}", "attributes": [], "skills": [], "ap": 3, "health": 10,
                          "willpower": 8} for number in range(MAX_PEOPLE)]
    replica = Replica.from_session(session)
    replica.clock = 10 ** 6
    for number in range(1, MAX_DEVICES):
        for counts in [replica.tension] + [counts for entry in replica.roster.values()
                                           for counts in entry["counts"].values()]:
            up = draw.randint(0, 999_999)  # counts that differ from phone to phone compress least
            counts[f"{number:016x}"] = [up, draw.randint(0, up)]
        if too_large(session_link(replica)):
            return check_replica(replica.to_dict())
    pytest.skip("no session the checks accept has a link past what phones open: nothing to say")


def test_a_session_too_large_for_a_link_says_so_and_offers_the_file(app, screenshot):
    from session.links.files import export_text, read_export
    from ui.screens.session.sharing import TOO_LARGE_TO_OPEN

    page = app
    replica = too_large_to_share()
    page.get_by_role("navigation", name="Screens").get_by_role("button", name="Log").tap()
    page.get_by_label("Import a session file (becomes a new session)").set_input_files(files=[{
        "name": "campaign.json", "mimeType": "application/json", "buffer": export_text(replica).encode()}])
    page.get_by_text("Imported “A long campaign").wait_for()
    page.get_by_role("navigation", name="Screens").get_by_role("button", name="Session").tap()
    card = page.locator(".share-card")
    said = card.get_by_test_id("link-too-large")
    assert said.inner_text() == TOO_LARGE_TO_OPEN
    assert card.get_by_test_id("qr").count() == 0 and card.get_by_role("button", name="Share link").count() == 0
    both_sizes(page, screenshot, "link-too-large", card)
    with page.expect_download() as download:
        card.get_by_role("button", name="Export this session to a file").tap()
    exported = read_export(download.value.path().read_text())
    assert exported.roster == replica.roster and exported.tension == replica.tension  # nothing lost
