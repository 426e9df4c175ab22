"""Reading conflict records (version 1): shape checks shared by all systems.

Records are plain JSON objects. `plain_copy` checks that a record is JSON and
copies it; the `read_*` helpers fetch one field each, raising `RecordError`
with a message for players (and `where`, the field's path) when it is wrong.
"""

import math

from .dice import is_whole_number
from .errors import RecordError
from .words import either, show

VERSION = 1
SYSTEMS = {
    "tension": ("environment", "opposed"),
    "anomaly": ("check", "opposed"),
    "manners": ("test", "confrontation"),
}
MAX_DEPTH = 24
MAX_ITEMS = 20_000
MAX_TEXT = 10_000
MAX_NAME = 60
# Larger whole numbers lose precision in JavaScript, so they are not "plain JSON" here.
MAX_SAFE_INTEGER = 2**53 - 1

REQUIRED = object()


def plain_copy(value):
    """A deep copy of `value`, which must be plain JSON (no NaN, no tuples, text keys)."""
    budget = [MAX_ITEMS]
    return _copy(value, 0, budget)


def _copy(value, depth, budget):
    budget[0] -= 1
    if budget[0] < 0:
        raise RecordError("This record is far too large.")
    if depth > MAX_DEPTH:
        raise RecordError("This record is nested too deeply.")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise RecordError(f"The number {show(value)} in this record is too large.")
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RecordError("This record holds a number that is not a real number (NaN or infinity).")
        return float(value)
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise RecordError("This record holds a text that is far too long.")
        return str(value)
    if isinstance(value, list):
        return [_copy(item, depth + 1, budget) for item in value]
    if isinstance(value, dict):
        copied = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise RecordError("Every field name in a record must be text.")
            copied[str(key)] = _copy(item, depth + 1, budget)
        return copied
    raise RecordError("This record holds something that is not plain JSON.")


def path(parent: str | None, key) -> str:
    if parent is None:
        return str(key)
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}"


def read_header(record) -> tuple[str, str]:
    """The record's (system, kind), after checking it is an object of version 1."""
    if not isinstance(record, dict):
        raise RecordError("A conflict record must be a JSON object with fields like \"system\" and \"kind\".")
    version = record.get("v", REQUIRED)
    if version is REQUIRED:
        raise RecordError("This record has no version (\"v\": 1).", "v")
    if not is_whole_number(version) or version != VERSION:
        raise RecordError(f"This app reads records of version {VERSION}, not {show(version)}.", "v")
    system = record.get("system")
    if not isinstance(system, str) or system not in SYSTEMS:
        raise RecordError(
            f"Unknown system {show(system)}: choose tension, anomaly or manners.", "system"
        )
    kind = record.get("kind")
    kinds = SYSTEMS[system]
    if kind not in kinds:
        raise RecordError(
            f"Unknown kind {show(kind)} for {system}: choose {kinds[0]} or {kinds[1]}.", "kind"
        )
    return system, kind


def read_mapping(parent: dict, key: str, label: str, where: str | None = None, default=REQUIRED) -> dict:
    value = parent.get(key, REQUIRED)
    if value is REQUIRED or value is None:
        if default is REQUIRED:
            raise RecordError(f"{label} is missing.", path(where, key))
        return default
    if not isinstance(value, dict):
        raise RecordError(f"{label} must be a group of fields, not {show(value)}.", path(where, key))
    return value


def read_integer(parent: dict, key: str, label: str, low: int, high: int,
                 where: str | None = None, default=REQUIRED) -> int:
    value = parent.get(key, REQUIRED)
    if value is REQUIRED or value is None:
        if default is REQUIRED:
            raise RecordError(f"{label} is missing.", path(where, key))
        return default
    return check_integer(value, label, low, high, path(where, key))


def check_integer(value, label: str, low: int, high: int, where: str | None = None) -> int:
    if not is_whole_number(value) or not low <= value <= high:
        raise RecordError(f"{label} must be a whole number from {low} to {high}, not {show(value)}.", where)
    return value


def read_boolean(parent: dict, key: str, label: str, where: str | None = None, default: bool = False) -> bool:
    value = parent.get(key, None)
    if value is None:
        return default
    return check_boolean(value, label, path(where, key))


def check_boolean(value, label: str, where: str | None = None) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{label} must be true or false, not {show(value)}.", where)
    return value


def read_text(parent: dict, key: str, label: str, where: str | None = None,
              default=REQUIRED, max_length: int = MAX_NAME) -> str:
    value = parent.get(key, REQUIRED)
    if value is REQUIRED or value is None:
        if default is REQUIRED:
            raise RecordError(f"{label} is missing.", path(where, key))
        return default
    if not isinstance(value, str):
        raise RecordError(f"{label} must be text, not {show(value)}.", path(where, key))
    if len(value) > max_length:
        raise RecordError(f"{label} is too long: {max_length} characters at most.", path(where, key))
    return value


def read_name(side: dict, default: str, where: str | None = None) -> str:
    """The side's name for messages and the log, or a role label when it has none."""
    name = read_text(side, "name", "A name", where, default=None)
    if name is None or not name.strip():
        return default
    return name.strip()


def read_choice(parent: dict, key: str, label: str, choices, where: str | None = None,
                default=REQUIRED, noun: str | None = None) -> str:
    """One of `choices`. `label` names the field ("Ash's Manner"), `noun` the kind of thing ("Manner")."""
    value = parent.get(key, REQUIRED)
    if value is REQUIRED or value is None:
        if default is REQUIRED:
            raise RecordError(f"{label} is missing: choose {either(choices)}.", path(where, key))
        return default
    if not isinstance(value, str) or value not in choices:
        raise RecordError(f"Unknown {noun or label} {show(value)}: choose {either(choices)}.", path(where, key))
    return value


def read_optional_list(parent: dict, key: str, label: str, where: str | None = None):
    value = parent.get(key, None)
    if value is None:
        return None
    if not isinstance(value, list):
        raise RecordError(f"{label} must be a list, not {show(value)}.", path(where, key))
    return value


DICE_FROM = ("app", "typed", "total")  # rolled here, real dice entered by hand, only a total announced


def read_dice_from(side: dict, who: str, where: str | None, dice_given: bool, total_given: bool,
                   partial: bool = False) -> None:
    """Check a side's "dice_from" (where its dice came from), when it has one: it must not
    contradict what the side holds (a total is "total"; dice are "app" or "typed", and
    "typed" dice must be given unless the record is `partial`, never resolved). It changes
    no result."""
    value = side.get("dice_from")
    if value is None:
        return
    if not isinstance(value, str) or value not in DICE_FROM:
        raise RecordError(f"Unknown origin of dice {show(value)}: choose {either(DICE_FROM)}.", path(where, "dice_from"))
    if (total_given and value != "total") or (dice_given and value == "total") or (
            value == "typed" and not dice_given and not partial):
        raise RecordError(f"{who}'s dice are said to come from {show(value)}, but the side does not hold that.",
                          path(where, "dice_from"))
