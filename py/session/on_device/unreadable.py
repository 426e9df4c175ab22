"""Stored data that could not be read: left where it was, never overwritten, offered for download.

Owns one key (session.on_device describes every key):

    tableside.recovered.<n>    an unreadable index, copied here before the index is rebuilt

Nothing here overwrites or deletes what could not be read: a head or version-1 session that
fails stays under its own key, listed in `items` (the Library's `unreadable`) with its raw text
for export, until the player removes it (`forget`); a session with that id is not saved over
it (`is_blocked`). An unreadable index is copied, or, with no room for a copy, left in place
and not rewritten (`index_kept`) until the player lets it go.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.words import isolate

from .. import untrusted
from ..model import new_id
from .heads import INDEX_KEY, head_key
from .key_value import StorageError, problem, read_text, safe_keys
from .version_one import session_key

RECOVERED_PREFIX = "tableside.recovered."


@dataclass
class Unreadable:
    """Stored data that could not be read: left in place under `key`, offered for download."""
    key: str
    raw: str
    problem: str
    set_aside: bool = False  # a session's text as saved, kept when the parts that failed were set aside


def shown_key(key: str, limit: int = 60) -> str:
    """A stored key (or the id in it) as a message may show it: short, and only real characters."""
    shown = untrusted.LONE_SURROGATE.sub(untrusted.REPLACEMENT, key)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


class Quarantine:
    """What could not be read on this device, and the copies kept of it."""

    def __init__(self, store):
        self.store = store
        self.items: list[Unreadable] = []
        self.index_kept = False  # an unreadable index could not be copied: leave it in place

    def holds(self, key: str) -> bool:
        return any(item.key == key for item in self.items)

    def is_blocked(self, session_id: str) -> bool:
        """True when unreadable data sits under this session's keys (a session with this id can't be saved)."""
        return any(item.key in (head_key(session_id), session_key(session_id)) for item in self.items)

    def note(self, key: str, raw, error: Exception):
        """List a stored session that can't be read (once), and why."""
        if self.holds(key):
            return
        shown = isolate(shown_key(key.split(".", 2)[2], 24))
        self.items.append(Unreadable(key, raw if isinstance(raw, str) else "",
                                     f"The session saved as “{shown}” could not be read. {problem(error)}"))

    def note_set_aside(self, key: str, raw: str, text: str):
        """List the copy of a session's text as saved, kept when what failed in it was set aside."""
        if not self.holds(key):
            self.items.append(Unreadable(key, raw, text, set_aside=True))

    def note_aside(self, key: str, raw, error: Exception):
        """List log entries kept aside while storage was full (session.on_device.outbox) that can't be read."""
        if self.holds(key):
            return
        shown = isolate(shown_key(key.split(".", 2)[2], 24))
        self.items.append(Unreadable(key, raw if isinstance(raw, str) else "",
                                     f"Log entries of the session saved as “{shown}”, kept aside while storage "
                                     f"was full, could not be read. {problem(error)}"))

    def note_index(self, raw, error: Exception):
        """List an unreadable index: its copy, or the index itself when no copy could be made."""
        key = self.keep_copy(raw)
        if key is None:  # no room for a copy: the index itself stays as it is
            self.index_kept = True
            self.items.append(Unreadable(INDEX_KEY, raw if isinstance(raw, str) else "", problem(error)))
        else:
            self.items.append(Unreadable(key, raw, f"{problem(error)} It was rebuilt from the sessions themselves."))

    def keep_copy(self, raw) -> str | None:
        """Copy unreadable raw text under a new tableside.recovered.* key; None if that fails."""
        if not isinstance(raw, str):
            return None
        for key in safe_keys(self.store):
            if key.startswith(RECOVERED_PREFIX) and read_text(self.store, key) == raw:
                return key
        key = f"{RECOVERED_PREFIX}{new_id()}"
        try:
            self.store.set(key, raw)
        except StorageError:
            return None
        return key

    def note_copies(self):
        """List the copies kept under tableside.recovered.* (each once), for download."""
        for key in sorted(safe_keys(self.store)):
            if key.startswith(RECOVERED_PREFIX) and not self.holds(key):
                raw = read_text(self.store, key)
                self.items.append(Unreadable(key, raw if isinstance(raw, str) else "",
                                             "A copy of saved data that could not be read, kept for you."))

    def forget(self, key: str) -> bool:
        """Delete unreadable data the player no longer wants (after they confirmed)."""
        found = [item for item in self.items if item.key == key]
        if not found:
            return False
        if key == INDEX_KEY:
            self.index_kept = False  # the player let it go: the next save rebuilds the index
        else:
            self.store.remove(key)
        self.items = [item for item in self.items if item.key != key]
        return True
