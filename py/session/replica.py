"""A session that merges: the replica each phone keeps, and the session the screens read.

Phones meet only through links and files, in any order, any number of times, so a
session is kept as a *replica* whose parts each merge by a join (commutative,
associative, idempotent), and the session dict the screens read is derived from it:

- fields: the last value written to each session field (name, system, players,
  settings, Tension Table) and each sheet field of a roster entry, with the stamp
  (clock, device) of the write; the highest stamp wins.
- counts: Tension, and each roster entry's AP, Health and Willpower, as what each
  device added and took away (`{device: [up, down]}`; only that device raises its
  own). The value is the sum, kept within the field's range: spending on one phone
  and gains on another both count.
- roster: when each entry was added and, if it was, removed. A sheet derived for a person
  (session.lineage) shows under its typed sheet's name, and goes when that is removed.
- log: every logged entry by id, never dropped; an undo is a mark beside it.
- sealed: the messages of each sealed-card exchange (session.sealed) by conflict id, each
  keyed by its digest: a grow-only set; only commitments and public steps, never a secret.
- gm, holders: who may change what (session.ownership): the GM phone's device as a write
  ([device, clock, writer]), and for each roster entry the devices that claimed it and those the
  GM gave it to ({entry id: {device: [clock, writer]}}: a claim is written by that device, a grant
  by the GM's). Both only once someone said who holds a phone; older phones leave them out.
- vouched: counts the GM's "Add" took as another phone's own ({device: {target: [up, down, clock,
  writer]}}, a target as `target_key` writes it): the phones allow that device's count up to them,
  beside what its rolls account for (session.ownership). Joined by the higher value per device and
  target; a record only beside a count of that device (replica_check). Older phones leave it out.

A change made on this phone is recorded by `absorb(before, after)`: the difference
between the session before and after a tap becomes field writes and count steps
stamped with the next clock, so the screens keep working on plain session dicts.
`merge` joins two replicas; `session()` derives the session dict. Stamps compare as
(clock, device); a Lamport clock keeps a phone's new writes above what it has seen.

Why state and not a list of operations: a link must stay small enough for a QR code
while a session may log thousands of conflicts. Counts and fields are small whatever
the history (devices x fields), so a link carries all of them and only the latest
log entries, and the numbers on the receiving phone are still exact.
"""
from __future__ import annotations

import copy
import json
import secrets

from rules.words import isolate

from . import lineage
from .errors import Refused
from .model import MAX_POINTS, MAX_TENSION, SCHEMA_VERSION
from .sealed.exchange import MAX_MESSAGES, digest

VERSION = 2
BASE = ""  # the device of everything a version-1 session held when it became a replica
SESSION_FIELDS = ("name", "system", "players", "settings", "tension_table")
ENTRY_COUNTS = {"ap": MAX_POINTS, "health": MAX_POINTS, "willpower": MAX_POINTS}
LOG_HEAD = 8  # a tap adds or undoes log entries at the front; deeper changes get a full comparison
MAX_CLOCK = 2 ** 53  # what JavaScript and JSON carry exactly
MAX_STEPS = 10 ** 9  # what one device adds to (or takes from) one count
TAP_ROOM = 2 ** 20  # more clock ticks than one tap ever makes
# What a phone accepts, it can share: a link or file may carry a clock up to LINK_CLOCK, and a tap is
# refused once this phone's clock passes EDIT_CLOCK, so no tap takes it past LINK_CLOCK and every phone
# takes every link another phone makes. (A room between what links carry and what taps may reach, the
# way it was, let one link at the highest clock it accepted and one rename end sharing.)
LINK_CLOCK = MAX_CLOCK - TAP_ROOM
EDIT_CLOCK = LINK_CLOCK - TAP_ROOM
MAX_EXCHANGES = 2_000  # sealed-card conflicts a session keeps (links carry only those not yet logged)
COUNT_NAMES = {"ap": "AP", "health": "Health", "willpower": "Willpower"}
# All a removed roster entry keeps of its sheet: who it was (ownership names the person in a held removal;
# merging compares the system). Its counts, other fields and vouched records go: no screen reads them,
# and merges could otherwise pile data up on an entry nobody sees (issue 30).
REMOVAL_FIELDS = ("system", "kind", "name")


