"""The Tension Engine conflict being set up on screen, and the record it becomes.

A draft holds each side as the table sets it up: who (a roster entry or a
quick "no sheet" roll), which rating makes the pool, how its dice arrive
(rolled here, real dice typed in, or only a total announced from another
phone) and which dice it keeps. `to_record` turns it into a conflict record
for `rules.resolve`; nothing here decides an outcome. Pure Python.
"""
from __future__ import annotations

import json

import rules
from rules.words import capitalize, in_text

from ui.core import shapes
from ui.core.role import is_player, own_first
from ui.core.state import AppState
from ui.systems.dice_entry import DICE_FROM, MODES, REAL, ROLL, TOTAL, complete, has_dice, on_table

KINDS = ("environment", "opposed")
SIDES = 6  # the d6
TOTALS = (0, rules.LIMITS["tension_total"])  # a side's total, as announced
DEFAULT_NAMES = {"gm": "The GM", "character": "Player", "adversary": "Adversary"}


MAX_BY = 60  # characters of who logged an entry (session.model.MAX_NAME)


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
    first_character = own_first(state, characters)
    return {
        "kind": "environment",
        "combat": False,
        "retry": False,
        "gm": new_side("gm"),
        "player": new_side("character", first_character),
        "initiators": [new_side("adversary", adversaries[0]) if adversaries else new_side("adversary")],
        "defender": new_side("character", first_character),
        "tension": None,  # the Tension the conflict was rolled with, from its first die on
        "logged": None,
        "called": None,  # a GM's call answered here: {"id", "words"}, the GM's side settled on the GM's phone
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


def acting(state: AppState, draft: dict) -> str:
    """Whose conflict the log files it under: the player against the environment; against an
    adversary, the initiators (the Ghoul's attack is the Ghoul's, not the defender's)."""
    if draft["kind"] == "environment":
        return side_name(state, draft["player"])
    names = list(dict.fromkeys(side_name(state, side) for side in draft["initiators"]))
    return " and ".join(names)[:MAX_BY]


def conflict_tension(state: AppState, draft: dict) -> int:
    """The Tension this conflict is played with: as it was when its first die was rolled (a
    change by hand meanwhile applies to the session, not to dice already on the table)."""
    return state.session["tension"] if draft["tension"] is None else draft["tension"]


def gm_pool(state: AppState, draft: dict) -> int:
    return conflict_tension(state, draft) + (1 if draft["retry"] else 0)


def dice_on_table(draft: dict) -> bool:
    return on_table(sides(draft))


def in_play(draft: dict) -> bool:
    """Something on the table a reload must bring back (ui.keeping.progress): dice, or a result."""
    return dice_on_table(draft) or draft["logged"] is not None


def note_dice(state: AppState, draft: dict):
    """Pin the conflict's Tension at its first die; free it again once the table is clear."""
    if not dice_on_table(draft):
        draft["tension"] = None
    elif draft["tension"] is None:
        draft["tension"] = state.session["tension"]


def rolled_here(side: dict) -> bool:
    return side["mode"] == ROLL and side["dice"] is not None


# --- The seeds' order: who settles when ------------------------------------------------------

def settled_by(state: AppState, draft: dict, key: str) -> str | None:
    """Why this side's dice, keeps and spending can no longer change, or None.

    Against the environment the GM rolls and chooses boost or extra dice before the player
    rolls (seed steps 2-4); against an adversary the initiators settle their totals when the
    defender rolls (steps 4-6). The side that rolls second may still spend after rolling."""
    if draft["logged"] is not None:
        return "This result is logged."
    called = draft.get("called")
    if called and called.get("first"):  # a character's attack, rolled first on its own phone
        return rolled_first(state, draft, key)
    if called and key == ("gm" if draft["kind"] == "environment" else "initiator-0"):
        return f"Settled on the GM's phone: {called['words']}."
    if draft["kind"] == "environment" and key == "gm" and has_dice(draft["player"]):
        return "Settled: the player has rolled, so the GM's dice and options stand."
    if draft["kind"] == "opposed" and key.startswith("initiator-") and has_dice(draft["defender"]):
        name = in_text(side_name(state, side_by_key(draft, key)))
        return f"Settled: the defender has rolled, so {name}'s kept dice and spending stand."
    return None


def rolled_first(state: AppState, draft: dict, key: str) -> str | None:
    """Who settles which side of a call whose character attacks first on its own phone ("here")
    and whose defense the GM's phone rolls afterwards ("there"): ui.systems.tension.calls."""
    called, attacker = draft["called"], key.startswith("initiator-")
    name = in_text(side_name(state, draft["initiators"][0]))
    if called["first"] == "here":
        if not attacker:
            return "The GM's phone rolls this once your attack reaches it."
        return f"Sent to the GM's phone: {called['words']}." if called["words"] else None
    if not attacker:
        return None
    if called["words"]:
        return f"Settled on {name}'s phone: {called['words']}."
    return f"Rolled on {name}'s phone: it shows here once it arrives."


def pool_settled(state: AppState, draft: dict, key: str) -> str | None:
    """Why this side's pool (who, ratings, how its dice arrive) can no longer change: settled by
    the other side, or dice rolled here, which only "New conflict" sets aside."""
    reason = settled_by(state, draft, key)
    side = side_by_key(draft, key)
    if reason is None and rolled_here(side):
        reason = "Rolled: to roll again, start a new conflict (these dice go in the log as set aside)."
    elif reason is None and side["mode"] == REAL and complete(side, pool(state, draft, side)):
        reason = "Every real die is entered: Remove last or Clear to correct a typo."
    return reason


def pool_rolls_along(state: AppState, draft: dict) -> bool:
    """On a player's phone the Tension Pool is rolled with the player's dice, in one tap: the GM's
    choices (boost, extra dice) are the GM's phone's, so nothing is decided between the two rolls,
    and the seeds' order holds (the pool first, then the player)."""
    gm = draft["gm"]
    return (is_player(state) and draft["kind"] == "environment" and gm["mode"] == ROLL and gm["dice"] is None
            and gm_pool(state, draft) > 0)


def must_wait(state: AppState, draft: dict, key: str) -> str | None:
    """Why this side may not roll yet (the seeds' order), or None."""
    if draft["kind"] == "environment" and key == "player" and not complete(draft["gm"], gm_pool(state, draft)) \
            and not pool_rolls_along(state, draft):
        if is_player(state):
            return "Enter the Tension Pool above first (its dice or its total), then roll yours."
        return "The GM rolls for the environment first, then the player."
    if draft["kind"] == "opposed" and key == "defender":
        waiting = [side for side in draft["initiators"] if not complete(side, pool(state, draft, side))]
        if waiting:
            return capitalize(f"{in_text(side_name(state, waiting[0]))} rolls first: the defender rolls once the "
                              "initiators have.")
    return None


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


def record_side(state: AppState, draft: dict, side: dict) -> dict:
    """One side of the conflict record (RULES.md), as far as the table has settled it."""
    fields = {"name": side_name(state, side), "dice_from": DICE_FROM[side["mode"]]}
    if side["ref"]:
        fields["id"] = side["ref"]
    if side["role"] != "gm":
        fields["side"] = side["role"]
    if side["mode"] == TOTAL:
        fields["total"] = side["total"]
        return fields
    fields["pool"] = pool(state, draft, side)
    needed = fields["pool"]
    fields["dice"] = list(side["dice"]) if complete(side, needed) else None
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
    record = {"v": rules.VERSION, "system": "tension", "kind": draft["kind"],
              "tension": conflict_tension(state, draft),
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
    return all(complete(side, pool(state, draft, side)) for _, side in sides(draft))


def side_preview(state: AppState, draft: dict, side: dict) -> dict | None:
    """This side's total so far (rules.tension_side), or None before it has rolled.
    Raises RuleError when its current choice breaks a rule (e.g. one die kept)."""
    if not complete(side, pool(state, draft, side)):
        return None
    fields = record_side(state, draft, side)
    tension = gm_pool(state, draft)
    role = side["role"] if side["mode"] != TOTAL else "adversary"
    return rules.tension_side(fields, role, tension)


def settled_total(state: AppState, draft: dict, side: dict) -> int | None:
    """This side's total once it has rolled; None before, or while its choice breaks a rule."""
    try:
        preview = side_preview(state, draft, side)
    except rules.RuleError:
        return None
    return None if preview is None else preview["total"]


def standing(state: AppState, draft: dict) -> dict | None:
    """The result as it stands once every die is on the table (None before), or RuleError.
    Only a Tension Table roll could be drawn: it is rolled for real when logged.
    Callers only read it: the same record is handed to all of them."""
    if draft["logged"] is not None or not everyone_settled(state, draft):
        return None
    return resolved(to_record(state, draft))


_LAST = {}  # the last record resolved by `standing` -> its result (or the RuleError it raised)


def resolved(record: dict) -> dict:
    """rules.resolve of a record with every die on the table, resolved once: the result card,
    the result bar and the announcement of one tap all ask for the same one."""
    key = json.dumps(record, sort_keys=True)
    if key not in _LAST:
        _LAST.clear()
        try:
            _LAST[key] = rules.resolve(record, source=rules.SeededSource(0))
        except rules.RuleError as error:
            _LAST[key] = error
    answer = _LAST[key]
    if isinstance(answer, rules.RuleError):
        raise answer
    return answer


def defender_health(state: AppState, draft: dict) -> int | None:
    """The defender's Health on the roster (combat damage comes off it), or None."""
    entry = state.entry(draft["defender"]["ref"])
    return entry.get("health") if entry is not None else None


# --- A stored draft, read back after a reload (untrusted) ----------------------------------------

def check_keep(side: dict) -> dict:
    """Kept dice are positions in the side's own dice, each once."""
    keep = side["keep"]
    if keep is not None:
        shapes.need(side["dice"] is not None and len(set(keep)) == len(keep)
                    and all(index < len(side["dice"]) for index in keep), "kept dice that are not in the roll")
    return side


SIDE = shapes.fields({
    "role": shapes.choice("gm", "character", "adversary"), "ref": shapes.optional(shapes.text(24)),
    "name": shapes.text(60), "attribute": shapes.text(60), "skill": shapes.text(60), "trait": shapes.text(60),
    "pool": shapes.whole(0, rules.LIMITS["pool"]), "mode": shapes.choice(*MODES),
    "dice": shapes.optional(shapes.faces(SIDES, rules.LIMITS["tension"] + 1)),
    "keep": shapes.optional(shapes.listing(shapes.whole(0, rules.LIMITS["tension"]), rules.LIMITS["tension"] + 1)),
    "boost": shapes.flag, "total": shapes.optional(shapes.whole(0, rules.LIMITS["tension_total"])),
    "fresh": shapes.never}, "a side")

CALLED = shapes.fields({"id": shapes.text(24), "words": shapes.text(120)}, "a call")
CALLED_FIRST = shapes.fields({"id": shapes.text(24), "words": shapes.text(120), "first": shapes.choice("here", "there"),
                              "entry": shapes.text(24)}, "a call")


def called_shape(value):
    """A call this conflict answers; with `first` when the called character's side rolls first."""
    return (CALLED_FIRST if isinstance(value, dict) and "first" in value else CALLED)(value)


DRAFT = shapes.fields({
    "kind": shapes.choice(*KINDS), "combat": shapes.flag, "retry": shapes.flag, "gm": SIDE, "player": SIDE,
    "initiators": shapes.listing(SIDE, rules.LIMITS["initiators"]), "defender": SIDE,
    "tension": shapes.optional(shapes.whole(0, rules.LIMITS["tension"])),
    "logged": shapes.optional(shapes.record("tension")),
    "called": shapes.optional(called_shape)},
    "a Tension Engine conflict")


def check_draft(data) -> dict:
    """A stored draft as the app wrote it, or ShapeError."""
    if isinstance(data, dict) and "called" not in data:  # stored before calls settled the GM's side
        data = {**data, "called": None}
    draft = DRAFT(data)
    shapes.need(bool(draft["initiators"]) and draft["gm"]["role"] == "gm", "a conflict without its sides")
    for _, side in sides(draft) + [("gm", draft["gm"]), ("player", draft["player"])]:
        check_keep(side)
    return draft
