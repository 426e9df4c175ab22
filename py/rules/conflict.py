"""Resolving a conflict record, and re-checking one that carries its result.

`resolve` reads the record's system and kind and hands a copy to that
system's resolver; `verify` re-resolves a record with its own dice.
"""

from . import anomaly, manners, tension
from .dice import NoDice, check_faces
from .errors import RecordError, RuleError
from .record import path, plain_copy, read_dice_from, read_header

RESOLVERS = {
    ("tension", "environment"): tension.resolve_environment,
    ("tension", "opposed"): tension.resolve_opposed,
    ("anomaly", "check"): anomaly.resolve_check,
    ("anomaly", "opposed"): anomaly.resolve_opposed,
    ("manners", "test"): manners.resolve_test,
    ("manners", "confrontation"): manners.resolve_confrontation,
}


def resolve(record, source=None) -> dict:
    """A new record with "result" filled, and every die that was rolled written in.

    Dice left out (null) are rolled from `source` (default: `secrets`); a `keep`
    left out keeps the best dice allowed. Any "result" given is ignored.
    The caller's record is never changed.
    """
    system, kind = read_header(record)
    copy = plain_copy({key: value for key, value in record.items() if key != "result"})
    try:
        return RESOLVERS[system, kind](copy, source)
    except RuleError:
        raise
    except RecursionError:
        raise RuleError("This record is nested too deeply.") from None


def verify(record) -> list[str]:
    """Re-resolve a record with its own dice and list every way its stored result disagrees.

    An empty list means the record is consistent. Never raises for bad input:
    a record that breaks a rule gives that rule's message.
    """
    if not isinstance(record, dict):
        return ["This is not a conflict record."]
    stored = record.get("result")
    if not isinstance(stored, dict):
        return ["This record has no result to check."]
    try:
        stored = plain_copy(stored)
        recomputed = resolve(record, source=NoDice())["result"]
    except RuleError as error:
        return [error.message]
    problems = []
    for key, value in recomputed.items():
        if key not in stored:
            problems.append(f"The result is missing \"{key}\".")
        elif not same_json(stored[key], value):
            problems.append(f"\"{key}\": the record says {brief(stored[key])}, the rules give {brief(value)}.")
    return problems


def unresolved_sides(record: dict) -> list[tuple[str, dict]]:
    """(where, side) for every side of a record that may carry dice."""
    found = []
    for key in ("gm", "player", "actor", "defender"):
        if isinstance(record.get(key), dict):
            found.append((key, record[key]))
    initiators = record.get("initiators")
    if isinstance(initiators, list):
        found += [(path("initiators", number), side) for number, side in enumerate(initiators) if isinstance(side, dict)]
    return found


def verify_dice(record) -> list[str]:
    """Check a record that was never resolved (dice set aside): its header and every face
    it holds. An empty list means the dice are dice of its system. Never raises."""
    if not isinstance(record, dict):
        return ["This is not a conflict record."]
    try:
        record = plain_copy(record)
        system, _ = read_header(record)
        sides = 6 if system == "tension" else 10
        for where, side in unresolved_sides(record):
            dice = side.get("dice")
            if dice is not None:
                if not isinstance(dice, list):
                    raise RecordError("Dice must be a list of faces.", path(where, "dice"))
                check_faces(dice, len(dice), sides, "A side", path(where, "dice"))
            read_dice_from(side, "A side", where, dice is not None, side.get("total") is not None, partial=True)
    except RuleError as error:
        return [error.message]
    return []


def same_json(first, second) -> bool:
    """Equal as JSON: unlike ==, true is not 1 and 1.0 is not 1."""
    import json
    try:
        return json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    except (TypeError, ValueError):
        return False


def brief(value) -> str:
    import json
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = "something that is not JSON"
    return text if len(text) <= 80 else text[:77] + "..."
