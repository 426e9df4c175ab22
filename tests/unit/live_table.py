"""Phones of a live table under CPython: static/live.js's part played in memory, so the unit tests
drive the same actions the page does (ui.screens.live, through tapping.tap and ui.core.step).

An offer or answer is a real browser's SDP (tests/unit/session/live_sdp), made into codes by the
app as in the page; when the GM's phone accepts an answer, the two phones whose offer id it
carries are joined by a channel; what one sends, the other receives as "live-message", in
order. `Table.run()` carries out every live command queued anywhere until none is left (as the
shells of all the phones would), settling storage after each step.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ui.core import commands
from ui.core.actions import Input
from ui.core.step import step
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers "role-pick": whose phone each is)
from ui.screens.live import actions as live_actions  # noqa: F401  (registers the live table's actions)
from ui.screens.session import scan  # noqa: F401  (registers "Scan a code": a player's phone scans the GM's code)

from tapping import settle, tap

SAMPLES = Path(__file__).resolve().parent / "session" / "live_sdp"
OFFER_SDP = (SAMPLES / "chromium-156-camera-offer.sdp").read_bytes().decode()
ANSWER_SDP = (SAMPLES / "chromium-156-camera-answer.sdp").read_bytes().decode()
NO_ADDRESS_SDP = re.sub(r"^a=candidate:.*\r?\n", "", OFFER_SDP, flags=re.MULTILINE)  # gathering found nothing
LIVE = {commands.LIVE_OFFER, commands.LIVE_ANSWER, commands.LIVE_ACCEPT, commands.LIVE_SEND, commands.LIVE_CLOSE,
        commands.LIVE_WAIT, commands.WAKE_LOCK, commands.LIVE_PROBE, commands.LIVE_STANDBY, commands.LIVE_EXPECT,
        commands.LIVE_DROP, commands.LIVE_REJOIN}
KEY_PRINT = ":".join(["AB"] * 32)  # every phone's key, as the probe says it (no DTLS here to tell them apart)


def offer_id(sdp: str) -> int:
    return int(re.search(r"^o=- (\d+) ", sdp, re.MULTILINE).group(1))


class Table:
    def __init__(self, **phones):
        self.phones = dict(phones)  # name -> AppState
        self.channels: dict[tuple[str, str], tuple[str, str]] = {}  # (phone, peer id) -> (other phone, its peer id)
        self.answering: dict[int, str] = {}  # offer id -> the phone that answered it
        self.sent: list[tuple[str, str, str]] = []  # (from phone, to phone, text), every message
        self.waits: list[tuple[str, str, int]] = []  # (phone, peer, offer id) of every live_wait
        self.unsupported: set[str] = set()  # phones whose browser has no WebRTC
        self.cut: set[str] = set()  # phones whose channels are down (messages to and from them lost)
        self.munge = True  # the probe's answer: browsers take changed ICE credentials
        self.standbys: dict[int, tuple[str, str]] = {}  # standby id -> (holding phone, its peer id)
        self.expected: dict[int, str] = {}  # standby id -> the answer SDP set on it
        self.rejoining: dict[int, tuple[str, str]] = {}  # standby id -> (the phone rejoining it, its peer id)
        self.closed: list[tuple[str, str]] = []  # (phone, peer id) of every channel closed there
        self.rejoins: list[tuple[str, str, int, str]] = []  # (phone, peer id, standby id, ufrag) of every rejoin
        # How a phone's next standbys come out, in order (then as usual): "no address" (gathering found
        # none in time, as under load) or "fails" (the browser could not make it).
        self.standby_troubles: dict[str, list[str]] = {}

    def add(self, name: str, state):
        self.phones[name] = state

    def name_of(self, state) -> str:
        return next(name for name, phone in self.phones.items() if phone is state)

    def deliver(self, name: str, action: str, value: str | None = None, **data):
        state = self.phones[name]
        step(state, action, Input(data={key: str(item) for key, item in data.items()}, value=value))
        settle(state)

    def run(self, limit: int = 2_000):
        """Carry out every live command queued on any phone, and what they lead to."""
        for _ in range(limit):
            for name, state in self.phones.items():
                live = [item for item in state.commands if item[0] in LIVE]
                if live:
                    state.commands = [item for item in state.commands if item[0] not in LIVE]
                    for kind, data in live:
                        self.carry_out(name, kind, data)
                    break
            else:
                return
        raise RuntimeError("the live table kept sending")

    def carry_out(self, name: str, kind: str, data: dict):
        state = self.phones[name]
        peer = data.get("peer", "")
        if kind in (commands.LIVE_OFFER, commands.LIVE_ANSWER) and name in self.unsupported:
            self.deliver(name, "live-failed", "unsupported", peer=peer)
        elif kind == commands.LIVE_OFFER:
            self.deliver(name, "live-offered", OFFER_SDP, peer=peer)
        elif kind == commands.LIVE_ANSWER:
            self.answering[offer_id(data["sdp"])] = name
            self.deliver(name, "live-answered", ANSWER_SDP, peer=peer)
        elif kind == commands.LIVE_ACCEPT:
            player = self.answering.get(offer_id(data["sdp"]))
            if player is None or player in self.cut or name in self.cut:
                return  # nobody answered that offer (or no route): it never opens
            self.channels[(name, peer)] = (player, "gm")
            self.channels[(player, "gm")] = (name, peer)
            self.deliver(name, "live-event", peer=peer, event="open", detail="")
            self.deliver(player, "live-event", peer="gm", event="open", detail="")
        elif kind == commands.LIVE_SEND:
            other = self.channels.get((name, peer))
            if other is not None and name not in self.cut and other[0] not in self.cut:
                self.sent.append((name, other[0], data["text"]))
                self.deliver(other[0], "live-message", data["text"], peer=other[1])
        elif kind == commands.LIVE_CLOSE:
            self.closed.append((name, peer))
            other = self.channels.pop((name, peer), None)
            if other is not None:
                self.channels.pop(other, None)
                self.deliver(other[0], "live-event", peer=other[1], event="closed", detail="by-peer")
        elif kind == commands.LIVE_WAIT:
            self.waits.append((name, peer, data["offer"]))
        elif kind == commands.WAKE_LOCK:
            self.deliver(name, "live-wake-state", "on" if data["on"] else "off")
        elif kind == commands.LIVE_PROBE:
            self.deliver(name, "live-probed", json.dumps({"munge": self.munge, "print": KEY_PRINT}))
        elif kind == commands.LIVE_STANDBY:
            troubles = self.standby_troubles.get(name, [])
            trouble = troubles.pop(0) if troubles else ""
            if trouble == "fails":
                self.deliver(name, "live-standby-failed", "refused", peer=peer, id=data["id"])
                return
            self.standbys[data["id"]] = (name, peer)
            sdp = NO_ADDRESS_SDP if trouble == "no address" else OFFER_SDP
            self.deliver(name, "live-standby-made", sdp, peer=peer, id=data["id"])
        elif kind == commands.LIVE_EXPECT:
            self.expected[data["id"]] = data["sdp"]
            if data["id"] in self.rejoining and data["id"] in self.standbys:  # a one-scan code's answer
                self.open_standby(data["id"])
        elif kind == commands.LIVE_DROP:
            self.standbys.pop(data["id"], None)
        elif kind == commands.LIVE_REJOIN:
            self.rejoins.append((name, peer, data["id"], data["ufrag"]))
            if name in self.cut:
                return  # no route: it never opens
            self.rejoining[data["id"]] = (name, peer)
            if not data["ufrag"]:  # for the one-scan code: the browser's own credentials
                self.deliver(name, "live-rejoin-answered", ANSWER_SDP, peer=peer, id=data["id"])
            elif data["id"] in self.expected and data["id"] in self.standbys:
                self.open_standby(data["id"])

    def open_standby(self, standby_id: int):
        """A standby opens: the phone that rejoined it and its holder are joined by a channel."""
        holder, holder_peer = self.standbys.pop(standby_id)
        phone, peer = self.rejoining.pop(standby_id)
        self.channels[(holder, holder_peer)] = (phone, peer)
        self.channels[(phone, peer)] = (holder, holder_peer)
        self.deliver(holder, "live-event", peer=holder_peer, event="open", detail="standby")
        self.deliver(phone, "live-event", peer=peer, event="open", detail="")

    def late_open(self, name: str, peer: str, standby_id: int) -> bool:
        """Rejoin `standby_id`'s channel opens late: after the phone gave up on it and moved on, before
        live.js began what that queued. live.js reports it only while it is still that peer's connection:
        a close the phone queued runs at once (in the same task as the step), a new rejoin replaces the
        old connection only once it starts (it waits on the key first). True when it was reported."""
        if any(kind == commands.LIVE_CLOSE and data["peer"] == peer for kind, data in self.phones[name].commands):
            return False
        self.open_standby(standby_id)
        return True

    # --- As people do it --------------------------------------------------------------------------

    def code_on(self, name: str, peer: str | None = None) -> str:
        table = self.phones[name].live
        showing = [one for one in table.peers.values() if one.code and (peer is None or one.id == peer)]
        assert len(showing) == 1, [(one.id, one.state) for one in table.peers.values()]
        return showing[0].code

    def join(self, gm: str, player: str, role: str | None = None, peer: str | None = None):
        """The two scans: the GM's phone shows an offer, the player's scans it and shows its answer,
        the GM's scans that. `role`: the player then says who holds the phone (on a first join)."""
        self.first_scan(gm, player, peer)
        tap(self.phones[gm], "live-scanned", value=self.code_on(player))
        self.run()
        if role is not None:
            tap(self.phones[player], "role-pick", role=role)
            self.run()

    def first_scan(self, gm: str, player: str, peer: str | None = None):
        """The GM's phone shows an offer (for phone `peer` again, if given); the player's scans it and
        shows its answer."""
        tap(self.phones[gm], "live-connect", **({"peer": peer} if peer else {}))
        self.run()
        tap(self.phones[player], "scan-found", value=self.code_on(gm))
        self.run()

    def lose(self, name: str):
        """A phone's channel goes down (screen locked, walked away): both ends say so."""
        for (phone, peer), (other, other_peer) in list(self.channels.items()):
            if phone == name:
                self.channels.pop((phone, peer))
                self.channels.pop((other, other_peer), None)
                self.deliver(phone, "live-event", peer=peer, event="failed", detail="lost")
                self.deliver(other, "live-event", peer=other_peer, event="failed", detail="lost")
        self.run()


def seal_for(gm, sheet: str, card: str = "Hostility", difficulty: int = 5):
    """The GM's phone seals a Manner Cards Test for the character of roster sheet `sheet` (the GM says the
    difficulty; the Complication lies face down on this phone, then its seal goes out)."""
    tap(gm, "switch-system", system="manners")
    tap(gm, "manners-who", side="player", value=sheet)
    tap(gm, "manners-gm-mode", value="says")
    tap(gm, "manners-difficulty", value=difficulty)
    tap(gm, "manners-seal-pick", value=card)
    tap(gm, "manners-seal-share")
