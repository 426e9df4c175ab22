"""Manner Cards on a phone: a Test with the GM's Complication face down until the player
locks, and Confrontations whose ties go to descriptors or end in a compromise."""
from __future__ import annotations

import re

from test_accessibility import violations

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def both_sizes(page, screenshot, name: str):
    """Screenshots of the state on screen at phone and laptop sizes (cards already turned over:
    the tests run with reduced motion, see `calm`)."""
    screenshot(page, name)
    page.set_viewport_size(DESKTOP)
    screenshot(page, name)
    page.set_viewport_size(PHONE)


OVERFLOWING = """() => [...document.querySelectorAll('#app *')]
  .filter(element => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .slice(0, 8).map(element => element.tagName + '.' + element.className)"""


def assert_fits(page, width: int = 320, screenshot=None, name: str = ""):
    """No horizontal page scroll on a narrow phone (and, if there is, which elements stick out)."""
    page.set_viewport_size({"width": width, "height": 800})
    scroll_width = page.evaluate("document.scrollingElement.scrollWidth")
    sticking_out = page.evaluate(OVERFLOWING)
    if screenshot is not None:
        screenshot(page, name)
    page.set_viewport_size(PHONE)
    assert scroll_width <= width, sticking_out


def calm(page):
    """Reduced motion: the cards turn over without the flip, so screenshots show them still."""
    page.emulate_media(reduced_motion="reduce")
    return page


def switch_to_manner_cards(page):
    page.get_by_role("button", name="Manner Cards").tap()
    page.get_by_role("heading", name="Manner Cards conflict").wait_for()


def add_wren(page, check_editor: bool = False):
    """Wren on the roster: Force 3, Climb 2, the descriptor Strong on Force."""
    page.get_by_role("button", name="Roster").tap()
    page.get_by_role("button", name="Add a character").tap()
    editor = page.get_by_test_id("sheet-editor")
    editor.get_by_label("Name", exact=True).fill("Wren")
    editor.get_by_label("Force", exact=True).fill("3")
    editor.get_by_role("button", name="Add a Skill or Spell").tap()
    editor.get_by_label("Skill or Spell name").fill("Climb")
    editor.get_by_label("Rating").fill("2")
    editor.get_by_role("button", name="Add a descriptor").tap()
    editor.get_by_label("Trait or Speciality").fill("Strong")
    editor.get_by_label("Attached to").select_option("Force")
    if check_editor:
        assert violations(page) == []
    editor.get_by_role("button", name="Save").tap()
    entry = page.get_by_test_id("roster-entry")
    entry.wait_for()
    assert "Force 3" in entry.inner_text() and "Strong (Force)" in entry.inner_text()
    page.get_by_role("button", name="Conflict").tap()


def add_bryn(page):
    """Bryn on the roster: Climb 1, so Bryn can help with Climb."""
    page.get_by_role("button", name="Roster").tap()
    page.get_by_role("button", name="Add a character").tap()
    editor = page.get_by_test_id("sheet-editor")
    editor.get_by_label("Name", exact=True).fill("Bryn")
    editor.get_by_role("button", name="Add a Skill or Spell").tap()
    editor.get_by_label("Skill or Spell name").fill("Climb")
    editor.get_by_label("Rating").fill("1")
    editor.get_by_role("button", name="Save").tap()
    page.get_by_test_id("roster-entry").filter(has_text="Bryn").wait_for()
    page.get_by_role("button", name="Conflict").tap()


