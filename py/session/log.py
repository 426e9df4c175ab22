"""The session log: every conflict, newest first, with what it changed.

An entry is {"id", "n", "phone", "at", "by", "kind", "record", "effects"}; "n" and "phone" are
how the Log numbers it ("Ash 3": the third entry logged on Ash's phone), given once when the
entry is logged and never changed (see `log_conflict`):

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


def apply_effect(session: dict, field: str, entry_id, change: int) -> tuple[dict, dict | None]:
    """`session` with one field changed by `change`, clamped to its range (a new dict: the roster
    list is replaced when an entry changes, never copied deeply), and the effect actually made,
    or None when nothing changed (or the roster entry is gone)."""
    if field == "tension":
        value = clamp(field, session["tension"] + change)
        delta = value - session["tension"]
        return ({**session, "tension": value}, {"field": field, "id": None, "delta": delta}) if delta else (session, None)
    roster = session["roster"]
    index = next((number for number, item in enumerate(roster) if item["id"] == entry_id), None)
    if index is None or field not in roster[index]:
        return session, None
    entry = roster[index]
    value = clamp(field, entry[field] + change)
    if value == entry[field]:
        return session, None
    changed = [*roster[:index], {**entry, field: value}, *roster[index + 1:]]
    return {**session, "roster": changed}, {"field": field, "id": entry_id, "delta": value - entry[field]}


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


def log_conflict(session: dict, record: dict, at: str = "", by: str = "", table_lines=(), same_as: str = "",
                 number: int | None = None, phone: str = "") -> dict:
    """A new session with `record` (already resolved) logged and its effects applied.
    `table_lines`: the Tension Table's lines for the record's explosions, as they read now.
    `same_as`: the entry's id when two phones log the same conflict (a sealed-card exchange),
    so that their logs merge to one entry. `number` and `phone`: how the Log numbers it (the
    phone's own count, and who holds that phone), given once here and carried with the entry, so
    it never changes when older entries arrive later.
    Work is proportional to what changed: the log list gains one entry at the front."""
    if "result" not in record:
        raise SessionError("Only a resolved conflict can be logged.")
    updated, effects = session, []
    if record["system"] == "tension":
        for field, entry_id, change in tension_changes(record):
            updated, made = apply_effect(updated, field, entry_id, change)
            if made is not None:
                effects.append(made)
    entry = {"id": same_as or new_id(), "at": at, "by": by, "kind": CONFLICT, "record": copy.deepcopy(record),
             "effects": effects}
    if number is not None:
        entry.update(n=number, phone=phone)
    if table_lines:
        entry["table_lines"] = list(table_lines)
    return {**updated, "log": [entry, *session["log"]]}


def set_aside(session: dict, record: dict, at: str = "", by: str = "", number: int | None = None,
              phone: str = "", call: str = "") -> dict:
    """A new session with dice that were rolled and not resolved logged as "set aside"; `call` is
    the title of the live table's call they were rolled for (the GM's side, resolved on the called phones)."""
    partial = {key: copy.deepcopy(value) for key, value in record.items() if key != "result"}
    entry = {"id": new_id(), "at": at, "by": by, "kind": SET_ASIDE, "record": partial, "effects": []}
    if call:
        entry["call"] = call
    if number is not None:
        entry.update(n=number, phone=phone)
    return {**session, "log": [entry, *session["log"]]}


def undo_last(session: dict) -> dict:
    """A new session without the newest log entry and with what it changed reversed."""
    if not session["log"]:
        raise SessionError("There is nothing to undo.")
    entry = session["log"][0]
    updated = {**session, "log": session["log"][1:]}
    if "effects" in entry:
        for effect in reversed(entry["effects"]):
            updated, _ = apply_effect(updated, effect["field"], effect["id"], -effect["delta"])
        return updated
    before = entry.get("before") or {"ap": {}}
    if entry["record"].get("system") == "tension" and "tension" in before:
        updated["tension"] = before["tension"]
    restored = before.get("ap", {})
    if any(character["id"] in restored for character in updated["roster"]):
        updated["roster"] = [{**character, "ap": restored[character["id"]]} if character["id"] in restored
                             else character for character in updated["roster"]]
    return updated
