"""Where sessions live on one device: an index, a small head per session, and its log.

Keys in the key-value store (localStorage; every one starts with "tableside."):

    tableside.index            {"v": 1, "active": id, "sessions": [{"id", "saved"}, ...]}
    tableside.head.<id>        one session without its log: the replica's registers, counts, roster,
                               undo marks and clock (session.replica, to_dict(log=False)), plus
                               "logged" (live entries of each kind) and "saved" (when); a few KB
                               whatever the log's length, rewritten only when its text changes
    tableside.device           this phone's id in the stamps it writes (session.replica)
    tableside.table.<id>       the conflict in progress on this phone for that session (drafts,
                               the open screen): this phone's own, never inside the session, so
                               sessions can be saved and merged without it
    tableside.session.<id>     a session as version 1 of the app saved it, log included: read,
                               then moved to a head and the log store (migrated) and removed once
                               that has succeeded; until then it stays readable where it was
    tableside.recovered.<n>    an unreadable index, copied here before the index is rebuilt

The log entries live in the log store (session.logbook: IndexedDB in the browser), one record
per entry, written once. A tap writes the head (if it changed) and appends the entries it
logged; a head waits for its entries, so it never counts entries the store does not have.

The index is only a cache (which session was open, when each was saved): the heads are the
truth, and a lost or broken index is rebuilt from them. Pure: the store is anything with
get/set/remove/keys (the browser's localStorage through ui/shell/storage.py, a MemoryStore in
tests), the log store anything with the coroutines of session.logbook. Nothing here overwrites
or deletes what it could not read: such keys stay as they are, listed in `Library.unreadable`
with their raw text for export, until the player removes them. Loading survives any stored
value: text is parsed by session.untrusted (nesting capped before parsing), any failure only
makes that key unreadable, and broken characters (lone surrogates) in a readable head or
session are replaced in memory, listed in `Library.repairs`, and written at its next save.
"""
from __future__ import annotations

from rules.words import isolate, plural

from .. import untrusted
from ..errors import SessionError
from ..logbook import MemoryLog
from ..model import check_log_entry, check_session
from ..replica import Replica
from .heads import (HEAD_PREFIX, INDEX_KEY, INDEX_VERSION, head_content, head_key, parse_head, parse_index,
                    stamped, summary)
from .key_value import MemoryStore, StorageError, full_message, json_text, problem, read_text, safe_keys
from .outbox import PAGE, Outbox
from .own_keys import TABLE_PREFIX, OwnKeys, table_key
from .unreadable import RECOVERED_PREFIX, Quarantine, Unreadable, shown_key
from .version_one import SESSION_PREFIX, VersionOne, parse_session, session_key, session_text

PREFIX = "tableside."