def test_a_test_keeps_the_complication_face_down_until_the_player_locks(app, screenshot):
    page = calm(app)
    switch_to_manner_cards(page)
    add_wren(page, check_editor=True)
    add_bryn(page)
    page.get_by_label("Who").select_option(label="Wren")
    both_sizes(page, screenshot, "manners-test-setup")
    assert_fits(page, 320, screenshot, "manners-test-setup")

    # The GM: difficulty 5, Hostility face down.
    gm = page.get_by_test_id("side-gm")
    gm.get_by_role("button", name="Difficulty 5").tap()
    gm.get_by_role("button", name="Hostility").tap()
    gm.get_by_role("img", name="The GM's Complication, face down").wait_for()
    assert "Hostility" not in page.locator("#app").inner_text()
    assert "Hostility" not in page.content()  # not in the DOM at all, only in Python's state
    assert page.get_by_role("button", name="Difficulty 5").get_attribute("aria-pressed") == "true"

    # The player: Force, Climb, one helper; the descriptor on Force is counted.
    player_cards = page.get_by_test_id("cards-player")
    player_cards.get_by_role("button", name="Force, rating 3").tap()
    assert player_cards.get_by_role("button", name="Force, rating 3").get_attribute("aria-pressed") == "true"
    page.locator("#manners-player-skill").select_option("Climb")
    helper = page.get_by_role("checkbox", name=re.compile("Bryn"))
    helper.check()  # picked from the roster: Bryn has Climb 1
    assert helper.is_checked()
    assert page.locator("#manners-player-descriptors").inner_text() == "1"
    assert "Strong (Force)" in page.get_by_test_id("descriptor-hint").inner_text()
    odds = page.get_by_test_id("odds")
    force_row = odds.locator("[data-manner=Force]")
    assert force_row.get_attribute("aria-current") == "true"
    assert "every Manner has 1 win · 1 lose · 3 on numbers" in odds.get_by_test_id("odds-cards-all").inner_text()
    # Force 3 + Climb 2 + 1 helper = 6 against 5: Win, +2 and +0 succeed, Partial (5 + 2) and Lose fail.
    assert force_row.locator(".odds-words").inner_text() == "3 success, 2 failure"
    both_sizes(page, screenshot, "manners-test-picked")
    page.get_by_role("button", name="Lock Manner for Wren").tap()
    page.get_by_role("img", name="Wren's Manner card, face down").wait_for()
    assert "Hostility" not in page.content()
    both_sizes(page, screenshot, "manners-test-face-down")
    assert violations(page) == []
    assert_fits(page, 320, screenshot, "manners-test-face-down")

    # Reveal: the Test table with Force / Hostility decided.
    page.get_by_role("button", name="Reveal the cards").tap()
    result = page.get_by_test_id("result")
    result.wait_for()
    cell = result.get_by_test_id("decided-cell")
    assert cell.get_attribute("data-row") == "Force" and cell.get_attribute("data-column") == "Hostility"
    assert cell.get_attribute("aria-current") == "true"
    assert "◆" in cell.inner_text() and "Lose" in cell.inner_text()
    assert result.get_by_test_id("outcome").inner_text() == "Failure"
    assert "Force against Hostility: Lose" in result.get_by_test_id("decided-caption").inner_text()
    assert result.get_by_test_id("played-gm").inner_text().startswith("The GM")
    assert page.locator("#announcer").inner_text() == "Wren plays Force against Hostility: Lose. Failure."
    both_sizes(page, screenshot, "manners-test-revealed")
    assert violations(page) == []
    assert_fits(page, 320, screenshot, "manners-test-revealed")

    # Log it: one sentence announced, then a new conflict with the same people.
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("heading", name="Result (logged)").wait_for()
    assert page.locator("#announcer").inner_text() == "Wren plays Force against Hostility: Lose. Failure."
    page.get_by_role("button", name="New conflict").tap()
    page.get_by_role("button", name="Hostility").wait_for()
    assert page.get_by_label("Who").input_value() != ""


def test_gm_says_enters_the_complication_at_reveal_time(app):
    page = app
    switch_to_manner_cards(page)
    page.get_by_role("button", name="GM says").tap()
    page.get_by_role("button", name="Difficulty 3").tap()
    page.get_by_label("Force", exact=True).fill("4")
    page.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 4").tap()
    page.get_by_role("button", name="Lock Manner for The player").tap()
    page.get_by_test_id("side-gm").get_by_role("button", name="Time").tap()
    result = page.get_by_test_id("result")
    # Force against Time is "+2": 4 + 2 = 6 against 3.
    assert result.get_by_test_id("outcome").inner_text() == "Success"
    assert "6 against 3" in result.get_by_test_id("decision").inner_text()
    assert page.locator("#announcer").inner_text() == "The player plays Force against Time: +2, 6 against 3. Success."
    # The cards flip in under 400 ms, and not at all under reduced motion; the result is already there.
    card = result.get_by_test_id("played-gm").locator(".face-up")
    style = "(element) => [getComputedStyle(element).animationName, getComputedStyle(element).animationDuration]"
    name, declared = card.evaluate(style)  # the stylesheet's value, not a measured time
    flip_seconds = float(declared.removesuffix("s"))
    assert name == "card-flip" and flip_seconds < 0.4
    page.emulate_media(reduced_motion="reduce")
    assert card.evaluate(style)[0] == "none"


