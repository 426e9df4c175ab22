"""The Manner Cards conflict being set up on screen, and the record it becomes.

A draft holds the GM's side of a Test (difficulty, the face-down Complication,
or "GM says" when it lives on another phone) and each character side (a roster
sheet or a quick "no sheet" entry, the Manner card picked, Skill, helpers,
descriptors, and whether the card is locked face down). `to_record` turns it
into a conflict record for `rules.resolve`; nothing here decides an outcome.
Pure Python.
"""
from __future__ import annotations

import rules

from ui.core import shapes
from ui.core.role import own_first, own_side, player_entry
from ui.core.state import AppState
from ui.kit.html import isolate

TEST, CONFRONTATION = "test", "confrontation"
HERE, SAYS = "here", "says"  # the GM's Complication: chosen on this phone, or told from another
DEFAULT_NAMES = {"player": "The player", "opponent": "The opponent"}
DEFAULT_RATING = 2
DEFAULT_DIFFICULTY = 4


def new_side(role: str, entry: dict | None = None) -> dict:
    side = {"role": role, "ref": None, "name": "", "ratings": {manner: DEFAULT_RATING for manner in rules.MANNERS},
            "skill": "", "skill_rating": 0, "manner": None, "helpers": 0, "helper_ids": [], "descriptors": 0,
            "locked": False}
    if entry is not None:
        pick_entry(side, entry)
    return side


def new_gm() -> dict:
    return {"mode": HERE, "difficulty": DEFAULT_DIFFICULTY, "complication": None}


def new_draft(state: AppState) -> dict:
    characters = state.roster("character")
    adversaries = state.roster("adversary")
    return {
        "kind": TEST,
        # on a player's phone the GM's card is on the GM's phone: the GM says it once the Manner is locked
        "gm": {**new_gm(), "mode": SAYS} if player_entry(state) is not None else new_gm(),
        "player": new_side("player", own_first(state, characters)),
        "opponent": new_side("opponent", adversaries[0] if adversaries else None),
        "revealed": None,  # the resolved record, once the cards are turned over
        "flip": False,  # the cards were just turned over: animate once
        "logged": False,
        "exchange": None,  # a conflict sealed across phones: {"id", "role", "last"} (ui.systems.manners.exchange)
    }


def fresh_draft_like(draft: dict) -> dict:
    """The next conflict: the same kind, people, Skills and difficulty; no cards down."""
    fresh = {**draft, "gm": {**draft["gm"], "complication": None}, "revealed": None, "flip": False,
             "logged": False, "exchange": None}
    for role in ("player", "opponent"):
        fresh[role] = {**draft[role], "ratings": dict(draft[role]["ratings"]), "manner": None, "helpers": 0,
                       "helper_ids": [], "locked": False}
    return fresh


# --- Sides ---------------------------------------------------------------------------------

def sheet(state: AppState, side: dict) -> dict | None:
    """The side's roster entry, if it still exists in this system."""
    entry = state.entry(side["ref"]) if side["ref"] else None
    return entry if entry is not None and entry.get("system") == "manners" else None


def pick_entry(side: dict, entry: dict | None):
    """Point a side at a roster entry (or at nobody); the Manner card is picked again."""
    side.update(ref=None, manner=None, locked=False, skill="", skill_rating=0, helper_ids=[])
    if entry is not None:
        side["ref"] = entry["id"]
        side["skill"] = entry["skills"][0]["name"] if entry.get("skills") else ""
        side["descriptors"] = len(sheet_descriptors(entry, None, side["skill"]))
    else:
        side["descriptors"] = 0


def side_name(state: AppState, side: dict) -> str:
    entry = sheet(state, side)
    if entry is not None:
        return entry["name"]
    return side["name"].strip() or DEFAULT_NAMES[side["role"]]


def ratings(state: AppState, side: dict) -> dict:
    """The side's rating in each of the five Manners."""
    entry = sheet(state, side)
    source = entry["manners"] if entry is not None else side["ratings"]
    return {manner: source.get(manner, 0) for manner in rules.MANNERS}


def skills(state: AppState, side: dict) -> list[dict]:
    entry = sheet(state, side)
    return list(entry.get("skills", [])) if entry is not None else []


def skill_name(state: AppState, side: dict) -> str:
    """The Skill or Spell used: for a sheet, only one still on it (the sheet may have changed)."""
    entry = sheet(state, side)
    name = side["skill"].strip()
    if entry is not None and not any(item["name"] == name for item in entry.get("skills", [])):
        return ""
    return name


def skill_rating(state: AppState, side: dict) -> int:
    entry = sheet(state, side)
    if entry is None:
        return side["skill_rating"]
    return next((item["rating"] for item in entry.get("skills", []) if item["name"] == side["skill"]), 0)


