"""What taps do on the Tension Engine screen: pick who rolls, roll or enter dice,
keep and spend, then log the result. Each handler changes the AppState only.
"""
from __future__ import annotations

import copy

import rules
from session import log_conflict

from ui.core.actions import Input, action
from ui.core.clock import now_text
from ui.core.library import numbering
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.systems import conflict, dice_entry
from ui.systems.tension import calls as tension_calls
from ui.systems.tension import draft as draft_model
from ui.systems.tension import words as tension_words


def current(state: AppState) -> dict:
    return state.draft(draft_model.new_draft)


def chosen_side(state: AppState, event: Input) -> dict:
    return draft_model.side_by_key(current(state), event.text("side"))


def open_side(state: AppState, event: Input, pool_too: bool = False) -> dict | None:
    """The side this tap is for, if it may still change; else None, with the reason on screen.
    `pool_too`: the tap changes the pool (not once dice were rolled here or all entered)."""
    draft = current(state)
    key = event.text("side")
    try:
        side = draft_model.side_by_key(draft, key)
    except (KeyError, IndexError, ValueError):
        return None
    reason = (draft_model.pool_settled if pool_too else draft_model.settled_by)(state, draft, key)
    if reason is not None:
        state.fail(reason)
        return None
    return side


def clear_dice(side: dict):
    """No dice, and nothing chosen on them: kept dice, a boost."""
    dice_entry.forget_dice(side)
    side.update(keep=None, boost=False)


class TensionDice(dice_entry.DiceRules):
    """The Tension Engine's d6: a side rolls its pool; the seeds' order says who rolls when; dice
    kept and a boost are chosen on the dice down, and the conflict keeps its Tension from its first die."""
    system, faces, totals = "tension", draft_model.SIDES, draft_model.TOTALS
    new_draft, sides = staticmethod(draft_model.new_draft), staticmethod(draft_model.sides)

    def needed(self, state, draft, key):
        return draft_model.pool(state, draft, draft_model.side_by_key(draft, key))

    def name(self, state, draft, key):
        return draft_model.side_name(state, draft_model.side_by_key(draft, key))

    def fixed(self, state, draft, key):
        return draft_model.settled_by(state, draft, key)

    def wait(self, state, draft, key):
        return draft_model.must_wait(state, draft, key)

    def mode_fixed(self, state, draft, key):
        return draft_model.pool_settled(state, draft, key)

    def rolls_with(self, state, draft, key):
        along = key == "player" and draft_model.pool_rolls_along(state, draft)
        return ["gm", key] if along else [key]  # the Tension Pool first, as the seeds order it

    def changed(self, state, draft, side):
        side.update(keep=None, boost=False)
        draft_model.note_dice(state, draft)

    def said(self, state, draft, key):
        side = draft_model.side_by_key(draft, key)
        words = dice_entry.rolls_sentence(draft_model.side_name(state, side), side["dice"])
        preview = draft_model.side_preview(state, draft, side)
        return words + (f" Total {preview['total']}." if preview is not None else "")

    def outcome(self, state, draft):
        standing = draft_model.standing(state, draft)
        return None if standing is None else tension_words.sentence(standing)

    def landing(self, key):
        return f"tension-{key}-die-0"  # its first die: what to keep is chosen next

    def record(self, state, draft):
        return draft_model.to_record(state, draft)

    def acting(self, state, draft):
        return draft_model.acting(state, draft)


DICE = TensionDice()
CALLED = "The GM's phone set up this call: its kind, Combat and the GM's side are settled there."
dice_entry.register(DICE)


@action("tension-kind")
def choose_kind(state: AppState, event: Input):
    draft = current(state)
    kind = event.text("value")
    if kind not in draft_model.KINDS or kind == draft["kind"]:
        return
    if draft.get("called"):
        state.fail(CALLED)
        return
    dice_entry.set_aside_dice(DICE, state, draft)
    fresh = fresh_draft_like(draft, retry=False)
    fresh["kind"] = kind
    state.drafts["tension"] = fresh


@action("tension-combat")
def toggle_combat(state: AppState, event: Input):
    draft = current(state)
    if draft["logged"] is not None or dice_entry.has_dice(draft["defender"]):
        state.fail("Combat is settled once the defender has rolled.")
        return
    if draft.get("called"):
        state.fail(CALLED)
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
    if draft["logged"] is not None or dice_entry.has_dice(draft["defender"]):
        state.fail("The initiators are settled once the defender has rolled.")
        return
    if draft.get("called"):
        state.fail(CALLED)
        return
    if len(draft["initiators"]) >= rules.LIMITS["initiators"]:
        state.fail(f"At most {rules.LIMITS['initiators']} initiators share one action.")
        return
    draft["initiators"].append(draft_model.new_side("adversary"))


@action("tension-remove-initiator")
def remove_initiator(state: AppState, event: Input):
    draft = current(state)
    last = draft["initiators"][-1]
    if draft["logged"] is not None or dice_entry.has_dice(draft["defender"]) or draft_model.rolled_here(last):
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
    record = conflict.to_log(state, draft, draft_model.everyone_settled(state, draft),
                             lambda: rules.resolve(draft_model.to_record(state, draft)))
    if record is None:
        return
    table = state.session["tension_table"]
    lines = [table[roll - 1] for roll in record["result"]["table_rolls"]]
    state.session = log_conflict(state.session, record, at=now_text(), by=draft_model.acting(state, draft),
                                 table_lines=lines, same_as=conflict.logged_for(state, draft), **numbering(state))
    draft["logged"] = record
    for _, side in draft_model.sides(draft):
        side["fresh"] = False
    conflict.logged(state, "tension", record, tension_words.sentence(record), event)


@action("tension-send")
def send_attack(state: AppState, event: Input):
    """(Player) A character's attack the GM called for, rolled first here: sent to the GM's phone,
    which rolls the defense against it (ui.systems.tension.calls)."""
    conflict.send_side(state, current(state), tension_calls.side_message, tension_calls.NotReady)


def fresh_draft_like(draft: dict, retry: bool) -> dict:
    """The same sides and choices (Combat too), no dice: for trying again or the next conflict."""
    fresh = copy.deepcopy(draft)
    fresh.update(retry=retry, logged=None, tension=None, called=None)
    for _, side in draft_model.sides(fresh):
        clear_dice(side)
        side["total"] = None
    return fresh


@action("tension-retry")
def retry(state: AppState, event: Input):
    draft = current(state)
    if draft.get("called"):  # the GM's phone rolls the new Tension Pool, under the same call
        tension_calls.ask_again(state, draft)
        return
    state.drafts["tension"] = fresh_draft_like(draft, retry=True)


@action("tension-new")
def new_conflict(state: AppState, event: Input):
    """The next conflict; dice still on the table go in the log as set aside."""
    draft = current(state)
    if conflict.keeps_waiting(state, draft, *tension_calls.on_its_way(state, draft)):
        return
    dice_entry.set_aside_dice(DICE, state, draft)
    state.drafts["tension"] = fresh_draft_like(draft, retry=False)


conflict.opens_on_the_player("tension", draft_model.in_play)


@conflict.when_added_to("tension")
def fill_untouched_sides(state: AppState, entry: dict, draft: dict):
    """A new character or adversary takes the first matching side nobody has set up yet."""
    for key, side in draft_model.sides(draft):
        untouched = side["ref"] is None and not side["dice"] and not side["name"] and side["total"] is None
        wanted = "character" if key in ("player", "defender") else "adversary"
        if untouched and side["role"] != "gm" and entry["kind"] == wanted:
            draft_model.pick_entry(side, entry)
            return
