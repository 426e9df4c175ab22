"""The session log: every conflict, newest first, with what it changed.

An entry is {"id", "at", "by", "kind", "record", "effects"}:

* kind "conflict": a resolved record; `effects` lists what logging it changed as
  deltas, [{"field": "tension" | "ap" | "health", "id": roster id or None,
  "delta": n}], each the change actually made (after clamping), so `undo_last`
  reverses them one by one and a later merge of phones can add them up.
* kind "set-aside": dice that were rolled and never resolved (a new conflict, or a
  change of kind, with dice on the table): a partial record (no "result") and no
  effects, kept so that a re-roll is visible to the table.

Entries written before effects existed hold "before" (Tension and AP as they
were) instead; `undo_last` restores those as it always did.
"""
from __future__ import annotations

import copy

from .errors import SessionError
from .model import MAX_POINTS, MAX_TENSION, new_id

CONFLICT, SET_ASIDE = "conflict", "set-aside"
KINDS = (CONFLICT, SET_ASIDE)
# Each field an effect may change, and its range.
RANGES = {"tension": (0, MAX_TENSION), "ap": (0, MAX_POINTS), "health": (0, MAX_POINTS)}


def tension_sides(record: dict):
    """(record side, result detail) pairs of a Tension Engine record."""
    result = record["result"]
    if record["kind"] == "environment":
        return [(record["player"], result["player"]), (record["gm"], result["gm"])]
    return [*zip(record["initiators"], result["initiators"]), (record["defender"], result["defender"])]


def clamp(field: str, value: int) -> int:
    low, high = RANGES[field]
    return max(low, min(high, value))


def apply_effect(session: dict, field: str, entry_id, change: int) -> dict | None:
    """Change one field of `session` (in place) by `change`, clamped to its range; the effect
    actually made, or None when nothing changed (or the roster entry is gone)."""
    if field == "tension":
        old = session["tension"]
        session["tension"] = clamp(field, old + change)
        delta = session["tension"] - old
    else:
        entry = next((item for item in session["roster"] if item["id"] == entry_id), None)
        if entry is None or field not in entry:
            return None
        old = entry[field]
        entry[field] = clamp(field, old + change)
        delta = entry[field] - old
    return {"field": field, "id": entry_id, "delta": delta} if delta else None


def tension_changes(record: dict) -> list[tuple[str, str | None, int]]:
    """(field, roster id, change) for everything a resolved Tension Engine record changes:
    Tension by as much as the conflict moved it (so a change made by hand meanwhile stays),
    AP spent, and combat damage to the defender's Health. From the record alone, so every
    phone reads the same changes from it."""
    result = record["result"]
    changes = [("tension", None, min(result["tension_after"], MAX_TENSION) - record["tension"])]
    for side, detail in tension_sides(record):
        if side.get("id") and detail["ap_spent"]:  # only characters spend AP
            changes.append(("ap", side["id"], -detail["ap_spent"]))
    if record["kind"] == "opposed" and result.get("combat"):
        damage = sum(initiator["damage"] for initiator in result["initiators"])
        if damage and record["defender"].get("id"):
            changes.append(("health", record["defender"]["id"], -damage))
    return changes


def effects_of(record: dict) -> list[dict]:
    """The effects logging `record` writes when nothing is held at the end of its range: links
    leave such effects out and the receiving phone reads them from the record again."""
    if record.get("system") != "tension" or "result" not in record:
        return []
    return [{"field": field, "id": entry_id, "delta": change} for field, entry_id, change in tension_changes(record)
            if change]


def log_conflict(session: dict, record: dict, at: str = "", by: str = "", table_lines=()) -> dict:
    """A new session with `record` (already resolved) logged and its effects applied.
    `table_lines`: the Tension Table's lines for the record's explosions, as they read now."""
    if "result" not in record:
        raise SessionError("Only a resolved conflict can be logged.")
    updated = copy.deepcopy(session)
    effects = []
    if record["system"] == "tension":
        for field, entry_id, change in tension_changes(record):
            made = apply_effect(updated, field, entry_id, change)
            if made is not None:
                effects.append(made)
    entry = {"id": new_id(), "at": at, "by": by, "kind": CONFLICT, "record": copy.deepcopy(record),
             "effects": effects}
    if table_lines:
        entry["table_lines"] = list(table_lines)
    updated["log"].insert(0, entry)
    return updated


def set_aside(session: dict, record: dict, at: str = "", by: str = "") -> dict:
    """A new session with dice that were rolled and not resolved logged as "set aside"."""
    partial = {key: value for key, value in copy.deepcopy(record).items() if key != "result"}
    updated = copy.deepcopy(session)
    updated["log"].insert(0, {"id": new_id(), "at": at, "by": by, "kind": SET_ASIDE, "record": partial,
                              "effects": []})
    return updated


def undo_last(session: dict) -> dict:
    """A new session without the newest log entry and with what it changed reversed."""
    if not session["log"]:
        raise SessionError("There is nothing to undo.")
    updated = copy.deepcopy(session)
    entry = updated["log"].pop(0)
    if "effects" in entry:
        for effect in reversed(entry["effects"]):
            apply_effect(updated, effect["field"], effect["id"], -effect["delta"])
        return updated
    before = entry.get("before") or {"ap": {}}
    if entry["record"].get("system") == "tension" and "tension" in before:
        updated["tension"] = before["tension"]
    for character in updated["roster"]:
        if character["id"] in before.get("ap", {}):
            character["ap"] = before["ap"][character["id"]]
    return updated
