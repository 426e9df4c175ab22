"""Manner Cards sealed across two phones (issue 13), two browser contexts that meet only through
the links they show: a Test (the GM seals a Complication, the player sends a locked Manner, the
GM reveals) and a Confrontation (both seal, both reveal) end with the same logged result on both
phones; a tampered reveal is ignored and the genuine one settles; every step survives a reload;
before the reveal, the salt and the hidden card are in no link, no storage value and no DOM of the
other phone."""
from __future__ import annotations

import json
import re

import zxingcpp

from session.links import v2 as link_v2
from conftest import PHONE, READY, BOOT_TIMEOUT_MS
from test_accessibility import violations
from test_manners_flows import add_wren, assert_fits, calm, switch_to_manner_cards
from test_sessions import png_gray

SIZES = ({"width": 390, "height": 844}, {"width": 1280, "height": 800})
STORED = """async () => {
  const found = {local: Object.fromEntries(Object.entries(localStorage)), indexed: []};
  for (const info of (await indexedDB.databases())) {
    const db = await new Promise((ok, no) => { const r = indexedDB.open(info.name); r.onsuccess = () => ok(r.result);
                                                r.onerror = () => no(r.error); });
    for (const name of db.objectStoreNames) {
      const all = await new Promise(ok => { const r = db.transaction(name).objectStore(name).getAll();
                                            r.onsuccess = () => ok(r.result); });
      found.indexed.push(JSON.stringify(all));
    }
    db.close();
  }
  return JSON.stringify(found);
}"""


def nav(page, screen: str):
    page.get_by_role("navigation", name="Screens").get_by_role("button", name=screen).tap()


def shot(page, screenshot, name: str, desktop: bool = False):
    """The step on a phone (and at 1280x800 when asked), scrolled to the top."""
    for size in SIZES[:2 if desktop else 1]:
        page.set_viewport_size(size)
        screenshot(page, name)
    page.set_viewport_size(SIZES[0])


def reload(page):
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def open_link(page, link: str):
    page.goto(link)
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)


def sealed_link(page) -> str:
    return page.get_by_test_id("sealed-link").input_value()


def turn(page) -> str:
    return page.get_by_test_id("sealed-turn").inner_text()


def secret_of(page) -> dict:
    [secret] = [json.loads(value) for key, value in json.loads(page.evaluate(STORED))["local"].items()
                if key.startswith("tableside.secret.")]
    return secret


def nothing_leaks(page, links: list[str], hidden: list[str]):
    """None of `hidden` in the links, in any value this phone stores, or in its DOM."""
    seen = "\n".join(links) + page.evaluate(STORED) + page.content()
    for text in hidden:
        assert text not in seen, text


def two_phones(app, browser, watch):
    """The GM's phone with Wren on a Manner Cards session, and a player's phone that joined it by link."""
    gm = calm(app)
    switch_to_manner_cards(gm)
    add_wren(gm)
    nav(gm, "Session")
    link = gm.get_by_test_id("session-link").input_value()
    second = browser.new_context(**PHONE)
    watch.attach(second)
    player = calm(second.new_page())
    open_link(player, link)
    assert "Joined" in player.locator(".message p").inner_text()
    player.get_by_test_id("role-chooser").get_by_role("button", name="Wren").tap()  # the player's phone
    nav(gm, "Conflict")
    return gm, player, second


def newest_log_entry(page) -> str:
    """The newest entry as the Log shows it, without when each phone logged it (the entries share
    the conflict's id, so once the phones meet they merge to one)."""
    nav(page, "Log")
    entries = page.get_by_test_id("log-entry")
    assert entries.count() == 1
    text = re.sub(r"\d{1,2} \w{3}, \d{2}:\d{2}", "(time)", entries.first.inner_text())
    nav(page, "Conflict")
    return text


