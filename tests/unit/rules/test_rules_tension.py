"""Tension Engine (seed 000 and RULES.md): one test per rule sentence and pinned reading."""

import pytest

import rules
from rules import FixedDice, RuleError, SpendingError
from rules.words import isolate


def environment(tension=5, gm=None, player=None, **fields):
    record = {"v": 1, "system": "tension", "kind": "environment", "tension": tension,
              "gm": {"dice": None, "keep": None, "boost": False, "extra": 0},
              "player": {"name": "Ash", "pool": 4, "dice": None, "keep": None, "ap": 0}}
    record["gm"].update(gm or {})
    record["player"].update(player or {})
    record.update(fields)
    return record


def opposed(tension=4, initiators=None, defender=None, **fields):
    record = {"v": 1, "system": "tension", "kind": "opposed", "tension": tension, "combat": True,
              "initiators": initiators or [{"name": "Ghoul", "side": "adversary", "pool": 3, "dice": [5, 4, 2]}],
              "defender": {"name": "Ash", "side": "character", "pool": 3, "dice": [3, 3, 2]}}
    record["defender"].update(defender or {})
    record.update(fields)
    return record


def result_of(record, source=None):
    return rules.resolve(record, source)["result"]


# --- Seed 000: conflicts and their two kinds ------------------------------------------------

def test_environment_and_adversary_are_the_two_tension_kinds():
    assert rules.SYSTEMS["tension"] == ("environment", "opposed")


def test_environment_conflict_is_player_against_gm_roll():
    result = result_of(environment(gm={"dice": [6, 2, 1, 1, 1]}, player={"dice": [6, 5, 1, 1]}))
    assert (result["gm_total"], result["player_total"], result["outcome"]) == (8, 11, "success")


def test_environment_gm_rolls_before_the_player():
    # Scripted dice are handed out in order: the GM's five first, then the player's four.
    resolved = rules.resolve(environment(), FixedDice([6, 6, 1, 1, 1, 2, 2, 2, 2]))
    assert resolved["gm"]["dice"] == [6, 6, 1, 1, 1]
    assert resolved["player"]["dice"] == [2, 2, 2, 2]


def test_gm_rolls_as_many_dice_as_tension():
    resolved = rules.resolve(environment(tension=7), rules.SeededSource(3))
    assert len(resolved["gm"]["dice"]) == 7


def test_gm_dice_count_must_match_tension():
    with pytest.raises(RuleError, match=f"{isolate('The GM')}'s roll has 5 dice, but 4 faces were given"):
        rules.resolve(environment(gm={"dice": [6, 5, 4, 3]}))


def test_gm_keeps_two_dice_and_adds_them():
    result = result_of(environment(gm={"dice": [1, 6, 2, 5, 3]}, player={"dice": [1, 1, 1, 1]}))
    assert result["gm"]["kept"] == [6, 5]
    assert result["gm_total"] == 11


def test_keep_defaults_to_highest_dice():
    resolved = rules.resolve(environment(gm={"dice": [3, 6, 3, 5, 1]}, player={"dice": [2, 4, 4, 1]}))
    assert resolved["gm"]["keep"] == [1, 3]
    assert resolved["player"]["keep"] == [1, 2]


def test_chosen_keep_is_respected_even_if_lower():
    result = result_of(environment(gm={"dice": [3, 6, 3, 5, 1]}, player={"dice": [2, 4, 4, 1], "keep": [0, 3]}))
    assert result["player"]["kept"] == [2, 1]
    assert result["player_total"] == 3


def test_boost_adds_tension_left_after_paying():
    result = result_of(environment(tension=5, gm={"dice": [6, 5, 1, 1, 1], "boost": True},
                                   player={"dice": [6, 6, 6, 6]}))
    assert result["gm"]["boost"] == 4
    assert result["gm_total"] == 6 + 5 + 4
    assert result["tension_changes"][0] == {"why": "boost", "change": -1, "after": 4, "who": "The GM"}


def test_extra_dice_cost_one_tension_each():
    result = result_of(environment(tension=5, gm={"dice": [6, 5, 4, 3, 1], "extra": 2},
                                   player={"dice": [2, 2, 2, 2]}))
    assert result["gm"]["kept"] == [6, 5, 4, 3]
    assert result["gm_total"] == 18
    assert result["tension_spent"] == 2
    assert result["tension_changes"][0] == {"why": "extra", "change": -2, "after": 3, "who": "The GM"}


