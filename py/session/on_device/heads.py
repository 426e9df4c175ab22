"""The index and the session heads: which sessions this device holds, and each one without its log.

Owns two keys (session.on_device describes every key):

    tableside.index            which session was open, when each was saved: only a cache, rebuilt
                               from the heads when it is lost or can't be read
    tableside.head.<id>        one session without its log (session.replica, to_dict(log=False)),
                               its count of live entries of each kind and when it was saved

A head is rewritten only when its text changes, and its log entries go to the log store
(session.on_device.outbox); a head waits for them, so it never counts entries the log store
does not have.
"""
from __future__ import annotations

import json

from rules.words import isolate, plural

from .. import untrusted
from ..errors import SessionError
from ..model import check_log_entry, check_session
from ..replica import Replica
from ..replica_check import check_replica
from .key_value import StorageError, json_text, parse_stored, problem, read_text, safe_keys
from .salvage import salvage
from .version_one import SESSION_PREFIX, parse_session

INDEX_KEY = "tableside.index"
HEAD_PREFIX = "tableside.head."
INDEX_VERSION = 1
MAX_COUNT = 10 ** 7
UNREADABLE_INDEX = {
    untrusted.NOT_JSON: "The list of sessions is not readable JSON.",
    untrusted.TOO_DEEP: "The list of sessions nests far deeper than Tableside ever writes it.",
    untrusted.BROKEN_TEXT: "The list of sessions holds a broken character.",
}


def head_key(session_id: str) -> str:
    return HEAD_PREFIX + session_id


def head_content(replica: Replica) -> str:
    """A head's text without its time: what decides whether it changed. Its undo marks and roster
    come last, their texts made once (Replica.undone_text, roster_texts): after a merge brings
    many phones' counts and marks, a tap's save costs what the tap changed, not all of them again."""
    data = replica.to_dict(log=False)
    del data["roster"], data["undone"]
    data["logged"] = replica.tally()
    texts = replica.roster_texts
    for entry_id, entry in replica.roster.items():
        if entry_id not in texts:
            texts[entry_id] = json_text(entry)
    if replica.undone_text is None:
        replica.undone_text = json_text(replica.undone)
    roster = ",".join(f"{json_text(entry_id)}:{texts[entry_id]}" for entry_id in replica.roster)
    return f'{json_text(data)[:-1]},"undone":{replica.undone_text},"roster":{{{roster}}}}}'


def stamped(content: str, saved: str, recount: bool = False) -> str:
    """The head as stored: its content, when it was saved, and whether its counts need checking
    against the log store (entries it counts could not be stored)."""
    return content[:-1] + f',"saved":{json.dumps(saved)}' + (',"recount":true' if recount else "") + "}"


def parse_head(raw, session_id: str) -> tuple[Replica, int, str, bool]:
    """A stored head as a replica holding none of its log yet, how many broken characters were
    repaired in it, when it was saved and whether its counts need checking; SessionError."""
    data, repaired = parse_stored(raw, session_id)
    if not isinstance(data, dict) or "log" in data:
        raise SessionError("It is not in the form Tableside saves a session in.")
    replica = check_replica(data)
    if replica.id != session_id:
        raise SessionError("It is saved under another session's key.")
    logged = parse_logged(data)
    if logged is None:
        raise SessionError("Its count of logged conflicts is damaged.")
    replica.complete, replica.fresh, replica.counted = False, [], logged
    return replica, repaired, saved_at(data), data.get("recount") is True


def parse_logged(data: dict) -> dict | None:
    """A head's count of live entries of each kind, or None when it is damaged."""
    logged = data.get("logged")
    if not isinstance(logged, dict) or set(logged) != {"conflict", "set-aside"} or not all(
            isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= MAX_COUNT
            for count in logged.values()):
        return None
    return dict(logged)


def saved_at(data: dict) -> str:
    return data["saved"][:40] if isinstance(data.get("saved"), str) else ""


def repair(store, quarantine, raw, session_id: str, failure: Exception) -> tuple[Replica, int, str, bool, str]:
    """A head that fails its check, repaired part by part (session.on_device.salvage): its text as
    saved is kept under tableside.recovered.* for download, the repaired head is written in its
    place. (replica, broken characters repaired, when saved, whether to recount, what to say.)
    Raises `failure` when nothing can be read, or no copy can be kept (then it stays unreadable)."""
    try:
        data, repaired = parse_stored(raw, session_id)
        found = salvage(data, session_id)
    except Exception:
        raise failure from None
    copy = quarantine.keep_copy(raw)
    if copy is None:
        raise failure
    replica, logged = found.replica, parse_logged(data)
    found.recount = logged is None
    replica.complete, replica.fresh = False, []
    replica.counted = logged if logged is not None else {"conflict": 0, "set-aside": 0}
    name = isolate(replica.session(log=False)["name"])
    quarantine.note_set_aside(copy, raw, f"“{name}” as it was saved, before the parts that could not be read "
                                         f"were set aside at start: {problem(failure)}")
    saved = saved_at(data)
    try:
        store.set(head_key(session_id), stamped(head_content(replica), saved, recount=found.recount))
    except StorageError:
        pass  # repaired in memory: again at the next start, until there is room
    return replica, repaired, saved, found.recount, found.sentence(name)


