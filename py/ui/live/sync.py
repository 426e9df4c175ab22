"""What a phone of a live table sends: after every change, what changed (ui.core.step queues
effects.live_sync, whose runner calls `outgoing`); on a new channel its hello; and its side of
the catch-up walk (session.live.catchup), reading its own log from the log store a page at a
time, each page once a walk (`Walk`), and what it holds in a few numbers (`held_log`).

Everything travels as links do (session.links.v2): the GM's phone sends the session (an S2 link:
the head, and the entries the others were not sent yet) to every phone; a player's phone sends
each roll it logs (an R2 link, with the call it answers) and its head when a tap changed it;
either sends its sealed-card steps (C2) to the phone on the other side of the exchange. Pure
Python: sending is queued as effects.live_send.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from session.links.v2 import roll_message, session_link, sealed_message
from session.live import catchup as live_catchup
from session.live import protocol as live_protocol
from session.live.catchup import Holdings, Other, Page, Unread, first_page, print_text, wanted
from session.logbook import Held
from session.replica import Replica, entry_key

from ui.core import effects
from ui.core import live as model
from ui.core.state import AppState

CHUNK = 40  # log entries in one S2 message (a link reads at most 100)


def outgoing(state: AppState):
    """Send the other phones what changed since the last time (nothing when nothing did)."""
    table = model.live(state)
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
            send(state, model.GM_PEER, live_protocol.link(head))
        if state.role != table.sent.get("role"):
            table.sent["role"] = state.role
            send(state, model.GM_PEER, live_protocol.write(live_protocol.WHO, **identity(state)))
    send_steps(state, table)


def fresh_entries(state: AppState, table: model.LiveTable) -> list[dict]:
    """Entries in memory the other phones were not sent (nor sent us), oldest first; noted as sent."""
    fresh = sorted((entry for entry_id, entry in state.replica.log.items() if entry_id not in table.known),
                   key=entry_key)
    table.known.update(entry["id"] for entry in fresh)
    return fresh


def relay(state: AppState, entries: list[dict], origin: str = ""):
    """(GM) The session's head and these entries to every live phone but `origin`'s."""
    table = model.live(state)
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


def send_rolls(state: AppState, table: model.LiveTable):
    """(Player) each roll this phone logged since the last change, to the GM's phone."""
    call = open_call(state, table)
    for entry in fresh_entries(state, table):
        if entry["device"] != state.device or entry["id"] in state.replica.undone:
            continue  # the GM's own, merged here; or taken back already
        answering = call is not None and entry.get("record", {}).get("system") == call["system"]
        send(state, model.GM_PEER, live_protocol.link(roll_message(state.replica, entry["id"]),
                                                       call["id"] if answering else ""))
        if answering:
            call["rolled"] = True


def open_call(state: AppState, table: model.LiveTable) -> dict | None:
    """(Player) the GM's call this phone has not answered yet."""
    return next((call for call in table.calls.values() if not call.get("rolled")), None)


def send_steps(state: AppState, table: model.LiveTable):
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
        send(state, model.GM_PEER, live_protocol.link(fragment))
        return
    sides = {draft.get(role, {}).get("ref") for role in ("player", "opponent")}
    for peer in table.open_peers():
        if peer.role in sides:
            send(state, peer.id, live_protocol.link(fragment))


def identity(state: AppState) -> dict:
    """Who holds this phone, as a hello or `who` says it."""
    if state.role == model.GM_PEER or (state.role is None and model.live(state).hub):
        return {"role": live_protocol.GM, "who": ""}
    entry = state.entry(state.role) if state.role else None
    return {"role": state.role if entry is not None else "", "who": entry["name"] if entry is not None else ""}


def send(state: AppState, peer: str, text: str):
    effects.live_send(state, peer, text)


def broadcast(state: AppState, text: str, but: str = ""):
    for peer in model.live(state).open_peers():
        if peer.id != but:
            send(state, peer.id, text)


# --- A new channel: the hello, and the catch-up walk ----------------------------------------------

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


def begin(state: AppState, peer: model.Peer) -> Walk:
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
    table = model.live(state)
    held = await held_log(state)
    session = session_link(state.replica) if table.hub else session_link(state.replica, entries=[])
    table.known.update(held.ids)  # read from the log store later, they are not new: the catch-up covers them
    table.sent["hello"] = state.session["id"]
    if not table.hub:
        table.sent.update(head=session_link(state.replica, entries=[]), role=state.role)
    send(state, peer, live_protocol.hello(state.device, **identity(state), session=session, count=len(held.ids),
                                          print_=print_text(held.print), oldest=held.oldest_id))


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


async def note_reach(state: AppState, peer: model.Peer, oldest: str):
    """A hello: where the other phone's log starts, and whether this phone held that entry then (its
    log was cut). A new channel's walk begins."""
    held = await held_log(state)
    peer.oldest, peer.holds_oldest = oldest, oldest in held.ids
    peer.walk = None


def reach(peer: model.Peer) -> Other:
    return Other(peer.oldest, peer.holds_oldest)


async def start_walk(state: AppState, peer: model.Peer, hello: dict):
    """(GM) A player's phone said hello: compare logs, unless their prints agree."""
    if print_text((await held_log(state)).print) == hello["print"]:
        return
    walk = begin(state, peer)
    page = await walking(state, walk, first_page)
    walk.pages = 1
    send(state, peer.id, live_protocol.have(page.to, page.keys, page.more, page.rest))


async def answer_page(state: AppState, peer: model.Peer, message: dict):
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


async def answer_want(state: AppState, peer: model.Peer, ids: list[str]):
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
    if model.live(state).hub:
        entries = sorted((twin.log[entry_id] for entry_id in ids), key=entry_key)
        for at in range(0, len(entries), CHUNK):
            send(state, peer, live_protocol.link(session_link(twin, entries=entries[at:at + CHUNK])))
        return
    for entry_id in ids:
        if entry_id not in twin.undone:
            send(state, peer, live_protocol.link(roll_message(twin, entry_id)))
