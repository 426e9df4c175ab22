"""Exact odds checked against brute-force enumeration of every roll (Fractions, exact equality)."""

import functools
import itertools
from collections import Counter
from fractions import Fraction

import pytest

import rules
from rules import RuleError, odds


# --- Brute force: enumerate every roll ------------------------------------------------------

@functools.cache
def brute_kept_sum(pool, keep):
    """Counter of totals over all 6**pool rolls, keeping the `keep` highest dice."""
    return Counter(sum(sorted(roll, reverse=True)[:keep]) for roll in itertools.product(range(1, 7), repeat=pool))


@functools.cache
def brute_kept_d10(good, bad):
    net = good - bad
    pick = max if net >= 0 else min
    return Counter(pick(roll) for roll in itertools.product(range(1, 11), repeat=1 + abs(net)))


def brute_compare(first, first_bonus, second, second_bonus):
    """Every pair of totals, weighted: (P(first > second), P(equal), P(first < second), E[max(0, diff)])."""
    total = sum(first.values()) * sum(second.values())
    greater = equal = less = excess = 0
    for (a, count_a), (b, count_b) in itertools.product(first.items(), second.items()):
        weight = count_a * count_b
        a, b = a + first_bonus, b + second_bonus
        greater += weight * (a > b)
        equal += weight * (a == b)
        less += weight * (a < b)
        excess += weight * max(0, a - b)
    return Fraction(greater, total), Fraction(equal, total), Fraction(less, total), Fraction(excess, total)


def brute_joint_environment(tension, pool, ap, boost, extra):
    """Fully naive: every joint roll of the GM's and the player's dice."""
    counts = Counter()
    gm_keep, player_keep = min(tension, 2 + extra), min(pool, 2 + ap)
    bonus = tension - 1 if boost else 0
    for gm in itertools.product(range(1, 7), repeat=tension):
        gm_total = sum(sorted(gm, reverse=True)[:gm_keep]) + bonus
        for player in itertools.product(range(1, 7), repeat=pool):
            player_total = sum(sorted(player, reverse=True)[:player_keep])
            counts["success" if player_total > gm_total else "failure" if player_total < gm_total else "tie"] += 1
    total = 6 ** (tension + pool)
    return {outcome: Fraction(counts[outcome], total) for outcome in ("success", "tie", "failure")}


# --- Tension Engine -------------------------------------------------------------------------

@pytest.mark.parametrize("pool", range(0, 7))
def test_kept_total_distribution_matches_enumeration(pool):
    for keep in range(0, pool + 2):
        expected = brute_kept_sum(pool, min(keep, pool))
        denominator = 6 ** pool
        assert odds.tension_total_distribution(pool, keep) == {
            total: Fraction(count, denominator) for total, count in expected.items()}


@pytest.mark.parametrize("pool", range(0, 7))
def test_kept_totals_keep_two_plus_what_was_paid_as_enumerated(pool):
    for paid in range(0, pool + 1):
        for bonus in (0, 4):
            counts, denominator = brute_kept_sum(pool, min(pool, 2 + paid)), 6 ** pool
            assert odds.tension_kept_totals(pool, paid, bonus) == {
                total + bonus: Fraction(count, denominator) for total, count in sorted(counts.items())}


def test_kept_totals_come_in_ascending_order_for_a_picture():
    for pool, paid in ((0, 0), (1, 0), (5, 0), (15, 13), (41, 39)):
        totals = list(odds.tension_kept_totals(pool, paid))
        assert totals == sorted(totals)


