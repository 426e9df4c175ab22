"""Where sessions live on one device: an index, a small head per session, and its log.

Keys in the key-value store (localStorage; every one starts with "tableside."), under the part
of this package that owns them:

  heads.py: the index and the session heads
    tableside.index            {"v": 1, "active": id, "sessions": [{"id", "saved"}, ...]}
    tableside.head.<id>        one session without its log: the replica's registers, counts, roster,
                               undo marks and clock (session.replica, to_dict(log=False)), plus
                               "logged" (live entries of each kind) and "saved" (when); a few KB
                               whatever the log's length, rewritten only when its text changes
  own_keys.py: this phone's own, never inside a session, so sessions can be saved and merged without them
    tableside.device           this phone's id in the stamps it writes (session.replica)
    tableside.table.<id>       the conflict in progress on this phone for that session (drafts,
                               the open screen; on a live table, its ways back: session.live.standby)
    tableside.secret.<s>.<c>   what this phone sealed in one exchange of session s (session.sealed), until it reveals
    tableside.backups          when each session was last exported or shared (session.on_device.backups)
  version_one.py: sessions saved by version 1, and their move
    tableside.session.<id>     a session as version 1 of the app saved it, log included: read,
                               then moved to a head and the log store (migrated) and removed once
                               that has succeeded; until then it stays readable where it was
  outbox.py: log entries on their way to the log store
    tableside.unstored.<id>    [entry, ...]: entries the log store refused (storage full), kept until
                               they are stored; queued again at start
  unreadable.py: what could not be read
    tableside.recovered.<n>    an unreadable index, copied here before the index is rebuilt, or a head's
                               text as saved, before the parts that failed were set aside (salvage.py)

The log entries live in the log store (session.logbook: IndexedDB in the browser), one record
per entry, written once; outbox.py queues them for it and reads them back. A tap writes the
head (if it changed) and appends the entries it logged; a head waits for its entries, so it
never counts entries the store does not have.

The index is only a cache (which session was open, when each was saved): the heads are the
truth, and a lost or broken index is rebuilt from them. Pure: the store is anything with
get/set/remove/keys (the browser's localStorage through ui/shell/storage.py, a MemoryStore in
tests; key_value.py), the log store anything with the coroutines of session.logbook. Nothing
here overwrites or deletes what it could not read: a head that fails its check opens with what
can be read (salvage.py), its text as saved copied under tableside.recovered.*; other such keys
stay as they are, listed in `Library.unreadable` with their raw text for export, until the
player removes them. Loading
survives any stored value: text is parsed by session.untrusted (nesting capped before parsing),
any failure only makes that key unreadable, and broken characters (lone surrogates) in a
readable head or session are replaced in memory, listed in `Library.repairs`, and written at
its next save.

`Library` is what the screens and the shell hold: each of its methods is one part's, and it
only puts the parts together (and deletes a session, which touches every part's keys).
"""
from __future__ import annotations

from ..logbook import Held, MemoryLog
from ..replica import Replica
from .heads import HEAD_PREFIX, INDEX_KEY, Heads, head_key, parse_index
from .key_value import MemoryStore, StorageError, full_message
from .outbox import PAGE, Outbox
from .own_keys import TABLE_PREFIX, OwnKeys, table_key
from .unreadable import RECOVERED_PREFIX, Quarantine, Unreadable, shown_key
from .version_one import SESSION_PREFIX, VersionOne, parse_session, session_key, session_text

__all__ = ["Library", "MemoryStore", "StorageError", "Unreadable", "full_message", "shown_key",
           "INDEX_KEY", "HEAD_PREFIX", "TABLE_PREFIX", "SESSION_PREFIX", "RECOVERED_PREFIX",
           "head_key", "table_key", "session_key", "parse_index", "parse_session", "session_text"]