def test_a_sealed_test_across_two_phones(app, browser, watch, screenshot):
    gm, player, second = two_phones(app, browser, watch)
    try:
        # The GM's phone: "GM says", difficulty 5, Hostility face down on this phone, sealed.
        gm.get_by_role("button", name="GM says").tap()
        side = gm.get_by_test_id("side-gm")
        side.get_by_role("button", name="Difficulty 5").tap()
        side.get_by_test_id("seal-offer").get_by_role("button", name="Hostility").tap()
        gm.get_by_role("img", name="The GM's Complication, face down on this phone").wait_for()
        assert "Hostility" not in gm.locator("#app").inner_text()
        shot(gm, screenshot, "sealed-test-1-gm-face-down", desktop=True)
        reload(gm)  # the secret is under its own key: the card is still face down
        gm.get_by_role("button", name="Seal and share").tap()
        seal = sealed_link(gm)
        assert "#C2." in seal
        assert "The player's turn" in turn(gm)
        secret = secret_of(gm)
        assert secret["card"] == "Hostility" and len(secret["salt"]) >= 32
        assert secret["salt"] not in gm.content() and "Hostility" not in gm.content()
        shot(gm, screenshot, "sealed-test-2-gm-sealed", desktop=True)
        assert violations(gm) == []
        assert_fits(gm, 320)
        code = gm.get_by_test_id("sealed-exchange").get_by_test_id("qr")
        code.evaluate("code => code.scrollIntoView({block: 'center'})")
        [found] = zxingcpp.read_barcodes(png_gray(code.screenshot(scale="css")))
        assert found.text == seal  # the code on screen scans to the link
        reload(gm)
        assert "The player's turn" in turn(gm) and sealed_link(gm) == seal

        # The player's phone opens the seal: the GM's card is sealed; pick and lock a Manner.
        open_link(player, seal)
        player.get_by_text("The GM's card is sealed.", exact=True).wait_for()
        assert "Your turn" in turn(player) and "Difficulty 5" in player.get_by_test_id("side-gm").inner_text()
        shot(player, screenshot, "sealed-test-3-player-opened", desktop=True)
        assert violations(player) == []
        nothing_leaks(player, [seal], [secret["salt"], "Hostility"])
        reload(player)
        player.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3").tap()
        player.get_by_role("button", name="Lock Manner for Wren").tap()
        reload(player)
        player.get_by_role("button", name="Send my Manner to the GM").tap()
        lock = sealed_link(player)
        assert "The GM's turn" in turn(player)
        shot(player, screenshot, "sealed-test-4-player-sent")
        nothing_leaks(player, [seal, lock], [secret["salt"], "Hostility"])
        reload(player)
        assert "The GM's turn" in turn(player)

        # The GM's phone opens the player's Manner and reveals.
        open_link(gm, lock)
        assert "Wren locked Force" in gm.get_by_test_id("side-player").inner_text()
        assert "Your turn" in turn(gm)
        shot(gm, screenshot, "sealed-test-5-gm-to-reveal")
        nav(gm, "Session")
        before_reveal = gm.get_by_test_id("session-link").input_value()  # carries the exchange so far
        nav(gm, "Conflict")
        reload(gm)
        gm.get_by_role("button", name="Reveal to the player").tap()
        gm.get_by_test_id("result").wait_for()
        assert gm.get_by_test_id("outcome").inner_text() == "Failure"  # Force against Hostility: Lose
        reveal = sealed_link(gm)
        assert not [key for key in json.loads(gm.evaluate(STORED))["local"] if key.startswith("tableside.secret.")]
        gm.get_by_role("button", name="Log this result").tap()
        gm.get_by_role("heading", name="Result (logged)").wait_for()
        shot(gm, screenshot, "sealed-test-6-gm-revealed", desktop=True)
        reload(gm)

        # The player's phone opens the reveal: checked against the seal, resolved, logged.
        open_link(player, reveal)
        player.get_by_test_id("result").wait_for()
        assert player.get_by_test_id("outcome").inner_text() == "Failure"
        player.get_by_role("button", name="Log this result").tap()
        player.get_by_role("heading", name="Result (logged)").wait_for()
        shot(player, screenshot, "sealed-test-7-player-revealed", desktop=True)
        reload(player)
        assert newest_log_entry(player) == newest_log_entry(gm)
        assert all(len(link) < 400 for link in (seal, lock, reveal))  # a QR code of version 13 or less

        # A tampered reveal on a third phone, which joined by the GM's session link taken before the
        # reveal (the exchange travels in it): the same messages with another card open no seal, so they
        # are nobody's word: ignored, nothing blamed, and the genuine reveal still settles it there.
        incoming = link_v2.read(reveal.split("#", 1)[1])
        forged = [dict(message, card="Time") if message["t"] == "reveal" else message for message in incoming.messages]
        third = browser.new_context(**PHONE)
        watch.attach(third)
        page = calm(third.new_page())
        open_link(page, before_reveal)
        open_link(page, reveal.split("#")[0] + "#" + link_v2.sealed_message(incoming.session_id, "", forged))
        page.get_by_test_id("sealed-turn").wait_for()
        assert page.locator(".message p").inner_text() == "A reveal that matches no seal was ignored."  # said
        assert page.get_by_test_id("sealed-mismatch").count() == 0
        assert page.get_by_role("button", name="Log this result").count() == 0
        shot(page, screenshot, "sealed-test-8-tampered", desktop=True)
        assert violations(page) == []
        reload(page)
        open_link(page, reveal)
        page.get_by_test_id("result").wait_for()
        assert page.get_by_test_id("outcome").inner_text() == "Failure"
        third.close()
    finally:
        second.close()


