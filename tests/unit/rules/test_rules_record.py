"""The conflict record (version 1): shape checks, copies, JSON, re-checking, light import."""

import ast
import copy
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from rules import FixedDice, RecordError, RuleError
from rules.words import isolate

PY = Path(__file__).resolve().parents[3] / "py"

ENVIRONMENT = {"v": 1, "system": "tension", "kind": "environment", "tension": 5,
               "gm": {"dice": [6, 4, 4, 2, 1], "keep": [0, 1], "boost": False, "extra": 0},
               "player": {"name": "Ash", "pool": 6, "dice": None, "keep": None, "ap": 0}}
OPPOSED = {"v": 1, "system": "tension", "kind": "opposed", "tension": 4, "combat": True,
           "initiators": [{"name": "Ghoul", "side": "adversary", "pool": 5, "dice": None, "keep": None,
                           "boost": False, "extra": 0}],
           "defender": {"name": "Ash", "side": "character", "pool": 6, "dice": None, "keep": None, "ap": 1}}
ANOMALY = {"v": 1, "system": "anomaly", "kind": "check",
           "actor": {"name": "Rook", "good": 2, "bad": 1, "dice": None,
                     "modifiers": [{"kind": "Gear", "value": 2, "stacks": False}]},
           "difficulty": 9}
ANOMALY_OPPOSED = {"v": 1, "system": "anomaly", "kind": "opposed",
                   "actor": {"name": "Rook", "good": 1, "bad": 0, "dice": None, "modifiers": []},
                   "defender": {"name": "Vex", "good": 0, "bad": 1, "dice": None, "modifiers": []}}
MANNERS = {"v": 1, "system": "manners", "kind": "test",
           "player": {"name": "Wren", "manner": "Force", "manner_rating": 3, "skill": "Climb",
                      "skill_rating": 2, "helpers": 1, "descriptors": 1},
           "difficulty": 5, "complication": "Hostility"}
CONFRONTATION = {"v": 1, "system": "manners", "kind": "confrontation",
                 "player": MANNERS["player"],
                 "opponent": {"name": "Moth", "manner": "Speed", "manner_rating": 2, "skill": "Lie",
                              "skill_rating": 3, "helpers": 0, "descriptors": 0}}
EXAMPLES = [ENVIRONMENT, OPPOSED, ANOMALY, ANOMALY_OPPOSED, MANNERS, CONFRONTATION]


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda record: f"{record['system']}-{record['kind']}")
def test_rules_md_examples_resolve_and_round_trip(record):
    resolved = rules.resolve(record, rules.SeededSource(7))
    assert json.loads(json.dumps(resolved)) == resolved
    assert rules.verify(resolved) == []


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda record: f"{record['system']}-{record['kind']}")
def test_resolve_never_changes_the_callers_record(record):
    before = copy.deepcopy(record)
    resolved = rules.resolve(record, rules.SeededSource(1))
    assert record == before
    assert resolved is not record


def test_resolved_record_carries_the_dice_it_rolled():
    resolved = rules.resolve(ENVIRONMENT, rules.SeededSource(3))
    assert len(resolved["player"]["dice"]) == 6
    assert len(resolved["player"]["keep"]) == 2
    assert resolved["gm"]["keep"] == [0, 1]
    again = rules.resolve({key: value for key, value in resolved.items() if key != "result"}, rules.NoDice())
    assert again == resolved


def test_existing_result_is_ignored_and_replaced():
    resolved = rules.resolve({**MANNERS, "result": {"outcome": "nonsense", "extra": [1, 2]}})
    assert resolved["result"]["outcome"] != "nonsense"
    assert "extra" not in resolved["result"]
    assert rules.resolve({**MANNERS, "result": float("nan")})["result"] == resolved["result"]


def test_unknown_fields_are_kept():
    resolved = rules.resolve({**MANNERS, "note": "for later versions", "player": {**MANNERS["player"], "colour": "red"}})
    assert resolved["note"] == "for later versions"
    assert resolved["player"]["colour"] == "red"


def test_verify_reports_a_tampered_result():
    resolved = rules.resolve(OPPOSED, rules.SeededSource(2))
    tampered = copy.deepcopy(resolved)
    tampered["result"]["defender_total"] += 1
    problems = rules.verify(tampered)
    assert len(problems) == 1 and problems[0].startswith('"defender_total": the record says')


def test_verify_reports_a_missing_result_field():
    resolved = rules.resolve(MANNERS)
    del resolved["result"]["winner"]
    assert rules.verify(resolved) == ['The result is missing "winner".']


def test_verify_tells_true_from_one():
    resolved = rules.resolve(MANNERS)
    resolved["result"]["partial"] = int(resolved["result"]["partial"])
    assert len(rules.verify(resolved)) == 1


def test_verify_needs_the_dice():
    resolved = rules.resolve(ENVIRONMENT, rules.SeededSource(2))
    resolved["player"]["dice"] = resolved["player"]["keep"] = None
    assert rules.verify(resolved) == ["This record is missing some dice, so it can't be re-checked."]


