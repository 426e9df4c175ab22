"""The log outbox: log entries on their way to the log store, the heads that wait for them, and
reading the log back.

Owns one key of the key-value store (session.on_device describes every key):

    tableside.unstored.<id>    log entries of a session the log store refused (storage full),
                               kept until they are stored: read back at start and tried again

It writes the log store's records (session.logbook: IndexedDB in the browser, one record per
entry, written once), and each head (tableside.head.<id>, session.on_device.heads) that waited
until the entries it counts were stored. A save queues its new entries here and `flush` writes
them in order. When the log store refuses, nothing logged is dropped: the entries are kept
under tableside.unstored.<id> (or, with no room there either, in memory) and wait for another
try, after the next save (`stalled`) and at the next start; the waiting heads are written anyway
(the numbers are kept), marked for their counts to be checked (`recount`).
Reading: the next page of older entries (`older`), the whole log (`everything`), which entries
are held (`stored_kinds`, and as what: `stored_entries`; all of them in a few numbers: `held`, read
once and kept up to date here), and `archive`, which keeps only the newest.
"""
from __future__ import annotations

import copy

from .. import untrusted
from ..errors import SessionError
from ..logbook import Held, floor, read_entries, record, recount
from ..model import MAX_LOG
from ..replica import Replica, entry_key, kind_of
from ..replica_check import log_entry
from .heads import head_key, stamped
from .key_value import StorageError, json_text, read_text
from .version_one import not_moved

PAGE = 20  # log entries read at a time: the newest page at start, older ones on demand
UNSTORED_PREFIX = "tableside.unstored."


def unstored_key(session_id: str) -> str:
    return UNSTORED_PREFIX + session_id


def log_full_message(count: int = 1, kept: bool = True) -> str:
    """What the player is told at once when the log store refuses entries."""
    what = "the last roll is" if count == 1 else f"the last {count} log entries are"
    if kept:
        return (f"Storage is full: {what} kept aside on this phone and will go into the log as soon as "
                "there is room (Tension, AP and the roster are saved). Export this session (Log screen) "
                "or free space on the phone.")
    return (f"Storage is full: {what} kept only in this page's memory until there is room, and would be "
            "lost if the page closed. Export this session now (Log screen) or free space on the phone.")


def parse_unstored(raw) -> list[dict]:
    """The entries kept under tableside.unstored.<id>, each checked; SessionError if they can't be read."""
    try:
        value = untrusted.parse(raw) if isinstance(raw, str) else None
    except untrusted.BadJSON:
        value = None
    if not isinstance(value, list) or not 0 < len(value) <= MAX_LOG:
        raise SessionError("Its log entries kept aside while storage was full are not in the form Tableside "
                           "writes them.")
    entries = []
    for item in value:
        try:
            entries.append(log_entry(item))
        except Exception:
            raise SessionError("One of its log entries kept aside while storage was full is damaged.") from None
    return entries


