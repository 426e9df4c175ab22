"""A device's storage as the storage tests open it (tests/unit/session/test_session_heads.py and
its neighbours): a Library on a store in memory with its log store, saving and flushing
(`saved`), what the next page load sees (`reopened`), and a loaded session's whole log (`whole`)."""
import asyncio

from session import Library, MemoryStore
from session.replica import Replica

from samples import plain
from tapping import log_for


class Clock:
    def __init__(self):
        self.tick = 0

    def __call__(self):
        self.tick += 1
        return f"2025-06-01T20:{self.tick:02d}:00+02:00"


def library(store=None) -> Library:
    store = store if store is not None else MemoryStore()
    return Library(store, log_for(store), clock=Clock())


def reopened(store) -> tuple[Library, Replica | None]:
    """What the next page load sees."""
    fresh = library(store)
    return fresh, fresh.load()


def saved(shelf: Library, session) -> bool:
    """Save a session (a version-1 dict becomes a replica) and let its log entries be stored."""
    replica = session if isinstance(session, Replica) else Replica.from_session(session)
    changed = shelf.save(replica)
    asyncio.run(shelf.flush())
    return changed


def whole(shelf: Library, replica: Replica | None) -> dict | None:
    """The session a loaded replica stands for, its whole log read from the log store."""
    if replica is None:
        return None
    return plain(asyncio.run(shelf.everything(replica))[0].session())
