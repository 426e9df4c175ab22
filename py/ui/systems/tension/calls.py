"""A GM's call for a Tension Engine roll on a live table: the GM's side settled on the GM's phone
first, in the seeds' order, and the called phone's conflict opened against that one total.

- Against the environment (seed steps 2-4): the GM's phone rolls the Tension Pool and takes its
  boost or extra dice before the call goes; every called phone rolls against that one GM total.
- Against an adversary (steps 3-6): the GM's phone rolls the adversary's attack (the initiator)
  with its Tension option; the defending character's phone rolls its defense, may spend AP, and
  logs the conflict.

The call carries the GM's side as a total (RULES.md: a side given as a total spends nothing), so
however many phones answer it, the GM's Tension is spent once: on the GM's phone, as the call
goes, with its dice logged there as set aside (every roll is in the log). Pure Python.
"""
from __future__ import annotations

import rules

from ui.core import commands, live_table
from ui.core.state import AppState
from ui.systems import conflict
from ui.systems.dice_entry import TOTAL, has_dice
from ui.systems.tension import draft as draft_model

KINDS = ("environment", "opposed")
NOT_LIVE = ("Trying again under the GM's call needs a new Tension Pool rolled on the GM's phone, and this phone "
            "is not live with it. Nothing is lost: your roll is logged. Rejoin the live table, or ask the GM to "
            "call again.")
ASKED = "Asked the GM's phone for a new Tension Pool (Tension +1 first): your roll opens here when it comes."
ANSWERS = {"ended": "The GM's phone has closed that call, so there is no new total to roll against: ask the GM "
                    "to call again if the story allows.",
           "declined": "The GM said no to trying again: the story does not allow another attempt."}
KIND_WORDS = {"environment": "Against the environment (the Tension Pool)",
              "opposed": "An adversary's attack on a character"}


class NotReady(Exception):
    """The GM's side can't go with the call yet; the message says why."""


def gm_key(kind: str) -> str:
    """The side the GM's phone settles first: the Tension Pool, or the adversary's attack."""
    return "gm" if kind == "environment" else "initiator-0"


def side(draft: dict, kind: str) -> dict:
    return draft_model.side_by_key(draft, gm_key(kind))


def other_key(kind: str) -> str:
    return "player" if kind == "environment" else "defender"


def ready(state: AppState, kind: str, again: bool = False) -> bool:
    """(GM) This phone's conflict is the call's: that kind, nothing logged, the called side not rolled
    here; for a player's try again (`again`) its Tension Pool rolls one more die (Tension +1 first)."""
    draft = state.drafts.get("tension")
    if draft is None:
        return kind == "environment" and not again  # the conflict this phone starts with (draft_model.new_draft)
    return (draft["kind"] == kind and draft["logged"] is None and not draft.get("called")
            and draft["retry"] == again
            and len(draft["initiators"]) == 1
            and not has_dice(draft_model.side_by_key(draft, other_key(kind))))


def prepare(state: AppState, kind: str, again: bool = False):
    """(GM) A conflict of the call's kind on this phone (`again`: the Tension Pool for a player's try
    again): dice of another on the table go in the log as set aside, as "New conflict" would."""
    if ready(state, kind, again):
        return
    draft = state.drafts.get("tension")
    if draft is not None and draft["logged"] is None and draft_model.dice_on_table(draft):
        conflict.set_aside(state, draft_model.to_record(state, draft), draft_model.acting(state, draft))
    fresh = draft_model.new_draft(state)
    fresh.update(kind=kind, retry=again)
    state.drafts["tension"] = fresh


def total_words(preview: dict) -> str:
    """How a settled side's total was made: "6 + 4 + 3 boost = 13"."""
    if preview["given_total"]:
        return f"{preview['total']} announced"
    parts = [str(face) for face in preview["kept"]] + ([f"{preview['boost']} boost"] if preview["boost"] else [])
    return f"{' + '.join(parts) or '0'} = {preview['total']}"


