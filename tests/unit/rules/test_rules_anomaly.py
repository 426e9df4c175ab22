"""Anomaly (seed 001 and RULES.md): one test per rule sentence and pinned reading."""

import pytest

import rules
from rules import FixedDice, RuleError
from rules.words import isolate


def check(dice=None, good=0, bad=0, modifiers=None, difficulty=9):
    return {"v": 1, "system": "anomaly", "kind": "check",
            "actor": {"name": "Rook", "good": good, "bad": bad, "dice": dice, "modifiers": modifiers or []},
            "difficulty": difficulty}


def opposed(actor=None, defender=None):
    return {"v": 1, "system": "anomaly", "kind": "opposed",
            "actor": {"name": "Rook", "good": 0, "bad": 0, "dice": [7], "modifiers": [], **(actor or {})},
            "defender": {"name": "Vex", "good": 0, "bad": 0, "dice": [4], "modifiers": [], **(defender or {})}}


def result_of(record, source=None):
    return rules.resolve(record, source)["result"]


GEAR_2 = {"kind": "Gear", "value": 2, "stacks": False}


def test_check_and_opposed_are_the_two_anomaly_kinds():
    assert rules.SYSTEMS["anomaly"] == ("check", "opposed")


def test_check_uses_the_difficulty_the_gm_sets():
    assert result_of(check(dice=[5], difficulty=12))["difficulty"] == 12


def test_suggested_difficulties_are_multiples_of_three():
    assert rules.SUGGESTED_DIFFICULTIES == (3, 6, 9, 12, 15, 18)


def test_any_difficulty_is_accepted():
    assert result_of(check(dice=[5], difficulty=7))["outcome"] == "failure"
    assert result_of(check(dice=[5], difficulty=0))["outcome"] == "success"
    with pytest.raises(RuleError, match=f"The difficulty must be a whole number from 0 to 99, not '{isolate('hard')}'"):
        rules.resolve(check(dice=[5], difficulty="hard"))


def test_check_compares_total_with_difficulty():
    result = result_of(check(dice=[8], modifiers=[GEAR_2], difficulty=9))
    assert (result["actor"]["total"], result["outcome"], result["margin"]) == (10, "success", 1)


def test_total_equal_to_difficulty_fails():
    result = result_of(check(dice=[7], modifiers=[GEAR_2], difficulty=9))
    assert (result["outcome"], result["margin"]) == ("failure", 0)
    assert "anomaly-tie" in result["notes"]


def test_total_above_difficulty_succeeds():
    assert result_of(check(dice=[10], difficulty=9))["outcome"] == "success"


def test_total_below_difficulty_fails_with_negative_margin():
    result = result_of(check(dice=[3], difficulty=9))
    assert (result["outcome"], result["margin"]) == ("failure", -6)


def test_opposed_defender_rolls():
    resolved = rules.resolve(opposed(defender={"dice": None, "bad": 1}), FixedDice([9, 3]))
    assert resolved["defender"]["dice"] == [9, 3]
    assert resolved["result"]["defender"]["kept"] == 3


def test_defender_total_becomes_the_difficulty():
    result = result_of(opposed(defender={"dice": [4], "modifiers": [GEAR_2]}))
    assert result["difficulty"] == 6
    assert (result["outcome"], result["margin"]) == ("success", 1)


def test_attacker_must_beat_defender_roll():
    result = result_of(opposed(actor={"dice": [6]}, defender={"dice": [6]}))
    assert (result["outcome"], result["margin"]) == ("failure", 0)


def test_defender_may_be_given_as_a_total():
    result = result_of(opposed(defender={"name": "Vex", "total": 6, "dice": None}))
    assert result["defender"] == {"name": "Vex", "given_total": True, "total": 6}
    assert result["outcome"] == "success"
    assert "anomaly-given-total" in result["notes"]


def test_roll_is_one_d10_plus_modifiers():
    resolved = rules.resolve(check(modifiers=[GEAR_2]), FixedDice([4]))
    assert resolved["actor"]["dice"] == [4]
    assert resolved["result"]["actor"]["total"] == 6


def test_multiple_d10_are_not_added():
    result = result_of(check(dice=[4, 9, 7], good=2))
    assert result["actor"]["total"] == 9


def test_kept_die_plus_modifiers_is_total():
    result = result_of(check(dice=[4, 9], good=1, modifiers=[GEAR_2, {"kind": "Size", "value": -1}]))
    assert (result["actor"]["kept"], result["actor"]["modifier_total"], result["actor"]["total"]) == (9, 1, 10)


def test_good_dice_keep_highest():
    result = result_of(check(dice=[2, 8, 5], good=2))
    assert (result["actor"]["keep"], result["actor"]["kept"]) == (1, 8)


def test_bad_dice_keep_lowest():
    result = result_of(check(dice=[2, 8, 5], bad=2))
    assert (result["actor"]["keep"], result["actor"]["kept"]) == (0, 2)


def test_good_and_bad_dice_cancel_one_for_one():
    assert rules.net_dice(3, 1) == {"good": 2, "bad": 0}
    assert rules.net_dice(1, 3) == {"good": 0, "bad": 2}
    assert rules.dice_count(3, 1) == rules.dice_count(1, 3) == 3
    result = result_of(check(dice=[2, 8, 5], good=3, bad=1))
    assert result["actor"]["kept"] == 8
    assert "anomaly-cancel" in result["notes"]


