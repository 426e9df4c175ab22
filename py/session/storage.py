"""Where sessions live on one device: an index of sessions plus one key per session.

Keys (every one starts with "tableside."):

    tableside.index            {"v": 1, "active": id, "sessions": [{"id", "saved"}, ...]}
    tableside.session.<id>     one session as JSON (session schema, model.SCHEMA_VERSION)
    tableside.recovered.<n>    an unreadable index, copied here before the index is rebuilt
    tableside.table.<id>       the conflict in progress on this phone for that session (drafts,
                               the open screen): this phone's own, never inside the session, so
                               sessions can be saved and merged without it

The index is only a cache (which session was open, when each was saved): the
sessions are the truth, and a lost or broken index is rebuilt from them.
Pure: the store is anything with get/set/remove/keys (the browser's
localStorage through ui/shell/storage.py, a MemoryStore in tests). Nothing here
overwrites or deletes what it could not read: such keys stay as they are, listed
in `Library.unreadable` with their raw text for export, until the player
removes them. Loading survives any stored value: text is parsed by
session.untrusted (nesting capped before parsing), any failure only makes that
key unreadable, and broken characters (lone surrogates) in a readable session
are replaced in memory, listed in `Library.repairs`, and written at its next save.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from rules.words import isolate, plural

from . import untrusted
from .errors import SessionError
from .model import check_session, name_text, new_id

PREFIX = "tableside."
INDEX_KEY = "tableside.index"
SESSION_PREFIX = "tableside.session."
RECOVERED_PREFIX = "tableside.recovered."
TABLE_PREFIX = "tableside.table."
MAX_TABLE = 500_000  # characters: a table in progress is a few kilobytes
INDEX_VERSION = 1
UNREADABLE_SESSION = {
    untrusted.NOT_JSON: "It is not readable JSON: it may have been cut short or changed.",
    untrusted.TOO_DEEP: "It nests far deeper than any session Tableside saves: something else changed it.",
}
UNREADABLE_TABLE = {
    untrusted.NOT_JSON: "It is not readable JSON.",
    untrusted.TOO_DEEP: "It is nested far deeper than anything Tableside writes.",
}
UNREADABLE_INDEX = {
    untrusted.NOT_JSON: "The list of sessions is not readable JSON.",
    untrusted.TOO_DEEP: "The list of sessions nests far deeper than Tableside ever writes it.",
    untrusted.BROKEN_TEXT: "The list of sessions holds a broken character.",
}


class StorageError(SessionError):
    """The browser refused to save (storage full, or saving turned off)."""


class MemoryStore:
    """A store kept in memory: for tests, and for browsers that refuse to save anything.
    `limit` (characters of keys plus values) imitates a full storage."""

    def __init__(self, items: dict | None = None, limit: int | None = None):
        self.items = dict(items or {})
        self.limit = limit

    def get(self, key: str) -> str | None:
        return self.items.get(key)

    def set(self, key: str, text: str):
        if self.limit is not None:
            used = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
            if used + len(key) + len(text) > self.limit:
                raise StorageError(full_message())
        self.items[key] = text

    def remove(self, key: str):
        self.items.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.items)


def full_message() -> str:
    return ("This device's storage for Tableside is full, so the last change is not saved. "
            "Export sessions you no longer play (Log screen), then delete them.")


@dataclass
class Unreadable:
    """Stored data that could not be read: left in place under `key`, offered for download."""
    key: str
    raw: str
    problem: str


def session_key(session_id: str) -> str:
    return SESSION_PREFIX + session_id


def session_text(session: dict) -> str:
    return json.dumps(session, ensure_ascii=False, separators=(",", ":"))


def parse_session(raw, session_id: str) -> tuple[dict, int]:
    """A stored session from its raw text, and how many broken characters (lone surrogates)
    were repaired in it; SessionError saying why it can't be read."""
    if not isinstance(raw, str):
        raise SessionError("It is not text.")
    if name_text(session_id, "Its key", limit=24) != session_id:
        raise SessionError("It is saved under a key Tableside never writes.")
    try:
        data, repaired = untrusted.parse_repairing(raw)
    except untrusted.BadJSON as error:
        raise SessionError(UNREADABLE_SESSION[error.reason]) from None
    session = check_session(data)
    session["id"] = session_id  # the key names the session
    return session, repaired