def sheet_descriptors(entry: dict | None, manner: str | None, skill: str) -> list[dict]:
    """The sheet's descriptors attached to this Manner or this Skill (what applies to a tie)."""
    if entry is None:
        return []
    attached = {name for name in (manner, skill) if name}
    return [item for item in entry.get("descriptors", []) if item.get("on") in attached]


def prefill_descriptors(state: AppState, side: dict):
    """Count the sheet's descriptors for the chosen Manner and Skill (the table may change it)."""
    entry = sheet(state, side)
    if entry is not None:
        side["descriptors"] = len(sheet_descriptors(entry, side["manner"], side["skill"]))


def descriptors_for(state: AppState, side: dict, manner: str) -> int:
    """Descriptors this side would bring with `manner`, for the odds: the sheet's count (so the
    odds never depend on the card picked), or the number typed for a side with no sheet."""
    entry = sheet(state, side)
    if entry is None:
        return side["descriptors"]
    return len(sheet_descriptors(entry, manner, side["skill"]))


def number_before_cards(state: AppState, side: dict, manner: str) -> int:
    """Manner + Skill + helpers: the side's number before any +2 from the table."""
    return ratings(state, side)[manner] + skill_rating(state, side) + helper_count(state, side)


def helpers(state: AppState, side: dict) -> list[dict]:
    """The roster characters helping this side who still can (rules.can_help in its Skill)."""
    able = {name for name, _ in helpers_on_roster(state, side)[0]}
    picked = [state.entry(entry_id) for entry_id in side["helper_ids"]]
    return [entry for entry in picked if entry is not None and entry["name"] in able]


def helper_count(state: AppState, side: dict) -> int:
    """Helpers picked from the roster, plus helpers counted by hand for a side with no sheet."""
    return len(helpers(state, side)) + (side["helpers"] if sheet(state, side) is None else 0)


def drop_unable_helpers(state: AppState, side: dict):
    """After the Skill changed: only roster helpers who can help with it stay."""
    side["helper_ids"] = [entry["id"] for entry in helpers(state, side)]


def helpers_on_roster(state: AppState, side: dict) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Other roster characters who can help with the side's Skill (rules.can_help), and who cannot."""
    skill = side["skill"].strip().casefold()
    can, cannot = [], []
    if not skill:
        return can, cannot
    for entry in state.roster("character"):
        if entry["id"] == side["ref"]:
            continue
        rating = next((item["rating"] for item in entry.get("skills", [])
                       if item["name"].strip().casefold() == skill), 0)
        (can if rules.can_help(rating) else cannot).append((entry["name"], rating))
    return can, cannot


def record_side(state: AppState, side: dict) -> dict:
    """One character side of the conflict record (RULES.md)."""
    fields = {"name": side_name(state, side)}
    if sheet(state, side) is not None:
        fields["id"] = side["ref"]
    manner = side["manner"]
    fields["manner"] = manner
    fields["manner_rating"] = ratings(state, side)[manner] if manner in rules.MANNERS else 0
    if skill_name(state, side):
        fields["skill"] = skill_name(state, side)
    fields["skill_rating"] = skill_rating(state, side)
    fields["helpers"] = helper_count(state, side)
    named = [entry["name"] for entry in helpers(state, side)]
    if named:
        fields["helper_names"] = named
    fields["descriptors"] = side["descriptors"]
    return fields


def planner(state: AppState, side: dict, descriptors: int) -> dict:
    """A side before choosing (rules.outcomes_for_*): every Manner's rating, plus the rest."""
    return {"manner_ratings": ratings(state, side), "skill_rating": skill_rating(state, side),
            "helpers": helper_count(state, side), "descriptors": descriptors}


def to_record(state: AppState, draft: dict) -> dict:
    record = {"v": rules.VERSION, "system": "manners", "kind": draft["kind"],
              "player": record_side(state, draft["player"])}
    if draft["kind"] == TEST:
        record["difficulty"] = draft["gm"]["difficulty"]
        record["complication"] = draft["gm"]["complication"]
    else:
        record["opponent"] = record_side(state, draft["opponent"])
    return record


# --- Where the conflict stands ----------------------------------------------------------------

def character_sides(draft: dict) -> list[str]:
    return ["player"] if draft["kind"] == TEST else ["player", "opponent"]


def face_down(draft: dict) -> bool:
    """A card lies face down: the GM's Complication chosen on this phone, or a locked Manner,
    not yet turned over (the page never draws its face; a snapshot of the table is not kept)."""
    if draft["revealed"] is not None:
        return False
    if draft.get("exchange") is not None:  # sealed across phones: this phone may hold a secret
        return True
    gm = draft["gm"]
    return (gm["mode"] == HERE and gm["complication"] is not None) or any(
        draft[role]["locked"] for role in character_sides(draft))


def in_play(draft: dict) -> bool:
    """Something on the table a reload must bring back (ui.keeping.progress): a card down, or turned over."""
    return face_down(draft) or draft["revealed"] is not None


