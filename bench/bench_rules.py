"""Benchmark of the rules engine under CPython: `resolve` and every odds query the UI makes.

For each query: the median of many warm calls, the first call in a fresh
process (icepool already imported; its import is timed on its own row), and a
baseline computed in the same run (brute-force enumeration where that is
feasible, a naive resolve without checks, or icepool used directly), with
the ratio baseline / query. The aim is every odds query under 5 ms.

Usage: .venv/bin/python bench/bench_rules.py [--quick]
"""

import argparse
import itertools
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = ROOT / "py"
sys.path.insert(0, str(PY))

import rules  # noqa: E402
from rules import odds  # noqa: E402

AIM_MS = 5.0

# --- Records: typical and the largest sensible ones -------------------------------------------

ENVIRONMENT = {"v": 1, "system": "tension", "kind": "environment", "tension": 5,
               "gm": {"dice": None, "keep": None, "boost": True, "extra": 0},
               "player": {"name": "Ash", "pool": 6, "dice": None, "keep": None, "ap": 1}}
ENVIRONMENT_LARGEST = {"v": 1, "system": "tension", "kind": "environment", "tension": 40, "retry": True,
                       "gm": {"dice": None, "keep": None, "boost": False, "extra": 20},
                       "player": {"name": "Ash", "pool": 15, "dice": None, "keep": None, "ap": 13}}
OPPOSED_LARGEST = {"v": 1, "system": "tension", "kind": "opposed", "tension": 40, "combat": True,
                   "initiators": [{"name": f"Ghoul {n}", "side": "adversary", "pool": 15, "boost": n == 0,
                                   "extra": 0 if n == 0 else 5} for n in range(4)],
                   "defender": {"name": "Ash", "side": "character", "pool": 15, "ap": 13}}
ANOMALY_LARGEST = {"v": 1, "system": "anomaly", "kind": "opposed",
                   "actor": {"name": "Rook", "good": 6, "bad": 0, "dice": None,
                             "modifiers": [{"kind": kind, "value": value, "stacks": value == 1}
                                           for kind in ("Gear", "Size", "Skill") for value in (1, 2, 3)]},
                   "defender": {"name": "Vex", "good": 0, "bad": 6, "dice": None, "modifiers": []}}
MANNERS_TEST = {"v": 1, "system": "manners", "kind": "test",
                "player": {"name": "Wren", "manner": "Force", "manner_rating": 3, "skill": "Climb",
                           "skill_rating": 2, "helpers": 1, "descriptors": 1},
                "difficulty": 5, "complication": "Hostility"}
RATINGS = {"manner_ratings": dict(zip(rules.MANNERS, (3, 2, 4, 1, 2))), "skill_rating": 2, "helpers": 1,
           "descriptors": 1}
MODIFIERS = ANOMALY_LARGEST["actor"]["modifiers"]


# --- Baselines ----------------------------------------------------------------------------------

def naive_environment(record, generator=random.Random(1)):
    """A resolve with no checks, no copy, no log: the floor for what `resolve` costs."""
    gm = sorted((generator.randint(1, 6) for _ in range(record["tension"])), reverse=True)
    player = sorted((generator.randint(1, 6) for _ in range(record["player"]["pool"])), reverse=True)
    gm_total = sum(gm[:2 + record["gm"]["extra"]]) + (record["tension"] - 1 if record["gm"]["boost"] else 0)
    player_total = sum(player[:2 + record["player"]["ap"]])
    return "success" if player_total > gm_total else "failure" if gm_total > player_total else "tie"


def brute_environment(tension, pool, ap):
    """Every joint roll of the GM's and the player's dice, counted."""
    counts = Counter()
    for gm in itertools.product(range(1, 7), repeat=tension):
        gm_total = sum(sorted(gm, reverse=True)[:2])
        for player in itertools.product(range(1, 7), repeat=pool):
            player_total = sum(sorted(player, reverse=True)[:2 + ap])
            counts[(player_total > gm_total) - (player_total < gm_total)] += 1
    return counts


