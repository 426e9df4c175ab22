"""Anomaly at the table, driven like a person on a phone: taps, labels, real d10s."""
from conftest import DESKTOP, PHONE
from test_accessibility import violations

ANOMALY = "Anomaly"


def shoot(page, screenshot, name):
    """The state on a phone and on a laptop, then back to the phone."""
    screenshot(page, name)
    page.set_viewport_size(DESKTOP["viewport"])
    screenshot(page, name)
    page.set_viewport_size(PHONE["viewport"])


def no_sideways_scroll_at_320(page):
    page.set_viewport_size({"width": 320, "height": 700})
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    page.set_viewport_size(PHONE["viewport"])
    assert width <= 320


def accessible_in_both_themes(page):
    """axe finds nothing in this state, dark or light."""
    found = {}
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        found[scheme] = violations(page)
    assert found == {"dark": [], "light": []}


def add_modifier(card, value, kind="Gear"):
    """Fill the card's "add a modifier" form (opened already) and add it."""
    card.get_by_label("Kind", exact=True).select_option(kind)
    shown = card.locator("output[id$='-new-value']")
    while int(shown.inner_text().replace("−", "-")) < value:
        card.get_by_role("button", name="Value: one more").tap()
    card.get_by_role("button", name="Add this modifier").tap()


def enter_dice(card, name, faces):
    card.get_by_role("group", name=f"How {name}'s dice arrive").get_by_role("button", name="Real dice").tap()
    for face in faces:
        card.get_by_role("group", name=f"Enter a d10 for {name}").get_by_role("button", name=f"Add a die showing {face}",
                                                                              exact=True).tap()


def add_sheet(page, kind, name, modifier_name, kind_of_modifier, value):
    page.get_by_role("button", name="Roster", exact=True).tap()
    page.get_by_role("button", name=f"Add {kind}").tap()
    page.get_by_label("Name", exact=True).first.fill(name)
    page.get_by_role("button", name="Add a modifier").tap()
    row = page.get_by_role("group", name="Modifier 1")
    row.get_by_label("Name").fill(modifier_name)
    row.get_by_label("Kind", exact=True).select_option(kind_of_modifier)
    row.get_by_label("Value").fill(str(value))
    page.get_by_role("button", name="Save").tap()
    page.get_by_text(f"{name} saved.").wait_for()


