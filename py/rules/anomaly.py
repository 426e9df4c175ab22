"""Anomaly (d10): one d10 plus modifiers, with good and bad dice that cancel.

n good dice left: roll 1 + n d10, keep the highest; n bad dice left: keep the
lowest. Within a modifier kind only the largest applies, unless marked
"stacks". Success only above the difficulty; an opposed roll is the difficulty.
"""

from .dice import check_faces, roll
from .errors import RecordError
from .record import (check_boolean, check_integer, path, plain_copy, read_dice_from, read_integer, read_mapping,
                     read_name, read_optional_list)
from .words import capitalize, possessive, show

SIDES = 10
MAX_CONDITIONAL = 20
MAX_MODIFIERS = 30
MAX_MODIFIER = 99
MAX_KIND = 40
MAX_DIFFICULTY = 99
MAX_TOTAL = 999
COMMON_KINDS = ("Size", "Attribute", "Skill", "Knowledge", "Gear")
SUGGESTED_DIFFICULTIES = (3, 6, 9, 12, 15, 18)


def net_dice(good, bad) -> dict:
    """Good and bad dice cancel one for one; what is left of each."""
    good, bad = check_conditional(good, bad)
    cancelled = min(good, bad)
    return {"good": good - cancelled, "bad": bad - cancelled}


def dice_count(good, bad) -> int:
    """How many d10 to roll: one, plus one per conditional die left after cancelling."""
    good, bad = check_conditional(good, bad)
    return 1 + abs(good - bad)


def check_conditional(good, bad) -> tuple[int, int]:
    return (check_integer(good, "Good dice", 0, MAX_CONDITIONAL),
            check_integer(bad, "Bad dice", 0, MAX_CONDITIONAL))


def kept_index(dice: list[int], good: int, bad: int) -> int:
    """Position of the kept die: the highest with good dice left, the lowest with bad, else the only one."""
    pick = min if bad > good else max
    return dice.index(pick(dice))


def kind_key(kind: str) -> str:
    """Kinds compare without regard to case or surrounding spaces ("Gear" is "gear ")."""
    return kind.strip().casefold()


def select_modifiers(modifiers) -> tuple[list[dict], list[dict]]:
    """Split modifiers into (applied, left out), each in the order given.

    Kinds stack with each other. Within a kind every modifier marked "stacks"
    applies, plus the largest of the others (the first of equals); the rest
    are left out.
    """
    modifiers = check_modifiers(modifiers)
    largest: dict[str, int] = {}
    for position, modifier in enumerate(modifiers):
        if modifier.get("stacks"):
            continue
        key = kind_key(modifier["kind"])
        if key not in largest or modifier["value"] > modifiers[largest[key]]["value"]:
            largest[key] = position
    applied, left_out = [], []
    for position, modifier in enumerate(modifiers):
        keeps = modifier.get("stacks") or largest[kind_key(modifier["kind"])] == position
        (applied if keeps else left_out).append(modifier)
    return applied, left_out


def check_modifiers(modifiers, who: str = "The roll", where: str | None = None) -> list[dict]:
    """Check a list of modifiers: each {"kind": text, "value": whole number, "stacks": true/false}."""
    if modifiers is None:
        return []
    if not isinstance(modifiers, list):
        raise RecordError(f"{capitalize(possessive(who))} modifiers must be a list.", where)
    if len(modifiers) > MAX_MODIFIERS:
        raise RecordError(f"{who} has more than {MAX_MODIFIERS} modifiers.", where)
    for number, modifier in enumerate(modifiers):
        here = path(where, number)
        if not isinstance(modifier, dict):
            raise RecordError(f"Modifier {number + 1} must be a group of fields (kind, value), not {show(modifier)}.", here)
        kind = modifier.get("kind")
        if not isinstance(kind, str) or not kind.strip():
            raise RecordError(f"Modifier {number + 1} needs a kind, such as Gear or Size.", path(here, "kind"))
        if len(kind) > MAX_KIND:
            raise RecordError(f"The kind of modifier {number + 1} is too long: {MAX_KIND} characters at most.",
                              path(here, "kind"))
        check_integer(modifier.get("value"), f"The value of the {kind.strip()} modifier",
                      -MAX_MODIFIER, MAX_MODIFIER, path(here, "value"))
        if modifier.get("stacks") is not None:
            check_boolean(modifier["stacks"], f"Whether the {kind.strip()} modifier stacks", path(here, "stacks"))
    return modifiers


