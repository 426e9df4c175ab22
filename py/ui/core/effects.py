"""Browser work an action asks for, queued on the state: actions never touch the browser.

Each function appends one `(kind, data)` to `state.effects`; ui.shell.effects
runs them right after the tap (keyed by the same names), while it still counts
as a user gesture.
"""
from __future__ import annotations

SHARE, COPY, DOWNLOAD, READ_FILE, PERSIST, JOB = "share", "copy", "download", "read-file", "persist", "job"
SCAN, STOP_SCAN = "scan", "stop-scan"


def share(state, *, title: str, url: str, shared: str, copied: str, manual: str, then: str = ""):
    """The native share sheet where there is one, else the clipboard; the three sentences
    say what happened (shared, copied) or what to do by hand. Action `then`, if given,
    runs once the link was shared or copied."""
    state.effects.append((SHARE, {"title": title, "url": url, "shared": shared, "copied": copied,
                                  "manual": manual, "then": then}))


def download(state, *, name: str, text: str, kind: str = "application/json"):
    state.effects.append((DOWNLOAD, {"name": name, "text": text, "type": kind}))


def read_file(state, *, then: str, limit: int):
    """Read the file chosen in the tapped file input, then run action `then` with its text."""
    state.effects.append((READ_FILE, {"action": then, "limit": limit}))


def persist(state):
    state.effects.append((PERSIST, {}))


def job(state, work, failure: str):
    """Work that waits on the log store (reading pages, exporting, archiving): `work(state)` is a
    coroutine the shell runs in the background, redrawing once it is done; `failure` is said if
    it fails. It may queue effects of its own (a download), run when it ends."""
    state.effects.append((JOB, {"work": work, "failure": failure}))


def scan(state, *, video: str, found: str, failed: str):
    """Show the camera in <video id=`video`> and read QR codes from it: action `found` runs with
    the first code's text, or action `failed` with why there is no camera (a word)."""
    state.effects.append((SCAN, {"video": video, "found": found, "failed": failed}))


def stop_scan(state):
    state.effects.append((STOP_SCAN, {}))
