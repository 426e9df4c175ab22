"""Traceability: every sentence of every seed, and every RULES.md reading, maps to tests.

Each seed sentence is listed in order with the tests that check it, or with
"story:" and why the app does not resolve it (the table decides). A changed
seed, a new sentence or a renamed test fails here.
"""

import ast
import hashlib
from pathlib import Path

import pytest
import seeds

SEED_SHA256 = {
    seeds.TENSION_ENGINE: "5f6cd8c1c9f9e0a4696e11938f73a1e629e47dafecbca7d715cac175705d4f53",
    seeds.ANOMALY: "ff3a97fed92ba746aedc29bf9c7c34c7939bad1e17d34b0c21392a72edfca1cd",
    seeds.MANNER_CARDS: "2469cb237308aa82c2c69a9c21713d0287ab28face372245a088598a0ad875f0",
}

STORY = "story: narrative framing; the table decides, the app has nothing to resolve"

COVERAGE = {
    seeds.TENSION_ENGINE: [
        ("At certain moments of conflict or stress", STORY),
        ("It may be in an indirect form against the Environment", ["test_environment_and_adversary_are_the_two_tension_kinds"]),
        ("Or it may be a direct depiction of conflict", ["test_environment_and_adversary_are_the_two_tension_kinds"]),
        ("The GM will determine when Conflict Resolution is needed", "story: the GM decides when to roll"),
        ("When a character engages in a Conflict that is not directly opposed", ["test_environment_conflict_is_player_against_gm_roll"]),
        ("This includes tasks such as trying to pick a lock", STORY),
        ("When rolling against the Environment, follow these steps", ["test_environment_gm_rolls_before_the_player"]),
        ("1: The player declares an Action.", "story: the Action is described at the table"),
        ("2: The GM rolls a dice pool equal to the Tension Pool", ["test_gm_rolls_as_many_dice_as_tension",
                                                                  "test_gm_dice_count_must_match_tension"]),
        ("3: The GM selects two dice and combines their value", ["test_gm_keeps_two_dice_and_adds_them",
                                                                "test_keep_defaults_to_highest_dice"]),
        ("The GM may spend 1 Tension Point to increase the Environment total", ["test_boost_adds_tension_left_after_paying",
                                                                                "test_extra_dice_cost_one_tension_each"]),
        ("Either of these actions may be done once per roll but not both.", ["test_gm_cannot_boost_and_buy_extra_dice_on_one_roll"]),
        ("4: The player selects one Attribute and one Skill", ["test_player_rolls_pool_dice"]),
        ("5. The player selects two dice and combines their value", ["test_player_keeps_two_dice",
                                                                    "test_keeping_three_dice_without_ap_is_refused",
                                                                    "test_chosen_keep_is_respected_even_if_lower"]),
        ("They may spend any number of Adventure Points", ["test_each_ap_keeps_one_more_die", "test_ap_beyond_the_pool_is_refused"]),
        ("6. Compare the two values", ["test_higher_player_total_succeeds",
                                       "test_higher_environment_total_fails_and_adds_tension"]),
        ("Multiple attempts may be possible if allowed by the narrative", ["test_retry_adds_one_tension_before_the_gm_rolls",
                                                                          "test_retry_raises_the_tension_the_gm_can_spend"]),
        ("However, not all Actions permit multiple attempts", "story: whether a retry is possible is the GM's call; "
                                                             "the app only offers it"),
        ("When a player is taking an Action to engage in a Conflict with an Adversary", ["test_opposed_conflict_uses_the_same_keep_rules"]),
        ("In this case, any time that a character is directly confronting", ["test_opposed_record_pits_initiator_against_defender"]),
        ("When rolling against an Adversary, follow these steps", ["test_initiator_spends_before_defender"]),
        ("1: Determine the initiator", ["test_initiator_may_be_character_or_adversary"]),
        ("This may be a player character or an adversary", ["test_initiator_may_be_character_or_adversary",
                                                            "test_side_must_be_character_or_adversary"]),
        ("2: The initiator declares Action.", "story: the Action is described at the table"),
        ("3: The initiator builds their die pool", ["test_initiator_rolls_its_pool"]),
        ("4: The initiator rolls, then selects two dice", ["test_initiator_keeps_two_dice"]),
        ("If the initiator is a character, the player may spend Adventure Points", ["test_character_initiator_spends_ap",
                                                                                    "test_adversary_side_cannot_spend_ap"]),
        ("If the initiator is an Adversary, the GM may spend Tension Points", ["test_adversary_initiator_spends_tension",
                                                                               "test_character_side_cannot_spend_tension"]),
        ("As in Environment Conflicts, the GM may only choose one", ["test_adversary_cannot_boost_and_buy_extra_dice"]),
        ("5: The defender builds their die pool", ["test_defender_rolls_its_pool"]),
        ("6: The defender rolls, then selects two dice", ["test_defender_keeps_two_dice"]),
        ("If the initiator is a character, the player may spend Adventure Points", ["test_character_defender_spends_ap"]),
        ("If the initiator is an Adversary, the GM may spend Tension Points", ["test_adversary_defender_spends_tension"]),
        ("If multiple initiators target a defender with the same Action", ["test_several_initiators_share_one_defender_roll",
                                                                          "test_tension_spent_by_several_adversaries_accumulates"]),
        ("If different Actions are used, each initiator must be rolled against", ["test_different_actions_are_separate_records"]),
        ("7: Compare the totals of the initiator and defender.", ["test_initiator_total_compared_with_defender_total"]),
        ("Whichever side rolled the highest is considered to have succeeded", ["test_higher_defender_total_means_defender_succeeds"]),
        ("In combat, if the initiator rolls higher than the defender", ["test_combat_damage_is_the_difference",
                                                                       "test_no_damage_outside_combat"]),
        ("If the defender rolls higher, no damage occurs.", ["test_defender_higher_means_no_damage"]),
    ],
    seeds.ANOMALY: [
        ("Since Anomaly is a setting agnostic game system", STORY),
        ("Conflicts because there is more to life", STORY),
        ("Conflicts include fighting, crafting", STORY),
        ("Anomaly lays out a general framework", STORY),
        ("At the core is player agency.", STORY),
        ("Players control characters", STORY),
        ("To make a character do a task", STORY),
        ("If accomplishing the task is easy", "story: no roll is needed, so the app is not asked"),
        ("If the task is challenging, or if someone is trying to stop them", ["test_check_and_opposed_are_the_two_anomaly_kinds"]),
        ("If the task is difficult because of the nature of the task", ["test_check_uses_the_difficulty_the_gm_sets"]),
        ("This is most often a multiple of 3.", ["test_suggested_difficulties_are_multiples_of_three",
                                                 "test_any_difficulty_is_accepted"]),
        ("The player makes a roll and compares it to the difficulty.", ["test_check_compares_total_with_difficulty"]),
        ("If the player's roll is not higher than the difficulty", ["test_total_equal_to_difficulty_fails",
                                                                   "test_total_above_difficulty_succeeds",
                                                                   "test_total_below_difficulty_fails_with_negative_margin"]),
        ("If the task is difficult because someone is trying to stop them", ["test_opposed_defender_rolls"]),
        ("That roll becomes the difficulty.", ["test_defender_total_becomes_the_difficulty"]),
        ("For example, if one character is attacking another character", ["test_attacker_must_beat_defender_roll"]),
        ("A roll consists of at least one d10 and modifiers.", ["test_roll_is_one_d10_plus_modifiers"]),
        ("If you roll multiple d10's, you do not add them together.", ["test_multiple_d10_are_not_added"]),
        ("You will instead take the highest or the lowest", ["test_kept_die_plus_modifiers_is_total"]),
        ("Good Dice are additional dice where you keep the highest", ["test_good_dice_keep_highest"]),
        ("Bad Dice are additional dice where you keep the lowest", ["test_bad_dice_keep_lowest"]),
        ("Good dice and bad dice cancel each other out.", ["test_good_and_bad_dice_cancel_one_for_one",
                                                           "test_good_bad_cancellation_is_symmetric"]),
        ("Good Dice and Bad Dice are called Conditional Dice.", ["test_result_reports_net_conditional_dice"]),
        ("If a roll is affected by external conditions", "story: the GM judges which conditions give dice"),
        ("For example, if you are attacking someone who has fewer weapons", ["test_two_daggers_against_one_give_one_good_die"]),
        ("Your character is attacking with a pair of daggers.", ["test_two_daggers_against_one_give_one_good_die"]),
        ("Your target only has one dagger.", ["test_two_daggers_against_one_give_one_good_die"]),
        ("You get 1 Good Dice for the attacks.", ["test_two_daggers_against_one_give_one_good_die"]),
        ("Each attack you will roll 2 dice and keep the highest value.", ["test_two_daggers_roll_two_keep_highest"]),
        ("In another instance, your character is fighting an opponent", ["test_high_ground_gives_one_bad_die"]),
        ("You get 1 Bad Dice for all attacks while this is true.", ["test_high_ground_gives_one_bad_die"]),
        ("Each attack you roll 2 dice and must take the lowest value.", ["test_high_ground_roll_two_keep_lowest"]),
        ("If the two situations are combined", ["test_daggers_and_high_ground_cancel_to_one_die"]),
        ("Modifiers are different from Good Dice and Bad Dice", ["test_modifiers_add_to_total_not_dice"]),
        ("Modifiers come in many kinds.", ["test_modifier_kinds_include_user_named_kinds"]),
        ("Two modifiers of the same kind do not add to the same roll", ["test_same_kind_only_largest_applies",
                                                                       "test_same_kind_penalties_apply_the_largest_value",
                                                                       "test_stacking_modifiers_all_apply"]),
        ("Applicable modifiers of different kinds will always stack.", ["test_different_kinds_stack"]),
        ("For example, you always add an attribute modifier and a gear modifier", ["test_attribute_and_gear_modifiers_both_add"]),
        ("You will probably never add two attribute modifiers", ["test_two_attribute_modifiers_leave_one_out"]),
        ("The most common types of modifiers are", ["test_common_kinds_offered"]),
        ("- Size refers to the size of a character.", "story: describes a kind; the app offers it by name"),
        ("- Attributes are a character's physical capabilities.", "story: describes a kind; the app offers it by name"),
        ("- Skills are how accurately characters", "story: describes a kind; the app offers it by name"),
        ("- Knowledge is how much a character knows", "story: describes a kind; the app offers it by name"),
        ("- Gear is how well the equipment", "story: describes a kind; the app offers it by name"),
        ("More details for each kind of modifier", STORY),
    ],
    seeds.MANNER_CARDS: [
        ("A Conflict occurs when the player and GM disagree", STORY),
        ("A Test is always against the world or environment.", ["test_test_is_against_difficulty_and_complication"]),
        ("A Confrontation is against another character or monster.", ["test_confrontation_is_against_opponent_manner"]),
        ("A Conflict requires two parts.", "story: Intention and Task are described at the table"),
        ("An Intention and a Task.", "story: Intention and Task are described at the table"),
        ("The Intention is what you hope to achieve.", STORY),
        ("The Task is how you will make it happen.", STORY),
        ("The GM verifies that one follows from the other", STORY),
        ("Otherwise the GM can suggest an alternative Task", STORY),
        ("Go back and forth until a Conflict is established", STORY),
        ("The GM states which Skill or Spell is being used", ["test_kind_is_test_or_confrontation"]),
        ("A Test is against the environment.", ["test_test_is_against_difficulty_and_complication"]),
        ("The GM declares a difficulty number from 1 to 8", ["test_test_difficulty_is_1_to_8", "test_complication_is_one_of_five"]),
        ("The GM places this card face down.", ["test_outcomes_for_test_cover_every_complication"]),
        ("These can be abstract and can take the form of a success with a cost.", "story: the GM narrates the Complication"),
        ("A Confrontation is against another character, one controlled by the GM", ["test_confrontation_is_against_opponent_manner",
                                                                                   "test_outcomes_for_confrontation_use_the_opponents_numbers"]),
        ("If a player feels like the Confrontation stake is too high", ["test_story_moves_are_named_not_resolved"]),
        ("This may only be prevented by the other player opting", ["test_story_moves_are_named_not_resolved"]),
        ("A further Confrontation can follow", "story: a new record is a new Confrontation"),
        ("The player then selects their character", ["test_manner_must_be_one_of_five"]),
        ("They place the Manner card.", ["test_manner_must_be_one_of_five"]),
        ("Characters with at least a rating of one in the relevant Skill", ["test_helper_needs_rating_of_at_least_one"]),
        ("Help provides a +1 bonus", ["test_each_helper_adds_one"]),
        ("To see who has won we compare cards", ["test_cell_comes_from_the_table_for_the_players_manner",
                                                 "test_test_table_matches_the_seed_cell_by_cell",
                                                 "test_confrontation_table_matches_the_seed_cell_by_cell"]),
        ("If the outcome says the Manner beats the opponent", ["test_win_cell_succeeds_outright"]),
        ("If the outcome says it loses to the opponent", ["test_lose_cell_fails_outright"]),
        ("In any other outcome we compare numbers.", ["test_plus_zero_cell_compares_numbers"]),
        ("Add the rating of the Manner and Skill and, if the card states it, +2.", ["test_plus_two_cell_adds_two_to_player"]),
        ("The opposing character or the GM", ["test_partial_cell_adds_two_to_other_side"]),
        ("The higher number wins.", ["test_higher_number_wins"]),
        ("If you win with “Partial” you have a Partial Success.", ["test_player_winning_with_partial_cell_gets_partial_success"]),
        ("You succeed but the opponent gets some small part", ["test_player_winning_with_partial_cell_gets_partial_success",
                                                              "test_other_side_winning_with_partial_cell_is_partial"]),
        ("In the event of a tie, check the Manner or Skill", ["test_tie_goes_to_more_descriptors",
                                                              "test_complication_has_no_descriptors"]),
        ("That side gains a full success or a partial success", ["test_tie_won_with_partial_cell_is_partial"]),
        ("For a tie that is not broken", ["test_unbroken_tie_is_compromise"]),
    ],
}