def brute_anomaly(good, bad, difficulty):
    pick = max if good >= bad else min
    return sum(pick(roll) + 3 > difficulty for roll in itertools.product(range(1, 11), repeat=1 + abs(good - bad)))


def brute_kept_totals(pool, keep):
    counts = Counter(sum(sorted(roll, reverse=True)[:keep]) for roll in itertools.product(range(1, 7), repeat=pool))
    return {total: Fraction(counts[total], 6 ** pool) for total in sorted(counts)}


def brute_anomaly_totals(good, bad):
    pick = max if good >= bad else min
    counts = Counter(pick(roll) + 3 for roll in itertools.product(range(1, 11), repeat=1 + abs(good - bad)))
    return {total: Fraction(counts[total], 10 ** (1 + abs(good - bad))) for total in sorted(counts)}


def icepool_kept_totals(pool, keep):
    import icepool
    die = icepool.d6.pool(pool).highest(keep).sum()
    return {total: Fraction(count, die.denominator()) for total, count in die.items()}


def icepool_direct(pool, keep, gm_pool, gm_keep, bonus):
    """The same chance asked of icepool directly: build both dice and compare them."""
    import icepool
    player = icepool.d6.pool(pool).highest(keep).sum()
    gm = icepool.d6.pool(gm_pool).highest(gm_keep).sum() + bonus
    return (player > gm).probability(True)


def icepool_direct_anomaly(good, bad):
    import icepool
    actor = icepool.d10.highest(1 + good) + 9
    defender = icepool.d10.lowest(1 + bad)
    return (actor > defender).probability(True)


# --- Cases: (name, expression, baseline name, baseline expression) ---------------------------------

RESOLVE_CASES = [
    ("resolve environment (Tension 5, pool 6)", "rules.resolve(ENVIRONMENT)",
     "naive resolve, no checks", "naive_environment(ENVIRONMENT)"),
    ("resolve environment (Tension 40+1, 15 dice, extra 20)", "rules.resolve(ENVIRONMENT_LARGEST)",
     "naive resolve, no checks", "naive_environment(ENVIRONMENT_LARGEST)"),
    ("resolve opposed (4 initiators x 15 dice vs 15)", "rules.resolve(OPPOSED_LARGEST)",
     "json copy of the record", "json.loads(json.dumps(OPPOSED_LARGEST))"),
    ("resolve anomaly opposed (6 good v 6 bad, 9 modifiers)", "rules.resolve(ANOMALY_LARGEST)",
     "json copy of the record", "json.loads(json.dumps(ANOMALY_LARGEST))"),
    ("resolve manners test", "rules.resolve(MANNERS_TEST)",
     "json copy of the record", "json.loads(json.dumps(MANNERS_TEST))"),
    ("verify largest environment record", "rules.verify(RESOLVED_LARGEST)",
     "json copy of the record", "json.loads(json.dumps(RESOLVED_LARGEST))"),
]

