"""A GM's call for an Anomaly roll on a live table: a check at the difficulty the GM sets, or an
opposed roll whose defense the GM's phone rolled first (the seed: "the defender's roll establishes
the difficulty for the attacker"); the called phone's attacker rolls against that one total.

The call carries the defense as a total (RULES.md: an Anomaly defender may be given as a total),
so the attacker's phone logs the conflict with it; the defense's dice stay in the GM's log as set
aside.

A character's defense against an adversary ("defense") goes the other way: the character's phone
rolls the defense first and sends its total (session.live.protocol's `side`), the GM's phone rolls
the adversary's attack against it and logs the conflict under the id the character's phone chose, so
that phone shows the result when it arrives, and puts its defense's dice in its log as set aside.
Pure Python.
"""
from __future__ import annotations

import rules
from session import new_id

from ui.core.role import own_sheet
from ui.core.state import AppState
from ui.systems import conflict
from ui.systems.anomaly import draft as draft_model
from ui.systems.anomaly import words as anomaly_words
from ui.systems.dice_entry import TOTAL, has_dice

DEFENSE = "defense"
KINDS = (draft_model.CHECK, draft_model.OPPOSED, DEFENSE)
KIND_WORDS = {draft_model.CHECK: "A check against the difficulty you set",
              draft_model.OPPOSED: "An attack against a defense rolled here",
              DEFENSE: "An adversary's attack on a character (their phone rolls the defense first)"}
FOE = "The adversary"  # the attack of a call for a character's defense, with no Anomaly adversary on the roster
HERE, THERE = "here", "there"  # a called defense rolled first: on this phone (the player's), or on the called one


def draft_kind(kind: str) -> str:
    return draft_model.OPPOSED if kind == DEFENSE else kind


class NotReady(Exception):
    """The GM's side can't go with the call yet; the message says why."""


def ready(state: AppState, kind: str) -> bool:
    """(GM) This phone's roll is the call's: opposed, nothing logged, the attacker not rolled here."""
    draft = state.drafts.get("anomaly")
    return (kind == draft_model.CHECK or draft is not None and draft["kind"] == draft_kind(kind)
            and draft["logged"] is None and not draft.get("called") and not has_dice(draft["actor"])
            and (kind != DEFENSE or not has_dice(draft["defender"])))


def prepare(state: AppState, kind: str):
    """(GM) An opposed roll on this phone for the call's defense: dice of another roll on the table
    go in the log as set aside, as "New roll" would."""
    if ready(state, kind):
        return
    draft = state.drafts.get("anomaly")
    if draft is not None and draft["logged"] is None and draft_model.dice_on_table(draft):
        conflict.set_aside(state, draft_model.to_record(state, draft), draft_model.roller_name(
            state, draft["actor"], "actor"))
    state.drafts["anomaly"] = fresh_draft(state, kind)


def fresh_draft(state: AppState, kind: str) -> dict:
    """A new roll of the call's kind; for a character's defense, the first adversary attacks."""
    fresh = draft_model.new_draft(state)
    fresh["kind"] = draft_kind(kind)
    if kind == DEFENSE:
        adversaries = [entry for entry in state.roster("adversary") if entry["system"] == "anomaly"]
        fresh.update(actor=draft_model.new_roller(adversaries[0] if adversaries else None),
                     defender=draft_model.new_roller())
        if not adversaries:  # a quick roll, named for what it is (the actor's default name is a player's)
            fresh["actor"]["name"] = FOE
    return fresh


def settled_side(state: AppState, kind: str) -> dict | None:
    """(GM) The defense as the call carries it (session.live.protocol), None for a check; or NotReady."""
    if kind == draft_model.CHECK:
        return None
    if not ready(state, kind):
        raise NotReady("Set up the defense for this call first." if kind == draft_model.OPPOSED else
                       "Set up the attack for this call first: the defender's phone rolls first.")
    if kind == DEFENSE:
        return None
    defender = state.draft(draft_model.new_draft)["defender"]
    try:
        preview = draft_model.side_preview(state, defender, "defender")
    except rules.RuleError as error:
        raise NotReady(str(error)) from None
    if preview is None:
        raise NotReady("Roll the defense first: its total is the difficulty the attacker must beat.")
    words = f"{preview['total']} announced" if preview["given_total"] else anomaly_words.sum_words(preview)
    return {"name": draft_model.roller_name(state, defender, "defender"), "id": defender["ref"] or "",
            "total": preview["total"], "tension": 0, "words": words}


def foe(state: AppState, kind: str) -> dict | None:
    """(GM) For a character's defense: the adversary this phone rolls the attack for, as the call names it."""
    if kind != DEFENSE:
        return None
    actor = state.draft(draft_model.new_draft)["actor"]
    return {"name": draft_model.roller_name(state, actor, "actor"), "id": actor["ref"] or ""}


def put_away(state: AppState, kind: str, call: dict | None = None):
    """(GM) Once the call went: the defense's dice go in the log as set aside (the attacker's phone
    resolves it), and a fresh opposed roll. For a character's defense nothing is rolled yet: this
    phone's roll waits for the called phone's defense (`take_side`)."""
    if kind == draft_model.CHECK:
        return
    draft = state.drafts["anomaly"]
    if kind == DEFENSE:
        sheet = conflict.sheet_in(state, call["to"][0], "anomaly") if call else None
        draft["defender"] = draft_model.new_roller(sheet)
        if call and sheet is None:  # a person with no sheet here: a quick roll under their name
            draft["defender"]["name"] = conflict.person_name(state, call["to"][0])
        draft["called"] = {"id": call["id"] if call else "", "words": "", "first": THERE, "entry": ""}
        return
    if draft["defender"]["mode"] != TOTAL:
        conflict.set_aside(state, draft_model.to_record(state, draft),
                           draft_model.roller_name(state, draft["defender"], "defender"), "The defense's dice")
    fresh = draft_model.new_draft(state)
    fresh["kind"] = kind
    state.drafts["anomaly"] = fresh


