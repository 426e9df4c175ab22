"""Work a change asks for, queued on the state: handlers never touch the browser or storage.

Each function appends one `(kind, data)` to `state.commands`. Two kinds of work:

- the browser's (share sheet, clipboard, files, camera, storage estimates), which
  ui.shell.commands runs right after the tap, while it still counts as a user gesture;
- storage (saving what changed, the table in progress of a session just opened, the log
  store, other sessions on this device), which ui.keeping.runners runs: pure Python, so
  the shell runs it on the browser's stores and the unit tests on memory ones.

ui.core.step queues the saving after every change; handlers queue the rest.
"""
from __future__ import annotations

SHARE, COPY, DOWNLOAD, READ_FILE, PERSIST, SCAN, STOP_SCAN = (
    "share", "copy", "download", "read-file", "persist", "scan", "stop-scan")
MEASURE_SPACE = "measure-space"
# A live table (ui.shell.channels, static/live.js; ui.screens.live says what to send):
LIVE_OFFER, LIVE_ANSWER, LIVE_ACCEPT, LIVE_SEND, LIVE_CLOSE, LIVE_WAIT, WAKE_LOCK = (
    "live-offer", "live-answer", "live-accept", "live-send", "live-close", "live-wait", "wake-lock")
# Storage (ui.keeping.runners):
SAVE, OPEN_TABLE, FLUSH, READ_OLDER, JOB = "save", "open-table", "flush", "read-older", "job"
ADD_SESSION, SAVE_SESSION, REMOVE_SESSION, FORGET = "add-session", "save-session", "remove-session", "forget"


def share(state, *, title: str, url: str, shared: str, copied: str, manual: str, then: str = ""):
    """The native share sheet where there is one, else the clipboard; the three sentences
    say what happened (shared, copied) or what to do by hand. Action `then`, if given,
    runs once the link was shared or copied."""
    state.commands.append((SHARE, {"title": title, "url": url, "shared": shared, "copied": copied,
                                  "manual": manual, "then": then}))


def download(state, *, name: str, text: str, kind: str = "application/json"):
    state.commands.append((DOWNLOAD, {"name": name, "text": text, "type": kind}))


def read_file(state, *, then: str, limit: int):
    """Read the file chosen in the tapped file input, then run action `then` with its text."""
    state.commands.append((READ_FILE, {"action": then, "limit": limit}))


def persist(state):
    state.commands.append((PERSIST, {}))


def scan(state, *, video: str, found: str, failed: str, hold: str = ""):
    """Show the camera in <video id=`video`> and read QR codes from it: action `found` runs with
    the first code's text, or action `failed` with why there is no camera (a word). A code that
    matches the pattern `hold` keeps the camera on until stop_scan (or a few seconds)."""
    state.commands.append((SCAN, {"video": video, "found": found, "failed": failed, "hold": hold}))


def stop_scan(state):
    state.commands.append((STOP_SCAN, {}))


def live_offer(state, peer: str):
    """A new connection for the phone `peer` (any earlier one closed): action "live-offered" gets
    its offer's SDP once the browser has gathered its addresses, or "live-failed" why not."""
    state.commands.append((LIVE_OFFER, {"peer": peer}))


def live_answer(state, peer: str, sdp: str):
    """Answer the offer `sdp` of phone `peer`: "live-answered" gets the answer's SDP ("live-failed" why not)."""
    state.commands.append((LIVE_ANSWER, {"peer": peer, "sdp": sdp}))


def live_accept(state, peer: str, sdp: str):
    """The answer's SDP to the offer made for `peer`: the channel opens soon after ("live-failed": it won't)."""
    state.commands.append((LIVE_ACCEPT, {"peer": peer, "sdp": sdp}))


def live_send(state, peer: str, text: str):
    state.commands.append((LIVE_SEND, {"peer": peer, "text": text}))


def live_close(state, peer: str):
    state.commands.append((LIVE_CLOSE, {"peer": peer}))


def live_wait(state, peer: str, offer_id: int, seconds: float):
    """Action "live-waited" for `peer` in `seconds` (a channel that should be open by then), its
    value the offer id the wait is about: a phone given a new code meanwhile is not judged by the old one's."""
    state.commands.append((LIVE_WAIT, {"peer": peer, "offer": offer_id, "seconds": seconds}))


def wake_lock(state, on: bool):
    """Keep the screen on while live (the Screen Wake Lock), or let it sleep again."""
    state.commands.append((WAKE_LOCK, {"on": on}))


def measure_space(state):
    """Ask the browser how full its storage is (after logging: a calm notice if nearly full)."""
    once(state, MEASURE_SPACE)


# --- Storage ------------------------------------------------------------------------------------

def once(state, kind: str):
    if (kind, {}) not in state.commands:
        state.commands.append((kind, {}))


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
    state.commands.append((JOB, {"work": work, "failure": failure}))


def add_session(state, replica, failure: str = ""):
    """Store a session that is not the open one (a copy, a joined or imported session).
    `failure` goes before the reason if the browser refuses."""
    state.commands.append((ADD_SESSION, {"replica": replica, "failure": failure}))


def save_session(state, replica):
    """Store a change to a session that is not open (a rename from the list)."""
    state.commands.append((SAVE_SESSION, {"replica": replica}))


def remove_session(state, session_id: str):
    state.commands.append((REMOVE_SESSION, {"id": session_id}))


def forget(state, key: str):
    """Delete unreadable saved data the player no longer wants (they confirmed)."""
    state.commands.append((FORGET, {"key": key}))
