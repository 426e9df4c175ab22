"""Manner Cards (seed 003 and RULES.md): the tables read from the seed, and one test per rule."""

import pytest
import seeds

import rules
from rules import RuleError
from rules.manners import CONFRONTATION_TABLE, MIRROR, TEST_TABLE
from rules.words import isolate


def player(manner="Force", manner_rating=3, skill_rating=2, helpers=0, descriptors=0, **fields):
    return {"name": "Wren", "manner": manner, "manner_rating": manner_rating, "skill": "Climb",
            "skill_rating": skill_rating, "helpers": helpers, "descriptors": descriptors, **fields}


def test_record(complication="Time", difficulty=5, **player_fields):
    return {"v": 1, "system": "manners", "kind": "test", "player": player(**player_fields),
            "difficulty": difficulty, "complication": complication}


test_record.__test__ = False  # a record builder, not a test


def confrontation(player_fields=None, opponent_fields=None):
    return {"v": 1, "system": "manners", "kind": "confrontation", "player": player(**(player_fields or {})),
            "opponent": {**player(**(opponent_fields or {})), "name": "Moth"}}


def result_of(record):
    return rules.resolve(record)["result"]


# --- The seed's tables, cell by cell --------------------------------------------------------

def test_test_table_matches_the_seed_cell_by_cell():
    columns, rows = seeds.markdown_table(seeds.MANNER_CARDS, "Test Resolution Table")
    assert tuple(columns) == rules.COMPLICATIONS
    assert tuple(rows) == rules.MANNERS
    for manner in rules.MANNERS:
        for complication in rules.COMPLICATIONS:
            assert TEST_TABLE[manner][complication] == rows[manner][complication], (manner, complication)


def test_confrontation_table_matches_the_seed_cell_by_cell():
    columns, rows = seeds.markdown_table(seeds.MANNER_CARDS, "Confrontation Resolution Table")
    assert tuple(columns) == rules.MANNERS
    assert tuple(rows) == rules.MANNERS
    for manner in rules.MANNERS:
        for opposing in rules.MANNERS:
            assert CONFRONTATION_TABLE[manner][opposing] == rows[manner][opposing], (manner, opposing)


def test_confrontation_columns_are_the_opponents_manner():
    # Force against Speed: row Force, column Speed, "+2" for the player.
    result = result_of(confrontation({"manner": "Force"}, {"manner": "Speed"}))
    assert result["cell"] == "+2" and result["other_cell"] == "Partial"


# --- Seed 003: rule sentences -----------------------------------------------------------------

def test_test_is_against_difficulty_and_complication():
    result = result_of(test_record(complication="Confusion", difficulty=5))
    assert result["other_total"] == 5
    assert result["cell"] == TEST_TABLE["Force"]["Confusion"]


def test_confrontation_is_against_opponent_manner():
    result = result_of(confrontation({"manner": "Speed"}, {"manner": "Determination", "manner_rating": 4}))
    assert result["cell"] == "Lose"
    assert result["other_total"] == 6


def test_kind_is_test_or_confrontation():
    assert rules.SYSTEMS["manners"] == ("test", "confrontation")
    with pytest.raises(RuleError, match=f"Unknown kind '{isolate('duel')}' for manners: choose test or confrontation"):
        rules.resolve({**test_record(), "kind": "duel"})


def test_test_difficulty_is_1_to_8():
    for difficulty in (1, 8):
        assert result_of(test_record(difficulty=difficulty))["other_total"] in (difficulty, difficulty + 2)
    for difficulty in (0, 9):
        with pytest.raises(RuleError, match="The difficulty must be a whole number from 1 to 8"):
            rules.resolve(test_record(difficulty=difficulty))


def test_complication_is_one_of_five():
    assert set(rules.COMPLICATIONS) == {"Hostility", "Time", "Collateral", "Consumption", "Confusion"}
    with pytest.raises(RuleError, match=f"Unknown Complication '{isolate('Weather')}'"):
        rules.resolve(test_record(complication="Weather"))


def test_outcomes_for_test_cover_every_complication():
    # The Complication card is face down: show the outcome against each of the five.
    table = rules.outcomes_for_test({"manner_ratings": dict.fromkeys(rules.MANNERS, 3), "skill_rating": 2}, 5)
    assert set(table) == set(rules.MANNERS)
    for manner, row in table.items():
        assert list(row["against"]) == list(rules.COMPLICATIONS)
        assert sum(row["counts"].values()) == 5
        for complication, decision in row["against"].items():
            expected = result_of(test_record(complication=complication, manner=manner, manner_rating=3))
            assert decision == {key: expected[key] for key in decision}


def test_outcomes_for_confrontation_use_the_opponents_numbers():
    player_side = {"manner_ratings": dict.fromkeys(rules.MANNERS, 2), "skill_rating": 1, "descriptors": 1}
    opponent_side = {"manner_ratings": {**dict.fromkeys(rules.MANNERS, 1), "Force": 4}, "skill_rating": 1}
    table = rules.outcomes_for_confrontation(player_side, opponent_side)
    for manner, row in table.items():
        for opposing, decision in row["against"].items():
            expected = result_of(confrontation(
                {"manner": manner, "manner_rating": 2, "skill_rating": 1, "descriptors": 1},
                {"manner": opposing, "manner_rating": opponent_side["manner_ratings"][opposing], "skill_rating": 1}))
            assert decision == {key: expected[key] for key in decision}


def test_outcomes_need_a_rating_for_each_manner():
    with pytest.raises(RuleError, match="Give a rating for each Manner: Speed is missing"):
        rules.outcomes_for_test({"manner_ratings": {"Determination": 1, "Force": 1}}, 3)


