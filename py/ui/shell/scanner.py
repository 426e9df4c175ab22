"""The camera and the QR decoder: static/scan.js, loaded into the page on the first scan."""
from __future__ import annotations

from ui.shell import scripts
from ui.shell.page_objects import create_once_callable, is_none, window

SCRIPT = "./static/scan.js"


def scanner():
    """static/scan.js's API once it is in the page, else None."""
    found = getattr(window, "tablesideScanner", None)
    return None if found is None or is_none(found) else found


async def start(video_id: str, found, failed, hold: str = ""):
    """Show the camera in <video id=video_id>; found(text) gets the first QR code read, or
    failed(word) why the camera did not start (or "gone": the <video> left the page). A code
    matching `hold` (a RegExp) leaves the camera on until stop()."""
    camera = await scripts.load(SCRIPT, scanner)
    camera.start(video_id, create_once_callable(lambda text, *_: found(str(text))),
                 create_once_callable(lambda word: failed(str(word))), hold)


def stop():
    running = scanner()
    if running is not None:
        running.stop()
