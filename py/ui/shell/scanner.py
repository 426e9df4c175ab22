"""The camera and the QR decoder: static/scan.js, loaded into the page on the first scan."""
from __future__ import annotations

import asyncio

from pyodide.ffi import create_once_callable
from pyscript import document, window
from pyscript.ffi import is_none

SCRIPT = "./static/scan.js"


def scanner():
    """static/scan.js's API once it is in the page, else None."""
    found = getattr(window, "tablesideScanner", None)
    return None if found is None or is_none(found) else found


async def load():
    """static/scan.js, added to the page once (a <script>: the CSP allows only our own files)."""
    if scanner() is None:
        done = asyncio.get_running_loop().create_future()
        script = document.createElement("script")
        script.src = SCRIPT
        script.onload = create_once_callable(lambda *_: done.done() or done.set_result(None))
        script.onerror = create_once_callable(
            lambda *_: done.done() or done.set_exception(OSError(f"{SCRIPT} did not load")))
        document.head.append(script)
        await done
    return scanner()


async def start(video_id: str, found, failed, hold: str = ""):
    """Show the camera in <video id=video_id>; found(text) gets the first QR code read, or
    failed(word) why the camera did not start (or "gone": the <video> left the page). A code
    matching `hold` (a RegExp) leaves the camera on until stop()."""
    (await load()).start(video_id, create_once_callable(lambda text, *_: found(str(text))),
                         create_once_callable(lambda word: failed(str(word))), hold)


def stop():
    running = scanner()
    if running is not None:
        running.stop()
