"""Work a change asks for, queued on the state as commands (Elm's Cmd): handlers never touch the
browser or storage, they queue what must be done.

Each function here appends one `(kind, data)` to `state.commands`; ui.core.step queues the
saving (and what live phones must be sent) after every change, handlers queue the rest. Every
kind has one row in the command table (ui.shell.commands.TABLE): what carries it out, and the
sentence said when it fails. Two sorts of row:

- work only a browser can do (share sheet, clipboard, files, camera, storage estimates, a live
  table's channels), which the shell runs right after the tap, while it still counts as a user
  gesture (ui.shell.browser, ui.shell.channels);
- work in pure Python (saving what changed, the table in progress of a session just opened,
  the log store, other sessions on this device, background work, a live table's inbox), whose
  rows ui.keeping.runners writes: the shell runs them on the browser's stores, the unit tests
  on memory ones.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

# The browser's (ui.shell.browser):
SHARE, DOWNLOAD, READ_FILE, PERSIST, SCAN, STOP_SCAN, MEASURE_SPACE = (
    "share", "download", "read-file", "persist", "scan", "stop-scan", "measure-space")
# A live table's channels and the Screen Wake Lock (ui.shell.channels, static/live.js):
LIVE_OFFER, LIVE_ANSWER, LIVE_ACCEPT, LIVE_SEND, LIVE_CLOSE, LIVE_WAIT, WAKE_LOCK = (
    "live-offer", "live-answer", "live-accept", "live-send", "live-close", "live-wait", "wake-lock")
# Rejoining with no scan (ui.shell.channels, static/live.js; ui.core.standbys):
LIVE_PROBE, LIVE_STANDBY, LIVE_EXPECT, LIVE_DROP, LIVE_REJOIN = (
    "live-probe", "live-standby", "live-expect", "live-drop", "live-rejoin")
# Pure Python (ui.keeping.runners):
SAVE, OPEN_TABLE, FLUSH, READ_OLDER, JOB, MERGE_MESSAGES = (
    "save", "open-table", "flush", "read-older", "job", "merge-messages")
ADD_SESSION, SAVE_SESSION, REMOVE_SESSION, FORGET = "add-session", "save-session", "remove-session", "forget"


@dataclass(frozen=True)
class Runner:
    """A row of the command table: what carries out a kind of command, and the sentence said on
    screen when it fails ("": the command's data names its own, as a job's does)."""
    run: Callable
    failure: str = ""


def share(state, *, title: str, shared: str, copied: str, manual: str, url: str = "", text: str = "",
          then: str = ""):
    """A link (`url`), or else `text` (a live table's code), on the native share sheet where there
    is one, else the clipboard; the three sentences say what happened (shared, copied) or what to
    do by hand. Action `then`, if given, runs once it was shared or copied."""
    state.commands.append((SHARE, {"title": title, "url": url, "text": text, "shared": shared, "copied": copied,
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


def live_probe(state):
    """Load the live table's script and probe the browser, once per start: action "live-probed" gets
    {"munge": whether it takes changed ICE credentials, "print": this phone's key's fingerprint}."""
    once(state, LIVE_PROBE)


def live_standby(state, peer: str, standby_id: int):
    """A standby for phone `peer`: "live-standby-made" gets its offer's SDP (data-id: the standby's id),
    or "live-standby-failed" the browser's word when it could not make one."""
    state.commands.append((LIVE_STANDBY, {"peer": peer, "id": standby_id}))


def live_expect(state, standby_id: int, sdp: str):
    """The other phone's answer for a standby, set before it comes (or once its one-scan code came)."""
    state.commands.append((LIVE_EXPECT, {"id": standby_id, "sdp": sdp}))


def live_drop(state, standby_id: int):
    state.commands.append((LIVE_DROP, {"id": standby_id}))


def live_rejoin(state, peer: str, standby_id: int, sdp: str, ufrag: str = "", pwd: str = ""):
    """Rejoin `peer` through its standby's offer `sdp`, answering with `ufrag`/`pwd`; with none, the
    browser's own: "live-rejoin-answered" gets that answer's SDP for the one-scan code."""
    state.commands.append((LIVE_REJOIN, {"peer": peer, "id": standby_id, "sdp": sdp, "ufrag": ufrag, "pwd": pwd}))


def wake_lock(state, on: bool):
    """Keep the screen on while live (the Screen Wake Lock), or let it sleep again."""
    state.commands.append((WAKE_LOCK, {"on": on}))


def measure_space(state):
    """Ask the browser how full its storage is (after logging: a calm notice if nearly full)."""
    once(state, MEASURE_SPACE)


# --- Pure Python: storage, background work, a live table's inbox --------------------------------------

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
    `failure` is said if it fails. It may queue commands of its own (a download), run when it ends."""
    state.commands.append((JOB, {"work": work, "failure": failure}))


def merge_messages(state):
    """Merge what the other phones of a live table sent, waiting in its inbox, one message at a
    time in the order they came (ui.arrivals.messages); queued once, however many arrive."""
    once(state, MERGE_MESSAGES)


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
