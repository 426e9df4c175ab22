"""A GM's call for a Tension Engine roll on a live table: the GM's side settled on the GM's phone
first, in the seeds' order, and the called phone's conflict opened against that one total.

- Against the environment (seed steps 2-4): the GM's phone rolls the Tension Pool and takes its
  boost or extra dice before the call goes; every called phone rolls against that one GM total.
- Against an adversary (steps 3-6): the GM's phone rolls the adversary's attack (the initiator)
  with its Tension option; the defending character's phone rolls its defense, may spend AP, and
  logs the conflict.
- A character's attack on an adversary ("attack"): the character, the initiator, rolls first on
  its own phone, spends AP and sends its side (session.live.protocol's `side`: its dice, so the GM's
  phone counts its AP and 1s); the GM's phone then rolls the adversary's defense against it, may
  spend Tension, and logs the conflict under the id the player's phone chose, so that phone shows
  the result when it arrives.

The call carries the GM's side as a total (RULES.md: a side given as a total spends nothing), so
however many phones answer it, the GM's Tension is spent once: on the GM's phone, as the call
goes, with its dice logged there as set aside (every roll is in the log). Pure Python.
"""
from __future__ import annotations

import rules
from session import new_id

from ui.core import commands, live_table
from ui.core.role import own_sheet
from ui.core.state import AppState
from ui.systems import conflict
from ui.systems.dice_entry import DICE_FROM, REAL, ROLL, TOTAL, has_dice
from ui.systems.tension import draft as draft_model

KINDS = ("environment", "opposed", "attack")
NOT_LIVE = ("Trying again under the GM's call needs a new Tension Pool rolled on the GM's phone, and this phone "
            "is not live with it. Nothing is lost: your roll is logged. Rejoin the live table, or ask the GM to "
            "call again.")
ASKED = "Asked the GM's phone for a new Tension Pool (Tension +1 first): your roll opens here when it comes."
ANSWERS = {"ended": "The GM's phone has closed that call, so there is no new total to roll against: ask the GM "
                    "to call again if the story allows.",
           "declined": "The GM said no to trying again: the story does not allow another attempt."}
KIND_WORDS = {"environment": "Against the environment (the Tension Pool)",
              "opposed": "An adversary's attack on a character",
              "attack": "A character's attack on an adversary (their phone rolls first)"}
HERE, THERE = "here", "there"  # a called side rolled first: on this phone (the player's), or on the called one


def draft_kind(kind: str) -> str:
    """The conflict a call's kind is: an attack is an opposed conflict whose initiator is the character."""
    return "opposed" if kind == "attack" else kind


class NotReady(Exception):
    """The GM's side can't go with the call yet; the message says why."""


def gm_key(kind: str) -> str:
    """The GM's phone's side: the Tension Pool, the adversary's attack, or (after the character's
    attack) the adversary's defense."""
    return {"environment": "gm", "opposed": "initiator-0"}.get(kind, "defender")


def side(draft: dict, kind: str) -> dict:
    return draft_model.side_by_key(draft, gm_key(kind))


def other_key(kind: str) -> str:
    return {"environment": "player", "opposed": "defender"}.get(kind, "initiator-0")


def ready(state: AppState, kind: str, again: bool = False) -> bool:
    """(GM) This phone's conflict is the call's: that kind, nothing logged, the called side not rolled
    here; for a player's try again (`again`) its Tension Pool rolls one more die (Tension +1 first)."""
    draft = state.drafts.get("tension")
    if draft is None:
        return kind == "environment" and not again  # the conflict this phone starts with (draft_model.new_draft)
    first = kind == "attack"
    return (draft["kind"] == draft_kind(kind) and draft["logged"] is None and not draft.get("called")
            and draft["retry"] == again
            and len(draft["initiators"]) == 1
            and not has_dice(draft_model.side_by_key(draft, other_key(kind)))
            and (not first or (draft["defender"]["role"] == "adversary" and not has_dice(draft["defender"]))))


def prepare(state: AppState, kind: str, again: bool = False):
    """(GM) A conflict of the call's kind on this phone (`again`: the Tension Pool for a player's try
    again): dice of another on the table go in the log as set aside, as "New conflict" would."""
    if ready(state, kind, again):
        return
    draft = state.drafts.get("tension")
    if draft is not None and draft["logged"] is None and draft_model.dice_on_table(draft):
        conflict.set_aside(state, draft_model.to_record(state, draft), draft_model.acting(state, draft))
    state.drafts["tension"] = fresh_draft(state, kind)
    state.drafts["tension"]["retry"] = again


def fresh_draft(state: AppState, kind: str) -> dict:
    """A new conflict of the call's kind; for a character's attack, the first adversary defends."""
    fresh = draft_model.new_draft(state)
    fresh["kind"] = draft_kind(kind)
    if kind == "attack":
        adversaries = state.roster("adversary")
        fresh.update(initiators=[draft_model.new_side("character")],
                     defender=draft_model.new_side("adversary", adversaries[0] if adversaries else None))
    return fresh