def new_device() -> str:
    """This phone's id in the stamps it writes (kept in its storage)."""
    return secrets.token_hex(4)


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def later_write(first: list, second: list) -> list:
    """The winning [value, clock, device] of two writes: higher stamp, then the value's text
    (written out only for a tie: a merge compares every field)."""
    if first[1:] != second[1:]:
        return max(first, second, key=lambda write: (write[1], write[2]))
    return max(first, second, key=lambda write: canonical(write[0]))


def join_counts(first: dict, second: dict) -> dict:
    joined = {device: list(steps) for device, steps in first.items()}
    for device, (up, down) in second.items():
        mine = joined.get(device, [0, 0])
        joined[device] = [max(mine[0], up), max(mine[1], down)]
    return joined


def join_fields(first: dict, second: dict) -> dict:
    joined = dict(first)
    for key, write in second.items():
        joined[key] = later_write(joined[key], write) if key in joined else list(write)
    return joined


def total(counts: dict) -> int:
    return sum(up - down for up, down in counts.values())


def clamp(value: int, high: int) -> int:
    return max(0, min(high, value))


class Replica:
    """One session as this phone holds it. Mutated only by `absorb`, `step` and `write`
    (local changes); `merge` returns a new replica."""

    def __init__(self, session_id: str, clock: int = 0, fields=None, tension=None, roster=None, log=None,
                 undone=None, sealed=None, gm=None, holders=None, vouched=None):
        self.id = session_id
        self.clock = clock
        self.fields: dict[str, list] = fields or {}  # field -> [value, clock, device]
        self.tension: dict[str, list] = tension or {}  # device -> [up, down]
        self.roster: dict[str, dict] = roster or {}  # id -> {"added", "removed", "fields", "counts"}
        self.log: dict[str, dict] = log or {}  # entry id -> entry (with its "clock" and "device")
        self.undone: dict[str, dict] = undone or {}  # entry id -> {"by": {device: clock}, "effects": [...]}
        self.sealed: dict[str, dict] = sealed or {}  # conflict id -> {message digest -> message}
        self.gm: list | None = gm  # [the GM phone's device, clock, writer] (session.ownership)
        self.holders: dict[str, dict] = holders or {}  # roster id -> {device: [clock, writer]}
        self.vouched: dict[str, dict] = vouched or {}  # device -> {target key: [up, down, clock, writer]}
        # Not part of the merged state: how much of the log this phone holds in memory (session.logbook).
        # `complete`: every entry is in `log`; otherwise `log` holds the newest ones and the rest are
        # only in the device's log store. `fresh`: entries of `log` not yet in that store.
        self.complete = True
        self.fresh: list[dict] = list(self.log.values())
        self.counted: dict[str, int] | None = None  # live entries of each kind in the whole log
        # Each roster entry's text as the head stores it (session.on_device.heads), made once and
        # dropped when a change here touches the entry: a tap then writes out only what it changed.
        self.roster_texts: dict[str, str] = {}
        self.undone_text: str | None = None  # the undo marks' text, the same way
        self.corrections: dict[tuple, int] | None = None  # undo_correction's, worked out once per change of `undone`

    # --- From and to plain data --------------------------------------------------------------

    @classmethod
    def from_session(cls, session: dict) -> Replica:
        """A version-1 session (saved, shared or imported) as a replica. Every phone turns the
        same session into the same replica, so two phones that both had it still agree."""
        base = [0, BASE]
        replica = cls(session["id"])
        replica.fields = {key: [session[key], *base] for key in SESSION_FIELDS}
        replica.tension = {BASE: [session["tension"], 0]}
        count = len(session["roster"])
        for position, entry in enumerate(session["roster"]):
            replica.roster[entry["id"]] = {
                "added": [position - count, BASE], "removed": None,  # below every real clock, in roster order
                "fields": {key: [value, *base] for key, value in entry.items()
                           if key != "id" and key not in ENTRY_COUNTS},
                "counts": {key: {BASE: [value, 0]} for key, value in entry.items() if key in ENTRY_COUNTS}}
        for clock, entry in enumerate(reversed(session["log"]), start=1):  # the log is newest first
            replica.log[entry["id"]] = {**entry, "clock": clock, "device": BASE}
        replica.clock = len(session["log"])
        replica.fresh = list(replica.log.values())
        return replica

    def to_dict(self, log: bool = True) -> dict:
        data = {"v": VERSION, "id": self.id, "clock": self.clock, "fields": self.fields, "tension": self.tension,
                "roster": self.roster, "undone": self.undone}
        parts = (("sealed", self.sealed), ("gm", self.gm), ("holders", self.holders), ("vouched", self.vouched))
        data.update({key: value for key, value in parts if value})  # only when there are some: older phones read the rest
        if log:
            data["log"] = sorted(self.log.values(), key=entry_key)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Replica:
        """From `to_dict`'s shape, already checked (session.replica_check.check_replica)."""
        return cls(data["id"], data["clock"], data["fields"], data["tension"], data["roster"],
                   {entry["id"]: entry for entry in data.get("log", [])}, data["undone"], **{
                       key: data.get(key) for key in ("sealed", "gm", "holders", "vouched")})

    def copy(self) -> Replica:
        twin = Replica.from_dict(copy.deepcopy(self.to_dict()))
        twin.complete = self.complete
        twin.fresh = [twin.log.get(entry["id"]) or copy.deepcopy(entry) for entry in self.fresh]
        twin.counted = dict(self.counted) if self.counted is not None else None
        return twin

    def tally(self) -> dict[str, int]:
        """How many live (not undone) entries of each kind the whole log holds, loaded or not.
        Counted from `log` once when it is complete; kept up to date by every change after."""
        if self.counted is None:
            self.counted = count_kinds(entry for entry_id, entry in self.log.items() if entry_id not in self.undone)
        return self.counted

    def logged(self) -> int:
        """How many live entries the whole log holds."""
        return sum(self.tally().values())

    # --- The session the screens read -------------------------------------------------------------

    def session(self, log: bool = True) -> dict:
        """The session dict (schema version 1) this replica stands for: roster in the order entries
        were added, log newest first without undone entries (of the entries in memory: see
        `complete`; `log=False` leaves the log out)."""
        session = {"v": SCHEMA_VERSION, "id": self.id}
        session.update({key: self.fields[key][0] for key in SESSION_FIELDS})
        session["tension"] = clamp(self.raw_tension(), MAX_TENSION)
        live = [(entry["added"], entry_id) for entry_id, entry in self.roster.items()
                if entry.get("added") is not None and entry.get("removed") is None]
        session["roster"] = lineage.with_typed([self.roster_entry(entry) for _, entry in sorted(live)], self.roster)
        session["log"] = self.live_log() if log else []
        return session

    def roster_entry(self, entry_id: str) -> dict:
        entry = self.roster[entry_id]
        sheet = {"id": entry_id, **{key: write[0] for key, write in entry["fields"].items()}}
        for key in entry["counts"]:
            sheet[key] = clamp(self.raw_count(entry_id, key), ENTRY_COUNTS[key])
        return sheet

    def raw_tension(self) -> int:
        """Tension before it is kept within 0..99 (phones spending at once can overshoot)."""
        return total(self.tension) + self.undo_correction(("tension",))

    def raw_count(self, entry_id: str, key: str) -> int:
        return total(self.roster[entry_id]["counts"].get(key, {})) + self.undo_correction(("entry", entry_id, key))

    def live_log(self) -> list[dict]:
        entries = [entry for entry_id, entry in self.log.items() if entry_id not in self.undone]
        return sorted(entries, key=entry_key, reverse=True)

    def undo_correction(self, target) -> int:
        """Undoing an entry on two phones at once reverses it twice: add back all but one. Worked
        out for every target in one pass over the marks, again only after `undone` changed (a
        session holds thousands of marks, and every count of every roster entry asks)."""
        if self.corrections is None:
            corrections: dict[tuple, int] = {}
            for mark in self.undone.values():
                extra = len(mark["by"]) - 1
                if extra:
                    for where, delta in effect_targets(mark["effects"]):
                        corrections[where] = corrections.get(where, 0) + extra * delta
            self.corrections = corrections
        return self.corrections.get(target, 0)

    # --- Changes made on this phone ------------------------------------------------------------------

    def tick(self) -> int:
        self.clock += 1
        return self.clock

    def absorb(self, before: dict, after: dict, device: str):
        """Record what changed from session `before` to session `after` (both this replica's
        sessions; `after` is what a tap made of `before`) as writes and steps by `device`.
        Work is proportional to what changed: unchanged parts are the same objects."""
        if before is after:
            return
        refuse_what_cannot_be_kept(self, before, after, device)
        for key in SESSION_FIELDS:
            if before[key] != after[key]:
                self.fields[key] = [after[key], self.tick(), device]
        if before["tension"] != after["tension"]:  # from the raw sum, so a value held at 0 or 99 moves at once
            self.step(self.tension, after["tension"] - self.raw_tension(), device)
        if before["roster"] is not after["roster"]:
            self.absorb_roster(before["roster"], after["roster"], device)
        if before["log"] is not after["log"]:
            self.absorb_log(before["log"], after["log"], device)

    def step(self, counts: dict, delta: int, device: str):
        if delta:
            up, down = counts.get(device, [0, 0])
            counts[device] = [up + delta, down] if delta > 0 else [up, down - delta]

    def absorb_roster(self, before: list, after: list, device: str):
        old = {entry["id"]: entry for entry in before}
        new = {entry["id"]: entry for entry in after}
        for entry_id, entry in new.items():
            if entry_id not in old or (entry is not old[entry_id] and entry != old[entry_id]):
                self.roster_texts.pop(entry_id, None)
            if entry_id not in old:
                stamp = self.tick()
                self.roster[entry_id] = {
                    "added": [stamp, device], "removed": None,
                    "fields": {key: [value, stamp, device] for key, value in entry.items()
                               if key != "id" and key not in ENTRY_COUNTS},
                    "counts": {key: {device: [value, 0]} for key, value in entry.items() if key in ENTRY_COUNTS}}
            elif entry is not old[entry_id] and entry != old[entry_id]:
                kept = self.roster[entry_id]
                for key, value in entry.items():
                    if key in ENTRY_COUNTS:
                        if old[entry_id].get(key) != value:
                            self.step(kept["counts"].setdefault(key, {}), value - self.raw_count(entry_id, key), device)
                    elif key != "id" and old[entry_id].get(key) != value:
                        kept["fields"][key] = [value, self.tick(), device]
        for entry_id in old.keys() - new.keys():
            remove_entry(self, entry_id, [self.tick(), device])

    def absorb_log(self, before: list, after: list, device: str):
        old_head = {entry["id"] for entry in before[:LOG_HEAD]}
        new_head = {entry["id"] for entry in after[:LOG_HEAD]}
        added = [entry for entry in after[:LOG_HEAD] if entry["id"] not in old_head]
        removed = [entry for entry in before[:LOG_HEAD] if entry["id"] not in new_head]
        if len(after) - len(before) != len(added) - len(removed):  # not a change at the front
            old_ids = {entry["id"] for entry in before}
            new_ids = {entry["id"] for entry in after}
            added = [entry for entry in after if entry["id"] not in old_ids]
            removed = [entry for entry in before if entry["id"] not in new_ids]
        tally = self.tally()
        for entry in reversed(added):  # oldest first, so the newest gets the highest clock
            entry["clock"], entry["device"] = self.tick(), device
            self.log[entry["id"]] = entry
            self.fresh.append(entry)
            tally[kind_of(entry)] = tally.get(kind_of(entry), 0) + 1
        for entry in removed:
            if entry["id"] not in self.undone:
                tally[kind_of(entry)] = tally.get(kind_of(entry), 0) - 1
            mark = self.undone.setdefault(entry["id"], {"by": {}, "effects": entry.get("effects", [])})
            mark["by"][device] = self.tick()
            self.corrections = self.undone_text = None

    def add_sealed(self, message: dict) -> bool:
        """A sealed-card message (session.sealed) made on this phone or opened from a link, already
        checked; False when the session had it, or holds as many as it may (MAX_MESSAGES in a conflict,
        MAX_EXCHANGES conflicts): one more and it would not load again."""
        kept = self.sealed.get(message["c"], {})
        key = digest(message)
        if key in kept or len(kept) >= MAX_MESSAGES or (not kept and len(self.sealed) >= MAX_EXCHANGES):
            return False
        self.sealed = {**self.sealed, message["c"]: {**kept, key: message}}  # a new dict: the head changed
        return True

    # --- Merging ---------------------------------------------------------------------------------------

    def merge(self, other: Replica) -> Replica:
        """Everything both replicas hold (a new replica). Commutative, associative, idempotent.
        Of two complete replicas; where this phone holds only the newest entries in memory,
        session.logbook.merge_in merges with what its log store holds."""
        if other.id != self.id:
            raise ValueError("only replicas of one session merge")
        merged = Replica(self.id, max(self.clock, other.clock), join_fields(self.fields, other.fields),
                         join_counts(self.tension, other.tension))
        for entry_id in self.roster.keys() | other.roster.keys():
            merged.roster[entry_id] = join_entries(self.roster.get(entry_id, {}), other.roster.get(entry_id, {}))
        for entry_id in self.log.keys() | other.log.keys():
            candidates = [entry for entry in (self.log.get(entry_id), other.log.get(entry_id)) if entry]
            merged.log[entry_id] = candidates[0] if len(candidates) == 1 else max(candidates, key=canonical)
        for entry_id in self.undone.keys() | other.undone.keys():
            marks = [mark for mark in (self.undone.get(entry_id), other.undone.get(entry_id)) if mark]
            by = {}
            for mark in marks:
                for device, clock in mark["by"].items():
                    by[device] = max(by.get(device, 0), clock)
            merged.undone[entry_id] = {"by": by, "effects": marks[0]["effects"] if len(marks) == 1 else max(
                (mark["effects"] for mark in marks), key=canonical)}
        for conflict_id in self.sealed.keys() | other.sealed.keys():
            merged.sealed[conflict_id] = {**self.sealed.get(conflict_id, {}), **other.sealed.get(conflict_id, {})}
        merged.gm = self.gm if other.gm is None else other.gm if self.gm is None else later_write(self.gm, other.gm)
        merged.holders, merged.vouched = join_holders(self.holders, other.holders), joined_vouched(self, other, merged.roster)
        merged.complete = self.complete and other.complete
        merged.fresh = [*self.fresh, *(entry for entry_id, entry in other.log.items() if entry_id not in self.log)]
        return merged


