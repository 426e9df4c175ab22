"""The table's flow as a group plays it (issue 24): a GM and players on their own phones
(browser contexts at 390x844, touch), joining by link, rolling and logging. No dead end, no
wrong word on a player's phone, one name per person, dialogs that keep focus, a Log whose
numbers never move, and as few taps as the rules allow. Screenshots at 390x844 and 1280x800."""
from __future__ import annotations

import copy
import re

import pytest

from session import check_roster_entry
from session.links.v1 import encode_session

from conftest import PHONE, READY, BOOT_TIMEOUT_MS
from test_accessibility import violations
from test_sessions import both_sizes, message, nav, party
from test_table_of_phones import table

ROLL = re.compile(r"^Roll \d+ di(c)?e$")
GM_WORDS = ("Waiting for the GM to roll", "The GM rolls for the environment first")
FOCUS_IN = "(selector) => !!document.activeElement && !!document.activeElement.closest(selector)"


@pytest.fixture
def gm_and_ash(browser, watch):
    """Two phones at the table, each its own browser context: the GM's and Ash's."""
    contexts = [browser.new_context(**PHONE) for _ in range(2)]
    for context in contexts:
        watch.attach(context)
    yield [context.new_page() for context in contexts]
    for context in contexts:
        context.close()


def opened(page, url: str):
    page.goto(url)
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    return page


def app_text(page) -> str:
    return page.locator("#app").inner_text()


def focus_is_in(page, selector: str) -> bool:
    return page.evaluate(FOCUS_IN, selector)


def with_ghoul(session: dict) -> dict:
    session["roster"].append(check_roster_entry({"system": "tension", "kind": "adversary", "name": "Ghoul",
                                                 "power": 4, "health": 10, "traits": []}))
    return session


def test_a_fresh_player_goes_from_the_gms_link_to_a_logged_roll_without_a_wrong_word(gm_and_ash, site, screenshot):
    gm, ash = gm_and_ash
    opened(gm, site + "#" + encode_session(table()))

    # The join chooser is a dialog: focus in it, Tab stays in it, Escape puts it away.
    chooser = gm.get_by_test_id("role-chooser")
    chooser.wait_for()
    assert "2 characters" in message(gm)  # two people, each with a sheet in three rule systems
    assert focus_is_in(gm, "[data-testid=role-chooser]")
    for _ in range(6):
        gm.keyboard.press("Tab")
        assert focus_is_in(gm, "[data-testid=role-chooser]")
    assert violations(gm) == []
    both_sizes(gm, screenshot, "flow-join-chooser", chooser)
    gm.keyboard.press("Escape")
    chooser.wait_for(state="detached")
    # "Not now" is not never: the session bar asks again, and so does the link.
    gm.get_by_role("button", name="Whose phone is this?").tap()
    chooser.wait_for()
    gm.keyboard.press("Escape")
    chooser.wait_for(state="detached")
    assert focus_is_in(gm, "[data-testid=holder]")  # back to what opened it
    nav(gm, "Session")
    link = gm.get_by_test_id("session-link").input_value()
    opened(gm, link)
    chooser.wait_for()
    chooser.get_by_role("button", name="The GM").tap()

    opened(ash, link)
    ash.get_by_test_id("role-chooser").get_by_role("button", name="Ash").tap()
    assert ash.get_by_test_id("side-player").is_visible()  # joined straight onto the conflict
    assert "“Log and show to the GM”" in message(ash)
    words = app_text(ash)
    assert not any(gm_words in words for gm_words in GM_WORDS) and "Rolls with your dice" in words
    both_sizes(ash, screenshot, "flow-player-conflict-tension")

    taps = 0
    for _ in range(2):  # the next conflict needs no extra tap
        ash.get_by_test_id("side-player").get_by_role("button", name=ROLL).tap()
        ash.get_by_role("button", name="Log and show to the GM").tap()
        dialog = ash.get_by_test_id("handoff")
        dialog.wait_for()
        assert focus_is_in(ash, "[data-testid=handoff]")
        roll = dialog.get_by_test_id("handoff-link").input_value()
        ash.get_by_role("button", name="Done").tap()
        taps += 3
        ash.get_by_text("Ready for the next roll").wait_for()
        opened(gm, roll)
        gm.get_by_role("button", name="Add to this session").tap()
        gm.get_by_text("roll to “").wait_for()
    print(f"\nA player's Tension roll, with no choices: {taps / 2:g} taps each time, the GM's 2.")
    nav(gm, "Log")
    assert gm.locator("#log-who option").all_inner_texts() == ["Everyone", "Ash", "Brin"]  # people, once each
    assert taps / 2 <= 3

    for system, testid in (("Anomaly", "side-actor"), ("Manner Cards", "cards-player")):
        ash.get_by_role("navigation", name="Rule system").get_by_role("button", name=system).tap()
        ash.get_by_test_id(testid).wait_for()
        words = app_text(ash)
        assert not any(gm_words in words for gm_words in GM_WORDS), system
        assert "Waiting for Ash" not in words, system  # this phone is Ash's: it speaks to Ash
        if system == "Manner Cards":  # the GM's card is the GM's: no face-down choice, no sealing here
            assert "Put a Complication face down" not in words and ash.get_by_test_id("seal-offer").count() == 0
        assert violations(ash) == []
        both_sizes(ash, screenshot, f"flow-player-conflict-{system.lower().replace(' ', '-')}")


