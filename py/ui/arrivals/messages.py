"""What a phone of a live table does with what the others send, through the very functions that
open links (ui.arrivals.links): a session is merged (session.logbook.merge_in, a join:
nothing is overwritten), a roll is checked and added, a sealed-card step opens its exchange.

- A player's phone takes everything from the GM's phone at once: no "Update" tap. The first
  hello of a session it does not have joins it, as a link would.
- The GM's phone takes a player's roll at once when it checks out, or keeps it waiting for
  "Add" (`state.add_rolls`, the GM's choice per session); a player's head (sheets, undo marks)
  merges at once, its counts only with the rolls that changed them when rolls wait. Whatever the
  GM's phone takes goes on to every other live phone (ui.core.outgoing.relay).
- A player's phone called to roll by the GM opens on that conflict, ready to roll; on the GM's
  phone a roll counts in the round of the call it answers (ui.screens.live.calls makes the call).
- A hello, and a page of the catch-up walk, are answered through ui.arrivals.catchup.

Messages are read with session.live.protocol (bounded, untrusted) and merged one at a time, in
the order they came, by one background command (commands.merge_messages): two merges at once
would each start from the same replica and one would be lost.
"""
from __future__ import annotations

import traceback

from session import SYSTEMS
from session.links.size import too_large
from session.links.text import LinkError
from session.links.v2 import read, session_link
from session.live import protocol as live_protocol
from session.live.protocol import LiveMessageError
from session.replica import Replica

from ui.arrivals import catchup, links, owned
from ui.arrivals.catchup import FIRST
from ui.core import commands
from ui.core import live_table
from ui.core import standbys
from ui.core.actions import Input, dispatch
from ui.core.library import is_here
from ui.core.role import show_system
from ui.core.live_table import peer_name, sender
from ui.core.outgoing import confirmed, relay, send, stored_roll
from ui.core.state import AppState
from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401 (registers "anomaly-new")
from ui.systems.anomaly import calls as anomaly_calls
from ui.systems.anomaly import draft as anomaly_draft
from ui.systems.manners import across
from ui.systems.manners import actions as manners_actions  # noqa: F401 (registers "manners-new")
from ui.systems.manners import draft as manners_draft
from ui.systems.summaries import entry_sentence
from ui.systems.tension import actions as tension_actions  # noqa: F401 (registers "tension-new")
from ui.systems.tension import calls as tension_calls

# The conflict a call opens on a called phone, by system (the GM's side settled in it, if sent).
CALLED_DRAFT = {"tension": tension_calls.open_called, "anomaly": anomaly_calls.open_called,
                "manners": lambda state, call: manners_draft.new_draft(state)}


def receive(state: AppState, peer_id: str, text: str):
    """A message from phone `peer_id`: read now, merged in turn (commands.merge_messages runs `drain`)."""
    table = live_table.of(state)
    peer = table.peers.get(peer_id) if table is not None else None
    if peer is None:
        return
    try:
        message = live_protocol.read(text)
    except LiveMessageError as error:
        state.fail(error.naming(sender(state, peer)))
        return
    table.inbox.append((peer_id, message))
    if not table.draining:
        table.draining = True
        commands.merge_messages(state)


async def drain(state: AppState):
    table = live_table.of(state)
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
                state.fail(f"A message from {sender(state, peer)} could not be used. Nothing was changed.")
    finally:
        table.draining = False


async def hello(state: AppState, peer: live_table.Peer, message: dict):
    table = live_table.of(state)
    peer.device, peer.who = message["device"], message["who"]
    peer.role = owned.peer_role(state, peer, message["role"])
    await catchup.note_reach(state, peer, message["oldest"])  # before anything merges: what it had, not what it sent
    incoming = opened(state, peer, message["session"])
    if incoming is None or incoming.kind != "session":
        return
    if table.hub:
        if incoming.replica.id != table.session_id:
            return  # its phone had another session open: it joins this one and says hello again
        await take_head(state, peer, incoming.replica)
        await catchup.start_walk(state, peer, message)
        standbys.remember(state, peer)
        standbys.arm(state, peer)
        return
    said = table.sent.get("hello")  # the session this phone's own hello was about
    table.session_id = incoming.replica.id
    await take_session(state, incoming.replica)
    if said != table.session_id and state.session["id"] == table.session_id:
        await catchup.send_hello(state, peer.id)  # now about the GM's session: the walk can start
    standbys.remember(state, peer)
    standbys.arm(state, peer)


