"""What this phone sends the other phones of a live table after a change: queued by
ui.core.step itself (`send_changes`, on its after-change path), so what changed leaves with the
change, as sends (commands.live_send) the shell hands to static/live.js.

Everything travels as links do (session.links.v2): the GM's phone sends the session (an S2 link:
the head, and the entries the others were not sent yet) to every phone; a player's phone sends
each roll it logs (an R2 link, with the call it answers) and its head when a tap changed it;
either sends its sealed-card steps (C2) to the phone on the other side of the exchange. A session grown
past what phones of this version open is not sent: it is kept, the phone says so (`carried`), and the GM's
tells each player's phone why nothing comes (`send_session`). Loaded
once a phone is live (start-up never needs the links' code). Pure Python.
"""
from __future__ import annotations

from session.links.size import too_large
from session.links.v2 import roll_message, session_link, sealed_message
from session.live import protocol as live_protocol
from session.live.protocol import LiveMessageError
from session.replica import Replica, entry_key

from ui.core import commands
from ui.core import live_table
from ui.core.persons import holding
from ui.core.state import AppState

CHUNK = 40  # log entries in one S2 message (a link reads at most 100)


def send_changes(state: AppState):
    """Send the other phones what changed since the last time (nothing when nothing did)."""
    table = live_table.of(state)
    if table is None or state.session["id"] != table.session_id:
        return
    if not table.open_peers():
        if not table.hub:
            note_unconfirmed(state, table)  # logged while not live: sent at the next channel
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
            message = carried(state, head)
            if message:
                send(state, live_table.GM_PEER, message)
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
    table = live_table.of(state)
    head = session_link(state.replica, entries=[])
    if not entries and head == table.sent.get("head"):
        return
    table.sent["head"] = head
    table.known.update(entry["id"] for entry in entries)
    messages = session_messages(state, entries)
    # Too large to send: the phone it came from is told too (it has its own change, not the session since).
    send_session(state, [peer.id for peer in table.open_peers() if peer.id != origin or not messages], messages)


def send_session(state: AppState, peers: list[str], messages: list[str]):
    """(GM) The session's messages (session_messages) to each of `peers`; when there are none (too large for
    phones of this version), an `unsent` instead, so the player's phone says why nothing comes: once to
    each phone until a session reaches it (a phone of this version before `unsent` says "damaged" on it)."""
    table = live_table.of(state)
    for peer in peers:
        if messages:
            table.told_unsent.discard(peer)
            for message in messages:
                send(state, peer, message)
        elif peer not in table.told_unsent:
            table.told_unsent.add(peer)
            send(state, peer, live_protocol.write(live_protocol.UNSENT))


