"""What ui.shell does after every tap, under CPython: record the tap in the replica, save,
run the background work the tap queued (jobs on the log store, its writes) and read the
older log pages the screen wants, until nothing is left to do."""
from __future__ import annotations

import asyncio

from ui import table
from ui.core.effects import JOB
from ui.core.library import commit, read_older, wanted


def settle(state):
    asyncio.run(settled(state))


async def settled(state):
    for _ in range(1000):
        commit(state)
        if state.library is not None:
            state.library.save(state.replica)
            table.save(state)
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