def test_typing_a_total_leaves_no_dead_end_and_the_attack_is_filed_under_the_attacker(app, open_app, site):
    page = opened(app, site + "#" + encode_session(with_ghoul(party())))
    page.get_by_test_id("role-chooser").get_by_role("button", name="The GM").tap()
    page.get_by_role("button", name="An adversary").tap()
    initiator = page.get_by_test_id("side-initiator-0")
    initiator.get_by_label("Who").select_option(label="Ghoul (adversary)")
    initiator.get_by_role("button", name="Total only").tap()
    initiator.get_by_label(re.compile("total, as announced")).fill("12")
    defender = page.get_by_test_id("side-defender")
    defender.get_by_role("button", name=ROLL).wait_for()  # without leaving the screen
    assert initiator.get_by_label(re.compile("total, as announced")).input_value() == "12"
    defender.get_by_role("button", name=ROLL).tap()
    page.get_by_role("button", name="Log this result").tap()
    nav(page, "Log")
    assert "Ghoul" in page.locator(".log-by").first.inner_text()


def test_a_fresh_sessions_first_roll_is_still_on_the_table_after_a_reload(app):
    page = app
    page.get_by_test_id("side-gm").get_by_role("button", name=ROLL).tap()
    dice = page.get_by_test_id("side-gm").locator(".die").all_inner_texts()
    assert dice
    page.wait_for_timeout(1200)  # what a phone put away gets: the snapshot and the saving settle
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert page.get_by_test_id("side-gm").locator(".die").all_inner_texts() == dice  # never a re-roll


def test_the_update_dialog_keeps_its_buttons_in_reach_and_focus_in_it(app, site, screenshot):
    first = party()
    page = opened(app, site + "#" + encode_session(first))
    page.get_by_test_id("role-chooser").get_by_role("button", name="The GM").tap()
    nav(page, "Roster")
    more = copy.deepcopy(first)
    for number in range(14):  # a long list of changes: new people
        more["roster"].append(check_roster_entry({"system": "tension", "kind": "character", "name": f"Newcomer {number}",
                                                  "ap": 2, "health": 10, "willpower": 10, "attributes": [],
                                                  "skills": []}))
    opened(page, site + "#" + encode_session({**more, "tension": 9}))
    dialog = page.get_by_test_id("join-prompt")
    dialog.filter(has_text="Update this session?").wait_for()
    assert focus_is_in(page, "[data-testid=join-prompt]")
    update = page.get_by_role("button", name="Update mine from the link")
    box = update.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["viewport"]["height"]
    assert page.get_by_role("button", name="Open mine as it is").count() == 0
    assert violations(page) == []
    both_sizes(page, screenshot, "flow-update-dialog", dialog)
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert "stays as it was" in message(page)


def test_a_roll_that_arrives_late_moves_no_number_in_the_log(gm_and_ash, site, screenshot):
    gm, ash = gm_and_ash
    opened(gm, site + "#" + encode_session(party()))
    gm.get_by_test_id("role-chooser").get_by_role("button", name="The GM").tap()
    nav(gm, "Session")
    link = gm.get_by_test_id("session-link").input_value()
    opened(ash, link)
    ash.get_by_test_id("role-chooser").get_by_role("button", name="Ash").tap()

    # Ash rolls while the GM's phone sees nothing of it; the GM logs two conflicts meanwhile.
    ash.get_by_test_id("side-player").get_by_role("button", name=ROLL).tap()
    ash.get_by_role("button", name="Log and show to the GM").tap()
    late = ash.get_by_test_id("handoff-link").input_value()
    nav(gm, "Conflict")
    for _ in range(2):
        gm.get_by_test_id("side-gm").get_by_role("button", name=ROLL).tap()
        gm.get_by_test_id("side-player").get_by_role("button", name=ROLL).tap()
        gm.get_by_role("button", name="Log this result").tap()
        gm.get_by_role("button", name="New conflict").tap()
    nav(gm, "Log")
    before = gm.locator(".log-meta").all_inner_texts()
    opened(gm, late)
    gm.get_by_role("button", name="Add to this session").tap()
    gm.get_by_text("roll to “").wait_for()
    nav(gm, "Log")
    after = gm.locator(".log-meta").all_inner_texts()
    assert len(after) == 3 and all(line in after for line in before)  # nothing renumbered
    both_sizes(gm, screenshot, "flow-log-after-a-late-roll")


