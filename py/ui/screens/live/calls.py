"""The GM's call for a roll on a live table, on the GM's phone: the call being set up (in
state.view: it goes with the screen), sending it to the players' phones chosen, ending the round,
and the round itself (who has rolled, who is still to roll).

A call names the system, the conflict (a Tension Engine roll against the environment or an
adversary's attack on a character, an Anomaly check at the difficulty the GM sets or an attack on a
defense, a Manner Cards Test), the words for it and what is at stake (session.live.protocol). Where
the seeds have the GM's side settle first (the Tension Pool with its boost or extra dice, the
adversary's attack, the Anomaly defense), the GM's phone rolls it before the call goes and the call
carries its total (ui.systems.<system>.calls): every called phone rolls against that one total. How
a player's phone opens on it, and how a roll is counted in the round, is what arrives
(ui.arrivals.messages). Pure Python.
"""
from __future__ import annotations

import secrets

from session.live import protocol as live_protocol

from ui.core import live_table
from ui.core.clock import now_text
from ui.core.outgoing import send
from ui.core.role import show_system
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.systems.anomaly import calls as anomaly_calls
from ui.systems.tension import calls as tension_calls

# The systems whose calls may carry a side the GM's phone settled first.
SETTLING = {"tension": tension_calls, "anomaly": anomaly_calls}
ONE_PHONE = "An attack or a defense goes to one player's phone: leave the others out."


def new_call_id() -> str:
    return "c" + secrets.token_hex(5)


def make_call(state: AppState) -> dict | None:
    """(GM) The call set up on the live screen, sent to the phones chosen; None (and why) if it can't go."""
    table = live_table.of(state)
    form = call_form(state)
    chosen = called(state)
    asking = asks(state)
    if asking:
        state.fail(f"{asking[0][1]} asks to try again: answer that first (its new Tension Pool, or no).")
        return None
    if not chosen:
        state.fail("Choose at least one player's phone that is live.")
        return None
    system, kind = form["system"], call_kind(form)
    if kind in ("opposed", *live_protocol.FIRST_KINDS) and len(chosen) != 1:
        state.fail(ONE_PHONE)
        return None
    settling = SETTLING.get(system)
    try:
        gm = settling.settled_side(state, kind) if settling is not None else None
    except settling.NotReady as reason:
        state.fail(str(reason))
        return None
    foe = settling.foe(state, kind) if settling is not None else None
    call = {"id": new_call_id(), "system": system, "kind": kind,
            "difficulty": form["difficulty"] if system == "anomaly" and kind == "check" else None,
            "title": " ".join(form["title"].split())[:live_protocol.MAX_TITLE] or "A roll",
            "stakes": " ".join(form["stakes"].split())[:live_protocol.MAX_STAKES], "to": chosen,
            **({"gm": gm} if gm is not None else {}), **({"foe": foe} if foe is not None else {}),
            **({"combat": form["combat"]} if system == "tension" and kind in ("opposed", "attack") else {})}
    text = live_protocol.write(live_protocol.CALL, **call)  # checked as the players' phones will read it
    for peer in players(state):
        if peer.role in chosen:
            send(state, peer.id, text)
    table.calls[call["id"]] = {**call, "rolled": {}, "at": now_text()}
    show_system(state, system)  # the GM's phone follows its call; the called phones open on it as it arrives
    if system == "tension":
        call["spent"] = tension_calls.spend_and_put_away(state, kind, call["title"], call)
    elif system == "anomaly":
        anomaly_calls.put_away(state, kind, call)
    state.view.pop("call", None)
    return call


def call_kind(form: dict) -> str:
    """The kind of conflict the call opens: the form's, if its system has it, else the system's first."""
    kinds = live_protocol.CALL_KINDS[form["system"]]
    return form["kind"] if form.get("kind") in kinds else kinds[0]


def prepare(state: AppState):
    """(GM) This phone's conflict made ready for the GM's side of the call being set up."""
    form = call_form(state)
    settling = SETTLING.get(form["system"])
    if settling is not None:
        settling.prepare(state, call_kind(form))


# --- A player's try again under the call (ui.arrivals.messages.asked_again) -----------------------------

def asks(state: AppState) -> list[tuple[str, str]]:
    """(GM) (roster id, name) of each player asking to try again in the round open here, oldest first."""
    call = newest_call(state)
    if call is None or call.get("ended"):
        return []
    return [(role, name_of(state, role)) for role in call.get("asks", [])]


def name_of(state: AppState, role: str) -> str:
    entry = state.entry(role)
    return isolate(entry["name"]) if entry is not None else "A player"


def prepare_again(state: AppState):
    """(GM) This phone's Tension Pool made ready for the try again: one more die (Tension +1 first)."""
    show_system(state, "tension")
    tension_calls.prepare(state, "environment", again=True)