def table_key(session_id: str) -> str:
    return TABLE_PREFIX + session_id


def parse_table(raw) -> dict:
    """The stored table in progress as JSON (a dict), or SessionError. Broken characters are
    replaced (like a session's): the table is this phone's own, nothing to refuse it for."""
    if not isinstance(raw, str) or len(raw) > MAX_TABLE:
        raise SessionError("It is not text of a size Tableside writes.")
    try:
        data, _ = untrusted.parse_repairing(raw)
    except untrusted.BadJSON as error:
        raise SessionError(UNREADABLE_TABLE[error.reason]) from None
    if not isinstance(data, dict):
        raise SessionError("It is not a group of fields.")
    return data


def parse_index(raw) -> dict:
    """{"active": id or None, "saved": {id: time}, "order": [id, ...]} from the index's raw text."""
    try:
        data = untrusted.parse(raw)
    except untrusted.BadJSON as error:
        raise SessionError(UNREADABLE_INDEX[error.reason]) from None
    if not isinstance(data, dict) or data.get("v") != INDEX_VERSION or not isinstance(data.get("sessions"), list):
        raise SessionError("The list of sessions is not in a form this version of Tableside reads.")
    saved, order = {}, []
    for item in data["sessions"]:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise SessionError("The list of sessions has an entry without an id.")
        order.append(item["id"])
        saved[item["id"]] = item["saved"] if isinstance(item.get("saved"), str) else ""
    active = data.get("active")
    return {"active": active if isinstance(active, str) else None, "saved": saved, "order": order}


def problem(error: Exception) -> str:
    """Why stored data can't be read, for players: a SessionError says it; anything else
    (a value no check foresaw) gets a general sentence."""
    if isinstance(error, SessionError):
        return str(error)
    return "It holds something this version of Tableside cannot read."


def shown_key(key: str, limit: int = 60) -> str:
    """A stored key (or the id in it) as a message may show it: short, and only real characters."""
    shown = untrusted.LONE_SURROGATE.sub(untrusted.REPLACEMENT, key)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def summary(session: dict, saved: str) -> dict:
    """What the session list shows about a session without reading it again."""
    return {"id": session["id"], "name": session["name"], "system": session["system"],
            "roster": len(session["roster"]), "log": len(session["log"]), "saved": saved}