def test_check_with_real_dice_chips_left_out_odds_and_log(app, screenshot):
    page = app
    page.get_by_role("button", name=ANOMALY, exact=True).tap()
    card = page.get_by_test_id("side-actor")
    card.get_by_label("Name").fill("Rook")
    for _ in range(2):
        card.get_by_role("button", name="Good dice: one more").tap()
    card.get_by_role("button", name="Bad dice: one more").tap()
    assert card.get_by_test_id("net-actor").inner_text() == "2 good − 1 bad = roll 2, keep highest."

    card.get_by_role("button", name="Add a modifier").tap()
    add_modifier(card, 2)
    add_modifier(card, 1)
    chips = card.get_by_test_id("chip")
    assert chips.count() == 2
    assert "counts" in chips.nth(0).inner_text()
    assert "left out: same kind as Gear +2" in chips.nth(1).inner_text()
    assert card.get_by_test_id("modifier-total-actor").inner_text() == "(+2)"

    page.get_by_role("button", name="Difficulty 9").tap()
    assert page.get_by_role("button", name="Difficulty 9").get_attribute("aria-pressed") == "true"
    chance = card.get_by_test_id("chance-actor")
    chance.wait_for()  # once icepool is in
    assert chance.inner_text().endswith("%")
    said = card.get_by_test_id("odds-actor").locator("svg[role=img]").first.get_attribute("aria-label")
    assert "With 1 more good die: " in said  # the bars' text equivalent
    # Leaving the +2 out changes the odds at once (the +1 then counts).
    before = chance.inner_text()
    chips.nth(0).tap()
    assert "off for this roll" in chips.nth(0).inner_text() and "counts" in chips.nth(1).inner_text()
    assert chance.inner_text() != before
    chips.nth(0).tap()
    assert chance.inner_text() == before
    card.get_by_role("button", name="Add a modifier").tap()  # close the form
    shoot(page, screenshot, "anomaly-check-setup")
    no_sideways_scroll_at_320(page)
    accessible_in_both_themes(page)

    # Typed faces are checked: a d10 has no 11, and 2 dice are rolled here, not 3.
    enter_dice(card, "Rook", [])
    card.get_by_label("Or type the faces").fill("11")
    card.get_by_label("Or type the faces").press("Enter")  # typed faces count once the field is done with
    assert page.get_by_role("alert").inner_text().startswith("A d10 shows 1 to 10, not 11.")
    card.get_by_label("Or type the faces").fill("3 7 5")
    card.get_by_label("Or type the faces").press("Enter")
    assert "Rook rolls 2 dice" in page.get_by_role("alert").inner_text()
    card.get_by_role("button", name="Clear").tap()
    picker = card.get_by_role("group", name="Enter a d10 for Rook")
    picker.get_by_role("button", name="Add a die showing 8", exact=True).tap()
    assert "(1 of 2 entered)" in card.get_by_test_id("entered-actor").inner_text()
    shoot(page, screenshot, "anomaly-real-dice-entry")
    card.get_by_role("button", name="Remove last").tap()  # a typo, taken back
    assert "(0 of 2 entered)" in card.get_by_test_id("entered-actor").inner_text()
    assert card.get_by_role("button", name="Remove last").is_disabled()
    enter_dice(card, "Rook", [3, 7])
    tray = card.get_by_role("group", name="Rook's dice")
    assert tray.get_by_role("img", name="Die 2: 7, kept").is_visible()
    assert tray.get_by_role("img", name="Die 1: 3").is_visible()
    assert "KEPT" in tray.inner_text().upper()
    assert card.get_by_test_id("side-total").inner_text() == "9"
    assert page.evaluate("() => document.activeElement.id") == "anomaly-actor-sum"  # the picker folded away

    result = page.get_by_test_id("result")
    assert result.get_by_test_id("total").inner_text() == "7 + 2 = 9"
    assert result.get_by_test_id("margin").inner_text() == "0"
    assert result.get_by_test_id("outcome").inner_text().endswith("Failure")
    assert "Equal is not enough" in result.get_by_test_id("equal-note").inner_text()
    assert "Within one kind only the largest modifier applies" in result.inner_text()
    assert "Settled: rolled" in card.get_by_test_id("settled").inner_text()
    assert card.get_by_role("button", name="Good dice: one more").count() == 0
    shoot(page, screenshot, "anomaly-check-rolled")
    no_sideways_scroll_at_320(page)
    accessible_in_both_themes(page)

    page.get_by_role("button", name="Log this result").tap()
    assert page.locator("#announcer").inner_text() == "Rook rolls 7 + 2 = 9 against 9. Failure: equal is not enough."
    assert "Result (logged)" in result.inner_text()
    new_roll = page.get_by_role("button", name="New roll")
    assert new_roll.is_visible()
    shoot(page, screenshot, "anomaly-check-logged")
    no_sideways_scroll_at_320(page)
    accessible_in_both_themes(page)

    new_roll.tap()
    assert card.get_by_test_id("chip").count() == 2  # the same modifiers for the next roll
    assert page.get_by_test_id("waiting").inner_text() == "Waiting for Rook's real dice."


