"""The Anomaly conflict being set up on screen, and the record it becomes.

A draft holds who rolls (a roster entry or a quick "no sheet" roll), their good
and bad dice, the modifier chips for this roll (the sheet's usual modifiers,
each on or off, plus one-off modifiers added at the table), how the dice
arrive (rolled here, real dice typed in, or, for a defender, only a total) and
the difficulty. `to_record` turns it into a conflict record for
`rules.resolve`; which die is kept and which modifiers count is left to the
rules. Pure Python.
"""
from __future__ import annotations

import copy

import rules

from ui.core import shapes
from ui.core.role import own_first, player_entry
from ui.core.state import AppState
from ui.systems.dice_entry import DICE_FROM, MODES, REAL, ROLL, TOTAL, complete, forget_dice, has_dice, on_table

CHECK, OPPOSED = "check", "opposed"
ROLES = ("actor", "defender")
DEFAULT_NAMES = {"actor": "Player", "defender": "Defender"}
SIDES = 10
TOTALS = (-rules.LIMITS["anomaly_total"], rules.LIMITS["anomaly_total"])  # a defender's total, as announced
OTHER_KIND = ""  # the kind picker's "Other…" choice: the kind is then typed in


def new_modifier_form() -> dict:
    """The "add a one-off modifier" fields, as they start."""
    return {"kind": "Gear", "other": "", "name": "", "value": 1, "stacks": False}


def new_roller(entry: dict | None = None) -> dict:
    roller = {"ref": None, "name": "", "good": 0, "bad": 0,
              "sheet": [], "off": [], "extra": [],
              "mode": ROLL, "dice": None, "total": None, "fresh": False,
              "adding": False, "new": new_modifier_form()}
    if entry is not None:
        pick_entry(roller, entry)
    return roller


def entry_modifiers(entry: dict | None) -> list[dict]:
    if entry is None or entry.get("system") != "anomaly":
        return []
    return entry.get("modifiers", [])


def pick_entry(roller: dict, entry: dict | None):
    """Point a roller at a roster entry (or at nobody): its usual modifiers become chips, all
    off until the player taps those that apply to this roll (none is applied silently)."""
    modifiers = entry_modifiers(entry)
    roller.update(ref=None if entry is None else entry["id"], sheet=copy.deepcopy(modifiers),
                  off=list(range(len(modifiers))), extra=[], total=None, fresh=False)
    forget_dice(roller)


def new_draft(state: AppState) -> dict:
    everyone = state.roster()
    characters = state.roster("character")
    adversaries = state.roster("adversary")
    actor = own_first(state, characters)
    if actor is None and player_entry(state) is None:  # a player's phone never opens on someone else
        actor = everyone[0] if everyone else None
    defender = adversaries[0] if adversaries else None
    return {"kind": CHECK, "difficulty": None, "actor": new_roller(actor), "defender": new_roller(defender),
            "logged": None, "called": None}  # called: a GM's call answered here, {"id", "words"} of its defense


def rollers(draft: dict) -> list[tuple[str, dict]]:
    """(role, roller) for every side on screen, in the order they roll."""
    if draft["kind"] == OPPOSED:
        return [("actor", draft["actor"]), ("defender", draft["defender"])]
    return [("actor", draft["actor"])]


def roller_name(state: AppState, roller: dict, role: str) -> str:
    entry = state.entry(roller["ref"]) if roller["ref"] else None
    if entry is not None:
        return entry["name"]
    return " ".join(roller["name"].split()) or DEFAULT_NAMES[role]


def modes(role: str) -> tuple[str, ...]:
    """How a side's dice may arrive: only a defender may be given as a total."""
    return MODES if role == "defender" else (ROLL, REAL)


def dice_needed(roller: dict) -> int:
    return rules.dice_count(roller["good"], roller["bad"])


def has_rolled(roller: dict) -> bool:
    return complete(roller, dice_needed(roller))


def dice_on_table(draft: dict) -> bool:
    return on_table(rollers(draft))


def in_play(draft: dict) -> bool:
    """Something on the table a reload must bring back (ui.keeping.progress): dice, or a result."""
    return dice_on_table(draft) or draft["logged"] is not None


# --- What settles when -------------------------------------------------------------------------

