"""A side's dice as they come to the table, the same in every system that rolls: rolled here,
real dice entered by hand (a face tapped, the faces typed, Remove last, Clear), or only a total
announced; said after a roll; set aside in the log when the conflict ends without a result.

A side is a dict holding at least `mode` (ROLL, REAL or TOTAL), `dice` (None before a roll
here; the faces entered so far of real dice), `total` (an announced total, or None) and
`fresh` (dice just rolled: they tumble in once). What a system's rules decide (how many dice a
side rolls and of how many faces, who may put dice down when, what a roll means) it says in a
`DiceRules`; `register` makes its taps `<system>-<verb>` (the controls: ui.kit.dice_entry)
from the same handlers in every system. Pure Python.
"""
from __future__ import annotations

import functools
from typing import Callable, NamedTuple

import rules
from rules.words import isolate

from ui.core.actions import Input, action
from ui.core.state import AppState
from ui.kit.dice_entry import MODES, REAL, ROLL, TOTAL, dice_words  # the modes: the controls' values
from ui.systems import conflict

DICE_FROM = {ROLL: "app", REAL: "typed", TOTAL: "total"}  # the record's provenance of a side's dice
DICE_FROM_WORDS = {"app": "rolled in the app", "typed": "real dice entered by hand", "total": "total only"}
MINUS = "−"


def has_dice(side: dict) -> bool:
    """Something of this side is on the table: a die, or an announced total."""
    return bool(side["dice"]) or (side["mode"] == TOTAL and side["total"] is not None)


def on_table(sides: list[tuple[str, dict]]) -> bool:
    return any(has_dice(side) for _, side in sides)


def complete(side: dict, needed: int) -> bool:
    """Every die this side rolls is down (or its total is announced)."""
    if side["mode"] == TOTAL:
        return side["total"] is not None
    return side["dice"] is not None and len(side["dice"]) == needed


def forget_dice(side: dict):
    """No dice, as its mode starts: a roll here must be rolled again, real dice entered again."""
    side["dice"] = [] if side["mode"] == REAL else None
    side["fresh"] = False


def arrival_words(side: dict) -> str:
    """How this side's dice arrive, in words."""
    return DICE_FROM_WORDS[DICE_FROM[side["mode"]]]


def provenance(side: dict) -> str:
    """How a logged side's dice arrived, in words ("" for records from before provenance)."""
    return DICE_FROM_WORDS.get(side.get("dice_from"), "") if isinstance(side, dict) else ""


def rolls_sentence(name: str, dice: list[int] | None) -> str:
    faces = ", ".join(str(face) for face in dice or [])
    return f"{isolate(name)} rolls {faces}." if faces else f"{isolate(name)} rolls no dice."


