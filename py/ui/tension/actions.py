"""What taps do on the Tension Engine screen: pick who rolls, roll or enter dice,
keep and spend, then log the result. Each handler changes the AppState only.
"""
from __future__ import annotations

import copy

import rules
from session import log_conflict, set_aside

from ui.core.actions import Input, action
from ui.core.clock import now_text
from ui.core.library import numbering
from ui.core.events import when_added
from ui.core.role import show_to_gm
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.tension import draft as draft_model
from ui.tension import words as tension_words


def current(state: AppState) -> dict:
    return state.draft(draft_model.new_draft)


def chosen_side(state: AppState, event: Input) -> dict:
    return draft_model.side_by_key(current(state), event.text("side"))


def open_side(state: AppState, event: Input, pool_too: bool = False, rolling: bool = False) -> dict | None:
    """The side this tap is for, if it may still change; else None, with the reason on screen.
    `pool_too`: the tap changes the pool or how dice arrive (not once dice were rolled here);
    `rolling`: it puts dice on the table (not before the side that rolls first)."""
    draft = current(state)
    key = event.text("side")
    try:
        side = draft_model.side_by_key(draft, key)
    except (KeyError, IndexError, ValueError):
        return None
    reason = (draft_model.pool_settled if pool_too else draft_model.settled_by)(state, draft, key)
    if reason is None and rolling:
        reason = draft_model.must_wait(state, draft, key)
    if reason is not None:
        state.fail(reason)
        return None
    return side


def clear_dice(side: dict):
    side.update(dice=None, keep=None, boost=False, fresh=False)


def clear_all_dice(state: AppState):
    for _, side in draft_model.sides(current(state)):
        clear_dice(side)


def set_aside_dice(state: AppState, draft: dict):
    """Dice on the table that will not be resolved go in the log as "set aside": every roll
    stays in the record, so a re-roll is visible to the table."""
    if draft["logged"] is not None or not draft_model.dice_on_table(draft):
        return
    record = draft_model.to_record(state, draft)
    state.session = set_aside(state.session, record, at=now_text(), by=draft_model.acting(state, draft),
                              **numbering(state))
    state.say("The dice on the table are in the log, set aside.", "info")


@action("tension-kind")
def choose_kind(state: AppState, event: Input):
    draft = current(state)
    kind = event.text("value")
    if kind not in draft_model.KINDS or kind == draft["kind"]:
        return
    set_aside_dice(state, draft)
    fresh = fresh_draft_like(draft, retry=False)
    fresh["kind"] = kind
    state.drafts["tension"] = fresh


@action("tension-combat")
def toggle_combat(state: AppState, event: Input):
    draft = current(state)
    if draft["logged"] is not None or draft_model.has_dice(draft["defender"]):
        state.fail("Combat is settled once the defender has rolled.")
        return
    draft["combat"] = bool(event.checked)


@action("tension-who")
def choose_who(state: AppState, event: Input):
    side = open_side(state, event, pool_too=True)
    if side is None:
        return
    draft_model.pick_entry(side, state.entry(event.value) if event.value else None)
    if not event.value:
        side["role"] = "character" if event.text("side") in ("player", "defender") else side["role"]
    draft_model.note_dice(state, current(state))


@action("tension-name")
def type_name(state: AppState, event: Input):
    if current(state)["logged"] is None:
        chosen_side(state, event)["name"] = (event.value or "")[:60]


@action("tension-role")
def choose_role(state: AppState, event: Input):
    side = open_side(state, event, pool_too=True)
    if side is None or event.text("value") not in ("character", "adversary"):
        return
    side["role"] = event.text("value")
    clear_dice(side)
    draft_model.note_dice(state, current(state))


RATINGS = {"attribute": "", "skill": "", "trait": "Power"}  # what makes a pool, and its fallback


@action("tension-rating")
def choose_rating(state: AppState, event: Input):
    """Which Attribute, Skill or Dread Trait (or Power) builds this side's pool."""
    field = event.text("field")
    if field in RATINGS:
        side = open_side(state, event, pool_too=True)
        if side is None:
            return
        side[field] = event.value or RATINGS[field]
        clear_dice(side)
        draft_model.note_dice(state, current(state))