def test_gm_cannot_boost_and_buy_extra_dice_on_one_roll():
    with pytest.raises(SpendingError, match="boost or pay for extra dice on one roll, not both"):
        rules.resolve(environment(gm={"dice": [6, 5, 4, 3, 1], "boost": True, "extra": 1}))


def test_player_rolls_pool_dice():
    resolved = rules.resolve(environment(player={"pool": 9}), rules.SeededSource(1))
    assert len(resolved["player"]["dice"]) == 9


def test_player_keeps_two_dice():
    result = result_of(environment(gm={"dice": [1, 1, 1, 1, 1]}, player={"dice": [3, 6, 5, 4]}))
    assert result["player"]["kept"] == [6, 5]
    assert result["player_total"] == 11


def test_keeping_three_dice_without_ap_is_refused():
    with pytest.raises(SpendingError, match="Ash can keep 2 dice, or 3 by spending 1 AP"):
        rules.resolve(environment(player={"dice": [3, 6, 5, 4], "keep": [1, 2, 3]}))


def test_keeping_fewer_dice_than_paid_for_is_refused():
    with pytest.raises(SpendingError, match="Ash must keep 3 dice: 2, plus 1 bought with AP"):
        rules.resolve(environment(player={"dice": [3, 6, 5, 4], "keep": [1, 2], "ap": 1}))


def test_each_ap_keeps_one_more_die():
    result = result_of(environment(gm={"dice": [1, 1, 1, 1, 1]}, player={"dice": [3, 6, 5, 4], "ap": 2}))
    assert result["player"]["kept"] == [3, 6, 5, 4]
    assert result["player_total"] == 18
    assert result["ap_spent"] == 2


def test_ap_beyond_the_pool_is_refused():
    with pytest.raises(SpendingError, match="at most 2 AP"):
        rules.resolve(environment(player={"dice": [3, 6, 5, 4], "ap": 3}))


def test_higher_player_total_succeeds():
    result = result_of(environment(gm={"dice": [5, 5, 1, 1, 1]}, player={"dice": [6, 5, 2, 2]}))
    assert result["outcome"] == "success"
    assert result["tension_after"] == 5


def test_higher_environment_total_fails_and_adds_tension():
    result = result_of(environment(gm={"dice": [6, 5, 2, 2, 2]}, player={"dice": [5, 5, 2, 2]}))
    assert result["outcome"] == "failure"
    assert result["tension_after"] == 6
    assert {"why": "failure", "change": 1, "after": 6, "who": "Ash"} in result["tension_changes"]


def test_retry_adds_one_tension_before_the_gm_rolls():
    resolved = rules.resolve(environment(tension=5, retry=True, player={"dice": [6, 6, 2, 2]}),
                             FixedDice([1, 1, 1, 1, 1, 1]))
    result = resolved["result"]
    assert len(resolved["gm"]["dice"]) == 6
    assert result["tension_before"] == 5
    assert result["tension_changes"][0] == {"why": "retry", "change": 1, "after": 6, "who": "Ash"}
    assert result["tension_after"] == 6
    assert "tension-retry" in result["notes"]


def test_retry_raises_the_tension_the_gm_can_spend():
    # At Tension 2 the GM can't boost, but trying again raises it to 3 first.
    result = result_of(environment(tension=2, retry=True, gm={"dice": [6, 6, 1], "boost": True},
                                   player={"pool": 2, "dice": [2, 2]}))
    assert result["gm"]["boost"] == 2
    assert result["gm_total"] == 14


def test_retry_is_only_for_environment_conflicts():
    with pytest.raises(RuleError, match="against the environment"):
        rules.resolve(opposed(retry=True))


# --- Seed 000: conflicts against an adversary -----------------------------------------------

def test_opposed_conflict_uses_the_same_keep_rules():
    with pytest.raises(SpendingError, match="Ash can keep 2 dice, or 3 by spending 1 AP"):
        rules.resolve(opposed(defender={"keep": [0, 1, 2]}))


