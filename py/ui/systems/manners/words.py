"""Manner Cards results in words: the one sentence announced and logged, what a cell
means, the numbers compared, and the notes.

Reads only the record and its "result" (filled by rules.resolve); decides nothing.
"""
from __future__ import annotations

import rules
from rules.words import PDI, isolate

OUTCOME_WORDS = {"success": "Success", "partial": "Partial success", "failure": "Failure",
                 "compromise": "Compromise"}
NUMBER_CELLS = ("+2", "+0", "Partial")

# What each cell of either table means for the player (RULES.md), for the legend.
CELL_MEANINGS = {
    "Win": "The player succeeds outright; numbers are not compared.",
    "Lose": "The player fails outright: the GM brings in the Complication, or the opponent's Intention happens.",
    "+2": "The player adds 2, then the numbers are compared.",
    "+0": "The numbers are compared as they are.",
    "Partial": "The other side adds 2; a player who still wins gets a Partial Success.",
}
NUMBERS_RULE = ("Numbers: Manner + Skill or Spell + 1 per helper, against the difficulty or the "
                "opponent's numbers. Higher wins.")
TIES_RULE = ("Ties: the side with more applicable descriptors (Traits, Specialities) wins; "
             "otherwise each side gets a partial success (a compromise).")
PARTIAL_MEANING = {
    "test": "A Partial Success: the player succeeds, but the GM brings in the Complication in a minor way.",
    "confrontation": "A Partial Success: the player succeeds, but the opponent gets some small part "
                     "of its Intention.",
}
OTHER_PARTIAL_MEANING = {
    "test": "The player fails, but the Complication only comes in partly.",
    "confrontation": "The player fails, but the opponent only partly gets its way.",
}
COMPROMISE_MEANING = "Neither side wins outright: each gets a compromised version of what it wanted."


def player_name(record: dict) -> str:
    return (record.get("player") or {}).get("name") or "The player"


def opponent_name(record: dict) -> str:
    return (record.get("opponent") or {}).get("name") or "The opponent"


def against_words(record: dict) -> str:
    """What the player's card met: the Complication, or the opponent's Manner."""
    if record.get("kind") == "test":
        return str(record.get("complication"))
    return f"{possessive(isolate(opponent_name(record)))} {(record.get('opponent') or {}).get('manner')}"


def possessive(name: str) -> str:
    return f"{name}'" if name.removesuffix(PDI).endswith("s") else f"{name}'s"


def compares_numbers(result: dict) -> bool:
    return result.get("cell") in NUMBER_CELLS


def outcome_word(result: dict) -> str:
    return OUTCOME_WORDS.get(result.get("outcome"), str(result.get("outcome")))


def sentence(record: dict) -> str:
    """E.g. "Wren plays Force against Hostility: Lose. Failure." """
    result = record.get("result") or {}
    manner = (record.get("player") or {}).get("manner")
    words = f"{isolate(player_name(record))} plays {manner} against {against_words(record)}: {result.get('cell')}"
    if compares_numbers(result):
        words += f", {result.get('player_total')} against {result.get('other_total')}"
        if result.get("tie_broken_by") == "descriptors":
            words += ", tie broken by descriptors"
    return f"{words}. {outcome_word(result)}."


def side_sum(side: dict) -> str:
    """"Force 3 + Climb 2 + 1 helper": how a side's number is made, before the card's +2."""
    parts = [f"{side.get('manner')} {side.get('manner_rating', 0)}"]
    skill = isolate(side["skill"]) if side.get("skill") else "Skill"
    if side.get("skill") or side.get("skill_rating"):
        parts.append(f"{skill} {side.get('skill_rating', 0)}")
    helpers = side.get("helpers", 0)
    if helpers:
        parts.append(f"{helpers} {'helper' if helpers == 1 else 'helpers'}")
    return " + ".join(parts)


def numbers_lines(record: dict) -> list[str]:
    """The two numbers compared, each with how it was made; [] when the card decided outright."""
    result = record["result"]
    if not compares_numbers(result):
        return []
    player_bonus = " + 2 (card)" if result["cell"] == "+2" else ""
    other_bonus = " + 2 (card)" if result["cell"] == "Partial" else ""
    player = record["player"]
    lines = [f"{isolate(player_name(record))}: {side_sum(player)}{player_bonus} = {result['player_total']}"]
    if record["kind"] == "test":
        lines.append(f"Difficulty {record['difficulty']}{other_bonus} = {result['other_total']}")
    else:
        lines.append(f"{isolate(opponent_name(record))}: {side_sum(record['opponent'])}{other_bonus} = {result['other_total']}")
    return lines


