"""Sealed results bound to their seals (issue 23 item 6), two phones that meet only through links: a
sealed Test played honestly is "Sealed and checked" in the Log; in the next one, the GM's phone logs
another card under the conflict id after the player's lock and shares the session: the player's phone
flags it (Log and Conflict screen), and still does after a reload, the session loading as it was."""
from __future__ import annotations

from session import log_conflict
from session.links import v2 as link_v2
from session.replica import Replica
import rules
from conftest import READY, BOOT_TIMEOUT_MS, at_desktop_size
from test_manners_flows import assert_fits
from test_sealed import nav, open_link, reload, sealed_link, two_phones

PHONE_SIZE = {"width": 390, "height": 844}


def seal_and_lock(gm, player) -> tuple[str, str]:
    """The GM's phone seals Hostility at difficulty 5 for Wren; Wren's phone locks Force and sends it
    back; the GM's phone opens it. The seal's and the lock's links."""
    gm.get_by_role("button", name="GM says").tap()
    side = gm.get_by_test_id("side-gm")
    side.get_by_role("button", name="Difficulty 5").tap()
    side.get_by_test_id("seal-offer").get_by_role("button", name="Hostility").tap()
    gm.get_by_role("button", name="Seal and share").tap()
    seal = sealed_link(gm)
    open_link(player, seal)
    player.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3").tap()
    player.get_by_role("button", name="Lock Manner for Wren").tap()
    player.get_by_role("button", name="Send my Manner to the GM").tap()
    lock = sealed_link(player)
    open_link(gm, lock)
    return seal, lock


def another_card_logged(gm, lock: str) -> str:
    """What a GM's phone that logs Time under the conflict id after the lock would share: its session
    link with that entry (made here, as no honest screen makes it)."""
    nav(gm, "Session")
    url = gm.get_by_test_id("session-link").input_value()
    base, fragment = url.split("#", 1)
    replica: Replica = link_v2.read(fragment).replica
    [message] = link_v2.read(lock.split("#", 1)[1]).messages
    record = rules.resolve({"v": 1, "system": "manners", "kind": "test", "player": message["side"], "difficulty": 5,
                            "complication": "Time"}, source=rules.NoDice())
    before = replica.session()
    replica.absorb(before, log_conflict(before, record, by="Wren", same_as=message["c"]), "ab12")
    nav(gm, "Conflict")
    return base + "#" + link_v2.session_link(replica)


def test_a_card_logged_after_the_lock_is_flagged_on_the_players_phone_and_after_a_reload(app, browser, watch,
                                                                                          screenshot):
    gm, player, second = two_phones(app, browser, watch)
    try:
        # A sealed Test played honestly and logged on both phones.
        seal_and_lock(gm, player)
        gm.get_by_role("button", name="Reveal to the player").tap()
        gm.get_by_role("button", name="Log this result").tap()
        open_link(player, sealed_link(gm))
        player.get_by_role("button", name="Log this result").tap()
        player.get_by_role("heading", name="Result (logged)").wait_for()
        for page in (gm, player):
            page.get_by_role("button", name="New conflict").tap()

        # The next one: after Wren's lock, the GM's phone logs Time instead of the sealed Hostility.
        _, lock = seal_and_lock(gm, player)
        forged = another_card_logged(gm, lock)
        update_from(player, forged)

        nav(player, "Conflict")
        assert "Flagged:" in player.get_by_test_id("sealed-flag").inner_text()
        for step in ("first", "reloaded"):
            nav(player, "Log")
            entries = player.get_by_test_id("log-entry")
            assert entries.count() == 2
            assert "Flagged:" in entries.nth(0).inner_text() and "Time" in entries.nth(0).inner_text()
            assert entries.nth(0).get_by_test_id("log-sealed").count() == 0
            assert "Sealed and checked" in entries.nth(1).get_by_test_id("log-sealed").inner_text()
            assert entries.nth(1).get_by_test_id("log-flag").count() == 0
            if step == "first":
                player.set_viewport_size(PHONE_SIZE)
                player.locator(".log-list").evaluate("list => list.scrollIntoView()")
                screenshot(player, "sealed-binding-log-flagged-and-checked", full_page=False)
                at_desktop_size(player, lambda: screenshot(player, "sealed-binding-log-flagged-and-checked",
                                                           full_page=False))
                screenshot(player, "sealed-binding-log-full")
                assert_fits(player, 320)
                name = player.locator(".session-name").inner_text()
                reload(player)
        assert player.locator(".session-name").inner_text() == name  # the session itself, not a new one
        nav(player, "Conflict")
        assert "Flagged:" in player.get_by_test_id("sealed-flag").inner_text()
    finally:
        second.close()


def update_from(player, url: str):
    """The GM's session link opened on the player's phone, and its update taken."""
    player.goto(url)
    player.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    player.get_by_role("button", name="Update mine from the link").tap()
    player.get_by_text("Nothing this phone had is lost").wait_for()
    chooser = player.get_by_test_id("role-chooser")
    if chooser.count():
        chooser.get_by_role("button", name="Not now").tap()


def test_leaving_a_sealed_test_after_the_lock_for_an_open_one_is_flagged_on_the_players_phone(app, browser, watch):
    """Through the screens alone: the GM's phone taps "New conflict" once Wren's Manner is in (the
    sealed card is revealed all the same), then logs an open Test with Time for Wren."""
    gm, player, second = two_phones(app, browser, watch)
    try:
        seal_and_lock(gm, player)
        gm.get_by_role("button", name="Leave this sealed conflict and start a new one").tap()
        assert "so your sealed card is revealed" in gm.locator(".message").inner_text()
        gm.get_by_role("button", name="GM says").tap()
        gm.get_by_test_id("side-gm").get_by_role("button", name="Difficulty 5").tap()
        gm.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3").tap()
        gm.get_by_role("button", name="Lock Manner for Wren").tap()
        gm.get_by_test_id("side-gm").get_by_role("button", name="Time").tap()  # "GM says" turns it over at once
        gm.get_by_role("button", name="Log this result").tap()
        nav(gm, "Session")
        update_from(player, gm.get_by_test_id("session-link").input_value())
        words = ("Logged openly after the GM left Wren's sealed conflict once Wren's Manner was in "
                 "(the sealed card: Hostility).")
        for step in ("first", "reloaded"):
            nav(player, "Log")
            entry = player.get_by_test_id("log-entry").first
            assert words in entry.get_by_test_id("log-flag").inner_text()
            if step == "first":
                reload(player)
        nav(player, "Conflict")
        assert words in player.get_by_test_id("sealed-flag").inner_text()
        player.get_by_role("button", name="Show the result").tap()  # the sealed card, turned over after all
        assert player.get_by_test_id("outcome").inner_text() == "Failure"  # Force against Hostility: Lose
    finally:
        second.close()