def open_called(state: AppState, call: dict) -> dict:
    """(Player) This phone's roll for the call: at the GM's difficulty, or against the defense the
    GM's phone sent, read-only (draft_model.settled_by)."""
    draft = draft_model.new_draft(state)
    draft["kind"] = draft_kind(call["kind"])
    if call["kind"] == DEFENSE:
        return open_defense(state, call, draft)
    if call["kind"] == draft_model.CHECK:
        draft["difficulty"] = call["difficulty"]
        return draft
    gm = call["gm"]
    entry = state.entry(gm["id"]) if gm["id"] else None
    defender = draft_model.new_roller(entry if entry is not None and entry["system"] == "anomaly" else None)
    defender.update(mode=TOTAL, total=gm["total"], name="" if defender["ref"] else gm["name"])
    draft.update(defender=defender, called={"id": call["id"], "words": gm["words"]})
    return draft


# --- A character's defense: the player's side first, then the GM's -------------------------------------

def open_defense(state: AppState, call: dict, draft: dict) -> dict:
    """(Player) This phone's character defends; the adversary attacks on the GM's phone afterwards."""
    foe_entry = state.entry(call["foe"]["id"]) if call["foe"]["id"] else None
    attacker = draft_model.new_roller(foe_entry if foe_entry is not None and foe_entry["system"] == "anomaly"
                                      else None)
    attacker["name"] = "" if attacker["ref"] else call["foe"]["name"]
    draft.update(actor=attacker, defender=draft_model.new_roller(own_sheet(state)),
                 called={"id": call["id"], "words": "", "first": HERE, "entry": new_id()})
    return draft




def side_message(state: AppState) -> dict:
    """(Player) This phone's defense as the `side` message carries it (a total); or NotReady."""
    draft = state.drafts["anomaly"]
    defender = draft["defender"]
    try:
        preview = draft_model.side_preview(state, defender, "defender")
    except rules.RuleError as error:
        raise NotReady(str(error)) from None
    if preview is None or defender["mode"] == TOTAL:
        raise NotReady("Roll your defense first: its total is what the attack must beat.")
    called = draft["called"]
    return {"call": called["id"], "entry": called["entry"],
            "name": draft_model.roller_name(state, defender, "defender"), "id": defender["ref"] or "",
            "total": preview["total"], "words": anomaly_words.sum_words(preview)}


def take_side(state: AppState, call: dict, side: dict, who: str) -> str | None:
    """(GM) The called phone's defense arrived: this phone's roll for the call takes it as a total,
    settled, and the adversary's attack is the GM's to roll. Returns why it can't be taken, or None."""
    draft = state.drafts.get("anomaly")
    called = draft.get("called") if draft else None
    if called and called["id"] == call["id"] and called["entry"] == side["entry"]:
        return None  # sent again: this phone has it
    if not called or called["id"] != call["id"] or draft["logged"] is not None:
        if draft is not None and draft["logged"] is None and draft_model.dice_on_table(draft):
            conflict.set_aside(state, draft_model.to_record(state, draft), draft_model.roller_name(
                state, draft["actor"], "actor"))
        draft = fresh_draft(state, DEFENSE)
        foe_entry = state.entry(call["foe"]["id"]) if call["foe"]["id"] else None
        draft["actor"] = draft_model.new_roller(foe_entry if foe_entry and foe_entry["system"] == "anomaly" else None)
        draft["actor"]["name"] = "" if draft["actor"]["ref"] else call["foe"]["name"]
        state.drafts["anomaly"] = draft
    if abs(side["total"]) > rules.LIMITS["anomaly_total"]:
        return f"a total of {side['total']} is beyond what a roll can make."
    defender = draft_model.new_roller(conflict.sheet_in(state, side["id"], "anomaly"))
    defender.update(mode=TOTAL, total=side["total"], name="" if defender["ref"] else side["name"])
    draft["defender"] = defender
    draft["called"] = {"id": call["id"], "words": side["words"], "first": THERE, "entry": side["entry"]}
    return None


def answered(state: AppState) -> bool:
    """(Player) The roll this phone's defense was sent for is in the log: its result is this phone's too."""
    draft = state.drafts.get("anomaly")
    entry = conflict.answer_logged(state, draft)
    if entry is None:
        return False
    record = entry["record"]
    # The defense went as a total (RULES.md): its dice leave the table for the log, set aside, once.
    if draft["defender"]["mode"] != TOTAL and draft["defender"]["dice"]:
        conflict.set_aside(state, draft_model.to_record(state, draft),
                           draft_model.roller_name(state, draft["defender"], "defender"), "Your defense's dice")
    draft["defender"].update(mode=TOTAL, dice=None, total=record["defender"].get("total"))
    draft["logged"] = record
    return True



def waiting_call(state: AppState, call_id: str, role: str) -> dict | None:
    """(GM) The character's defense this phone's roll waits for, when its call is gone (a reload)."""
    return conflict.waiting_call(state, "anomaly", DEFENSE, call_id, role,
                                 lambda draft: draft_model.roller_name(state, draft["actor"], "actor"))


def on_its_way(state: AppState, draft: dict) -> tuple[str, str]:
    """(GM) Whose side this phone's roll waits for, and what it is (conflict.side_on_its_way)."""
    return draft_model.roller_name(state, draft["defender"], "defender"), "defense"
