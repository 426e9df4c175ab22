"""Saved data is only as safe as the browser keeps it: the Log and Session screens say when
the session was last backed up, offer a backup after play, and in iOS Safari outside the
Home Screen (where data goes after 7 days unvisited) suggest adding it there."""
import re

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
