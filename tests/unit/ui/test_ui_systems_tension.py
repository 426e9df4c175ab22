"""ui.systems.tension under CPython: the Tension Engine screen (view, actions, draft) and its words.
Drafts become the right records, taps follow the rules' limits, and what the view says is what
rules.resolve says. Two tests reach beyond it with this screen's sheets: every screen drawn for a
full table, and what the Log keeps of a Tension Engine conflict (ui.screens.log.record)."""
import re

import pytest

import rules
from session import check_roster_entry, new_session, undo_last
from ui import router
from ui.core.state import AppState
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the Tension buttons)
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the actions)
from ui.systems.tension import draft as draft_model
from ui.systems.tension import odds as tension_odds

from reading import pictures
from samples import seen
from tapping import tap


def character(name="Ash", ap=3, attribute=("Agility", 3), skill=("Climb", 2)):
    return check_roster_entry({
        "system": "tension", "kind": "character", "name": name, "ap": ap, "health": 10, "willpower": 10,
        "attributes": [{"name": attribute[0], "rating": attribute[1]}],
        "skills": [{"name": skill[0], "rating": skill[1]}]})


def adversary(name="Ghoul", power=5):
    return check_roster_entry({"system": "tension", "kind": "adversary", "name": name, "power": power,
                                        "traits": [{"name": "Claws", "rating": 3}], "health": 8})


def table(*entries, tension=5) -> AppState:
    session = new_session()
    session["tension"] = tension
    session["roster"] = list(entries)
    return AppState(session=session)


def enter_real_dice(state, side, faces):
    tap(state, "tension-mode", side=side, value="real")
    for face in faces:
        tap(state, "tension-add-face", side=side, face=face)


def page_text(state) -> str:
    return re.sub(r"<[^>]+>", " ", seen("".join(markup for _, markup in router.page(state))))


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
    assert seen(state.announcement) == "Ash keeps 6 and 5: 11 against the GM's 10. Success."


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


def test_real_dice_typed_in_are_corrected_with_remove_last_until_the_player_rolls():
    state = table(character(), tension=3)
    tap(state, "tension-mode", side="gm", value="real")
    tap(state, "tension-add-face", side="gm", face=6)
    tap(state, "tension-add-face", side="gm", face=3)  # a typo
    tap(state, "tension-remove-face", side="gm")
    tap(state, "tension-add-face", side="gm", face=4)
    tap(state, "tension-add-face", side="gm", face=2)
    gm = state.drafts["tension"]["gm"]
    assert gm["dice"] == [6, 4, 2] and "All 3 dice entered." in page_text(state)
    assert state.focus == "tension-gm-die-0"  # the picker folds away: on to what to keep
    assert 'id="tension-gm-remove-last" data-action="tension-remove-face"' in "".join(
        markup for _, markup in router.page(state))
    tap(state, "tension-remove-face", side="gm")  # the GM's dice stand only once the player rolls
    assert gm["dice"] == [6, 4] and "(2 of 3 entered)" in page_text(state)
    tap(state, "tension-add-face", side="gm", face=1)
    enter_real_dice(state, "player", [6, 5, 4, 3, 2])
    tap(state, "tension-remove-face", side="gm")
    assert gm["dice"] == [6, 4, 1] and "the player has rolled" in state.message.text


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
    markup = "".join(markup for _, markup in router.page(state))
    assert "<b>Ash</b>" not in markup


def test_choosing_another_attribute_or_trait_changes_the_pool_and_clears_the_dice():
    ash = character()
    ash["attributes"].append({"name": "Wits", "rating": 1})
    ghoul = adversary()
    state = table(ash, ghoul)
    enter_real_dice(state, "gm", [3, 3, 3, 3, 3])
    enter_real_dice(state, "player", [6, 5, 4, 3, 2])
    tap(state, "tension-rating", side="player", field="attribute", value="Wits")
    assert "Remove last or Clear to correct a typo" in state.message.text  # every real die entered: the pool stands
    tap(state, "tension-clear", side="player")
    tap(state, "tension-rating", side="player", field="attribute", value="Wits")
    draft = state.drafts["tension"]
    assert draft_model.pool(state, draft, draft["player"]) == 3 and not draft["player"]["dice"]
    tap(state, "tension-kind", value="opposed")
    draft = state.drafts["tension"]
    tap(state, "tension-who", side="initiator-0", value=ghoul["id"])
    tap(state, "tension-rating", side="initiator-0", field="trait", value="Claws")
    assert draft_model.pool(state, draft, draft["initiators"][0]) == 3


