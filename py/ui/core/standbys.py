"""Rejoining a live table with no scan, this phone's side (session.live.standby says how it works):
the standbys it holds for each live phone (armed after every new channel, older ones dropped once
the new ones are armed), the ways back it stores for the others (`state.rejoin`, kept with the table
in progress), and after a reload, rejoining through them: quietly where the browser takes changed
ICE credentials (its once-per-start probe says), else with the one-scan code, else with the two
scans as before. Every attempt burns its way back (single-use) and is given REJOIN_SECONDS.
Pure Python.
"""
from __future__ import annotations

from dataclasses import dataclass

from session import untrusted
from session.live import protocol as live_protocol
from session.live import signal as live_signal
from session.live import standby as live_standby
from session.live.signal import LiveCodeError
from session.live.standby import KEPT, MUNGE, SCAN, StandbyError, Way, Ways

from ui.core import commands
from ui.core import live_table
from ui.core.live_table import peer_name
from ui.core.outgoing import send
from ui.core.state import AppState

SPARES = len(KEPT)  # standbys made again per channel for ones that came to nothing: a phone with no address stops
REJOIN_SECONDS = 3  # one quiet attempt: measured 30-450 ms from the rejoin to open, a killed page's included
NO_WAY_BACK = ("{who} could not be rejoined (it may have reloaded too, or left the Wi-Fi). {then} Nothing is lost "
               "meanwhile.")
# Every way back led nowhere: they were all in the other phone's page, and that page is gone (most often it
# reloaded at about the same moment as this one, and no new page knows where the other's new one listens).
GONE_TOO = ("{who} seems to have restarted at about the same moment as this one (or its app was closed, or it "
            "left the Wi-Fi), so this phone can't rejoin it on its own. {then} Nothing is lost meanwhile.")
GM_THEN = ("Scan the code shown on the GM's phone: the GM taps “New code” on its Live table, then you tap “Scan the "
           "GM's code”. Your rolls reach the GM's phone once you are back.")
HUB_THEN = "On the Live table, tap “New code” for it: its player scans that code, then this phone scans theirs (two scans)."
SHOW_CODE = {False: "This browser can't rejoin on its own: show the code below to the GM's phone, which scans it "
                    "with “Scan its rejoin code” (one scan), or ask the GM for a new code.",
             True: "This browser can't rejoin on its own: show the code below to {who}, which scans it with “Scan a "
                   "new code from the GM” (one scan)."}
UNUSED_CODE = ("This rejoin code is for a phone this one is not waiting on (an older code, or another table's). "
               "Ask that phone for its new code.")


@dataclass
class Held:
    """A standby this phone holds for another: its kind, and once that phone stored it, its key's fingerprint."""
    mode: str
    print: str = ""
    armed: bool = False


# --- Holding standbys for the other phone -------------------------------------------------------

def arm(state: AppState, peer: live_table.Peer):
    """A new channel, its hellos about this table's session: a fresh set of standbys for that phone
    (once a channel); those it held go once these are armed."""
    table = live_table.of(state)
    if peer.arming or state.session["id"] != table.session_id:
        return
    peer.spares = 0
    trim(state, peer)
    for mode in KEPT:
        make(state, peer, mode)


def trim(state: AppState, peer: live_table.Peer):
    """Before a new set: of the standbys held for `peer`, only the newest armed set stays. A channel
    cut while its set was being armed leaves standbys never armed, or a set partly armed; kept, the
    new set's `keep` and its drop would list more than MAX_WAYS ids, which no message may carry, and
    no way back would be stored again."""
    armed_ids = [one for one, held in peer.held.items() if held.armed][-len(KEPT):]
    gone = [one for one in peer.held if one not in armed_ids]
    for one in gone:
        del peer.held[one]
        commands.live_drop(state, one)
    for start in range(0, len(gone), live_standby.MAX_WAYS):
        send(state, peer.id, live_protocol.write(live_protocol.DROP, ids=gone[start:start + live_standby.MAX_WAYS]))


def make(state: AppState, peer: live_table.Peer, mode: str):
    """One standby of the set being armed for `peer`: static/live.js makes it ("live-standby-made")."""
    standby_id = live_standby.new_id()
    peer.held[standby_id] = Held(mode)
    peer.arming.add(standby_id)
    commands.live_standby(state, peer.id, standby_id)


def made(state: AppState, peer_id: str, standby_id: int, sdp: str):
    """A standby's offer is ready: to the other phone, which stores it as a way back."""
    table = live_table.of(state)
    peer = table.peers.get(peer_id) if table is not None else None
    held = peer.held.get(standby_id) if peer is not None else None
    if held is None or peer.state not in (live_table.OPEN, live_table.INTERRUPTED):
        commands.live_drop(state, standby_id)
        return
    try:
        offer = live_signal.from_sdp(live_signal.OFFER, sdp, standby_id)
    except LiveCodeError:  # no address to offer (none gathered in time, under load): this one would never open
        came_to_nothing(state, peer_id, standby_id)
        return
    if held.mode == MUNGE and live_signal.from_firefox(offer):  # Firefox gives up an answered standby in
        del peer.held[standby_id]  # seconds: it keeps the scan one only, which waits unanswered
        peer.arming.discard(standby_id)
        commands.live_drop(state, standby_id)
        settle(state, peer)
        return
    send(state, peer.id, live_protocol.write(live_protocol.STANDBY, id=standby_id, mode=held.mode, offer=offer.code(),
                                             keep=sorted(peer.held)))