class Library:
    """Every session saved on this device. `load` once at start; then `save` after each change,
    and `flush` (a coroutine) to write the log entries it queued."""

    def __init__(self, store, log=None, clock=lambda: "", in_memory: bool = False):
        self.store = store
        self.log = log if log is not None else MemoryLog()  # the log store (session.logbook)
        self.clock = clock
        self.in_memory = in_memory  # the browser refused storage: nothing outlives the page
        self.entries: dict[str, dict] = {}  # id -> summary, for the session list
        self.active: str | None = None
        self.quarantine = Quarantine(store)  # what could not be read
        self.repairs: list[str] = []  # what `load` repaired in readable sessions, one phrase each
        self.written: dict[str, str] = {}  # id -> the head content last read or written, to skip unchanged saves
        self.pristine: Replica | None = None  # a new session nobody has changed yet: saved at its first change
        self.pristine_text = ""
        self.version_one = VersionOne(store, self.log)  # sessions still saved by version 1
        self.log_outbox = Outbox(store, self.log, clock, on_stored=self.let_go, moving=self.moving)
        self.own = OwnKeys(store)  # this phone's own keys: its id, tables in progress, secrets, backups

    @property
    def unreadable(self) -> list[Unreadable]:
        """Stored data that could not be read, left in place and offered for download."""
        return self.quarantine.items

    @property
    def outbox(self) -> list[tuple]:
        """What waits for the log store, in order (the shell flushes while it is not empty)."""
        return self.log_outbox.queue

    @property
    def flushing(self) -> bool:
        return self.log_outbox.flushing

    @property
    def stalled(self) -> bool:
        """The log store refused the last write: the next save tries again."""
        return self.log_outbox.stalled

    @property
    def recounting(self) -> set[str]:
        """Heads whose counts are checked against the log store (`recount`)."""
        return self.log_outbox.recounting

    @property
    def legacy(self) -> dict[str, dict]:
        """id -> a version-1 session still under tableside.session.<id>."""
        return self.version_one.sessions

    # --- Start ------------------------------------------------------------------------------

    def load(self) -> Replica | None:
        """Read every head (and every session still saved by version 1); the replica of the session
        that was open (or the newest readable one), holding none of its log yet (a version-1 one
        holds all of it), or None when nothing readable is stored. Never raises, whatever is
        stored: what can't be read is listed in `unreadable`, what was repaired in `repairs`."""
        index = self.read_index()
        ranks = {session_id: rank for rank, session_id in enumerate(index["order"])}
        keys = sorted(key for key in safe_keys(self.store) if key.startswith((HEAD_PREFIX, SESSION_PREFIX)))
        keys.sort(key=lambda key: (ranks.get(key.split(".", 2)[2], len(ranks)), not key.startswith(HEAD_PREFIX)))
        blocked = set()
        for key in keys:
            is_head = key.startswith(HEAD_PREFIX)
            session_id = key[len(HEAD_PREFIX if is_head else SESSION_PREFIX):]
            if session_id in blocked:
                continue  # its head could not be read: the version-1 copy waits untouched too
            raw = read_text(self.store, key)
            try:
                if is_head:
                    replica, repaired, saved, check = parse_head(raw, session_id)
                    name = replica.session(log=False)["name"]
                    if check:
                        self.log_outbox.recounting.add(session_id)
                else:
                    session, repaired = parse_session(raw, session_id)
                    name = session["name"]
                    self.legacy[session_id] = session
                    if session_id in self.entries:  # moved already, but not yet removed: it stays until then
                        continue
                    replica, saved = Replica.from_session(session), index["saved"].get(session_id, "")
                self.entries[session_id] = summary(replica, saved)
            except Exception as error:  # whatever a stored value makes fail, it is only unreadable
                self.quarantine.note(key, raw, error)
                if is_head:
                    blocked.add(session_id)
                continue
            if repaired:
                self.repairs.append(f"“{isolate(name)}”: {repaired} broken "
                                    f"{plural(repaired, 'character', 'characters')} now shown as {untrusted.REPLACEMENT}")
        self.quarantine.note_copies()
        if not self.entries:
            return None
        active = index["active"] if index["active"] in self.entries else self.newest()
        self.active = active
        replica = self.read(active)
        if index["order"] != list(self.entries) or index["active"] != active:
            self.write_index(quiet=True)
        return replica

    def device(self) -> str:
        """This phone's id in the stamps it writes: made once, kept from the first save on."""
        return self.own.device()

    def read_index(self) -> dict:
        empty = {"active": None, "saved": {}, "order": []}
        raw = read_text(self.store, INDEX_KEY)
        if raw is None:
            return empty
        try:
            return parse_index(raw)
        except Exception as error:  # any stored value: the index is only a cache, rebuilt below
            self.quarantine.note_index(raw, error)
            return empty

    def newest(self) -> str:
        return max(self.entries, key=lambda session_id: self.entries[session_id]["saved"])

    # --- The session list --------------------------------------------------------------------

    def listing(self) -> list[dict]:
        """Every readable session, the most recently saved first."""
        return sorted(self.entries.values(), key=lambda entry: entry["saved"], reverse=True)

    def has(self, session_id: str) -> bool:
        return session_id in self.entries

    def is_blocked(self, session_id: str) -> bool:
        """True when unreadable data sits under this session's keys (a session with this id can't be saved)."""
        return self.quarantine.is_blocked(session_id)

    def is_empty(self) -> bool:
        return not self.entries

    def read(self, session_id: str) -> Replica:
        """One stored session as a replica: from its head, holding none of its log yet (read pages
        with `older`), or, while it is still saved by version 1, whole. SessionError (and an entry
        in `unreadable`) if it can't be read."""
        if session_id in self.legacy:
            replica = self.version_one.replica(session_id)
            if read_text(self.store, head_key(session_id)) is not None:  # moved, not yet removed: the head is newer
                replica = replica.merge(self.read_head(session_id))
                replica.complete, replica.counted = True, None
            return replica
        replica = self.read_head(session_id)
        self.written[session_id] = head_content(replica)
        return replica

    def read_head(self, session_id: str) -> Replica:
        key = head_key(session_id)
        raw = read_text(self.store, key)
        if raw is None:
            self.entries.pop(session_id, None)
            if self.is_blocked(session_id):
                raise SessionError("That session could not be read. It is kept as it was: "
                                   "download a copy from the Session screen.")
            raise SessionError("That session is no longer saved on this device.")
        try:
            replica, _, _, _ = parse_head(raw, session_id)  # repairs were reported when it was first loaded
        except Exception as error:
            self.entries.pop(session_id, None)
            self.quarantine.note(key, raw, error)
            raise SessionError(f"That session could not be read. {problem(error)} It is kept as it was: "
                               "download a copy from the Session screen.") from None
        return replica

    # --- The log of a session, page by page -----------------------------------------------------

    async def older(self, replica: Replica, limit: int = PAGE) -> tuple[list[dict], int]:
        return await self.log_outbox.older(replica, limit)

    async def stored_kinds(self, replica: Replica, ids: list[str]) -> dict[str, str]:
        return await self.log_outbox.stored_kinds(replica, ids)

    async def everything(self, replica: Replica) -> tuple[Replica, int]:
        return await self.log_outbox.everything(replica)

    async def recount(self, replica: Replica):
        await self.log_outbox.recount(replica)

    async def archive(self, replica: Replica, keep: int) -> int:
        return await self.log_outbox.archive(replica, keep)

    # --- Changes -----------------------------------------------------------------------------

    def is_pristine(self, replica: Replica) -> bool:
        return replica is self.pristine and head_content(replica) == self.pristine_text

    def keep_pristine(self, replica: Replica):
        """A new session nobody has changed yet: saved at its first change."""
        self.pristine, self.pristine_text = replica, head_content(replica)

    def pending(self, session_id: str) -> bool:
        return self.log_outbox.pending(session_id)

    def save(self, replica: Replica, make_active: bool = True) -> bool:
        """Store what changed in `replica`: its new log entries go to the outbox (for `flush`), its
        head is written if its text changed (once those entries are stored), and it is noted as
        the open one. True when something was written or queued. Raises StorageError when the
        browser refuses, SessionError if the session is invalid (it would not load again, so it is
        not written). Nothing here reads or compares the log beyond the new entries."""
        if self.is_pristine(replica):
            return False
        self.pristine = None if replica is self.pristine else self.pristine
        session_id = replica.id
        content = head_content(replica)
        changed = self.written.get(session_id) != content
        if changed or replica.fresh:
            check_session(replica.session(log=False))
            for entry in replica.fresh:
                check_log_entry(entry)
            if self.is_blocked(session_id):
                raise SessionError("This session's id belongs to saved data that could not be read; "
                                   "it was not overwritten.")
        if changed or replica.fresh:
            self.own.keep_device()
        if replica.fresh:
            self.log_outbox.append(session_id, replica.fresh)
            replica.fresh = []
        if changed:
            saved = self.clock()
            text = stamped(content, saved)
            if self.pending(session_id):
                self.log_outbox.hold(session_id, content, text)
            else:
                self.store.set(head_key(session_id), text)
            self.written[session_id] = content
            self.entries[session_id] = summary(replica, saved)
        elif session_id not in self.entries:
            self.entries[session_id] = summary(replica, self.clock())
            changed = True
        if make_active and self.active != session_id:
            self.active = session_id
            changed = True
        if changed:
            self.write_index()
        return changed or self.pending(session_id)

    def add(self, replica: Replica) -> Replica:
        """Store a new session (a copy, an import, a joined link), without opening it."""
        self.save(replica, make_active=False)
        return replica

    async def flush(self):
        """Write what `save` queued to the log store (session.on_device.outbox)."""
        await self.log_outbox.flush()

    def head_stored(self, session_id: str):
        self.log_outbox.head_stored(session_id)

    def let_go(self, session_id: str):
        """Every entry of a session is stored: a version-1 copy goes once its head is written too."""
        self.version_one.stored(session_id, session_id in self.written)

    def moving(self, session_id: str) -> str | None:
        """The name of a version-1 session on its way to this version's storage (None: any other)."""
        if session_id in self.legacy and session_id in self.entries:
            return self.entries[session_id]["name"]
        return None

    async def migrate(self, open_replica: Replica | None = None) -> list[str]:
        """Move every session still saved by version 1 to a head and the log store, once; the
        names of those moved. A failure leaves the version-1 copy in place (StorageError)."""
        return await self.version_one.migrate(self, open_replica)

    # --- This phone's own keys ---------------------------------------------------------------------

    def save_table(self, session_id: str, table: dict | None) -> bool:
        return self.own.save_table(session_id, table)

    def load_table(self, session_id: str) -> dict | None:
        return self.own.load_table(session_id)

    def save_secret(self, conflict_id: str, secret: dict | None) -> bool:
        return self.own.save_secret(conflict_id, secret)

    def load_secret(self, conflict_id: str):
        return self.own.load_secret(conflict_id)

    def load_backups(self) -> dict[str, dict]:
        return self.own.load_backups()

    def save_backups(self, backups: dict[str, dict]) -> bool:
        return self.own.save_backups(backups)

    def remove(self, session_id: str):
        """Delete a session from this device: its head (and version-1 copy), its table in
        progress, and (queued for `flush`) its log entries."""
        for key in (table_key(session_id), head_key(session_id), session_key(session_id)):
            if not self.quarantine.holds(key):
                self.store.remove(key)
        self.log_outbox.remove(session_id)
        self.legacy.pop(session_id, None)
        self.entries.pop(session_id, None)
        self.written.pop(session_id, None)
        if self.active == session_id:
            self.active = None
        self.write_index(quiet=True)

    def forget(self, key: str) -> bool:
        """Delete unreadable data the player no longer wants (after they confirmed)."""
        return self.quarantine.forget(key)

    def write_index(self, quiet: bool = False):
        if self.quarantine.index_kept:
            return
        order = [entry["id"] for entry in sorted(self.entries.values(), key=lambda entry: entry["saved"],
                                                 reverse=True)]
        index = {"v": INDEX_VERSION, "active": self.active,
                 "sessions": [{"id": session_id, "saved": self.entries[session_id]["saved"]} for session_id in order]}
        try:
            self.store.set(INDEX_KEY, json_text(index))
        except StorageError:
            if not quiet:
                raise
