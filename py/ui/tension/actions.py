"""What taps do on the Tension Engine screen: pick who rolls, roll or enter dice,
keep and spend, then log the result. Each handler changes the AppState only.
"""
from __future__ import annotations

import copy

import rules
import session as sessions

from ui.core.actions import Input, action
from ui.core.clock import now_text
from ui.core.events import when_added
from ui.core.state import AppState
from ui.tension import draft as draft_model
from ui.tension import words as tension_words


def current(state: AppState) -> dict:
    return state.draft(draft_model.new_draft)


def chosen_side(state: AppState, event: Input) -> dict:
    return draft_model.side_by_key(current(state), event.text("side"))


def clear_dice(side: dict):
    side.update(dice=None, keep=None, boost=False, fresh=False)


def clear_all_dice(state: AppState):
    for _, side in draft_model.sides(current(state)):
        clear_dice(side)


@action("tension-kind")
def choose_kind(state: AppState, event: Input):
    current(state)["kind"] = event.text("value")


@action("tension-combat")
def toggle_combat(state: AppState, event: Input):
    current(state)["combat"] = bool(event.checked)


@action("tension-who")
def choose_who(state: AppState, event: Input):
    side = chosen_side(state, event)
    draft_model.pick_entry(side, state.entry(event.value) if event.value else None)
    if not event.value:
        side["role"] = "character" if event.text("side") in ("player", "defender") else side["role"]


@action("tension-name")
def type_name(state: AppState, event: Input):
    chosen_side(state, event)["name"] = (event.value or "")[:60]


@action("tension-role")
def choose_role(state: AppState, event: Input):
    side = chosen_side(state, event)
    side["role"] = event.text("value")
    clear_dice(side)


RATINGS = {"attribute": "", "skill": "", "trait": "Power"}  # what makes a pool, and its fallback


@action("tension-rating")
def choose_rating(state: AppState, event: Input):
    """Which Attribute, Skill or Dread Trait (or Power) builds this side's pool."""
    field = event.text("field")
    if field in RATINGS:
        side = chosen_side(state, event)
        side[field] = event.value or RATINGS[field]
        clear_dice(side)


@action("tension-pool")
def step_pool(state: AppState, event: Input):
    side = chosen_side(state, event)
    side["pool"] = max(0, min(rules.LIMITS["pool"], side["pool"] + event.number("step", 0)))
    clear_dice(side)


@action("tension-mode")
def choose_mode(state: AppState, event: Input):
    side = chosen_side(state, event)
    side["mode"] = event.text("value")
    clear_dice(side)
    side["total"] = None
    if side["mode"] == draft_model.REAL:
        side["dice"] = []


@action("tension-roll")
def roll(state: AppState, event: Input):
    draft = current(state)
    side = chosen_side(state, event)
    side["dice"] = rules.roll(draft_model.pool(state, draft, side), 6)
    side["keep"] = None
    side["fresh"] = True
    state.focus = f"{event.text('side')}-die-0"  # the Roll button is gone; keyboard users land on the dice


@action("tension-add-face")
def add_face(state: AppState, event: Input):
    draft = current(state)
    side = chosen_side(state, event)
    needed = draft_model.pool(state, draft, side)
    dice = side["dice"] or []
    if len(dice) >= needed:
        state.fail(f"{draft_model.side_name(state, side)} rolls {needed} dice; clear them to enter new ones.")
        return
    side["dice"] = dice + [event.number("face")]
    side["keep"] = None
    side["fresh"] = False


@action("tension-type-faces")
def type_faces(state: AppState, event: Input):
    draft = current(state)
    side = chosen_side(state, event)
    needed = draft_model.pool(state, draft, side)
    words = (event.value or "").replace(",", " ").split()
    try:
        faces = [int(word) for word in words]
        rules.check_faces(faces, len(faces), 6, draft_model.side_name(state, side))
    except ValueError:
        state.fail("Type the faces as numbers from 1 to 6, separated by spaces.")
        return
    except rules.RuleError as error:
        state.fail(str(error))
        return
    if len(faces) > needed:
        state.fail(f"{draft_model.side_name(state, side)} rolls {needed} dice, not {len(faces)}.")
        return
    side.update(dice=faces, keep=None, fresh=False)


@action("tension-clear")
def clear(state: AppState, event: Input):
    side = chosen_side(state, event)
    clear_dice(side)
    side["dice"] = []


@action("tension-total")
def type_total(state: AppState, event: Input):
    side = chosen_side(state, event)
    side["total"] = event.number(None)
    if side["total"] is not None and not 0 <= side["total"] <= rules.LIMITS["tension_total"]:
        state.fail(f"A total must be from 0 to {rules.LIMITS['tension_total']}.")
        side["total"] = None


def kept_now(side: dict) -> list[int]:
    if side["keep"] is not None:
        return list(side["keep"])
    return rules.best_keep(side["dice"], min(2, len(side["dice"])))


