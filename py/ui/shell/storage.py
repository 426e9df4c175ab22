"""The browser's stores for the session Library: localStorage for session.on_device, the log
store in IndexedDB (static/logdb.js); asking the browser to keep the data
(navigator.storage.persist()) and how full its storage is. What is written when lives in
ui.keeping.runners; the formats in py/session/on_device/ and py/session/logbook.py.
"""
from __future__ import annotations

import asyncio

from session.logbook import MemoryLog
from session.on_device import INDEX_KEY, Library, MemoryStore, StorageError, full_message
from ui.core import space
from ui.core.clock import now_text
from ui.shell.page_objects import is_none, to_js, window


class BrowserStore:
    """window.localStorage with the store interface of session.on_device (get/set/remove/keys)."""

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

    def size(self) -> int:
        """Characters of every key and value stored here (localStorage has about 5 million)."""
        return sum(len(key) + len(self.get(key) or "") for key in self.keys())


class IndexedLog:
    """The log store of session.logbook in IndexedDB, through static/logdb.js: each call is
    one transaction there, and one promise awaited here."""

    durable = True

    def __init__(self, database):
        self.database = database

    async def append(self, records: list[dict]):
        await self.database.append(to_js(records, dict_converter=window.Object.fromEntries))

    async def page(self, session_id: str, before, limit: int) -> list[str]:
        answer = await self.database.page(session_id, to_js(before) if before else None, limit)
        return [str(text) for text in answer]

    async def every(self, session_id: str) -> list[str]:
        return [str(text) for text in await self.database.every(session_id)]

    async def kinds(self, session_id: str, ids) -> dict[str, str]:
        answer = await self.database.kinds(session_id, to_js(list(ids)))
        return {str(key): str(value) for key, value in window.Object.entries(answer)}

    async def texts(self, session_id: str, ids) -> dict[str, str]:
        answer = await self.database.texts(session_id, to_js(list(ids)))
        return {str(key): str(value) for key, value in window.Object.entries(answer)}

    async def count(self, session_id: str) -> int:
        return int(await self.database.count(session_id))

    async def remove(self, session_id: str, keep: int = 0):
        await self.database.remove(session_id, keep)

    async def index(self, session_id: str) -> list[list[str]]:
        return [[str(pair[0]), str(pair[1])] for pair in await self.database.index(session_id)]

    async def keys(self, session_id: str) -> list[list]:
        return [[int(key[0]), str(key[1]), str(key[2])] for key in await self.database.keys(session_id)]


async def open_library() -> Library:
    """The sessions saved in this browser: localStorage for the heads, IndexedDB for the logs.
    An in-memory store where the browser refuses one (some private modes, storage turned off)."""
    log = MemoryLog(durable=False)
    try:
        database = getattr(window, "tablesideLog", None)
        if database is not None and not is_none(database) and await database.ready:
            log = IndexedLog(database)
    except Exception:  # IndexedDB refused: the log lasts as long as the page
        pass
    try:
        storage = window.localStorage
        if is_none(storage):
            raise RuntimeError("no localStorage")
        storage.getItem(INDEX_KEY)
        return Library(BrowserStore(storage), log, clock=now_text)
    except Exception:
        return Library(MemoryStore(), log, clock=now_text, in_memory=True)


async def settled(state):
    """Until everything queued is in the log store (benchmarks wait on this)."""
    library = state.library
    while library is not None and (library.outbox or library.flushing) and not library.stalled:
        if not library.flushing:
            await library.flush()
        await asyncio.sleep(0.01)


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


async def measure_space(state, after):
    """How full storage is (navigator.storage.estimate(), and what localStorage holds): a notice
    when nearly full. Redraws only when that changes."""
    usage = quota = None
    manager = getattr(window.navigator, "storage", None)
    if manager is not None and not is_none(manager) and hasattr(manager, "estimate"):
        estimate = await manager.estimate()
        usage, quota = float(estimate.usage or 0), float(estimate.quota or 0)
    store = state.library.store if state.library is not None else None
    local = store.size() if isinstance(store, BrowserStore) else 0
    before = space.shown(state)
    space.note(state, space.room(usage, quota, local))
    if space.shown(state) != before:
        after()
