"""Anomaly in words: the net conditional dice, signed modifiers, sums, and the one
sentence announced and logged for a result.

Reads the record's "result" (filled by rules.resolve) and the numbers it is
given; decides nothing.
"""
from __future__ import annotations

import rules
from rules.words import isolate

from ui.systems.dice_entry import provenance

MINUS = "−"
OUTCOME_WORDS = {"success": "Success", "failure": "Failure"}
EQUAL_WORDS = "equal is not enough"


def signed(value: int) -> str:
    """+2, −1, +0 (a real minus sign, as printed in rule books)."""
    return f"{MINUS}{-value}" if value < 0 else f"+{value}"


def dice_words(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def net_words(good: int, bad: int) -> str:
    """"2 good − 1 bad = roll 2, keep highest"; "no conditional dice: roll 1"."""
    net = rules.net_dice(good, bad)
    count = rules.dice_count(good, bad)
    if net["good"]:
        keep = f"roll {count}, keep highest"
    elif net["bad"]:
        keep = f"roll {count}, keep lowest"
    else:
        keep = f"roll {count}"
    if good and bad:
        cancel = " (they cancel)" if good == bad else ""
        return f"{good} good {MINUS} {bad} bad = {keep}{cancel}"
    if good:
        return f"{good} good: {keep}"
    if bad:
        return f"{bad} bad: {keep}"
    return f"no conditional dice: {keep}"


def keep_words(detail: dict) -> str:
    """Which die the rules kept, and why."""
    net = detail["net"]
    if net["good"]:
        return "Kept the highest (good dice)."
    if net["bad"]:
        return "Kept the lowest (bad dice)."
    if len(detail["rolled"]) == 1:
        return "One die, kept."
    return "Good and bad dice cancel: one die."


def modifier_words(modifier: dict) -> str:
    """"Gear +2", "Gear +2 (Sword)"."""
    name = modifier.get("name") or ""
    return f"{isolate(modifier['kind'].strip())} {signed(modifier['value'])}" + (f" ({isolate(name)})" if name else "")


def sum_words(detail: dict) -> str:
    """The total as a sum: "7 + 2 + 1 = 10", "7 − 1 = 6", "7"; a given total as "9 (given)"."""
    if detail["given_total"]:
        return f"{detail['total']} (given)"
    parts = [str(detail["kept"])]
    for modifier in detail["applied"]:
        value = modifier["value"]
        parts.append(f"{MINUS} {-value}" if value < 0 else f"+ {value}")
    if len(parts) == 1:
        return parts[0]
    return f"{' '.join(parts)} = {detail['total']}"


def outcome_words(result: dict) -> str:
    """"Success by 1", "Failure by 2", "Failure: equal is not enough"."""
    margin = result["margin"]
    if margin == 0:
        return f"Failure: {EQUAL_WORDS}"
    return f"{OUTCOME_WORDS[result['outcome']]} by {abs(margin)}"


def margin_words(margin: int) -> str:
    return "0" if margin == 0 else signed(margin)


def against_words(record: dict) -> str:
    """What the actor had to beat: "9", or "Vex's 6 + 2 = 8"."""
    result = record["result"]
    if record["kind"] == "opposed":
        defender = result["defender"]
        return f"{isolate(defender['name'])}'s {sum_words(defender)}"
    return str(result["difficulty"])


def margin_sentence(record: dict) -> str:
    """"Beats 9 by 1.", "Short of Vex's 8 by 2.", "Equal is not enough: the total must beat 9." """
    result = record["result"]
    margin = result["margin"]
    if record["kind"] == "opposed":
        target = f"{isolate(result['defender']['name'])}'s {result['defender']['total']}"
    else:
        target = str(result["difficulty"])
    if margin == 0:
        return f"Equal is not enough: the total must beat {target}."
    if margin > 0:
        return f"Beats {target} by {margin}."
    return f"Short of {target} by {-margin}."


def sentence(record: dict) -> str:
    """"Rook rolls 7 + 2 = 9 against 9. Failure: equal is not enough." """
    result = record["result"]
    actor = result["actor"]
    return f"{isolate(actor['name'])} rolls {sum_words(actor)} against {against_words(record)}. {outcome_words(result)}."


def roll_sentence(name: str, detail: dict) -> str:
    """Said when dice are rolled here: "Rook rolls 3 and 7, keeps 7: total 9." """
    faces = [str(face) for face in detail["rolled"]]
    shown = faces[0] if len(faces) == 1 else ", ".join(faces[:-1]) + " and " + faces[-1]
    keeps = f", keeps {detail['kept']}" if len(faces) > 1 else ""
    return f"{isolate(name)} rolls {shown}{keeps}: total {detail['total']}."


def notes(result: dict) -> list[str]:
    return [rules.READINGS[key] for key in result.get("notes", []) if key in rules.READINGS]


def side_happened(side: dict, detail: dict) -> str:
    """"Rook rolled 7, 3 (1 good die: keep highest), kept 7; Gear +2 (Sword) = 9; left out: Gear +1; rolled here."""
    how = provenance(side)
    if detail["given_total"]:
        return f"{isolate(detail['name'])}: total {detail['total']} announced."
    faces = ", ".join(str(face) for face in detail["rolled"])
    applied = ", ".join(modifier_words(modifier) for modifier in detail["applied"]) or "no modifiers"
    line = (f"{isolate(detail['name'])} rolled {faces} ({net_words(detail['good'], detail['bad'])}), kept {detail['kept']}; "
            f"{applied} = {detail['total']}")
    if detail["left_out"]:
        line += "; left out: " + ", ".join(modifier_words(modifier) for modifier in detail["left_out"])
    return line + (f"; {how}." if how else ".")


def happened(record: dict) -> list[str]:
    """Each side of a logged Anomaly roll: dice, what was kept, modifiers that counted and those left out."""
    result = record["result"]
    lines = [side_happened(record["actor"], result["actor"])]
    if record["kind"] == "opposed":
        lines.append(side_happened(record["defender"], result["defender"]))
    return lines
