"""What a phone of a live table does with what the others send, through the very functions that
open links (ui.arrivals.links): a session is merged (session.logbook.merge_in, a join:
nothing is overwritten), a roll is checked and added, a sealed-card step opens its exchange.

- A player's phone takes everything from the GM's phone at once: no "Update" tap. The first
  hello of a session it does not have joins it, as a link would.
- The GM's phone takes a player's roll at once when it checks out, or keeps it waiting for
  "Add" (`state.add_rolls`, the GM's choice per session); a player's head (sheets, undo marks)
  merges at once, its counts only with the rolls that changed them when rolls wait. Whatever the
  GM's phone takes goes on to every other live phone (ui.arrivals.catchup.relay).

Messages are read with session.live.protocol (bounded, untrusted) and merged one at a time, in
the order they came, by one background job: two merges at once would each start from the same
replica and one would be lost.
"""
from __future__ import annotations

import traceback

from session.links.text import LinkError
from session.links.v2 import read, session_link
from session.live import protocol as live_protocol
from session.live.protocol import LiveMessageError
from session.replica import Replica

from ui.core import commands
from ui.core import live_table
from ui.core.library import is_here
from ui.core.state import AppState
from ui.arrivals import catchup
from ui.screens.live import calls
from ui.screens.live.words import peer_name
from ui.arrivals import links
from ui.systems.summaries import safe_sentence


def receive(state: AppState, peer_id: str, text: str):
    """A message from phone `peer_id`: read now, merged in turn (a background job)."""
    table = live_table.live(state)
    peer = table.peers.get(peer_id) if table is not None else None
    if peer is None:
        return
    try:
        message = live_protocol.read(text)
    except LiveMessageError as error:
        state.fail(f"{peer_name(state, peer)}: {error}")
        return
    table.inbox.append((peer_id, message))
    if not table.draining:
        table.draining = True
        commands.job(state, drain, "A message from another phone could not be used. Nothing was changed.")


async def drain(state: AppState):
    table = live_table.live(state)
    try:
        while table.inbox:
            peer_id, message = table.inbox.pop(0)
            peer = table.peers.get(peer_id)
            if peer is None or peer.state not in (live_table.OPEN, live_table.INTERRUPTED):
                continue
            try:
                await HANDLERS[message.kind](state, peer, message.data)
            except Exception as error:  # one bad message must not stop the ones after it
                traceback.print_exception(error)
                state.fail(f"A message from {peer_name(state, peer).lower()} could not be used. Nothing was changed.")
    finally:
        table.draining = False


async def hello(state: AppState, peer: live_table.Peer, message: dict):
    table = live_table.live(state)
    peer.device, peer.role, peer.who = message["device"], message["role"], message["who"]
    await catchup.note_reach(state, peer, message["oldest"])  # before anything merges: what it had, not what it sent
    incoming = opened(state, peer, message["session"])
    if incoming is None or incoming.kind != "session":
        return
    if table.hub:
        if incoming.replica.id != table.session_id:
            return  # its phone had another session open: it joins this one and says hello again
        await take_head(state, peer, incoming.replica)
        await catchup.start_walk(state, peer, message)
        return
    said = table.sent.get("hello")  # the session this phone's own hello was about
    table.session_id = incoming.replica.id
    await take_session(state, incoming.replica)
    if said != table.session_id and state.session["id"] == table.session_id:
        await catchup.send_hello(state, peer.id)  # now about the GM's session: the walk can start


async def who(state: AppState, peer: live_table.Peer, message: dict):
    peer.role, peer.who = message["role"], message["who"]


async def link(state: AppState, peer: live_table.Peer, message: dict):
    table = live_table.live(state)
    incoming = opened(state, peer, message["link"])
    if incoming is None:
        return
    if incoming.kind == "sealed":
        links.open_link(state, message["link"])  # merges its steps and opens its exchange, as the link would
        return
    if incoming.version != 2 or incoming.replica.id != table.session_id:
        return  # another session's: not this table's
    if incoming.kind == "roll" and table.hub:
        await take_roll(state, peer, incoming, message["call"])
    elif incoming.kind == "session" and table.hub:
        await take_head(state, peer, incoming.replica)
    elif incoming.kind == "session":
        await take_session(state, incoming.replica)