def test_a_sealed_confrontation_across_two_phones(app, browser, watch, screenshot):
    first, second_page, second = two_phones(app, browser, watch)
    try:
        first.get_by_role("button", name="Confrontation").tap()
        # The first phone plays the opponent (no sheet): Speed, sealed.
        first.get_by_test_id("cards-opponent").get_by_role("button", name="Speed, rating 2").tap()
        first.get_by_role("button", name="Seal and share The opponent's Manner").tap()
        seal_one = sealed_link(first)
        secret_one = secret_of(first)
        assert "The other phone's turn" in turn(first)
        shot(first, screenshot, "sealed-confrontation-1-first-sealed", desktop=True)
        reload(first)

        open_link(second_page, seal_one)
        assert "Your turn" in turn(second_page)
        nothing_leaks(second_page, [seal_one], [secret_one["salt"], '"manner":"Speed"'])
        assert "Speed" not in second_page.get_by_test_id("side-opponent").inner_text()
        second_page.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3").tap()
        second_page.get_by_role("button", name="Seal and share Wren's Manner").tap()
        seal_two = sealed_link(second_page)
        secret_two = secret_of(second_page)
        shot(second_page, screenshot, "sealed-confrontation-2-second-sealed", desktop=True)
        nothing_leaks(second_page, [seal_one, seal_two], [secret_one["salt"]])
        reload(second_page)

        open_link(first, seal_two)
        nothing_leaks(first, [seal_one, seal_two], [secret_two["salt"], '"manner":"Force"'])
        assert "Force" not in first.get_by_test_id("side-player").inner_text()
        first.get_by_role("button", name="Reveal to the other phone").tap()
        reveal_one = sealed_link(first)
        shot(first, screenshot, "sealed-confrontation-3-first-revealed")
        reload(first)

        open_link(second_page, reveal_one)
        second_page.get_by_role("button", name="Reveal to the other phone").tap()
        second_page.get_by_test_id("result").wait_for()
        reveal_two = sealed_link(second_page)
        second_page.get_by_role("button", name="Log this result").tap()
        second_page.get_by_role("heading", name="Result (logged)").wait_for()
        shot(second_page, screenshot, "sealed-confrontation-4-second-result", desktop=True)

        open_link(first, reveal_two)
        first.get_by_test_id("result").wait_for()
        first.get_by_role("button", name="Log this result").tap()
        first.get_by_role("heading", name="Result (logged)").wait_for()
        shot(first, screenshot, "sealed-confrontation-5-first-result", desktop=True)
        reload(first)
        reload(second_page)
        assert newest_log_entry(first) == newest_log_entry(second_page)
        assert all(len(link) < 500 for link in (seal_one, seal_two, reveal_one, reveal_two))
    finally:
        second.close()