def test_opposed_with_sheets_real_dice_then_a_total_from_another_phone(app, screenshot):
    page = app
    page.get_by_role("button", name=ANOMALY, exact=True).tap()
    add_sheet(page, "a character", "Rook", "Sword", "Gear", 2)
    screenshot(page, "anomaly-roster")
    add_sheet(page, "an adversary", "Vex", "Strong", "Attribute", 1)
    page.get_by_role("button", name="Conflict", exact=True).tap()
    page.get_by_role("button", name="Opposed roll").tap()

    attacker = page.get_by_test_id("side-actor")
    defender = page.get_by_test_id("side-defender")
    assert attacker.get_by_label("Who").input_value() != ""  # Rook, picked for us
    assert "+2 Sword" in attacker.get_by_test_id("chip").inner_text()
    assert "+1 Strong" in defender.get_by_test_id("chip").inner_text()
    assert "off for this roll" in attacker.get_by_test_id("chip").inner_text()  # nothing applied unasked
    attacker.get_by_test_id("chip").tap()
    defender.get_by_test_id("chip").tap()
    defender.get_by_role("button", name="Good dice: one more").tap()
    defender.get_by_test_id("chance-defender").wait_for()
    bars = defender.get_by_test_id("odds-defender").locator("svg[role=img]").first
    assert "With 1 more bad die: " in bars.get_attribute("aria-label")
    attacker.get_by_test_id("chance-actor").wait_for()
    shoot(page, screenshot, "anomaly-opposed-setup")
    no_sideways_scroll_at_320(page)

    enter_dice(attacker, "Rook", [6])
    enter_dice(defender, "Vex", [2, 4])  # one good die: keeps 4
    assert defender.get_by_role("img", name="Die 2: 4, kept").is_visible()
    result = page.get_by_test_id("result")
    assert result.get_by_test_id("defender-total").inner_text() == "4 + 1 = 5"
    assert result.get_by_test_id("margin").inner_text() == "+3"
    assert result.get_by_test_id("outcome").inner_text().endswith("Success")
    shoot(page, screenshot, "anomaly-opposed-rolled")
    page.get_by_role("button", name="Log this result").tap()
    assert page.locator("#announcer").inner_text() == "Rook rolls 6 + 2 = 8 against Vex's 4 + 1 = 5. Success by 3."
    shoot(page, screenshot, "anomaly-opposed-logged")

    # Vex rolled on the GM's phone: only the total comes over.
    page.get_by_role("button", name="New roll").tap()
    defender.get_by_role("group", name="How Vex's dice arrive").get_by_role("button", name="Total only").tap()
    assert defender.get_by_role("button", name="Good dice: one more").count() == 0
    assert "once the defender's total is in" in attacker.inner_text()
    defender.get_by_label("Vex's total, as announced").fill("8")
    attacker.get_by_test_id("chance-actor").wait_for()
    enter_dice(attacker, "Rook", [6])
    assert result.get_by_test_id("defender-total").inner_text() == "8 (given)"
    assert result.get_by_test_id("outcome").inner_text().endswith("Failure")
    assert "The defender's total was given, not rolled here." in result.inner_text()
    shoot(page, screenshot, "anomaly-opposed-total")
    no_sideways_scroll_at_320(page)
    accessible_in_both_themes(page)
    page.get_by_role("button", name="Log this result").tap()
    assert page.locator("#announcer").inner_text() == (
        "Rook rolls 6 + 2 = 8 against Vex's 8 (given). Failure: equal is not enough.")


def test_sheet_editor_and_a_roll_here(app, screenshot):
    page = app
    page.get_by_role("button", name=ANOMALY, exact=True).tap()
    page.get_by_role("button", name="Roster", exact=True).tap()
    page.get_by_role("button", name="Add a character").tap()
    page.get_by_label("Name", exact=True).first.fill("Wren")
    for _ in range(2):
        page.get_by_role("button", name="Add a modifier").tap()
    second = page.get_by_role("group", name="Modifier 2")
    second.get_by_label("Kind", exact=True).select_option(label="Other…")
    second.get_by_label("Kind name").fill("Magic")
    second.get_by_label("Value").fill("-1")
    second.get_by_label("Stacks with others of its kind").check()
    shoot(page, screenshot, "anomaly-sheet")
    no_sideways_scroll_at_320(page)
    accessible_in_both_themes(page)
    page.get_by_role("button", name="Save").tap()
    assert "Gear +1 · Magic −1, stacks" in page.get_by_test_id("roster-entry").inner_text()

    page.get_by_role("button", name="Conflict", exact=True).tap()
    card = page.get_by_test_id("side-actor")
    assert card.get_by_test_id("chip").count() == 2  # the new character took the untouched form
    card.get_by_role("button", name="Bad dice: one more").tap()
    assert "The GM sets the difficulty first, then the roll." in card.inner_text()
    page.get_by_role("button", name="Difficulty 6").tap()
    card.get_by_role("button", name="Roll 2 dice").tap()
    card.get_by_role("group", name="Wren's dice").get_by_role("img", name="kept").wait_for()
    assert card.get_by_role("img").count() == 2
    assert "Kept the lowest (bad dice)." in card.inner_text()
    announced = page.locator("#announcer").inner_text()
    assert announced.startswith("Wren rolls ") and ", keeps " in announced
    assert page.evaluate("() => document.activeElement.id") == "anomaly-actor-sum"
    assert "Pick a difficulty" not in card.inner_text()  # no odds once rolled
    page.get_by_test_id("outcome").wait_for()