async def who(state: AppState, peer: live_table.Peer, message: dict):
    peer.role, peer.who = owned.peer_role(state, peer, message["role"]), message["who"]
    standbys.remember(state, peer)


async def link(state: AppState, peer: live_table.Peer, message: dict):
    table = live_table.of(state)
    incoming = opened(state, peer, message["link"])
    if incoming is None:
        return
    if incoming.kind == "sealed":  # its steps merged and its exchange opened as the link would, or passed on
        across.arrived(state, peer, incoming)
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
        if too_large(fragment):  # no link to open again on a live table: a message too large, said so
            state.fail(live_protocol.naming(live_protocol.TOO_LARGE, sender(state, peer)))
        else:
            state.fail(f"{peer_name(state, peer)} sent a link that can't be opened. {error}")
        return None


async def take_session(state: AppState, incoming: Replica):
    """(Player) The GM's session: joined the first time, merged after."""
    table = live_table.of(state)
    if not is_here(state, incoming.id):
        links.join(state, incoming)
    elif not await links.merged_here(state, incoming):
        return
    table.known.update(incoming.log)
    table.unsent = False
    table.sent["head"] = session_link(state.replica, entries=[])  # what came in need not go back
    for system, settling in FIRST.items():  # the side this phone sent first: the GM's phone logged its result
        if settling.answered(state):
            entry_id = state.drafts[system]["called"]["entry"]
            confirmed(state, [entry_id])  # it reached the GM's phone, whether or not its ack did
            entry = next(item for item in state.session["log"] if item["id"] == entry_id)
            state.announcement = f"The GM's phone rolled its side: {entry_sentence(entry)}"


async def take_head(state: AppState, peer: live_table.Peer, incoming: Replica):
    """(GM) A player's head: sheets, undo marks and sealed steps at once; its counts too unless
    rolls wait for "Add" (then they come with each roll added). Its log comes as rolls."""
    at_once = state.add_rolls == live_table.ADD_AT_ONCE
    table = live_table.of(state)
    for item in [item for item in table.waiting if item["entry_id"] in incoming.undone]:
        table.waiting.remove(item)  # its phone took it back: nothing to add (and a mark of no entry here is left out)
        stored_roll(state, peer.id, item["entry_id"])
    roster = {key: entry if at_once else {**entry, "counts": {}} for key, entry in incoming.roster.items()}
    head = Replica(incoming.id, incoming.clock, incoming.fields, incoming.tension if at_once else {}, roster,
                   {}, incoming.undone, incoming.sealed)
    if await links.merged_here(state, head):
        relay(state, [], origin=peer.id)


async def take_roll(state: AppState, peer: live_table.Peer, incoming, call_id: str):
    """(GM) A player's roll: into the round it answers, then added at once or kept for "Add"."""
    table = live_table.of(state)
    entry = incoming.roll
    note_roll(state, peer, entry, call_id)
    item = {"peer": peer.id, "incoming": incoming.replica, "entry_id": entry["id"], "entry": entry,
            "problems": incoming.problems, "by": entry.get("by", ""), "at": entry.get("at", ""),
            "state": "checking", "addable": False}
    await links.compare_roll(state, item)
    if item["state"] in ("already", "undone"):  # this phone holds it: acknowledged once stored
        stored_roll(state, peer.id, entry["id"])
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
    table = live_table.of(state)
    if not await links.merged_here(state, item["incoming"], item.get("stored")):
        return False
    table.waiting = [other for other in table.waiting if other["entry_id"] != item["entry_id"]]
    stored_roll(state, item["peer"], item["entry_id"])
    by = item["by"] or "A player"
    state.say(f"{by} rolled: {entry_sentence(item['entry'])}", "success")
    relay(state, [item["entry"]], origin=item["peer"])  # after: a session now too large to send is said over it
    return True


async def have(state: AppState, peer: live_table.Peer, message: dict):
    await catchup.answer_page(state, peer, message)


async def want(state: AppState, peer: live_table.Peer, message: dict):
    await catchup.answer_want(state, peer, message["ids"])