def settled_side(state: AppState, kind: str, again: bool = False) -> dict:
    """(GM) The GM's side as the call carries it (session.live.protocol), or NotReady; `again`: the
    new Tension Pool for a player's try again (its `tension` as before the +1, which the player's
    roll records: RULES.md, trying again)."""
    if not ready(state, kind, again):
        raise NotReady("Set up the GM's roll for this call first.")
    draft = state.draft(draft_model.new_draft)
    key = gm_key(kind)
    side = draft_model.side_by_key(draft, key)
    try:
        preview = draft_model.side_preview(state, draft, side)
    except rules.RuleError as error:
        raise NotReady(str(error)) from None
    if preview is None:
        raise NotReady("Roll the Tension Pool first: the GM takes boost or extra dice before the players roll."
                       if kind == "environment" else
                       "Roll the adversary's attack first: the initiator rolls before the defender.")
    return {"name": draft_model.side_name(state, side), "id": side["ref"] or "", "total": preview["total"],
            "tension": draft_model.conflict_tension(state, draft), "words": total_words(preview)}


def spend_and_put_away(state: AppState, kind: str, title: str = ""):
    """(GM) Once the call went: the Tension its side spent comes off the session once, its dice go in
    the log as set aside under the call's `title` (they are the called phones' to resolve), and a
    fresh conflict of the kind."""
    draft = state.drafts["tension"]
    side = draft_model.side_by_key(draft, gm_key(kind))
    preview = draft_model.side_preview(state, draft, side)
    spent = preview["tension_spent"] if preview is not None else 0
    if spent:
        state.session = {**state.session, "tension": max(0, state.session["tension"] - spent)}
    if side["mode"] != TOTAL:
        conflict.set_aside(state, draft_model.to_record(state, draft), draft_model.side_name(state, side),
                           "The GM's dice for the call", call=title)
    fresh = draft_model.new_draft(state)
    fresh["kind"] = kind
    state.drafts["tension"] = fresh
    return spent


def open_called(state: AppState, call: dict) -> dict:
    """(Player) This phone's conflict for the call: its character's side to roll, the GM's side
    settled at the total the GM's phone sent, read-only (draft_model.settled_by); a try again
    (`again`) costs Tension +1 first, recorded with the player's roll."""
    draft = draft_model.new_draft(state)
    gm = call.get("gm")
    draft.update(kind=call["kind"], retry=bool(call.get("again")))
    if gm is None:  # a call from a GM's phone that rolls no side first: the Tension Pool rolls here
        return draft
    draft["called"] = {"id": call["id"], "words": gm["words"]}
    draft["tension"] = gm["tension"]
    if call["kind"] == "environment":
        draft["gm"].update(mode=TOTAL, total=gm["total"])
        return draft
    entry = state.entry(gm["id"]) if gm["id"] else None
    attacker = draft_model.new_side("adversary", entry if entry is not None and entry["kind"] == "adversary" else None)
    attacker.update(mode=TOTAL, total=gm["total"], name="" if attacker["ref"] else gm["name"])
    draft.update(initiators=[attacker], combat=call["combat"])
    return draft


# --- Trying again under the call (seed step 6: Tension +1, then the GM rolls the Tension Pool again) ----

def ask_again(state: AppState, draft: dict):
    """(Player) "Try again" on a called environment roll: the GM's phone rolls the new Tension Pool and
    takes its boost or extra dice, as for the call (steps 2-3 before 4), and sends the call again with
    its new total (ui.arrivals.messages); until then the logged result stays on screen, waiting."""
    table = live_table.of(state)
    if not live_table.sends_to_gm(state):
        state.fail(NOT_LIVE)
        return
    call_id = draft["called"]["id"]
    if table.asked == call_id:
        return
    from session.live import protocol  # loaded once a table is live, not at start

    commands.live_send(state, live_table.GM_PEER, protocol.write(protocol.AGAIN, call=call_id))
    table.asked = call_id
    state.announcement = ASKED  # the result's own note says it on screen (ui.systems.tension.view)


def waiting_again(state: AppState, draft: dict) -> bool:
    """(Player) This phone asked the GM's phone for a new total for this called roll, none came yet."""
    table = live_table.of(state)
    return bool(draft.get("called")) and table is not None and table.asked == draft["called"]["id"]


def answered(state: AppState, call_id: str, answer: str):
    """(Player) The GM's phone sends no new total for the try again asked for (`answer`: why)."""
    table = live_table.of(state)
    if table.asked == call_id:
        table.asked = ""
        state.say(ANSWERS[answer])
