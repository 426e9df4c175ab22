"""Conflicts you can trust, on a 390x844 touch phone, by role and label: each side settles
in the seeds' order, every roll reaches the log (set aside when not resolved, marked with
where its dice came from), damage reaches Health and Undo gives it back, a reload at any
step restores the same screen (the accessibility tree before and after), and once a
result stands it and its main action stay in reach."""
from __future__ import annotations

from conftest import DESKTOP, PHONE, READY
from test_accessibility import violations
from test_tension_flows import add_character, enter_dice


def dismiss(page):
    """Messages are about the last tap and are not kept over a reload: clear them first."""
    while page.get_by_role("button", name="Dismiss").count():
        page.get_by_role("button", name="Dismiss").first.tap()


def tree(page) -> str:
    return page.locator("#app").aria_snapshot()


def same_after_reload(page, screenshot=None, name: str = ""):
    """Reload the page (a phone discarding the tab) and find the same screen."""
    dismiss(page)
    page.wait_for_timeout(150)  # odds load after the first paint: let them settle on both sides
    before = tree(page)
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=60_000)
    page.wait_for_timeout(150)
    if screenshot is not None:
        screenshot(page, name)
        screenshot(page, f"{name}-viewport", full_page=False)
    assert tree(page) == before


def add_adversary(page, name, power):
    page.get_by_role("button", name="Roster").tap()
    page.get_by_role("button", name="Add an adversary").tap()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Power").fill(str(power))
    page.get_by_role("button", name="Save").tap()
    page.get_by_text(f"{name} saved.").wait_for()


def test_the_gm_settles_when_the_player_rolls_and_a_reload_restores_every_step(app, screenshot):
    page = app
    add_character(page, "Ash", 2, ("Grace", 3), ("Climb", 2))
    page.get_by_role("button", name="Conflict").tap()
    gm, player = page.get_by_test_id("side-gm"), page.get_by_test_id("side-player")
    same_after_reload(page)
    assert "The GM rolls for the environment first, then the player." in player.inner_text()
    gm.get_by_role("button", name="Roll 3 dice").tap()
    assert page.locator("#announcer").inner_text().startswith("The GM rolls ")
    same_after_reload(page)
    gm.get_by_role("button", name="Boost +2 (costs 1 Tension)").tap()
    same_after_reload(page)
    player.get_by_role("button", name="Roll 5 dice").tap()
    # The player's dice are on the table: the GM's side is shown, not editable, and says why.
    assert gm.get_by_role("button", name="Boost +2 (costs 1 Tension)").count() == 0
    assert gm.get_by_role("button", name="Die 1", exact=False).count() == 0  # no keep taps either
    assert "Settled: the player has rolled, so the GM's dice and options stand." in gm.inner_text()
    assert "As it stands:" in page.locator("#announcer").inner_text()
    screenshot(page, "procedure-gm-settled")
    same_after_reload(page, screenshot, "procedure-restored-mid-conflict")
    assert "Settled" in gm.get_by_test_id("settled").inner_text()
    page.get_by_role("button", name="Log this result").tap()
    same_after_reload(page)
    page.get_by_role("button", name="Log").tap()
    entry = page.get_by_test_id("log-entry").first
    assert entry.get_by_test_id("provenance").first.inner_text().strip() == "(rolled in the app)"
    entry.get_by_text("What happened").tap()
    assert "boost +2 for 1 Tension" in entry.inner_text()