def holder_rank(device: str, record: list) -> tuple:
    """Of two records of one device holding one entry: a grant (written by another phone, the GM's)
    before a claim (written by the device itself), then the later."""
    return record[1] != device, record[0], record[1]


def join_holders(first: dict, second: dict) -> dict:
    joined = {entry_id: dict(devices) for entry_id, devices in first.items()}
    for entry_id, devices in second.items():
        mine = joined.setdefault(entry_id, {})
        for device, record in devices.items():
            mine[device] = list(max(mine.get(device, record), record, key=lambda item: holder_rank(device, item)))
    return joined


def join_vouched(first: dict, second: dict) -> dict:
    """Per device and target the higher value: each step count, and the later stamp."""
    joined = {device: dict(records) for device, records in first.items()}
    for device, records in second.items():
        mine = joined.setdefault(device, {})
        for key, record in records.items():
            mine[key] = higher_vouch(mine.get(key), record)
    return joined


def higher_vouch(had: list | None, record: list) -> list:
    """One `vouched` record joined with another (or with none)."""
    return list(record) if had is None else [max(had[0], record[0]), max(had[1], record[1]), *max(had[2:], record[2:])]


def target_key(target: tuple) -> str:
    """A count's place as `vouched` keys it: "tension", or "ap:<roster id>" (Health, Willpower alike)."""
    return "tension" if target == ("tension",) else f"{target[2]}:{target[1]}"


