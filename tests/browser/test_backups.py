"""Saved data is only as safe as the browser keeps it: the Log and Session screens say when
the session was last backed up, offer a backup after play, and in iOS Safari outside the
Home Screen (where data goes after 7 days unvisited) suggest adding it there."""
import re
import sys
from pathlib import Path

from conftest import DESKTOP, PHONE, READY

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))  # linksize: the unit tests' large sessions

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
    """A long campaign's session whose link phones of this version would not open: the worst case the
    replica's caps allow (tests/unit/linksize.py, built from the cap constants: counts that differ on every
    phone the checks allow, vouched for), named for the screen. Asserted past the limits, never skipped."""
    from linksize import caps_worst_case
    from session.links.size import too_large
    from session.links.v2 import session_link
    from session.replica_check import check_replica

    replica = check_replica(caps_worst_case().to_dict())
    replica.fields["name"] = ["A long campaign", *replica.fields["name"][1:]]
    assert too_large(session_link(replica)), "the caps' worst case now fits in a link: nothing to say here"
    return replica


def test_a_session_too_large_for_a_link_says_so_and_offers_the_file(app, screenshot):
    from session.links.files import export_text, read_export
    from ui.screens.session.sharing import TOO_LARGE_TO_OPEN
    from ui.screens.session.view import EXPORT_ABOVE

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
    # One export button on the screen, under the sentence that says why; the storage card points to it.
    assert page.get_by_role("button", name="Export this session to a file").count() == 1
    assert card.get_by_role("button", name="Export this session to a file").is_visible()
    assert page.get_by_test_id("export-above").inner_text() == EXPORT_ABOVE
    both_sizes(page, screenshot, "link-too-large", card)
    both_sizes(page, screenshot, "link-too-large-storage", page.get_by_test_id("export-above"))
    with page.expect_download() as download:
        card.get_by_role("button", name="Export this session to a file").tap()
    exported = read_export(download.value.path().read_text())
    assert exported.roster == replica.roster and exported.tension == replica.tension  # nothing lost