# RULES.md (../shared, not in CI) pins these readings; each names the tests that hold it.
PINNED_READINGS = [
    ("Tension: a side that rolled fewer than two dice keeps what it has", ["test_side_with_fewer_than_two_dice_keeps_what_it_has",
                                                                           "test_ap_with_two_or_fewer_dice_is_refused"]),
    ("Tension: the app pre-selects the highest dice, the user may choose", ["test_keep_defaults_to_highest_dice",
                                                                            "test_chosen_keep_is_respected_even_if_lower"]),
    ("Tension: boost adds the Tension left after paying 1", ["test_boost_adds_tension_left_after_paying",
                                                              "test_adversary_initiator_spends_tension"]),
    ("Tension: never spent below 2 (boost needs 3, extra at most Tension - 2)", [
        "test_boost_needs_three_tension", "test_extra_dice_limited_to_tension_minus_two",
        "test_floor_is_checked_at_each_adversary_spend", "test_spending_never_takes_tension_below_two",
        "test_gm_spending_is_allowed_exactly_when_two_tension_remain"]),
    ("Tension: the app tells the fewest AP that would win", ["test_fewest_ap_to_win_with_dice_on_the_table", "test_fewest_ap_to_tie",
                                                            "test_fewest_ap_is_the_least_ap_that_succeeds",
                                                            "test_fewest_tension_for_the_gm", "test_fewest_tension_respects_the_floor"]),
    ("Tension: an environment tie is no success and leaves Tension", ["test_environment_tie_is_not_success_and_keeps_tension"]),
    ("Tension: trying again costs +1 Tension first", ["test_retry_adds_one_tension_before_the_gm_rolls",
                                                      "test_retry_is_only_for_environment_conflicts"]),
    ("Tension: initiator settles first, then the defender", ["test_initiator_spends_before_defender"]),
    ("Tension: whichever side is a character spends AP, an adversary Tension", [
        "test_character_defender_spends_ap", "test_adversary_defender_spends_tension",
        "test_character_side_cannot_spend_tension", "test_adversary_side_cannot_spend_ap"]),
    ("Tension: an opposed tie: the initiator does not succeed, no damage", ["test_opposed_tie_no_success_no_damage"]),
    ("Tension Pool: starts at the number of players", ["test_session_starts_at_number_of_players"]),
    ("Tension Pool: each 1 in a character's dice adds 1 after the conflict", [
        "test_ones_in_character_dice_add_tension", "test_ones_counted_whether_kept_or_not",
        "test_ones_in_adversary_dice_do_not_add_tension", "test_ones_setting_off_leaves_tension",
        "test_ones_setting_is_on_by_default"]),
    ("Tension Pool: explodes at each multiple of 10, d6 on a six-line table", [
        "test_explosions_count_from_tension_after_spending", "test_every_multiple_of_ten_reached_explodes",
        "test_table_rolls_are_reproducible", "test_default_tension_table_has_six_lines_of_our_own",
        "test_tension_table_lookup_uses_the_sessions_lines", "test_explosions_can_be_switched_off"]),
    ("Tension: explosions count from after spending (9 -> 11 at 10; from 10 not)", [
        "test_explosions_count_from_tension_after_spending", "test_starting_at_ten_does_not_explode",
        "test_spending_below_ten_then_climbing_back_explodes"]),
    ("Tension: tension_after = spending, +1 on failure, then the 1s", ["test_tension_after_orders_spending_failure_then_ones"]),
    ("A side given as a total spends nothing (Tension still rises on failure)", [
        "test_given_total_side_spends_nothing", "test_given_total_still_raises_tension_on_failure",
        "test_opposed_sides_may_be_given_as_totals", "test_defender_may_be_given_as_a_total"]),
    ("Anomaly: within a kind only the largest applies, shown as left out; 'stacks' adds", [
        "test_same_kind_only_largest_applies", "test_stacking_modifiers_all_apply"]),
    ("Anomaly: offer 3, 6, 9, 12, 15, 18 and any number; success only above", [
        "test_suggested_difficulties_are_multiples_of_three", "test_any_difficulty_is_accepted",
        "test_total_equal_to_difficulty_fails"]),
    ("Anomaly: opposed, the defender's total is the difficulty; show the margin", [
        "test_defender_total_becomes_the_difficulty", "test_attacker_must_beat_defender_roll"]),
    ("Anomaly: daggers, high ground, both together", ["test_two_daggers_roll_two_keep_highest",
                                                      "test_high_ground_roll_two_keep_lowest",
                                                      "test_daggers_and_high_ground_cancel_to_one_die"]),
    ("Manners: Test cell [Manner][Complication]; Confrontation rows player, columns opponent", [
        "test_cell_comes_from_the_table_for_the_players_manner", "test_confrontation_columns_are_the_opponents_manner"]),
    ("Manners: the Test table read like the Confrontation table (Complication takes the +2)", [
        "test_partial_cell_adds_two_to_other_side", "test_other_side_winning_with_partial_cell_is_partial"]),
    ("Manners: winner with a Partial cell gets partial success, from either side", [
        "test_player_winning_with_partial_cell_gets_partial_success", "test_other_side_winning_with_partial_cell_is_partial",
        "test_confrontation_seen_from_either_side_agrees"]),
    ("Manners: outright Win or Lose is never partial; compromise is winner both", [
        "test_win_cell_succeeds_outright", "test_lose_cell_fails_outright", "test_unbroken_tie_is_compromise"]),
    ("Manners: leaving and 'keep them there' are named, not resolved", ["test_story_moves_are_named_not_resolved"]),
    ("Dice: cryptographic, injectable source", ["test_default_source_draws_from_secrets", "test_injected_source_is_used_for_every_die"]),
    ("Dice: typed-in faces resolve exactly as rolled ones", ["test_typed_dice_resolve_exactly_as_rolled_ones",
                                                             "test_typed_faces_are_checked"]),
    ("Odds are exact", ["test_environment_odds_match_joint_enumeration", "test_opposed_odds_match_enumeration",
                        "test_anomaly_check_matches_enumeration", "test_anomaly_opposed_matches_enumeration"]),
    ("Record: resolve fills the result; bad records raise RuleError", [
        "test_rules_md_examples_resolve_and_round_trip", "test_random_records_raise_only_rule_errors_and_round_trip"]),
    ("Record: settings travel in the record", ["test_ones_setting_off_leaves_tension", "test_settings_must_be_true_or_false"]),
    ("Record: outcomes are from the player's (or initiator's) point of view", ["test_outcomes_are_from_the_players_point_of_view"]),
]


