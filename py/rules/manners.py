"""Manner Cards (no dice): Tests against the world, Confrontations between characters.

The cell of a resolution table decides: Win or Lose outright, or compare
numbers (Manner + Skill + helpers) with +2 for the player ("+2") or for the
other side ("Partial"). Ties go to more descriptors, else a compromise.
"""

from .dice import is_whole_number
from .errors import RecordError
from .record import (check_integer, path, read_choice, read_integer, read_mapping, read_name,
                     read_optional_list, read_text)
from .words import capitalize, either, possessive, show

MANNERS = ("Determination", "Force", "Speed", "Precision", "Imagination")
COMPLICATIONS = ("Time", "Confusion", "Collateral", "Hostility", "Consumption")
WIN, LOSE, PLUS_TWO, PLUS_ZERO, PARTIAL = "Win", "Lose", "+2", "+0", "Partial"
CELLS = (WIN, LOSE, PLUS_TWO, PLUS_ZERO, PARTIAL)
# The same cell seen from the other side of the table.
MIRROR = {WIN: LOSE, LOSE: WIN, PLUS_TWO: PARTIAL, PARTIAL: PLUS_TWO, PLUS_ZERO: PLUS_ZERO}
BONUS = 2
MIN_DIFFICULTY, MAX_DIFFICULTY = 1, 8
MAX_RATING = 20
MAX_HELPERS = 10
MAX_DESCRIPTORS = 20

# The seed's two tables, cell for cell: rows are the player's Manner.
TEST_TABLE = {
    manner: dict(zip(COMPLICATIONS, cells)) for manner, cells in zip(MANNERS, (
        # Time    Confusion  Collateral Hostility  Consumption
        ("+0",    "Partial", "Lose",    "Win",     "+2"),       # Determination
        ("+2",    "+0",      "Partial", "Lose",    "Win"),      # Force
        ("Win",   "+2",      "+0",      "Partial", "Lose"),     # Speed
        ("Lose",  "Win",     "+2",      "+0",      "Partial"),  # Precision
        ("Partial", "Lose",  "Win",     "+2",      "+0"),       # Imagination
    ))
}
CONFRONTATION_TABLE = {
    manner: dict(zip(MANNERS, cells)) for manner, cells in zip(MANNERS, (
        # opponent: Determination Force  Speed      Precision  Imagination
        ("+0",      "+2",      "Win",     "Lose",    "Partial"),  # Determination
        ("Partial", "+0",      "+2",      "Win",     "Lose"),     # Force
        ("Lose",    "Partial", "+0",      "+2",      "Win"),      # Speed
        ("Win",     "Lose",    "Partial", "+0",      "+2"),       # Precision
        ("+2",      "Win",     "Lose",    "Partial", "+0"),       # Imagination
    ))
}

STORY_MOVES = (
    "Leave the scene: a player who finds the stakes too high may walk away instead of confronting.",
    "Keep them there: the other side may make stopping the departure its only Intention.",
)


def can_help(skill_rating) -> bool:
    """A helper needs a rating of at least 1 in the Skill or Spell being used."""
    return is_whole_number(skill_rating) and skill_rating >= 1


def decide(cell: str, player_number: int, other_number: int,
           player_descriptors: int, other_descriptors: int) -> dict:
    """Apply one table cell to both sides' numbers (before any +2)."""
    player_total = player_number + (BONUS if cell == PLUS_TWO else 0)
    other_total = other_number + (BONUS if cell == PARTIAL else 0)
    tie_broken_by = None
    if cell == WIN:
        winner = "player"
    elif cell == LOSE:
        winner = "other"
    elif player_total != other_total:
        winner = "player" if player_total > other_total else "other"
    elif player_descriptors != other_descriptors:
        winner = "player" if player_descriptors > other_descriptors else "other"
        tie_broken_by = "descriptors"
    else:
        winner = "both"
    if cell in (WIN, LOSE):
        partial = False
    elif winner == "both":
        partial = True
    else:
        # Whoever wins with its own cell at Partial gets only a partial success.
        partial = cell == (PARTIAL if winner == "player" else PLUS_TWO)
    outcome = {"player": "partial" if partial else "success", "other": "failure", "both": "compromise"}[winner]
    return {"cell": cell, "other_cell": MIRROR[cell], "player_total": player_total, "other_total": other_total,
            "winner": winner, "partial": partial, "outcome": outcome, "tie_broken_by": tie_broken_by}


def read_character(side: dict, where: str, default_name: str) -> dict:
    """Check a character's choice: Manner and rating, Skill and rating, helpers, descriptors."""
    who = read_name(side, default_name, where)
    owner = capitalize(possessive(who))
    manner = read_choice(side, "manner", f"{owner} Manner", MANNERS, where, noun="Manner")
    manner_rating = read_integer(side, "manner_rating", f"{owner} {manner} rating", 0, MAX_RATING, where)
    read_text(side, "skill", f"{owner} Skill", where, default=None)
    skill_rating = read_integer(side, "skill_rating", f"{owner} Skill rating", 0, MAX_RATING, where, default=0)
    helpers = read_helpers(side, where, who)
    descriptors = read_integer(side, "descriptors", f"{owner} descriptors", 0, MAX_DESCRIPTORS, where, default=0)
    return {"who": who, "manner": manner, "number": manner_rating + skill_rating + helpers,
            "descriptors": descriptors}


