"""The GM calls for a roll on a live table: the chosen players' phones open on that conflict,
ready to roll, and the GM's phone keeps the round (who has rolled, who is still to roll).

A call names the system, the conflict (one a player rolls alone: a Tension Engine roll against
the environment, an Anomaly check at the difficulty the GM sets, a Manner Cards Test), the words
for it and what is at stake (session.live.protocol). On a player's phone the conflict on the
table is put aside first the way "New conflict" does it (dice already rolled go in the log, set
aside), then a fresh one opens for the player's character. Pure Python.
"""
from __future__ import annotations

import secrets

from session.live import protocol as live_protocol

from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401 (registers "anomaly-new")
from ui.systems.anomaly import draft as anomaly_draft
from ui.core import live_table
from ui.core.actions import Input, dispatch
from ui.core.clock import now_text
from ui.core.state import AppState
from ui.arrivals import catchup
from ui.screens.live.words import call_form, called, players, system_name
from ui.systems.manners import actions as manners_actions  # noqa: F401 (registers "manners-new")
from ui.systems.manners import draft as manners_draft
from ui.systems.tension import actions as tension_actions  # noqa: F401 (registers "tension-new")
from ui.systems.tension import draft as tension_draft

NEW_DRAFT = {"tension": tension_draft.new_draft, "anomaly": anomaly_draft.new_draft, "manners": manners_draft.new_draft}


def new_call_id() -> str:
    return "c" + secrets.token_hex(5)


def make_call(state: AppState) -> dict | None:
    """(GM) The call set up on the live screen, sent to the phones chosen; None (and why) if it can't go."""
    table = live_table.live(state)
    form = call_form(state)
    chosen = called(state)
    if not chosen:
        state.fail("Choose at least one player's phone that is live.")
        return None
    system = form["system"]
    call = {"id": new_call_id(), "system": system, "kind": live_protocol.CALL_KINDS[system][0],
            "difficulty": form["difficulty"] if system == "anomaly" else None,
            "title": " ".join(form["title"].split())[:live_protocol.MAX_TITLE] or "A roll",
            "stakes": " ".join(form["stakes"].split())[:live_protocol.MAX_STAKES], "to": chosen}
    text = live_protocol.write(live_protocol.CALL, **call)  # checked as the players' phones will read it
    for peer in players(state):
        if peer.role in chosen:
            catchup.send(state, peer.id, text)
    table.calls[call["id"]] = {**call, "rolled": {}, "at": now_text()}
    if state.system != system:  # the table moves to the system called: every phone follows
        state.session = {**state.session, "system": system}
    state.view.pop("call", None)
    return call


def end_call(state: AppState, call_id: str):
    """(GM) The round is over: the called phones put the call away (their rolls stay in the log)."""
    table = live_table.live(state)
    call = table.calls.get(call_id)
    if call is None or call.get("ended"):
        return
    call["ended"] = True
    for peer in players(state):
        if peer.role in call["to"]:
            catchup.send(state, peer.id, live_protocol.write(live_protocol.END, id=call_id))


def note_roll(state: AppState, peer: live_table.Peer, entry: dict, call_id: str):
    """(GM) A player's roll arrived: it answers the call it names, else the newest open call that
    called that phone and has no roll from it yet (a roll of the called system)."""
    table = live_table.live(state)
    system = entry.get("record", {}).get("system") if isinstance(entry.get("record"), dict) else None
    call = table.calls.get(call_id) if call_id else None
    if call is None:
        call = next((one for one in reversed(list(table.calls.values()))
                     if not one.get("ended") and peer.role in one["to"] and peer.role not in one["rolled"]
                     and one["system"] == system), None)
    if call is not None and peer.role in call["to"] and peer.role not in call["rolled"]:
        call["rolled"][peer.role] = entry["id"]


def open_call(state: AppState, call: dict):
    """(Player) The GM's call: this phone opens on that conflict for its character, ready to roll."""
    table = live_table.live(state)
    table.calls = {call["id"]: {**call, "rolled": False}}
    if state.role not in call["to"]:
        return
    system = call["system"]
    if state.system != system:
        state.session = {**state.session, "system": system}
    if system in state.drafts:
        dispatch(state, f"{system}-new", Input())  # what is on the table goes in the log, set aside
    draft = NEW_DRAFT[system](state)
    if system == "anomaly" and call["difficulty"] is not None:
        draft["difficulty"] = call["difficulty"]
    state.drafts[system] = draft
    state.screen = "conflict"
    state.showing = None
    stakes = f" At stake: {call['stakes']}." if call["stakes"] else ""
    state.message = None  # the call itself is on screen, above the conflict (ui.screens.frame's live line)
    state.announcement = f"The GM calls for your roll ({system_name(system)}): {call['title']}.{stakes}"
