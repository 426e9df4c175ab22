"""The Tension Engine screen under CPython: drafts become the right records, taps
follow the rules' limits, and what the view says is what rules.resolve says."""
import re

import pytest

import rules
import session as sessions
from ui.core.actions import Input, dispatch
from ui.core.state import AppState
from ui.frame import screens
from ui.kit.html import h
from ui.tension import actions as tension_actions  # noqa: F401  (registers the actions)
from ui.tension import draft as draft_model


def character(name="Ash", ap=3, attribute=("Agility", 3), skill=("Climb", 2)):
    return sessions.check_roster_entry({
        "system": "tension", "kind": "character", "name": name, "ap": ap, "health": 10, "willpower": 10,
        "attributes": [{"name": attribute[0], "rating": attribute[1]}],
        "skills": [{"name": skill[0], "rating": skill[1]}]})


def adversary(name="Ghoul", power=5):
    return sessions.check_roster_entry({"system": "tension", "kind": "adversary", "name": name, "power": power,
                                        "traits": [{"name": "Claws", "rating": 3}], "health": 8})


def table(*entries, tension=5) -> AppState:
    session = sessions.new_session()
    session["tension"] = tension
    session["roster"] = list(entries)
    return AppState(session=session)


def tap(state, name, **data):
    """What a tap, a choice or typing sends: data-* fields (a segment's data-value too) and the value."""
    checked = data.pop("checked", None)
    fields = {key: str(item) for key, item in data.items()}
    assert dispatch(state, name, Input(data=fields, value=fields.get("value"), checked=checked)), name


def enter_real_dice(state, side, faces):
    tap(state, "tension-mode", side=side, value="real")
    for face in faces:
        tap(state, "tension-add-face", side=side, face=face)


def page_text(state) -> str:
    return re.sub(r"<[^>]+>", " ", "".join(markup for _, markup in screens.page(state)))


def test_markup_escapes_names_so_html_in_them_is_only_text():
    markup = h("p", '<img src=x onerror="alert(1)">')
    assert "<img" not in markup and "&lt;img" in markup


def test_a_roster_character_rolls_attribute_plus_skill():
    state = table(character())
    draft = state.draft(draft_model.new_draft)
    assert draft_model.pool(state, draft, draft["player"]) == 5


def test_the_gm_rolls_the_tension_and_one_more_when_trying_again():
    state = table(tension=4)
    draft = state.draft(draft_model.new_draft)
    assert draft_model.pool(state, draft, draft["gm"]) == 4
    draft["retry"] = True
    assert draft_model.pool(state, draft, draft["gm"]) == 5


def test_environment_with_real_dice_resolves_and_logs_like_the_rules_say():
    ash = character()
    state = table(ash, tension=5)
    enter_real_dice(state, "gm", [6, 4, 4, 2, 1])
    enter_real_dice(state, "player", [6, 5, 3, 1, 1])
    record = draft_model.to_record(state, state.drafts["tension"])
    assert record["player"]["dice"] == [6, 5, 3, 1, 1] and record["player"]["id"] == ash["id"]
    expected = rules.resolve(record)["result"]
    assert expected["outcome"] == "success"  # 11 against 10
    assert "Success" in page_text(state)
    tap(state, "tension-log")
    logged = state.session["log"][0]["record"]
    assert logged["result"]["player_total"] == 11 and logged["result"]["gm_total"] == 10
    # Two 1s in the character's dice feed Tension after the conflict.
    assert state.session["tension"] == expected["tension_after"] == 7
    assert state.announcement == "Ash keeps 6 and 5: 11 against 10. Success."


def test_keeping_a_third_die_spends_an_ap_and_logging_takes_it_from_the_sheet():
    state = table(character(ap=1), tension=5)
    enter_real_dice(state, "gm", [6, 6, 4, 2, 1])
    enter_real_dice(state, "player", [6, 5, 2, 1, 1])
    tap(state, "tension-keep", side="player", index=2)
    assert state.drafts["tension"]["player"]["keep"] == [0, 1, 2]
    tap(state, "tension-log")
    assert state.session["log"][0]["record"]["result"]["outcome"] == "success"  # 13 against 12
    assert state.session["roster"][0]["ap"] == 0


def test_a_character_cannot_keep_more_dice_than_their_ap_buys():
    state = table(character(ap=0))
    enter_real_dice(state, "gm", [3, 3, 3, 3, 3])
    enter_real_dice(state, "player", [6, 5, 4, 1, 1])
    tap(state, "tension-keep", side="player", index=2)
    assert state.drafts["tension"]["player"]["keep"] is None
    assert state.message.tone == "error" and "0 AP" in state.message.text