def key_target(key: str) -> tuple:
    if key == "tension":
        return ("tension",)
    field, _, entry_id = key.partition(":")
    return ("entry", entry_id, field)


def counts_at(replica: Replica, target: tuple) -> dict:
    """The steps by device of one count (Tension, or a roster entry's AP, Health or Willpower)."""
    if target == ("tension",):
        return replica.tension
    return replica.roster.get(target[1], {}).get("counts", {}).get(target[2], {})


def refuse_what_cannot_be_kept(replica: Replica, before: dict, after: dict, device: str):
    """Refused (before anything is written) when the change would take this phone's clock or one
    of its counts past what the session's check accepts: the session would not load again."""
    if replica.clock > EDIT_CLOCK:
        raise Refused("This session can't be changed on this phone any more: its clock is full.")
    tension = after["tension"] - replica.raw_tension()
    if before["tension"] != after["tension"] and full(replica.tension, tension, device):
        raise Refused("Tension can't be changed again on this phone in this session: its count is full.")
    if before["roster"] is after["roster"]:
        return
    old = {entry["id"]: entry for entry in before["roster"]}
    for entry in after["roster"]:
        kept, was = replica.roster.get(entry["id"]), old.get(entry["id"])
        if kept is None or was is None or entry is was:
            continue
        for key in ENTRY_COUNTS.keys() & entry.keys():
            if was.get(key) != entry[key] and full(kept["counts"].get(key, {}),
                                                   entry[key] - replica.raw_count(entry["id"], key), device):
                raise Refused(f"{isolate(str(entry.get('name', '')))}'s {COUNT_NAMES[key]} can't be changed "
                              "again on this phone in this session: its count is full.")


