"""Tension Engine at the table, driven like a person on a phone: taps, labels, real dice."""
import re

from conftest import DESKTOP, PHONE


def add_character(page, name, ap, attribute, skill, screenshot=None):
    page.get_by_role("button", name="Roster").tap()
    page.get_by_role("button", name="Add a character").tap()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("AP").fill(str(ap))
    page.get_by_label("Attribute name").first.fill(attribute[0])
    page.get_by_label("Rating").first.fill(str(attribute[1]))
    page.get_by_role("button", name="Add a Skill").tap()
    page.get_by_label("Skill name").fill(skill[0])
    page.get_by_label("Rating").nth(3).fill(str(skill[1]))
    if screenshot:
        screenshot(page, "tension-sheet")
    page.get_by_role("button", name="Save").tap()
    page.get_by_text(f"{name} saved.").wait_for()
    if screenshot:
        screenshot(page, "tension-roster")


def add_adversary(page, name, power):
    page.get_by_role("button", name="Roster").tap()
    page.get_by_role("button", name="Add an adversary").tap()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Power").fill(str(power))
    page.get_by_role("button", name="Save").tap()
    page.get_by_text(f"{name} saved.").wait_for()


def enter_dice(card, faces):
    card.get_by_role("button", name="Real dice").tap()
    for face in faces:
        card.get_by_role("button", name=f"Add a die showing {face}").tap()


def test_environment_conflict_with_real_dice_ap_and_retry(app, screenshot):
    page = app
    add_character(page, "Ash", 2, ("Grace", 3), ("Climb", 2), screenshot)
    page.get_by_role("button", name="Conflict").tap()
    gm = page.get_by_test_id("side-gm")
    player = page.get_by_test_id("side-player")
    assert "Rolls the Tension: 3 dice." in gm.inner_text()
    screenshot(page, "tension-environment-setup")

    enter_dice(gm, [6, 5, 2])
    assert gm.get_by_test_id("side-total").inner_text() == "11"
    enter_dice(player, [6, 4, 3, 1, 1])
    hint = player.get_by_role("button", name="Spend 1 AP to win (you have 2)")
    hint.wait_for()
    assert page.get_by_test_id("outcome").inner_text().endswith("Failure")
    screenshot(page, "tension-environment-rolled")

    hint.tap()
    die = player.get_by_role("button", name="Die 3: 3")
    assert die.get_attribute("aria-pressed") == "true"
    assert page.get_by_test_id("outcome").inner_text().endswith("Success")
    page.get_by_role("button", name="Log this result").tap()

    result = page.get_by_test_id("result")
    assert "Result (logged)" in result.inner_text()
    # 6 + 4 + 3 = 13 against 11; two 1s rolled: Tension 3 -> 5.
    announced = page.locator("#announcer").inner_text()
    assert announced == "Ash keeps 6, 4 and 3 (1 AP spent): 13 against the GM's 11. Success."
    assert page.get_by_test_id("tension").inner_text() == "5"
    assert "Ash 1 AP" in page.locator(".glance-ap").inner_text().replace("\n", " ")
    screenshot(page, "tension-environment-logged")
    page.set_viewport_size(DESKTOP["viewport"])
    screenshot(page, "tension-environment-logged")


def test_real_dice_typed_in_and_corrected_with_remove_last(app, screenshot):
    page = app
    gm = page.get_by_test_id("side-gm")
    gm.get_by_role("group", name="How The GM's dice arrive").get_by_role("button", name="Real dice").tap()
    typed = gm.get_by_label("Or type the faces")
    typed.fill("6 x")
    typed.press("Enter")  # typed faces count once the field is done with
    assert page.get_by_role("alert").inner_text().startswith(
        "Type the faces as numbers from 1 to 6, separated by spaces.")
    assert typed.input_value() == "6 x"  # nothing lost: what was typed stays to be put right
    typed.fill("6 3")
    typed.press("Enter")
    entered = gm.get_by_test_id("entered-gm")
    assert "(2 of 3 entered)" in entered.inner_text() and page.get_by_role("alert").count() == 0
    screenshot(page, "tension-real-dice-entry")
    page.set_viewport_size(DESKTOP["viewport"])
    screenshot(page, "tension-real-dice-entry")
    page.set_viewport_size(PHONE["viewport"])

    gm.get_by_role("button", name="Remove last").tap()  # the 3 was a typo
    assert "(1 of 3 entered)" in entered.inner_text() and typed.input_value() == "6"
    assert gm.get_by_test_id("tray").locator(".die").count() == 1
    picker = gm.get_by_role("group", name="Enter a d6 for The GM")
    for face in (4, 2):
        picker.get_by_role("button", name=f"Add a die showing {face}").tap()
    assert entered.inner_text() == "All 3 dice entered." and picker.count() == 0  # the picker folds away
    assert gm.get_by_test_id("side-total").inner_text() == "10"
    assert page.evaluate("document.activeElement.id") == "tension-gm-die-0"  # on to what to keep
    screenshot(page, "tension-real-dice-entered")
    page.set_viewport_size(DESKTOP["viewport"])
    screenshot(page, "tension-real-dice-entered")
    page.set_viewport_size(PHONE["viewport"])

    gm.get_by_role("button", name="Remove last").tap()  # still the GM's to correct until the player rolls
    assert "(2 of 3 entered)" in entered.inner_text() and typed.input_value() == "6 4"
    picker.get_by_role("button", name="Add a die showing 5").tap()
    assert gm.get_by_test_id("side-total").inner_text() == "11"
    enter_dice(page.get_by_test_id("side-player"), [6, 1])
    assert "Settled: the player has rolled" in gm.get_by_test_id("settled").inner_text()
    assert gm.get_by_role("button", name="Remove last").count() == 0


