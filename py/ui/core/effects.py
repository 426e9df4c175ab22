"""Work a change asks for, queued on the state: handlers never touch the browser or storage.

Each function appends one `(kind, data)` to `state.effects`. Two kinds of work:

- the browser's (share sheet, clipboard, files, camera, storage estimates), which
  ui.shell.effects runs right after the tap, while it still counts as a user gesture;
- storage (saving what changed, the table in progress of a session just opened, the log
  store, other sessions on this device), which ui.storage_effects runs: pure Python, so
  the shell runs it on the browser's stores and the unit tests on memory ones.

ui.core.step queues the saving after every change; handlers queue the rest.
"""
from __future__ import annotations

SHARE, COPY, DOWNLOAD, READ_FILE, PERSIST, SCAN, STOP_SCAN = (
    "share", "copy", "download", "read-file", "persist", "scan", "stop-scan")
MEASURE_SPACE = "measure-space"
# Storage (ui.storage_effects):
SAVE, OPEN_TABLE, FLUSH, READ_OLDER, JOB = "save", "open-table", "flush", "read-older", "job"
ADD_SESSION, SAVE_SESSION, REMOVE_SESSION, FORGET = "add-session", "save-session", "remove-session", "forget"


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


def scan(state, *, video: str, found: str, failed: str):
    """Show the camera in <video id=`video`> and read QR codes from it: action `found` runs with
    the first code's text, or action `failed` with why there is no camera (a word)."""
    state.effects.append((SCAN, {"video": video, "found": found, "failed": failed}))


def stop_scan(state):
    state.effects.append((STOP_SCAN, {}))


def measure_space(state):
    """Ask the browser how full its storage is (after logging: a calm notice if nearly full)."""
    once(state, MEASURE_SPACE)


# --- Storage ------------------------------------------------------------------------------------

def once(state, kind: str):
    if (kind, {}) not in state.effects:
        state.effects.append((kind, {}))


def save(state):
    """Store what changed: the open session (its head, its new log entries), its table in
    progress, sealed secrets and backups. Queued once, however many changes come before it runs."""
    once(state, SAVE)


def open_table(state):
    """Another session was opened: bring in its table in progress (before the next save)."""
    once(state, OPEN_TABLE)


def flush(state):
    """Write the log entries the last save queued to the log store (in the background)."""
    once(state, FLUSH)


def read_older(state):
    """Read the older log entries the screen now wants (ui.core.library.wanted)."""
    once(state, READ_OLDER)


def job(state, work, failure: str):
    """Work that waits on the log store (reading pages, exporting, archiving, merging a link):
    `work(state)` is a coroutine run in the background, the page redrawn once it is done;
    `failure` is said if it fails. It may queue effects of its own (a download), run when it ends."""
    state.effects.append((JOB, {"work": work, "failure": failure}))


def add_session(state, replica, failure: str = ""):
    """Store a session that is not the open one (a copy, a joined or imported session).
    `failure` goes before the reason if the browser refuses."""
    state.effects.append((ADD_SESSION, {"replica": replica, "failure": failure}))


def save_session(state, replica):
    """Store a change to a session that is not open (a rename from the list)."""
    state.effects.append((SAVE_SESSION, {"replica": replica}))


def remove_session(state, session_id: str):
    state.effects.append((REMOVE_SESSION, {"id": session_id}))


def forget(state, key: str):
    """Delete unreadable saved data the player no longer wants (they confirmed)."""
    state.effects.append((FORGET, {"key": key}))