ODDS_CASES = [
    ("tension_environment(4, 5, ap=1)", "odds.tension_environment(4, 5, 1)",
     "brute force, all 6^9 joint rolls", "brute_environment(4, 5, 1)"),
    ("tension_environment(6, 5)", "odds.tension_environment(6, 5)",
     "brute force, all 6^11 joint rolls", None),
    ("tension_environment(5, 6, ap=1)", "odds.tension_environment(5, 6, 1)",
     "icepool directly", "icepool_direct(6, 3, 5, 2, 0)"),
    ("tension_environment(40, 15, ap=2)", "odds.tension_environment(40, 15, 2)",
     "icepool directly", "icepool_direct(15, 4, 40, 2, 0)"),
    ("tension_environment(40, 15, ap=2, boost)", "odds.tension_environment(40, 15, 2, boost=True)",
     "icepool directly", "icepool_direct(15, 4, 40, 2, 39)"),
    ("tension_environment(40, 15, ap=13, extra=6)", "odds.tension_environment(40, 15, 13, extra=6)",
     "icepool directly", "icepool_direct(15, 15, 40, 8, 0)"),
    ("tension_environment(40, 15, ap=13, extra=38)", "odds.tension_environment(40, 15, 13, extra=38)",
     "icepool directly", "icepool_direct(15, 15, 40, 40, 0)"),
    ("tension_environment_options(40, 15, ap=2): 40 rows", "odds.tension_environment_options(40, 15, 2)",
     "icepool directly, 3 rows", "[icepool_direct(15, 4, 40, k, 0) for k in (2, 3, 4)]"),
    ("tension_against_total(15, ap=13, 40)", "odds.tension_against_total(15, 13, 40)",
     "icepool directly", "icepool_direct(15, 15, 0, 0, 40)"),
    ("tension_kept_totals(5): the picture's totals", "odds.tension_kept_totals(5)",
     "brute force, all 6^5 rolls", "brute_kept_totals(5, 2)"),
    ("tension_kept_totals(15, paid=13)", "odds.tension_kept_totals(15, 13)",
     "icepool directly", "icepool_kept_totals(15, 15)"),
    ("tension_kept_totals(41, paid=38): the GM at 40+1", "odds.tension_kept_totals(41, 38)",
     "icepool directly", "icepool_kept_totals(41, 40)"),
    ("tension_opposed(15 boost vs 15 +13 AP, Tension 40)",
     "odds.tension_opposed({'side': 'adversary', 'pool': 15, 'boost': True}, {'side': 'character', 'pool': 15, 'ap': 13}, 40)",
     "icepool directly", "icepool_direct(15, 2, 15, 15, -39)"),
    ("anomaly_check(6 good, 9 modifiers, 15)", "odds.anomaly_check(6, 0, MODIFIERS, 15)",
     "brute force, all 10^7 rolls", None),
    ("anomaly_check(3 good, +3, 9)", "odds.anomaly_check(3, 0, [{'kind': 'Gear', 'value': 3}], 9)",
     "brute force, all 10^4 rolls", "brute_anomaly(3, 0, 9)"),
    ("anomaly_total_distribution(6 good, 9 modifiers)", "odds.anomaly_total_distribution(6, 0, MODIFIERS)",
     "brute force, all 10^7 rolls", None),
    ("anomaly_total_distribution(3 good, +3)",
     "odds.anomaly_total_distribution(3, 0, [{'kind': 'Gear', 'value': 3}])",
     "brute force, all 10^4 rolls", "brute_anomaly_totals(3, 0)"),
    ("anomaly_opposed(6 good +9 vs 6 bad)",
     "odds.anomaly_opposed({'good': 6, 'modifiers': [{'kind': 'Gear', 'value': 9}]}, {'bad': 6})",
     "icepool directly", "icepool_direct_anomaly(6, 6)"),
    ("fewest_ap(15 dice, 40)", "rules.fewest_ap(FIFTEEN, 40)", "json copy of the dice", "json.loads(json.dumps(FIFTEEN))"),
    ("fewest_tension(40 dice, Tension 40, 60)", "rules.fewest_tension(FORTY, 40, 60)",
     "json copy of the dice", "json.loads(json.dumps(FORTY))"),
    ("outcomes_for_test(5 Manners x 5 Complications)", "rules.outcomes_for_test(RATINGS, 5)",
     "json copy of the ratings", "json.loads(json.dumps(RATINGS))"),
    ("outcomes_for_confrontation(5 x 5)", "rules.outcomes_for_confrontation(RATINGS, RATINGS)",
     "json copy of the ratings", "json.loads(json.dumps(RATINGS))"),
]

FIFTEEN = rules.roll(15, 6, rules.SeededSource(1))
FORTY = rules.roll(40, 6, rules.SeededSource(2))
RESOLVED_LARGEST = rules.resolve(ENVIRONMENT_LARGEST, rules.SeededSource(3))
NAMESPACE = dict(globals())


