"""Properties that hold for every record (hypothesis), including garbage ones."""

import json
import os
import random

import seeds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules import RuleError, odds
from rules.manners import MIRROR, decide

# RULES_FUZZ_EXAMPLES=20000 runs a long fuzzing session; the default keeps the suite fast.
FUZZ = settings(max_examples=int(os.environ.get("RULES_FUZZ_EXAMPLES", "300")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=150, deadline=None)


class RandomSource:
    """Adapts hypothesis's `random.Random` to the rules' random source."""

    def __init__(self, generator: random.Random):
        self.generator = generator

    def randint(self, low, high):
        return self.generator.randint(low, high)


sources = st.randoms(use_true_random=False).map(RandomSource)

junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=8)


def mostly(strategy):
    """Usually a plausible value, sometimes garbage, sometimes nothing."""
    return st.one_of(strategy, strategy, strategy, junk, st.none())


def dice_or_none(draw, count, sides):
    if draw(st.booleans()):
        return None
    return draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))


def keep_or_none(draw, dice):
    if dice is None or draw(st.integers(0, 3)):
        return None
    return sorted(draw(st.sets(st.integers(0, max(0, len(dice) - 1)), max_size=len(dice))))


@st.composite
def tension_sides_strategy(draw, role, tension=0):
    """A plausible side: given as a total, or pool, dice and spending (often, not always, legal)."""
    if role != "player" and draw(st.integers(0, 5)) == 0:
        return {"name": draw(st.text(max_size=6)), "total": draw(st.integers(0, 30))}
    side = {"name": draw(st.sampled_from(["Ash", "Ghoul", "", "Rat"]))}
    if role == "gm":
        pool = tension
    else:
        pool = draw(st.integers(0, 8))
        side["pool"] = pool
        side["side"] = role if role in ("character", "adversary") else "character"
    character = side.get("side") == "character"
    side["dice"] = dice_or_none(draw, pool, 6)
    side["keep"] = keep_or_none(draw, side["dice"])
    if character:
        side["ap"] = draw(st.integers(0, 3))
    else:
        side["boost"] = draw(st.integers(0, 3)) == 0
        side["extra"] = draw(st.sampled_from([0, 0, 0, 1, 2, 3]))
    return side


@st.composite
def tension_records(draw):
    tension = draw(st.integers(0, 25))
    record = {"v": 1, "system": "tension", "tension": tension}
    if draw(st.booleans()):
        record["kind"] = "environment"
        record["retry"] = draw(st.booleans())
        record["gm"] = draw(tension_sides_strategy("gm", tension + record["retry"]))
        record["player"] = draw(tension_sides_strategy("player"))
    else:
        record["kind"] = "opposed"
        record["combat"] = draw(st.booleans())
        roles = st.sampled_from(["character", "adversary"])
        record["initiators"] = [draw(tension_sides_strategy(draw(roles))) for _ in range(draw(st.integers(1, 3)))]
        record["defender"] = draw(tension_sides_strategy(draw(roles)))
    if draw(st.booleans()):
        record["settings"] = {"ones_feed_tension": draw(st.booleans()), "tension_explodes": draw(st.booleans())}
    return record


modifier = st.fixed_dictionaries({"kind": st.sampled_from(["Gear", "gear", "Size", "Skill", "Luck"]),
                                  "value": st.integers(-5, 5)}, optional={"stacks": st.booleans()})


@st.composite
def anomaly_sides(draw, may_give_total=False):
    if may_give_total and draw(st.integers(0, 4)) == 0:
        return {"name": "Vex", "total": draw(st.integers(-5, 30))}
    good, bad = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    return {"name": draw(st.sampled_from(["Rook", "Vex", ""])), "good": good, "bad": bad,
            "dice": dice_or_none(draw, rules.dice_count(good, bad), 10),
            "modifiers": draw(st.lists(modifier, max_size=4))}


@st.composite
def anomaly_records(draw):
    record = {"v": 1, "system": "anomaly", "actor": draw(anomaly_sides())}
    if draw(st.booleans()):
        record.update(kind="check", difficulty=draw(st.integers(0, 20)))
    else:
        record.update(kind="opposed", defender=draw(anomaly_sides(may_give_total=True)))
    return record


