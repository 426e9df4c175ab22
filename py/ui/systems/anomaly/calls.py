"""A GM's call for an Anomaly roll on a live table: a check at the difficulty the GM sets, or an
opposed roll whose defense the GM's phone rolled first (the seed: "the defender's roll establishes
the difficulty for the attacker"); the called phone's attacker rolls against that one total.

The call carries the defense as a total (RULES.md: an Anomaly defender may be given as a total),
so the attacker's phone logs the conflict with it; the defense's dice stay in the GM's log as set
aside. Pure Python.
"""
from __future__ import annotations

import rules

from ui.core.state import AppState
from ui.systems import conflict
from ui.systems.anomaly import draft as draft_model
from ui.systems.anomaly import words as anomaly_words
from ui.systems.dice_entry import TOTAL, has_dice

KINDS = (draft_model.CHECK, draft_model.OPPOSED)
KIND_WORDS = {draft_model.CHECK: "A check against the difficulty you set",
              draft_model.OPPOSED: "An attack against a defense rolled here"}


class NotReady(Exception):
    """The GM's side can't go with the call yet; the message says why."""


def ready(state: AppState, kind: str) -> bool:
    """(GM) This phone's roll is the call's: opposed, nothing logged, the attacker not rolled here."""
    draft = state.drafts.get("anomaly")
    return (kind == draft_model.CHECK or draft is not None and draft["kind"] == kind and draft["logged"] is None
            and not draft.get("called") and not has_dice(draft["actor"]))


def prepare(state: AppState, kind: str):
    """(GM) An opposed roll on this phone for the call's defense: dice of another roll on the table
    go in the log as set aside, as "New roll" would."""
    if ready(state, kind):
        return
    draft = state.drafts.get("anomaly")
    if draft is not None and draft["logged"] is None and draft_model.dice_on_table(draft):
        conflict.set_aside(state, draft_model.to_record(state, draft), draft_model.roller_name(
            state, draft["actor"], "actor"))
    fresh = draft_model.new_draft(state)
    fresh["kind"] = kind
    state.drafts["anomaly"] = fresh


def settled_side(state: AppState, kind: str) -> dict | None:
    """(GM) The defense as the call carries it (session.live.protocol), None for a check; or NotReady."""
    if kind == draft_model.CHECK:
        return None
    if not ready(state, kind):
        raise NotReady("Set up the defense for this call first.")
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


def put_away(state: AppState, kind: str):
    """(GM) Once the call went: the defense's dice go in the log as set aside (the attacker's phone
    resolves it), and a fresh opposed roll."""
    if kind == draft_model.CHECK:
        return
    draft = state.drafts["anomaly"]
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
    draft["kind"] = call["kind"]
    if call["kind"] == draft_model.CHECK:
        draft["difficulty"] = call["difficulty"]
        return draft
    gm = call["gm"]
    entry = state.entry(gm["id"]) if gm["id"] else None
    defender = draft_model.new_roller(entry if entry is not None and entry["system"] == "anomaly" else None)
    defender.update(mode=TOTAL, total=gm["total"], name="" if defender["ref"] else gm["name"])
    draft.update(defender=defender, called={"id": call["id"], "words": gm["words"]})
    return draft