async def ack(state: AppState, peer: live_table.Peer, message: dict):
    if not live_table.of(state).hub:
        confirmed(state, message["ids"])
    across.acked(state, message["ids"])  # sealed-card steps, by their digests


async def call(state: AppState, peer: live_table.Peer, message: dict):
    if not live_table.of(state).hub:  # a player's phone hears only the GM's phone: calls come from there alone
        open_call(state, message)


async def side(state: AppState, peer: live_table.Peer, message: dict):
    """(GM) A called character's attack, rolled first on its phone: the defense is this phone's to roll."""
    table = live_table.of(state)
    if not table.hub:
        return
    call = table.calls.get(message["call"]) or next(
        (found for found in (settling.waiting_call(state, message["call"], peer.role) for settling in FIRST.values())
         if found is not None), None)
    if call is not None:
        table.calls.setdefault(call["id"], call)  # after a reload here, the round shows it again
    who = peer_name(state, peer)
    over = call is None or call.get("ended")
    if over or call["kind"] not in live_protocol.FIRST_KINDS or peer.role not in call["to"]:
        state.fail(f"{who} sent a roll for a call that is not open here, so it was not used.")
        if over:  # its round's end may have been lost: its phone re-sends the side until it hears it
            send(state, peer.id, live_protocol.write(live_protocol.END, id=message["call"]))
        return
    if call["rolled"].get(peer.role):
        stored_roll(state, peer.id, message["entry"])  # its phone did not hear it arrived: said again
        return  # logged already: a copy sent again changes nothing
    tension = call["system"] == "tension"
    problem = "its dice did not come with it." if tension and "dice" not in message else \
        FIRST[call["system"]].take_side(state, call, message, who)
    if problem is not None:
        state.fail(f"{who} sent a roll that can't be used: {problem}")
        return
    stored_roll(state, peer.id, message["entry"])  # acknowledged once this phone's table in progress is saved
    show_system(state, call["system"])
    state.screen, state.showing = "conflict", None
    what, yours = ("attack", "defense") if tension else ("defense", "attack")
    state.say(f"{who}: the {what} arrived ({message['words']}). Roll {call['foe']['name']}'s {yours}, then log it.")


async def end(state: AppState, peer: live_table.Peer, message: dict):
    if not live_table.of(state).hub:  # the GM's call is the GM's to end: a player's `end` changes nothing
        live_table.of(state).calls.pop(message["id"], None)
        tension_calls.again_answered(state, message["id"], "ended")
        put_away_side(state, message["id"])


def put_away_side(state: AppState, call_id: str):
    """(Player) The GM ended the round of a call this phone rolls first for, before its result: the side
    is no longer waited for there, so it is sent no more and its dice go in the log, set aside."""
    for system in FIRST:
        draft = state.drafts.get(system)
        called = draft.get("called") if draft else None
        if not called or called.get("first") != "here" or called["id"] != call_id or draft["logged"] is not None:
            continue
        state.unconfirmed = [entry_id for entry_id in state.unconfirmed if entry_id != called["entry"]]
        dispatch(state, f"{system}-new", Input())  # what is on the table goes in the log, set aside
        state.say("The GM ended the round before your roll was used: its dice are in the log, set aside.")


async def again(state: AppState, peer: live_table.Peer, message: dict):
    if live_table.of(state).hub:
        if not message["answer"]:  # an answer is the GM's phone's to give
            asked_again(state, peer, message["call"])
    elif message["answer"]:  # (the GM's phone says yes with the call again: `call`)
        tension_calls.again_answered(state, message["call"], message["answer"])


async def table(state: AppState, peer: live_table.Peer, message: dict):
    if not live_table.of(state).hub:
        live_table.of(state).others = message["phones"]


async def unsent(state: AppState, peer: live_table.Peer, message: dict):
    """(Player) The GM's phone could not send its session: too large for phones of this version."""
    if not live_table.of(state).hub:
        live_table.of(state).unsent = True  # the Live table screen keeps saying it once this is dismissed
        state.fail(live_table.GMS_SESSION_TOO_LARGE)
        state.announcement = live_table.GMS_SESSION_TOO_LARGE


# --- The GM's call for a roll, as it arrives -----------------------------------------------------------

