"""Tension Engine results in words: the one sentence announced and logged, and the notes.

Reads only the record's "result" (filled by rules.resolve); decides nothing.
"""
from __future__ import annotations

import rules
from rules.words import capitalize, in_text, isolate

from ui.systems.dice_entry import provenance

OUTCOME_WORDS = {"success": "Success", "failure": "Failure", "tie": "Tie"}
OPPOSED_WORDS = {"initiator": "{initiator} succeeds", "defender": "{initiator} misses, {defender} holds",
                 "tie": "{initiator} ties, {defender} holds"}
def listed(items: list) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def kept_words(detail: dict) -> str:
    """"Bo keeps 5, 3, 2 and 1 (2 AP spent)": the dice kept, highest first, and what keeping them cost."""
    name = capitalize(in_text(detail["name"]))
    if detail["given_total"]:
        return f"{name} has {detail['total']}"
    kept = listed([str(face) for face in sorted(detail["kept"], reverse=True)])
    boost = f" + {detail['boost']} boost" if detail["boost"] else ""
    paid = [f"{detail['ap_spent']} AP spent"] if detail.get("ap_spent") else []
    if detail.get("extra"):
        paid.append(f"{detail['extra']} Tension for extra dice")
    if detail["boost"]:
        paid.append("1 Tension for the boost")
    spent = f" ({', '.join(paid)})" if paid else ""
    return f"{name} keeps {kept}{boost}{spent}"


def environment_sentence(result: dict) -> str:
    gm, player = result["gm"], result["player"]
    outcome = OUTCOME_WORDS[result["outcome"]]
    return f"{kept_words(player)}: {player['total']} against {in_text(gm['name'])}'s {gm['total']}. {outcome}."


def opposed_sentence(result: dict) -> str:
    defender = result["defender"]
    parts = []
    for initiator in result["initiators"]:
        first, second = in_text(initiator["name"]), in_text(defender["name"])
        words = OPPOSED_WORDS[initiator["outcome"]].format(initiator=first, defender=second)
        damage = f", {initiator['damage']} damage" if initiator["damage"] else ""
        parts.append(capitalize(f"{first} {initiator['total']} against {second} {defender['total']}: {words}{damage}."))
    return " ".join(parts)


def sentence(record: dict) -> str:
    result = record["result"]
    return environment_sentence(result) if record["kind"] == "environment" else opposed_sentence(result)


def tension_change_words(result: dict) -> str:
    before, after = result["tension_before"], result["tension_after"]
    if before == after:
        return f"Tension stays at {after}."
    return f"Tension {before} → {after}."


CHANGE_REASONS = {"retry": "trying again", "boost": "boost", "extra": "extra dice", "failure": "failure",
                  "ones": "1s rolled"}


def tension_change_lines(result: dict) -> list[str]:
    lines = []
    for change in result["tension_changes"]:
        sign = "+" if change["change"] > 0 else "−"
        reason = CHANGE_REASONS.get(change["why"], change["why"])
        lines.append(f"{sign}{abs(change['change'])} {reason} ({in_text(change['who'])}) → {change['after']}")
    return lines


def notes(result: dict) -> list[str]:
    return [rules.READINGS[key] for key in result.get("notes", []) if key in rules.READINGS]


def side_line(side: dict, detail: dict) -> str:
    """"Ash keeps 6, 5 and 2 (3 AP spent), rolled here.": one side of a logged conflict."""
    how = provenance(side)
    if detail.get("given_total"):
        return f"{capitalize(in_text(detail['name']))}: total {detail['total']} announced" + (
            f", {how}." if how and how != "total only" else ".")
    kept = ", ".join(str(face) for face in detail["kept"]) or "nothing"
    spent = []
    if detail["ap_spent"]:
        spent.append(f"{detail['ap_spent']} AP spent")
    if detail["boost"]:
        spent.append(f"boost +{detail['boost']} for 1 Tension")
    if detail["extra"]:
        spent.append(f"{detail['extra']} extra {'die' if detail['extra'] == 1 else 'dice'} for {detail['extra']} Tension")
    if detail["ones"]:
        spent.append(f"{detail['ones']} × 1 rolled")
    extra = f" ({'; '.join(spent)})" if spent else ""
    name = capitalize(in_text(detail["name"]))
    return f"{name} keeps {kept}{extra} = {detail['total']}" + (f", {how}." if how else ".")


def happened(record: dict, table_lines=()) -> list[str]:
    """Everything a logged Tension Engine conflict did, one line each: each side's kept dice
    and spending, trying again, damage, Tension's changes and explosions with their lines."""
    result = record["result"]
    lines = []
    if record.get("retry"):
        lines.append("Tried again: +1 Tension first.")
    if record["kind"] == "environment":
        lines += [side_line(record["gm"], result["gm"]), side_line(record["player"], result["player"])]
    else:
        lines += [side_line(side, detail) for side, detail in zip(record["initiators"], result["initiators"])]
        lines.append(side_line(record["defender"], result["defender"]))
        for initiator in result["initiators"]:
            if initiator["damage"]:
                lines.append(f"{capitalize(in_text(initiator['name']))} deals {initiator['damage']} damage to "
                             f"{in_text(result['defender']['name'])}.")
    lines += tension_change_lines(result)
    lines_for = list(table_lines) + [""] * len(result["explosions"])
    for at, roll, line in zip(result["explosions"], result["table_rolls"], lines_for):
        lines.append(f"Tension reached {at}: rolled {roll} on the Tension Table" + (f": {isolate(line)}" if line else "."))
    return lines
