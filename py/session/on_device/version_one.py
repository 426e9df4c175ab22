"""Sessions saved by version 1 of the app, and their move to this version's storage.

Owns one key (session.on_device describes every key):

    tableside.session.<id>     a session as version 1 of the app saved it, log included

`load` (session.on_device.heads) finds these beside the heads and keeps them here whole; the
session opens from its old key as before. Once the app is ready `migrate` moves each one: its
entries to the log store, then its head; only then is the old key removed. If that fails the
old key stays where it was, the message says so, and the next start tries again.
"""
from __future__ import annotations

from rules.words import isolate

from ..model import check_session
from ..replica import Replica
from .key_value import json_text, parse_stored

SESSION_PREFIX = "tableside.session."


def session_key(session_id: str) -> str:
    return SESSION_PREFIX + session_id


def session_text(session: dict) -> str:
    return json_text(session)


def parse_session(raw, session_id: str) -> tuple[dict, int]:
    """A stored session from its raw text, and how many broken characters (lone surrogates)
    were repaired in it; SessionError saying why it can't be read."""
    data, repaired = parse_stored(raw, session_id)
    session = check_session(data)
    session["id"] = session_id  # the key names the session
    return session, repaired


def not_moved(name: str) -> str:
    """Why a version-1 session is still where it was: the log store refused its entries."""
    return (f"“{isolate(name)}” could not be moved to this version's storage: the device refused "
            "(it may be full). It stays saved as before and opens as usual; Tableside tries again "
            "at the next start.")


class VersionOne:
    """The sessions still saved by version 1: kept whole here from `load` until they are moved."""

    def __init__(self, store, log):
        self.store = store
        self.log = log  # the log store: a version-1 copy goes only once its entries outlive the page
        self.sessions: dict[str, dict] = {}  # id -> a version-1 session still under tableside.session.<id>

    def replica(self, session_id: str) -> Replica:
        """The session as version 1 saved it, its whole log in memory."""
        return Replica.from_session(self.sessions[session_id])

    def let_go(self, session_id: str, head_written: bool):
        """Everything queued for a session is in the log store: once its head is written too, a
        version-1 copy is no longer needed (where the log store outlives the page)."""
        if session_id in self.sessions and getattr(self.log, "durable", False) and head_written:
            self.store.remove(session_key(session_id))
            del self.sessions[session_id]

    async def migrate(self, library, open_replica: Replica | None = None) -> list[str]:
        """Move every session still saved by version 1 to a head and the log store, once, through
        the library's own save and flush; the names of those moved. A failure leaves the
        version-1 copy in place (StorageError)."""
        moved = []
        for session_id in list(self.sessions):
            if not library.has(session_id) or library.is_blocked(session_id):
                continue
            replica = open_replica if open_replica is not None and open_replica.id == session_id \
                else library.read(session_id)
            library.heads.written.pop(session_id, None)  # its head is written, whatever was read
            library.save(replica, make_active=False)
            await library.flush()
            if not library.pending(session_id):
                library.head_stored(session_id)
            moved.append(library.entries[session_id]["name"])
        return moved
