"""Who may change what on a live table (issue 30, item 3): the GM's phone and the phones of Ash and
Brin, joined by scanning; Ash's phone draws no control of the changes it does not own (the session's
name and settings, Brin's roll), sends nothing, and is still so after Ash's page restarts. Run only inside a private network namespace, by test_live_table.py."""
from __future__ import annotations

import netns

netns.require_isolated()  # before anything opens a page: outside, Chromium would reach the real network

from conftest import BOOT_TIMEOUT_MS, READY  # noqa: E402
from inside_live_table import AGREE_MS, agree, join, playwright_instance, table, tension_roll  # noqa: E402,F401
from test_ownership import session_name  # noqa: E402
from test_sessions import nav  # noqa: E402

import time  # noqa: E402


def nothing_to_change(phone):
    """Ash's phone draws no control of what it does not own: the session's name and settings, Brin's roll."""
    nav(phone.page, "Session")
    phone.page.get_by_text("The GM changes these on the GM's phone.").wait_for(timeout=AGREE_MS)
    assert phone.page.get_by_role("button", name="Rename Friday at Kim's").count() == 0
    assert phone.page.locator("[data-action=session-setting]").count() == 0
    nav(phone.page, "Log")
    phone.page.get_by_test_id("undo-not-yours").wait_for(timeout=AGREE_MS)  # the newest is Brin's roll
    assert phone.page.get_by_role("button", name="Undo last").count() == 0


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

    nothing_to_change(ash)
    screenshot(ash.page, "owner-live-player-log", full_page=False)
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
    nothing_to_change(ash)