# --- The seeds' order: who settles when ----------------------------------------------------------

def roll_with(monkeypatch, faces):
    monkeypatch.setattr(rules.dice, "DEFAULT_SOURCE", rules.FixedDice(list(faces)))


def test_the_player_rolls_after_the_gm_and_then_the_gms_side_is_settled(monkeypatch):
    state = table(character(ap=3), tension=5)
    tap(state, "tension-roll", side="player")
    assert state.drafts["tension"]["player"]["dice"] is None and "GM rolls for the environment first" in state.message.text
    assert "The GM rolls for the environment first, then the player." in words_of(state)
    roll_with(monkeypatch, [6, 5, 4, 2, 1, 6, 6, 2, 1, 1])
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-roll", side="player")
    gm = state.drafts["tension"]["gm"]
    for name, data in (("tension-boost", {}), ("tension-spend", {"step": 1}), ("tension-keep", {"index": 4}),
                       ("tension-mode", {"value": "real"})):
        state.message = None
        tap(state, name, side="gm", **data)
        assert state.message.tone == "error" and "the player has rolled" in state.message.text
    assert gm["boost"] is False and gm["keep"] is None and gm["dice"] == [6, 5, 4, 2, 1]
    text = words_of(state)
    assert "Settled: the player has rolled, so the GM's dice and options stand." in text
    assert "Boost +" not in text  # the GM's options are gone, its total stays
    tap(state, "tension-spend", side="player", step=1)  # the player still spends after rolling (step 5)
    assert state.drafts["tension"]["player"]["keep"] == [0, 1, 2]


def test_against_an_adversary_the_initiator_settles_when_the_defender_rolls(monkeypatch):
    ash, ghoul = character(ap=3), adversary()
    state = table(ash, ghoul, tension=5)
    tap(state, "tension-kind", value="opposed")
    draft = state.drafts["tension"]
    tap(state, "tension-who", side="initiator-0", value=ash["id"])
    tap(state, "tension-who", side="defender", value=ghoul["id"])
    tap(state, "tension-roll", side="defender")
    assert draft["defender"]["dice"] is None and "rolls first" in state.message.text
    roll_with(monkeypatch, [5, 4, 3, 2, 1, 6, 5, 1, 1, 1])
    tap(state, "tension-roll", side="initiator-0")
    tap(state, "tension-roll", side="defender")
    state.message = None
    tap(state, "tension-spend", side="initiator-0", step=1)  # 1 AP after the defender rolled: refused
    assert draft["initiators"][0]["keep"] is None and "the defender has rolled" in state.message.text
    tap(state, "tension-add-initiator")
    assert len(draft["initiators"]) == 1
    tap(state, "tension-spend", side="defender", step=1)  # the defender, rolling second, may still spend
    assert draft["defender"]["keep"] == [0, 1, 2]


def test_the_conflict_keeps_the_tension_it_was_rolled_with(monkeypatch):
    state = table(character(ap=0), tension=13)
    roll_with(monkeypatch, [1] * 13 + [6, 6, 1, 1, 1])
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-step", step=1)  # by hand, after the GM rolled
    assert state.session["tension"] == 14
    draft = state.drafts["tension"]
    assert draft["tension"] == 13 and draft_model.gm_pool(state, draft) == 13
    text = words_of(state)
    assert "Rolls the Tension: 13 dice." in text and "rolled with Tension 13 and keeps it" in text
    assert "now 14 (changed by hand)" in text and "Boost +12" in text
    tap(state, "tension-roll", side="player")
    tap(state, "tension-log")
    record = state.session["log"][0]["record"]
    assert record["tension"] == 13 and record["result"]["tension_after"] == 16  # 12 vs 2: +3 ones
    assert state.session["tension"] == 17  # the change by hand stays: 14 + 3