def may_pay(state: AppState, draft: dict, side: dict, paid: int) -> str | None:
    """Why `paid` extra kept dice are not allowed for this side, or None if they are."""
    name = draft_model.side_name(state, side)
    if side["role"] == "character":
        have = draft_model.available_ap(state, side)
        if have is not None and paid > have:
            more = "" if have == 0 else f", or {2 + have} if you spend {have} AP"
            return f"{name} has {have} AP: keep 2 dice{more}."
        return None
    if side["boost"]:
        return "The GM boosted this roll, so it keeps 2 dice: boost or extra dice, not both."
    tension = draft_model.gm_pool(state, draft) if side["role"] == "gm" else state.session["tension"]
    if paid > max(0, tension - 2):
        return f"Tension can't be spent below 2: with {tension} Tension the GM can pay at most {max(0, tension - 2)}."
    return None


@action("tension-keep")
def toggle_keep(state: AppState, event: Input):
    draft = current(state)
    side = chosen_side(state, event)
    index = event.number("index")
    kept = kept_now(side)
    if index in kept:
        kept.remove(index)
    else:
        kept = sorted(kept + [index])
        problem = may_pay(state, draft, side, max(0, len(kept) - 2))
        if problem:
            state.fail(problem)
            return
    side["keep"] = kept
    side["fresh"] = False


def keep_best(side: dict, paid: int):
    side["keep"] = rules.best_keep(side["dice"], min(len(side["dice"]), 2 + paid))
    side["fresh"] = False


@action("tension-spend")
def step_spending(state: AppState, event: Input):
    draft = current(state)
    side = chosen_side(state, event)
    paid = max(0, draft_model.paid_dice(side) + event.number("step", 0))
    problem = may_pay(state, draft, side, paid)
    if problem:
        state.fail(problem)
        return
    keep_best(side, paid)


@action("tension-spend-to")
def spend_to_win(state: AppState, event: Input):
    draft = current(state)
    side = chosen_side(state, event)
    paid = event.number("ap", 0)
    problem = may_pay(state, draft, side, paid)
    if problem:
        state.fail(problem)
        return
    keep_best(side, paid)


@action("tension-boost")
def toggle_boost(state: AppState, event: Input):
    side = chosen_side(state, event)
    side["boost"] = not side["boost"]
    if side["boost"] and side["dice"]:
        keep_best(side, 0)


@action("tension-add-initiator")
def add_initiator(state: AppState, event: Input):
    draft = current(state)
    if len(draft["initiators"]) >= rules.LIMITS["initiators"]:
        state.fail(f"At most {rules.LIMITS['initiators']} initiators share one action.")
        return
    draft["initiators"].append(draft_model.new_side("adversary"))


@action("tension-remove-initiator")
def remove_initiator(state: AppState, event: Input):
    draft = current(state)
    if len(draft["initiators"]) > 1:
        draft["initiators"].pop()


@action("tension-log")
def log_result(state: AppState, event: Input):
    draft = current(state)
    try:
        record = rules.resolve(draft_model.to_record(state, draft))
    except rules.RuleError as error:
        state.fail(str(error))
        return
    by = draft_model.side_name(state, draft["player"] if draft["kind"] == "environment" else draft["defender"])
    state.session = sessions.log_conflict(state.session, record, at=now_text(), by=by)
    draft["logged"] = record
    for _, side in draft_model.sides(draft):
        side["fresh"] = False
    state.announcement = tension_words.sentence(record)
    state.focus = "tension-result"


def fresh_draft_like(draft: dict, retry: bool) -> dict:
    """The same sides and choices, no dice: for trying again or the next conflict."""
    fresh = copy.deepcopy(draft)
    fresh.update(retry=retry, logged=None)
    for _, side in draft_model.sides(fresh):
        clear_dice(side)
        side["total"] = None
        if side["mode"] == draft_model.REAL:
            side["dice"] = []
    return fresh


@action("tension-retry")
def retry(state: AppState, event: Input):
    state.drafts["tension"] = fresh_draft_like(current(state), retry=True)


@action("tension-new")
def new_conflict(state: AppState, event: Input):
    state.drafts["tension"] = fresh_draft_like(current(state), retry=False)


@when_added
def fill_untouched_sides(state: AppState, entry: dict):
    """A new character or adversary takes the first matching side nobody has set up yet."""
    if entry["system"] != "tension" or "tension" not in state.drafts:
        return
    draft = state.drafts["tension"]
    for key, side in draft_model.sides(draft):
        untouched = side["ref"] is None and not side["dice"] and not side["name"] and side["total"] is None
        wanted = "character" if key in ("player", "defender") else "adversary"
        if untouched and side["role"] != "gm" and entry["kind"] == wanted:
            draft_model.pick_entry(side, entry)
            return