def test_names():
    names = set()
    for module in Path(__file__).parent.glob("test_rules_*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


test_names.__test__ = False


@pytest.mark.parametrize("name", sorted(SEED_SHA256))
def test_seed_copy_is_unchanged(name):
    assert hashlib.sha256((seeds.SEEDS / name).read_bytes()).hexdigest() == SEED_SHA256[name]


@pytest.mark.parametrize("name", sorted(COVERAGE))
def test_every_seed_sentence_is_mapped_in_order(name):
    found = seeds.sentences(name)
    listed = COVERAGE[name]
    assert len(found) == len(listed), f"{name}: {len(found)} sentences, {len(listed)} mapped"
    for sentence, (start, _) in zip(found, listed):
        assert sentence.startswith(start), (sentence, start)


@pytest.mark.parametrize("name", sorted(COVERAGE))
def test_every_mapped_test_exists(name):
    names = test_names()
    for start, tests in COVERAGE[name]:
        if isinstance(tests, str):
            assert tests.startswith("story:"), start
            continue
        assert tests, start
        for test in tests:
            assert test in names, (start, test)


def test_every_pinned_reading_has_existing_tests():
    names = test_names()
    for reading, tests in PINNED_READINGS:
        assert tests, reading
        for test in tests:
            assert test in names, (reading, test)
