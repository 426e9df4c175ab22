"""What taps do on the Anomaly screen: pick who rolls, set good and bad dice, turn
modifier chips on and off or add one, set the difficulty, roll or enter dice,
then log the result. Each handler changes the AppState only.
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
from ui.systems.anomaly import calls as anomaly_calls
from ui.systems.anomaly import draft as draft_model
from ui.systems.anomaly import words as anomaly_words

MAX_NAME = 60


def current(state: AppState) -> dict:
    return state.draft(draft_model.new_draft)


def chosen(state: AppState, event: Input) -> tuple[str, dict]:
    """(role, roller) named by data-side; the actor when it names nobody."""
    role = event.text("side", "actor")
    if role not in draft_model.ROLES:
        role = "actor"
    return role, current(state)[role]


def name_of(state: AppState, event: Input) -> str:
    """The tapped side's name, set apart for a message."""
    role, roller = chosen(state, event)
    return isolate(draft_model.roller_name(state, roller, role))


def locked(state: AppState) -> bool:
    """A logged result is final: only "New roll" changes the screen then."""
    if current(state)["logged"] is not None:
        state.fail("This result is logged. Start a new roll to change it.")
        return True
    return False


def settled(state: AppState, event: Input) -> bool:
    """This side's roll is made: its conditional dice, modifiers and dice stand (the reason is said)."""
    role, _ = chosen(state, event)
    reason = draft_model.settled_by(current(state), role)
    if reason is not None:
        state.fail(reason)
        return True
    return False


def difficulty_settled(state: AppState) -> bool:
    reason = draft_model.difficulty_settled(current(state))
    if reason is not None:
        state.fail(reason)
        return True
    return False


def without_dice(draft: dict) -> dict:
    """The same people, conditions and modifiers; no dice, no totals."""
    fresh = copy.deepcopy(draft)
    fresh["logged"] = fresh["called"] = None
    for role in draft_model.ROLES:
        fresh[role]["total"] = None
        dice_entry.forget_dice(fresh[role])
    return fresh


class AnomalyDice(dice_entry.DiceRules):
    """Anomaly's d10: a side rolls one die plus one per net good or bad die and keeps one; only a
    defender may be given as a total; a roll is made, and settled, once its dice are down."""
    system, faces, totals = "anomaly", draft_model.SIDES, draft_model.TOTALS
    new_draft, sides = staticmethod(draft_model.new_draft), staticmethod(draft_model.rollers)

    def needed(self, state, draft, key):
        return draft_model.dice_needed(draft[key])

    def name(self, state, draft, key):
        return draft_model.roller_name(state, draft[key], key)

    def fixed(self, state, draft, key):
        return draft_model.settled_by(draft, key)

    def wait(self, state, draft, key):
        return draft_model.must_wait(draft, key)

    def modes(self, draft, key):
        return draft_model.modes(key)

    def pool_words(self, state, draft, key):
        return anomaly_words.net_words(draft[key]["good"], draft[key]["bad"])

    def said(self, state, draft, key):
        detail = draft_model.side_preview(state, draft[key], key)
        return anomaly_words.roll_sentence(draft_model.roller_name(state, draft[key], key), detail)

    def outcome(self, state, draft):
        standing = draft_model.standing(state, draft)
        return None if standing is None else anomaly_words.sentence(standing)

    def landing(self, key):
        return f"anomaly-{key}-sum"  # its total: the kept die and the modifiers that count

    def record(self, state, draft):
        return draft_model.to_record(state, draft)

    def acting(self, state, draft):
        return draft_model.roller_name(state, draft["actor"], "actor")


DICE = AnomalyDice()
dice_entry.register(DICE)


# --- Kind, who, difficulty ---------------------------------------------------------------------

@action("anomaly-kind")
def choose_kind(state: AppState, event: Input):
    kind = event.text("value")
    draft = current(state)
    if kind not in (draft_model.CHECK, draft_model.OPPOSED) or kind == draft["kind"]:
        return
    if draft.get("called"):
        state.fail("The GM's phone rolled the defense for this call: the kind of roll is settled there.")
        return
    if draft_model.dice_on_table(draft) or draft["logged"] is not None:
        dice_entry.set_aside_dice(DICE, state, draft)  # rolled for the other kind of roll: kept in the log
        draft = state.drafts["anomaly"] = without_dice(draft)
    draft["kind"] = kind


