"""This phone's own keys: what it keeps for itself, never inside a session, a link or an export.

Owns four keys (session.on_device describes every key):

    tableside.device           this phone's id in the stamps it writes (session.replica)
    tableside.table.<id>       the table in progress for a session (ui.keeping.progress)
    tableside.secret.<s>.<c>   what this phone sealed in one exchange (session s, conflict c), until it
                               reveals (session.sealed)
    tableside.backups          when each session was last exported or shared (its format: session.on_device.backups)

Each is written only when its text changed since it was last read or written here.
"""
from __future__ import annotations

import re

from .. import untrusted
from ..errors import SessionError
from ..replica import new_device
from .backups import BACKUPS_KEY, backups_text, read_backups
from .key_value import json_text, read_text

DEVICE_KEY = "tableside.device"
DEVICE = re.compile(r"[0-9a-f]{1,16}")
TABLE_PREFIX = "tableside.table."
SECRET_PREFIX = "tableside.secret."  # this phone's hidden card of a sealed-card exchange, until it reveals
MAX_SECRET = 4_000
MAX_TABLE = 500_000  # characters: a table in progress is a few kilobytes
UNREADABLE_TABLE = {
    untrusted.NOT_JSON: "It is not readable JSON.",
    untrusted.TOO_DEEP: "It is nested far deeper than anything Tableside writes.",
}


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


def secret_key(session_id: str, conflict_id: str) -> str:
    """A secret is bound to its session and conflict: the same conflict id in another session is another key."""
    return f"{SECRET_PREFIX}{session_id}.{conflict_id}"


class OwnKeys:
    """This phone's id, its tables in progress, its sealed secrets and its backups record."""

    def __init__(self, store):
        self.store = store
        self.written: dict[str, str] = {}  # key -> the text last read or written, to skip unchanged saves
        self.device_id: str | None = None
        self.device_kept = False

    # --- This phone's id --------------------------------------------------------------------------

    def device(self) -> str:
        """This phone's id in the stamps it writes: made once, kept from the first save on."""
        if self.device_id is None:
            raw = read_text(self.store, DEVICE_KEY)
            self.device_id = raw if isinstance(raw, str) and DEVICE.fullmatch(raw) else new_device()
            self.device_kept = raw == self.device_id
        return self.device_id

    def keep_device(self):
        if self.device_id is not None and not self.device_kept:
            self.store.set(DEVICE_KEY, self.device_id)
            self.device_kept = True

    # --- The table in progress (per session) ------------------------------------------------------

    def save_table(self, session_id: str, table: dict | None) -> bool:
        """Store the conflict in progress for a session (None: nothing in progress). True when
        written; StorageError when the browser refuses."""
        return self.write_own(table_key(session_id), table)

    def load_table(self, session_id: str) -> dict | None:
        """The stored table in progress for a session, as JSON not yet checked (the caller
        checks it); None when nothing is stored. SessionError when it can't be read."""
        raw = read_text(self.store, table_key(session_id))
        if raw is None:
            return None
        self.written[table_key(session_id)] = raw
        return parse_table(raw)

    # --- A sealed card's secret (per conflict) ----------------------------------------------------

    def save_secret(self, session_id: str, conflict_id: str, secret: dict | None) -> bool:
        """Store (None: delete) what this phone sealed in one exchange (session.sealed): never in the
        session, its table in progress or a link, so nothing another phone reads holds it."""
        return self.write_own(secret_key(session_id, conflict_id), secret)

    def load_secret(self, session_id: str, conflict_id: str):
        """The stored secret of one exchange as JSON not yet checked; None when none is stored or it
        can't be read (the caller says so: the exchange can't be revealed from this phone)."""
        raw = read_text(self.store, secret_key(session_id, conflict_id))
        if not isinstance(raw, str) or len(raw) > MAX_SECRET:
            return None
        try:
            value = untrusted.parse(raw)
        except untrusted.BadJSON:
            return None
        self.written[secret_key(session_id, conflict_id)] = raw
        return value

    # --- When each session was last backed up -----------------------------------------------------

    def load_backups(self) -> dict[str, dict]:
        """When each session was last exported or shared (session.on_device.backups), as stored here."""
        backups = read_backups(read_text(self.store, BACKUPS_KEY))
        self.written[BACKUPS_KEY] = backups_text(backups)
        return backups

    def save_backups(self, backups: dict[str, dict]) -> bool:
        """Store the backups record if its text changed. True when written; StorageError when the
        browser refuses."""
        text = backups_text(backups)
        if self.written.get(BACKUPS_KEY) == text:
            return False
        self.store.set(BACKUPS_KEY, text)
        self.written[BACKUPS_KEY] = text
        return True

    # --- Writing ----------------------------------------------------------------------------------

    def write_own(self, key: str, value) -> bool:
        """Write (None: remove) one of this phone's own values, skipping text already there."""
        if value is None:
            if self.store.get(key) is not None:
                self.store.remove(key)
            self.written.pop(key, None)
            return False
        text = json_text(value)
        if self.written.get(key) == text:
            return False
        self.store.set(key, text)
        self.written[key] = text
        return True