def test_story_moves_are_named_not_resolved():
    assert len(rules.STORY_MOVES) == 2
    assert "Leave the scene" in rules.STORY_MOVES[0] and "Keep them there" in rules.STORY_MOVES[1]


def test_manner_must_be_one_of_five():
    with pytest.raises(RuleError, match=f"Unknown Manner '{isolate('Speedy')}': choose Determination, Force, Speed, "
                                        "Precision or Imagination"):
        rules.resolve(test_record(manner="Speedy"))


def test_helper_needs_rating_of_at_least_one():
    assert rules.can_help(1) and not rules.can_help(0)
    with pytest.raises(RuleError, match="at least 1 in this Skill or Spell can help"):
        rules.resolve(test_record(helpers=2, helper_ratings=[2, 0]))
    assert result_of(test_record(helpers=2, helper_ratings=[2, 1], complication="Confusion"))["player_total"] == 7


def test_each_helper_adds_one():
    assert result_of(test_record(complication="Confusion", helpers=0))["player_total"] == 5
    assert result_of(test_record(complication="Confusion", helpers=3))["player_total"] == 8


def test_cell_comes_from_the_table_for_the_players_manner():
    for manner in rules.MANNERS:
        for complication in rules.COMPLICATIONS:
            assert result_of(test_record(manner=manner, complication=complication))["cell"] == TEST_TABLE[manner][complication]


def test_win_cell_succeeds_outright():
    result = result_of(test_record(manner="Force", complication="Consumption", manner_rating=0, skill_rating=0, difficulty=8))
    assert result["cell"] == "Win"
    assert (result["winner"], result["partial"], result["outcome"]) == ("player", False, "success")


def test_lose_cell_fails_outright():
    result = result_of(test_record(manner="Force", complication="Hostility", manner_rating=9, difficulty=1))
    assert result["cell"] == "Lose"
    assert (result["winner"], result["partial"], result["outcome"]) == ("other", False, "failure")


def test_plus_zero_cell_compares_numbers():
    win = result_of(test_record(complication="Confusion", difficulty=4))
    lose = result_of(test_record(complication="Confusion", difficulty=6))
    assert (win["player_total"], win["other_total"], win["outcome"]) == (5, 4, "success")
    assert (lose["player_total"], lose["other_total"], lose["outcome"]) == (5, 6, "failure")


def test_plus_two_cell_adds_two_to_player():
    result = result_of(test_record(complication="Time", difficulty=6))
    assert result["cell"] == "+2"
    assert (result["player_total"], result["other_total"], result["outcome"]) == (7, 6, "success")


def test_partial_cell_adds_two_to_other_side():
    result = result_of(test_record(complication="Collateral", difficulty=2))
    assert result["cell"] == "Partial"
    assert result["other_total"] == 4
    assert "manners-test-partial" in result["notes"]


def test_higher_number_wins():
    assert result_of(confrontation({"manner_rating": 5}, {"manner_rating": 4}))["winner"] == "player"
    assert result_of(confrontation({"manner_rating": 4}, {"manner_rating": 5}))["winner"] == "other"


def test_player_winning_with_partial_cell_gets_partial_success():
    result = result_of(test_record(complication="Collateral", difficulty=2))
    assert (result["winner"], result["partial"], result["outcome"]) == ("player", True, "partial")


def test_other_side_winning_with_partial_cell_is_partial():
    # The player's cell is "+2" (the other side's is Partial) and the player still loses the numbers.
    result = result_of(test_record(complication="Time", difficulty=8))
    assert (result["player_total"], result["other_total"]) == (7, 8)
    assert (result["winner"], result["partial"], result["outcome"]) == ("other", True, "failure")
    assert "manners-other-partial" in result["notes"]


def test_tie_goes_to_more_descriptors():
    result = result_of(confrontation({"descriptors": 2}, {"descriptors": 1}))
    assert (result["winner"], result["outcome"], result["tie_broken_by"]) == ("player", "success", "descriptors")
    result = result_of(confrontation({"descriptors": 0}, {"descriptors": 1}))
    assert (result["winner"], result["outcome"], result["tie_broken_by"]) == ("other", "failure", "descriptors")
    assert "manners-descriptors" in result["notes"]


def test_complication_has_no_descriptors():
    result = result_of(test_record(complication="Confusion", difficulty=5, descriptors=1))
    assert (result["winner"], result["tie_broken_by"]) == ("player", "descriptors")


def test_tie_won_with_partial_cell_is_partial():
    # Force against Determination: the player's cell is Partial; 5 + 0 = 3 + 2.
    result = result_of(confrontation({"manner": "Force", "descriptors": 1}, {"manner": "Determination", "descriptors": 0}))
    assert (result["cell"], result["player_total"], result["other_total"]) == ("Partial", 5, 7)
    result = result_of(confrontation({"manner": "Force", "manner_rating": 5, "descriptors": 1},
                                     {"manner": "Determination", "descriptors": 0}))
    assert (result["player_total"], result["other_total"]) == (7, 7)
    assert (result["winner"], result["partial"], result["outcome"]) == ("player", True, "partial")


def test_unbroken_tie_is_compromise():
    result = result_of(confrontation({"descriptors": 1}, {"descriptors": 1}))
    assert (result["winner"], result["partial"], result["outcome"], result["tie_broken_by"]) == (
        "both", True, "compromise", None)
    assert "manners-compromise" in result["notes"]


def test_result_has_the_rules_md_shape():
    result = result_of(test_record())
    assert {"cell", "player_total", "other_total", "winner", "partial", "outcome", "tie_broken_by"} <= set(result)


def test_mirror_pairs_cells():
    assert MIRROR == {"Win": "Lose", "Lose": "Win", "+2": "Partial", "Partial": "+2", "+0": "+0"}
