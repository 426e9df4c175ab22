"""Tension Engine results in words: the one sentence announced and logged, and the notes.

Reads only the record's "result" (filled by rules.resolve); decides nothing.
"""
from __future__ import annotations

import rules

OUTCOME_WORDS = {"success": "Success", "failure": "Failure", "tie": "Tie"}
OPPOSED_WORDS = {"initiator": "{initiator} succeeds", "defender": "{defender} holds", "tie": "Tie"}


def kept_words(detail: dict) -> str:
    if detail["given_total"]:
        return f"{detail['name']} has {detail['total']}"
    kept = " and ".join(str(face) for face in detail["kept"])
    boost = f" + {detail['boost']} boost" if detail["boost"] else ""
    return f"{detail['name']} keeps {kept}{boost}"


def environment_sentence(result: dict) -> str:
    gm, player = result["gm"], result["player"]
    outcome = OUTCOME_WORDS[result["outcome"]]
    return f"{kept_words(player)}: {player['total']} against {gm['total']}. {outcome}."


def opposed_sentence(result: dict) -> str:
    defender = result["defender"]
    parts = []
    for initiator in result["initiators"]:
        words = OPPOSED_WORDS[initiator["outcome"]].format(initiator=initiator["name"], defender=defender["name"])
        damage = f", {initiator['damage']} damage" if initiator["damage"] else ""
        parts.append(f"{initiator['name']} {initiator['total']} against {defender['name']} {defender['total']}: {words}{damage}.")
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
        lines.append(f"{sign}{abs(change['change'])} {reason} ({change['who']}) → {change['after']}")
    return lines


def notes(result: dict) -> list[str]:
    return [rules.READINGS[key] for key in result.get("notes", []) if key in rules.READINGS]