def test_verify_never_raises():
    assert rules.verify("nope") == ["This is not a conflict record."]
    assert rules.verify({"v": 1}) == ["This record has no result to check."]
    assert rules.verify({"v": 2, "result": {}}) == ["This app reads records of version 1, not 2."]
    assert rules.verify({**MANNERS, "result": {"x": float("nan")}})[0].startswith("This record holds a number")


def test_record_must_be_an_object_of_version_1():
    with pytest.raises(RecordError, match="must be a JSON object"):
        rules.resolve([1, 2])
    with pytest.raises(RecordError, match="no version"):
        rules.resolve({"system": "tension"})
    with pytest.raises(RecordError, match="version 1, not true"):
        rules.resolve({**MANNERS, "v": True})
    with pytest.raises(RecordError, match=f"Unknown system '{isolate('fate')}': choose tension, anomaly or manners"):
        rules.resolve({**MANNERS, "system": "fate"})


def test_errors_name_the_field():
    with pytest.raises(RuleError) as caught:
        rules.resolve({**ENVIRONMENT, "player": {**ENVIRONMENT["player"], "pool": "six"}})
    assert caught.value.where == "player.pool"
    assert caught.value.message == f"{isolate('Ash')}'s pool must be a whole number from 0 to 40, not '{isolate('six')}'."


@pytest.mark.parametrize("value, message", [
    (True, "not true"), (5.5, "not 5.5"), (float("nan"), "not a real number"), (10**30, "too large"),
    ([5], "not a list"), ({"n": 5}, "not a group of fields"), (-1, "not -1"), (100, "not 100")])
def test_bad_numbers_are_refused_with_a_message(value, message):
    with pytest.raises(RuleError, match=message):
        rules.resolve({**ENVIRONMENT, "tension": value})


def test_records_that_are_not_plain_json_are_refused():
    with pytest.raises(RecordError, match="not plain JSON"):
        rules.resolve({**MANNERS, "extra": (1, 2)})
    with pytest.raises(RecordError, match="field name"):
        rules.resolve({**MANNERS, "extra": {1: 2}})
    with pytest.raises(RecordError, match="infinity"):
        rules.resolve({**MANNERS, "extra": math.inf})
    deep = []
    for _ in range(100):
        deep = [deep]
    with pytest.raises(RecordError, match="nested too deeply"):
        rules.resolve({**MANNERS, "extra": deep})
    with pytest.raises(RecordError, match="far too large"):
        rules.resolve({**MANNERS, "extra": list(range(30_000))})


def test_huge_pools_are_refused_quickly():
    with pytest.raises(RuleError, match="from 0 to 40"):
        rules.resolve({**ENVIRONMENT, "player": {"pool": 10**9}})
    with pytest.raises(RuleError, match="Tension must be a whole number from 0 to 99"):
        rules.resolve({**ENVIRONMENT, "tension": 10**6})


def test_every_result_note_has_words():
    notes = set()
    for seed in range(40):
        for record in EXAMPLES:
            notes.update(rules.resolve(record, rules.SeededSource(seed))["result"]["notes"])
    assert notes <= set(rules.READINGS)


def test_limits_are_published():
    assert rules.LIMITS["tension"] == 99 and rules.LIMITS["pool"] == 40
    assert rules.LIMITS["manners_difficulty"] == 8


def test_import_rules_and_resolve_do_not_load_icepool():
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import rules; "
        "[rules.resolve(r) for r in __import__('json').loads(sys.argv[2])]; "
        "rules.fewest_ap([6, 5, 1], 9); rules.outcomes_for_test({'manner_ratings': dict.fromkeys(rules.MANNERS, 1)}, 3); "
        "assert 'icepool' not in sys.modules, 'icepool was imported'; "
        "from rules import odds; assert 'icepool' not in sys.modules, 'odds import loaded icepool'; "
        "odds.anomaly_check(1, 0, [], 6); assert 'icepool' in sys.modules"
    )
    completed = subprocess.run([sys.executable, "-c", script, str(PY), json.dumps(EXAMPLES)],
                               capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr


def test_odds_is_reachable_as_an_attribute():
    assert rules.odds.tension_against_total(2, 0, 2)["success"] == 1 - rules.odds.tension_against_total(2, 0, 2)["failure"] - rules.odds.tension_against_total(2, 0, 2)["tie"]


def test_rules_import_only_stdlib_and_icepool():
    allowed = set(sys.stdlib_module_names) | {"icepool"}
    for module in (PY / "rules").glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = [node.module.split(".")[0]]
            else:
                continue
            for root in roots:
                assert root in allowed, (module.name, root)
                assert root not in ("js", "pyscript", "pyodide"), (module.name, root)


def test_fixed_dice_are_enough_to_replay():
    resolved = rules.resolve(ANOMALY_OPPOSED, FixedDice([2, 9, 5, 1]))
    assert resolved["actor"]["dice"] == [2, 9] and resolved["defender"]["dice"] == [5, 1]
