"""Background work in the page that never fails silently: `later` runs a coroutine and turns any
failure into a message on screen and a traceback in the console, then redraws."""
from __future__ import annotations

import asyncio
import traceback

_keep = []  # running tasks: the event loop holds only weak references to them


def later(state, after, work, failure: str):
    """Run coroutine `work` in the background. Anything that goes wrong in it becomes
    `failure` on screen (its traceback goes to the console): background work never fails
    silently, and a lost task never leaves the player waiting for nothing."""

    async def guarded():
        try:
            await work
        except Exception as error:
            traceback.print_exception(error)
            state.fail(failure)
            after()

    task = asyncio.ensure_future(guarded())
    _keep.append(task)
    task.add_done_callback(_keep.remove)