def test_a_new_conflict_with_dice_on_the_table_sets_them_aside_in_the_log(monkeypatch):
    state = table(character(), tension=5)
    roll_with(monkeypatch, [6, 5, 4, 2, 1])
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-new")
    [entry] = state.session["log"]
    assert entry["kind"] == "set-aside" and "result" not in entry["record"] and entry["effects"] == []
    assert entry["record"]["gm"]["dice"] == [6, 5, 4, 2, 1] and entry["record"]["gm"]["dice_from"] == "app"
    assert state.drafts["tension"]["gm"]["dice"] is None and state.session["tension"] == 5
    assert rules.verify_dice(entry["record"]) == []
    roll_with(monkeypatch, [3, 3, 3, 3, 3])
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-kind", value="opposed")  # another kind with dice on the table: set aside too
    assert [item["kind"] for item in state.session["log"]] == ["set-aside", "set-aside"]
    undone = undo_last(state.session)
    assert len(undone["log"]) == 1 and undone["tension"] == 5


def test_dice_provenance_is_in_the_record(monkeypatch):
    state = table(character(), tension=5)
    tap(state, "tension-mode", side="gm", value="total")
    tap(state, "tension-total", side="gm", value="9")
    enter_real_dice(state, "player", [6, 4, 3, 2, 2])
    tap(state, "tension-log")
    record = state.session["log"][0]["record"]
    assert (record["gm"]["dice_from"], record["player"]["dice_from"]) == ("total", "typed")
    assert rules.verify(record) == []
    roll_with(monkeypatch, [6, 5, 4, 2, 1, 6, 6, 2, 2, 2])
    tap(state, "tension-new")
    tap(state, "tension-mode", side="gm", value="roll")
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-mode", side="player", value="roll")
    tap(state, "tension-roll", side="player")
    tap(state, "tension-log")
    record = state.session["log"][0]["record"]
    assert (record["gm"]["dice_from"], record["player"]["dice_from"]) == ("app", "app")


def test_combat_damage_comes_off_the_defenders_health_and_undo_gives_it_back():
    ash, ghoul = character(ap=0), adversary()
    state = table(ash, ghoul, tension=5)
    tap(state, "tension-kind", value="opposed")
    tap(state, "tension-combat", checked=True)
    tap(state, "tension-who", side="initiator-0", value=ash["id"])
    tap(state, "tension-who", side="defender", value=ghoul["id"])
    enter_real_dice(state, "initiator-0", [6, 5, 1, 1, 1])
    enter_real_dice(state, "defender", [4, 3, 2, 1, 1])
    text = words_of(state)
    assert "Ghoul takes 4 damage: Health 8 → 4 when you log this." in text and "Health 8" in text
    tap(state, "tension-log")
    ghoul_now = state.entry(ghoul["id"])
    assert ghoul_now["health"] == 4
    entry = state.session["log"][0]
    assert {"field": "health", "id": ghoul["id"], "delta": -4} in entry["effects"]
    assert "Ghoul took 4 damage: Health is now 4." in words_of(state)
    state.session = undo_last(state.session)
    assert state.entry(ghoul["id"])["health"] == 8 and state.session["tension"] == 5
    tap(state, "tension-new")
    assert state.drafts["tension"]["combat"] is True  # the last choice stays


def test_several_initiators_each_get_a_result_line_with_their_name():
    bryn, ghoul = character("Bryn"), adversary()
    state = table(bryn, ghoul, tension=5)
    tap(state, "tension-kind", value="opposed")
    tap(state, "tension-who", side="initiator-0", value=bryn["id"])
    tap(state, "tension-add-initiator")
    tap(state, "tension-who", side="defender", value=ghoul["id"])
    enter_real_dice(state, "initiator-0", [4, 4, 1, 1, 1])
    enter_real_dice(state, "initiator-1", [6, 6])
    enter_real_dice(state, "defender", [5, 4, 1, 1, 1])
    text = words_of(state)
    assert "Bryn misses : 8 vs 9, Ghoul holds" in text and "Adversary succeeds : 12 vs 9" in text


