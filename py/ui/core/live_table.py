"""A live table as the state holds it: this phone's data channels to the others (the GM's phone
is the hub, one channel per player's phone; a player's phone has one, to the GM's), who is on
each and since when, and on the GM's phone the calls for rolls and the rolls waiting for "Add".

`state.live` is None until the table goes live on this phone. What it sends is ui.core.outgoing's,
what arrives ui.arrivals.messages', its screen ui.screens.live. Nothing of it is saved: a reload
ends the phone's channels (they need new codes), while the session and every roll stay. Pure
Python.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.words import isolate

from ui.core.persons import holding

GM_PEER = "gm"  # the peer id a player's phone gives the GM's phone

# A peer's state: an offer or answer being made, its code on screen, the channel being opened,
# open, interrupted (it may come back), lost (it needs new codes), or failed to connect.
MAKING, SHOWING, CONNECTING, OPEN, INTERRUPTED, LOST, FAILED = (
    "making", "showing", "connecting", "open", "interrupted", "lost", "failed")
ADD_AT_ONCE, ADD_ON_TAP = "at-once", "wait"  # how the GM's phone takes a player's checked roll
# A player's roll, as its phone says where it is (ui.core.role, ui.core.outgoing).
ON_ITS_WAY = "Logged. Waiting to reach the GM's phone…"
ON_THE_GMS_PHONE = "Logged. It is on the GM's phone."
# Said on the sending phone when what it would send is past what phones of this version open (session.links.size).
TOO_LARGE_TO_SEND = ("This session is now larger than a live table carries in this version of Tableside, so "
                     "it was not sent and is kept on this phone as it is: export it to a file (Session screen) "
                     "to move it to another phone.")
# Said on a player's phone when the GM's phone could not send it the session for that (protocol.UNSENT).
GMS_SESSION_TOO_LARGE = ("The GM's session is now larger than a live table carries in this version of Tableside, "
                         "so it was not sent: ask the GM for the session as a file.")
MAX_UNCONFIRMED = 200  # rolls a player's phone keeps sending until the GM's phone stored them (one ack's worth)


@dataclass
class Peer:
    """One other phone, as this one sees it."""
    id: str
    state: str = MAKING
    offer_id: int = 0  # the offer this channel answers or waits on (session.live.signal)
    code: str = ""  # the offer or answer code shown as a QR code
    device: str = ""  # from its hello
    role: str = ""  # "gm", a character's roster id, or "" (nobody said)
    who: str = ""  # the name it goes by
    since: str = ""  # when it became live, or was lost (ISO time)
    problem: str = ""  # why it is not live, in a sentence
    oldest: str = ""  # the id of the oldest log entry it keeps, from its hello (session.live.catchup)
    holds_oldest: bool = False  # this phone held that entry when the hello came: the other's log was cut
    walk: object = None  # this phone's side of the catch-up walk with it (ui.arrivals.catchup.Walk)
    held: dict = field(default_factory=dict)  # standby id -> ui.core.standbys.Held: this phone's standbys for it
    arming: set = field(default_factory=set)  # the standbys armed since its newest channel opened
    spares: int = 0  # standbys made again on this channel, for ones that gathered no address or failed
    replies_early: bool = True  # (player) its offer replies to our checks before our answer reaches it (not Firefox's)
    rejoining: bool = False  # this phone reloaded and rejoins it through a stored way back (ui.core.standbys)
    unreached: bool = False  # (rejoining) a way back to it led nowhere: the page holding its standbys is gone


@dataclass
class LiveTable:
    hub: bool  # the GM's phone
    session_id: str
    peers: dict = field(default_factory=dict)  # peer id -> Peer
    scanning: bool = False  # the camera is reading an answer (GM) or an offer (player)
    waiting: list = field(default_factory=list)  # (GM) rolls waiting for "Add": dicts, oldest first
    calls: dict = field(default_factory=dict)  # (GM) call id -> the call and who rolled; (player) the call here
    others: list = field(default_factory=list)  # (player) who is live at the table, as the GM's phone said
    asked: str = ""  # (player) the call whose try again waits for the GM's phone's new total (ui.systems.tension.calls)
    inbox: list = field(default_factory=list)  # (peer, message) waiting to be merged, in order
    draining: bool = False  # a background job is merging the inbox
    sent: dict = field(default_factory=dict)  # what was sent last: "head" (S2 text), "role", "phones"
    known: set = field(default_factory=set)  # log entry ids the other phones were sent or sent us
    sent_steps: set = field(default_factory=set)  # sealed-card links already sent
    steps_out: dict = field(default_factory=dict)  # sealed steps sent, digest -> what: "on the other phone" once acked
    relayed: dict = field(default_factory=dict)  # (GM) digest of a sealed step passed on -> the phone it came from
    to_ack: dict = field(default_factory=dict)  # (GM) peer id -> ids of its rolls in the log, to acknowledge once stored
    told_unsent: set = field(default_factory=set)  # (GM) peer ids told the session is too large, until one gets it
    unsent: bool = False  # (player) the GM's phone said its session is too large to send, and none came since
    wake: str = "off"  # the Screen Wake Lock: "off", "on", "unsupported"
    unsupported: bool = False  # this browser has no WebRTC
    munge: bool = False  # the probe: this browser takes changed ICE credentials (rejoining with no scan)
    print: str = ""  # the probe: this phone's key's fingerprint, "AB:CD:…" ("" before, or with no key)

    def open_peers(self) -> list[Peer]:
        return [peer for peer in self.peers.values() if peer.state in (OPEN, INTERRUPTED)]


def of(state) -> LiveTable | None:
    """This phone's live table (state.live), or None."""
    return getattr(state, "live", None)


def whose(state, peer: Peer) -> str | None:
    """The name a phone goes by: its person's, or what it said ("" if nothing); None for the GM's phone."""
    if peer.id == GM_PEER or peer.role == GM_PEER:
        return None
    entry = state.entry(peer.role) if peer.role else None
    return entry["name"] if entry is not None else peer.who


def peer_name(state, peer: Peer) -> str:
    """Who a phone is, in words: "Ash's phone", "The GM's phone", "A phone"."""
    name = whose(state, peer)
    if name is None:
        return "The GM's phone"
    return f"{isolate(name)}'s phone" if name else "A phone"


def sender(state, peer: Peer) -> str:
    """Who sent a message, within a sentence: "Ash's phone", "the GM's phone", "the other phone"."""
    name = whose(state, peer)
    if name is None:
        return "the GM's phone"
    return f"{isolate(name)}'s phone" if name else "the other phone"


def is_live(state) -> bool:
    """This phone has a channel open to another at the moment."""
    table = of(state)
    return table is not None and any(peer.state == OPEN for peer in table.peers.values())


def carries_steps(state, roles) -> bool:
    """A sealed-card step goes live to the other phone (ui.core.outgoing): a player's to the GM's phone, the
    GM's to the phone of a character in `roles` (the exchange's sides)."""
    table = of(state)
    if table is None or not table.hub:
        return sends_to_gm(state)
    open_phones = [peer for peer in table.peers.values() if peer.state == OPEN]
    return any(holding(state, open_phones, role) is not None for role in roles if role)


def sends_to_gm(state) -> bool:
    """A player's phone whose rolls reach the GM's phone as they are logged."""
    table = of(state)
    return table is not None and not table.hub and GM_PEER in table.peers and table.peers[GM_PEER].state == OPEN