character = st.fixed_dictionaries({
    "name": st.sampled_from(["Wren", "Moth", ""]), "manner": st.sampled_from(rules.MANNERS),
    "manner_rating": st.integers(0, 6), "skill": st.sampled_from(["Climb", "Lie"]),
    "skill_rating": st.integers(0, 6), "helpers": st.integers(0, 3), "descriptors": st.integers(0, 3)})


@st.composite
def manners_records(draw):
    record = {"v": 1, "system": "manners", "player": draw(character)}
    if draw(st.booleans()):
        record.update(kind="test", difficulty=draw(st.integers(1, 8)),
                      complication=draw(st.sampled_from(rules.COMPLICATIONS)))
    else:
        record.update(kind="confrontation", opponent=draw(character))
    return record


def paths(value, prefix=()):
    """Every (path) to a field or item inside a record."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield prefix + (key,)
        yield from paths(item, prefix + (key,))


@st.composite
def mutated(draw, records):
    """A plausible record, then (often) one to three fields replaced by garbage or removed."""
    record = draw(records)
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2, 3]))):
        places = list(paths(record))
        if not places:
            break
        *parents, last = draw(st.sampled_from(places))
        container = record
        for key in parents:
            container = container[key]
        if isinstance(container, dict) and draw(st.booleans()):
            del container[last]
        else:
            container[last] = draw(st.one_of(junk, st.integers(-3, 45)))
    if draw(st.integers(0, 4)) == 0:
        record["result"] = draw(junk)
    return record


tension_record = mutated(tension_records())
anomaly_record = mutated(anomaly_records())
manners_record = mutated(manners_records())
any_record = st.one_of(tension_record, anomaly_record, manners_record, junk)
tension_side = tension_sides_strategy("character") | tension_sides_strategy("adversary") | junk
anomaly_side = anomaly_sides(may_give_total=True) | junk


# --- Random records only ever raise RuleError, and round-trip through JSON -----------------------

@FUZZ
@given(record=any_record, source=sources)
def test_random_records_raise_only_rule_errors_and_round_trip(record, source):
    try:
        resolved = rules.resolve(record, source)
    except RuleError as error:
        assert error.message and isinstance(error.message, str)
        return
    assert json.loads(json.dumps(resolved, allow_nan=False)) == resolved
    again = rules.resolve({key: value for key, value in resolved.items() if key != "result"}, rules.NoDice())
    assert again == resolved
    assert rules.verify(resolved) == []
    assert set(resolved["result"]["notes"]) <= set(rules.READINGS)


@QUICK
@given(record=any_record)
def test_verify_never_raises(record):
    problems = rules.verify(record)
    assert isinstance(problems, list) and all(isinstance(problem, str) for problem in problems)


# --- Tension Engine --------------------------------------------------------------------------

def tension_sides(result):
    if "gm" in result:
        return [result["gm"], result["player"]]
    return result["initiators"] + [result["defender"]]


@FUZZ
@given(record=tension_record, source=sources)
def test_totals_never_exceed_kept_dice_plus_options(record, source):
    try:
        result = rules.resolve(record, source)["result"]
    except RuleError:
        return
    for side in tension_sides(result):
        if side["given_total"]:
            continue
        assert side["total"] == sum(side["kept"]) + side["boost"]
        assert side["boost"] <= result["tension_before"]
        assert side["total"] <= 6 * len(side["kept"]) + side["boost"]


@FUZZ
@given(record=tension_record, source=sources)
def test_spending_never_takes_tension_below_two(record, source):
    try:
        result = rules.resolve(record, source)["result"]
    except RuleError:
        return
    for change in result["tension_changes"]:
        if change["why"] in ("boost", "extra"):
            assert change["after"] >= 2
    assert result["tension_after"] == result["tension_before"] + sum(c["change"] for c in result["tension_changes"])


@QUICK
@given(tension=st.integers(0, 12), dice=st.lists(st.integers(1, 6), max_size=8), boost=st.booleans(),
       extra=st.integers(0, 10))
def test_gm_spending_is_allowed_exactly_when_two_tension_remain(tension, dice, boost, extra):
    record = {"v": 1, "system": "tension", "kind": "opposed", "tension": tension,
              "initiators": [{"side": "adversary", "pool": len(dice), "dice": dice, "boost": boost, "extra": extra}],
              "defender": {"total": 5}}
    cost = 1 if boost else extra
    allowed = not (boost and extra) and (cost == 0 or tension - cost >= 2) and extra <= max(0, len(dice) - 2)
    try:
        rules.resolve(record)
        assert allowed
    except RuleError:
        assert not allowed


@QUICK
@given(dice=st.lists(st.integers(1, 6), min_size=0, max_size=8), gm_total=st.integers(0, 30))
def test_fewest_ap_is_the_least_ap_that_succeeds(dice, gm_total):
    def outcome(ap):
        record = {"v": 1, "system": "tension", "kind": "environment", "tension": 3, "gm": {"total": gm_total},
                  "player": {"pool": len(dice), "dice": dice, "ap": ap}}
        return rules.resolve(record)["result"]["outcome"]

    fewest = rules.fewest_ap(dice, gm_total)
    if fewest is None:
        assert all(outcome(ap) != "success" for ap in range(max(0, len(dice) - 2) + 1))
    else:
        assert outcome(fewest) == "success"
        assert all(outcome(ap) != "success" for ap in range(fewest))


@QUICK
@given(tension=st.integers(0, 12), pool=st.integers(0, 6), ap=st.integers(0, 4))
def test_environment_odds_sum_to_one(tension, pool, ap):
    try:
        rows = odds.tension_environment_options(tension, pool, ap)
    except RuleError:
        assert ap > max(0, pool - 2)
        return
    for row in rows:
        assert row["success"] + row["tie"] + row["failure"] == 1
        assert all(0 <= row[key] <= 1 for key in ("success", "tie", "failure"))


@QUICK
@given(pool=st.integers(0, 12), data=st.data(), target=st.integers(-1, 40))
def test_kept_totals_sum_to_one_and_agree_with_the_chance_against_a_total(pool, data, target):
    ap = data.draw(st.integers(0, max(0, pool - 2)))
    totals = odds.tension_kept_totals(pool, ap)
    assert sum(totals.values()) == 1 and all(chance > 0 for chance in totals.values())
    chances = odds.tension_against_total(pool, ap, max(0, target))
    assert sum(chance for total, chance in totals.items() if total > max(0, target)) == chances["success"]
    assert totals.get(max(0, target), 0) == chances["tie"]


@QUICK
@given(tension=st.integers(0, 9), pool=st.integers(0, 8), data=st.data())
def test_kept_totals_of_both_sides_agree_with_the_environment_odds(tension, pool, data):
    ap = data.draw(st.integers(0, max(0, pool - 2)))
    option = data.draw(st.sampled_from(rules.gm_options(tension, tension)))
    player = odds.tension_kept_totals(pool, ap)
    gm = odds.tension_kept_totals(tension, option["extra"], option["bonus"])
    success = sum(p * g for mine, p in player.items() for theirs, g in gm.items() if mine > theirs)
    tie = sum(p * gm.get(mine, 0) for mine, p in player.items())
    chances = odds.tension_environment(tension, pool, ap, option["boost"], option["extra"])
    assert (success, tie) == (chances["success"], chances["tie"])


# --- Anomaly -----------------------------------------------------------------------------------

@QUICK
@given(good=st.integers(0, 6), bad=st.integers(0, 6), data=st.data())
def test_good_bad_cancellation_is_symmetric(good, bad, data):
    assert rules.net_dice(good, bad) == {"good": rules.net_dice(bad, good)["bad"], "bad": rules.net_dice(bad, good)["good"]}
    dice = data.draw(st.lists(st.integers(1, 10), min_size=rules.dice_count(good, bad), max_size=rules.dice_count(good, bad)))

    def kept(good, bad):
        record = {"v": 1, "system": "anomaly", "kind": "check", "difficulty": 5,
                  "actor": {"good": good, "bad": bad, "dice": dice}}
        return rules.resolve(record)["result"]["actor"]["kept"]

    if good == bad:
        assert kept(good, bad) == kept(bad, good) == dice[0]
    else:
        assert {kept(good, bad), kept(bad, good)} == {max(dice), min(dice)}
    # Mirrored faces: the distribution with good and bad swapped is 11 - x.
    forward = odds.anomaly_total_distribution(good, bad)
    backward = odds.anomaly_total_distribution(bad, good)
    assert forward == {11 - face: chance for face, chance in backward.items()}


@QUICK
@given(modifiers=st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["Gear", "Size", "gear"]),
                                                  "value": st.integers(-4, 4), "stacks": st.booleans()}), max_size=6))
def test_modifiers_split_into_applied_and_left_out(modifiers):
    applied, left_out = rules.select_modifiers(modifiers)
    assert len(applied) + len(left_out) == len(modifiers)
    assert all(modifier["stacks"] for modifier in applied) or any(not m["stacks"] for m in applied)
    kinds = {modifier["kind"].casefold() for modifier in modifiers if not modifier["stacks"]}
    assert len([m for m in applied if not m["stacks"]]) == len(kinds)
    assert all(not modifier["stacks"] for modifier in left_out)


# --- Manner Cards ----------------------------------------------------------------------------

SEED_CONFRONTATION = seeds.markdown_table(seeds.MANNER_CARDS, "Confrontation Resolution Table")[1]
SEED_TEST = seeds.markdown_table(seeds.MANNER_CARDS, "Test Resolution Table")[1]
SEED_MIRROR = {"Win": "Lose", "Lose": "Win", "+2": "Partial", "Partial": "+2", "+0": "+0"}


@QUICK
@given(manner=st.sampled_from(list(SEED_CONFRONTATION)), opposing=st.sampled_from(list(SEED_CONFRONTATION)))
def test_seed_confrontation_table_is_antisymmetric(manner, opposing):
    cell, seen_from_the_other_side = SEED_CONFRONTATION[manner][opposing], SEED_CONFRONTATION[opposing][manner]
    assert cell == SEED_MIRROR[seen_from_the_other_side]
    if manner == opposing:
        assert cell == "+0"


def test_seed_test_table_gives_each_cell_once_per_row_and_column():
    cells = set(SEED_MIRROR)
    for row in SEED_TEST.values():
        assert set(row.values()) == cells
    for column in next(iter(SEED_TEST.values())):
        assert {row[column] for row in SEED_TEST.values()} == cells


def test_mirror_in_code_matches_the_seed_reading():
    assert MIRROR == SEED_MIRROR


@QUICK
@given(player=st.fixed_dictionaries({"manner": st.sampled_from(rules.MANNERS), "manner_rating": st.integers(0, 6),
                                     "skill_rating": st.integers(0, 4), "helpers": st.integers(0, 3),
                                     "descriptors": st.integers(0, 3)}),
       opponent=st.fixed_dictionaries({"manner": st.sampled_from(rules.MANNERS), "manner_rating": st.integers(0, 6),
                                       "skill_rating": st.integers(0, 4), "helpers": st.integers(0, 3),
                                       "descriptors": st.integers(0, 3)}))
def test_confrontation_seen_from_either_side_agrees(player, opponent):
    def resolve(first, second):
        return rules.resolve({"v": 1, "system": "manners", "kind": "confrontation",
                              "player": first, "opponent": second})["result"]

    forward, backward = resolve(player, opponent), resolve(opponent, player)
    swap = {"player": "other", "other": "player", "both": "both"}
    assert backward["winner"] == swap[forward["winner"]]
    assert backward["partial"] == forward["partial"]
    assert (backward["player_total"], backward["other_total"]) == (forward["other_total"], forward["player_total"])
    assert backward["cell"] == MIRROR[forward["cell"]]


@QUICK
@given(cell=st.sampled_from(["+2", "+0", "Partial"]), player_number=st.integers(0, 12), other_number=st.integers(0, 12),
       player_descriptors=st.integers(0, 3), other_descriptors=st.integers(0, 3))
def test_numbers_decide_every_comparing_cell(cell, player_number, other_number, player_descriptors, other_descriptors):
    decision = decide(cell, player_number, other_number, player_descriptors, other_descriptors)
    assert decision["player_total"] - player_number == (2 if cell == "+2" else 0)
    assert decision["other_total"] - other_number == (2 if cell == "Partial" else 0)
    if decision["winner"] == "player":
        assert (decision["player_total"], player_descriptors) > (decision["other_total"], other_descriptors)


@QUICK
@given(actor=anomaly_sides(), defender=anomaly_sides(), difficulty=st.integers(0, 25))
def test_anomaly_totals_sum_to_one_and_agree_with_the_chances(actor, defender, difficulty):
    mine = odds.anomaly_total_distribution(actor["good"], actor["bad"], actor["modifiers"])
    theirs = odds.anomaly_total_distribution(defender["good"], defender["bad"], defender["modifiers"])
    assert sum(mine.values()) == 1 and len(mine) <= 10
    check = odds.anomaly_check(actor["good"], actor["bad"], actor["modifiers"], difficulty)
    assert sum(chance for total, chance in mine.items() if total > difficulty) == check["success"]
    opposed = odds.anomaly_opposed(actor, defender)
    assert sum(p * q for a, p in mine.items() for d, q in theirs.items() if a > d) == opposed["success"]


# --- Odds functions given garbage raise only RuleError -----------------------------------------

small_or_junk = st.one_of(st.integers(-2, 9), junk)


@FUZZ
@given(arguments=st.lists(small_or_junk, min_size=4, max_size=4), flags=st.lists(st.one_of(st.booleans(), junk), min_size=2, max_size=2),
       sides=st.lists(st.one_of(tension_side, anomaly_side, junk), min_size=2, max_size=2))
def test_odds_given_garbage_raise_only_rule_errors(arguments, flags, sides):
    first, second, third, fourth = arguments
    calls = [
        lambda: odds.tension_environment(first, second, third, flags[0], fourth, flags[1]),
        lambda: odds.tension_environment_options(first, second, third, flags[0]),
        lambda: odds.tension_against_total(first, second, third),
        lambda: odds.tension_total_distribution(first, second, third),
        lambda: odds.tension_kept_totals(first, second, third),
        lambda: odds.anomaly_total_distribution(first, second, sides[0].get("modifiers") if isinstance(sides[0], dict) else third),
        lambda: odds.tension_opposed(sides[0], sides[1], first),
        lambda: odds.anomaly_check(first, second, sides[0].get("modifiers") if isinstance(sides[0], dict) else third, fourth),
        lambda: odds.anomaly_opposed(sides[0], sides[1]),
        lambda: rules.fewest_ap(sides[0].get("dice") if isinstance(sides[0], dict) else first, second, flags[0]),
        lambda: rules.fewest_tension(sides[1].get("dice") if isinstance(sides[1], dict) else first, second, third),
        lambda: rules.gm_options(first, second),
        lambda: rules.outcomes_for_test(sides[0], first),
        lambda: rules.outcomes_for_confrontation(sides[0], sides[1]),
        lambda: rules.tension_side(sides[0], flags[0], first),
        lambda: rules.tension_table_line(first, sides[0]),
        lambda: rules.starting_tension(first),
        lambda: rules.best_keep(sides[0].get("dice") if isinstance(sides[0], dict) else first, second),
        lambda: rules.net_dice(first, second),
        lambda: rules.roll(first, second, rules.SeededSource(0)),
        lambda: rules.dice_count(first, second),
        lambda: rules.select_modifiers(sides[0].get("modifiers") if isinstance(sides[0], dict) else first),
        lambda: rules.check_faces(sides[0].get("dice") if isinstance(sides[0], dict) else first, second, 6),
        lambda: rules.check_tension_table(sides[1]),
        lambda: rules.explosions_between(first, second),
    ]
    for call in calls:
        try:
            call()
        except RuleError:
            pass
