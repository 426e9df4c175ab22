"""The Live table screen's words: how long a phone stays live and since when, the sentences said
when a phone can't connect, a system's name; and what its view and actions share besides (the
camera's <video>, how long a code is waited on). Pure Python."""
from __future__ import annotations

import secrets

from ui.core import live_table
from ui.core.clock import short_text
from ui.core.live_table import peer_name
from ui.core.state import AppState

VIDEO = "live-video"  # the <video> the camera shows in while scanning a live code
ANSWER_SECONDS = 20  # a player's code on screen this long without the GM's phone connecting: said (it stays valid)

# Why a channel did not open or stopped, for static/live.js's words.
NO_WEBRTC = ("This browser can't connect phones directly (it has no WebRTC). Links and QR codes work as "
             "before: share the session, and show each roll to the GM.")
NO_ROUTE = ("{who} could not connect. Both phones must be on the same Wi-Fi: mobile data, guest or hotel Wi-Fi "
            "(which keeps phones apart) won't do. A hotspot from the GM's phone works. Links and QR codes keep "
            "working as before.")
LOST = ("{who} is no longer live. A phone that reloaded comes back by itself, or shows a code to scan with “Scan "
        "its rejoin code”; otherwise make a new code for it (two scans). Nothing is lost meanwhile.")
GM_LOST = ("The GM's phone is no longer live. If it reloaded it comes back by itself in a moment; otherwise ask the "
           "GM for a new code and scan it. Nothing is lost meanwhile, and your rolls reach the GM's phone once you "
           "are back.")
NOT_YET = ("Not connected yet. Has the GM's phone scanned this code? If it has, both phones must be on the same "
           "Wi-Fi (not mobile data or guest Wi-Fi). Links and QR codes keep working as before.")
NOT_ANSWERING = ("The GM's phone does not answer this code. It may have made a newer one: ask the GM for a new code "
                 "and scan it. Otherwise both phones must be on the same Wi-Fi (not mobile data or guest Wi-Fi). Links "
                 "and QR codes keep working as before.")
REFUSED = "This browser refused the connection's description. Make a new code and scan it again."


def new_peer_id() -> str:
    return "p" + secrets.token_hex(4)


def since_words(peer: live_table.Peer) -> str:
    moment = short_text(peer.since) if peer.since else None
    time = moment.split(", ")[-1] if moment else ""
    if peer.state == live_table.OPEN:
        return f"live since {time}" if time else "live"
    if peer.state == live_table.INTERRUPTED:
        return "interrupted, coming back…"
    if peer.state == live_table.LOST:
        return f"lost at {time}" if time else "lost"
    if peer.state == live_table.FAILED:
        return "could not connect"
    return "joining…"


def failure_words(state: AppState, peer: live_table.Peer, word: str) -> str:
    """A sentence for static/live.js's word of why a channel did not open or closed."""
    who = peer_name(state, peer)
    if word == "unsupported":
        return NO_WEBRTC
    if word == "refused":
        return REFUSED
    if word in ("lost", "by-peer", "channel") or peer.state in (live_table.OPEN, live_table.INTERRUPTED):
        return LOST.format(who=who) if live_table.of(state).hub else GM_LOST
    return NO_ROUTE.format(who=who)