def test_opposed_record_pits_initiator_against_defender():
    result = result_of(opposed())
    assert result["initiators"][0]["total"] == 9
    assert result["defender_total"] == 6


def test_initiator_may_be_character_or_adversary():
    as_character = result_of(opposed(initiators=[{"name": "Ash", "side": "character", "pool": 2, "dice": [6, 6]}],
                                      defender={"name": "Ghoul", "side": "adversary", "pool": 2, "dice": [1, 1]}))
    assert as_character["initiators"][0]["side"] == "character"
    assert as_character["defender"]["side"] == "adversary"
    as_adversary = result_of(opposed())
    assert as_adversary["initiators"][0]["side"] == "adversary"


def test_side_must_be_character_or_adversary():
    with pytest.raises(RuleError, match=f"Unknown side '{isolate('monster')}': choose character or adversary"):
        rules.resolve(opposed(defender={"side": "monster"}))


def test_initiator_rolls_its_pool():
    resolved = rules.resolve(opposed(initiators=[{"name": "Ghoul", "side": "adversary", "pool": 7}]),
                             rules.SeededSource(2))
    assert len(resolved["initiators"][0]["dice"]) == 7


def test_initiator_keeps_two_dice():
    result = result_of(opposed(initiators=[{"name": "Ghoul", "side": "adversary", "pool": 4, "dice": [2, 6, 3, 5]}]))
    assert result["initiators"][0]["kept"] == [6, 5]


def test_character_initiator_spends_ap():
    result = result_of(opposed(initiators=[{"name": "Ash", "side": "character", "pool": 4, "dice": [2, 6, 3, 5], "ap": 1}],
                               defender={"name": "Ghoul", "side": "adversary"}))
    assert result["initiators"][0]["total"] == 14
    assert result["initiators"][0]["ap_spent"] == 1


def test_adversary_initiator_spends_tension():
    result = result_of(opposed(tension=6, initiators=[{"name": "Ghoul", "side": "adversary", "pool": 3,
                                                       "dice": [5, 4, 2], "boost": True}]))
    # Boost pays 1 and adds the Tension left (RULES.md pins "remaining" for both kinds).
    assert result["initiators"][0]["boost"] == 5
    assert result["initiators"][0]["total"] == 14
    assert result["tension_spent"] == 1


def test_adversary_cannot_boost_and_buy_extra_dice():
    with pytest.raises(SpendingError, match="not both"):
        rules.resolve(opposed(tension=9, initiators=[{"name": "Ghoul", "side": "adversary", "pool": 3,
                                                      "dice": [5, 4, 2], "boost": True, "extra": 1}]))


def test_defender_rolls_its_pool():
    resolved = rules.resolve(opposed(defender={"pool": 8, "dice": None}), rules.SeededSource(4))
    assert len(resolved["defender"]["dice"]) == 8


def test_defender_keeps_two_dice():
    result = result_of(opposed(defender={"pool": 4, "dice": [1, 4, 6, 2]}))
    assert result["defender"]["kept"] == [4, 6]


def test_character_defender_spends_ap():
    result = result_of(opposed(defender={"dice": [3, 3, 2], "ap": 1}))
    assert result["defender_total"] == 8
    assert result["defender"]["ap_spent"] == 1
    assert "tension-defender-spends" in result["notes"]


def test_adversary_defender_spends_tension():
    record = opposed(tension=5, initiators=[{"name": "Ash", "side": "character", "pool": 2, "dice": [6, 5]}],
                     defender={"name": "Ghoul", "side": "adversary", "pool": 3, "dice": [4, 4, 1], "extra": 1})
    result = result_of(record)
    assert result["defender_total"] == 9
    assert result["defender"]["tension_spent"] == 1
    assert result["tension_after"] == 4


def test_character_side_cannot_spend_tension():
    with pytest.raises(SpendingError, match="Ash is a character: only the GM spends Tension"):
        rules.resolve(opposed(defender={"boost": True}))


def test_adversary_side_cannot_spend_ap():
    with pytest.raises(SpendingError, match="adversaries don't have AP"):
        rules.resolve(opposed(initiators=[{"name": "Ghoul", "side": "adversary", "pool": 3, "ap": 1}]))


