"""How a side's dice come to the table, as controls: rolled here, real dice entered by hand,
or only a total announced.

Every system that rolls draws the same controls: the same words, element ids
`<system>-<side>-<part>` and actions `<system>-<verb>` (ui.systems.dice_entry carries
out the taps). Real dice are entered a face per tap or typed all at once; Remove last
and Clear correct a typo, and stay at hand once every die is in and the picker folds away.
"""
from __future__ import annotations

from ui.kit.controls import data_fields, segmented, text_input
from ui.kit.html import Markup, classes, h

ROLL, REAL, TOTAL = "roll", "real", "total"  # how a side's dice arrive: its "mode"
MODES = (ROLL, REAL, TOTAL)
MODE_WORDS = {ROLL: "Roll here", REAL: "Real dice", TOTAL: "Total only"}
EXAMPLES = {6: "e.g. 6 4 4 2 1", 10: "e.g. 7 3"}  # typed faces, by the dice's sides
EMPTY = Markup("")


def dice_words(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def arrival(system: str, key: str, name: str, modes: tuple[str, ...], current: str) -> Markup:
    """The choice of how this side's dice arrive, among `modes`."""
    return segmented(f"How {name}'s dice arrive", [(mode, MODE_WORDS[mode]) for mode in modes], current,
                     f"{system}-mode", f"{system}-{key}-mode", side=key)


def face_picker(sides: int, action: str, label: str, **data) -> Markup:
    """Buttons 1..sides to enter real dice one tap at a time."""
    return h("div", *(h("button", str(face), type="button", class_="button face-button",
                        data_action=action, data_face=str(face), aria_label=f"Add a die showing {face}",
                        **data_fields(data))
                      for face in range(1, sides + 1)),
             class_=classes("face-picker", f"face-picker-d{sides}"), role="group", aria_label=label)


def real_dice(system: str, key: str, name: str, faces: int, dice: list[int], needed: int) -> Markup:
    """Real dice entered by hand: `dice` the faces entered so far of the `needed` d`faces`."""
    entered = len(dice)
    fix = h("div",
            h("button", "Remove last", type="button", class_="button", id=f"{system}-{key}-remove-last",
              data_action=f"{system}-remove-face", data_side=key, disabled=not entered),
            h("button", "Clear", type="button", class_="button", id=f"{system}-{key}-clear",
              data_action=f"{system}-clear", data_side=key),
            class_="row row-wrap")
    if entered >= needed:  # all in: the picker folds away, corrections stay at hand
        words = f"All {needed} dice entered." if needed > 1 else "The die is entered."
        return h("div", h("p", words, class_="hint", data_testid=f"entered-{key}"), fix, class_="real-dice")
    return h("div",
             h("p", f"Tap the faces of the {dice_words(needed)} rolled ({entered} of {needed} entered).",
               class_="hint", data_testid=f"entered-{key}"),
             face_picker(faces, f"{system}-add-face", f"Enter a d{faces} for {name}", side=key),
             text_input("Or type the faces", f"{system}-{key}-faces", " ".join(str(face) for face in dice),
                        f"{system}-type-faces", placeholder=EXAMPLES.get(faces, ""), inputmode="numeric",
                        side=key, commit="change"),
             fix,
             class_="real-dice")


def total_field(system: str, key: str, name: str, total: int | None, low: int, high: int) -> Markup:
    """The total this side's roll came to, as announced (from another phone, or real dice at the table).
    A phone's digits-only keypad has no minus sign: it is asked for only when no total is below 0."""
    return text_input(f"{name}'s total, as announced", f"{system}-{key}-total", "" if total is None else str(total),
                      f"{system}-total", placeholder="e.g. 9", input_type="number",
                      inputmode="numeric" if low >= 0 else None,
                      hint="Rolled on another phone or at the table: type the total it came to.",
                      low=low, high=high, side=key)


def roll_button(system: str, key: str, needed: int, described_by: str | None = None) -> Markup:
    return h("button", f"Roll {dice_words(needed)}", type="button", class_="button button-primary button-wide",
             data_action=f"{system}-roll", data_side=key, id=f"{system}-{key}-roll", aria_describedby=described_by)


def controls(system: str, key: str, name: str, mode: str, dice: list[int] | None, total: int | None, faces: int,
             needed: int, totals: tuple[int, int], wait: str | None = None, instead: Markup | None = None) -> Markup:
    """How this side's dice come in, as its `mode` says. `wait`: why it may not put dice down yet,
    said while nothing of it is on the table; `instead`: what replaces the Roll button or the
    real dice while none are down (e.g. why the pool has no dice)."""
    if wait is not None and not dice and not (mode == TOTAL and total is not None):
        return h("p", wait, class_="hint", data_testid="wait")
    if mode == TOTAL:
        return total_field(system, key, name, total, *totals)
    if instead is not None and not dice:
        return instead
    if mode == REAL:
        return real_dice(system, key, name, faces, dice or [], needed)
    return roll_button(system, key, needed) if dice is None else EMPTY