def test_a_character_on_both_sides_gets_a_warning():
    ash = character()
    state = table(ash)
    tap(state, "tension-kind", value="opposed")
    tap(state, "tension-who", side="initiator-0", value=ash["id"])
    tap(state, "tension-who", side="defender", value=ash["id"])
    assert "Ash is both an initiator and the defender" in words_of(state)


def test_typed_faces_build_the_same_tray_as_tapped_faces():
    ash = character(ap=3)
    tapped, typed = table(ash), table(ash)
    for state in (tapped, typed):
        enter_real_dice(state, "gm", [3, 3, 2, 2, 1])
        tap(state, "tension-mode", side="player", value="real")
    for face in (5, 4, 3, 1, 1):
        tap(tapped, "tension-add-face", side="player", face=face)
    tap(typed, "tension-type-faces", side="player", value="5 4 3 1 1")
    for region in ("tension-side-gm", "tension-side-player"):
        assert dict(router.page(typed))[region] == dict(router.page(tapped))[region]
    assert 'data-action="tension-keep"' in dict(router.page(typed))["tension-side-player"]
    assert "AP spent (has 3)" in words_of(typed)


def test_rolling_announces_the_dice_and_the_result_as_it_stands(monkeypatch):
    state = table(character(ap=0), tension=5)
    roll_with(monkeypatch, [6, 5, 4, 2, 1, 6, 6, 2, 2, 2])
    tap(state, "tension-roll", side="gm")
    assert seen(state.announcement) == "The GM rolls 6, 5, 4, 2, 1. Total 11."
    tap(state, "tension-roll", side="player")
    assert seen(state.announcement) == ("Ash rolls 6, 6, 2, 2, 2. Total 12. As it stands: "
                                        "Ash keeps 6 and 6: 12 against the GM's 11. Success.")


def test_a_pool_of_no_dice_says_why_and_tension_is_never_lowered_below_two():
    state = table(tension=3)
    tap(state, "tension-step", step=-1)
    tap(state, "tension-step", step=-1)
    assert state.session["tension"] == 2 and "never below 2" in words_of(state)
    state.session["tension"] = 0  # an imported session may hold less
    assert "With Tension 0 the GM has no dice" in words_of(state)


def brute_kept_totals(dice: list[int], most: int) -> list[int]:
    """The best total keeping 2 + k of `dice`, for k = 0..most, by trying every subset."""
    import itertools
    return [max(sum(chosen) for chosen in itertools.combinations(dice, min(len(dice), 2 + k))) for k in range(most + 1)]


def test_after_the_roll_the_odds_say_exactly_what_ap_would_change(monkeypatch):
    state = table(character(ap=3), tension=5)
    enter_real_dice(state, "gm", [6, 6, 4, 2, 1])
    state.odds_ready = {"tension"}
    gm_total = 12
    pool = 5
    import itertools
    from fractions import Fraction
    for ap in range(0, 4):
        wins = sum(1 for faces in itertools.product(range(1, 7), repeat=pool)
                   if sum(sorted(faces, reverse=True)[:2 + ap]) > gm_total)
        assert rules.odds.tension_against_total(pool, ap, gm_total)["success"] == Fraction(wins, 6 ** pool)
        label = "Keep 2:" if ap == 0 else f"Spend {ap} AP:"
        assert f"{label} {percent_of(Fraction(wins, 6 ** pool))}" in " ".join(pictures(state))
    assert any(f"{percent_of(rules.odds.tension_against_total(pool, 0, gm_total)['success'])} beat the GM's 12" in said
               for said in pictures(state))  # the totals keeping 2, what beats the GM's marked
    enter_real_dice(state, "player", [6, 5, 2, 1, 1])
    text = words_of(state)
    assert "Before anyone rolls" not in text and "Chance to beat" not in text
    for ap, total in enumerate(brute_kept_totals([6, 5, 2, 1, 1], 3)):
        label = "Keep 2:" if ap == 0 else f"Spend {ap} AP:"
        verdict = "succeeds" if total > gm_total else "fails"
        assert f"{label} {total} · Ash {verdict}" in text


def percent_of(chance) -> str:
    from ui.kit.percent import percent
    return percent(chance)


def words_of(state) -> str:
    return " ".join(page_text(state).split())