def test_the_app_says_how_many_ap_would_win():
    state = table(character(ap=3), tension=5)
    enter_real_dice(state, "gm", [6, 6, 4, 2, 1])
    enter_real_dice(state, "player", [6, 5, 2, 1, 1])
    assert "Spend 1 AP to win (you have 3)" in page_text(state)
    tap(state, "tension-spend-to", side="player", ap=1)
    assert state.drafts["tension"]["player"]["keep"] == [0, 1, 2]


def test_gm_extra_dice_cannot_spend_tension_below_two():
    state = table(tension=3)
    enter_real_dice(state, "gm", [6, 5, 4])
    tap(state, "tension-spend", side="gm", step=1)
    assert state.drafts["tension"]["gm"]["keep"] == [0, 1, 2]
    tap(state, "tension-spend", side="gm", step=1)
    assert "below 2" in state.message.text
    assert state.drafts["tension"]["gm"]["keep"] == [0, 1, 2]


def test_gm_boost_adds_the_tension_left_after_paying():
    state = table(tension=5)
    enter_real_dice(state, "gm", [6, 5, 1, 1, 1])
    tap(state, "tension-boost", side="gm")
    preview = draft_model.side_preview(state, state.drafts["tension"], state.drafts["tension"]["gm"])
    assert preview["total"] == 11 + 4


def test_a_side_announced_from_another_phone_is_given_as_a_total():
    state = table(character(), tension=5)
    tap(state, "tension-mode", side="gm", value="total")
    tap(state, "tension-total", side="gm", value="9")
    enter_real_dice(state, "player", [6, 4, 3, 2, 2])
    record = draft_model.to_record(state, state.drafts["tension"])
    assert record["gm"] == {"name": "The GM", "total": 9, "dice_from": "total"}
    tap(state, "tension-log")
    assert state.session["log"][0]["record"]["result"]["outcome"] == "success"


def test_a_failure_then_retry_raises_tension_first():
    state = table(character(), tension=5)
    enter_real_dice(state, "gm", [6, 6, 2, 2, 2])
    enter_real_dice(state, "player", [5, 4, 3, 3, 2])
    tap(state, "tension-log")
    assert state.session["tension"] == 6  # failure: +1
    tap(state, "tension-retry")
    draft = state.drafts["tension"]
    assert draft["retry"] and draft["gm"]["dice"] == [] and draft_model.pool(state, draft, draft["gm"]) == 7


def test_real_dice_faces_are_checked():
    state = table(tension=3)
    tap(state, "tension-mode", side="gm", value="real")
    tap(state, "tension-type-faces", side="gm", value="6 7")
    assert "not 7" in state.message.text
    tap(state, "tension-type-faces", side="gm", value="6 5 4 3")
    assert "rolls 3 dice, not 4" in state.message.text


def test_two_initiators_share_the_defenders_single_roll_and_combat_deals_the_difference():
    ash, ghoul, wight = character(), adversary(), adversary("Wight", 3)
    state = table(ash, ghoul, wight, tension=6)
    tap(state, "tension-kind", value="opposed")
    tap(state, "tension-combat", checked=True)
    tap(state, "tension-add-initiator")
    tap(state, "tension-who", side="initiator-1", value=wight["id"])
    enter_real_dice(state, "initiator-0", [6, 6, 1, 1, 1])
    enter_real_dice(state, "initiator-1", [2, 1, 1])
    enter_real_dice(state, "defender", [5, 4, 3, 1, 1])
    tap(state, "tension-log")
    result = state.session["log"][0]["record"]["result"]
    assert result["defender_total"] == 9
    assert [(item["outcome"], item["damage"]) for item in result["initiators"]] == [("initiator", 3), ("defender", 0)]


@pytest.mark.parametrize("screen", ["conflict", "roster", "log", "tables", "session"])
def test_every_screen_renders_for_a_full_table(screen):
    state = table(character('<b>Ash</b>'), adversary(), tension=12)
    state.screen = screen
    markup = "".join(markup for _, markup in screens.page(state))
    assert "<b>Ash</b>" not in markup


def test_choosing_another_attribute_or_trait_changes_the_pool_and_clears_the_dice():
    ash = character()
    ash["attributes"].append({"name": "Wits", "rating": 1})
    ghoul = adversary()
    state = table(ash, ghoul)
    enter_real_dice(state, "gm", [3, 3, 3, 3, 3])
    enter_real_dice(state, "player", [6, 5, 4, 3, 2])
    tap(state, "tension-rating", side="player", field="attribute", value="Wits")
    draft = state.drafts["tension"]
    assert draft_model.pool(state, draft, draft["player"]) == 3 and not draft["player"]["dice"]
    tap(state, "tension-kind", value="opposed")
    draft = state.drafts["tension"]
    tap(state, "tension-who", side="initiator-0", value=ghoul["id"])
    tap(state, "tension-rating", side="initiator-0", field="trait", value="Claws")
    assert draft_model.pool(state, draft, draft["initiators"][0]) == 3
