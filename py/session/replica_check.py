"""Untrusted replica data (storage, links, files) into a Replica, or SessionError.

The shape is checked part by part (types, sizes, stamps, device ids), then the
session the replica stands for is derived and checked like any session
(model.check_session), so every value a screen reads has passed the same rules.
A limit passed says which (errors.Overfull), so a merge that would pass it says so too
(session.merging). Every stamp is at most the replica's clock (a Lamport clock is the
largest stamp it has seen): this phone's next write, above its clock, wins over all of it.
"""
from __future__ import annotations

import re
from collections import Counter

from .errors import Overfull, checks
from .headcount import check_people
from .model import MAX_LOG, MAX_NAME, MAX_SHEETS, SYSTEMS, check_effect, check_log_entry, check_session
from .replica import (ENTRY_COUNTS, LINK_CLOCK, MAX_CLOCK, MAX_EXCHANGES, MAX_STEPS, SESSION_FIELDS, VERSION, Replica,
                      counts_at, key_target, shed)
from .sealed.exchange import MAX_MESSAGES, check_messages
from .sealed.verdict import check_proof, fold

# How far below MAX_CLOCK the clock of a link or file stays: as far as a phone's own taps ever take its
# clock (replica.LINK_CLOCK), so whatever one phone shares, every phone reads.
CLOCK_ROOM = MAX_CLOCK - LINK_CLOCK
MAX_DEVICES = 64
ROSTER_RECORDS = 4 * MAX_SHEETS  # roster entries a replica keeps, removed ones included
RECORDS_FULL = f"more than {ROSTER_RECORDS:,} roster entries, removed ones included"
MAX_EFFECTS = 40
DEVICE = re.compile(r"[0-9a-f]{0,16}")
ID = re.compile(r"[A-Za-z0-9_-]{1,24}")


need, whole = checks("The session's data is damaged.")


def mapping(value, limit: int, what: str = "") -> dict:
    """A dict of at most `limit` items; past it, with `what` (a phrase with {limit}), Overfull."""
    need(isinstance(value, dict))
    if len(value) > limit:
        if what:
            raise Overfull(what.format(limit=f"{limit:,}"))
        need(False)
    return value


def limited(value: int, limit: int, what: str) -> int:
    if value > limit:
        raise Overfull(what)
    return value


def device(value) -> str:
    need(isinstance(value, str) and DEVICE.fullmatch(value) is not None)
    return value


def identifier(value) -> str:
    need(isinstance(value, str) and ID.fullmatch(value) is not None)
    return value


def clock(value, low: int = -MAX_SHEETS) -> int:
    """A stamp's clock (a roster entry's "added" from a version-1 session is below 0)."""
    whole(value, low, 2 ** 63)
    return limited(value, MAX_CLOCK, "a change stamped past the largest clock Tableside keeps")


def stamp(value) -> list:
    need(isinstance(value, list) and len(value) == 2)
    return [clock(value[0]), device(value[1])]


def write(value) -> list:
    need(isinstance(value, list) and len(value) == 3)
    return [value[0], *stamp(value[1:])]


def step_count(value) -> int:
    whole(value, 0, 2 ** 63)
    return limited(value, MAX_STEPS, f"a count changed more than {MAX_STEPS:,} times on one phone")


def steps(value) -> list:
    need(isinstance(value, list) and len(value) == 2)
    return [step_count(value[0]), step_count(value[1])]


def counts(value) -> dict:
    return {device(key): steps(item) for key, item in mapping(value, MAX_DEVICES, DEVICES).items()}


DEVICES = "counts from more than {limit} phones"


def field_name(value, allowed=None) -> str:
    need(isinstance(value, str) and value != "id" and len(value) <= 40 and (allowed is None or value in allowed))
    return value


# What a removed roster entry's kept fields may hold (a live entry's are checked with its session).
REMOVED_VALUES = {"system": lambda value: isinstance(value, str) and value in SYSTEMS,
                  "kind": lambda value: isinstance(value, str) and value in ("character", "adversary"),
                  "name": lambda value: isinstance(value, str) and len(value) <= MAX_NAME}