@action("tension-pool")
def step_pool(state: AppState, event: Input):
    side = open_side(state, event, pool_too=True)
    if side is None:
        return
    side["pool"] = max(0, min(rules.LIMITS["pool"], side["pool"] + event.number("step", 0)))
    clear_dice(side)
    draft_model.note_dice(state, current(state))


@action("tension-mode")
def choose_mode(state: AppState, event: Input):
    side = open_side(state, event, pool_too=True)
    if side is None or event.text("value") not in draft_model.MODES:
        return
    side["mode"] = event.text("value")
    clear_dice(side)
    side["total"] = None
    if side["mode"] == draft_model.REAL:
        side["dice"] = []
    draft_model.note_dice(state, current(state))


def announce_roll(state: AppState, draft: dict, side: dict):
    """Say the dice and, once everyone has rolled, the result as it stands (aria-live)."""
    name = draft_model.side_name(state, side)
    words = tension_words.dice_sentence(name, side["dice"])
    try:
        preview = draft_model.side_preview(state, draft, side)
        standing = draft_model.standing(state, draft)
    except rules.RuleError as error:
        state.announcement = f"{words} {error}"
        return
    if preview is not None:
        words += f" Total {preview['total']}."
    if standing is not None:
        words += " As it stands: " + tension_words.sentence(standing)
    state.announcement = words


@action("tension-roll")
def roll(state: AppState, event: Input):
    draft = current(state)
    side = open_side(state, event, rolling=True)
    if side is None or side["mode"] != draft_model.ROLL or side["dice"] is not None:
        return
    draft["tension"] = draft_model.conflict_tension(state, draft)  # pinned from the first die on
    rolled = [side]
    if event.text("side") == "player" and draft_model.pool_rolls_along(state, draft):
        rolled.insert(0, draft["gm"])  # the Tension Pool first, as the seeds order it
    for each in rolled:
        each["dice"] = rules.roll(draft_model.pool(state, draft, each), 6)
        each["keep"] = None
    for _, other in draft_model.sides(draft):
        other["fresh"] = any(other is each for each in rolled)  # only the dice just rolled tumble in
    announce_roll(state, draft, side)
    state.focus = f"{event.text('side')}-die-0"  # the Roll button is gone; keyboard users land on the dice


@action("tension-add-face")
def add_face(state: AppState, event: Input):
    draft = current(state)
    side = open_side(state, event, rolling=True)
    if side is None:
        return
    needed = draft_model.pool(state, draft, side)
    dice = side["dice"] or []
    face = event.number("face")
    if len(dice) >= needed:
        state.fail(f"{isolate(draft_model.side_name(state, side))} rolls {needed} dice; clear them to enter new ones.")
        return
    if face is None or not 1 <= face <= 6:
        return
    side["dice"] = dice + [face]
    side["keep"] = None
    side["fresh"] = False
    draft_model.note_dice(state, draft)
    if len(side["dice"]) == needed:
        announce_roll(state, draft, side)


@action("tension-type-faces")
def type_faces(state: AppState, event: Input):
    draft = current(state)
    side = open_side(state, event, rolling=True)
    if side is None:
        return
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
        state.fail(f"{isolate(draft_model.side_name(state, side))} rolls {needed} dice, not {len(faces)}.")
        return
    side.update(dice=faces, keep=None, fresh=False)
    draft_model.note_dice(state, draft)
    if len(faces) == needed:
        announce_roll(state, draft, side)


@action("tension-clear")
def clear(state: AppState, event: Input):
    side = open_side(state, event)
    if side is None or side["mode"] != draft_model.REAL:
        return
    clear_dice(side)
    side["dice"] = []
    draft_model.note_dice(state, current(state))


@action("tension-total")
def type_total(state: AppState, event: Input):
    side = open_side(state, event, rolling=True)
    if side is None:
        return
    side["total"] = event.number(None)
    if side["total"] is not None and not 0 <= side["total"] <= rules.LIMITS["tension_total"]:
        state.fail(f"A total must be from 0 to {rules.LIMITS['tension_total']}.")
        side["total"] = None
    draft_model.note_dice(state, current(state))


def kept_now(side: dict) -> list[int]:
    if side["keep"] is not None:
        return list(side["keep"])
    return rules.best_keep(side["dice"], min(2, len(side["dice"])))


