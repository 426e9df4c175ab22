"""Log entries say what a conflict changed as deltas: undo reverses them (clamped), old entries
with only "before" still undo as before, and set-aside rolls are checked by their dice."""
import json

import pytest

import rules
from session import check_roster_entry, log_conflict, new_session, SessionError, set_aside, undo_last
from session.links import files
from session.links.files import export_text, read_export
from session.model import check_log_entry
from session.replica import Replica


def party(tension=5):
    session = new_session(system="tension")
    session["tension"] = tension
    session["roster"] = [
        check_roster_entry({"system": "tension", "kind": "character", "name": "Ash", "ap": 2, "health": 10,
                                     "attributes": [], "skills": []}),
        check_roster_entry({"system": "tension", "kind": "adversary", "name": "Ghoul", "power": 5,
                                     "health": 3, "traits": []}),
    ]
    return session


def combat(session):
    ash, ghoul = session["roster"]
    return rules.resolve({"v": 1, "system": "tension", "kind": "opposed", "tension": session["tension"], "combat": True,
                          "initiators": [{"name": "Ash", "id": ash["id"], "side": "character", "pool": 4,
                                          "dice": [6, 6, 5, 1], "keep": [0, 1, 2], "ap": 1, "dice_from": "typed"}],
                          "defender": {"name": "Ghoul", "id": ghoul["id"], "side": "adversary", "total": 4,
                                       "dice_from": "total"}})


def test_logging_writes_deltas_and_undo_reverses_them_clamped():
    session = party()
    record = combat(session)
    logged = log_conflict(session, record, at="2025-06-01T20:00:00", by="Ash")
    entry = logged["log"][0]
    ash, ghoul = logged["roster"]
    assert entry["kind"] == "conflict" and "before" not in entry
    # 17 against 4 is 13 damage, but the Ghoul had 3 Health: the delta is what was really taken.
    assert entry["effects"] == [{"field": "tension", "id": None, "delta": 1}, {"field": "ap", "id": ash["id"], "delta": -1},
                                {"field": "health", "id": ghoul["id"], "delta": -3}]
    assert (logged["tension"], ash["ap"], ghoul["health"]) == (6, 1, 0)
    assert undo_last(logged) == session


def test_a_change_by_hand_after_the_conflict_stays_through_undo():
    session = party()
    logged = log_conflict(session, combat(session))
    logged["tension"] += 4  # the GM raised Tension by hand afterwards
    assert undo_last(logged)["tension"] == 5 + 4


def test_old_entries_with_only_before_still_undo_as_before():
    session = party(tension=7)
    ash = session["roster"][0]
    old = {"id": "old1", "at": "", "by": "", "record": {"v": 1, "system": "tension"},
           "before": {"tension": 4, "ap": {ash["id"]: 3}}}
    session["log"] = [check_log_entry(old)]
    assert "effects" not in session["log"][0]
    undone = undo_last(session)
    assert undone["tension"] == 4 and undone["roster"][0]["ap"] == 3 and undone["log"] == []


def test_a_set_aside_entry_keeps_the_dice_and_changes_nothing():
    session = party()
    partial = {"v": 1, "system": "tension", "kind": "environment", "tension": 5,
               "gm": {"name": "The GM", "pool": 5, "dice": [6, 5, 4, 2, 1], "keep": None, "boost": False, "extra": 0,
                      "dice_from": "app"},
               "player": {"name": "Ash", "pool": 3, "dice": None, "keep": None, "ap": 0, "dice_from": "app"},
               "result": {"ignored": True}}
    aside = set_aside(session, partial, by="Ash")
    entry = aside["log"][0]
    assert entry["kind"] == "set-aside" and "result" not in entry["record"] and entry["effects"] == []
    assert aside["tension"] == session["tension"]
    assert undo_last(aside) == session
    with pytest.raises(SessionError):
        check_log_entry({**entry, "record": {**entry["record"], "result": {}}})


def test_an_export_with_set_aside_entries_is_checked_by_their_dice():
    session = party()
    session = log_conflict(session, combat(session))
    partial = {"v": 1, "system": "anomaly", "kind": "check", "difficulty": 9,
               "actor": {"name": "Rook", "good": 1, "bad": 0, "dice": [7], "modifiers": [], "dice_from": "typed"}}
    session = set_aside(session, partial)
    imported = read_export(export_text(Replica.from_session(session))).session()
    assert [entry["kind"] for entry in imported["log"]] == ["set-aside", "conflict"]
    data = json.loads(export_text(Replica.from_session(session)))
    data["replica"]["log"][-1]["record"]["actor"]["dice"] = [11]
    with pytest.raises(files.ImportFileError, match="logged conflict 2"):
        read_export(json.dumps(data))


@pytest.mark.parametrize("dice_from, side, ok", [
    ("app", {"pool": 3, "dice": None}, True), ("typed", {"pool": 3, "dice": [1, 2, 3]}, True),
    ("typed", {"pool": 3, "dice": None}, False), ("total", {"total": 9}, True), ("app", {"total": 9}, False),
    ("total", {"pool": 3, "dice": [1, 2, 3]}, False), ("thrown", {"pool": 3, "dice": None}, False),
])
def test_the_rules_check_and_keep_dice_provenance(dice_from, side, ok):
    record = {"v": 1, "system": "tension", "kind": "environment", "tension": 3,
              "gm": {"name": "The GM", "dice_from": dice_from, **side},
              "player": {"name": "Ash", "pool": 2, "dice": [3, 3], "dice_from": "typed"}}
    if ok:
        resolved = rules.resolve(record)
        assert resolved["gm"]["dice_from"] == dice_from and rules.verify(resolved) == []
    else:
        with pytest.raises(rules.RuleError):
            rules.resolve(record)