def came_to_nothing(state: AppState, peer_id: str, standby_id: int):
    """A standby gathered no address, or the browser could not make it: another of its kind instead
    (within SPARES a channel), so the other phone still stores every way back, and the older standbys
    go only once a whole new set is armed. Dropped with nothing in its place, the set would stay short
    until the next channel, or (the browser's failure, unseen) never be armed at all."""
    table = live_table.of(state)
    peer = table.peers.get(peer_id) if table is not None else None
    held = peer.held.pop(standby_id, None) if peer is not None else None
    if held is None:
        return
    commands.live_drop(state, standby_id)
    was_arming = standby_id in peer.arming
    peer.arming.discard(standby_id)
    if was_arming and peer.state in (live_table.OPEN, live_table.INTERRUPTED) and peer.spares < SPARES:
        peer.spares += 1
        make(state, peer, held.mode)
    else:
        settle(state, peer)


def armed(state: AppState, peer: live_table.Peer, message: dict):
    """The other phone stored a standby: a munge one gets its answer now, a scan one on the code."""
    held = peer.held.get(message["id"])
    if held is None or held.armed or (held.mode == MUNGE) != bool(message["ufrag"]):
        return
    held.print, held.armed = message["print"], True
    if held.mode == MUNGE:
        commands.live_expect(state, message["id"], live_standby.answer_sdp(
            message["id"], message["ufrag"], message["pwd"], message["print"]))
    settle(state, peer)


def settle(state: AppState, peer: live_table.Peer):
    """Once every standby of the new set is armed, the older ones go, here and on the other phone."""
    if peer.arming and all(peer.held[one].armed for one in peer.arming if one in peer.held):
        old = [one for one in peer.held if one not in peer.arming]
        for one in old:
            del peer.held[one]
            commands.live_drop(state, one)
        if old:
            send(state, peer.id, live_protocol.write(live_protocol.DROP, ids=old))


def take_code(state: AppState, text: str) -> bool:
    """A rejoining phone's one-scan code: its scan standby gets the answer it names."""
    try:
        standby_id, ufrag, pwd = live_standby.read_rejoin_code(text)
    except StandbyError as error:
        state.fail(str(error))
        return False
    table = live_table.of(state)
    peer = next((one for one in (table.peers.values() if table is not None else [])
                 if standby_id in one.held), None)
    held = peer.held[standby_id] if peer is not None else None
    if held is None or held.mode != SCAN or not held.armed:
        state.fail(UNUSED_CODE)
        return False
    commands.live_expect(state, standby_id, live_standby.answer_sdp(standby_id, ufrag, pwd, held.print))
    del peer.held[standby_id]  # single-use
    state.message = None
    state.screen = "live"
    state.announcement = f"Rejoining {peer_name(state, peer).lower()}…"
    return True


def expect_failed(state: AppState, standby_id: int):
    """The browser refused an answer for a standby: it is gone; the next channel arms new ones."""
    table = live_table.of(state)
    for peer in (table.peers.values() if table is not None else []):
        peer.held.pop(standby_id, None)


# --- The ways back this phone stores ------------------------------------------------------------

def store(state: AppState, peer: live_table.Peer, message: dict):
    """Another phone's standby: stored as a way back (with the credentials this phone will answer a
    munge one with), and said with this phone's key, which the standby pins."""
    table = live_table.of(state)
    if not table.print or state.session["id"] != table.session_id:  # no key here (the probe failed), or
        return  # not yet in the table's session: no standby could take this phone's handshake
    if state.rejoin is None or state.rejoin.hub != table.hub:
        state.rejoin = Ways(table.hub)
    ufrag, pwd = live_standby.new_credentials() if message["mode"] == MUNGE else ("", "")
    state.rejoin.add(peer.id, Way(message["id"], message["mode"], message["offer"], ufrag, pwd), message["keep"])
    remember(state, peer)
    send(state, peer.id, live_protocol.write(live_protocol.ARMED, id=message["id"], ufrag=ufrag, pwd=pwd,
                                             print=table.print))


def drop(state: AppState, peer: live_table.Peer, ids: list[int]):
    if state.rejoin is not None:
        state.rejoin.drop(peer.id, ids)


def remember(state: AppState, peer: live_table.Peer):
    """Who a phone is, kept with its ways back (its hello says; after a reload it is known at once)."""
    back = state.rejoin.peers.get(peer.id) if state.rejoin is not None else None
    if back is not None:
        back.device, back.role, back.who = peer.device, peer.role, peer.who