def summary(replica: Replica, saved: str) -> dict:
    """What the session list shows about a session without reading it again (read off the replica:
    working out its whole session here would cost every tap's save as much again)."""
    roster = sum(entry.get("added") is not None and entry.get("removed") is None for entry in replica.roster.values())
    return {"id": replica.id, "name": replica.fields["name"][0], "system": replica.fields["system"][0],
            "roster": roster, "log": replica.logged(), "saved": saved,
            "gm": replica.gm[0] if replica.gm is not None else None}  # who may rename it from the list


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


class Heads:
    """The sessions on this device as the index and their heads hold them: `load` once at start,
    `read` one, `save` after each change. A head that fails its check opens with what can be read
    (session.on_device.salvage; its text as saved kept for download); what can't be read at all goes
    to the quarantine (session.on_device.unreadable), a version-1 session to `version_one`, new log entries to the
    outbox (which writes a head once its entries are stored), and this phone's id is kept (own
    keys) at its first save."""

    def __init__(self, store, clock, quarantine, version_one, outbox, own):
        self.store = store
        self.clock = clock
        self.quarantine = quarantine
        self.version_one = version_one
        self.outbox = outbox
        self.own = own
        self.entries: dict[str, dict] = {}  # id -> summary, for the session list
        self.active: str | None = None
        self.repairs: list[str] = []  # what `load` repaired in readable sessions, one phrase each
        self.salvaged: list[str] = []  # heads opened part by part (`salvage`), one sentence each
        self.written: dict[str, str] = {}  # id -> the head content last read or written, to skip unchanged saves
        self.pristine: Replica | None = None  # a new session nobody has changed yet: saved at its first change
        self.pristine_text = ""

    # --- Start ------------------------------------------------------------------------------------

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
                    replica, repaired, saved, check = self.open_head(raw, session_id)
                    name = replica.session(log=False)["name"]
                    if check:
                        self.outbox.recounting.add(session_id)
                    self.outbox.take_back(session_id)  # entries kept aside while storage was full
                else:
                    session, repaired = parse_session(raw, session_id)
                    name = session["name"]
                    self.version_one.sessions[session_id] = session
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

    # --- The session list -------------------------------------------------------------------------

    def listing(self) -> list[dict]:
        """Every readable session, the most recently saved first."""
        return sorted(self.entries.values(), key=lambda entry: entry["saved"], reverse=True)

    def has(self, session_id: str) -> bool:
        return session_id in self.entries

    def is_empty(self) -> bool:
        return not self.entries

    def read(self, session_id: str) -> Replica:
        """One stored session as a replica: from its head, holding none of its log yet (read pages
        with `older`), or, while it is still saved by version 1, whole. SessionError (and an entry
        in `unreadable`) if it can't be read."""
        if session_id in self.version_one.sessions:
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
            if self.quarantine.is_blocked(session_id):
                raise SessionError("That session could not be read. It is kept as it was: "
                                   "download a copy from the Session screen.")
            raise SessionError("That session is no longer saved on this device.")
        try:
            replica, _, _, _ = self.open_head(raw, session_id)  # repairs were reported when it was first loaded
        except Exception as error:
            self.entries.pop(session_id, None)
            self.quarantine.note(key, raw, error)
            raise SessionError(f"That session could not be read. {problem(error)} It is kept as it was: "
                               "download a copy from the Session screen.") from None
        return replica

    def open_head(self, raw, session_id: str) -> tuple[Replica, int, str, bool]:
        """parse_head, or, for a head that fails its check, what can be read of it (`repair`)."""
        try:
            return parse_head(raw, session_id)
        except Exception as error:
            replica, repaired, saved, recount, sentence = repair(self.store, self.quarantine, raw, session_id, error)
        if sentence not in self.salvaged:
            self.salvaged.append(sentence)
        if recount:
            self.outbox.recounting.add(session_id)
        return replica, repaired, saved, recount

    # --- Changes ----------------------------------------------------------------------------------

    def is_pristine(self, replica: Replica) -> bool:
        return replica is self.pristine and head_content(replica) == self.pristine_text

    def keep_new_session(self, replica: Replica):
        if self.pristine is replica:
            self.pristine = None

    def keep_pristine(self, replica: Replica):
        """A new session nobody has changed yet: saved at its first change."""
        self.pristine, self.pristine_text = replica, head_content(replica)

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
            if self.quarantine.is_blocked(session_id):
                raise SessionError("This session's id belongs to saved data that could not be read; "
                                   "it was not overwritten.")
        if changed or replica.fresh:
            self.own.keep_device()
        if replica.fresh:
            self.outbox.append(session_id, replica.fresh)
            replica.fresh = []
        if changed:
            saved = self.clock()
            text = stamped(content, saved)
            if self.outbox.pending(session_id):
                self.outbox.hold(session_id, content, text)
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
        return changed or self.outbox.pending(session_id)

    def add(self, replica: Replica) -> Replica:
        """Store a new session (a copy, an import, a joined link), without opening it."""
        self.save(replica, make_active=False)
        return replica

    def drop(self, session_id: str):
        """A deleted session leaves the list and the index."""
        self.entries.pop(session_id, None)
        self.written.pop(session_id, None)
        if self.active == session_id:
            self.active = None
        self.write_index(quiet=True)

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