def test_the_log_keeps_what_happened_explosions_with_their_line_and_set_aside_rolls(monkeypatch):
    from ui.screens.log import record as log_record
    state = table(character(ap=1), tension=9)
    state.screen = "log"
    enter_real_dice(state, "gm", [6, 6, 5, 4, 3, 3, 2, 2, 2])
    enter_real_dice(state, "player", [5, 4, 2, 2, 2])
    tap(state, "tension-spend", side="player", step=1)
    roll_with(monkeypatch, [3])  # the Tension Table roll
    tap(state, "tension-log")
    entry = state.session["log"][0]
    line = state.session["tension_table"][2]
    assert entry["table_lines"] == [line]
    lines = [seen(line) for line in log_record.happened_lines(entry["record"], entry["table_lines"])]
    assert "The GM keeps 6, 6 = 12, real dice entered by hand." in lines
    assert "Ash keeps 5, 4, 2 (1 AP spent) = 11, real dice entered by hand." in lines
    assert f"Tension reached 10: rolled 3 on the Tension Table: {line}" in lines
    assert "Changed: Tension +1 · Ash AP −1" in words_of(state)
    tap(state, "show-screen", screen="conflict")
    tap(state, "tension-new")
    enter_real_dice(state, "gm", [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    tap(state, "tension-new")
    state.screen = "log"
    text = words_of(state)
    assert "Set aside Rolled and not resolved" in text and text.count("Share roll") == 1


def test_once_the_initiator_has_rolled_the_defenders_chance_to_hold_is_exact():
    import itertools
    from fractions import Fraction
    ash, ghoul = character(ap=0), adversary(power=4)
    state = table(ash, ghoul, tension=5)
    state.odds_ready = {"tension"}
    tap(state, "tension-kind", value="opposed")
    tap(state, "tension-who", side="initiator-0", value=ghoul["id"])
    tap(state, "tension-who", side="defender", value=ash["id"])
    enter_real_dice(state, "initiator-0", [5, 4, 1, 1])  # the Ghoul settles at 9
    holds = sum(1 for faces in itertools.product(range(1, 7), repeat=5) if sum(sorted(faces)[-2:]) >= 9)
    said = pictures(state)
    assert f"Holds against Ghoul's 9: {percent_of(Fraction(holds, 6 ** 5))}" in said[0]
    assert said[1].endswith(f"{percent_of(Fraction(holds, 6 ** 5))} hold against Ghoul's 9")  # 9 or more shaded
    assert "Before anyone rolls" not in words_of(state)
    enter_real_dice(state, "defender", [4, 4, 3, 2, 1])
    assert dict(router.page(state))["tension-odds"] == ""  # Ash has no AP to spend: the odds step aside


def test_the_gm_in_running_text_is_the_gm_and_a_sentence_says_the_ap_spent():
    from ui.systems.tension import words as tension_words

    state = table(character(ap=3), tension=5)
    assert "Waiting for the GM to roll." in words_of(state)
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 5,
                            "gm": {"name": "The GM", "total": 10},
                            "player": {"name": "Bo", "pool": 4, "dice": [2, 3, 1, 5], "ap": 2}})
    assert seen(tension_words.sentence(record)) == "Bo keeps 5, 3, 2 and 1 (2 AP spent): 11 against the GM's 10. Success."


def test_the_odds_against_the_gms_total_are_the_rules_chances_for_every_pool_ap_and_total():
    """The odds panel reads them from the chances above each total, worked out once per pool and AP."""
    for pool in range(rules.LIMITS["pool"] + 1):
        try:
            rules.odds.tension_kept_totals(pool)
        except rules.RuleError:
            continue  # a pool too large for odds: the panel shows none, as before
        for most_ap in range(min(max(0, pool - 2), 5) + 1):  # past 4 AP the panel shows 4
            for gm_total in range(0, 40):
                rows = tension_odds.against_total_rows(pool, most_ap, gm_total)
                rules_say = [rules.odds.tension_against_total(pool, ap, gm_total)["success"]
                             for ap in range(min(most_ap, 4) + 1)]
                assert [chance for _, chance in rows] == rules_say