def roll_settled(roller: dict) -> bool:
    """The roll is made: rolled here, or every real die entered. Its conditional dice and the
    modifiers that decide it stand from then on (an announced total stays a typed number)."""
    if roller["mode"] == ROLL:
        return roller["dice"] is not None
    return roller["mode"] == REAL and has_rolled(roller)


def settled_by(draft: dict, role: str) -> str | None:
    """Why this side's roll can no longer change, or None."""
    if draft["logged"] is not None:
        return "This result is logged. Start a new roll to change it."
    called = draft.get("called")
    if called and called.get("first"):  # a character's defense, rolled first on its own phone
        return rolled_first(draft, role)
    if called and role == "defender":
        return f"Settled on the GM's phone: {called['words']}."
    if roll_settled(draft[role]):
        return ("Settled: rolled, so its good and bad dice and modifiers stand. "
                "A new roll puts these dice in the log as set aside.")
    return None


def rolled_first(draft: dict, role: str) -> str | None:
    """Who settles which side of a call whose character defends first on its own phone ("here") and
    whose attack the GM's phone rolls afterwards ("there"): ui.systems.anomaly.calls."""
    called = draft["called"]
    if called["first"] == "here":
        if role == "actor":
            return "The GM's phone rolls this once your defense reaches it."
        return f"Sent to the GM's phone: {called['words']}." if called["words"] else None
    if role == "actor":
        return None
    if called["words"]:
        return f"Settled on the defender's phone: {called['words']}."
    return "Rolled on the defender's phone: it shows here once it arrives."


def difficulty_settled(draft: dict) -> str | None:
    if draft["logged"] is None and draft["kind"] == CHECK and has_dice(draft["actor"]):
        return "Settled: the difficulty stands once the dice are rolled."
    return None


def must_wait(draft: dict, role: str) -> str | None:
    """Why this side may not roll yet: the GM sets the difficulty first (seed order); a defense
    rolled first on the defender's phone is the difficulty the attack waits for."""
    if draft["kind"] == CHECK and role == "actor" and draft["difficulty"] is None:
        return "The GM sets the difficulty first, then the roll."
    called = draft.get("called")
    if called and called.get("first") == "there" and role == "actor" and not called["words"]:
        return "The defender rolls first, on their phone: the attack waits for that total."
    return None


# --- Modifier chips ------------------------------------------------------------------------

def sync_sheet(state: AppState, roller: dict):
    """Follow edits made to the sheet since it was picked: its chips start again, all off."""
    current = entry_modifiers(state.entry(roller["ref"]) if roller["ref"] else None)
    if roller["sheet"] != current:
        roller["sheet"] = copy.deepcopy(current)
        roller["off"] = list(range(len(current)))


def chips(state: AppState, roller: dict) -> list[dict]:
    """Every modifier on offer for this roll: the sheet's (key "s<n>") then one-offs ("x<n>")."""
    current = entry_modifiers(state.entry(roller["ref"]) if roller["ref"] else None)
    off = set(roller["off"]) if roller["sheet"] == current else set(range(len(current)))
    found = []
    for index, modifier in enumerate(current):
        found.append({"key": f"s{index}", "name": modifier.get("name", ""), "kind": modifier["kind"],
                      "value": modifier["value"], "stacks": bool(modifier.get("stacks")),
                      "on": index not in off, "one_off": False})
    for index, modifier in enumerate(roller["extra"]):
        found.append({"key": f"x{index}", "name": modifier.get("name", ""), "kind": modifier["kind"],
                      "value": modifier["value"],
                      "stacks": bool(modifier["stacks"]), "on": modifier["on"], "one_off": True})
    return found


def record_modifier(chip: dict) -> dict:
    modifier = {"kind": chip["kind"], "value": chip["value"], "stacks": chip["stacks"]}
    if chip["name"]:
        modifier["name"] = chip["name"]
    return modifier


def chip_status(state: AppState, roller: dict) -> list[dict]:
    """Each chip with its status for this roll, as rules.select_modifiers decides:
    "applied", "left_out" (with "beside": the applied chip of its kind) or "off"."""
    listed = chips(state, roller)
    on = [chip for chip in listed if chip["on"]]
    modifiers = [record_modifier(chip) for chip in on]
    applied, _ = rules.select_modifiers(modifiers)
    applied_ids = {id(modifier) for modifier in applied}
    statuses = {}
    for chip, modifier in zip(on, modifiers):
        statuses[chip["key"]] = "applied" if id(modifier) in applied_ids else "left_out"
    for chip in listed:
        chip["status"] = statuses.get(chip["key"], "off")
    return mark_beside(listed)