def lock_both(page, opponent_descriptors: int = 0):
    """Wren plays Force, then the opponent (typed numbers, Force 3 + 2) plays Force."""
    page.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 3").tap()
    page.get_by_role("button", name="Lock Manner for Wren").tap()
    # The second side picks on the same phone: the first side's card shows only its back.
    page.get_by_role("img", name="Wren's Manner card, face down").wait_for()
    assert page.get_by_test_id("cards-player").get_by_role("button", name=re.compile("rating")).count() == 0
    opponent = page.get_by_test_id("side-opponent")
    for _ in range(opponent_descriptors):
        opponent.get_by_role("button", name="Descriptors for a tie: one more").tap()
    page.get_by_test_id("cards-opponent").get_by_role("button", name="Force, rating 3").tap()
    page.get_by_role("button", name="Lock Manner for Ghoul").tap()
    page.get_by_role("img", name="Ghoul's Manner card, face down").wait_for()


def test_confrontation_ties_go_to_descriptors_or_end_in_a_compromise(app, screenshot):
    page = calm(app)
    switch_to_manner_cards(page)
    add_wren(page)
    page.get_by_role("button", name="Confrontation").tap()
    assert "Leave the scene" in page.get_by_text("Leave the scene").inner_text()
    page.get_by_label("Who").first.select_option(label="Wren")
    page.locator("#manners-player-skill").select_option("Climb")
    opponent = page.get_by_test_id("side-opponent")
    opponent.get_by_label("Name").fill("Ghoul")
    opponent.get_by_label("Force", exact=True).fill("3")
    opponent.get_by_role("button", name="Skill or Spell rating: one more").tap()
    opponent.get_by_role("button", name="Skill or Spell rating: one more").tap()
    both_sizes(page, screenshot, "manners-confrontation-setup")
    assert_fits(page, 320, screenshot, "manners-confrontation-setup")

    # Force against Force is "+0": 5 against 5, and Wren's Strong breaks the tie.
    lock_both(page)
    both_sizes(page, screenshot, "manners-confrontation-face-down")
    assert violations(page) == []
    page.get_by_role("button", name="Reveal the cards").tap()
    result = page.get_by_test_id("result")
    assert result.get_by_test_id("outcome").inner_text() == "Success"
    assert "more descriptors (1 to 0)" in result.get_by_test_id("decision").inner_text()
    cell = result.get_by_test_id("confrontation-table").get_by_test_id("decided-cell")
    assert (cell.get_attribute("data-row"), cell.get_attribute("data-column")) == ("Force", "Force")
    assert page.locator("#announcer").inner_text() == \
        "Wren plays Force against Ghoul's Force: +0, 5 against 5, tie broken by descriptors. Success."
    both_sizes(page, screenshot, "manners-confrontation-revealed")
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("button", name="New conflict").tap()

    # The same again, but Ghoul has a descriptor too: an unbroken tie is a compromise.
    lock_both(page, opponent_descriptors=1)
    page.get_by_role("button", name="Reveal the cards").tap()
    result = page.get_by_test_id("result")
    assert result.get_by_test_id("outcome").inner_text() == "Compromise"
    assert "do not break it (1 each)" in result.get_by_test_id("decision").inner_text()
    assert "compromise" in result.get_by_test_id("meaning").inner_text().lower() or \
        "compromised" in result.get_by_test_id("meaning").inner_text()
    assert page.locator("#announcer").inner_text() == \
        "Wren plays Force against Ghoul's Force: +0, 5 against 5. Compromise."
    both_sizes(page, screenshot, "manners-confrontation-compromise")