class Library:
    """Every session saved on this device. `load` once at start; then `save` after each change,
    and `flush` (a coroutine) to write the log entries it queued."""

    def __init__(self, store, log=None, clock=lambda: "", in_memory: bool = False):
        self.store = store
        self.log = log if log is not None else MemoryLog()  # the log store (session.logbook)
        self.in_memory = in_memory  # the browser refused storage: nothing outlives the page
        self.quarantine = Quarantine(store)  # what could not be read
        self.own = OwnKeys(store)  # this phone's id, tables in progress, sealed secrets, backups
        self.version_one = VersionOne(store, self.log)  # sessions still saved by version 1
        self.log_outbox = Outbox(store, self.log, clock, on_stored=self.let_go, moving=self.moving,
                                 unreadable=self.quarantine.note_aside)
        self.heads = Heads(store, clock, self.quarantine, self.version_one, self.log_outbox, self.own)

    # --- What the screens and the shell read ------------------------------------------------------

    @property
    def entries(self) -> dict[str, dict]:
        """id -> summary, for the session list."""
        return self.heads.entries

    @property
    def repairs(self) -> list[str]:
        """What `load` repaired in readable sessions, one phrase each."""
        return self.heads.repairs

    @property
    def salvaged(self) -> list[str]:
        """Sessions that failed their check at start, opened with what could be read: one sentence each."""
        return self.heads.salvaged

    @property
    def unreadable(self) -> list[Unreadable]:
        """Stored data that could not be read, left in place and offered for download."""
        return self.quarantine.items

    @property
    def legacy(self) -> dict[str, dict]:
        """id -> a version-1 session still under tableside.session.<id>."""
        return self.version_one.sessions

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

    # --- Sessions: the index and their heads (heads.py) -------------------------------------------

    def load(self) -> Replica | None:
        return self.heads.load()

    def read(self, session_id: str) -> Replica:
        return self.heads.read(session_id)

    def save(self, replica: Replica, make_active: bool = True) -> bool:
        return self.heads.save(replica, make_active)

    def add(self, replica: Replica) -> Replica:
        return self.heads.add(replica)

    def listing(self) -> list[dict]:
        return self.heads.listing()

    def has(self, session_id: str) -> bool:
        return self.heads.has(session_id)

    def is_empty(self) -> bool:
        return self.heads.is_empty()

    def is_pristine(self, replica: Replica) -> bool:
        return self.heads.is_pristine(replica)

    def keep_pristine(self, replica: Replica):
        self.heads.keep_pristine(replica)

    def keep_new_session(self, replica: Replica):
        """A new session is saved from now on, changed or not (something is on its table)."""
        self.heads.keep_new_session(replica)

    def remove(self, session_id: str):
        """Delete a session from this device: its head (and version-1 copy), its table in
        progress, and (queued for `flush`) its log entries."""
        for key in (table_key(session_id), head_key(session_id), session_key(session_id)):
            if not self.quarantine.holds(key):
                self.store.remove(key)
        self.own.written.pop(table_key(session_id), None)
        self.log_outbox.remove(session_id)
        self.version_one.sessions.pop(session_id, None)
        self.heads.drop(session_id)

    # --- What could not be read (unreadable.py) ---------------------------------------------------

    def is_blocked(self, session_id: str) -> bool:
        return self.quarantine.is_blocked(session_id)

    def forget(self, key: str) -> bool:
        return self.quarantine.forget(key)

    # --- The log, through the outbox (outbox.py) --------------------------------------------------

    async def flush(self):
        await self.log_outbox.flush()

    def pending(self, session_id: str) -> bool:
        return self.log_outbox.pending(session_id)

    def head_stored(self, session_id: str):
        self.log_outbox.head_stored(session_id)

    async def older(self, replica: Replica, limit: int = PAGE) -> tuple[list[dict], int]:
        return await self.log_outbox.older(replica, limit)

    async def stored_kinds(self, replica: Replica, ids: list[str]) -> dict[str, str]:
        return await self.log_outbox.stored_kinds(replica, ids)

    async def stored_entries(self, replica: Replica, ids: list[str]) -> dict[str, dict]:
        return await self.log_outbox.stored_entries(replica, ids)

    async def held(self, replica: Replica) -> Held:
        return await self.log_outbox.held(replica)

    async def everything(self, replica: Replica) -> tuple[Replica, int]:
        return await self.log_outbox.everything(replica)

    async def recount(self, replica: Replica):
        await self.log_outbox.recount(replica)

    async def archive(self, replica: Replica, keep: int) -> int:
        return await self.log_outbox.archive(replica, keep)

    # --- Sessions saved by version 1 (version_one.py) ---------------------------------------------

    async def migrate(self, open_replica: Replica | None = None) -> list[str]:
        return await self.version_one.migrate(self, open_replica)

    def let_go(self, session_id: str):
        """Every entry of a session is stored: a version-1 copy goes once its head is written too."""
        self.version_one.let_go(session_id, session_id in self.heads.written)

    def moving(self, session_id: str) -> str | None:
        """The name of a version-1 session on its way to this version's storage (None: any other)."""
        if session_id in self.version_one.sessions and session_id in self.heads.entries:
            return self.heads.entries[session_id]["name"]
        return None

    # --- This phone's own keys (own_keys.py) ------------------------------------------------------

    def device(self) -> str:
        return self.own.device()

    def save_table(self, session_id: str, table: dict | None) -> bool:
        return self.own.save_table(session_id, table)

    def load_table(self, session_id: str) -> dict | None:
        return self.own.load_table(session_id)

    def save_secret(self, session_id: str, conflict_id: str, secret: dict | None) -> bool:
        return self.own.save_secret(session_id, conflict_id, secret)

    def load_secret(self, session_id: str, conflict_id: str):
        return self.own.load_secret(session_id, conflict_id)

    def load_backups(self) -> dict[str, dict]:
        return self.own.load_backups()

    def save_backups(self, backups: dict[str, dict]) -> bool:
        return self.own.save_backups(backups)
