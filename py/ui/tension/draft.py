"""The Tension Engine conflict being set up on screen, and the record it becomes.

A draft holds each side as the table sets it up: who (a roster entry or a
quick "no sheet" roll), which rating makes the pool, how its dice arrive
(rolled here, real dice typed in, or only a total announced from another
phone) and which dice it keeps. `to_record` turns it into a conflict record
for `rules.resolve`; nothing here decides an outcome. Pure Python.
"""
from __future__ import annotations

import rules

from ui.core.state import AppState

ROLL, REAL, TOTAL = "roll", "real", "total"
DEFAULT_NAMES = {"gm": "The GM", "character": "Player", "adversary": "Adversary"}


def new_side(role: str, entry: dict | None = None) -> dict:
    side = {"role": role, "ref": None, "name": "", "attribute": "", "skill": "", "trait": "Power",
            "pool": 2, "mode": ROLL, "dice": None, "keep": None, "boost": False, "total": None,
            "fresh": False}
    if entry is not None:
        pick_entry(side, entry)
    return side


def pick_entry(side: dict, entry: dict | None):
    """Point a side at a roster entry (or at nobody), choosing its first ratings."""
    side.update(ref=None, dice=None, keep=None, boost=False, total=None)
    if entry is None:
        return
    side["ref"] = entry["id"]
    side["role"] = entry["kind"]
    if entry["kind"] == "character":
        side["attribute"] = entry["attributes"][0]["name"] if entry["attributes"] else ""
        side["skill"] = entry["skills"][0]["name"] if entry["skills"] else ""
    else:
        side["trait"] = "Power"


def new_draft(state: AppState) -> dict:
    characters = state.roster("character")
    adversaries = state.roster("adversary")
    first_character = characters[0] if characters else None
    return {
        "kind": "environment",
        "combat": False,
        "retry": False,
        "gm": new_side("gm"),
        "player": new_side("character", first_character),
        "initiators": [new_side("adversary", adversaries[0]) if adversaries else new_side("adversary")],
        "defender": new_side("character", first_character),
        "logged": None,
    }


def sides(draft: dict) -> list[tuple[str, dict]]:
    """(key, side) for every side on screen, in the order they roll."""
    if draft["kind"] == "environment":
        return [("gm", draft["gm"]), ("player", draft["player"])]
    return [*((f"initiator-{index}", side) for index, side in enumerate(draft["initiators"])),
            ("defender", draft["defender"])]


def side_by_key(draft: dict, key: str) -> dict:
    if key.startswith("initiator-"):
        index = int(key.removeprefix("initiator-"))
        return draft["initiators"][index]
    return draft[key]


def rating(items: list[dict], name: str) -> int:
    return next((item["rating"] for item in items if item["name"] == name), 0)


def side_name(state: AppState, side: dict) -> str:
    entry = state.entry(side["ref"])
    if entry is not None:
        return entry["name"]
    return side["name"].strip() or DEFAULT_NAMES[side["role"]]


def gm_pool(state: AppState, draft: dict) -> int:
    return state.session["tension"] + (1 if draft["retry"] else 0)


def pool(state: AppState, draft: dict, side: dict) -> int:
    """Dice this side rolls: Tension for the GM, Attribute + Skill, Power or a Dread Trait."""
    if side["role"] == "gm":
        return gm_pool(state, draft)
    entry = state.entry(side["ref"])
    if entry is None:
        return side["pool"]
    if entry["kind"] == "character":
        return rating(entry["attributes"], side["attribute"]) + rating(entry["skills"], side["skill"])
    return entry["power"] if side["trait"] == "Power" else rating(entry["traits"], side["trait"])


def available_ap(state: AppState, side: dict) -> int | None:
    """AP the side's character has; None for a quick roll with no sheet (no limit known)."""
    entry = state.entry(side["ref"])
    return entry["ap"] if entry is not None and entry["kind"] == "character" else None


def paid_dice(side: dict) -> int:
    """Extra dice kept beyond two: AP for a character, Tension for the GM or an adversary."""
    return max(0, len(side["keep"]) - 2) if side["keep"] is not None else 0


def has_rolled(side: dict, dice_needed: int) -> bool:
    if side["mode"] == TOTAL:
        return side["total"] is not None
    return side["dice"] is not None and len(side["dice"]) == dice_needed


def record_side(state: AppState, draft: dict, side: dict) -> dict:
    """One side of the conflict record (RULES.md), as far as the table has settled it."""
    fields = {"name": side_name(state, side)}
    if side["ref"]:
        fields["id"] = side["ref"]
    if side["role"] != "gm":
        fields["side"] = side["role"]
    if side["mode"] == TOTAL:
        fields["total"] = side["total"]
        return fields
    fields["pool"] = pool(state, draft, side)
    needed = fields["pool"]
    fields["dice"] = list(side["dice"]) if has_rolled(side, needed) else None
    fields["keep"] = list(side["keep"]) if side["keep"] is not None and fields["dice"] else None
    paid = paid_dice(side) if fields["keep"] is not None else 0
    if side["role"] == "character":
        fields["ap"] = paid
    else:
        fields["boost"] = side["boost"]
        fields["extra"] = paid
    return fields


def to_record(state: AppState, draft: dict) -> dict:
    session = state.session
    record = {"v": rules.VERSION, "system": "tension", "kind": draft["kind"], "tension": session["tension"],
              "settings": {"ones_feed_tension": session["settings"]["ones_feed_tension"],
                           "tension_explodes": session["settings"]["tension_explodes"]}}
    if draft["kind"] == "environment":
        record["retry"] = draft["retry"]
        record["gm"] = record_side(state, draft, draft["gm"])
        record["player"] = record_side(state, draft, draft["player"])
    else:
        record["combat"] = draft["combat"]
        record["initiators"] = [record_side(state, draft, side) for side in draft["initiators"]]
        record["defender"] = record_side(state, draft, draft["defender"])
    return record


def everyone_settled(state: AppState, draft: dict) -> bool:
    return all(has_rolled(side, pool(state, draft, side)) for _, side in sides(draft))


def side_preview(state: AppState, draft: dict, side: dict) -> dict | None:
    """This side's total so far (rules.tension_side), or None before it has rolled.
    Raises RuleError when its current choice breaks a rule (e.g. one die kept)."""
    if not has_rolled(side, pool(state, draft, side)):
        return None
    fields = record_side(state, draft, side)
    tension = gm_pool(state, draft)
    role = side["role"] if side["mode"] != TOTAL else "adversary"
    return rules.tension_side(fields, role, tension)