def may_pay(state: AppState, draft: dict, side: dict, paid: int) -> str | None:
    """Why `paid` extra kept dice are not allowed for this side, or None if they are."""
    name = isolate(draft_model.side_name(state, side))
    if side["role"] == "character":
        have = draft_model.available_ap(state, side)
        if have is not None and paid > have:
            more = "" if have == 0 else f", or {2 + have} if you spend {have} AP"
            return f"{name} has {have} AP: keep 2 dice{more}."
        return None
    if side["boost"]:
        return "The GM boosted this roll, so it keeps 2 dice: boost or extra dice, not both."
    tension = draft_model.gm_pool(state, draft) if side["role"] == "gm" else draft_model.conflict_tension(state, draft)
    if paid > max(0, tension - 2):
        return f"Tension can't be spent below 2: with {tension} Tension the GM can pay at most {max(0, tension - 2)}."
    return None


@action("tension-keep")
def toggle_keep(state: AppState, event: Input):
    draft = current(state)
    side = open_side(state, event)
    if side is None or not side["dice"]:
        return
    index = event.number("index")
    if index is None or not 0 <= index < len(side["dice"]):
        return
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
    side = open_side(state, event)
    if side is None or not side["dice"]:
        return
    paid = max(0, draft_model.paid_dice(side) + event.number("step", 0))
    problem = may_pay(state, draft, side, paid)
    if problem:
        state.fail(problem)
        return
    keep_best(side, paid)


@action("tension-spend-to")
def spend_to_win(state: AppState, event: Input):
    draft = current(state)
    side = open_side(state, event)
    if side is None or not side["dice"]:
        return
    paid = event.number("ap", 0)
    problem = may_pay(state, draft, side, paid)
    if problem:
        state.fail(problem)
        return
    keep_best(side, paid)


@action("tension-boost")
def toggle_boost(state: AppState, event: Input):
    side = open_side(state, event)
    if side is None or side["role"] == "character":
        return
    side["boost"] = not side["boost"]
    if side["boost"] and side["dice"]:
        keep_best(side, 0)


@action("tension-add-initiator")
def add_initiator(state: AppState, event: Input):
    draft = current(state)
    if draft["logged"] is not None or draft_model.has_dice(draft["defender"]):
        state.fail("The initiators are settled once the defender has rolled.")
        return
    if len(draft["initiators"]) >= rules.LIMITS["initiators"]:
        state.fail(f"At most {rules.LIMITS['initiators']} initiators share one action.")
        return
    draft["initiators"].append(draft_model.new_side("adversary"))


@action("tension-remove-initiator")
def remove_initiator(state: AppState, event: Input):
    draft = current(state)
    last = draft["initiators"][-1]
    if draft["logged"] is not None or draft_model.has_dice(draft["defender"]) or draft_model.rolled_here(last):
        state.fail("That initiator has rolled: start a new conflict to change who takes part.")
        return
    if len(draft["initiators"]) > 1:
        draft["initiators"].pop()
        draft_model.note_dice(state, draft)


@action("tension-log")
def log_result(state: AppState, event: Input):
    """Log the result and apply what it changes: Tension, AP spent, combat damage to the
    defender's Health (one tap; Undo on the Log reverses all of it)."""
    draft = current(state)
    if draft["logged"] is not None:
        return
    if not draft_model.everyone_settled(state, draft):
        state.fail("Not everyone has rolled yet.")
        return
    try:
        record = rules.resolve(draft_model.to_record(state, draft))
    except rules.RuleError as error:
        state.fail(str(error))
        return
    table = state.session["tension_table"]
    lines = [table[roll - 1] for roll in record["result"]["table_rolls"]]
    state.session = log_conflict(state.session, record, at=now_text(), by=draft_model.acting(state, draft),
                                 table_lines=lines, **numbering(state))
    draft["logged"] = record
    for _, side in draft_model.sides(draft):
        side["fresh"] = False
    state.announcement = tension_words.sentence(record)
    state.focus = "tension-result"
    if event.text("then") == "show":
        show_to_gm(state, record)


def fresh_draft_like(draft: dict, retry: bool) -> dict:
    """The same sides and choices (Combat too), no dice: for trying again or the next conflict."""
    fresh = copy.deepcopy(draft)
    fresh.update(retry=retry, logged=None, tension=None)
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
    """The next conflict; dice still on the table go in the log as set aside."""
    draft = current(state)
    set_aside_dice(state, draft)
    state.drafts["tension"] = fresh_draft_like(draft, retry=False)


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