def read_helpers(side: dict, where: str, who: str) -> int:
    """Helpers add 1 each. If their ratings are given, each must be at least 1."""
    helpers = read_integer(side, "helpers", f"{capitalize(possessive(who))} helpers", 0, MAX_HELPERS, where, default=0)
    ratings = read_optional_list(side, "helper_ratings", "Helper ratings", where)
    if ratings is not None:
        if len(ratings) != helpers:
            raise RecordError(f"{helpers} {'helper' if helpers == 1 else 'helpers'} but "
                              f"{len(ratings)} helper ratings were given.", path(where, "helper_ratings"))
        for rating in ratings:
            check_integer(rating, "A helper's rating", 0, MAX_RATING, path(where, "helper_ratings"))
            if not can_help(rating):
                raise RecordError("Only someone with a rating of at least 1 in this Skill or Spell can help.",
                                  path(where, "helper_ratings"))
    return helpers


def resolve_test(record: dict, source=None) -> dict:
    """Against the world: the player's Manner meets the GM's face-down Complication."""
    player = read_character(read_mapping(record, "player", "The player's choice"), "player", "The player")
    difficulty = read_integer(record, "difficulty", "The difficulty", MIN_DIFFICULTY, MAX_DIFFICULTY)
    complication = read_choice(record, "complication", "The Complication", COMPLICATIONS, noun="Complication")
    cell = TEST_TABLE[player["manner"]][complication]
    result = decide(cell, player["number"], difficulty, player["descriptors"], 0)
    result["notes"] = notes(result, test=True)
    record["result"] = result
    return record


def resolve_confrontation(record: dict, source=None) -> dict:
    """Against a character: both Manners meet in the Confrontation table."""
    player = read_character(read_mapping(record, "player", "The player's choice"), "player", "The player")
    opponent = read_character(read_mapping(record, "opponent", "The opponent's choice"), "opponent", "The opponent")
    cell = CONFRONTATION_TABLE[player["manner"]][opponent["manner"]]
    result = decide(cell, player["number"], opponent["number"], player["descriptors"], opponent["descriptors"])
    result["notes"] = notes(result, test=False)
    record["result"] = result
    return record


def notes(result: dict, test: bool) -> list[str]:
    found = []
    if test and result["cell"] == PARTIAL:
        found.append("manners-test-partial")
    if result["winner"] == "other" and result["partial"]:
        found.append("manners-other-partial")
    if result["tie_broken_by"]:
        found.append("manners-descriptors")
    if result["winner"] == "both":
        found.append("manners-compromise")
    return found


# --- Before the cards are shown: every outcome, for each Manner ---------------------------

def read_planner(side, label: str) -> dict:
    """A character before choosing: a rating for every Manner, plus Skill, helpers, descriptors."""
    if not isinstance(side, dict):
        raise RecordError(f"{label} must be a group of fields.")
    ratings = side.get("manner_ratings")
    if not isinstance(ratings, dict):
        raise RecordError(f"Give {label.lower()}'s rating in each Manner.", "manner_ratings")
    for name in ratings:
        if name not in MANNERS:
            raise RecordError(f"Unknown Manner {show(name)}: choose {either(MANNERS)}.", "manner_ratings")
    checked = {}
    for manner in MANNERS:
        if manner not in ratings:
            raise RecordError(f"Give a rating for each Manner: {manner} is missing.", "manner_ratings")
        checked[manner] = check_integer(ratings[manner], f"The {manner} rating", 0, MAX_RATING, "manner_ratings")
    skill_rating = read_integer(side, "skill_rating", "The Skill rating", 0, MAX_RATING, default=0)
    helpers = read_helpers(side, None, label)
    descriptors = read_integer(side, "descriptors", "The descriptors", 0, MAX_DESCRIPTORS, default=0)
    return {"ratings": checked, "extra": skill_rating + helpers, "descriptors": descriptors}


def tally(decisions: dict) -> dict:
    counts = {"success": 0, "partial": 0, "failure": 0, "compromise": 0}
    for decision in decisions.values():
        counts[decision["outcome"]] += 1
    return counts


def outcomes_for_test(player, difficulty) -> dict:
    """For each Manner the player could pick: the outcome against each of the five
    Complications (the card is face down), and how many of the five give each outcome."""
    planner = read_planner(player, "The player")
    difficulty = check_integer(difficulty, "The difficulty", MIN_DIFFICULTY, MAX_DIFFICULTY, "difficulty")
    table = {}
    for manner in MANNERS:
        number = planner["ratings"][manner] + planner["extra"]
        against = {complication: decide(TEST_TABLE[manner][complication], number, difficulty,
                                        planner["descriptors"], 0)
                   for complication in COMPLICATIONS}
        table[manner] = {"against": against, "counts": tally(against)}
    return table


def outcomes_for_confrontation(player, opponent) -> dict:
    """For each Manner the player could pick: the outcome against each Manner the opponent
    could pick, given both sides' known numbers, and counts per outcome."""
    planner = read_planner(player, "The player")
    other = read_planner(opponent, "The opponent")
    table = {}
    for manner in MANNERS:
        number = planner["ratings"][manner] + planner["extra"]
        against = {opposing: decide(CONFRONTATION_TABLE[manner][opposing], number,
                                    other["ratings"][opposing] + other["extra"],
                                    planner["descriptors"], other["descriptors"])
                   for opposing in MANNERS}
        table[manner] = {"against": against, "counts": tally(against)}
    return table
