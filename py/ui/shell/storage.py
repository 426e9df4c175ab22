"""The browser side of saving: localStorage as the store of session.storage.Library,
saving after every change, and asking the browser to keep the data
(navigator.storage.persist()). The format lives in py/session/storage.py.
"""
from __future__ import annotations

from pyscript import window
from pyscript.ffi import is_none

from session import SessionError
from session.backups import BACKUPS_KEY, backups_text, read_backups
from session.storage import INDEX_KEY, Library, MemoryStore, StorageError, full_message
from ui import table
from ui.core.clock import now_text


class BrowserStore:
    """window.localStorage with the store interface of session.storage (get/set/remove/keys)."""

    def __init__(self, storage):
        self.storage = storage

    def get(self, key: str) -> str | None:
        value = self.storage.getItem(key)
        return None if is_none(value) else str(value)

    def set(self, key: str, text: str):
        try:
            self.storage.setItem(key, text)
        except Exception as error:  # a JS DOMException: QuotaExceededError, or saving turned off
            if "quota" in str(error).lower():
                raise StorageError(full_message()) from None
            raise StorageError("The browser refused to save Tableside's data, so the last change is "
                               "not saved. Export your sessions (Log screen) to keep them.") from None

    def remove(self, key: str):
        self.storage.removeItem(key)

    def keys(self) -> list[str]:
        return [str(self.storage.key(number)) for number in range(int(self.storage.length))]


def open_library() -> Library:
    """The sessions saved in this browser; an in-memory library when it refuses storage
    (some private modes, storage turned off)."""
    try:
        storage = window.localStorage
        if is_none(storage):
            raise RuntimeError("no localStorage")
        storage.getItem(INDEX_KEY)
        return Library(BrowserStore(storage), clock=now_text)
    except Exception:
        return Library(MemoryStore(), clock=now_text, in_memory=True)


def save(state):
    """Save the open session and the table in progress if they changed; a refusal becomes the
    message on screen."""
    if state.library is None:
        return
    try:
        state.library.save(state.session)
        table.save(state)
        save_backups(state)
    except SessionError as error:
        state.fail(str(error))


_backups_written = ""  # the backups' text last read or written, to skip unchanged saves


def load_backups(state):
    """When each session was last exported or shared (session.backups), as stored here."""
    global _backups_written
    if state.library is None:
        return
    state.backups = read_backups(state.library.store.get(BACKUPS_KEY))
    _backups_written = backups_text(state.backups)


def save_backups(state):
    global _backups_written
    text = backups_text(state.backups)
    if text != _backups_written:
        state.library.store.set(BACKUPS_KEY, text)
        _backups_written = text


def in_safari_tab() -> bool:
    """iOS Safari, not opened from the Home Screen: the only browser with navigator.standalone,
    and there it is false. Safari deletes such a site's data after 7 days without a visit."""
    return getattr(window.navigator, "standalone", None) is False


async def ask_to_persist(state, after):
    """Ask the browser not to clear our storage under pressure, and note its answer."""
    manager = getattr(window.navigator, "storage", None)
    if manager is None or is_none(manager) or not hasattr(manager, "persist"):
        state.persistence = "unsupported"
    else:
        try:
            kept = bool(await manager.persisted()) or bool(await manager.persist())
        except Exception:
            state.persistence = "unsupported"
        else:
            state.persistence = "kept" if kept else "not-kept"
    after()