def session_messages(state: AppState, entries: list[dict], replica: Replica | None = None) -> list[str]:
    """The messages that carry the session's head and `entries`, CHUNK entries to a message (fewer when
    a message would pass what phones of this version open); none, and why said here, when even the head
    with one entry would: then nothing is sent and the session is kept as it is."""
    replica = replica or state.replica
    chunks, messages = [entries[at:at + CHUNK] for at in range(0, len(entries), CHUNK)] or [[]], []
    while chunks:
        chunk = chunks.pop(0)
        fragment = session_link(replica, entries=chunk)
        if len(chunk) > 1 and too_large(fragment):
            chunks[:0] = [chunk[:len(chunk) // 2], chunk[len(chunk) // 2:]]
            continue
        message = carried(state, fragment)
        if not message:
            return []
        messages.append(message)
    return messages


def carried(state: AppState, fragment: str) -> str:
    """The message that carries session link `fragment`, or "" (and why, said on this phone) when it is
    past what phones of this version open (session.links.size) or what a live message holds."""
    if not too_large(fragment):
        try:
            return live_protocol.link(fragment)
        except LiveMessageError as error:
            if error.sentence != live_protocol.TOO_LARGE:  # past MAX_MESSAGE is said below; anything else is a bug
                raise
    not_carried(state)
    return ""


def not_carried(state: AppState):
    """Said on this phone when what it would send the others is too large for them to open."""
    state.fail(live_table.TOO_LARGE_TO_SEND)
    state.announcement = live_table.TOO_LARGE_TO_SEND


def send_rolls(state: AppState, table: live_table.LiveTable):
    """(Player) each roll this phone logged since the last change, to the GM's phone, unconfirmed
    until the GM's phone says it stored it (`confirmed`)."""
    call = unanswered_call(table)
    for entry in fresh_entries(state, table):
        if entry["device"] != state.device or entry["id"] in state.replica.undone:
            continue  # the GM's own, merged here; or taken back already
        unconfirmed(state, [entry["id"]])
        answering = (call is not None and entry.get("record", {}).get("system") == call["system"]
                     and call["kind"] not in live_protocol.FIRST_KINDS)  # those the GM's phone logs itself
        send(state, live_table.GM_PEER, live_protocol.link(roll_message(state.replica, entry["id"]),
                                                       call["id"] if answering else ""))
        if answering:
            call["rolled"] = True


# --- A roll is on the GM's phone once the GM's phone says it stored it ----------------------------------

def unconfirmed(state: AppState, ids: list[str]):
    """(Player) rolls on their way to the GM's phone, until it says it stored them (the oldest are let go
    beyond MAX_UNCONFIRMED: the catch-up walk still compares the logs)."""
    state.unconfirmed = [*state.unconfirmed, *(entry_id for entry_id in ids if entry_id not in state.unconfirmed)]
    del state.unconfirmed[:-live_table.MAX_UNCONFIRMED]


def note_unconfirmed(state: AppState, table: live_table.LiveTable):
    """(Player) this phone's rolls logged while it is not live."""
    unconfirmed(state, [entry_id for entry_id, entry in state.replica.log.items()
                        if entry["device"] == state.device and entry_id not in table.known
                        and entry_id not in state.replica.undone])


def confirmed(state: AppState, ids: list[str]):
    """(Player) the GM's phone stored these rolls: they are on the GM's phone now, and said so if the
    screen still says the newest is on its way."""
    stored = set(ids)
    if not stored & set(state.unconfirmed):
        return
    state.unconfirmed = [entry_id for entry_id in state.unconfirmed if entry_id not in stored]
    if state.message is not None and state.message.text == live_table.ON_ITS_WAY:
        state.say(live_table.ON_THE_GMS_PHONE, "success", passing=True)


def stored_roll(state: AppState, peer_id: str, entry_id: str):
    """(GM) A player's roll is in this phone's log: acknowledged once it is stored (`acknowledge`)."""
    ids = live_table.of(state).to_ack.setdefault(peer_id, [])
    if entry_id not in ids:
        ids.append(entry_id)


def acknowledge(state: AppState) -> bool:
    """(GM) Once nothing of the session waits for the log store, tell each player's phone which of
    its rolls are stored (run after every save and flush, by ui.keeping.runners); True when sent."""
    table = live_table.of(state)
    library = state.library
    if table is None or not table.to_ack:  # (a player's phone acknowledges sealed-card steps only)
        return False
    if library is not None and (library.pending(table.session_id) or library.stalled):
        return False
    unsaved = {entry["id"] for entry in state.replica.fresh} if library is not None else set()
    sent = False
    for peer in table.open_peers():
        ids = [entry_id for entry_id in table.to_ack.get(peer.id, []) if entry_id not in unsaved]
        for at in range(0, len(ids), live_protocol.PAGE):
            send(state, peer.id, live_protocol.write(live_protocol.ACK, ids=ids[at:at + live_protocol.PAGE]))
            sent = True
    # What is not saved yet waits for the next save; a closed channel's phone sends its rolls again.
    open_ids = {peer.id for peer in table.open_peers()}
    table.to_ack = {peer_id: [entry_id for entry_id in ids if entry_id in unsaved]
                    for peer_id, ids in table.to_ack.items() if peer_id in open_ids}
    table.to_ack = {peer_id: ids for peer_id, ids in table.to_ack.items() if ids}
    return sent


def end_call(state: AppState, call_id: str):
    """(GM) The round is over: the called phones put the call away (their rolls stay in the log), and a
    side rolled first for it that arrives afterwards is refused."""
    table = live_table.of(state)
    call = table.calls.get(call_id) if table is not None else None
    if call is None or call.get("ended"):
        return
    call["ended"] = True
    for peer in table.open_peers():
        if peer.role and peer.role in call["to"]:
            send(state, peer.id, live_protocol.write(live_protocol.END, id=call_id))


def unanswered_call(table: live_table.LiveTable) -> dict | None:
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
    for role in ("player",) if draft.get("kind") == "test" else ("player", "opponent"):
        peer = holding(state, table.open_peers(), draft.get(role, {}).get("ref") or "")
        if peer is not None:
            send(state, peer.id, live_protocol.link(fragment))


def identity(state: AppState) -> dict:
    """Who holds this phone, as a hello or `who` says it."""
    if state.role == live_table.GM_PEER or (state.role is None and live_table.of(state).hub):
        return {"role": live_protocol.GM, "who": ""}
    entry = state.entry(state.role) if state.role else None
    return {"role": state.role if entry is not None else "", "who": entry["name"] if entry is not None else ""}


def send(state: AppState, peer: str, text: str):
    commands.live_send(state, peer, text)


def broadcast(state: AppState, text: str):
    for peer in live_table.of(state).open_peers():
        send(state, peer.id, text)