def median_ms(expression, budget_seconds, least=5, most=2000):
    """Median wall time of `expression` in milliseconds, repeating within a time budget."""
    code = compile(expression, "<bench>", "eval")
    eval(code, NAMESPACE)  # warm: caches filled, as on the second input change
    samples = []
    started = time.perf_counter()
    while len(samples) < most and (len(samples) < least or time.perf_counter() - started < budget_seconds):
        begin = time.perf_counter_ns()
        eval(code, NAMESPACE)
        samples.append((time.perf_counter_ns() - begin) / 1e6)
    return statistics.median(samples), len(samples)


FIRST_CALL = """
import sys, time
sys.path.insert(0, {py!r}); sys.path.insert(0, {bench!r})
import icepool
import bench_rules as bench
code = compile({expression!r}, "<bench>", "eval")
begin = time.perf_counter_ns()
eval(code, bench.NAMESPACE)
print((time.perf_counter_ns() - begin) / 1e6)
"""


def first_call_ms(expression):
    """The first call in a fresh process (icepool imported beforehand): the UI's cold cost."""
    script = FIRST_CALL.format(py=str(PY), bench=str(ROOT / "bench"), expression=expression)
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return float(completed.stdout.strip().splitlines()[-1])


def import_ms(statement):
    script = f"import sys, time; sys.path.insert(0, {str(PY)!r}); b = time.perf_counter_ns(); {statement}; " \
             "print((time.perf_counter_ns() - b) / 1e6)"
    samples = [float(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                    check=True).stdout) for _ in range(5)]
    return statistics.median(samples)


def run(quick):
    budget = 0.2 if quick else 1.0
    rows = []
    for section, cases in (("resolve", RESOLVE_CASES), ("odds", ODDS_CASES)):
        for name, expression, baseline_name, baseline in cases:
            query, count = median_ms(expression, budget)
            first = first_call_ms(expression) if section == "odds" else None
            base = median_ms(baseline, budget, least=1, most=50)[0] if baseline else None
            rows.append({"section": section, "query": name, "median_ms": query, "runs": count,
                         "first_call_ms": first, "baseline": baseline_name, "baseline_median_ms": base,
                         "speedup": base / query if base else None})
    imports = {"import rules": import_ms("import rules"),
               "import rules.odds (no icepool yet)": import_ms("from rules import odds"),
               "import icepool": import_ms("import icepool")}
    return rows, imports


def show(rows, imports):
    def ms(value):
        return f"{'-':>8}" if value is None else f"{value:8.3f}"

    print(f"Rules engine benchmark, CPython {sys.version.split()[0]}. Times in ms. "
          f"Aim: every odds query under {AIM_MS:g} ms.\n")
    header = (f"{'query':<54} {'median':>8} {'first':>8}  {'baseline':<44} {'median':>8} {'speedup':>10}  aim")
    print(header)
    print("-" * len(header))
    for row in rows:
        worst = max(row["median_ms"], row["first_call_ms"] or 0)
        aim = "" if row["section"] == "resolve" else ("ok" if worst < AIM_MS else
                                                       "warm ok" if row["median_ms"] < AIM_MS else "SLOW")
        speedup = "-" if row["speedup"] is None else f"{row['speedup']:.1f}x"
        baseline = row["baseline"] + ("" if row["baseline_median_ms"] is not None else " (not run)")
        print(f"{row['query']:<54} {ms(row['median_ms'])} {ms(row['first_call_ms'])}  {baseline:<44} "
              f"{ms(row['baseline_median_ms'])} {speedup:>10}  {aim}")
    print()
    for name, value in imports.items():
        print(f"{name:<54} {value:8.3f}")
    compiled = "source compiled on import (no .pyc cache)" if sys.flags.dont_write_bytecode else "from .pyc cache"
    print(f"""
median: warm calls (caches filled). first: the first call in a fresh process (icepool imported).
speedup: baseline median / query median; below 1 for resolve is the price of checking every
field and writing the log, against a naive resolve that checks nothing. imports: {compiled}.""")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter timing budget per query")
    arguments = parser.parse_args()
    rows, imports = run(arguments.quick)
    show(rows, imports)
    results = ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "bench_rules.json").write_text(json.dumps({"python": sys.version, "rows": rows, "imports": imports},
                                                         indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
