"""A sealed-card exchange on a live table (issue 30, item 5): each step reaches the phone that holds the
other side by itself, and this phone says it is there only once that phone stored it.

- A player's phone has one channel, to the GM's phone. In a Test the GM's phone is the other side. In
  a Confrontation between two players' phones the GM's phone keeps each step (the session holds every
  exchange's messages) and passes it on to the phone that holds the other side (`passed_on`), its own
  table untouched; once both cards are turned over it says the result too.
- Whoever receives a step acknowledges it (the live table's `ack`, with the steps' digests) once it is
  saved; the GM's phone passes an acknowledgement of a step it passed on back to the phone it came
  from. The phone that took the step says "waiting to reach the other phone…" until then.
Pure Python.
"""
from __future__ import annotations

from session.inert import useful_steps
from session.links.v2 import sealed_message
from session.live import protocol as live_protocol
from session.sealed import exchange as sealed_exchange

from ui.core import live_table
from ui.core.outgoing import send
from ui.core.persons import holding
from ui.core.state import AppState
from ui.systems.manners import exchange as exchange_model
from ui.systems.manners import words as manners_words

WAITING = "{what}: waiting to reach the other phone…"
THERE = "{what}: on the other phone."


def other_side(messages: dict, by: str) -> str:
    """Whom the other side of a Confrontation is (of the side `by`), as its seals name it; "" when none does."""
    key = "vs" if by == sealed_exchange.PLAYER else "for"
    seals = sorted((message for message in messages.values() if message["t"] == sealed_exchange.SEAL),
                   key=sealed_exchange.canonical)
    return next((seal[key] for seal in seals if seal.get(key)), "")


def arrived(state: AppState, peer: live_table.Peer, incoming):
    """A sealed-card link that came over the live table from `peer`: passed on (GM), or opened here; what
    of it is stored is acknowledged once saved."""
    if not passed_on(state, peer, incoming):
        exchange_model.receive(state, incoming.session_id, incoming.session_name, incoming.messages, live=True)
        acknowledge(state, peer.id, incoming.messages)


def passed_on(state: AppState, peer: live_table.Peer, incoming) -> bool:
    """(GM) A step of a Confrontation whose other side another live phone holds: kept here and passed on to
    that phone. False when this phone plays the other side (or is not the GM's)."""
    table = live_table.of(state)
    first = incoming.messages[0]
    if not table.hub or first["k"] != sealed_exchange.CONFRONTATION or incoming.session_id != state.session["id"] \
            or len({message["c"] for message in incoming.messages}) != 1:
        return False
    conflict = first["c"]
    held = exchange_model.messages(state, conflict)
    arriving = {sealed_exchange.digest(message): message for message in incoming.messages}
    other = holding(state, table.open_peers(), other_side({**held, **arriving}, first["by"]), but=peer.id)
    if other is None:
        return False
    kept, ignored = useful_steps(state.session["id"], held, arriving)
    if ignored:
        state.fail(" ".join(ignored))
    fresh = [message for key, message in kept.items() if key not in held]
    if fresh and exchange_model.no_room(state, conflict, len(fresh)):
        state.fail(exchange_model.no_room(state, conflict, len(fresh)))
        return True
    for message in fresh:
        state.replica.add_sealed(message)
    if kept:
        send(state, other.id, live_protocol.link(sealed_message(state.session["id"], state.session["name"],
                                                                list(kept.values()))))
        table.relayed.update({key: peer.id for key in kept})
    settled = sealed_exchange.settle(exchange_model.messages(state, conflict), state.session["id"])
    if settled.record is not None and not settled.problems:
        state.say(f"A sealed Confrontation, both cards turned over: {manners_words.sentence(settled.record)}",
                  "success")
    return True


def acknowledge(state: AppState, peer_id: str, messages: list[dict]):
    """Steps of this link that are in the session now: acknowledged to `peer_id` once saved (ui.core.outgoing)."""
    held = state.replica.sealed
    ids = live_table.of(state).to_ack.setdefault(peer_id, [])
    for message in messages:
        key = sealed_exchange.digest(message)
        if key in held.get(message["c"], {}) and key not in ids:
            ids.append(key)


def acked(state: AppState, ids: list[str]):
    """An acknowledgement: steps of this phone now stored on the other phone (said so), and (GM) those it
    passed on, acknowledged to the phone they came from."""
    table = live_table.of(state)
    back: dict[str, list[str]] = {}
    for key in ids:
        if key in table.relayed:
            back.setdefault(table.relayed.pop(key), []).append(key)
    for peer_id, keys in back.items():
        send(state, peer_id, live_protocol.write(live_protocol.ACK, ids=keys))
    reached = [table.steps_out.pop(key) for key in ids if key in table.steps_out]
    if reached and state.message is not None and state.message.text == WAITING.format(what=reached[-1]):
        state.say(THERE.format(what=reached[-1]), "success", passing=True)


def waiting(state: AppState, exchange: dict, what: str):
    """This phone's newest step went live: said on its way until the other phone stored it."""
    table = live_table.of(state)
    mine = exchange_model.own_messages(state, exchange)
    if table is not None and mine:
        table.steps_out[sealed_exchange.digest(mine[-1])] = what
    state.say(WAITING.format(what=what))