@pytest.mark.parametrize("pool", [7, 10, 15, 40])
def test_kept_sums_match_icepool(pool):
    import icepool

    keeps = range(0, pool + 1) if pool <= 15 else (1, 2, 3, pool - 1, pool)
    table = odds.kept_sum_counts(pool, pool)
    for keep in keeps:
        die = icepool.d6.pool(pool).highest(keep).sum() if keep else icepool.Die([0])
        expected = {total: count * 6 ** pool // die.denominator() for total, count in die.items()}
        assert {total: count for total, count in enumerate(table[keep]) if count} == expected, keep


def test_kept_sums_cache_grows_without_changing_answers():
    odds.clear_cache()
    fresh = {keep: odds.tension_total_distribution(12, keep) for keep in range(0, 13)}
    odds.clear_cache()
    for keep in (2, 3, 5, 4, 12, 0, 7):
        assert odds.tension_total_distribution(12, keep) == fresh[keep]


def test_kept_total_distribution_adds_the_bonus():
    assert odds.tension_total_distribution(1, 2, bonus=4) == {total: Fraction(1, 6) for total in range(5, 11)}


@pytest.mark.parametrize("tension, pool, ap, boost, extra", [
    (3, 3, 0, False, 0), (3, 3, 1, False, 0), (3, 2, 0, True, 0), (4, 2, 0, False, 1), (2, 4, 2, False, 0),
    (1, 3, 0, False, 0), (0, 2, 0, False, 0)])
def test_environment_odds_match_joint_enumeration(tension, pool, ap, boost, extra):
    assert odds.tension_environment(tension, pool, ap, boost, extra) == brute_joint_environment(tension, pool, ap, boost, extra)


@pytest.mark.parametrize("tension, pool", [(6, 5), (5, 6), (6, 6), (4, 5)])
def test_environment_options_match_enumeration_for_every_gm_option(tension, pool):
    for ap in range(0, pool - 1):
        rows = odds.tension_environment_options(tension, pool, ap)
        assert [(row["boost"], row["extra"]) for row in rows] == [
            (option["boost"], option["extra"]) for option in rules.gm_options(tension, tension)]
        for row in rows:
            gm = brute_kept_sum(tension, min(tension, 2 + row["extra"]))
            player = brute_kept_sum(pool, min(pool, 2 + ap))
            success, tie, failure, _ = brute_compare(player, 0, gm, row["bonus"])
            assert (row["success"], row["tie"], row["failure"]) == (success, tie, failure)


def test_environment_odds_with_retry_roll_one_more_gm_die():
    assert odds.tension_environment(3, 3, retry=True) == brute_joint_environment(4, 3, 0, False, 0)
    boosted = odds.tension_environment(2, 2, boost=True, retry=True)
    assert boosted == brute_joint_environment(3, 2, 0, True, 0)


@pytest.mark.parametrize("pool, ap", [(0, 0), (1, 0), (2, 0), (4, 1), (6, 4)])
def test_odds_against_a_known_total_match_enumeration(pool, ap):
    distribution = brute_kept_sum(pool, min(pool, 2 + ap))
    for other_total in range(0, 26):
        success, tie, failure, _ = brute_compare(distribution, 0, Counter({other_total: 1}), 0)
        assert odds.tension_against_total(pool, ap, other_total) == {"success": success, "tie": tie, "failure": failure}


@pytest.mark.parametrize("initiator, defender, tension", [
    ({"side": "adversary", "pool": 6, "boost": True}, {"side": "character", "pool": 5, "ap": 1}, 4),
    ({"side": "character", "pool": 5, "ap": 2}, {"side": "adversary", "pool": 6, "extra": 2}, 5),
    ({"side": "adversary", "pool": 3, "boost": True}, {"side": "adversary", "pool": 3, "boost": True}, 6),
    ({"side": "character", "pool": 4}, {"total": 8}, 3),
    ({"total": 7}, {"side": "character", "pool": 1}, 3)])
def test_opposed_odds_match_enumeration(initiator, defender, tension):
    def distribution(side, tension_now):
        if "total" in side:
            return Counter({side["total"]: 1}), 0, tension_now
        paid = side.get("ap", 0) + side.get("extra", 0)
        tension_now -= side.get("extra", 0) + side.get("boost", False)
        bonus = tension_now if side.get("boost") else 0
        return brute_kept_sum(side["pool"], min(side["pool"], 2 + paid)), bonus, tension_now

    first, first_bonus, tension_left = distribution(initiator, tension)
    second, second_bonus, _ = distribution(defender, tension_left)
    initiator_wins, tie, defender_wins, damage = brute_compare(first, first_bonus, second, second_bonus)
    assert odds.tension_opposed(initiator, defender, tension) == {
        "initiator": initiator_wins, "tie": tie, "defender": defender_wins, "expected_damage": damage}


def test_odds_sum_to_one_for_large_pools():
    chances = odds.tension_environment(40, 15, 13, extra=5)
    assert sum(chances.values()) == 1
    assert sum(odds.tension_total_distribution(40, 2).values()) == 1


def test_odds_refuse_what_the_rules_refuse():
    with pytest.raises(RuleError, match="with 4 Tension the GM can pay at most 2"):
        odds.tension_environment(4, 5, extra=3)
    with pytest.raises(RuleError, match="needs at least 3 Tension"):
        odds.tension_environment(2, 5, boost=True)
    with pytest.raises(RuleError, match="at most 3 AP"):
        odds.tension_environment(5, 5, ap=4)
    with pytest.raises(RuleError, match="not both"):
        odds.tension_environment(9, 5, boost=True, extra=1)
    with pytest.raises(RuleError, match="adversaries don't have AP"):
        odds.tension_opposed({"side": "adversary", "pool": 3, "ap": 1}, {"total": 4}, 5)
    with pytest.raises(RuleError, match="Tension must be a whole number"):
        odds.tension_environment("5", 5)


# --- Anomaly ----------------------------------------------------------------------------------

@pytest.mark.parametrize("good, bad", [(0, 0), (1, 0), (0, 1), (3, 0), (0, 3), (2, 1), (1, 4)])
def test_anomaly_check_matches_enumeration(good, bad):
    modifiers = [{"kind": "Gear", "value": 2}, {"kind": "Gear", "value": 1}, {"kind": "Size", "value": -1}]
    kept = brute_kept_d10(good, bad)
    for difficulty in range(0, 14):
        success, tie, failure, _ = brute_compare(kept, 1, Counter({difficulty: 1}), 0)
        assert odds.anomaly_check(good, bad, modifiers, difficulty) == {"success": success, "failure": tie + failure}


@pytest.mark.parametrize("good, bad", [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (3, 1), (1, 3), (4, 4)])
@pytest.mark.parametrize("modifiers", [
    [], [{"kind": "Gear", "value": 2}, {"kind": "Gear", "value": 3}],
    [{"kind": "Size", "value": -2}, {"kind": "Skill", "value": 4, "stacks": True}, {"kind": "Skill", "value": 1}]])
def test_anomaly_totals_match_enumeration_with_modifiers(good, bad, modifiers):
    applied, _ = rules.select_modifiers(modifiers)
    shift, rolls = sum(modifier["value"] for modifier in applied), 10 ** (1 + abs(good - bad))
    distribution = odds.anomaly_total_distribution(good, bad, modifiers)
    assert distribution == {face + shift: Fraction(count, rolls)
                            for face, count in brute_kept_d10(good, bad).items()}
    assert list(distribution) == sorted(distribution)


def test_anomaly_distribution_matches_enumeration():
    assert odds.anomaly_total_distribution(0, 3, [{"kind": "Skill", "value": 3}]) == {
        face + 3: Fraction(count, 10 ** 4) for face, count in brute_kept_d10(0, 3).items()}


@pytest.mark.parametrize("actor, defender", [
    ({"good": 1}, {"bad": 1}), ({"good": 3, "bad": 1, "modifiers": [{"kind": "Gear", "value": 2}]}, {"good": 1}),
    ({}, {"total": 5}), ({"bad": 2}, {"bad": 2, "modifiers": [{"kind": "Size", "value": -2}]})])
def test_anomaly_opposed_matches_enumeration(actor, defender):
    def side(fields):
        if "total" in fields:
            return Counter({fields["total"]: 1}), 0
        applied, _ = rules.select_modifiers(fields.get("modifiers", []))
        return brute_kept_d10(fields.get("good", 0), fields.get("bad", 0)), sum(m["value"] for m in applied)

    success, tie, failure, _ = brute_compare(*side(actor), *side(defender))
    assert odds.anomaly_opposed(actor, defender) == {"success": success, "failure": tie + failure}


def test_anomaly_opposed_small_pools_by_joint_enumeration():
    # 2 good dice against 1 bad die, every joint roll of 3 + 2 d10.
    wins = sum(max(a) > min(d) for a in itertools.product(range(1, 11), repeat=3)
               for d in itertools.product(range(1, 11), repeat=2))
    assert odds.anomaly_opposed({"good": 2}, {"bad": 1})["success"] == Fraction(wins, 10 ** 5)


def test_anomaly_odds_with_six_good_dice():
    chances = odds.anomaly_check(6, 0, [], 9)
    assert chances["success"] == 1 - Fraction(9, 10) ** 7


# --- After the roll: fewest AP or Tension, by brute force over every choice --------------------

@pytest.mark.parametrize("dice", [[6, 5, 4, 3, 1], [1, 1], [3], [], [2, 2, 2, 6, 6, 1]])
def test_fewest_ap_matches_trying_every_amount(dice):
    for other_total in range(0, 25):
        for goal, reaches in (("win", lambda total: total > other_total), ("tie", lambda total: total >= other_total)):
            possible = [ap for ap in range(0, max(0, len(dice) - 2) + 1)
                        if reaches(sum(sorted(dice, reverse=True)[:min(len(dice), 2 + ap)]))]
            assert rules.fewest_ap(dice, other_total, goal) == (min(possible) if possible else None)


@pytest.mark.parametrize("dice, tension", [([6, 5, 4, 3, 1], 5), ([6, 1, 1], 3), ([3, 3], 2), ([2, 2, 2, 2, 2, 2], 9)])
def test_fewest_tension_matches_trying_every_option(dice, tension):
    for other_total in range(0, 30):
        options = []
        for boost in (False, True):
            for extra in range(0, len(dice) + 1):
                if boost and extra:
                    continue
                cost = extra + boost
                if tension - cost < 2 and cost:
                    continue
                if 2 + extra > max(len(dice), 2):
                    continue
                total = sum(sorted(dice, reverse=True)[:min(len(dice), 2 + extra)]) + (tension - 1 if boost else 0)
                if total > other_total:
                    # Among equally cheap options with equal totals, gm_options order wins: boost, then extra.
                    options.append((cost, -total, 0 if boost else 1, boost, extra))
        found = rules.fewest_tension(dice, tension, other_total)
        if not options:
            assert found is None
        else:
            cost, negative_total, _, boost, extra = min(options)
            assert found == {"boost": boost, "extra": extra, "cost": cost, "total": -negative_total}