def test_several_initiators_share_one_defender_roll():
    record = opposed(initiators=[{"name": "Ghoul", "side": "adversary", "pool": 2, "dice": [6, 6]},
                                 {"name": "Rat", "side": "adversary", "pool": 2, "dice": [1, 2]},
                                 {"name": "Bat", "side": "adversary", "pool": 2, "dice": [3, 3]}],
                     defender={"pool": 3, "dice": None})
    resolved = rules.resolve(record, FixedDice([4, 2, 1]))
    result = resolved["result"]
    assert resolved["defender"]["dice"] == [4, 2, 1]
    assert [entry["outcome"] for entry in result["initiators"]] == ["initiator", "defender", "tie"]
    assert [entry["damage"] for entry in result["initiators"]] == [6, 0, 0]
    assert "tension-one-defender-roll" in result["notes"]


def test_tension_spent_by_several_adversaries_accumulates():
    record = opposed(tension=5, initiators=[
        {"name": "Ghoul", "side": "adversary", "pool": 3, "dice": [5, 4, 2], "boost": True},
        {"name": "Rat", "side": "adversary", "pool": 3, "dice": [5, 4, 2], "extra": 1}])
    result = result_of(record)
    assert result["initiators"][0]["boost"] == 4
    assert [entry["after"] for entry in result["tension_changes"][:2]] == [4, 3]
    assert result["tension_spent"] == 2


def test_floor_is_checked_at_each_adversary_spend():
    record = opposed(tension=4, initiators=[
        {"name": "Ghoul", "side": "adversary", "pool": 4, "dice": [5, 4, 2, 1], "extra": 2},
        {"name": "Rat", "side": "adversary", "pool": 3, "dice": [5, 4, 2], "boost": True}])
    with pytest.raises(SpendingError, match="needs at least 3 Tension \\(there is 2\\)"):
        rules.resolve(record)


def test_different_actions_are_separate_records():
    # One record is one Action: two Actions are two records, and the defender rolls for each.
    first = rules.resolve(opposed(defender={"dice": None}), FixedDice([6, 6, 6]))
    second = rules.resolve(opposed(defender={"dice": None}), FixedDice([1, 1, 1]))
    assert first["result"]["defender_total"] != second["result"]["defender_total"]


def test_initiator_total_compared_with_defender_total():
    result = result_of(opposed())
    assert result["initiators"][0]["outcome"] == "initiator"


def test_higher_defender_total_means_defender_succeeds():
    result = result_of(opposed(defender={"dice": [6, 6, 1]}))
    assert result["initiators"][0]["outcome"] == "defender"


def test_combat_damage_is_the_difference():
    result = result_of(opposed(combat=True))
    assert result["initiators"][0]["damage"] == 9 - 6


def test_no_damage_outside_combat():
    result = result_of(opposed(combat=False))
    assert result["initiators"][0]["outcome"] == "initiator"
    assert result["initiators"][0]["damage"] == 0


def test_defender_higher_means_no_damage():
    result = result_of(opposed(defender={"dice": [6, 6, 6], "ap": 1}))
    assert result["initiators"][0]["damage"] == 0


# --- RULES.md pinned readings -------------------------------------------------------------

def test_side_with_fewer_than_two_dice_keeps_what_it_has():
    result = result_of(environment(tension=1, gm={"dice": [4]}, player={"pool": 1, "dice": [5]}))
    assert result["gm"]["kept"] == [4]
    assert result["player"]["kept"] == [5]
    assert "tension-few-dice" in result["notes"]
    empty = result_of(environment(tension=0, gm={"dice": []}, player={"pool": 0, "dice": []}))
    assert (empty["gm_total"], empty["player_total"], empty["outcome"]) == (0, 0, "tie")


def test_ap_with_two_or_fewer_dice_is_refused():
    with pytest.raises(SpendingError, match="rolls only 2 dice and keeps them all"):
        rules.resolve(environment(player={"pool": 2, "ap": 1}))


def test_boost_needs_three_tension():
    with pytest.raises(SpendingError, match="needs at least 3 Tension \\(there is 2\\)"):
        rules.resolve(environment(tension=2, gm={"dice": [6, 6], "boost": True}))
    assert result_of(environment(tension=3, gm={"dice": [1, 1, 1], "boost": True}))["gm"]["boost"] == 2


