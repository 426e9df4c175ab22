"""Exact odds before a roll, as Fractions, for the choices on screen.

Anomaly's d10 distributions come from icepool, imported on the first Anomaly
query, never by `import rules`. The Tension Engine's "sum of the k highest of
n d6" comes from `kept_sum_counts`, a dynamic programme that yields every
keep count of a pool in one pass: icepool evaluates one keep count at a time
(about 0.7 s cold for all 39 GM options at Tension 40, against 20 ms here).
Tests check it against icepool and against brute-force enumeration.
The chance of each total a side can roll (`tension_kept_totals`,
`anomaly_total_distribution`) is what the chances compare, for the odds' pictures.
Everything is cached, so the UI may ask again on every input change.
Deterministic helpers (fewest AP after a roll, Manner outcomes) live in the
rules package itself.
"""

import functools
from collections import OrderedDict
from fractions import Fraction
from math import comb

from . import anomaly
from . import tension as tension_rules
from .errors import RecordError, SpendingError
from .record import check_boolean, check_integer, read_name


@functools.cache
def _icepool():
    import icepool
    return icepool


# A distribution is (outcomes ascending, counts, denominator): exact, hashable, cheap to compare.

def kept_sum_counts(pool: int, most_keep: int, sides: int = 6) -> list[list[int]]:
    """counts[keep][total] for keep = 0..most_keep: in how many of the sides**pool rolls
    the `keep` highest dice add up to `total`.

    Faces are visited from the highest down. A state is (dice seen so far, their
    sum), all showing at least the current face, weighted by the ways to choose
    those dice and their faces. When `need` more dice of the current face
    complete a keep count, the rest of the roll only has to show this face or
    lower: the number of ways is a binomial tail, so the keep is settled at once.
    """
    most_keep = min(most_keep, pool)
    done = [[0] * (sides * keep + 1) for keep in range(most_keep + 1)]
    done[0][0] = sides ** pool
    state = {0: [1]}
    for face in range(sides, 0, -1):
        lower = face - 1
        following: dict[int, list[int]] = {}
        for seen, sums in state.items():
            rest = pool - seen
            nonzero = [(total, ways) for total, ways in enumerate(sums) if ways]
            # tails[need]: ways for the other `rest` dice to show `face` at least `need` times, the rest lower.
            tails = [0] * (rest + 2)
            for count in range(rest, -1, -1):
                tails[count] = tails[count + 1] + comb(rest, count) * lower ** (rest - count)
            for need in range(1, min(rest, most_keep - seen) + 1):
                target, shift, ways = done[seen + need], need * face, tails[need]
                for total, number in nonzero:
                    target[total + shift] += number * ways
            for count in range(0, min(rest, most_keep - seen)):
                index = seen + count
                target = following.get(index)
                if target is None:
                    target = following[index] = [0] * (sides * index + 1)
                shift, ways = count * face, comb(rest, count)
                for total, number in nonzero:
                    target[total + shift] += number * ways
        state = following
    return done


_KEPT_SUMS: OrderedDict[int, list[tuple]] = OrderedDict()
_KEPT_SUMS_POOLS = 32


def _kept_sum(pool: int, keep: int) -> tuple:
    """Sum of the `keep` highest of `pool` d6. Each pool's table is computed for keep counts
    up to twice what was last needed, so stepping through GM options stays cheap."""
    keep = min(keep, pool)
    table = _KEPT_SUMS.get(pool)
    if table is None or keep >= len(table):
        most_keep = max(keep, 2 * (len(table) - 1) if table else 2)
        denominator = 6 ** pool
        table = [(tuple(total for total, count in enumerate(counts) if count),
                  tuple(count for count in counts if count), denominator)
                 for counts in kept_sum_counts(pool, most_keep)]
        _KEPT_SUMS[pool] = table
    _KEPT_SUMS.move_to_end(pool)
    while len(_KEPT_SUMS) > _KEPT_SUMS_POOLS:
        _KEPT_SUMS.popitem(last=False)
    return table[keep]


@functools.lru_cache(maxsize=256)
def _kept_d10(good: int, bad: int) -> tuple:
    """The kept d10 after good and bad dice cancel."""
    icepool = _icepool()
    net = anomaly.net_dice(good, bad)
    if net["good"]:
        return _from_die(icepool.d10.highest(1 + net["good"]))
    if net["bad"]:
        return _from_die(icepool.d10.lowest(1 + net["bad"]))
    return _from_die(icepool.d10)


def _from_die(die) -> tuple:
    return tuple(die.outcomes()), tuple(die.quantities()), die.denominator()


def _point(total: int) -> tuple:
    return (total,), (1,), 1


