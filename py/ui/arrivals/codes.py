"""Text from another phone's screen, scanned as a QR code or pasted: a link of this app, opened
as a followed link is (ui.arrivals.links), or a live table's code (session.live.signal), taken
as the offer this phone answers or the answer to an offer it made.

On an iPhone a Home Screen app keeps its own storage, and the Camera app opens links in
Safari, so a code must be read inside the app. The text counts as a Tableside link when it is
an address of this app's origin with a link in its fragment (or just such a fragment).
Anything else only gets a message: nothing changes. The cameras that read codes are the
Session screen's (any code) and the Live table's (its codes); both say why one can't start
in NO_CAMERA's words.
"""
from __future__ import annotations

from urllib.parse import unquote, urlsplit

from session import looks_like_link
from session.live import signal as live_signal
from session.live.signal import LiveCodeError, looks_like_code
from session.live.standby import looks_like_rejoin_code

from ui.arrivals import links
from ui.core import commands
from ui.core import live_table
from ui.core import standbys
from ui.core.state import AppState

NOT_A_CODE_LINK = "That code is not a Tableside link. Nothing changed."
NOT_A_PASTED_LINK = "That is not a Tableside link. Nothing changed."
NOT_ANSWERING = ("This code answers an offer this phone is not waiting on (an older code, or another phone's). "
                 "Make a new code for that phone and scan its answer.")
CONNECT_SECONDS = 15  # after the GM's phone took an answer: the channel opens in well under a second
# static/scan.js says why the camera did not start in one word.
NO_CAMERA = {
    "unsupported": "This browser can't use a camera here. Paste the link instead.",
    "denied": "Tableside may not use the camera. Allow it in the browser's settings for this site, "
              "or paste the link instead.",
    "no-camera": "No camera was found. Paste the link instead.",
    "busy": "The camera is busy in another app. Close it and try again, or paste the link instead.",
    "failed": "The camera could not be started. Paste the link instead.",
}


def link_fragment(text: str, base_url: str) -> str | None:
    """The fragment of `text` for ui.arrivals.links, or None when `text` is not a link to this app."""
    text = text.strip()
    if looks_like_link(text.removeprefix("#")):
        return text.removeprefix("#")
    try:
        parts, home = urlsplit(text), urlsplit(base_url)
    except ValueError:  # e.g. a malformed IPv6 host
        return None
    same_origin = parts.scheme.lower() in ("http", "https") and parts.netloc != "" and \
        (parts.scheme.lower(), parts.netloc.lower()) == (home.scheme.lower(), home.netloc.lower())
    if not same_origin or not parts.fragment:
        return None
    return unquote(parts.fragment)  # as ui.shell.address reads the address bar


def open_text(state: AppState, text: str, refusal: str) -> bool:
    """Open `text` as a followed link would be, or a live table's code on the Live table screen;
    True unless it was refused or could not be read (`refusal`: what to say when it is no link)."""
    if looks_like_code(text) or looks_like_rejoin_code(text):
        state.screen = "live"
        take_code(state, text.strip())
        return state.message is None or state.message.tone != "error"
    fragment = link_fragment(text, state.base_url)
    if fragment is None:
        state.fail(refusal)
        return False
    links.open_link(state, fragment)
    return state.message is None or state.message.tone != "error"


def take_code(state: AppState, text: str) -> bool:
    """An offer (this phone answers it: a player's), an answer (to an offer this phone made), or a
    rejoining phone's one-scan code (for a standby this phone holds)."""
    if looks_like_rejoin_code(text):
        return standbys.take_code(state, text)
    try:
        signal = live_signal.read(text)
    except LiveCodeError as error:
        state.fail(str(error))
        return False
    table = live_table.of(state)
    if signal.kind == live_signal.OFFER:
        if table is not None and table.hub and table.open_peers():
            state.fail("This phone is the GM's phone of a live table: it scans the players' answers, not offers.")
            return False
        state.live = table = live_table.LiveTable(hub=False, session_id="")
        table.peers[live_table.GM_PEER] = live_table.Peer(live_table.GM_PEER, offer_id=signal.offer_id,
                                                          replies_early=not live_signal.from_firefox(signal))
        commands.live_answer(state, live_table.GM_PEER, signal.sdp())
        state.message = None
        state.screen = "live"
        return True
    peer = next((one for one in table.peers.values() if one.offer_id == signal.offer_id
                 and one.state == live_table.SHOWING), None) if table is not None and table.hub else None
    if peer is None:  # never an answer to an offer this phone is not waiting on
        state.fail(NOT_ANSWERING)
        return False
    peer.state, peer.code = live_table.CONNECTING, ""
    commands.live_accept(state, peer.id, signal.sdp())
    commands.live_wait(state, peer.id, peer.offer_id, CONNECT_SECONDS)
    state.message = None
    state.announcement = "Connecting to the player's phone…"
    return True