def mark_beside(listed: list[dict]) -> list[dict]:
    """Give each left-out chip its "beside": the applied chip of its kind that it gave way to."""
    for chip in listed:
        chip["beside"] = None
        if chip["status"] == "left_out":
            key = rules.anomaly.kind_key(chip["kind"])
            chip["beside"] = next((other for other in listed if other["status"] == "applied"
                                   and not other["stacks"] and rules.anomaly.kind_key(other["kind"]) == key), None)
    return listed


def logged_chips(detail: dict) -> list[dict]:
    """The chips of a logged roll, from its result: what applied and what was left out."""
    if detail.get("given_total"):
        return []
    listed = []
    for status in ("applied", "left_out"):
        for index, modifier in enumerate(detail[status]):
            listed.append({"key": f"{status}{index}", "name": modifier.get("name", ""), "kind": modifier["kind"],
                           "value": modifier["value"], "stacks": bool(modifier.get("stacks")), "on": True,
                           "one_off": False, "status": status})
    return mark_beside(listed)


def kind_groups(listed: list[dict]) -> list[tuple[str, list[dict]]]:
    """Chips grouped by kind (compared as the rules compare them): the common kinds first, in
    their usual order, then the others as they first appear."""
    groups: dict[str, tuple[str, list[dict]]] = {}
    for chip in listed:
        key = rules.anomaly.kind_key(chip["kind"])
        groups.setdefault(key, (chip["kind"].strip(), []))[1].append(chip)
    order = [rules.anomaly.kind_key(kind) for kind in rules.COMMON_KINDS]
    return [groups[key] for key in sorted(groups, key=lambda key: (order.index(key) if key in order else len(order),
                                                                    list(groups).index(key)))]


def on_modifiers(state: AppState, roller: dict) -> list[dict]:
    return [record_modifier(chip) for chip in chips(state, roller) if chip["on"]]


# --- The record ------------------------------------------------------------------------------

def record_side(state: AppState, roller: dict, role: str) -> dict:
    """One side of the conflict record (RULES.md), as far as the table has settled it.

    Real dice are always passed as typed, so too few of them is a rule message, never a roll."""
    fields = {"name": roller_name(state, roller, role),
              "dice_from": DICE_FROM[roller["mode"]]}
    if roller["ref"]:
        fields["id"] = roller["ref"]
    if role == "defender" and roller["mode"] == TOTAL:
        fields["total"] = roller["total"]
        return fields
    fields.update(good=roller["good"], bad=roller["bad"])
    if roller["mode"] == REAL and not roller["dice"]:
        fields["dice"] = None  # nothing typed yet: a partial record (set aside), never a roll
    elif roller["mode"] == REAL:
        fields["dice"] = list(roller["dice"])
    else:
        fields["dice"] = list(roller["dice"]) if roller["dice"] is not None else None
    fields["modifiers"] = on_modifiers(state, roller)
    return fields


def to_record(state: AppState, draft: dict) -> dict:
    record = {"v": rules.VERSION, "system": "anomaly", "kind": draft["kind"],
              "actor": record_side(state, draft["actor"], "actor")}
    if draft["kind"] == CHECK:
        record["difficulty"] = draft["difficulty"]
    else:
        record["defender"] = record_side(state, draft["defender"], "defender")
    return record


def everyone_settled(state: AppState, draft: dict) -> bool:
    if draft["kind"] == CHECK and draft["difficulty"] is None:
        return False
    return all(has_rolled(roller) for _, roller in rollers(draft))


def side_preview(state: AppState, roller: dict, role: str) -> dict | None:
    """This side's kept die and total so far (from rules.resolve), or None before it has rolled.
    Raises RuleError when its dice break a rule."""
    if not has_rolled(roller):
        return None
    fields = record_side(state, roller, role)
    if "total" in fields:
        return {"name": fields["name"], "given_total": True, "total": fields["total"]}
    record = {"v": rules.VERSION, "system": "anomaly", "kind": CHECK, "actor": fields, "difficulty": 0}
    return rules.resolve(record, source=rules.NoDice())["result"]["actor"]


