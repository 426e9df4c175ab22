"""Our own scripts loaded into the page on first use (static/scan.js for the camera, static/live.js
for a live table): a <script> of our own origin, as the CSP allows, added once."""
from __future__ import annotations

import asyncio

from ui.shell.page_objects import create_once_callable, document


async def load(source: str, api):
    """The API `api()` returns once the script at `source` is in the page (added now if `api()`
    is None: the script was not loaded yet); OSError when it does not load."""
    if api() is None:
        done = asyncio.get_running_loop().create_future()
        script = document.createElement("script")
        script.src = source
        script.onload = create_once_callable(lambda *_: done.done() or done.set_result(None))
        script.onerror = create_once_callable(
            lambda *_: done.done() or done.set_exception(OSError(f"{source} did not load")))
        document.head.append(script)
        await done
    return api()