class Library:
    """Every session saved on this device. `load` once at start; then `save` after each change."""

    def __init__(self, store, clock=lambda: "", in_memory: bool = False):
        self.store = store
        self.clock = clock
        self.in_memory = in_memory  # the browser refused storage: nothing outlives the page
        self.entries: dict[str, dict] = {}  # id -> summary, for the session list
        self.active: str | None = None
        self.unreadable: list[Unreadable] = []
        self.repairs: list[str] = []  # what `load` repaired in readable sessions, one phrase each
        self.written: dict[str, str] = {}  # id -> the text last read or written, to skip unchanged saves
        self.pristine = None  # a new session nobody has changed yet: saved at its first change
        self.index_kept = False  # an unreadable index could not be copied: leave it in place

    # --- Start ------------------------------------------------------------------------------

    def load(self) -> dict | None:
        """Read everything stored; the session that was open (or the newest readable one),
        or None when nothing readable is stored. Never raises, whatever is stored: what can't
        be read is listed in `unreadable`, what was repaired in `repairs`."""
        index = self.read_index()
        keys = sorted(key for key in self.safe_keys() if key.startswith(SESSION_PREFIX))
        ranks = {session_id: rank for rank, session_id in enumerate(index["order"])}
        keys.sort(key=lambda key: ranks.get(key[len(SESSION_PREFIX):], len(ranks)))
        sessions = {}
        for key in keys:
            session_id = key[len(SESSION_PREFIX):]
            raw = self.raw(key)
            try:
                session, repaired = parse_session(raw, session_id)
                self.entries[session_id] = summary(session, index["saved"].get(session_id, ""))
            except Exception as error:  # whatever a stored value makes fail, it is only unreadable
                self.note_unreadable(key, raw, error)
                continue
            sessions[session_id] = session
            if repaired:
                self.repairs.append(f"“{isolate(session['name'])}”: {repaired} broken "
                                    f"{plural(repaired, 'character', 'characters')} now shown as {untrusted.REPLACEMENT}")
        for key in sorted(self.safe_keys()):
            if key.startswith(RECOVERED_PREFIX) and all(item.key != key for item in self.unreadable):
                raw = self.raw(key)
                self.unreadable.append(Unreadable(key, raw if isinstance(raw, str) else "",
                                                  "A copy of saved data that could not be read, kept for you."))
        if not sessions:
            return None
        active = index["active"] if index["active"] in sessions else self.newest()
        self.active = active
        session = sessions[active]
        self.written[active] = self.raw(session_key(active)) or ""
        if index["order"] != list(self.entries) or index["active"] != active:
            self.write_index(quiet=True)
        return session

    def safe_keys(self) -> list[str]:
        try:
            return [key for key in self.store.keys() if isinstance(key, str)]
        except Exception:  # a store that cannot even list its keys holds nothing we can use
            return []

    def note_unreadable(self, key: str, raw, error: Exception):
        """List a stored session that can't be read (once), and why."""
        if any(item.key == key for item in self.unreadable):
            return
        shown = isolate(shown_key(key[len(SESSION_PREFIX):], 24))
        self.unreadable.append(Unreadable(key, raw if isinstance(raw, str) else "",
                                          f"The session saved as “{shown}” could not be read. {problem(error)}"))

    def raw(self, key: str) -> str | None:
        """The stored text under `key`; None when there is none or the store fails to read it."""
        try:
            return self.store.get(key)
        except Exception:
            return None

    def read_index(self) -> dict:
        empty = {"active": None, "saved": {}, "order": []}
        raw = self.raw(INDEX_KEY)
        if raw is None:
            return empty
        try:
            return parse_index(raw)
        except Exception as error:  # any stored value: the index is only a cache, rebuilt below
            key = self.keep_copy(raw)
            if key is None:  # no room for a copy: the index itself stays as it is
                self.index_kept = True
                self.unreadable.append(Unreadable(INDEX_KEY, raw if isinstance(raw, str) else "", problem(error)))
            else:
                self.unreadable.append(Unreadable(key, raw,
                                                  f"{problem(error)} It was rebuilt from the sessions themselves."))
            return empty

    def keep_copy(self, raw) -> str | None:
        """Copy unreadable raw text under a new tableside.recovered.* key; None if that fails."""
        if not isinstance(raw, str):
            return None
        for key in self.safe_keys():
            if key.startswith(RECOVERED_PREFIX) and self.store.get(key) == raw:
                return key
        key = f"{RECOVERED_PREFIX}{new_id()}"
        try:
            self.store.set(key, raw)
        except StorageError:
            return None
        return key

    def newest(self) -> str:
        return max(self.entries, key=lambda session_id: self.entries[session_id]["saved"])

    # --- The session list --------------------------------------------------------------------

    def listing(self) -> list[dict]:
        """Every readable session, the most recently saved first."""
        return sorted(self.entries.values(), key=lambda entry: entry["saved"], reverse=True)

    def has(self, session_id: str) -> bool:
        return session_id in self.entries

    def is_blocked(self, session_id: str) -> bool:
        """True when unreadable data sits under this session's key (a session with this id can't be saved)."""
        return any(item.key == session_key(session_id) for item in self.unreadable)

    def is_empty(self) -> bool:
        return not self.entries

    def read(self, session_id: str) -> dict:
        """One stored session; SessionError (and an entry in `unreadable`) if it can't be read."""
        key = session_key(session_id)
        raw = self.raw(key)
        if raw is None:
            self.entries.pop(session_id, None)
            raise SessionError("That session is no longer saved on this device.")
        try:
            session, _ = parse_session(raw, session_id)  # repairs were reported when it was first loaded
        except Exception as error:
            self.entries.pop(session_id, None)
            self.note_unreadable(key, raw, error)
            raise SessionError(f"That session could not be read. {problem(error)} It is kept as it was: "
                               "download a copy from the Session screen.") from None
        self.written[session_id] = raw
        return session

    # --- Changes -----------------------------------------------------------------------------

    def save(self, session: dict, make_active: bool = True) -> bool:
        """Store `session` if it changed (and note it as the open one). True when written.
        Raises StorageError when the browser refuses, SessionError if the session is invalid
        (it would not load again, so it is not written)."""
        if session is self.pristine:
            return False
        session_id = session["id"]
        text = session_text(session)
        changed = self.written.get(session_id) != text
        if changed:
            check_session(copy.deepcopy(session))
            if self.is_blocked(session_id):
                raise SessionError("This session's id belongs to saved data that could not be read; "
                                   "it was not overwritten.")
            self.store.set(session_key(session_id), text)
            self.written[session_id] = text
            self.entries[session_id] = summary(session, self.clock())
        elif session_id not in self.entries:
            self.entries[session_id] = summary(session, self.clock())
            changed = True
        if make_active and self.active != session_id:
            self.active = session_id
            changed = True
        if changed:
            self.write_index()
        return changed

    def add(self, session: dict) -> dict:
        """Store a new session (a copy, an import, a joined link), without opening it."""
        self.save(session, make_active=False)
        return session

    # --- The table in progress (this phone's own, per session) ------------------------------------

    def save_table(self, session_id: str, table: dict | None) -> bool:
        """Store the conflict in progress for a session (None: nothing in progress). True when
        written; StorageError when the browser refuses."""
        key = table_key(session_id)
        if table is None:
            if self.store.get(key) is not None:
                self.store.remove(key)
            self.written.pop(key, None)
            return False
        text = json.dumps(table, ensure_ascii=False, separators=(",", ":"))
        if self.written.get(key) == text:
            return False
        self.store.set(key, text)
        self.written[key] = text
        return True

    def load_table(self, session_id: str) -> dict | None:
        """The stored table in progress for a session, as JSON not yet checked (the caller
        checks it); None when nothing is stored. SessionError when it can't be read."""
        raw = self.store.get(table_key(session_id))
        if raw is None:
            return None
        self.written[table_key(session_id)] = raw
        return parse_table(raw)

    def remove(self, session_id: str):
        self.store.remove(table_key(session_id))
        self.store.remove(session_key(session_id))
        self.entries.pop(session_id, None)
        self.written.pop(session_id, None)
        if self.active == session_id:
            self.active = None
        self.write_index(quiet=True)

    def forget(self, key: str) -> bool:
        """Delete unreadable data the player no longer wants (after they confirmed)."""
        found = [item for item in self.unreadable if item.key == key]
        if not found:
            return False
        if key == INDEX_KEY:
            self.index_kept = False  # the player let it go: the next save rebuilds the index
        else:
            self.store.remove(key)
        self.unreadable = [item for item in self.unreadable if item.key != key]
        return True

    def write_index(self, quiet: bool = False):
        if self.index_kept:
            return
        order = [entry["id"] for entry in sorted(self.entries.values(), key=lambda entry: entry["saved"],
                                                 reverse=True)]
        index = {"v": INDEX_VERSION, "active": self.active,
                 "sessions": [{"id": session_id, "saved": self.entries[session_id]["saved"]} for session_id in order]}
        try:
            self.store.set(INDEX_KEY, json.dumps(index, ensure_ascii=False, separators=(",", ":")))
        except StorageError:
            if not quiet:
                raise