def read_roller(side: dict, where: str, default_name: str) -> dict:
    """Check one side's roll: good and bad dice, typed-in dice, modifiers."""
    who = read_name(side, default_name, where)
    read_dice_from(side, who, where, side.get("dice") is not None, False)
    good = read_integer(side, "good", f"{capitalize(possessive(who))} good dice", 0, MAX_CONDITIONAL, where, default=0)
    bad = read_integer(side, "bad", f"{capitalize(possessive(who))} bad dice", 0, MAX_CONDITIONAL, where, default=0)
    modifiers = check_modifiers(read_optional_list(side, "modifiers", "Modifiers", where), who, path(where, "modifiers"))
    dice = read_optional_list(side, "dice", f"{capitalize(possessive(who))} dice", where)
    if dice is not None:
        dice = check_faces(dice, dice_count(good, bad), SIDES, who, path(where, "dice"))
    return {"who": who, "good": good, "bad": bad, "modifiers": modifiers, "dice": dice}


def settle(roller: dict, source) -> tuple[list[int], dict]:
    """Roll (unless the dice were typed in) and total one side. Returns (dice, result detail)."""
    good, bad = roller["good"], roller["bad"]
    dice = roller["dice"] if roller["dice"] is not None else roll(dice_count(good, bad), SIDES, source)
    keep = kept_index(dice, good, bad)
    applied, left_out = select_modifiers(roller["modifiers"])
    modifier_total = sum(modifier["value"] for modifier in applied)
    return dice, {
        "name": roller["who"], "given_total": False,
        "good": good, "bad": bad, "net": net_dice(good, bad), "rolled": list(dice), "keep": keep, "kept": dice[keep],
        "modifier_total": modifier_total, "total": dice[keep] + modifier_total,
        "applied": [plain_copy(modifier) for modifier in applied],
        "left_out": [plain_copy(modifier) for modifier in left_out],
    }


def given_defender(side: dict, where: str) -> dict:
    """A defender whose total was announced, not rolled here."""
    who = read_name(side, "The defender", where)
    read_dice_from(side, who, where, side.get("dice") is not None, True)
    total = read_integer(side, "total", f"{capitalize(possessive(who))} total", -MAX_TOTAL, MAX_TOTAL, where)
    if side.get("dice") is not None:
        raise RecordError(f"{capitalize(possessive(who))} dice and total were both given: give one or the other.", where)
    return {"name": who, "given_total": True, "total": total}


def resolve_check(record: dict, source) -> dict:
    """A roll against a difficulty set by the GM."""
    actor = read_roller(read_mapping(record, "actor", "The roll"), "actor", "The player")
    difficulty = read_integer(record, "difficulty", "The difficulty", 0, MAX_DIFFICULTY)
    dice, actor_detail = settle(actor, source)
    record["actor"]["dice"] = dice
    record["result"] = outcome(actor_detail, None, difficulty)
    return record


def resolve_opposed(record: dict, source) -> dict:
    """The defender rolls the same way; that total is the attacker's difficulty."""
    actor = read_roller(read_mapping(record, "actor", "The attacker's roll"), "actor", "The attacker")
    defender_fields = read_mapping(record, "defender", "The defender's roll")
    if defender_fields.get("total") is not None:
        defender_detail = given_defender(defender_fields, "defender")
        dice, actor_detail = settle(actor, source)
    else:
        defender = read_roller(defender_fields, "defender", "The defender")
        dice, actor_detail = settle(actor, source)
        defender_dice, defender_detail = settle(defender, source)
        record["defender"]["dice"] = defender_dice
    record["actor"]["dice"] = dice
    record["result"] = outcome(actor_detail, defender_detail, defender_detail["total"])
    return record


def outcome(actor_detail: dict, defender_detail: dict | None, difficulty: int) -> dict:
    margin = actor_detail["total"] - difficulty
    result = {"actor": actor_detail}
    if defender_detail is not None:
        result["defender"] = defender_detail
    result.update({"difficulty": difficulty, "outcome": "success" if margin > 0 else "failure", "margin": margin})
    result["notes"] = notes(result)
    return result


def notes(result: dict) -> list[str]:
    rollers = [result["actor"]] + ([result["defender"]] if "defender" in result else [])
    rolled = [roller for roller in rollers if not roller["given_total"]]
    found = []
    if result["margin"] == 0:
        found.append("anomaly-tie")
    if any(roller["left_out"] for roller in rolled):
        found.append("anomaly-left-out")
    if any(modifier.get("stacks") for roller in rolled for modifier in roller["applied"]):
        found.append("anomaly-stacks")
    if any(roller["good"] and roller["bad"] for roller in rolled):
        found.append("anomaly-cancel")
    if any(roller["given_total"] for roller in rollers):
        found.append("anomaly-given-total")
    return found