def gm_ready(draft: dict) -> bool:
    """The GM's side is settled enough for the player to lock: a card face down, or "GM says"."""
    return draft["gm"]["mode"] == SAYS or draft["gm"]["complication"] is not None


def other_role(role: str) -> str:
    return "opponent" if role == "player" else "player"


def why_wait(state: AppState, draft: dict, role: str) -> str | None:
    """Why this side may not look at its cards yet, so that nobody picks knowing the other card:
    the GM's Complication goes down first; in a Confrontation, a side that has picked locks first."""
    if draft["kind"] == TEST:
        if not gm_ready(draft):
            return "Waiting for the GM to put a Complication face down first."
        return None
    other = draft[other_role(role)]
    if other["manner"] is not None and not other["locked"]:
        return f"Waiting for {isolate(side_name(state, other))} to lock a Manner, so nobody sees the other card."
    return None


def gm_settled(draft: dict) -> str | None:
    """The GM's difficulty and where the card is settle once the player locks a Manner."""
    if draft["kind"] == TEST and draft["player"]["locked"] and draft["revealed"] is None:
        return "Settled: the player has locked a Manner, so the difficulty stands."
    return None


def why_not_lock(draft: dict, role: str) -> str | None:
    side = draft[role]
    if side["manner"] is None:
        return "Pick a Manner card first."
    if draft["kind"] == TEST and not gm_ready(draft):
        return "The GM puts a Complication face down first."
    return None


def unlock(draft: dict, role: str):
    """Take a locked card back: its choice is forgotten, and so is an unlocked pick on the other
    side (else the side picking again would see it)."""
    draft[role].update(manner=None, locked=False)
    if draft["kind"] == CONFRONTATION:
        other = draft[other_role(role)]
        if not other["locked"]:
            other["manner"] = None


def ready_to_reveal(draft: dict) -> bool:
    """Every card is down: reveal them together (in "GM says", entering the Complication reveals)."""
    if draft["revealed"] is not None:
        return False
    if not all(draft[role]["locked"] for role in character_sides(draft)):
        return False
    if draft["kind"] == TEST:
        return draft["gm"]["complication"] is not None
    return True


def waiting_words(state: AppState, draft: dict) -> str:
    if draft["kind"] == TEST and draft["gm"]["mode"] == HERE and draft["gm"]["complication"] is None:
        return "Waiting for the GM to put a Complication face down."
    for role in character_sides(draft):
        side = draft[role]
        if not side["locked"]:
            if own_side(state, side):
                return "Your turn: pick a Manner card and lock it."
            return f"Waiting for {isolate(side_name(state, side))} to lock a Manner."
    if draft["kind"] == TEST and draft["gm"]["complication"] is None:
        if player_entry(state) is not None:
            return "Enter the Complication the GM turns over."
        return "Waiting for the GM to say which Complication was face down."
    return ""


# --- A stored draft, read back after a reload (untrusted) ----------------------------------------

RATING = shapes.whole(0, rules.LIMITS["rating"])
SIDE = shapes.fields({
    "role": shapes.choice("player", "opponent"), "ref": shapes.optional(shapes.text(24)), "name": shapes.text(60),
    "ratings": shapes.fields({manner: RATING for manner in rules.MANNERS}, "the Manner ratings"),
    "skill": shapes.text(60), "skill_rating": RATING, "manner": shapes.optional(shapes.choice(*rules.MANNERS)),
    "helpers": shapes.whole(0, rules.LIMITS["helpers"]),
    "helper_ids": shapes.listing(shapes.text(24), rules.LIMITS["helpers"]),
    "descriptors": shapes.whole(0, rules.LIMITS["descriptors"]), "locked": shapes.flag}, "a side")
DRAFT = shapes.fields({
    "kind": shapes.choice(TEST, CONFRONTATION),
    "gm": shapes.fields({"mode": shapes.choice(HERE, SAYS),
                         "difficulty": shapes.whole(1, rules.LIMITS["manners_difficulty"]),
                         "complication": shapes.optional(shapes.choice(*rules.COMPLICATIONS))}, "the GM's side"),
    "player": SIDE, "opponent": SIDE, "revealed": shapes.optional(shapes.record("manners")),
    "flip": shapes.never, "logged": shapes.flag,
    "exchange": shapes.optional(shapes.fields({"id": shapes.text(24), "role": shapes.choice("gm", "player", "opponent"),
                                               "last": shapes.flag},
                                              "the sealed exchange"))}, "a Manner Cards conflict")


def check_draft(data) -> dict:
    """A stored draft as the app wrote it, or ShapeError. A locked side has a Manner."""
    if isinstance(data, dict) and "exchange" not in data:  # saved before sealed exchanges existed
        data = {**data, "exchange": None}
    draft = DRAFT(data)
    for role in ("player", "opponent"):
        shapes.need(not draft[role]["locked"] or draft[role]["manner"] is not None, "a locked side without a card")
    shapes.need(not draft["logged"] or draft["revealed"] is not None, "a logged conflict without its cards")
    return draft