def test_extra_dice_limited_to_tension_minus_two():
    with pytest.raises(SpendingError, match="with 4 Tension the GM can pay at most 2 for extra dice"):
        rules.resolve(opposed(initiators=[{"name": "Ghoul", "side": "adversary", "pool": 6, "extra": 3}]))
    result = result_of(opposed(initiators=[{"name": "Ghoul", "side": "adversary", "pool": 6,
                                            "dice": [1, 2, 3, 4, 5, 6], "extra": 2}]))
    assert result["tension_changes"][0]["after"] == 2


def test_extra_dice_limited_by_the_adversary_pool():
    with pytest.raises(SpendingError, match="Ghoul rolls 3 dice, so the GM can pay for at most 1 extra die"):
        rules.resolve(opposed(tension=9, initiators=[{"name": "Ghoul", "side": "adversary", "pool": 3, "extra": 2}]))


def test_environment_tie_is_not_success_and_keeps_tension():
    result = result_of(environment(gm={"dice": [6, 4, 1, 2, 2]}, player={"dice": [5, 5, 2, 2]}))
    assert result["outcome"] == "tie"
    assert result["tension_after"] == 5
    assert "tension-tie" in result["notes"]


def test_opposed_tie_no_success_no_damage():
    result = result_of(opposed(defender={"dice": [5, 4, 1]}))
    assert result["initiators"][0] == {**result["initiators"][0], "outcome": "tie", "damage": 0}
    assert "tension-opposed-tie" in result["notes"]


def test_initiator_spends_before_defender():
    # Both adversaries boost: the initiator pays first (6 -> 5, +5), then the defender (5 -> 4, +4).
    record = opposed(tension=6, initiators=[{"name": "Ghoul", "side": "adversary", "pool": 2, "dice": [1, 1], "boost": True}],
                     defender={"name": "Wolf", "side": "adversary", "pool": 2, "dice": [1, 1], "boost": True})
    result = result_of(record)
    assert result["initiators"][0]["total"] == 7
    assert result["defender_total"] == 6


def test_fewest_ap_to_win_with_dice_on_the_table():
    assert rules.fewest_ap([6, 5, 4, 3, 1], 10) == 0
    assert rules.fewest_ap([6, 5, 4, 3, 1], 11) == 1
    assert rules.fewest_ap([6, 5, 4, 3, 1], 17) == 2
    assert rules.fewest_ap([6, 5, 4, 3, 1], 18) == 3
    assert rules.fewest_ap([6, 5, 4, 3, 1], 19) is None


def test_fewest_ap_to_tie():
    assert rules.fewest_ap([6, 5, 4, 3, 1], 15, goal="tie") == 1
    assert rules.fewest_ap([6, 5, 4, 3, 1], 15, goal="win") == 2
    assert rules.fewest_ap([1], 1, goal="tie") == 0
    assert rules.fewest_ap([1], 1) is None


def test_fewest_tension_for_the_gm():
    # Tension 5: boost adds 4 for 1, extra dice cost 1 each up to 3.
    assert rules.fewest_tension([6, 5, 4, 3, 1], 5, 10) == {"boost": False, "extra": 0, "cost": 0, "total": 11}
    assert rules.fewest_tension([6, 5, 4, 3, 1], 5, 14) == {"boost": True, "extra": 0, "cost": 1, "total": 15}
    assert rules.fewest_tension([6, 5, 4, 3, 1], 5, 16) == {"boost": False, "extra": 2, "cost": 2, "total": 18}
    assert rules.fewest_tension([6, 5, 4, 3, 1], 5, 19) is None


def test_fewest_tension_respects_the_floor():
    # Tension 2: nothing can be spent at all.
    assert rules.fewest_tension([6, 6, 6, 6], 2, 12) is None
    assert rules.fewest_tension([6, 6, 6, 6], 2, 12, goal="tie")["cost"] == 0


def test_given_total_side_spends_nothing():
    result = result_of(environment(gm={"name": "GM", "total": 9}, player={"dice": [6, 2, 1, 1]}))
    assert result["gm_total"] == 9
    assert result["gm"]["given_total"] is True
    assert result["tension_spent"] == 0
    with pytest.raises(SpendingError, match="given only as a total, so spends nothing"):
        rules.resolve(environment(gm={"name": "GM", "total": 9, "boost": True}))


