"""A session's log on this device: the newest entries in memory, every entry in the log store.

A campaign logs thousands of conflicts, so the log is not kept with the rest of the session
(session.on_device.heads): each entry is written once to the *log store* (IndexedDB in the
browser, through ui.shell.storage; `MemoryLog` here, for tests and for browsers without
IndexedDB) and never rewritten: an undo is a mark in the head. A replica in memory holds the
newest entries only (`Replica.complete` is False while older ones are in the store alone);
the Log screen loads older pages on demand.

The log store is asynchronous (IndexedDB is); its records, one per entry:

    {"s": session id, "c": clock, "d": device, "i": entry id, "k": kind, "t": the entry as JSON}

keyed by [s, c, d, i], so a session's entries page newest first in the order every phone
shows them (clock, device, id). Its methods, all coroutines:

    append(records)                 store these records (one transaction; the same key again: same entry)
    page(session, before, limit)    entry texts newest first, older than key `before` ([c, d, i]) if given
    every(session)                  every entry text, oldest first
    kinds(session, ids)             {id: kind} of these ids that are stored
    texts(session, ids)             {id: entry text} of these ids that are stored (what an id means here)
    count(session)                  how many entries are stored
    remove(session, keep)           remove all but the newest `keep` entries (0: every entry)
    index(session)                  [[id, kind], ...] of every entry (recounting)
    keys(session)                   [[c, d, i], ...] of every entry, oldest first (keys only: no text read)

What the store gives back is untrusted like any stored text: `read_entries` parses it with
session.untrusted and checks each entry (replica_check.log_entry); what fails is skipped and
counted, never fatal.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from . import history, untrusted
from .replica import Replica, count_kinds, entry_key, kind_of
from .replica_check import log_entry


def record(session_id: str, entry: dict) -> dict:
    """The log store's record of one entry."""
    return {"s": session_id, "c": entry["clock"], "d": entry["device"], "i": entry["id"], "k": kind_of(entry),
            "t": json.dumps(entry, ensure_ascii=False, separators=(",", ":"))}


def read_entries(texts) -> tuple[list[dict], int]:
    """Entries from the log store's texts, and how many could not be read (left where they are)."""
    entries, broken = [], 0
    for text in texts:
        try:
            value, _ = untrusted.parse_repairing(text)
            entries.append(log_entry(value))
        except Exception:  # whatever a stored value makes fail, it is only an entry not shown
            broken += 1
    return entries, broken


def id_print(entry_id: str) -> int:
    """An entry id's part of a log's print (session.live.catchup): XORed together, equal prints say equal logs."""
    return int.from_bytes(hashlib.sha256(entry_id.encode()).digest()[:8], "big")


class Held:
    """What this device holds of one session's log, in a few numbers: how many entries, the print
    of their ids (XOR of id_print) and the oldest, with every id so that an entry counts once.
    Read once from the log store's keys (session.on_device.outbox), then kept up to date as
    entries are added: a live table's hello and catch-up need it at every message, and reading
    20,000 entries for each would cost what the log costs, not what was asked."""

    def __init__(self, ids=(), oldest: tuple | None = None):
        self.ids: set[str] = set()
        self.print = 0
        self.oldest = oldest  # its key (clock, device, id); None when it holds none
        for entry_id in ids:
            self.add(entry_id)

    def add(self, entry_id: str, key: tuple | None = None):
        if entry_id not in self.ids:
            self.ids.add(entry_id)
            self.print ^= id_print(entry_id)
        if key is not None and (self.oldest is None or key < self.oldest):
            self.oldest = key

    def add_entries(self, entries):
        for entry in entries:
            self.add(entry["id"], entry_key(entry))

    @property
    def oldest_id(self) -> str:
        return self.oldest[2] if self.oldest is not None else ""


def floor(replica: Replica) -> tuple | None:
    """The key of the oldest entry in memory (None when none is)."""
    return min(map(entry_key, replica.log.values()), default=None)