def _compare(first: tuple, first_shift: int, second: tuple, second_shift: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P(first > second), P(first == second), P(first < second)) for independent totals."""
    first_outcomes, first_counts, first_denominator = first
    second_outcomes, second_counts, second_denominator = second
    at = dict(zip(second_outcomes, second_counts))
    greater = equal = below = position = 0
    for outcome, count in zip(first_outcomes, first_counts):
        level = outcome + first_shift - second_shift
        while position < len(second_outcomes) and second_outcomes[position] < level:
            below += second_counts[position]
            position += 1
        greater += count * below
        equal += count * at.get(level, 0)
    total = first_denominator * second_denominator
    return Fraction(greater, total), Fraction(equal, total), Fraction(total - greater - equal, total)


def _expected_excess(first: tuple, first_shift: int, second: tuple, second_shift: int) -> Fraction:
    """E[max(0, first - second)]: the average damage an initiator deals."""
    first_outcomes, first_counts, first_denominator = first
    second_outcomes, second_counts, second_denominator = second
    excess = below = below_sum = position = 0
    for outcome, count in zip(first_outcomes, first_counts):
        level = outcome + first_shift - second_shift
        while position < len(second_outcomes) and second_outcomes[position] < level:
            below += second_counts[position]
            below_sum += second_counts[position] * second_outcomes[position]
            position += 1
        excess += count * (level * below - below_sum)
    return Fraction(excess, first_denominator * second_denominator)


def _as_fractions(distribution: tuple, shift: int = 0) -> dict[int, Fraction]:
    outcomes, counts, denominator = distribution
    return {outcome + shift: Fraction(count, denominator) for outcome, count in zip(outcomes, counts)}


# --- Tension Engine -------------------------------------------------------------------

def tension_total_distribution(pool, keep, bonus=0) -> dict[int, Fraction]:
    """Chance of each total when `keep` of `pool` d6 are kept (the highest), plus `bonus`."""
    pool = check_integer(pool, "The pool", 0, tension_rules.MAX_TENSION + 1)
    keep = check_integer(keep, "The dice kept", 0, tension_rules.MAX_TENSION + 1)
    bonus = check_integer(bonus, "The bonus", 0, tension_rules.MAX_TOTAL)
    return _as_fractions(_kept_sum(pool, min(keep, pool)), bonus)


def tension_kept_totals(pool, paid=0, bonus=0) -> dict[int, Fraction]:
    """Chance of each total for a side that rolls `pool` d6 and keeps the highest two plus one
    per AP or Tension `paid` (a side with fewer dice keeps them all), plus `bonus` (a boost):
    the totals that tension_against_total and tension_environment compare, for a picture."""
    pool = check_integer(pool, "The pool", 0, tension_rules.MAX_TENSION + 1)
    paid = check_integer(paid, "The extra dice kept", 0, tension_rules.MAX_TENSION + 1)
    bonus = check_integer(bonus, "The bonus", 0, tension_rules.MAX_TOTAL)
    return _as_fractions(_kept_sum(pool, tension_rules.kept_count(pool, paid)), bonus)


def _character_roll(pool, ap) -> tuple:
    pool = check_integer(pool, "The pool", 0, tension_rules.MAX_POOL)
    ap = check_integer(ap, "The AP spent", 0, tension_rules.MAX_POOL)
    tension_rules.check_ap(ap, pool, "The player")
    return _kept_sum(pool, tension_rules.kept_count(pool, ap))


def tension_against_total(pool, ap, other_total) -> dict[str, Fraction]:
    """A character rolling `pool` d6 and spending `ap` against a known total (the GM's, announced):
    {"success", "tie", "failure"}."""
    roll = _character_roll(pool, ap)
    other_total = check_integer(other_total, "The other total", 0, tension_rules.MAX_TOTAL)
    success, tie, failure = _compare(roll, 0, _point(other_total), 0)
    return {"success": success, "tie": tie, "failure": failure}


def tension_environment(tension, pool, ap=0, boost=False, extra=0, retry=False) -> dict[str, Fraction]:
    """The player's chances against the environment before the GM rolls, for one GM option:
    {"success", "tie", "failure"}. With `retry` the GM rolls one more die (Tension +1 first)."""
    tension = check_integer(tension, "Tension", 0, tension_rules.MAX_TENSION)
    retry = check_boolean(retry, "Trying again")
    boost = check_boolean(boost, "Boost")
    extra = check_integer(extra, "The extra dice the GM pays for", 0, tension_rules.MAX_TENSION)
    gm_pool = tension + retry
    if boost and extra:
        raise SpendingError("The GM may boost or pay for extra dice on one roll, not both.")
    if boost:
        tension_rules.check_boost(gm_pool)
    if extra:
        tension_rules.check_extra(gm_pool, extra, gm_pool, "The GM")
    bonus = gm_pool - tension_rules.BOOST_COST if boost else 0
    gm = _kept_sum(gm_pool, tension_rules.kept_count(gm_pool, extra))
    success, tie, failure = _compare(_character_roll(pool, ap), 0, gm, bonus)
    return {"success": success, "tie": tie, "failure": failure}


def tension_environment_options(tension, pool, ap=0, retry=False) -> list[dict]:
    """One row per GM option (none, boost, extra 1..N): the option's fields from
    `rules.gm_options` plus the player's "success", "tie" and "failure" chances."""
    tension = check_integer(tension, "Tension", 0, tension_rules.MAX_TENSION)
    gm_pool = tension + check_boolean(retry, "Trying again")
    _kept_sum(gm_pool, gm_pool)  # one pass fills every keep count the options need
    rows = []
    for option in tension_rules.gm_options(gm_pool, gm_pool):
        chances = tension_environment(tension, pool, ap, option["boost"], option["extra"], retry)
        rows.append(dict(option, **chances))
    return rows


def _side_roll(fields, log: tension_rules.TensionLog, label: str) -> tuple[tuple, int]:
    """(distribution, bonus) for one opposed side, spending from `log` like a real roll."""
    if not isinstance(fields, dict):
        raise RecordError(f"{label} must be a group of fields.")
    fields = {key: value for key, value in fields.items() if key not in ("dice", "keep")}
    who = read_name(fields, label, None)
    side = tension_rules.read_side(fields, tension_rules.read_side_choice(fields, None, who), None, who)
    if side.given_total is not None:
        return _point(side.given_total), 0
    paid = tension_rules.pay(side, log)
    bonus = log.tension if side.boost else 0
    return _kept_sum(side.pool, tension_rules.kept_count(side.pool, paid)), bonus


def tension_opposed(initiator, defender, tension) -> dict[str, Fraction]:
    """Chances for one initiator against the defender, each given like a record side
    ({"side", "pool", "ap"} / {"side", "pool", "boost", "extra"} / {"total"}); Tension is
    spent by the initiator first, then the defender.
    Returns {"initiator", "tie", "defender", "expected_damage"} (damage as if in combat)."""
    log = tension_rules.TensionLog(check_integer(tension, "Tension", 0, tension_rules.MAX_TENSION))
    first, first_bonus = _side_roll(initiator, log, "The initiator")
    second, second_bonus = _side_roll(defender, log, "The defender")
    initiator_wins, tie, defender_wins = _compare(first, first_bonus, second, second_bonus)
    return {"initiator": initiator_wins, "tie": tie, "defender": defender_wins,
            "expected_damage": _expected_excess(first, first_bonus, second, second_bonus)}


# --- Anomaly ----------------------------------------------------------------------------

def _anomaly_roll(fields, label: str) -> tuple[tuple, int]:
    """(kept-die distribution, modifier total) for one side, or a point for a given total."""
    if not isinstance(fields, dict):
        raise RecordError(f"{label} must be a group of fields.")
    if fields.get("total") is not None:
        return _point(anomaly.given_defender(fields, None)["total"]), 0
    roller = anomaly.read_roller({key: value for key, value in fields.items() if key != "dice"}, None, label)
    applied, _ = anomaly.select_modifiers(roller["modifiers"])
    return _kept_d10(roller["good"], roller["bad"]), sum(modifier["value"] for modifier in applied)


def anomaly_total_distribution(good, bad, modifiers=None) -> dict[int, Fraction]:
    """Chance of each total for a roll with these good and bad dice and modifiers (the largest of
    each kind applied, as a roll applies them): the totals that anomaly_check compares."""
    kept, modifier_total = _anomaly_roll({"good": good, "bad": bad, "modifiers": modifiers}, "The roll")
    return _as_fractions(kept, modifier_total)


def anomaly_check(good, bad, modifiers, difficulty) -> dict[str, Fraction]:
    """Chance that the total beats `difficulty` (equal is not enough): {"success", "failure"}."""
    kept, modifier_total = _anomaly_roll({"good": good, "bad": bad, "modifiers": modifiers}, "The roll")
    difficulty = check_integer(difficulty, "The difficulty", 0, anomaly.MAX_DIFFICULTY)
    success, tie, failure = _compare(kept, modifier_total, _point(difficulty), 0)
    return {"success": success, "failure": tie + failure}


def anomaly_opposed(actor, defender) -> dict[str, Fraction]:
    """Chance that the actor's total beats the defender's (each {"good", "bad", "modifiers"},
    or the defender as {"total"}): {"success", "failure"}."""
    first, first_shift = _anomaly_roll(actor, "The attacker")
    second, second_shift = _anomaly_roll(defender, "The defender")
    success, tie, failure = _compare(first, first_shift, second, second_shift)
    return {"success": success, "failure": tie + failure}


def clear_cache() -> None:
    """Forget cached distributions (benchmarks use it to time cold queries)."""
    _KEPT_SUMS.clear()
    _kept_d10.cache_clear()