def signed(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


class DiceRules:
    """What a system's rules decide about its dice; the taps are the same in every system.
    A system subclasses it and `register`s one. `key` names a side of the draft."""
    system = ""  # its taps are "<system>-<verb>", its controls' ids "<system>-<key>-<part>"
    faces = 6
    totals = (0, 0)  # an announced total's lowest and highest
    new_draft: Callable[[AppState], dict]  # the system's draft as it starts
    sides: Callable[[dict], list[tuple[str, dict]]]  # (key, side) for every side on the table, in rolling order

    def draft(self, state: AppState) -> dict:
        return state.draft(self.new_draft)

    def needed(self, state: AppState, draft: dict, key: str) -> int:
        """How many dice this side rolls."""
        raise NotImplementedError

    def name(self, state: AppState, draft: dict, key: str) -> str:
        raise NotImplementedError

    def fixed(self, state: AppState, draft: dict, key: str) -> str | None:
        """Why this side's dice can no longer change (settled, logged), or None."""
        raise NotImplementedError

    def wait(self, state: AppState, draft: dict, key: str) -> str | None:
        """Why this side may not put dice down yet (the seeds' order), or None."""
        return None

    def mode_fixed(self, state: AppState, draft: dict, key: str) -> str | None:
        """Why how this side's dice arrive can no longer change, or None."""
        return self.fixed(state, draft, key)

    def modes(self, draft: dict, key: str) -> tuple[str, ...]:
        return MODES

    def pool_words(self, state: AppState, draft: dict, key: str) -> str:
        """Why this side rolls that many dice, said when too many are typed ("" says nothing)."""
        return ""

    def rolls_with(self, state: AppState, draft: dict, key: str) -> list[str]:
        """The sides one tap on this side's Roll rolls, in order."""
        return [key]

    def changed(self, state: AppState, draft: dict, side: dict):
        """After this side's dice changed: forget what was chosen on the old ones."""

    def said(self, state: AppState, draft: dict, key: str) -> str:
        """This side's dice in a sentence, once all are down; RuleError when they break a rule."""
        raise NotImplementedError

    def outcome(self, state: AppState, draft: dict) -> str | None:
        """The result as it stands in a sentence, None before everyone has rolled; or RuleError."""
        raise NotImplementedError

    def landing(self, key: str) -> str:
        """The element keyboard focus lands on once this side's dice are down (its controls fold away)."""
        raise NotImplementedError

    def record(self, state: AppState, draft: dict) -> dict:
        """The conflict record as far as the table has settled it."""
        raise NotImplementedError

    def acting(self, state: AppState, draft: dict) -> str:
        """Whose conflict the log files it under."""
        raise NotImplementedError


class Tap(NamedTuple):
    draft: dict
    key: str
    side: dict


def open_side(dice: DiceRules, state: AppState, event: Input, putting: bool = False, mode: bool = False) -> Tap | None:
    """The side this tap is for, if its dice may still change; else None, with the reason on
    screen. `putting`: the tap puts dice down (not before the seeds' order allows); `mode`: it
    changes how they arrive."""
    draft = dice.draft(state)
    key = event.text("side")
    side = dict(dice.sides(draft)).get(key)
    if side is None:
        return None
    reason = (dice.mode_fixed if mode else dice.fixed)(state, draft, key)
    if reason is None and putting:
        reason = dice.wait(state, draft, key)
    if reason is not None:
        state.fail(reason)
        return None
    if putting:
        conflict.clear_passing(state)
    return Tap(draft, key, side)


def announce(dice: DiceRules, state: AppState, draft: dict, key: str):
    """Say the dice (aria-live) and, once everyone has rolled, the result as it stands; a rule
    the dice break is said after them."""
    try:
        words = dice.said(state, draft, key)
        standing = dice.outcome(state, draft)
    except rules.RuleError as error:
        side = dict(dice.sides(draft))[key]
        state.announcement = f"{rolls_sentence(dice.name(state, draft, key), side['dice'])} {error}"
        return
    state.announcement = words + (f" As it stands: {standing}" if standing else "")


def set_aside_dice(dice: DiceRules, state: AppState, draft: dict):
    """Dice on the table that will not be resolved go in the log as "set aside"."""
    if draft["logged"] is None and on_table(dice.sides(draft)):
        conflict.set_aside(state, dice.record(state, draft), dice.acting(state, draft))


# --- The taps ------------------------------------------------------------------------------------

def choose_mode(dice: DiceRules, state: AppState, event: Input):
    tap = open_side(dice, state, event, mode=True)
    if tap is None or event.text("value") not in dice.modes(tap.draft, tap.key):
        return
    tap.side.update(mode=event.text("value"), total=None)
    forget_dice(tap.side)
    dice.changed(state, tap.draft, tap.side)


def roll(dice: DiceRules, state: AppState, event: Input):
    tap = open_side(dice, state, event, putting=True)
    if tap is None or tap.side["mode"] != ROLL or tap.side["dice"] is not None:
        return  # rolled here once: dice on the table are only set aside, never rolled again
    rolled = dice.rolls_with(state, tap.draft, tap.key)
    sides = dict(dice.sides(tap.draft))
    for key in rolled:
        sides[key]["dice"] = rules.roll(dice.needed(state, tap.draft, key), dice.faces)
        dice.changed(state, tap.draft, sides[key])
    for key, side in sides.items():
        side["fresh"] = key in rolled  # only the dice just rolled tumble in
    announce(dice, state, tap.draft, tap.key)
    state.focus = dice.landing(tap.key)  # the Roll button is gone


def put_faces(dice: DiceRules, state: AppState, tap: Tap, faces: list[int], needed: int):
    """Real dice entered: once every one is down they are said, and focus lands past the
    picker, which folds away."""
    tap.side.update(dice=faces, fresh=False)
    dice.changed(state, tap.draft, tap.side)
    conflict.clear_error(state)
    if len(faces) == needed:
        announce(dice, state, tap.draft, tap.key)
        state.focus = dice.landing(tap.key)


def open_real_dice(dice: DiceRules, state: AppState, event: Input) -> tuple[Tap, int, str] | None:
    """The side this tap enters real dice for (as `open_side`), how many it rolls, and its name
    set apart for a message."""
    tap = open_side(dice, state, event, putting=True)
    if tap is None or tap.side["mode"] != REAL:
        return None
    return tap, dice.needed(state, tap.draft, tap.key), isolate(dice.name(state, tap.draft, tap.key))


def add_face(dice: DiceRules, state: AppState, event: Input):
    opened = open_real_dice(dice, state, event)
    if opened is None:
        return
    tap, needed, name = opened
    entered = list(tap.side["dice"] or [])
    if len(entered) >= needed:
        state.fail(f"{name} rolls {dice_words(needed)}: remove one or clear them to enter new ones.")
        return
    face = event.number("face")
    try:
        rules.check_faces([face], 1, dice.faces, name)
    except rules.RuleError as error:
        state.fail(str(error))
        return
    put_faces(dice, state, tap, entered + [face], needed)


def type_faces(dice: DiceRules, state: AppState, event: Input):
    """Faces typed as "6 4 1", "6,4,1" or "6, 4, 1": all of them, or the first few."""
    opened = open_real_dice(dice, state, event)
    if opened is None:
        return
    tap, needed, name = opened
    try:
        faces = [int(word) for word in (event.value or "").replace(",", " ").split()]
        rules.check_faces(faces, len(faces), dice.faces, name)
    except ValueError:
        state.fail(f"Type the faces as numbers from 1 to {dice.faces}, separated by spaces.")
        return
    except rules.RuleError as error:
        state.fail(str(error))
        return
    if len(faces) > needed:
        why = dice.pool_words(state, tap.draft, tap.key)
        state.fail(f"{name} rolls {dice_words(needed)}{f' ({why})' if why else ''}, not {len(faces)}.")
        return
    put_faces(dice, state, tap, faces, needed)


def remove_face(dice: DiceRules, state: AppState, event: Input):
    """Remove last: the last real die entered, to correct a typo."""
    tap = open_side(dice, state, event)
    if tap is None or tap.side["mode"] != REAL or not tap.side["dice"]:
        return
    tap.side.update(dice=tap.side["dice"][:-1], fresh=False)
    dice.changed(state, tap.draft, tap.side)
    conflict.clear_error(state)


def clear(dice: DiceRules, state: AppState, event: Input):
    """Every real die entered goes, to enter them again."""
    tap = open_side(dice, state, event)
    if tap is None or tap.side["mode"] != REAL:
        return
    tap.side.update(dice=[], fresh=False)
    dice.changed(state, tap.draft, tap.side)
    conflict.clear_error(state)


def type_total(dice: DiceRules, state: AppState, event: Input):
    """The total as announced; a field emptied takes it back."""
    tap = open_side(dice, state, event, putting=True)
    if tap is None or tap.side["mode"] != TOTAL:
        return
    low, high = dice.totals
    typed = (event.value or "").strip()
    total = event.number(None) if typed else None
    if typed and (total is None or not low <= total <= high):
        state.fail(f"A total is a whole number from {signed(low)} to {high}.")
        total = None
    elif typed:
        conflict.clear_error(state)
    tap.side["total"] = total
    dice.changed(state, tap.draft, tap.side)


TAPS = {"mode": choose_mode, "roll": roll, "add-face": add_face, "type-faces": type_faces,
        "remove-face": remove_face, "clear": clear, "total": type_total}


def register(dice: DiceRules):
    """The taps of `dice.system`'s dice: "<system>-mode", "<system>-roll", "<system>-add-face"…"""
    for verb, handler in TAPS.items():
        action(f"{dice.system}-{verb}")(functools.partial(handler, dice))