def standing(state: AppState, draft: dict) -> dict | None:
    """The result as it stands once everyone has rolled (None before), or RuleError."""
    if draft["logged"] is not None or not everyone_settled(state, draft):
        return None
    return rules.resolve(to_record(state, draft), source=rules.NoDice())


def odds_fields(state: AppState, roller: dict, role: str, settled: bool = True) -> dict | None:
    """This side as rules.odds wants it: a settled total once known (when `settled`), else its
    good and bad dice and modifiers; None when only a total is coming and it is not in yet."""
    if role == "defender" and roller["mode"] == TOTAL:
        return None if roller["total"] is None else {"total": roller["total"]}
    if settled and has_rolled(roller):
        preview = side_preview(state, roller, role)
        return {"total": preview["total"]}
    return {"good": roller["good"], "bad": roller["bad"], "modifiers": on_modifiers(state, roller)}


# --- A stored draft, read back after a reload (untrusted) ----------------------------------------

LIMIT = rules.LIMITS["conditional_dice"]
VALUE = shapes.whole(-rules.LIMITS["modifier_value"], rules.LIMITS["modifier_value"])
SHEET_MODIFIER = shapes.fields({"name": shapes.text(60), "kind": shapes.text(rules.anomaly.MAX_KIND),
                                "value": VALUE, "stacks": shapes.flag}, "a modifier")
ONE_OFF = shapes.fields({"kind": shapes.text(rules.anomaly.MAX_KIND), "value": VALUE, "stacks": shapes.flag,
                         "on": shapes.flag, "name": shapes.text(60)}, "a modifier")
ROLLER = shapes.fields({
    "ref": shapes.optional(shapes.text(24)), "name": shapes.text(60),
    "good": shapes.whole(0, LIMIT), "bad": shapes.whole(0, LIMIT),
    "sheet": shapes.listing(SHEET_MODIFIER, rules.LIMITS["modifiers"]),
    "off": shapes.listing(shapes.whole(0, rules.LIMITS["modifiers"]), rules.LIMITS["modifiers"]),
    "extra": shapes.listing(ONE_OFF, rules.LIMITS["modifiers"]),
    "mode": shapes.choice(*MODES), "dice": shapes.optional(shapes.faces(SIDES, LIMIT + 1)),
    "total": shapes.optional(shapes.whole(-rules.LIMITS["anomaly_total"], rules.LIMITS["anomaly_total"])),
    "fresh": shapes.never, "adding": shapes.flag,
    "new": shapes.fields({"kind": shapes.text(rules.anomaly.MAX_KIND), "other": shapes.text(rules.anomaly.MAX_KIND),
                          "name": shapes.text(60), "value": VALUE, "stacks": shapes.flag}, "the modifier form")},
    "a roller")
CALLED = shapes.fields({"id": shapes.text(24), "words": shapes.text(120)}, "a call")
CALLED_FIRST = shapes.fields({"id": shapes.text(24), "words": shapes.text(120), "first": shapes.choice("here", "there"),
                              "entry": shapes.text(24)}, "a call")


def called_shape(value):
    """A call this roll answers; with `first` when the called character's defense rolls first."""
    return (CALLED_FIRST if isinstance(value, dict) and "first" in value else CALLED)(value)


DRAFT = shapes.fields({
    "kind": shapes.choice(CHECK, OPPOSED),
    "difficulty": shapes.optional(shapes.whole(0, rules.LIMITS["anomaly_difficulty"])),
    "actor": ROLLER, "defender": ROLLER, "logged": shapes.optional(shapes.record("anomaly")),
    "called": shapes.optional(called_shape)},
    "an Anomaly roll")


def check_draft(data) -> dict:
    """A stored draft as the app wrote it, or ShapeError."""
    if isinstance(data, dict) and "called" not in data:  # stored before calls sent a defense
        data = {**data, "called": None}
    draft = DRAFT(data)
    for role in ROLES:
        roller = draft[role]
        shapes.need(roller["dice"] is None or len(roller["dice"]) <= dice_needed(roller), "more dice than the roll")
    return draft
