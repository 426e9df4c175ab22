"""What a phone of a live table sends: after every change, what changed (ui.core.step queues
commands.live_sync, whose runner calls `outgoing`); on a new channel its hello; and its side of
the catch-up walk (session.live.catchup), reading its own log from the log store.

Everything travels as links do (session.links.v2): the GM's phone sends the session (an S2 link:
the head, and the entries the others were not sent yet) to every phone; a player's phone sends
each roll it logs (an R2 link, with the call it answers) and its head when a tap changed it;
either sends its sealed-card steps (C2) to the phone on the other side of the exchange. Pure
Python: sending is queued as commands.live_send.
"""
from __future__ import annotations

from session.links.v2 import roll_message, session_link, sealed_message
from session.live import catchup as live_catchup
from session.live import protocol as live_protocol
from session.live.catchup import Holdings, Other, Page, Unread, log_print, wanted
from session.replica import entry_key

from ui.core import commands
from ui.core import live_table
from ui.core.state import AppState

CHUNK = 40  # log entries in one S2 message (a link reads at most 100)


def outgoing(state: AppState):
    """Send the other phones what changed since the last time (nothing when nothing did)."""
    table = live_table.live(state)
    if table is None or not table.open_peers() or state.session["id"] != table.session_id:
        return
    # Every change gives the session (and a sealed step, the replica's `sealed`) a new object: a tap
    # that changed neither (typing in a field, another screen) has nothing to pack and send.
    unchanged = [state.session, state.replica.sealed, state.role, [(peer.id, peer.role, peer.since)
                                                                     for peer in table.open_peers()]]
    last = table.sent.get("unchanged")
    if last is not None and last[0] is unchanged[0] and last[1] is unchanged[1] and last[2:] == unchanged[2:]:
        return
    table.sent["unchanged"] = unchanged
    if table.hub:
        relay(state, fresh_entries(state, table))
        phones = [{"who": peer.who, "role": peer.role, "since": peer.since} for peer in table.open_peers()]
        if phones != table.sent.get("phones"):
            table.sent["phones"] = phones
            broadcast(state, live_protocol.write(live_protocol.TABLE, phones=phones))
    else:
        send_rolls(state, table)
        head = session_link(state.replica, entries=[])
        if head != table.sent.get("head"):
            table.sent["head"] = head
            send(state, live_table.GM_PEER, live_protocol.link(head))
        if state.role != table.sent.get("role"):
            table.sent["role"] = state.role
            send(state, live_table.GM_PEER, live_protocol.write(live_protocol.WHO, **identity(state)))
    send_steps(state, table)


def fresh_entries(state: AppState, table: live_table.LiveTable) -> list[dict]:
    """Entries in memory the other phones were not sent (nor sent us), oldest first; noted as sent."""
    fresh = sorted((entry for entry_id, entry in state.replica.log.items() if entry_id not in table.known),
                   key=entry_key)
    table.known.update(entry["id"] for entry in fresh)
    return fresh


def relay(state: AppState, entries: list[dict], origin: str = ""):
    """(GM) The session's head and these entries to every live phone but `origin`'s."""
    table = live_table.live(state)
    head = session_link(state.replica, entries=[])
    if not entries and head == table.sent.get("head"):
        return
    table.sent["head"] = head
    table.known.update(entry["id"] for entry in entries)
    for message in session_messages(state, entries):
        broadcast(state, message, but=origin)


def session_messages(state: AppState, entries: list[dict]) -> list[str]:
    if not entries:
        return [live_protocol.link(session_link(state.replica, entries=[]))]
    return [live_protocol.link(session_link(state.replica, entries=entries[at:at + CHUNK]))
            for at in range(0, len(entries), CHUNK)]


def send_rolls(state: AppState, table: live_table.LiveTable):
    """(Player) each roll this phone logged since the last change, to the GM's phone."""
    call = open_call(state, table)
    for entry in fresh_entries(state, table):
        if entry["device"] != state.device or entry["id"] in state.replica.undone:
            continue  # the GM's own, merged here; or taken back already
        answering = call is not None and entry.get("record", {}).get("system") == call["system"]
        send(state, live_table.GM_PEER, live_protocol.link(roll_message(state.replica, entry["id"]),
                                                       call["id"] if answering else ""))
        if answering:
            call["rolled"] = True


def open_call(state: AppState, table: live_table.LiveTable) -> dict | None:
    """(Player) the GM's call this phone has not answered yet."""
    return next((call for call in table.calls.values() if not call.get("rolled")), None)


def send_steps(state: AppState, table: live_table.LiveTable):
    """A sealed-card exchange's steps this phone took, to the phone on its other side."""
    draft = state.drafts.get("manners")
    exchange = draft.get("exchange") if isinstance(draft, dict) else None
    if exchange is None or not exchange.get("last"):
        return
    mine = [message for message in state.replica.sealed.get(exchange["id"], {}).values()
            if message["by"] == exchange["role"]]
    if not mine:
        return
    order = {"seal": 0, "lock": 1, "reveal": 2}
    fragment = sealed_message(state.session["id"], state.session["name"],
                              sorted(mine, key=lambda message: order.get(message["t"], 3)))
    if fragment in table.sent_steps:
        return
    table.sent_steps.add(fragment)
    if not table.hub:
        send(state, live_table.GM_PEER, live_protocol.link(fragment))
        return
    sides = {draft.get(role, {}).get("ref") for role in ("player", "opponent")}
    for peer in table.open_peers():
        if peer.role in sides:
            send(state, peer.id, live_protocol.link(fragment))


def identity(state: AppState) -> dict:
    """Who holds this phone, as a hello or `who` says it."""
    if state.role == live_table.GM_PEER or (state.role is None and live_table.live(state).hub):
        return {"role": live_protocol.GM, "who": ""}
    entry = state.entry(state.role) if state.role else None
    return {"role": state.role if entry is not None else "", "who": entry["name"] if entry is not None else ""}


def send(state: AppState, peer: str, text: str):
    commands.live_send(state, peer, text)


def broadcast(state: AppState, text: str, but: str = ""):
    for peer in live_table.live(state).open_peers():
        if peer.id != but:
            send(state, peer.id, text)


# --- A new channel: the hello, and the catch-up walk ----------------------------------------------

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
    table = live_table.live(state)
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
    table = live_table.live(state)
    if table.hub:
        entries = sorted((twin.log[entry_id] for entry_id in ids), key=entry_key)
        for at in range(0, len(entries), CHUNK):
            send(state, peer, live_protocol.link(session_link(twin, entries=entries[at:at + CHUNK])))
        return
    for entry_id in ids:
        if entry_id not in twin.undone:
            send(state, peer, live_protocol.link(roll_message(twin, entry_id)))