def send_again(state: AppState, role: str) -> dict | None:
    """(GM) The new Tension Pool total for `role`'s try again, sent as the same call with `again`; the
    other players' rolls under the call keep theirs. None (and why) when it can't go: nothing is lost."""
    call = newest_call(state)
    if role not in dict(asks(state)):
        return None
    peer = next((peer for peer in players(state) if peer.role == role), None)
    if peer is None:
        state.fail(f"{name_of(state, role)}'s phone is not live just now: the Tension Pool stays here, ready to "
                   f"send once it is back.")
        return None
    try:
        gm = tension_calls.settled_side(state, "environment", again=True)
    except tension_calls.NotReady as reason:
        state.fail(str(reason))
        return None
    fields = {key: call[key] for key in live_protocol.FIELDS[live_protocol.CALL] if key in call and key != "gm"}
    send(state, peer.id, live_protocol.write(live_protocol.CALL, **fields, gm=gm, again=True))
    call["asks"].remove(role)
    call["rolled"].pop(role, None)  # its next roll answers the call
    call.setdefault("again", {})[role] = gm
    spent = tension_calls.spend_and_put_away(state, "environment", call["title"])
    return {"gm": gm, "spent": spent}


def say_no(state: AppState, role: str):
    """(GM) No try again for `role` (the seed: not every action allows another attempt)."""
    call = newest_call(state)
    if role not in dict(asks(state)):
        return
    call["asks"].remove(role)
    peer = next((peer for peer in players(state) if peer.role == role), None)
    if peer is not None:
        send(state, peer.id, live_protocol.write(live_protocol.AGAIN, call=call["id"], answer="declined"))


# --- The call being set up, and its round -------------------------------------------------------------

def call_form(state: AppState) -> dict:
    """The call being set up on the GM's phone (in state.view: it goes with the screen), on the system
    of the GM's tab until the GM picks another in the form. Every live player's phone is called but
    those the GM left out (`out`), phones that join meanwhile too. This phone's conflict for a
    character's attack follows who is called, so the form names the attacker before the call goes."""
    form = state.view.get("call")
    if form is None:
        form = {"system": state.system, "tab": state.system, "kind": "", "combat": False, "difficulty": 6,
                "title": "", "stakes": "", "out": []}
        state.view["call"] = form
    elif form.get("tab") != state.system:  # the GM's tab moved since: the call follows it (a pick in the form stays)
        form.update(system=state.system, tab=state.system)
    if form["system"] == "tension":
        tension_calls.follow_called(state, call_kind(form), chosen(state, form))
    return form


def called(state: AppState) -> list[str]:
    """The roster ids of the players' phones the call being set up goes to."""
    return chosen(state, call_form(state))


def chosen(state: AppState, form: dict) -> list[str]:
    return [peer.role for peer in players(state) if peer.role not in form["out"]]


def players(state: AppState) -> list[live_table.Peer]:
    """The players' phones live now that a call can reach: someone holds them."""
    table = live_table.of(state)
    if table is None:
        return []
    return [peer for peer in table.open_peers() if peer.role and peer.role != live_table.GM_PEER]


def newest_call(state: AppState) -> dict | None:
    table = live_table.of(state)
    if table is None or not table.calls:
        return None
    return list(table.calls.values())[-1]


def round_rows(state: AppState, call: dict) -> list[tuple[str, dict | None, str]]:
    """(who, their roll's log entry or None, how it stands) for everyone called, in call order."""
    rows = []
    waiting = {item["entry_id"]: item for item in live_table.of(state).waiting}
    for role in call["to"]:
        entry = state.entry(role)
        who = isolate(entry["name"]) if entry is not None else "A player"
        rolled = call["rolled"].get(role)
        again = call.get("again", {}).get(role)
        if rolled is None:
            rows.append((who, None, f"still to roll, trying again against {again['total']}" if again else
                         attack_waiting(state, call) or "still to roll"))
            continue
        found = next((item for item in state.session["log"] if item["id"] == rolled), None)
        if found is not None:
            rows.append((who, found, "asks to try again" if role in call.get("asks", []) else
                         "tried again" if again else "rolled"))
        elif rolled in waiting:
            rows.append((who, waiting[rolled]["entry"], "rolled, waiting for you to add it"))
        else:
            rows.append((who, None, "rolled"))
    return rows


def attack_waiting(state: AppState, call: dict) -> str:
    """(GM) A side rolled first on the called phone that arrived and waits for this phone's, in words
    ("" if none)."""
    draft = state.drafts.get(call["system"])
    called = draft.get("called") if draft else None
    if call["kind"] not in live_protocol.FIRST_KINDS or not called or called["id"] != call["id"] \
            or not called["words"]:
        return ""
    if call["kind"] == "attack":
        return f"attacked ({called['words']}): roll the defense on the Conflict screen"
    return f"defended ({called['words']}): roll the attack on the Conflict screen"