def asked_again(state: AppState, peer: live_table.Peer, call_id: str):
    """(GM) A called player tries the environment roll again: asked in the round of that call, for the
    GM to roll the new Tension Pool (ui.screens.live.calls); "ended" back when the call is not the
    round open here (ended, another call since, this phone restarted) or not one to try again."""
    table = live_table.of(state)
    call = table.calls.get(call_id)
    newest = list(table.calls.values())[-1] if table.calls else None
    if (call is None or call is not newest or call.get("ended") or peer.role not in call["to"]
            or call["system"] != "tension" or call["kind"] != "environment" or not call.get("gm")):
        send(state, peer.id, live_protocol.write(live_protocol.AGAIN, call=call_id, answer="ended"))
        return
    asks = call.setdefault("asks", [])
    if peer.role not in asks:
        asks.append(peer.role)
    state.say(f"{peer_name(state, peer)} asks to try again: {call['title']}. Roll the Tension Pool for it on the "
              f"Live table screen, or say no.")


def note_roll(state: AppState, peer: live_table.Peer, entry: dict, call_id: str):
    """(GM) A player's roll arrived: it answers the call it names, else the newest open call that
    called that phone and has no roll from it yet (a roll of the called system)."""
    table = live_table.of(state)
    system = entry.get("record", {}).get("system") if isinstance(entry.get("record"), dict) else None
    call = table.calls.get(call_id) if call_id else None
    if call is None:
        call = next((one for one in reversed(list(table.calls.values()))
                     if not one.get("ended") and peer.role in one["to"] and peer.role not in one["rolled"]
                     and one["system"] == system), None)
    if call is not None and call["kind"] in live_protocol.FIRST_KINDS:
        return  # its phone's side came as a `side`; the conflict is logged here, on the GM's phone
    if call is not None and peer.role in call["to"] and peer.role not in call["rolled"]:
        call["rolled"][peer.role] = entry["id"]


def open_call(state: AppState, call: dict):
    """(Player) The GM's call: this phone opens on that conflict for its character, ready to roll."""
    table = live_table.of(state)
    table.calls = {call["id"]: {**call, "rolled": False}}
    if call["again"] and table.asked == call["id"]:
        table.asked = ""
    if state.role not in call["to"]:
        return
    system = call["system"]
    state.shown = system  # the GM's call is the one thing that moves another phone: it opens on the call
    if system in state.drafts:
        dispatch(state, f"{system}-new", Input())  # what is on the table goes in the log, set aside
    state.drafts[system] = CALLED_DRAFT[system](state, call)
    state.screen = "conflict"
    state.showing = None
    stakes = f" At stake: {call['stakes']}." if call["stakes"] else ""
    if call.get("gm"):
        stakes += f" {call['gm']['name']}: {call['gm']['words']}."
    if call.get("foe"):
        yours = "defense" if call["kind"] == "attack" else "attack"
        stakes += f" You roll first; then the GM's phone rolls {call['foe']['name']}'s {yours}."
    state.message = None  # the call itself is on screen, above the conflict (ui.screens.frame's live line)
    state.announcement = f"The GM calls for your roll ({SYSTEMS.get(system, system)}): {call['title']}.{stakes}"
    if call["again"]:
        state.announcement = (f"Trying again: {call['title']}. The GM's phone rolled the Tension Pool again "
                              f"(Tension +1 first): {call['gm']['words']}. Your roll.")


# --- Rejoining with no scan (ui.core.standbys) --------------------------------------------------------

async def standby(state: AppState, peer: live_table.Peer, message: dict):
    standbys.store(state, peer, message)


async def armed(state: AppState, peer: live_table.Peer, message: dict):
    standbys.armed(state, peer, message)


async def drop(state: AppState, peer: live_table.Peer, message: dict):
    standbys.drop(state, peer, message["ids"])


HANDLERS = {live_protocol.HELLO: hello, live_protocol.WHO: who, live_protocol.LINK: link,
            live_protocol.HAVE: have, live_protocol.WANT: want, live_protocol.ACK: ack, live_protocol.CALL: call,
            live_protocol.END: end, live_protocol.TABLE: table, live_protocol.AGAIN: again}
HANDLERS.update({live_protocol.STANDBY: standby, live_protocol.ARMED: armed, live_protocol.DROP: drop})
HANDLERS[live_protocol.SIDE] = side
HANDLERS[live_protocol.UNSENT] = unsent