def test_the_initiator_settles_when_the_defender_rolls_and_damage_is_undone(app, screenshot):
    page = app
    add_character(page, "Ash", 1, ("Might", 3), ("Fight", 2))
    add_adversary(page, "Ghoul", 4)
    page.get_by_role("button", name="Conflict").tap()
    page.get_by_role("button", name="An adversary").tap()
    page.get_by_label("Combat: the initiator deals the difference as damage").check()
    initiator, defender = page.get_by_test_id("side-initiator-0"), page.get_by_test_id("side-defender")
    initiator.get_by_label("Who").select_option(label="Ash")
    defender.get_by_label("Who").select_option(label="Ghoul (adversary)")
    assert defender.get_by_test_id("defender-health").inner_text() == "Health 10"
    enter_dice(initiator, [6, 6, 3, 2, 1])
    assert initiator.get_by_role("button", name="AP spent (has 1): one more").is_visible()
    same_after_reload(page)
    enter_dice(defender, [5, 4, 2, 1])
    # The defender rolled: Ash's kept dice and AP stand; 1 AP now would turn nothing.
    assert initiator.get_by_role("button", name="AP spent (has 1): one more").count() == 0
    assert "Settled: the defender has rolled" in initiator.get_by_test_id("settled").inner_text()
    assert "Ghoul takes 3 damage: Health 10 → 7 when you log this." in page.get_by_test_id("damage").inner_text()
    same_after_reload(page)
    page.get_by_role("button", name="Log this result").tap()
    assert "Ghoul took 3 damage: Health is now 7." in page.get_by_test_id("damage").inner_text()
    page.get_by_role("button", name="Roster").tap()
    assert "Health 7" in page.get_by_test_id("roster-entry").filter(has_text="Ghoul").inner_text()
    page.get_by_role("button", name="Log").tap()
    assert "Ghoul Health −3" in page.get_by_test_id("log-effects").first.inner_text()
    page.get_by_role("button", name="Undo last").tap()
    assert "Ghoul Health +3" in page.get_by_role("alert").inner_text()
    page.get_by_role("button", name="Yes, undo it").tap()
    page.get_by_role("button", name="Roster").tap()
    assert "Health 10" in page.get_by_test_id("roster-entry").filter(has_text="Ghoul").inner_text()


def test_new_conflict_sets_rolled_dice_aside_and_the_log_marks_where_dice_came_from(app, screenshot):
    page = app
    gm, player = page.get_by_test_id("side-gm"), page.get_by_test_id("side-player")
    gm.get_by_role("button", name="Roll 3 dice").tap()
    page.get_by_role("button", name="New conflict").tap()
    assert gm.get_by_role("button", name="Roll 3 dice").is_visible()
    gm.get_by_role("group", name="How The GM's dice arrive").get_by_role("button", name="Total only").tap()
    gm.get_by_label("The GM's total, as announced").fill("7")
    player.get_by_role("group", name="How Player's dice arrive").get_by_role("button", name="Real dice").tap()
    player.get_by_label("Or type the faces").fill("6 2")
    player.get_by_label("Or type the faces").press("Enter")  # typed faces draw the tray like tapped ones
    assert player.get_by_role("button", name="Die 1: 6, kept").is_visible()
    page.get_by_role("button", name="Log this result").tap()
    page.get_by_role("button", name="Log").tap()
    logged, aside = page.get_by_test_id("log-entry").nth(0), page.get_by_test_id("log-entry").nth(1)
    assert "Set aside" in aside.inner_text()
    assert aside.get_by_role("group", name="The GM's dice").get_by_role("img").count() == 3
    assert aside.get_by_role("button", name="Share roll Phone 1").count() == 0
    assert "(rolled in the app)" in aside.inner_text()
    marks = [mark.strip() for mark in logged.get_by_test_id("provenance").all_inner_texts()]
    assert marks == ["(total only)", "(entered by hand)"]
    screenshot(page, "procedure-log-set-aside")
    assert violations(page) == []


