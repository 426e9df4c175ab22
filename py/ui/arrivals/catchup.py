"""A live table's catch-up, this phone's side: its hello on a new channel, and the walk
(session.live.catchup) that compares its log with the other phone's, reading its own log from
the log store and sending what the other lacks. The messages that drive it (hello, have, want)
come in through ui.arrivals.messages; the sends go as ui.core.outgoing sends them. Pure Python.
"""
from __future__ import annotations

from session.links.v2 import roll_message, session_link
from session.live import catchup as live_catchup
from session.live import protocol as live_protocol
from session.live.catchup import Holdings, Other, Page, Unread, log_print, wanted
from session.replica import entry_key

from ui.core import live_table
from ui.core.outgoing import CHUNK, identity, send
from ui.core.state import AppState


async def every_id(state: AppState) -> tuple[set[str], str]:
    """The id of every entry this phone keeps of the open session (stored, or only in memory), and
    of its oldest ("" when it keeps none)."""
    ids = set(state.replica.log)
    in_memory = min(state.replica.log.values(), key=entry_key)["id"] if state.replica.log else ""
    if state.library is None or state.replica.complete:
        return ids, in_memory
    index = await state.library.log.index(state.replica.id)  # oldest first
    ids.update(entry_id for entry_id, _ in index)
    return ids, index[0][0] if index else in_memory


async def send_hello(state: AppState, peer: str):
    """This phone's hello on a new channel: who holds it, the session as a link carries it (the GM's
    with its newest entries; a player's head only: its rolls go as rolls), and its log's print."""
    table = live_table.of(state)
    ids, oldest = await every_id(state)
    session = session_link(state.replica) if table.hub else session_link(state.replica, entries=[])
    table.known.update(ids)  # read from the log store later, they are not new: the catch-up covers them
    table.sent["hello"] = state.session["id"]
    if not table.hub:
        table.sent.update(head=session_link(state.replica, entries=[]), role=state.role)
    send(state, peer, live_protocol.hello(state.device, **identity(state), session=session, count=len(ids),
                                          print_=log_print(ids), oldest=oldest))


async def holdings(state: AppState, depth: int, ids: set[str]) -> tuple[Holdings, object]:
    """This phone's log read `depth` entries down, and the copy of the replica holding them."""
    twin = state.replica.copy()
    while len(twin.log) < depth and not twin.complete and state.library is not None:
        gained, _ = await state.library.older(twin, live_catchup.PAGE)
        if not gained and not twin.complete:
            break
    keys = sorted((entry_key(entry) for entry in twin.log.values()), reverse=True)
    return Holdings(keys, twin.complete or state.library is None, log_print(ids)), twin


async def read_until(state: AppState, attempt):
    """attempt(holdings, twin, ids), reading further down the log while it says it needs more."""
    ids, _ = await every_id(state)
    depth = live_catchup.PAGE
    while True:
        mine, twin = await holdings(state, depth, ids)
        try:
            return attempt(mine, twin, ids)
        except Unread:
            if mine.complete:
                raise
            depth = len(mine.keys) + 2 * live_catchup.PAGE


async def note_reach(state: AppState, peer: live_table.Peer, oldest: str):
    """Where the other phone's log starts, and whether this phone held that entry then (its log was cut)."""
    ids, _ = await every_id(state)
    peer.oldest, peer.holds_oldest = oldest, oldest in ids


def reach(peer: live_table.Peer) -> Other:
    return Other(peer.oldest, peer.holds_oldest)


async def start_walk(state: AppState, peer: live_table.Peer, hello: dict):
    """(GM) A player's phone said hello: compare logs, unless their prints agree."""
    ids, _ = await every_id(state)
    if log_print(ids) == hello["print"]:
        return
    page = await read_until(state, lambda mine, twin, ids: live_catchup.first_page(mine))
    peer.pages = 1
    send(state, peer.id, live_protocol.have(page.to, page.keys, page.more, page.rest))


async def answer_page(state: AppState, peer: live_table.Peer, message: dict):
    """The other phone's page of the walk: send what it lacks, ask for what this one lacks, go on."""
    page = Page(message["to"], tuple(message["keys"]), message["more"], message["rest"])
    result, twin = await read_until(
        state, lambda mine, twin, ids: (live_catchup.answer(page, mine, reach(peer), peer.pages), twin))
    push(state, peer.id, twin, [key[2] for key in result.send])
    if result.want:
        send(state, peer.id, live_protocol.write(live_protocol.WANT, ids=result.want))
    if result.next is not None:
        peer.pages += 1
        send(state, peer.id, live_protocol.have(result.next.to, result.next.keys, result.next.more,
                                                result.next.rest))


async def answer_want(state: AppState, peer: live_table.Peer, ids: list[str]):
    """The entries the other phone asked for (those of this phone's pages), but those it may not take."""
    keys, twin = await read_until(state, lambda mine, twin, held: (wanted(ids, mine, reach(peer)), twin))
    push(state, peer.id, twin, [key[2] for key in keys])


def push(state: AppState, peer: str, twin, ids: list[str]):
    """Entries of this phone's log for the other phone: a player's as rolls, the GM's as the session."""
    if not ids:
        return
    table = live_table.of(state)
    if table.hub:
        entries = sorted((twin.log[entry_id] for entry_id in ids), key=entry_key)
        for at in range(0, len(entries), CHUNK):
            send(state, peer, live_protocol.link(session_link(twin, entries=entries[at:at + CHUNK])))
        return
    for entry_id in ids:
        if entry_id not in twin.undone:
            send(state, peer, live_protocol.link(roll_message(twin, entry_id)))