def decision_words(record: dict) -> str:
    """Why this outcome: the cell outright, the higher number, or how a tie went."""
    result = record["result"]
    player = isolate(player_name(record))
    other = "the Complication" if record["kind"] == "test" else isolate(opponent_name(record))
    cell = result["cell"]
    if cell == "Win":
        return f"Win: {player} succeeds outright; the numbers are not compared."
    if cell == "Lose":
        what = "the GM brings in the Complication" if record["kind"] == "test" else \
            f"{possessive(other)} Intention happens"
        return f"Lose: {player} fails outright; {what}."
    mine, theirs = result["player_total"], result["other_total"]
    if mine != theirs:
        higher = player if mine > theirs else ("the difficulty" if record["kind"] == "test" else other)
        return f"{mine} against {theirs}: {higher} is higher."
    ours = (record.get("player") or {}).get("descriptors", 0)
    yours = 0 if record["kind"] == "test" else (record.get("opponent") or {}).get("descriptors", 0)
    if result.get("tie_broken_by") == "descriptors":
        winner = player if result["winner"] == "player" else other
        return f"A tie at {mine}: {winner} has more descriptors ({max(ours, yours)} to {min(ours, yours)})."
    return f"A tie at {mine}, and descriptors do not break it ({ours} each)."


def meaning(record: dict) -> str | None:
    """What a partial outcome or a compromise means at the table."""
    result = record["result"]
    kind = record["kind"]
    if result["outcome"] == "partial":
        return PARTIAL_MEANING[kind]
    if result["outcome"] == "failure" and result.get("partial"):
        return OTHER_PARTIAL_MEANING[kind]
    if result["outcome"] == "compromise":
        return COMPROMISE_MEANING
    return None


def helpers_words(record: dict) -> str | None:
    """Helpers share the consequences of failure: say so when the player fails."""
    player = record.get("player") or {}
    helpers = player.get("helpers", 0)
    if not helpers or (record.get("result") or {}).get("outcome") != "failure":
        return None
    names = [isolate(name) for name in player.get("helper_names") or [] if isinstance(name, str)]
    if names and len(names) == helpers:
        who = names[0] if helpers == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{who} {'shares' if helpers == 1 else 'share'} the consequences of this failure."
    who = "The helper shares" if helpers == 1 else f"The {helpers} helpers share"
    return f"{who} the consequences of this failure."


def helped_by(side: dict) -> str:
    """"helped by Bryn and Ash" (or "2 helpers"), or "" with no helpers."""
    helpers = side.get("helpers", 0) if isinstance(side, dict) else 0
    names = [isolate(name) for name in side.get("helper_names") or [] if isinstance(name, str)] if helpers else []
    if names and len(names) == helpers:
        return "helped by " + (names[0] if helpers == 1 else ", ".join(names[:-1]) + " and " + names[-1])
    return f"{helpers} {'helper' if helpers == 1 else 'helpers'}" if helpers else ""


def happened(record: dict) -> list[str]:
    """The cards played, the table cell that decided, and each side's numbers and helpers."""
    result = record["result"]
    player = record["player"]
    column = record["complication"] if record["kind"] == "test" else record["opponent"]["manner"]
    lines = [f"Cards: {isolate(player_name(record))} played {player['manner']}; "
             + (f"the GM's Complication was {column}." if record["kind"] == "test"
                else f"{isolate(opponent_name(record))} played {column}."),
             f"Table cell [{player['manner']}][{column}]: {result['cell']}."]
    for side in [player] + ([record["opponent"]] if record["kind"] == "confrontation" else []):
        helped = helped_by(side)
        if helped:
            lines.append(f"{isolate(side['name']) if side.get('name') else 'A side'}: {helped}.")
    return lines


def notes(result: dict) -> list[str]:
    return [rules.READINGS[key] for key in result.get("notes", []) if key in rules.READINGS]
