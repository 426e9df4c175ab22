"""The key-value store sessions are saved in, and reading it so that nothing stored stops the app.

The store is anything with get/set/remove/keys: the browser's localStorage through
ui/shell/storage.py, a `MemoryStore` in tests and where the browser refuses to save. No key is
this module's own: each part of the library beside it owns its keys (session.on_device lists
them all). Reading survives any stored value: `read_text` and `safe_keys` read a failing store as
holding nothing, `parse_stored` gives the JSON under a session's key or a SessionError saying
why, for players (`problem` words any other failure).
"""
from __future__ import annotations

import json

from .. import untrusted
from ..errors import SessionError
from ..model import name_text

UNREADABLE_SESSION = {
    untrusted.NOT_JSON: "It is not readable JSON: it may have been cut short or changed.",
    untrusted.TOO_DEEP: "It nests far deeper than any session Tableside saves: something else changed it.",
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


def json_text(value) -> str:
    """A value as Tableside stores it: compact JSON, characters as they are."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def read_text(store, key: str) -> str | None:
    """The stored text under `key`; None when there is none or the store fails to read it."""
    try:
        return store.get(key)
    except Exception:
        return None


def safe_keys(store) -> list[str]:
    try:
        return [key for key in store.keys() if isinstance(key, str)]
    except Exception:  # a store that cannot even list its keys holds nothing we can use
        return []


def parse_stored(raw, session_id: str):
    """The JSON stored under a session's key, and how many lone surrogates were repaired in it;
    SessionError when it is no text, under a key Tableside never writes, or unreadable."""
    if not isinstance(raw, str):
        raise SessionError("It is not text.")
    if name_text(session_id, "Its key", limit=24) != session_id:
        raise SessionError("It is saved under a key Tableside never writes.")
    try:
        return untrusted.parse_repairing(raw)
    except untrusted.BadJSON as error:
        raise SessionError(UNREADABLE_SESSION[error.reason]) from None


def problem(error: Exception) -> str:
    """Why stored data can't be read, for players: a SessionError says it; anything else
    (a value no check foresaw) gets a general sentence."""
    if isinstance(error, SessionError):
        return str(error)
    return "It holds something this version of Tableside cannot read."
