"""A live table's catch-up, this phone's side: its hello on a new channel, and the walk
(session.live.catchup) that compares its log with the other phone's, reading its own log from
the log store a page at a time, each page once a walk (`Walk`), and what it holds in a few
numbers (`held_log`), and sending what the other lacks. The messages that drive it (hello, have,
want) come in through ui.arrivals.messages; the sends go as ui.core.outgoing sends them. Pure
Python.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from session.links.size import too_large
from session.links.v2 import LATEST, roll_message, session_link
from session.live import catchup as live_catchup
from session.live import protocol as live_protocol
from session.live.protocol import LiveMessageError
from session.live.catchup import Holdings, Other, Page, Unread, first_page, print_text, wanted
from session.logbook import Held
from session.replica import Replica, entry_key

from ui.core import live_table
from ui.core.outgoing import identity, not_carried, note_unconfirmed, send, send_session, session_messages
from ui.core.state import AppState
from ui.systems.anomaly import calls as anomaly_calls
from ui.systems.conflict import side_text
from ui.systems.tension import calls as tension_calls

# The systems whose calls may have the called phone's side roll first (session.live.protocol.FIRST_KINDS).
FIRST = {"tension": tension_calls, "anomaly": anomaly_calls}


@dataclass
class Walk:
    """This phone's side of one catch-up walk with another (session.live.catchup): its log as the
    walk read it (what was in memory when it began, then older pages, each read once), the pages
    it sent, what of the other's it answered, and the entries it sent. A hello, or a page from the
    top, begins a new one; each is bounded: MAX_PAGES pages and wants answered, each entry sent once."""
    read: Replica
    stopped: bool = False  # a page of the log store could not be read: the walk reads no further
    pages: int = 0  # pages this phone sent
    answered: int = 0  # the other phone's pages answered
    wants: int = 0  # the other phone's wants answered
    sent: set = field(default_factory=set)  # entry ids sent


def begin(state: AppState, peer: live_table.Peer) -> Walk:
    read = Replica(state.replica.id, log=dict(state.replica.log))
    read.complete = state.replica.complete or state.library is None
    peer.walk = Walk(read)
    return peer.walk


async def held_log(state: AppState) -> Held:
    """What this phone holds of the open session's log: every id, their print, the oldest."""
    if state.library is None:
        held = Held()
        held.add_entries(state.replica.log.values())
        return held
    return await state.library.held(state.replica)


async def send_hello(state: AppState, peer: str):
    """This phone's hello on a new channel: who holds it, the session as a link carries it (the GM's
    with its newest entries; a player's head only: its rolls go as rolls), and its log's print."""
    table = live_table.of(state)
    held = await held_log(state)
    session = session_link(state.replica) if table.hub else ""
    newest = []  # (the GM's) its newest entries, when they make its hello too large: sent after it instead
    if not session or too_large(session):
        newest = sorted(state.replica.live_log()[:LATEST], key=entry_key) if table.hub else []
        session = session_link(state.replica, entries=[])
    try:
        greeting = "" if too_large(session) else live_protocol.hello(
            state.device, **identity(state), session=session, count=len(held.ids), print_=print_text(held.print),
            oldest=held.oldest_id)
    except LiveMessageError as error:
        if error.sentence != live_protocol.TOO_LARGE:
            raise
        greeting = ""
    if not greeting:  # past what phones of this version open: nothing is sent, and why is said (on both)
        not_carried(state)
        if table.hub:
            table.told_unsent.discard(peer)  # a new channel: its phone may have restarted since it was told
            send_session(state, [peer], [])
        return
    if not table.hub and state.session["id"] == table.session_id:  # a player's, back in the GM's session
        note_unconfirmed(state, table)
    table.known.update(held.ids)  # read from the log store later, they are not new: the catch-up covers them
    table.sent["hello"] = state.session["id"]
    if not table.hub:
        table.sent.update(head=session_link(state.replica, entries=[]), role=state.role)
    send(state, peer, greeting)
    table.told_unsent.discard(peer)
    if newest:
        send_session(state, [peer], session_messages(state, newest))
    if not table.hub:  # (the GM's phone takes none of another session's)
        await send_unconfirmed(state, peer)


async def send_unconfirmed(state: AppState, peer: str):
    """(Player) Every roll the GM's phone has not said it stored, again, whatever its log holds (its
    log may be empty, or cut: the walk would not send them)."""
    ids = [entry_id for entry_id in state.unconfirmed if entry_id not in state.replica.undone]
    twin = state.replica.copy()
    missing = [entry_id for entry_id in ids if entry_id not in twin.log]
    if missing and state.library is not None:
        twin.log.update(await state.library.stored_entries(state.replica, missing))
    for entry_id in ids:
        if entry_id in twin.log:
            send(state, peer, live_protocol.link(roll_message(twin, entry_id)))
    for side in waiting_sides(state):
        send(state, peer, side_text(side))


