"""Untrusted replica data (storage, links, files) into a Replica, or SessionError.

The shape is checked part by part (types, sizes, stamps, device ids), then the
session the replica stands for is derived and checked like any session
(model.check_session), so every value a screen reads has passed the same rules.
"""
from __future__ import annotations

import re

from .errors import checks
from .model import MAX_LOG, MAX_ROSTER, check_effect, check_log_entry, check_session
from .replica import ENTRY_COUNTS, SESSION_FIELDS, VERSION, Replica
from .sealed import check_messages
from .sealed_log import check_proof, fold

MAX_CLOCK = 2 ** 53  # what JavaScript and JSON carry exactly
MAX_STEPS = 10 ** 9
MAX_DEVICES = 64
MAX_EFFECTS = 40
MAX_EXCHANGES = 2_000  # sealed-card conflicts a session keeps (links carry only those not yet logged)
DEVICE = re.compile(r"[0-9a-f]{0,16}")
ID = re.compile(r"[A-Za-z0-9_-]{1,24}")


need, whole = checks("The session's data is damaged.")


def mapping(value, limit: int) -> dict:
    need(isinstance(value, dict) and len(value) <= limit)
    return value


def device(value) -> str:
    need(isinstance(value, str) and DEVICE.fullmatch(value) is not None)
    return value


def identifier(value) -> str:
    need(isinstance(value, str) and ID.fullmatch(value) is not None)
    return value


def stamp(value) -> list:
    need(isinstance(value, list) and len(value) == 2)
    return [whole(value[0], -MAX_ROSTER, MAX_CLOCK), device(value[1])]


def write(value) -> list:
    need(isinstance(value, list) and len(value) == 3)
    return [value[0], *stamp(value[1:])]


def steps(value) -> list:
    need(isinstance(value, list) and len(value) == 2)
    return [whole(value[0], 0, MAX_STEPS), whole(value[1], 0, MAX_STEPS)]


def counts(value) -> dict:
    return {device(key): steps(item) for key, item in mapping(value, MAX_DEVICES).items()}


def field_name(value, allowed=None) -> str:
    need(isinstance(value, str) and value != "id" and len(value) <= 40 and (allowed is None or value in allowed))
    return value


def roster_entry(value, partial: bool = False) -> dict:
    value = mapping(value, 4)
    added, removed = value.get("added"), value.get("removed")
    return {"added": None if added is None and partial else stamp(added),
            "removed": None if removed is None else stamp(removed),
            "fields": {field_name(key): write(item)
                       for key, item in mapping(value.get("fields", {} if partial else None), 40).items()},
            "counts": {field_name(key, ENTRY_COUNTS): counts(item)
                       for key, item in mapping(value.get("counts", {}), len(ENTRY_COUNTS)).items()}}


def log_entry(value) -> dict:
    need(isinstance(value, dict))
    clean = check_log_entry(value)
    clean.update(clock=whole(value.get("clock"), 0, MAX_CLOCK), device=device(value.get("device")),
                 id=identifier(clean["id"]))
    if "sealed" in value:  # a sealed conflict's result carries what it follows from (session.sealed_log)
        clean["sealed"] = check_proof(value["sealed"], clean["id"])
    return clean


def undo_mark(value) -> dict:
    value = mapping(value, 2)
    by = {device(key): whole(clock, 0, MAX_CLOCK) for key, clock in mapping(value.get("by"), MAX_DEVICES).items()}
    need(bool(by))
    marked = value.get("effects", [])
    need(isinstance(marked, list) and len(marked) <= MAX_EFFECTS)
    return {"by": by, "effects": [check_effect(effect) for effect in marked]}


def sealed_messages(conflict_id: str, value) -> dict:
    messages = check_messages(value)
    need(all(message["c"] == conflict_id for message in messages.values()), "A sealed card in the session is damaged.")
    return messages


def check_replica(data, max_log: int = MAX_LOG, partial: bool = False) -> Replica:
    """A Replica from untrusted data shaped like Replica.to_dict(), or SessionError. A `partial`
    replica (what a roll carries) may leave out any part; it is only ever merged into a whole one,
    whose session is checked then."""
    need(isinstance(data, dict), "This is not a Tableside session.")
    need(data.get("v") == VERSION,
         f"This session was made by a different version of Tableside (version {str(data.get('v'))[:10]}).")
    fields = mapping(data.get("fields", {} if partial else None), len(SESSION_FIELDS))
    need(set(fields) <= set(SESSION_FIELDS) if partial else set(fields) == set(SESSION_FIELDS))
    log = data.get("log", [])
    need(isinstance(log, list), "The session's log is damaged.")
    need(len(log) <= max_log, f"The log has too many entries: {max_log} at most.")
    replica = Replica(
        identifier(data.get("id")), whole(data.get("clock"), 0, MAX_CLOCK),
        {key: write(item) for key, item in fields.items()},
        counts(data.get("tension")),
        {identifier(key): roster_entry(item, partial)
         for key, item in mapping(data.get("roster"), 4 * MAX_ROSTER).items()},
        {entry["id"]: entry for entry in map(log_entry, log)},
        {identifier(key): undo_mark(item)
         for key, item in mapping(data.get("undone", {} if partial else None), max_log).items()},
        {identifier(key): sealed_messages(key, item)
         for key, item in mapping(data.get("sealed", {}), MAX_EXCHANGES).items()})
    fold(replica)
    if partial:
        return replica
    live = sum(entry["removed"] is None for entry in replica.roster.values())
    need(live <= MAX_ROSTER, f"The roster has too many entries: {MAX_ROSTER} at most.")
    session = replica.session()
    checked = check_session({**session, "log": []})
    need({**checked, "log": session["log"]} == {**session, "log": session["log"]},
         "The session's data is damaged: some values are not in the form Tableside keeps them.")
    return replica
