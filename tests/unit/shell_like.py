"""What ui.shell does after every tap, under CPython: record the tap in the replica, save,
run the background work the tap queued (jobs on the log store, its writes) and read the
older log pages the screen wants, until nothing is left to do."""
from __future__ import annotations

import asyncio

from ui import progress
from ui.core.effects import JOB
from ui.core.library import commit, read_older, wanted


def settle(state):
    asyncio.run(settled(state))


async def settled(state):
    for _ in range(1000):
        commit(state)
        if state.library is not None:
            state.library.save(state.replica)
            progress.save(state)
        jobs = [data for kind, data in state.effects if kind == JOB]
        state.effects = [(kind, data) for kind, data in state.effects if kind != JOB]
        for job in jobs:
            await job["work"](state)
        if state.library is not None:
            await state.library.flush()
        if jobs:
            continue
        count = wanted(state)
        if not count:
            return
        await read_older(state, count)


# --- A phone's storage, as the app starts with it ---------------------------------------------------

LOGS: dict[int, object] = {}  # each store's log store: what the next start finds with it


def log_for(store):
    from session import MemoryLog

    return LOGS.setdefault(id(store), MemoryLog())


def library(store, clock=lambda: ""):
    """The Library the app makes at start, with this store and its log store."""
    from session import Library

    return Library(store, log_for(store), clock=clock)


def keep(store, *sessions, clock=lambda: ""):
    """Save these sessions (version-1 dicts) the way this version saves them."""
    from session.replica import Replica

    shelf = library(store, clock)
    for session in sessions:
        shelf.save(Replica.from_session(session))
    asyncio.run(shelf.flush())
    return shelf


def start(store, base_url: str = "", clock=lambda: ""):
    """The app's state at start, its first page of the log read."""
    from ui.core.opening import starting_state

    state = starting_state(library(store, clock), base_url)
    settle(state)
    return state