@action("anomaly-who")
def choose_who(state: AppState, event: Input):
    if locked(state) or settled(state, event):
        return
    _, roller = chosen(state, event)
    entry = state.entry(event.value) if event.value else None
    if entry is not None and entry["system"] != "anomaly":
        entry = None
    draft_model.pick_entry(roller, entry)


@action("anomaly-name")
def type_name(state: AppState, event: Input):
    _, roller = chosen(state, event)
    roller["name"] = (event.value or "")[:MAX_NAME]


@action("anomaly-difficulty")
def pick_difficulty(state: AppState, event: Input):
    if locked(state) or difficulty_settled(state):
        return
    value = event.number("value")
    if value is not None and 0 <= value <= rules.LIMITS["anomaly_difficulty"]:
        current(state)["difficulty"] = value


@action("anomaly-difficulty-type")
def type_difficulty(state: AppState, event: Input):
    if locked(state) or difficulty_settled(state):
        return
    draft = current(state)
    if not (event.value or "").strip():
        draft["difficulty"] = None
        return
    value = event.number(None)
    high = rules.LIMITS["anomaly_difficulty"]
    if value is None or not 0 <= value <= high:
        state.fail(f"A difficulty is a whole number from 0 to {high}.")
        return
    draft["difficulty"] = value
    conflict.clear_error(state)


# --- Good and bad dice -------------------------------------------------------------------------

@action("anomaly-dice")
def step_dice(state: AppState, event: Input):
    """Good or bad dice one up or down. The number of d10 changes, so dice rolled here are
    rolled again; real dice already typed stay, as long as they still fit."""
    if locked(state) or settled(state, event):
        return
    _, roller = chosen(state, event)
    which = event.text("which")
    if which not in ("good", "bad"):
        return
    roller[which] = max(0, min(rules.LIMITS["conditional_dice"], roller[which] + event.number("step", 0)))
    if roller["mode"] == draft_model.REAL:
        needed = draft_model.dice_needed(roller)
        if len(roller["dice"] or []) > needed:
            roller["dice"] = roller["dice"][:needed]
            state.say(f"{name_of(state, event)} now rolls {anomaly_words.dice_words(needed)}: "
                      f"kept the first {needed} entered.")
    elif roller["mode"] == draft_model.ROLL:
        dice_entry.forget_dice(roller)


# --- Modifier chips ----------------------------------------------------------------------------

@action("anomaly-chip")
def toggle_chip(state: AppState, event: Input):
    """Turn a modifier on or off for this roll (the sheet is not changed)."""
    if locked(state) or settled(state, event):
        return
    _, roller = chosen(state, event)
    draft_model.sync_sheet(state, roller)
    key = event.text("chip")
    try:
        index = int(key[1:])
    except ValueError:
        return
    if key.startswith("s") and 0 <= index < len(roller["sheet"]):
        off = set(roller["off"])
        off.symmetric_difference_update({index})
        roller["off"] = sorted(off)
    elif key.startswith("x") and 0 <= index < len(roller["extra"]):
        roller["extra"][index]["on"] = not roller["extra"][index]["on"]


@action("anomaly-chip-remove")
def remove_chip(state: AppState, event: Input):
    if locked(state) or settled(state, event):
        return
    _, roller = chosen(state, event)
    index = event.number("index")
    if index is not None and 0 <= index < len(roller["extra"]):
        removed = roller["extra"].pop(index)
        state.announcement = f"Removed {anomaly_words.modifier_words(removed)}."


@action("anomaly-adding")
def toggle_adding(state: AppState, event: Input):
    _, roller = chosen(state, event)
    roller["adding"] = not roller["adding"]


@action("anomaly-new-kind")
def choose_new_kind(state: AppState, event: Input):
    _, roller = chosen(state, event)
    roller["new"]["kind"] = event.value or draft_model.OTHER_KIND