def full(counts: dict, delta: int, device: str) -> bool:
    """Would `device` stepping `counts` by `delta` go past MAX_STEPS?"""
    up, down = counts.get(device, [0, 0])
    return up + delta > MAX_STEPS if delta > 0 else down - delta > MAX_STEPS


def kind_of(entry: dict) -> str:
    return entry.get("kind", "conflict")


def count_kinds(entries) -> dict[str, int]:
    tally = {"conflict": 0, "set-aside": 0}
    for entry in entries:
        tally[kind_of(entry)] = tally.get(kind_of(entry), 0) + 1
    return tally


def entry_key(entry: dict) -> tuple:
    """Where an entry sits in the log: (clock, device, id), the order of every phone."""
    return entry["clock"], entry["device"], entry["id"]


def copy_entry(entry: dict) -> dict:
    return join_entries(entry, {})


def join_entries(first: dict, second: dict) -> dict:
    """One roster entry from two replicas; a roll carries only some counts of an entry
    (no "added", "removed" or "fields"), so every part may be missing."""
    added = [entry["added"] for entry in (first, second) if entry.get("added") is not None]
    removed = [entry["removed"] for entry in (first, second) if entry.get("removed") is not None]
    first_counts, second_counts = first.get("counts", {}), second.get("counts", {})
    counts = {key: join_counts(first_counts.get(key, {}), second_counts.get(key, {}))
              for key in first_counts.keys() | second_counts.keys()}
    return shed({"added": list(min(added)) if added else None, "removed": list(max(removed)) if removed else None,
                 "fields": join_fields(first.get("fields", {}), second.get("fields", {})), "counts": counts})