class Outbox:
    """What waits for the log store, in order, and the log read back from it. `on_stored(id)` runs
    once everything queued for a session is stored (the library lets go of a version-1 copy);
    `moving(id)` names a version-1 session whose move is queued (None for any other);
    `unreadable(key, raw, error)` lists entries kept aside that can't be read (the quarantine)."""

    def __init__(self, store, log, clock, on_stored, moving, unreadable):
        self.store = store
        self.log = log  # the log store (session.logbook)
        self.clock = clock
        self.on_stored = on_stored
        self.moving = moving
        self.unreadable = unreadable
        self.queue: list[tuple] = []  # ("append", id, entries) | ("remove", id, keep): for the log store
        self.waiting: dict[str, tuple[str, str]] = {}  # id -> (content, head text) written once its entries are
        self.flushing = False
        self.stalled = False  # the log store refused the last write: try again with the next entries
        self.recounting: set[str] = set()  # heads whose counts are checked against the log store
        self.kept: set[str] = set()  # sessions with entries kept under tableside.unstored.<id>
        self.holdings: dict[str, Held] = {}  # id -> what this device holds of its log, once read (`held`)

    # --- Queueing ---------------------------------------------------------------------------------

    def append(self, session_id: str, entries: list[dict]):
        """Queue a session's new entries (a save): a new try even after the log store refused."""
        self.queue.append(("append", session_id, entries))
        self.stalled = False
        self.note_held(session_id, entries)

    def remove(self, session_id: str):
        """Queue the removal of every stored entry of a session (it is deleted): no head waits."""
        self.queue.append(("remove", session_id, 0))
        self.waiting.pop(session_id, None)
        self.holdings.pop(session_id, None)
        if session_id in self.kept:  # entries kept aside that could not be read stay, listed as unreadable
            self.store.remove(unstored_key(session_id))
            self.kept.discard(session_id)

    def take_back(self, session_id: str):
        """At start: queue again the entries of a session kept aside while storage was full (they
        show in its log at once, and the next flush tries them again). If they can't be read they
        stay where they are, listed as unreadable (for download), and are never written over."""
        key = unstored_key(session_id)
        raw = read_text(self.store, key)
        if raw is None:
            return
        try:
            entries = parse_unstored(raw)
        except SessionError as error:
            self.unreadable(key, raw, error)
            return
        self.queue.append(("append", session_id, entries))
        self.note_held(session_id, entries)
        self.kept.add(session_id)

    def hold(self, session_id: str, content: str, text: str):
        """A head to write once every entry queued for its session is stored."""
        self.waiting[session_id] = (content, text)

    def pending(self, session_id: str) -> bool:
        return any(item[1] == session_id for item in self.queue)

    def queued(self, session_id: str) -> list[dict]:
        """Entries of a session waiting in the outbox for the log store."""
        found = []
        for kind, target, data in self.queue:
            if kind == "append" and target == session_id:
                found += data
            elif kind == "remove" and target == session_id:
                found = []
        return found

    # --- Writing to the log store -----------------------------------------------------------------

    async def flush(self):
        """Write what `save` queued to the log store, in order; each head that waited for its
        entries once they are stored; and, once a version-1 session is wholly moved, remove its
        old key. StorageError if the log store refuses: the heads are written anyway (the numbers
        are kept), marked for their counts to be checked, and the entries wait for another try."""
        if self.flushing:
            return
        self.flushing = True
        try:
            while self.queue:
                kind, session_id, data = self.queue[0]
                try:
                    if kind == "append":
                        await self.log.append([record(session_id, entry) for entry in data])
                    else:
                        await self.log.remove(session_id, data)
                except Exception:
                    self.stalled = True
                    count, kept = self.keep_aside()
                    self.write_waiting(recount=True)
                    raise StorageError(self.refusal(count, kept)) from None
                self.queue.pop(0)
                if not self.pending(session_id):
                    self.head_stored(session_id)
        finally:
            self.flushing = False

    def head_stored(self, session_id: str):
        """Everything queued for a session is in the log store: its waiting head now, and a
        version-1 copy is no longer needed (where the log store outlives the page)."""
        waiting = self.waiting.pop(session_id, None)
        if waiting is not None:
            self.store.set(head_key(session_id), waiting[1])
        if session_id in self.kept:
            self.store.remove(unstored_key(session_id))
            self.kept.discard(session_id)
        self.on_stored(session_id)

    def keep_aside(self) -> tuple[int, bool]:
        """The log store refused: keep every queued entry under its session's unstored key, so a
        restart still has it. (How many entries wait, whether all of them are kept.) A version-1
        session's entries need no copy: its old key holds them until its move succeeds."""
        count, kept = 0, True
        for session_id in dict.fromkeys(item[1] for item in self.queue):
            entries = self.queued(session_id)
            if not entries or self.moving(session_id) is not None:
                continue
            count += len(entries)
            if session_id not in self.kept and read_text(self.store, unstored_key(session_id)) is not None:
                kept = False  # what is there could not be read at start: it stays as it is
                continue
            try:
                self.store.set(unstored_key(session_id), json_text(entries))
            except StorageError:
                kept = False
                continue
            self.kept.add(session_id)
        return count, kept

    def write_waiting(self, recount: bool):
        for session_id, (content, text) in list(self.waiting.items()):
            try:
                self.store.set(head_key(session_id), stamped(content, self.clock(), recount=recount))
            except StorageError:
                continue
            del self.waiting[session_id]

    def refusal(self, count: int, kept: bool) -> str:
        moving = [name for name in (self.moving(session_id) for _, session_id, _ in self.queue) if name is not None]
        if moving and not count:
            return not_moved(moving[0])
        return log_full_message(max(count, 1), kept)

    # --- The log of a session, page by page -------------------------------------------------------

    async def older(self, replica: Replica, limit: int = PAGE) -> tuple[list[dict], int]:
        """Bring the next page of older entries into `replica`: (the entries it gained, how many
        stored entries could not be read). At the end of the log the replica is complete."""
        if replica.complete:
            return [], 0
        oldest = floor(replica)
        texts = await self.log.page(replica.id, list(oldest) if oldest else None, limit)
        entries, broken = read_entries(texts)
        bottom = min(map(entry_key, entries)) if len(texts) >= limit and entries else None
        entries += [entry for entry in self.queued(replica.id)  # merged in and not stored yet
                    if (oldest is None or entry_key(entry) < oldest) and (bottom is None or entry_key(entry) >= bottom)]
        gained = []
        for entry in entries:
            if entry["id"] not in replica.log:
                replica.log[entry["id"]] = entry
                gained.append(entry)
        if len(texts) < limit:
            replica.complete = True
            if not broken:
                replica.counted = None  # every entry is in memory now: counted from there
        return gained, broken

    async def stored_kinds(self, replica: Replica, ids: list[str]) -> dict[str, str]:
        """{id: kind} of these entry ids that this device holds for the session (store or outbox)."""
        if not ids:
            return {}
        kinds = dict(await self.log.kinds(replica.id, ids))
        wanted = set(ids)
        kinds.update({entry["id"]: entry.get("kind", "conflict") for entry in self.queued(replica.id)
                      if entry["id"] in wanted})
        return kinds

    async def stored_entries(self, replica: Replica, ids: list[str]) -> dict[str, dict]:
        """{id: entry} of these entry ids as this device holds them (store or outbox): what each id
        means here (session.history). An entry whose stored text can't be read is left out."""
        if not ids:
            return {}
        texts = await self.log.texts(replica.id, ids)
        entries, _ = read_entries(texts.values())
        wanted = set(ids)
        held = {entry["id"]: entry for entry in entries if entry["id"] in wanted}
        held.update({entry["id"]: entry for entry in self.queued(replica.id) if entry["id"] in wanted})
        return held

    async def held(self, replica: Replica) -> Held:
        """What this device holds of the session's log (stored, on its way, or in memory): the log
        store's keys read the first time only, then kept up to date by `append`."""
        held = self.holdings.get(replica.id)
        if held is None and replica.complete:
            held = self.holdings[replica.id] = Held()
        elif held is None:
            keys = await self.log.keys(replica.id)  # oldest first
            held = self.holdings[replica.id] = Held((key[2] for key in keys), tuple(keys[0]) if keys else None)
            held.add_entries(self.queued(replica.id))
        held.add_entries(replica.log.values())
        return held

    def note_held(self, session_id: str, entries: list[dict]):
        if session_id in self.holdings:
            self.holdings[session_id].add_entries(entries)

    async def everything(self, replica: Replica) -> tuple[Replica, int]:
        """A copy of `replica` with its whole log (for export, a duplicate, archiving), and how many
        stored entries could not be read."""
        whole = Replica.from_dict(copy.deepcopy(replica.to_dict(log=False)))
        broken = 0
        if not replica.complete:
            entries, broken = read_entries(await self.log.every(replica.id))
            whole.log = {entry["id"]: entry for entry in entries}
            whole.log.update({entry["id"]: entry for entry in self.queued(replica.id)})
        whole.log.update(copy.deepcopy(replica.log))
        whole.fresh, whole.counted = [], None
        return whole, broken

    async def recount(self, replica: Replica):
        """Count the log of a head marked for checking from the log store itself."""
        index = await self.log.index(replica.id)
        index += [[entry["id"], kind_of(entry)] for entry in self.queued(replica.id)]  # kept aside, not stored yet
        replica.counted = recount(index, replica)
        self.recounting.discard(replica.id)

    async def archive(self, replica: Replica, keep: int) -> int:
        """Remove all but the newest `keep` entries of this session from this device (after the
        player exported them): how many were removed. The replica then holds the newest page."""
        await self.flush()
        before = await self.log.count(replica.id)
        await self.log.remove(replica.id, keep)
        self.holdings.pop(replica.id, None)
        replica.counted = recount(await self.log.index(replica.id), Replica(replica.id, undone=replica.undone))
        replica.log, replica.complete = {}, False
        await self.older(replica)
        return max(0, before - keep)