def pressed_system(page) -> str:
    return page.get_by_role("navigation", name="Rule system").locator("[aria-pressed=true]").inner_text()


def test_each_phone_keeps_its_own_rule_system_through_links_and_a_reload(gm_and_ash, site, screenshot):
    gm, ash = gm_and_ash
    opened(gm, site + "#" + encode_session(table()))
    gm.get_by_test_id("role-chooser").get_by_role("button", name="The GM").tap()
    nav(gm, "Session")
    opened(ash, gm.get_by_test_id("session-link").input_value())
    ash.get_by_test_id("role-chooser").get_by_role("button", name="Ash").tap()
    assert pressed_system(ash) == "Tension Engine"  # a joining phone opens on the GM's system

    # The player's tab moves the player's phone only: its link changes nothing on the GM's.
    ash.get_by_role("navigation", name="Rule system").get_by_role("button", name="Manner Cards").tap()
    nav(ash, "Session")
    opened(gm, ash.get_by_test_id("session-link").input_value())
    assert "already have everything" in message(gm) and pressed_system(gm) == "Tension Engine"

    # The GM's tab moves the GM's phone, and is the system phones join in; the player stays where they are.
    gm.get_by_role("navigation", name="Rule system").get_by_role("button", name="Anomaly").tap()
    nav(gm, "Session")
    opened(ash, gm.get_by_test_id("session-link").input_value())
    dialog = ash.get_by_test_id("join-prompt")
    dialog.filter(has_text="Update this session?").wait_for()
    assert "Rule system phones join in" in dialog.inner_text()
    ash.get_by_role("button", name="Update mine from the link").tap()
    dialog.wait_for(state="detached")
    assert pressed_system(ash) == "Manner Cards" and pressed_system(gm) == "Anomaly"
    both_sizes(ash, screenshot, "flow-own-system-player")
    both_sizes(gm, screenshot, "flow-own-system-gm")
    ash.reload()
    ash.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert pressed_system(ash) == "Manner Cards"


def test_a_player_who_joins_plays_their_person_in_every_rule_system(app, site, screenshot):
    """Ash and Brin have Tension Engine sheets only (an older session): Brin's phone opens every
    system on Brin, never on Ash, the roster's first character."""
    page = opened(app, site + "#" + encode_session(party()))
    page.get_by_test_id("role-chooser").get_by_role("button", name="Brin").tap()
    systems = page.get_by_role("navigation", name="Rule system")
    for label in ("Anomaly", "Manner Cards", "Tension Engine"):
        systems.get_by_role("button", name=label).tap()
        page.get_by_test_id("holder").filter(has_text="You: Brin").wait_for()
        words = app_text(page)
        assert "Waiting for Ash" not in words and "for Ash" not in words, label
        if label != "Tension Engine":  # Ash has no sheet there: Brin's is the only one
            assert "Ash" not in page.locator("main").inner_text(), label
        both_sizes(page, screenshot, f"flow-person-{label.split()[0].lower()}")
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    systems.get_by_role("button", name="Anomaly").tap()
    page.get_by_test_id("holder").filter(has_text="You: Brin").wait_for()
    assert "Ash" not in page.locator("main").inner_text()


def test_a_party_typed_once_is_on_the_roster_of_every_rule_system(app, screenshot):
    page = app
    systems = page.get_by_role("navigation", name="Rule system")
    systems.get_by_role("button", name="Manner Cards").tap()
    nav(page, "Roster")
    for name in ("Élodie", "Bo"):
        page.get_by_role("button", name="Add a character").tap()
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_role("button", name="Save").tap()
        page.get_by_text(f"{name} saved.").wait_for()
    for label in ("Tension Engine", "Anomaly"):
        systems.get_by_role("button", name=label).tap()
        names = page.locator(".roster-name").all_inner_texts()
        assert names == ["Élodie", "Bo"], (label, names)
    both_sizes(page, screenshot, "flow-party-typed-once")
