"""What the live screen and its actions share: who a phone is in words, the sentences said when a
phone can't connect, the GM's call being set up, and the round of a call. Pure Python."""
from __future__ import annotations

import secrets

from session import SYSTEMS

from ui.core import live_table
from ui.core.clock import short_text
from ui.core.state import AppState
from ui.kit.html import isolate

VIDEO = "live-video"  # the <video> the camera shows in while scanning a live code
CONNECT_SECONDS = 15  # after the GM's phone took an answer: the channel opens in well under a second
ANSWER_SECONDS = 30  # a player's code on screen this long without the GM's phone connecting: a hint

# Why a channel did not open or stopped, for static/live.js's words.
NO_WEBRTC = ("This browser can't connect phones directly (it has no WebRTC). Links and QR codes work as "
             "before: share the session, and show each roll to the GM.")
NO_ROUTE = ("{who} could not connect. Both phones must be on the same Wi-Fi: mobile data, guest or hotel Wi-Fi "
            "(which keeps phones apart) won't do. A hotspot from the GM's phone works. Links and QR codes keep "
            "working as before.")
LOST = "{who} is no longer live. Make a new code for it (two scans) to bring it back; nothing is lost meanwhile."
NOT_YET = ("Not connected yet. Has the GM's phone scanned this code? If it has, both phones must be on the same "
           "Wi-Fi (not mobile data or guest Wi-Fi). Links and QR codes keep working as before.")
REFUSED = "This browser refused the connection's description. Make a new code and scan it again."


def new_peer_id() -> str:
    return "p" + secrets.token_hex(4)


def peer_name(state: AppState, peer: live_table.Peer) -> str:
    """Who a phone is, in words: "Ash's phone", "The GM's phone", "A phone"."""
    if peer.id == live_table.GM_PEER or peer.role == live_table.GM_PEER:
        return "The GM's phone"
    entry = state.entry(peer.role) if peer.role else None
    name = entry["name"] if entry is not None else peer.who
    return f"{isolate(name)}'s phone" if name else "A phone"


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
        return LOST.format(who=who)
    return NO_ROUTE.format(who=who)


# --- The GM's call for a roll -------------------------------------------------------------------------

def call_form(state: AppState) -> dict:
    """The call being set up on the GM's phone (in state.view: it goes with the screen). Every live
    player's phone is called but those the GM left out (`out`), phones that join meanwhile too."""
    form = state.view.get("call")
    if form is None:
        form = {"system": state.system, "difficulty": 6, "title": "", "stakes": "", "out": []}
        state.view["call"] = form
    return form


def called(state: AppState) -> list[str]:
    """The roster ids of the players' phones the call being set up goes to."""
    out = call_form(state)["out"]
    return [peer.role for peer in players(state) if peer.role not in out]


def players(state: AppState) -> list[live_table.Peer]:
    """The players' phones live now that a call can reach: someone holds them."""
    table = live_table.live(state)
    if table is None:
        return []
    return [peer for peer in table.open_peers() if peer.role and peer.role != live_table.GM_PEER]


def newest_call(state: AppState) -> dict | None:
    table = live_table.live(state)
    if table is None or not table.calls:
        return None
    return list(table.calls.values())[-1]


def round_rows(state: AppState, call: dict) -> list[tuple[str, dict | None, str]]:
    """(who, their roll's log entry or None, how it stands) for everyone called, in call order."""
    rows = []
    waiting = {item["entry_id"]: item for item in live_table.live(state).waiting}
    for role in call["to"]:
        entry = state.entry(role)
        who = isolate(entry["name"]) if entry is not None else "A player"
        rolled = call["rolled"].get(role)
        if rolled is None:
            rows.append((who, None, "still to roll"))
            continue
        found = next((item for item in state.session["log"] if item["id"] == rolled), None)
        if found is not None:
            rows.append((who, found, "rolled"))
        elif rolled in waiting:
            rows.append((who, waiting[rolled]["entry"], "rolled, waiting for you to add it"))
        else:
            rows.append((who, None, "rolled"))
    return rows


def system_name(system: str) -> str:
    return SYSTEMS.get(system, system)