def roster_entry(value, partial: bool = False) -> dict:
    """A roster entry; a removed one as the replica keeps it (replica.shed: older phones kept all of it),
    with only the fields it keeps that hold what such a field may."""
    value = mapping(value, 4)
    added, removed = value.get("added"), value.get("removed")
    entry = shed({"added": None if added is None and partial else stamp(added),
                  "removed": None if removed is None else stamp(removed),
                  "fields": {field_name(key): write(item)
                             for key, item in mapping(value.get("fields", {} if partial else None), 40).items()},
                  "counts": {field_name(key, ENTRY_COUNTS): counts(item)
                             for key, item in mapping(value.get("counts", {}), len(ENTRY_COUNTS)).items()}})
    if entry["removed"] is not None:
        entry["fields"] = {key: item for key, item in entry["fields"].items() if REMOVED_VALUES[key](item[0])}
    return entry


def log_entry(value) -> dict:
    need(isinstance(value, dict))
    clean = check_log_entry(value)
    clean.update(clock=clock(value.get("clock"), 0), device=device(value.get("device")),
                 id=identifier(clean["id"]))
    if "sealed" in value:  # a sealed conflict's result carries what it follows from (session.sealed.verdict)
        clean["sealed"] = check_proof(value["sealed"], clean["id"])
    return clean


def undo_mark(value) -> dict:
    value = mapping(value, 2)
    by = {device(key): clock(when, 0) for key, when in
          mapping(value.get("by"), MAX_DEVICES, "an entry undone on more than {limit} phones").items()}
    need(bool(by))
    marked = value.get("effects", [])
    need(isinstance(marked, list) and len(marked) <= MAX_EFFECTS)
    return {"by": by, "effects": [check_effect(effect) for effect in marked]}


def sealed_messages(conflict_id: str, value) -> dict:
    mapping(value, MAX_MESSAGES, "more than {limit} sealed-card messages in one conflict")
    messages = check_messages(value)
    need(all(message["c"] == conflict_id for message in messages.values()), "A sealed card in the session is damaged.")
    return messages


def vouched(value, replica: Replica) -> dict:
    """`Replica.vouched`: one record per device and count that device has in `replica` (so no more
    than its counts, whatever a link says). Records of a removed entry's counts are left out, as the
    replica drops them (replica.standing_vouched; older phones kept them)."""
    checked = {}
    for holder, records in mapping(value, MAX_DEVICES, DEVICES).items():
        mine = {}
        for key, record in mapping(records, 1 + len(ENTRY_COUNTS) * ROSTER_RECORDS).items():
            need(isinstance(key, str) and isinstance(record, list) and len(record) == 4)
            target = key_target(key)
            need(target[0] == "tension" or target[2] in ENTRY_COUNTS and target[1] in replica.roster)
            if target[0] != "tension" and replica.roster[target[1]]["removed"] is not None:
                continue
            need(holder in counts_at(replica, target))
            mine[key] = [*steps(record[:2]), *stamp(record[2:])]
        if mine:
            checked[device(holder)] = mine
    return checked