def test_given_total_still_raises_tension_on_failure():
    result = result_of(environment(gm={"name": "GM", "total": 9}, player={"dice": [4, 2, 2, 2]}))
    assert result["outcome"] == "failure"
    assert result["tension_after"] == 6


def test_given_total_with_dice_is_refused():
    with pytest.raises(RuleError, match="dice and total were both given"):
        rules.resolve(environment(gm={"total": 9, "dice": [1, 2, 3, 4, 5]}))


def test_opposed_sides_may_be_given_as_totals():
    result = result_of(opposed(initiators=[{"name": "Ghoul", "total": 12}], defender={"name": "Ash", "total": 7, "dice": None}))
    assert result["initiators"][0]["damage"] == 5
    assert result["ones"] == 0


def test_player_needs_a_pool_against_the_environment():
    with pytest.raises(RuleError, match="only the GM's side can be given as a total"):
        rules.resolve(environment(player={"total": 9}))


def test_tension_after_orders_spending_failure_then_ones():
    result = result_of(environment(tension=5, gm={"dice": [6, 6, 2, 2, 2], "extra": 1}, player={"dice": [1, 1, 2, 3]}))
    assert [(entry["why"], entry["change"]) for entry in result["tension_changes"]] == [
        ("extra", -1), ("failure", 1), ("ones", 2)]
    assert result["tension_after"] == 5 - 1 + 1 + 2


def test_explosions_count_from_tension_after_spending():
    # 9 -> (failure) 10 -> (ones) 11: climbs through 10 once.
    result = result_of(environment(tension=9, gm={"dice": [6, 6, 1, 1, 1, 1, 1, 1, 1]}, player={"dice": [1, 2, 2, 2]}))
    assert result["tension_after"] == 11
    assert result["explosions"] == [10]
    assert len(result["table_rolls"]) == 1
    assert "tension-explosion" in result["notes"]


def test_starting_at_ten_does_not_explode():
    result = result_of(environment(tension=10, gm={"dice": [1] * 10}, player={"dice": [6, 6, 2, 2]}))
    assert result["tension_after"] == 10
    assert result["explosions"] == []
    assert result["table_rolls"] == []


def test_spending_below_ten_then_climbing_back_explodes():
    result = result_of(environment(tension=10, gm={"dice": [6] * 10, "boost": True}, player={"dice": [1, 2, 2, 2]}))
    # 10 -> boost 9 -> failure 10 -> ones 11
    assert result["explosions"] == [10]


def test_retry_climbing_to_ten_explodes():
    result = result_of(environment(tension=9, retry=True, gm={"dice": [1] * 10}, player={"dice": [6, 6, 2, 2]}))
    assert result["explosions"] == [10]


def test_every_multiple_of_ten_reached_explodes():
    record = opposed(tension=19, defender={"pool": 12, "dice": [1] * 12})
    result = result_of(record)
    assert result["tension_after"] == 31
    assert result["explosions"] == [20, 30]
    assert len(result["table_rolls"]) == 2


def test_table_rolls_are_reproducible():
    record = environment(tension=9, gm={"dice": [6, 6, 1, 1, 1, 1, 1, 1, 1]}, player={"dice": [1, 2, 2, 2]},
                         table_rolls=[4])
    resolved = rules.resolve(record)
    assert resolved["result"]["table_rolls"] == [4]
    assert rules.tension_table_line(4) == rules.DEFAULT_TENSION_TABLE[3]


def test_table_rolls_must_match_the_explosions():
    record = environment(tension=9, gm={"dice": [6, 6, 1, 1, 1, 1, 1, 1, 1]}, player={"dice": [1, 2, 2, 2]},
                         table_rolls=[4, 5])
    with pytest.raises(RuleError, match="exploded 1 time, so the Tension Table needs 1 roll, not 2"):
        rules.resolve(record)
    with pytest.raises(RuleError, match="A d6 shows 1 to 6, not 7"):
        rules.resolve(dict(record, table_rolls=[7]))


def test_explosions_can_be_switched_off():
    record = environment(tension=9, gm={"dice": [6, 6, 1, 1, 1, 1, 1, 1, 1]}, player={"dice": [1, 2, 2, 2]},
                         settings={"tension_explodes": False})
    result = result_of(record)
    assert result["tension_after"] == 11
    assert result["explosions"] == [] and result["table_rolls"] == []