def called_character(state: AppState, role: str) -> dict:
    """The side of the character whose phone is held as `role`: their sheet in this system, or (a
    person with none) a quick roll under their name."""
    sheet = conflict.sheet_in(state, role, "tension")
    side = draft_model.new_side("character", sheet)
    if sheet is None:
        side["name"] = conflict.person_name(state, role)
    return side


def follow_called(state: AppState, kind: str, to: list[str]):
    """(GM) This phone's conflict for a character's attack names its attacker from the moment the
    call form shows it: the character of the one phone called (no one yet while several are)."""
    if kind != "attack" or not ready(state, kind):
        return
    draft = state.drafts["tension"]
    attacker = called_character(state, to[0]) if len(to) == 1 else draft_model.new_side("character")
    now = draft["initiators"][0]
    if (now["ref"], now["name"]) != (attacker["ref"], attacker["name"]):
        draft["initiators"] = [attacker]


def total_words(preview: dict) -> str:
    """How a settled side's total was made: "6 + 4 + 3 boost = 13"."""
    if preview["given_total"]:
        return f"{preview['total']} announced"
    parts = [str(face) for face in preview["kept"]] + ([f"{preview['boost']} boost"] if preview["boost"] else [])
    return f"{' + '.join(parts) or '0'} = {preview['total']}"


def settled_side(state: AppState, kind: str, again: bool = False) -> dict | None:
    """(GM) The GM's side as the call carries it (session.live.protocol), None when it rolls after
    the called phone's (an attack), or NotReady; `again`: the new Tension Pool for a player's try
    again (its `tension` as before the +1, which the player's roll records: RULES.md, trying again)."""
    if not ready(state, kind, again):
        raise NotReady("Set up the GM's roll for this call first.")
    if kind == "attack":
        return None
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


def foe(state: AppState, kind: str) -> dict | None:
    """(GM) For a character's attack: the adversary this phone rolls the defense for, as the call names it."""
    if kind != "attack":
        return None
    defender = state.draft(draft_model.new_draft)["defender"]
    return {"name": draft_model.side_name(state, defender), "id": defender["ref"] or ""}


def spend_and_put_away(state: AppState, kind: str, title: str = "", call: dict | None = None):
    """(GM) Once the call went: the Tension its side spent comes off the session once, its dice go in
    the log as set aside under the call's `title` (they are the called phones' to resolve), and a
    fresh conflict of the kind. For a character's attack nothing is rolled yet: this phone's
    conflict waits for the called phone's side (`take_side`)."""
    draft = state.drafts["tension"]
    if kind == "attack":
        draft["initiators"] = [called_character(state, call["to"][0]) if call else draft_model.new_side("character")]
        draft["combat"] = bool(call and call.get("combat"))
        draft["called"] = {"id": call["id"] if call else "", "words": "", "first": THERE, "entry": ""}
        return 0
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
    draft.update(kind=draft_kind(call["kind"]), retry=bool(call.get("again")))
    if call["kind"] == "attack":
        return open_attack(state, call, draft)
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


# --- A character's attack: the player's side first, then the GM's ---------------------------------------

def open_attack(state: AppState, call: dict, draft: dict) -> dict:
    """(Player) This phone's character attacks; the adversary defends on the GM's phone afterwards."""
    foe_entry = state.entry(call["foe"]["id"]) if call["foe"]["id"] else None
    if foe_entry is not None and foe_entry["kind"] != "adversary":
        foe_entry = None
    defender = draft_model.new_side("adversary", foe_entry)
    defender["name"] = "" if defender["ref"] else call["foe"]["name"]
    attacker = draft_model.new_side("character", own_sheet(state))
    draft.update(initiators=[attacker], defender=defender, combat=call["combat"],
                 called={"id": call["id"], "words": "", "first": HERE, "entry": new_id()})
    return draft




def side_message(state: AppState) -> dict:
    """(Player) This phone's attack as the `side` message carries it; or NotReady. Once sent, its
    `words` go in the call and the side is settled (draft_model.settled_by)."""
    draft = state.drafts["tension"]
    side = draft["initiators"][0]
    try:
        preview = draft_model.side_preview(state, draft, side)
    except rules.RuleError as error:
        raise NotReady(str(error)) from None
    if preview is None or side["mode"] == TOTAL:
        raise NotReady("Roll your attack first: the GM's phone rolls the defense against it.")
    called = draft["called"]
    return {"call": called["id"], "entry": called["entry"], "name": draft_model.side_name(state, side),
            "id": side["ref"] or "", "from": DICE_FROM[side["mode"]], "attribute": side["attribute"],
            "skill": side["skill"], "dice": list(side["dice"]),
            "keep": list(side["keep"]) if side["keep"] is not None else rules.best_keep(side["dice"], min(
                2, len(side["dice"]))),
            "total": preview["total"], "words": total_words(preview)}


