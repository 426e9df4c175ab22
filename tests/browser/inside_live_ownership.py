"""Who may change what on a live table (issue 30, item 3): the GM's phone and the phones of Ash and
Brin, joined by scanning; Ash's phone tries the changes it does not own (the session's name and
settings, Brin's roll), each refused on Ash's phone in a sentence, sent to no phone, and still so
after Ash's page restarts. Run only inside a private network namespace, by test_live_table.py."""
from __future__ import annotations

import netns

netns.require_isolated()  # before anything opens a page: outside, Chromium would reach the real network

from conftest import BOOT_TIMEOUT_MS, READY  # noqa: E402
from inside_live_table import AGREE_MS, agree, join, playwright_instance, table, tension_roll  # noqa: E402,F401
from test_ownership import NOT_YOURS, session_name  # noqa: E402
from test_sessions import nav  # noqa: E402

import time  # noqa: E402


def refused(phone):
    phone.page.locator(".message p", has_text=NOT_YOURS).wait_for(timeout=AGREE_MS)


def test_a_live_players_phone_changes_only_what_it_owns(table, screenshot):
    gm, (ash, brin) = table(names=("Ash", "Brin"))
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    for player in (ash, brin):
        join(gm, player)
    nav(brin.page, "Conflict")
    tension_roll(brin)
    logged = time.perf_counter()
    entry = brin.newest()
    agree([gm, ash], entry, logged)

    nav(ash.page, "Session")
    ash.page.get_by_role("button", name="Rename Friday at Kim's").tap()
    ash.page.locator("input[id^=rename-]").fill("Ash's game")
    ash.page.get_by_role("button", name="Save name").tap()
    refused(ash)
    ash.page.locator("#setting-tension_explodes").tap()
    refused(ash)
    nav(ash.page, "Log")
    ash.page.get_by_role("button", name="Undo last").tap()  # the newest is Brin's roll
    ash.page.get_by_role("button", name="Yes, undo it").tap()
    refused(ash)
    ash.page.evaluate("window.scrollTo(0, 0)")
    screenshot(ash.page, "owner-live-player-refused", full_page=False)
    gm.page.wait_for_timeout(1_000)  # anything sent would have arrived by now (rolls arrive in ~100 ms)
    for phone in (gm, brin):
        assert session_name(phone.page) == "Friday at Kim's"
        assert phone.newest() == entry
    assert gm.page.get_by_test_id("held").count() == 0

    ash.page.reload()
    ash.page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert session_name(ash.page) == "Friday at Kim's"
    nav(ash.page, "Log")
    assert ash.page.get_by_test_id("log-entry").count() == 1
