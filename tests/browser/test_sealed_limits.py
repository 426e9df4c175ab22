"""Nothing from outside uses up a limit (issue 30, item 4), in the page: two phones that meet by links play a
sealed Test while a third party sends junk: ten reveals that open no seal (each said in one sentence, none
kept: the GM's genuine reveal still fits and settles on the player's phone), an undo mark for the conflict's
id before its result is logged (left out: the result shows), 400 sealed conflicts with nothing in them (left
out: the share link stays a QR code). Each phone restarts after, with everything as it was."""
from __future__ import annotations

import secrets

from session.links import v2 as link_v2
from session.sealed import exchange as sealed_exchange
from test_manners_flows import assert_fits
from test_sealed import newest_log_entry, open_link, reload, sealed_link, shot, two_phones

IGNORED = "A reveal that matches no seal was ignored."


def message(page) -> str:
    return page.locator(".message p").inner_text()


def junk_link(link: str, messages: list[dict]) -> str:
    """A sealed-card link of the same session, as anyone holding one of its links could make it."""
    incoming = link_v2.read(link.split("#", 1)[1])
    return link.split("#")[0] + "#" + link_v2.sealed_message(incoming.session_id, "", messages)


def session_with(page, change) -> str:
    """The page's session link, read, changed by `change(replica)` as another phone would, and written again."""
    link = page.get_by_test_id("session-link").input_value()
    replica = link_v2.read(link.split("#", 1)[1]).replica
    replica.clock += 1
    replica.fields["name"] = ["Friday, junk", replica.clock, "0badf00d"]
    change(replica)
    return link.split("#")[0] + "#" + link_v2.session_link(replica)


def update(page, link: str):
    open_link(page, link)
    page.get_by_role("button", name="Update mine from the link").tap()
    page.locator(".message p").filter(has_text="Nothing this phone had is lost").wait_for()
    if page.get_by_test_id("role-chooser").count():
        page.get_by_test_id("role-chooser").get_by_role("button", name="Not now").tap()
    page.get_by_role("navigation", name="Screens").get_by_role("button", name="Conflict").tap()


def test_junk_from_outside_takes_no_room_and_the_sealed_test_still_settles(app, browser, watch, screenshot):
    gm, player, second = two_phones(app, browser, watch)
    try:
        gm.get_by_role("button", name="GM says").tap()
        gm.get_by_test_id("side-gm").get_by_role("button", name="Difficulty 5").tap()
        gm.get_by_test_id("side-gm").get_by_test_id("seal-offer").get_by_role("button", name="Hostility").tap()
        gm.get_by_role("button", name="Seal and share").tap()
        seal = sealed_link(gm)
        conflict = link_v2.read(seal.split("#", 1)[1]).messages[0]["c"]
        open_link(player, seal)
        player.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3").tap()
        player.get_by_role("button", name="Lock Manner for Wren").tap()
        player.get_by_role("button", name="Send my Manner to the GM").tap()
        open_link(gm, sealed_link(player))

        # Ten reveals that open no seal, four to a link: each link said in one sentence, none kept.
        junk = [sealed_exchange.reveal_test(conflict, "Time", 5, secrets.token_hex(16)) for _ in range(10)]
        for at in range(0, 10, 4):
            open_link(gm, junk_link(seal, junk[at:at + 4]))
            gm.locator(".message p").filter(has_text=IGNORED).wait_for()
        shot(gm, screenshot, "sealed-limits-1-junk-reveals-said", desktop=True)
        assert_fits(gm, 320, screenshot, "sealed-limits-1-junk-reveals-said-320")

        # Another phone's session link: the undo mark of the conflict's id, 400 sealed conflicts of junk.
        gm.get_by_role("navigation", name="Screens").get_by_role("button", name="Session").tap()

        def hostile(replica):
            replica.undone[conflict] = {"by": {"0badf00d": replica.clock}, "effects": []}
            for number in range(400):
                reveal = sealed_exchange.reveal_test(f"j{number}", "Time", 5, "0" * 32)
                replica.sealed[f"j{number}"] = {sealed_exchange.digest(reveal): reveal}

        junk_session = session_with(gm, hostile)
        assert len(junk_session) > 10_000
        update(gm, junk_session)
        update(player, junk_session)

        gm.get_by_role("button", name="Reveal to the player").tap()
        gm.get_by_test_id("result").wait_for()
        gm.get_by_role("button", name="Log this result").tap()
        gm.get_by_role("heading", name="Result (logged)").wait_for()
        open_link(player, sealed_link(gm))
        player.get_by_test_id("result").wait_for()
        player.get_by_role("button", name="Log this result").tap()
        player.get_by_role("heading", name="Result (logged)").wait_for()
        shot(player, screenshot, "sealed-limits-2-player-result", desktop=True)
        for page in (gm, player):
            reload(page)
            assert "Hostility" in newest_log_entry(page)  # the result shows: the mark was left out
        gm.get_by_role("navigation", name="Screens").get_by_role("button", name="Session").tap()
        assert len(gm.get_by_test_id("session-link").input_value()) < 3_000  # no junk travels on
        shot(gm, screenshot, "sealed-limits-3-gm-session-after")
    finally:
        second.close()