def take_side(state: AppState, call: dict, side: dict, who: str) -> str | None:
    """(GM) The called phone's attack arrived: this phone's conflict for the call takes it, settled,
    and the adversary's defense is the GM's to roll. Returns why it can't be taken, or None."""
    draft = state.drafts.get("tension")
    called = draft.get("called") if draft else None
    if called and called["id"] == call["id"] and called["entry"] == side["entry"]:
        return None  # sent again (the player's phone could not tell it arrived): this phone has it
    if not called or called["id"] != call["id"] or draft["logged"] is not None:
        if draft is not None and draft["logged"] is None and draft_model.dice_on_table(draft):
            conflict.set_aside(state, draft_model.to_record(state, draft), draft_model.acting(state, draft))
        draft = fresh_draft(state, "attack")
        foe_entry = state.entry(call["foe"]["id"]) if call["foe"]["id"] else None
        draft["defender"] = draft_model.new_side("adversary", foe_entry)
        draft["defender"]["name"] = "" if draft["defender"]["ref"] else call["foe"]["name"]
        draft["combat"] = call["combat"]
        state.drafts["tension"] = draft
    attacker = draft_model.new_side("character", conflict.sheet_in(state, side["id"], "tension"))
    if attacker["ref"] is None:
        attacker.update(name=side["name"], pool=len(side["dice"]))
    attacker.update(attribute=side["attribute"], skill=side["skill"],
                    mode=REAL if side["from"] == DICE_FROM[REAL] else ROLL, dice=list(side["dice"]),
                    keep=list(side["keep"]))
    if draft_model.pool(state, draft, attacker) != len(side["dice"]):
        return f"{who}'s attack rolled {len(side['dice'])} dice, not the pool this phone has for that sheet."
    saved = draft["initiators"]
    draft["initiators"] = [attacker]
    try:
        preview = draft_model.side_preview(state, draft, attacker)
    except rules.RuleError as error:
        draft["initiators"] = saved
        return str(error)
    draft["called"] = {"id": call["id"], "words": total_words(preview), "first": THERE, "entry": side["entry"]}
    draft_model.note_dice(state, draft)
    return None


def answered(state: AppState) -> bool:
    """(Player) The conflict this phone's attack was sent for is in the log (the GM's phone logged it):
    its result is this phone's too. True when it just arrived."""
    draft = state.drafts.get("tension")
    entry = conflict.answer_logged(state, draft)
    if entry is None:
        return False
    record = entry["record"]
    draft["defender"] = side_as_logged(state, draft, record["defender"])
    draft["tension"] = record["tension"]
    draft["logged"] = record
    return True


def side_as_logged(state: AppState, draft: dict, fields: dict) -> dict:
    """(Player) The GM's side as the logged record holds it, to show its dice read-only (on its sheet
    when this phone's sheet gives that many dice: its Health shows the damage)."""
    side = draft_model.new_side(fields.get("side", "adversary"))
    side["name"] = fields["name"]
    entry = state.entry(fields.get("id") or "")
    if entry is not None and entry["kind"] == "adversary" and fields.get("dice") is not None:
        draft_model.pick_entry(side, entry)
        side["trait"] = next((trait["name"] for trait in entry["traits"] if trait["rating"] == len(fields["dice"])
                              and entry["power"] != len(fields["dice"])), "Power")
        if draft_model.pool(state, draft, side) != len(fields["dice"]):
            side["ref"] = None
    if fields.get("dice") is None:
        side.update(mode=TOTAL, total=fields.get("total"))
        return side
    side.update(pool=len(fields["dice"]), mode=REAL if fields["dice_from"] == DICE_FROM[REAL] else ROLL,
                dice=list(fields["dice"]), keep=list(fields["keep"]) if fields.get("keep") is not None else None,
                boost=bool(fields.get("boost")))
    return side



def waiting_call(state: AppState, call_id: str, role: str) -> dict | None:
    """(GM) The character's attack this phone's conflict waits for, when its call is gone (a reload)."""
    return conflict.waiting_call(state, "tension", "attack", call_id, role,
                                 lambda draft: draft_model.side_name(state, draft["defender"]))


def on_its_way(state: AppState, draft: dict) -> tuple[str, str]:
    """(GM) Whose side this phone's conflict waits for, and what it is (conflict.side_on_its_way)."""
    return draft_model.side_name(state, draft["initiators"][0]), "attack"


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


def again_answered(state: AppState, call_id: str, answer: str):
    """(Player) The GM's phone sends no new total for the try again asked for (`answer`: why)."""
    table = live_table.of(state)
    if table.asked == call_id:
        table.asked = ""
        state.say(ANSWERS[answer])
