"""The session log: every resolved conflict, newest first, with what it changed.

`log_conflict` applies a resolved record's effects (Tension, AP spent) and
keeps the numbers from before, so `undo_last` restores them exactly.
"""
from __future__ import annotations

import copy

from .errors import SessionError
from .model import MAX_TENSION, new_id


def tension_sides(record: dict):
    """(record side, result detail) pairs of a Tension Engine record."""
    result = record["result"]
    if record["kind"] == "environment":
        return [(record["player"], result["player"]), (record["gm"], result["gm"])]
    return [*zip(record["initiators"], result["initiators"]), (record["defender"], result["defender"])]


def log_conflict(session: dict, record: dict, at: str = "", by: str = "") -> dict:
    """A new session with `record` (already resolved) logged and its effects applied."""
    if "result" not in record:
        raise SessionError("Only a resolved conflict can be logged.")
    updated = copy.deepcopy(session)
    before = {"tension": session["tension"], "ap": {}}
    if record["system"] == "tension":
        entries = {entry["id"]: entry for entry in updated["roster"]}
        for side, detail in tension_sides(record):
            entry = entries.get(side.get("id"))
            if entry is not None and entry["kind"] == "character" and detail["ap_spent"]:
                before["ap"].setdefault(entry["id"], entry["ap"])
                entry["ap"] = max(0, entry["ap"] - detail["ap_spent"])
        # Tension past the session's limit (99) would make the next record unplayable.
        updated["tension"] = min(record["result"]["tension_after"], MAX_TENSION)
    updated["log"].insert(0, {"id": new_id(), "at": at, "by": by, "record": copy.deepcopy(record),
                              "before": before})
    return updated


def undo_last(session: dict) -> dict:
    """A new session without the newest log entry, Tension and AP as they were before it."""
    if not session["log"]:
        raise SessionError("There is nothing to undo.")
    updated = copy.deepcopy(session)
    entry = updated["log"].pop(0)
    before = entry["before"]
    if entry["record"].get("system") == "tension":
        updated["tension"] = before["tension"]
    for character in updated["roster"]:
        if character["id"] in before["ap"]:
            character["ap"] = before["ap"][character["id"]]
    return updated