def check_replica(data, max_log: int = MAX_LOG, partial: bool = False, room: int = 0) -> Replica:
    """A Replica from untrusted data shaped like Replica.to_dict(), or SessionError. A `partial`
    replica (what a roll carries) may leave out any part; it is only ever merged into a whole one,
    whose session is checked then. `room`: how far below MAX_CLOCK its clock must stay (what
    comes from another phone leaves CLOCK_ROOM; what this phone saved, none)."""
    need(isinstance(data, dict), "This is not a Tableside session.")
    need(data.get("v") == VERSION,
         f"This session was made by a different version of Tableside (version {str(data.get('v'))[:10]}).")
    fields = mapping(data.get("fields", {} if partial else None), len(SESSION_FIELDS))
    need(set(fields) <= set(SESSION_FIELDS) if partial else set(fields) == set(SESSION_FIELDS))
    log = data.get("log", [])
    need(isinstance(log, list), "The session's log is damaged.")
    need(len(log) <= max_log, f"The log has too many entries: {max_log} at most.")
    replica = Replica(
        identifier(data.get("id")), whole(data.get("clock"), 0, 2 ** 63),
        {key: write(item) for key, item in fields.items()},
        counts(data.get("tension")),
        {identifier(key): roster_entry(item, partial) for key, item in mapping(
            data.get("roster"), ROSTER_RECORDS, "more than {limit} roster entries, removed ones included").items()},
        {entry["id"]: entry for entry in map(log_entry, log)},
        {identifier(key): undo_mark(item)
         for key, item in mapping(data.get("undone", {} if partial else None), max_log,
                                  "more than {limit} undone entries").items()},
        {identifier(key): sealed_messages(key, item)
         for key, item in mapping(data.get("sealed", {}), MAX_EXCHANGES,
                                  "more than {limit} sealed-card conflicts").items()})
    replica.gm = None if data.get("gm") is None else write(data["gm"])
    if replica.gm is not None:
        device(replica.gm[0])
    replica.holders = {identifier(key): {device(holder): stamp(record) for holder, record in
                                         mapping(item, MAX_DEVICES, DEVICES).items()}
                       for key, item in mapping(data.get("holders", {}), ROSTER_RECORDS,
                                                "more than {limit} roster entries, removed ones included").items()}
    replica.vouched = vouched(data.get("vouched", {}), replica)
    fold(replica)
    check_clock(replica, room)
    if partial:
        return replica
    session = replica.session()
    checked = check_session({**session, "log": []})  # its people counted (session.headcount) once it is clean
    need({**checked, "log": session["log"]} == {**session, "log": session["log"]},
         "The session's data is damaged: some values are not in the form Tableside keeps them.")
    check_people(checked["roster"], live_systems(replica))
    return replica


def live_systems(replica: Replica) -> Counter:
    """How many live sheets the replica keeps in each rule system, those the session hides included (a
    blank sheet whose person was removed meanwhile: session.lineage). Counts are kept on Tension Engine
    sheets only (the only ones with AP, Health or Willpower), so what a link carries stays bounded."""
    systems = Counter()
    for entry in replica.roster.values():
        if entry["removed"] is None:
            system = entry["fields"].get("system", [None])[0]
            need(isinstance(system, str) and system in SYSTEMS and (system == "tension" or not entry["counts"]))
            systems[system] += 1
    return systems


def check_additions(replica: Replica, roster: list[dict]):
    """Overfull if this phone made `roster` the session's roster (sheets added here): the verdict the check
    of a merge or of the next start would reach, reached before the tap is made."""
    added = [entry for entry in roster if entry["id"] not in replica.roster]
    limited(len(replica.roster) + len(added), ROSTER_RECORDS, RECORDS_FULL)
    check_people(roster, live_systems(replica) + Counter(entry["system"] for entry in added))


def stamps(replica: Replica):
    """Every clock a replica's parts were stamped with."""
    for write in replica.fields.values():
        yield write[1]
    for entry in replica.roster.values():
        yield from (write[1] for write in entry["fields"].values())
        yield from (entry[key][0] for key in ("added", "removed") if entry[key] is not None)
    yield from (entry["clock"] for entry in replica.log.values())
    for mark in replica.undone.values():
        yield from mark["by"].values()
    if replica.gm is not None:
        yield replica.gm[1]
    for devices in replica.holders.values():
        yield from (record[0] for record in devices.values())
    for records in replica.vouched.values():
        yield from (record[2] for record in records.values())


def check_clock(replica: Replica, room: int):
    limited(replica.clock, MAX_CLOCK - room, "a clock too close to the largest Tableside keeps" if room else
            "a clock past the largest Tableside keeps")
    newest = max(stamps(replica), default=0)
    limited(newest, replica.clock, f"a change stamped later than its own clock ({newest:,} after {replica.clock:,})")