@action("anomaly-new-other")
def type_new_kind(state: AppState, event: Input):
    _, roller = chosen(state, event)
    roller["new"]["other"] = (event.value or "")[:rules.anomaly.MAX_KIND]


@action("anomaly-new-name")
def type_new_name(state: AppState, event: Input):
    _, roller = chosen(state, event)
    roller["new"]["name"] = (event.value or "")[:MAX_NAME]


@action("anomaly-new-value")
def step_new_value(state: AppState, event: Input):
    _, roller = chosen(state, event)
    high = rules.LIMITS["modifier_value"]
    roller["new"]["value"] = max(-high, min(high, roller["new"]["value"] + event.number("step", 0)))


@action("anomaly-new-stacks")
def toggle_new_stacks(state: AppState, event: Input):
    _, roller = chosen(state, event)
    roller["new"]["stacks"] = bool(event.checked)


@action("anomaly-add-modifier")
def add_modifier(state: AppState, event: Input):
    """Add the one-off modifier from the form as a chip, on; the form stays open for the next."""
    if locked(state) or settled(state, event):
        return
    _, roller = chosen(state, event)
    form = roller["new"]
    kind = form["kind"] if form["kind"] != draft_model.OTHER_KIND else " ".join(form["other"].split())
    if not kind:
        state.fail("Name the kind of this modifier, such as Magic or Cover.")
        return
    if len(draft_model.chips(state, roller)) >= rules.LIMITS["modifiers"]:
        state.fail(f"A roll holds at most {rules.LIMITS['modifiers']} modifiers.")
        return
    modifier = {"kind": kind, "value": form["value"], "stacks": form["stacks"], "on": True,
                "name": " ".join(form.get("name", "").split())[:MAX_NAME]}
    roller["extra"].append(modifier)
    roller["new"] = {**draft_model.new_modifier_form(), "kind": form["kind"], "other": form["other"]}
    conflict.clear_error(state)
    state.announcement = f"Added {anomaly_words.modifier_words(modifier)}."


# --- Logging -----------------------------------------------------------------------------------

@action("anomaly-log")
def log_result(state: AppState, event: Input):
    draft = current(state)
    record = conflict.to_log(state, draft, draft_model.everyone_settled(state, draft),
                             lambda: draft_model.standing(state, draft))
    if record is None:
        return
    by = draft_model.roller_name(state, draft["actor"], "actor")
    state.session = log_conflict(state.session, record, at=now_text(), by=by, same_as=conflict.logged_for(state, draft),
                                 **numbering(state))
    draft["logged"] = record
    for _, roller in draft_model.rollers(draft):
        roller["fresh"] = False
        roller["adding"] = False
    state.message = None
    conflict.logged(state, "anomaly", record, anomaly_words.sentence(record), event)


@action("anomaly-send")
def send_defense(state: AppState, event: Input):
    """(Player) A character's defense the GM called for, rolled first here: sent to the GM's phone,
    which rolls the attack against it (ui.systems.anomaly.calls)."""
    conflict.send_side(state, current(state), anomaly_calls.side_message, anomaly_calls.NotReady)


@action("anomaly-new")
def new_roll(state: AppState, event: Input):
    """The next roll: the same people, conditions and modifiers; no dice, no totals. Dice
    still on the table (not logged) go in the log as set aside."""
    draft = current(state)
    if conflict.keeps_waiting(state, draft, *anomaly_calls.on_its_way(state, draft)):
        return
    state.message = None
    dice_entry.set_aside_dice(DICE, state, draft)
    state.drafts["anomaly"] = without_dice(draft)
    state.announcement = "New roll: same people, dice and modifiers; roll when ready."


conflict.opens_on_the_player("anomaly", draft_model.in_play)


@conflict.when_added_to("anomaly")
def fill_untouched_rollers(state: AppState, entry: dict, draft: dict):
    """A new character takes the actor, a new adversary the defender, if nobody has set them up yet."""
    if draft["logged"] is not None:
        return
    role = "actor" if entry["kind"] == "character" else "defender"
    roller = draft[role]
    untouched = (roller["ref"] is None and not roller["name"].strip() and not roller["dice"]
                 and not roller["extra"] and roller["total"] is None)
    if untouched:
        draft_model.pick_entry(roller, entry)