def waiting_sides(state: AppState) -> list[dict]:
    """(Player) The sides this phone rolled first and sent (ui.systems.conflict.send_side) that the GM's
    phone has not said it stored, as their `side` messages (their dice settled since they were sent)."""
    sides = []
    for system, settling in FIRST.items():
        draft = state.drafts.get(system)
        called = draft.get("called") if draft else None
        if (called and called.get("first") == "here" and called["words"] and draft["logged"] is None
                and called["entry"] in state.unconfirmed):
            try:
                sides.append(settling.side_message(state))
            except settling.NotReady:
                continue
    return sides


async def holdings(state: AppState, walk: Walk) -> Holdings:
    """This phone's log as the walk has read it, with what came into memory since it began (down to
    where it read: an entry below would hide the stored ones between from its next page)."""
    floor = min(map(entry_key, walk.read.log.values()), default=None)
    for entry_id, entry in state.replica.log.items():
        if walk.read.complete or (floor is not None and entry_key(entry) >= floor):
            walk.read.log.setdefault(entry_id, entry)
    keys = sorted((entry_key(entry) for entry in walk.read.log.values()), reverse=True)
    return Holdings(keys, walk.read.complete, print_text((await held_log(state)).print), walk.stopped)


async def walking(state: AppState, walk: Walk, attempt):
    """attempt(holdings), reading the walk's next page of the log while it says it needs more."""
    while True:
        mine = await holdings(state, walk)
        try:
            return attempt(mine)
        except Unread:
            if mine.complete or mine.exhausted:
                raise
            gained, _ = await state.library.older(walk.read, live_catchup.PAGE)
            walk.stopped = not gained and not walk.read.complete


async def note_reach(state: AppState, peer: live_table.Peer, oldest: str):
    """A hello: where the other phone's log starts, and whether this phone held that entry then (its
    log was cut). A new channel's walk begins."""
    held = await held_log(state)
    peer.oldest, peer.holds_oldest = oldest, oldest in held.ids
    peer.walk = None


def reach(peer: live_table.Peer) -> Other:
    return Other(peer.oldest, peer.holds_oldest)


async def start_walk(state: AppState, peer: live_table.Peer, hello: dict):
    """(GM) A player's phone said hello: compare logs, unless their prints agree."""
    if print_text((await held_log(state)).print) == hello["print"]:
        return
    walk = begin(state, peer)
    page = await walking(state, walk, first_page)
    walk.pages = 1
    send(state, peer.id, live_protocol.have(page.to, page.keys, page.more, page.rest))


async def answer_page(state: AppState, peer: live_table.Peer, message: dict):
    """The other phone's page of the walk: send what it lacks, ask for what this one lacks, go on."""
    walk = peer.walk if peer.walk is not None and message["to"] is not None else begin(state, peer)
    if walk.answered >= live_catchup.MAX_PAGES:
        return  # more pages than a walk has: not answered
    walk.answered += 1
    page = Page(message["to"], tuple(message["keys"]), message["more"], message["rest"])
    result = await walking(state, walk, lambda mine: live_catchup.answer(page, mine, reach(peer), walk.pages))
    push(state, peer.id, walk, [key[2] for key in result.send])
    want = result.want
    if result.unsure and state.library is not None:  # deeper than the walk reads: looked up by id
        held = await state.library.stored_kinds(state.replica, result.unsure)
        want = want + [entry_id for entry_id in result.unsure if entry_id not in held]
    if want:
        send(state, peer.id, live_protocol.write(live_protocol.WANT, ids=want))
    if result.next is not None:
        walk.pages += 1
        send(state, peer.id, live_protocol.have(result.next.to, result.next.keys, result.next.more,
                                                result.next.rest))


async def answer_want(state: AppState, peer: live_table.Peer, ids: list[str]):
    """The entries the other phone asked for (those of this phone's pages), but those it may not take."""
    walk = peer.walk
    if walk is None or walk.wants >= live_catchup.MAX_PAGES:
        return  # this phone sent no page it could ask about, or not that many
    walk.wants += 1
    keys = wanted(ids, await holdings(state, walk), reach(peer))
    push(state, peer.id, walk, [key[2] for key in keys])


def push(state: AppState, peer: str, walk: Walk, ids: list[str]):
    """Entries of this phone's log for the other phone, each once a walk: a player's as rolls, the
    GM's as the session."""
    ids = [entry_id for entry_id in ids if entry_id not in walk.sent]
    if not ids:
        return
    walk.sent.update(ids)
    twin = state.replica.copy()
    twin.log.update({entry_id: walk.read.log[entry_id] for entry_id in ids})
    if live_table.of(state).hub:
        send_session(state, [peer], session_messages(
            state, sorted((twin.log[entry_id] for entry_id in ids), key=entry_key), twin))
        return
    for entry_id in ids:
        if entry_id not in twin.undone:
            send(state, peer, live_protocol.link(roll_message(twin, entry_id)))