def test_tie_is_noted_and_retry_costs_one_tension(app):
    page = app
    gm = page.get_by_test_id("side-gm")
    player = page.get_by_test_id("side-player")
    enter_dice(gm, [5, 5, 2])
    enter_dice(player, [6, 4])
    assert page.get_by_test_id("outcome").inner_text().endswith("Tie")
    assert "A tie is not a success" in page.get_by_test_id("result").inner_text()
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("button", name="Try again (+1 Tension)").tap()
    assert "Rolls the Tension: 4 dice." in gm.inner_text()


def test_two_initiators_against_one_defender_in_combat(app, screenshot):
    page = app
    add_character(page, "Ash", 1, ("Might", 3), ("Fight", 2))
    add_adversary(page, "Ghoul", 4)
    add_adversary(page, "Wight", 3)
    page.get_by_role("button", name="Conflict").tap()
    page.get_by_role("button", name="An adversary").tap()
    page.get_by_label("Combat: the initiator deals the difference as damage").check()
    page.get_by_role("button", name="Add an initiator (same action)").tap()
    page.get_by_test_id("side-initiator-0").get_by_label("Who").select_option(label="Ghoul (adversary)")
    page.get_by_test_id("side-initiator-1").get_by_label("Who").select_option(label="Wight (adversary)")
    page.get_by_test_id("side-defender").get_by_label("Who").select_option(label="Ash")
    enter_dice(page.get_by_test_id("side-initiator-0"), [6, 6, 3, 2])
    enter_dice(page.get_by_test_id("side-initiator-1"), [3, 2, 1])
    enter_dice(page.get_by_test_id("side-defender"), [5, 4, 4, 2, 2])
    screenshot(page, "tension-opposed-rolled")
    page.get_by_role("button", name="Log this result").tap()
    outcome = page.get_by_test_id("outcome").inner_text()
    assert "Ghoul succeeds" in outcome and "12 vs 9" in outcome and "3 damage" in outcome
    assert "Ash holds" in outcome
    assert re.search(r"Wight 5 against Ash 9: Wight misses, Ash holds\.", page.locator("#announcer").inner_text())


def test_odds_appear_and_follow_the_pool(app):
    page = app
    odds = page.get_by_test_id("odds")
    odds.wait_for()
    first = odds.inner_text()
    player = page.get_by_test_id("side-player")
    player.get_by_role("button", name="Dice: one more").tap()
    page.wait_for_timeout(50)
    assert odds.inner_text() != first and "3 dice" in page.locator(".odds-title").inner_text()


def test_keyboard_only_environment_roll(app):
    page = app
    page.keyboard.press("Tab")  # skip link
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.textContent")
        if focused.strip() == "Roll 3 dice":
            break
    page.keyboard.press("Enter")
    assert page.get_by_test_id("side-gm").get_by_test_id("tray").locator(".die").count() == 3
    # The Roll button is gone: focus lands on the first die, and Space toggles it.
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == page.locator("#tension-gm-die-0").get_attribute("aria-label")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert page.evaluate("document.activeElement.id") == "tension-gm-die-1"


def test_no_horizontal_scroll_at_320_pixels(app):
    page = app
    page.set_viewport_size({"width": 320, "height": 640})
    for screen in ("Conflict", "Roster"):
        page.get_by_role("button", name=screen).tap()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 320


LINES_OF = """(element) => {
  const range = document.createRange();
  range.selectNodeContents(element);
  return new Set([...range.getClientRects()].map((box) => Math.round(box.bottom))).size;
}"""


def test_side_names_break_only_between_words_at_320_pixels(app, screenshot):
    """A short name stays whole beside (or under) its card's title: "Ash", never "As h"; a name
    longer than the card is broken rather than pushing the page sideways."""
    page = app
    add_character(page, "Ash", 2, ("Grace", 3), ("Climb", 2))
    add_adversary(page, "Abcdefghijklmnopqrstuvwxyzabcdefghijklmnop", 4)
    page.get_by_role("button", name="Conflict").tap()
    page.get_by_role("button", name="An adversary").tap()
    page.get_by_role("button", name="Add an initiator (same action)").tap()
    page.get_by_test_id("side-initiator-0").get_by_label("Who").select_option(label="Ash")
    page.get_by_test_id("side-initiator-1").get_by_label("Who").select_option(
        label="Abcdefghijklmnopqrstuvwxyzabcdefghijklmnop (adversary)")
    page.get_by_test_id("side-defender").get_by_label("Who").select_option(label="Ash")
    page.set_viewport_size({"width": 320, "height": 700})
    names = page.locator(".side-name")
    assert names.count() >= 2
    for index in range(names.count()):
        name = names.nth(index)
        if len(name.inner_text()) <= 12:
            assert name.evaluate(LINES_OF) == 1, name.inner_text()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 320
    for size in ({"width": 320, "height": 700}, PHONE["viewport"], DESKTOP["viewport"]):
        page.set_viewport_size(size)
        screenshot(page, "side-names-whole")