def opened(state: AppState, peer: live_table.Peer, fragment: str):
    """The link a message carries, read like any link; None (and why, on screen) when it can't be."""
    try:
        return read(fragment)
    except LinkError as error:
        state.fail(f"{peer_name(state, peer)} sent a link that can't be opened. {error}")
        return None


async def take_session(state: AppState, incoming: Replica):
    """(Player) The GM's session: joined the first time, merged after."""
    table = live_table.live(state)
    if not is_here(state, incoming.id):
        links.join(state, incoming)
    elif not await links.merged_here(state, incoming):
        return
    table.known.update(incoming.log)
    table.sent["head"] = session_link(state.replica, entries=[])  # what came in need not go back


async def take_head(state: AppState, peer: live_table.Peer, incoming: Replica):
    """(GM) A player's head: sheets, undo marks and sealed steps at once; its counts too unless
    rolls wait for "Add" (then they come with each roll added). Its log comes as rolls."""
    at_once = state.add_rolls == live_table.ADD_AT_ONCE
    roster = {key: entry if at_once else {**entry, "counts": {}} for key, entry in incoming.roster.items()}
    head = Replica(incoming.id, incoming.clock, incoming.fields, incoming.tension if at_once else {}, roster,
                   {}, incoming.undone, incoming.sealed)
    if await links.merged_here(state, head):
        catchup.relay(state, [], origin=peer.id)


async def take_roll(state: AppState, peer: live_table.Peer, incoming, call_id: str):
    """(GM) A player's roll: into the round it answers, then added at once or kept for "Add"."""
    table = live_table.live(state)
    entry = incoming.roll
    calls.note_roll(state, peer, entry, call_id)
    item = {"peer": peer.id, "incoming": incoming.replica, "entry_id": entry["id"], "entry": entry,
            "problems": incoming.problems, "by": entry.get("by", ""), "at": entry.get("at", ""),
            "state": "checking", "addable": False}
    await links.compare_roll(state, item)
    if item["state"] in ("already", "undone", "unmergeable") or any(
            other["entry_id"] == entry["id"] for other in table.waiting):
        return
    if state.add_rolls == live_table.ADD_AT_ONCE and item["addable"]:
        await add(state, item)
        return
    table.waiting.append(item)
    if item["problems"]:
        state.fail(f"{peer_name(state, peer)} sent a roll that does not check out, so it was not added: "
                   f"{item['problems'][0]}")
    else:
        state.announcement = f"{peer_name(state, peer)} logged a roll: it waits for you to add it."


async def add(state: AppState, item: dict) -> bool:
    """(GM) A checked roll merged into the session (links.merged_here), then sent on to every phone."""
    table = live_table.live(state)
    if not await links.merged_here(state, item["incoming"], item.get("stored")):
        return False
    table.waiting = [other for other in table.waiting if other["entry_id"] != item["entry_id"]]
    catchup.relay(state, [item["entry"]], origin=item["peer"])
    by = item["by"] or "A player"
    state.say(f"{by} rolled: {safe_sentence(item['entry']['record'])}", "success")
    return True


async def have(state: AppState, peer: live_table.Peer, message: dict):
    await catchup.answer_page(state, peer, message)


async def want(state: AppState, peer: live_table.Peer, message: dict):
    await catchup.answer_want(state, peer, message["ids"])


async def call(state: AppState, peer: live_table.Peer, message: dict):
    if not live_table.live(state).hub:
        calls.open_call(state, message)


async def end(state: AppState, peer: live_table.Peer, message: dict):
    live_table.live(state).calls.pop(message["id"], None)


async def table(state: AppState, peer: live_table.Peer, message: dict):
    if not live_table.live(state).hub:
        live_table.live(state).others = message["phones"]


HANDLERS = {live_protocol.HELLO: hello, live_protocol.WHO: who, live_protocol.LINK: link,
            live_protocol.HAVE: have, live_protocol.WANT: want, live_protocol.CALL: call,
            live_protocol.END: end, live_protocol.TABLE: table}