def test_ones_in_character_dice_add_tension():
    result = result_of(environment(gm={"dice": [1, 1, 1, 1, 1]}, player={"dice": [1, 6, 1, 5]}))
    assert result["ones"] == 2
    assert result["tension_after"] == 7
    assert {"why": "ones", "change": 2, "after": 7, "who": "Ash"} in result["tension_changes"]


def test_ones_counted_whether_kept_or_not():
    result = result_of(environment(gm={"dice": [1, 1, 1, 1, 1]}, player={"dice": [6, 6, 1, 1], "keep": [0, 1]}))
    assert result["ones"] == 2


def test_ones_in_adversary_dice_do_not_add_tension():
    result = result_of(opposed(initiators=[{"name": "Ghoul", "side": "adversary", "pool": 3, "dice": [1, 1, 1]}],
                               defender={"dice": [2, 2, 2]}))
    assert result["ones"] == 0
    assert result["tension_after"] == 4


def test_ones_setting_off_leaves_tension():
    result = result_of(environment(gm={"dice": [1, 1, 1, 1, 1]}, player={"dice": [1, 6, 1, 5]},
                                   settings={"ones_feed_tension": False}))
    assert result["ones"] == 2
    assert result["tension_after"] == 5


def test_ones_setting_is_on_by_default():
    assert rules.DEFAULT_SETTINGS == {"ones_feed_tension": True, "tension_explodes": True}


def test_settings_must_be_true_or_false():
    with pytest.raises(RuleError, match="ones_feed_tension must be true or false"):
        rules.resolve(environment(settings={"ones_feed_tension": 1}))


def test_session_starts_at_number_of_players():
    assert rules.starting_tension(4) == 4
    with pytest.raises(RuleError, match="number of players"):
        rules.starting_tension(0)


def test_default_tension_table_has_six_lines_of_our_own():
    assert len(rules.DEFAULT_TENSION_TABLE) == 6
    assert all(isinstance(line, str) and line.strip() for line in rules.DEFAULT_TENSION_TABLE)
    assert rules.check_tension_table(list(rules.DEFAULT_TENSION_TABLE)) == list(rules.DEFAULT_TENSION_TABLE)


def test_tension_table_lookup_uses_the_sessions_lines():
    table = [f"line {number}" for number in range(1, 7)]
    assert rules.tension_table_line(6, table) == "line 6"
    with pytest.raises(RuleError, match="needs six lines"):
        rules.tension_table_line(1, table[:5])
    with pytest.raises(RuleError, match="not 0"):
        rules.tension_table_line(0, table)


def test_explosions_between():
    assert rules.explosions_between(9, 11) == [10]
    assert rules.explosions_between(10, 10) == []
    assert rules.explosions_between(10, 19) == []
    assert rules.explosions_between(8, 31) == [10, 20, 30]


def test_gm_options_list():
    options = rules.gm_options(4, 6)
    assert [(option["boost"], option["extra"], option["cost"], option["bonus"], option["keep"]) for option in options] == [
        (False, 0, 0, 0, 2), (True, 0, 1, 3, 2), (False, 1, 1, 0, 3), (False, 2, 2, 0, 4)]
    assert rules.gm_options(2, 6) == [{"boost": False, "extra": 0, "cost": 0, "bonus": 0, "keep": 2}]


def test_outcomes_are_from_the_players_point_of_view():
    assert result_of(environment(gm={"dice": [6, 6, 1, 1, 1]}, player={"dice": [1, 2, 2, 2]}))["outcome"] == "failure"


def test_tension_side_previews_the_gm_total():
    side = rules.tension_side({"dice": [6, 5, 4, 1, 1], "boost": True}, "gm", 5)
    assert side["total"] == 15 and side["tension_after"] == 4 and side["dice"] == [6, 5, 4, 1, 1]


def test_large_tension_resolves():
    result = result_of(environment(tension=99, retry=True, player={"pool": 40, "ap": 38}), rules.SeededSource(9))
    assert result["gm"]["dice_total"] <= 12
    assert len(result["player"]["kept"]) == 40