def test_result_reports_net_conditional_dice():
    result = result_of(check(dice=[2, 8], good=2, bad=1))
    assert result["actor"]["good"] == 2 and result["actor"]["bad"] == 1
    assert result["actor"]["net"] == {"good": 1, "bad": 0}
    assert result["actor"]["rolled"] == [2, 8]


def test_two_daggers_against_one_give_one_good_die():
    # Fewer weapons on the target's side: one good die.
    resolved = rules.resolve(check(good=1), FixedDice([3, 7]))
    assert resolved["actor"]["dice"] == [3, 7]
    assert resolved["result"]["actor"]["net"] == {"good": 1, "bad": 0}


def test_two_daggers_roll_two_keep_highest():
    assert result_of(check(dice=[3, 7], good=1))["actor"]["kept"] == 7
    with pytest.raises(RuleError, match=f"{isolate('Rook')}'s roll has 2 dice, but 1 face was given"):
        rules.resolve(check(dice=[3], good=1))


def test_high_ground_gives_one_bad_die():
    resolved = rules.resolve(check(bad=1), FixedDice([3, 7]))
    assert resolved["result"]["actor"]["net"] == {"good": 0, "bad": 1}


def test_high_ground_roll_two_keep_lowest():
    assert result_of(check(dice=[3, 7], bad=1))["actor"]["kept"] == 3


def test_daggers_and_high_ground_cancel_to_one_die():
    resolved = rules.resolve(check(good=1, bad=1), FixedDice([6]))
    assert resolved["actor"]["dice"] == [6]
    assert resolved["result"]["actor"]["net"] == {"good": 0, "bad": 0}
    with pytest.raises(RuleError, match=f"{isolate('Rook')}'s roll has 1 die, but 2 faces were given"):
        rules.resolve(check(dice=[3, 7], good=1, bad=1))


def test_modifiers_add_to_total_not_dice():
    resolved = rules.resolve(check(modifiers=[GEAR_2, {"kind": "Skill", "value": 3}]), FixedDice([5]))
    assert len(resolved["actor"]["dice"]) == 1
    assert resolved["result"]["actor"]["total"] == 10


def test_modifier_kinds_include_user_named_kinds():
    result = result_of(check(dice=[5], modifiers=[{"kind": "Luck", "value": 1}, {"kind": "Omens", "value": 2}]))
    assert result["actor"]["total"] == 8


def test_same_kind_only_largest_applies():
    modifiers = [{"kind": "Gear", "value": 1}, {"kind": "Gear", "value": 3}, {"kind": "gear ", "value": 2}]
    result = result_of(check(dice=[5], modifiers=modifiers))
    assert result["actor"]["applied"] == [{"kind": "Gear", "value": 3}]
    assert result["actor"]["left_out"] == [{"kind": "Gear", "value": 1}, {"kind": "gear ", "value": 2}]
    assert result["actor"]["total"] == 8
    assert "anomaly-left-out" in result["notes"]


def test_same_kind_penalties_apply_the_largest_value():
    modifiers = [{"kind": "Size", "value": -3}, {"kind": "Size", "value": -1}]
    assert result_of(check(dice=[5], modifiers=modifiers))["actor"]["modifier_total"] == -1


def test_stacking_modifiers_all_apply():
    modifiers = [{"kind": "Gear", "value": 1, "stacks": True}, {"kind": "Gear", "value": 2, "stacks": True},
                 {"kind": "Gear", "value": 3}, {"kind": "Gear", "value": 1}]
    result = result_of(check(dice=[5], modifiers=modifiers))
    assert result["actor"]["modifier_total"] == 1 + 2 + 3
    assert result["actor"]["left_out"] == [{"kind": "Gear", "value": 1}]
    assert "anomaly-stacks" in result["notes"]


def test_different_kinds_stack():
    applied, left_out = rules.select_modifiers([{"kind": "Size", "value": 1}, GEAR_2, {"kind": "Knowledge", "value": 2}])
    assert len(applied) == 3 and left_out == []


def test_attribute_and_gear_modifiers_both_add():
    result = result_of(check(dice=[5], modifiers=[{"kind": "Attribute", "value": 2}, GEAR_2]))
    assert result["actor"]["total"] == 9


def test_two_attribute_modifiers_leave_one_out():
    result = result_of(check(dice=[5], modifiers=[{"kind": "Attribute", "value": 2}, {"kind": "Attribute", "value": 1}]))
    assert result["actor"]["total"] == 7
    assert result["actor"]["left_out"] == [{"kind": "Attribute", "value": 1}]


def test_common_kinds_offered():
    assert rules.COMMON_KINDS == ("Size", "Attribute", "Skill", "Knowledge", "Gear")


def test_modifier_must_have_kind_and_whole_value():
    with pytest.raises(RuleError, match="Modifier 1 needs a kind"):
        rules.resolve(check(dice=[5], modifiers=[{"value": 2}]))
    with pytest.raises(RuleError, match="The value of the Gear modifier must be a whole number"):
        rules.resolve(check(dice=[5], modifiers=[{"kind": "Gear", "value": 2.5}]))
    with pytest.raises(RuleError, match="stacks must be true or false"):
        rules.resolve(check(dice=[5], modifiers=[{"kind": "Gear", "value": 2, "stacks": "yes"}]))


def test_a_d10_shows_one_to_ten():
    with pytest.raises(RuleError, match="A d10 shows 1 to 10, not 11"):
        rules.resolve(check(dice=[11]))
    with pytest.raises(RuleError, match="A d10 shows 1 to 10, not 0"):
        rules.resolve(check(dice=[0]))