class MemoryLog:
    """A log store kept in memory, with the log store's interface: for tests, and for browsers
    that refuse IndexedDB (`durable` False: nothing outlives the page). `limit` (characters of
    entry text) imitates a full storage."""

    durable = True

    def __init__(self, durable: bool = True, limit: int | None = None):
        self.records: dict[tuple, dict] = {}
        self.durable = durable
        self.limit = limit

    def mine(self, session_id: str) -> list[dict]:
        return sorted((item for item in self.records.values() if item["s"] == session_id),
                      key=lambda item: (item["c"], item["d"], item["i"]))

    async def append(self, records: list[dict]):
        if self.limit is not None:
            used = sum(len(item["t"]) for item in self.records.values())
            if used + sum(len(item["t"]) for item in records) > self.limit:
                raise OSError("QuotaExceededError: the log store is full")
        for item in records:
            self.records[(item["s"], item["c"], item["d"], item["i"])] = dict(item)

    async def page(self, session_id: str, before, limit: int) -> list[str]:
        found = self.mine(session_id)
        if before is not None:
            found = [item for item in found if (item["c"], item["d"], item["i"]) < tuple(before)]
        return [item["t"] for item in reversed(found[-limit:] if limit else [])]

    async def every(self, session_id: str) -> list[str]:
        return [item["t"] for item in self.mine(session_id)]

    async def kinds(self, session_id: str, ids) -> dict[str, str]:
        wanted = set(ids)
        return {item["i"]: item["k"] for item in self.mine(session_id) if item["i"] in wanted}

    async def texts(self, session_id: str, ids) -> dict[str, str]:
        wanted = set(ids)
        return {item["i"]: item["t"] for item in self.mine(session_id) if item["i"] in wanted}

    async def count(self, session_id: str) -> int:
        return len(self.mine(session_id))

    async def remove(self, session_id: str, keep: int = 0):
        found = self.mine(session_id)
        for item in found[:max(0, len(found) - keep)]:  # keep may exceed what is there: then none goes
            del self.records[(item["s"], item["c"], item["d"], item["i"])]

    async def index(self, session_id: str) -> list[list[str]]:
        return [[item["i"], item["k"]] for item in self.mine(session_id)]

    async def keys(self, session_id: str) -> list[list]:
        return [[item["c"], item["d"], item["i"]] for item in self.mine(session_id)]


# --- Merging into a replica that holds only the newest entries ---------------------------------------

@dataclass
class Merged:
    """What merging a link (or a file) into this phone's replica gives: the replica, and how
    many log entries it adds and undoes (whether or not they are in memory)."""
    replica: Replica
    added: int
    undone: int
    ignored: list = field(default_factory=list)  # sentences for what was left out (session.inert)


def unknown_ids(mine: Replica, incoming: Replica) -> list[str]:
    """The entry ids the log store must be asked about before merging: incoming entries and new
    undo marks that `mine` does not hold in memory (none when `mine` is complete)."""
    if mine.complete:
        return []
    wanted = [entry_id for entry_id in incoming.log if entry_id not in mine.log]
    wanted += [entry_id for entry_id in incoming.undone if entry_id not in mine.undone and entry_id not in mine.log]
    return wanted


def merge_in(mine: Replica, incoming: Replica, stored: dict[str, str], held: dict[str, dict] | None = None) -> Merged:
    """`mine` merged with `incoming`, where `stored` ({id: kind}) says which of `unknown_ids`
    the log store already holds, and `held` ({id: entry}) what they are there. Entries new to this
    phone become `fresh` (to be stored); those older than what is in memory stay out of memory (the
    Log loads them with their page). The counts of the whole log follow exactly.
    history.Rewritten when `incoming` carries another content for an entry this phone holds; each
    undo mark's effects are the entry's as this phone holds it (session.history)."""
    known = {**(held or {}), **mine.log}
    changed = history.rewritten(known, incoming.log)
    if changed is not None:
        raise history.Rewritten(history.refusal(changed))
    merged = mine.merge(incoming)
    history.held_effects(merged.undone, {**known, **incoming.log}, mine.undone)
    new = [entry for entry_id, entry in incoming.log.items() if entry_id not in mine.log and entry_id not in stored]
    merged.fresh = [*mine.fresh, *new]
    marked = [entry_id for entry_id in incoming.undone if entry_id not in mine.undone]
    undone = 0
    tally = dict(mine.tally())
    for entry in new:
        if entry["id"] not in merged.undone:
            tally[kind_of(entry)] = tally.get(kind_of(entry), 0) + 1
    for entry_id in marked:
        kind = kind_of(mine.log[entry_id]) if entry_id in mine.log else stored.get(entry_id)
        if kind is not None:  # an undo of an entry this phone has: it leaves the count
            tally[kind] = tally.get(kind, 0) - 1
            undone += 1
    merged.counted = tally
    merged.complete = mine.complete
    if not mine.complete:
        oldest = floor(mine)
        for entry in new:
            if oldest is None or entry_key(entry) < oldest:
                del merged.log[entry["id"]]
        for entry_id in stored:  # stored entries stay where they are: in the store, unless in memory
            if entry_id not in mine.log:
                merged.log.pop(entry_id, None)
    added = sum(1 for entry in new if entry["id"] not in merged.undone)
    return Merged(merged, added, undone)


def recount(index: list, replica: Replica) -> dict[str, int]:
    """The live entries of each kind from the log store's index ([[id, kind], ...]) and the
    entries in memory not stored yet."""
    kinds = {entry_id: kind for entry_id, kind in index}
    kinds.update({entry["id"]: kind_of(entry) for entry in replica.log.values()})
    return count_kinds({"kind": kind} for entry_id, kind in kinds.items() if entry_id not in replica.undone)