# --- Rejoining after a reload ---------------------------------------------------------------------

def start(state: AppState) -> bool:
    """At start, with ways back stored: the live table again, each phone being rejoined (once the
    probe says how). False when none is stored."""
    ways = state.rejoin
    if ways is None or ways.empty():
        return False
    # The log as it stands is not new to the other phones: a player's rolls the GM's phone has not stored
    # are the ones kept with the table in progress (state.unconfirmed), sent again at the next channel.
    table = live_table.LiveTable(hub=ways.hub, session_id=state.session["id"], known=set(state.replica.log))
    for peer_id, back in ways.peers.items():
        if back.ways:
            table.peers[peer_id] = live_table.Peer(peer_id, state=live_table.CONNECTING, device=back.device,
                                                   role=back.role, who=back.who, rejoining=True)
    state.live = table
    commands.live_probe(state)
    return True


def probed(state: AppState, value: str):
    """The probe's answer: how this browser rejoins, and this phone's key; the phones being rejoined are tried."""
    table = live_table.of(state)
    if table is None:
        return
    try:
        found = untrusted.parse(value)  # live.js's own words, read like any text
        table.munge, table.print = found["munge"] is True, str(found["print"])
        live_standby.print_bytes(table.print)
    except (untrusted.BadJSON, ValueError, KeyError, TypeError, StandbyError):
        table.munge, table.print = False, ""
    for peer in list(table.peers.values()):
        if peer.rejoining and peer.state == live_table.CONNECTING and not peer.offer_id:
            try_next(state, peer)


def try_next(state: AppState, peer: live_table.Peer):
    """The next way back to `peer`: a quiet one while this browser takes changed credentials, else the
    one-scan code; with none left, the two scans as before, said in a sentence."""
    table = live_table.of(state)
    if peer.offer_id:
        # The attempt given up on goes now: live.js closes it in this very task, whereas the next rejoin
        # replaces it only once it starts, and an open of the old one meanwhile would be taken for the new.
        commands.live_close(state, peer.id)
    back = state.rejoin.peers.get(peer.id) if state.rejoin is not None else None
    quiet = back.take(MUNGE) if back is not None and table.munge and table.print else None
    if quiet is not None:
        peer.offer_id, peer.state = quiet.id, live_table.CONNECTING
        commands.live_rejoin(state, peer.id, quiet.id, quiet.offer.sdp(), quiet.ufrag, quiet.pwd)
        commands.live_wait(state, peer.id, quiet.id, REJOIN_SECONDS)
        return
    scan = back.take(SCAN) if back is not None and table.print else None
    if scan is not None and not (table.munge and peer.unreached):  # (else its page is the one that is gone)
        peer.offer_id, peer.state = scan.id, live_table.MAKING
        peer.problem = SHOW_CODE[table.hub].format(who=peer_name(state, peer))
        commands.live_rejoin(state, peer.id, scan.id, scan.offer.sdp())
        return
    peer.rejoining, peer.code = False, ""
    peer.state = live_table.FAILED
    commands.live_close(state, peer.id)  # the last attempt, still checking: its late failure would say otherwise
    peer.problem = (GONE_TOO if peer.unreached else NO_WAY_BACK).format(who=peer_name(state, peer),
                                                                        then=HUB_THEN if table.hub else GM_THEN)
    state.fail(peer.problem)


def answered(state: AppState, peer_id: str, standby_id: int, sdp: str):
    """(Scan mode) the answer this browser made itself: its credentials become the one-scan code."""
    table = live_table.of(state)
    peer = table.peers.get(peer_id) if table is not None else None
    if peer is None or peer.offer_id != standby_id or peer.state != live_table.MAKING:
        return
    try:
        signal = live_signal.from_sdp(live_signal.ANSWER, sdp, standby_id)
    except LiveCodeError:
        try_next(state, peer)
        return
    peer.code, peer.state = live_standby.rejoin_code(standby_id, signal.ufrag, signal.pwd), live_table.SHOWING
    state.screen = "live"  # the code is this phone's way back: on screen at once
    state.announcement = peer.problem


def gave_up(state: AppState, peer: live_table.Peer, standby_id: int | None = None, unreached: bool = True) -> bool:
    """An attempt did not open (refused, failed, or not open in time; `unreached`: no page answered it),
    or the one-scan code's connection failed (the page holding its standby is gone): the next way back.
    False when `peer` is not being rejoined (or the attempt is an older one)."""
    if not peer.rejoining or peer.state not in (live_table.CONNECTING, live_table.MAKING, live_table.SHOWING) or (
            standby_id is not None and standby_id != peer.offer_id):
        return False
    peer.unreached = peer.unreached or unreached
    try_next(state, peer)
    return True


def rejoined(peer: live_table.Peer):
    """A new channel to `peer`: rejoined, and standbys to arm for it."""
    peer.rejoining, peer.arming = False, set()