def remove_entry(replica: Replica, entry_id: str, stamp: list):
    """A removal made on this phone: the entry shed, its counts' vouched records dropped."""
    replica.roster[entry_id] = shed({**replica.roster[entry_id], "removed": stamp})
    replica.roster_texts.pop(entry_id, None)
    replica.vouched = standing_vouched(replica.vouched, replica.roster)


def shed(entry: dict) -> dict:
    """A roster entry as the replica keeps it: once removed (for good: a removal is never undone), only
    its REMOVAL_FIELDS and no counts. Applied after every join, it keeps the join a join: what it drops
    depends only on "removed", which only grows."""
    if entry.get("removed") is None:
        return entry
    return {**entry, "fields": {key: write for key, write in entry.get("fields", {}).items() if key in REMOVAL_FIELDS},
            "counts": {}}


def joined_vouched(first: Replica, second: Replica, roster: dict) -> dict:
    return standing_vouched(join_vouched(first.vouched, second.vouched), roster)


def standing_vouched(vouched: dict, roster: dict) -> dict:
    """`vouched` without the records of removed roster entries' counts (which are gone: `shed`)."""
    def stands(key: str) -> bool:
        target = key_target(key)
        return target == ("tension",) or (roster.get(target[1]) or {}).get("removed") is None
    kept = {device: {key: record for key, record in records.items() if stands(key)} for device, records in vouched.items()}
    return {device: records for device, records in kept.items() if records}


def effect_targets(effects) -> list[tuple[tuple, int]]:
    """((what, roster id, field), delta) for each effect of a log entry."""
    found = []
    for effect in effects:
        field, delta = effect.get("field"), effect.get("delta", 0)
        if field == "tension":
            found.append((("tension",), delta))
        elif field in ENTRY_COUNTS:
            found.append((("entry", effect.get("id"), field), delta))
    return found