def test_an_anomaly_roll_settles_its_difficulty_and_survives_a_reload(app, screenshot):
    page = app
    page.get_by_role("button", name="Anomaly", exact=True).tap()
    card = page.get_by_test_id("side-actor")
    assert "The GM sets the difficulty first, then the roll." in card.inner_text()
    page.get_by_role("button", name="Difficulty 6").tap()
    card.get_by_role("button", name="Good dice: one more").tap()
    card.get_by_role("button", name="Add a modifier").tap()
    card.get_by_label("Name (optional)").fill("High ground")
    card.get_by_role("button", name="Add this modifier").tap()
    same_after_reload(page)
    card.get_by_role("button", name="Roll 2 dice").tap()
    assert "As it stands:" in page.locator("#announcer").inner_text()
    assert page.get_by_role("button", name="Difficulty 9").count() == 0
    assert "Settled: the difficulty stands" in page.get_by_test_id("settled").first.inner_text()
    assert card.get_by_role("button", name="Good dice: one more").count() == 0
    same_after_reload(page, screenshot, "procedure-anomaly-restored")
    page.get_by_role("button", name="New roll").first.tap()
    page.get_by_role("button", name="Log").tap()
    assert "Set aside" in page.get_by_test_id("log-entry").first.inner_text()


def test_a_face_down_complication_stays_face_down_over_a_reload(app, screenshot):
    page = app
    page.emulate_media(reduced_motion="reduce")
    page.get_by_role("button", name="Manner Cards").tap()
    gm = page.get_by_test_id("side-gm")
    gm.get_by_role("button", name="Difficulty 6").tap()
    gm.get_by_role("button", name="Hostility").tap()
    same_after_reload(page)
    assert "Hostility" not in page.content()  # never drawn, never in the DOM
    page.get_by_test_id("cards-player").get_by_role("button", name="Force, rating 2").tap()
    same_after_reload(page)
    page.get_by_role("button", name="Lock Manner for The player").tap()
    assert page.get_by_role("button", name="Difficulty 7").count() == 0  # settled with the player's card down
    same_after_reload(page)
    assert "Hostility" not in page.content()
    page.get_by_role("button", name="Reveal the cards").tap()
    same_after_reload(page)
    assert page.get_by_test_id("outcome").is_visible()


def test_the_result_bar_stays_in_reach_on_a_phone_and_a_laptop(app, screenshot):
    page = app
    add_character(page, "Ash", 2, ("Grace", 3), ("Climb", 2))
    page.get_by_role("button", name="Conflict").tap()
    enter_dice(page.get_by_test_id("side-gm"), [6, 5, 2])
    enter_dice(page.get_by_test_id("side-player"), [6, 4, 3, 1, 1])
    for size, name in ((PHONE["viewport"], "procedure-result-bar"), ({"width": 320, "height": 640}, "procedure-result-bar"),
                       (DESKTOP["viewport"], "procedure-result-bar")):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        bar = page.get_by_test_id("result-bar")
        action = bar.get_by_role("button", name="Log this result")
        box, nav = action.bounding_box(), page.locator(".bottom-nav").bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= nav["y"] + 1, (size, box, nav)  # above the navigation
        assert "Failure" in bar.inner_text()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= size["width"]
        screenshot(page, name, full_page=False)
    page.set_viewport_size(PHONE["viewport"])
    assert violations(page) == []


def test_long_manner_names_fit_their_cards_and_helpers_come_from_the_roster(app, screenshot):
    page = app
    page.emulate_media(reduced_motion="reduce")
    page.get_by_role("button", name="Manner Cards").tap()
    page.get_by_role("button", name="Confrontation").tap()
    page.get_by_test_id("cards-player").get_by_role("button", name="Imagination, rating 2").tap()
    page.get_by_role("button", name="Lock Manner for The player").tap()
    page.get_by_test_id("cards-opponent").get_by_role("button", name="Determination, rating 2").tap()
    page.get_by_role("button", name="Lock Manner for The opponent").tap()
    page.get_by_role("button", name="Reveal the cards").tap()
    fits = """() => [...document.querySelectorAll('.played .manner-card-name')].every(name =>
        name.scrollWidth <= name.parentElement.clientWidth)"""
    apart = """() => { const [a, versus, b] = [...document.querySelector('.played-pair').children]
        .map(element => element.getBoundingClientRect());
        return a.right <= versus.left && versus.right <= b.left; }"""
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        page.get_by_test_id("played-player").scroll_into_view_if_needed()
        assert page.evaluate(fits) and page.evaluate(apart), width
        screenshot(page, "procedure-manners-long-names", full_page=False)
