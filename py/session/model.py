"""A table's session as one JSON object: system, roster, Tension, Tension Table, log.

`new_session` makes one; `check_session` turns untrusted JSON (storage, a
share link, an imported file) into a clean session or raises SessionError
with a message for players. Sessions are plain dicts; functions here return
new values and never edit their argument.
"""
from __future__ import annotations

import re
import secrets
import unicodedata

from rules import DEFAULT_TENSION_TABLE, MANNERS, RuleError, check_tension_table, plain_copy, show
from rules.words import isolate

from .errors import Overfull, SessionError
from .headcount import MAX_PEOPLE, check_people

SCHEMA_VERSION = 1
SYSTEMS = {"tension": "Tension Engine", "anomaly": "Anomaly", "manners": "Manner Cards"}

MAX_NAME = 60
MAX_SESSION_NAME = 80
MAX_RATING = 40
MAX_POINTS = 99
MAX_TENSION = 99
DEFAULT_MANNER_RATING = 2  # each Manner of a new Manner Cards sheet
MAX_LIST = 30
MAX_SHEETS = MAX_PEOPLE * len(SYSTEMS)  # live roster entries: each person's sheet in every rule system
MAX_LOG = 60_000  # entries of one session: 20,000 logged on each of three phones
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# Spaces, controls, format characters (zero-width, direction marks) and combining marks draw
# nothing on their own; nor do these letters (Hangul fillers, the blank Braille pattern).
INVISIBLE = {"Cc", "Cf", "Cs", "Zs", "Zl", "Zp", "Mn", "Me"}
BLANK_LETTERS = set("\u115f\u1160\u3164\uffa0\u2800")


def new_id() -> str:
    return secrets.token_hex(6)


def new_session(name: str = "New session", system: str = "tension", players: int = 3) -> dict:
    return {
        "v": SCHEMA_VERSION,
        "id": new_id(),
        "name": name,
        "system": system,
        "players": players,
        "tension": players,
        "settings": {"ones_feed_tension": True, "tension_explodes": True},
        "tension_table": list(DEFAULT_TENSION_TABLE),
        "roster": [],
        "log": [],
    }


# Checking untrusted input -------------------------------------------------

def need(condition: bool, message: str):
    if not condition:
        raise SessionError(message)


def whole(value, low: int, high: int, what: str) -> int:
    need(isinstance(value, int) and not isinstance(value, bool), f"{what} must be a whole number.")
    need(low <= value <= high, f"{what} must be from {low} to {high}, not {value}.")
    return value


def visible(text: str) -> bool:
    """True when some character of `text` draws something (not only spaces, marks, controls)."""
    return any(char not in BLANK_LETTERS and unicodedata.category(char) not in INVISIBLE for char in text)


def name_text(value, what: str, limit: int = MAX_NAME, allow_empty: bool = False) -> str:
    """Text a person wrote (a name, a kind, a time), spaces normalised. Text that shows
    nothing is refused where a name is needed, and stands for nothing where it is not."""
    need(isinstance(value, str), f"{what} must be text.")
    need(LONE_SURROGATE.search(value) is None, f"{what} holds a broken character (half of one).")
    value = " ".join(value.split())
    if not visible(value):
        need(allow_empty, f"{what} is empty." if value == "" else f"{what} has no visible characters.")
        value = ""
    need(len(value) <= limit, f"{what} is too long: {limit} characters at most.")
    return value


def listed(value, what: str, limit: int = MAX_LIST) -> list:
    need(isinstance(value, list), f"{what} must be a list.")
    need(len(value) <= limit, f"{what} has too many entries: {limit} at most.")
    return value


def fields(value, what: str) -> dict:
    need(isinstance(value, dict), f"{what} must be a group of fields.")
    return value


def rated(items, what: str) -> list[dict]:
    """[{"name", "rating"}] lists: Attributes, Skills, Dread Traits, Spells."""
    out = []
    for index, item in enumerate(listed(items, what)):
        item = fields(item, f"{what} entry {index + 1}")
        out.append({"name": name_text(item.get("name"), f"A name in {what}"),
                    "rating": whole(item.get("rating"), 0, MAX_RATING, f"The rating of {isolate(item['name'][:30])}")})
    names = [item["name"].casefold() for item in out]
    repeated = next((item["name"] for item in out if names.count(item["name"].casefold()) > 1), None)
    # A pool is built by name ("Agility + Climb"): two entries with one name would be ambiguous.
    need(repeated is None, f"{what} has \"{isolate(str(repeated)[:30])}\" twice: give each its own name.")
    return out


def check_tension_entry(entry: dict, kind: str, who: str) -> dict:
    if kind == "character":
        return {"attributes": rated(entry.get("attributes", []), f"{who}'s Attributes"),
                "skills": rated(entry.get("skills", []), f"{who}'s Skills"),
                "ap": whole(entry.get("ap", 0), 0, MAX_POINTS, f"{who}'s AP"),
                "health": whole(entry.get("health", 0), 0, MAX_POINTS, f"{who}'s Health"),
                "willpower": whole(entry.get("willpower", 0), 0, MAX_POINTS, f"{who}'s Willpower")}
    return {"power": whole(entry.get("power", 0), 0, MAX_RATING, f"{who}'s Power"),
            "traits": rated(entry.get("traits", []), f"{who}'s Dread Traits"),
            "health": whole(entry.get("health", 0), 0, MAX_POINTS, f"{who}'s Health")}


def check_modifier(item, who: str) -> dict:
    item = fields(item, f"A modifier of {who}")
    return {"name": name_text(item.get("name", ""), f"A modifier name of {who}", allow_empty=True),
            "kind": name_text(item.get("kind"), f"A modifier kind of {who}", limit=30),
            "value": whole(item.get("value"), -MAX_POINTS, MAX_POINTS, f"A modifier of {who}"),
            "stacks": bool(item.get("stacks", False))}


def check_anomaly_entry(entry: dict, kind: str, who: str) -> dict:
    return {"modifiers": [check_modifier(item, who) for item in listed(entry.get("modifiers", []), f"{who}'s modifiers")]}


def check_manners_entry(entry: dict, kind: str, who: str) -> dict:
    manners = fields(entry.get("manners", {}), f"{who}'s Manners")
    unknown = set(manners) - set(MANNERS)
    need(not unknown, f"{who} has an unknown Manner: {isolate(min(unknown, default='')[:30])}.")
    skills = rated(entry.get("skills", []), f"{who}'s Skills and Spells")
    descriptors = []
    for index, item in enumerate(listed(entry.get("descriptors", []), f"{who}'s descriptors")):
        item = fields(item, f"Descriptor {index + 1} of {who}")
        descriptors.append({"name": name_text(item.get("name"), f"A descriptor of {who}"),
                            "on": name_text(item.get("on"), f"What a descriptor of {who} is attached to")})
    return {"manners": {manner: whole(manners.get(manner, 0), 0, MAX_RATING, f"{who}'s {manner}") for manner in MANNERS},
            "skills": skills, "descriptors": descriptors}


SHEETS = {"tension": check_tension_entry, "anomaly": check_anomaly_entry, "manners": check_manners_entry}


def blank_sheet(system: str, kind: str) -> dict:
    """What a new sheet of `kind` holds in `system` before anyone writes on it (the roster's form starts
    from it, and a person gets it in a system they had no sheet in yet)."""
    if system == "tension":
        if kind == "character":
            return {"attributes": [{"name": "Might", "rating": 2}, {"name": "Agility", "rating": 2},
                                   {"name": "Wits", "rating": 2}], "skills": [], "ap": 3, "health": 10, "willpower": 10}
        return {"power": 4, "traits": [], "health": 10}
    if system == "anomaly":
        return {"modifiers": []}
    return {"manners": {manner: DEFAULT_MANNER_RATING for manner in MANNERS}, "skills": [], "descriptors": []}


def check_roster_entry(entry) -> dict:
    entry = fields(entry, "A roster entry")
    name = name_text(entry.get("name"), "A character's name")
    who = isolate(name)  # in messages: the name's direction stays inside it
    system = entry.get("system")
    need(isinstance(system, str) and system in SYSTEMS, f"{who} belongs to an unknown rule system.")
    kind = entry.get("kind", "character")
    need(kind in ("character", "adversary"), f"{who} must be a character or an adversary.")
    entry_id = name_text(entry.get("id") or new_id(), f"{who}'s id", limit=24)
    return {"id": entry_id, "system": system, "kind": kind, "name": name, **SHEETS[system](entry, kind, who)}


def logged_record(record: dict) -> dict:
    """A copy of a logged record, bounded like every record rules reads (depth, size)."""
    try:
        return plain_copy(record)
    except RuleError as error:
        raise SessionError(f"A logged conflict is not readable. {error}") from None


LOG_KINDS = ("conflict", "set-aside")
MAX_CALL_TITLE = 80  # a live call's title, and the log's note of it beside the GM's set-aside dice
EFFECT_FIELDS = ("tension", "ap", "health")


def check_effect(item) -> dict:
    item = fields(item, "A log entry's change")
    need(item.get("field") in EFFECT_FIELDS, "A log entry changes something unknown.")
    entry_id = item.get("id")
    need(entry_id is None or isinstance(entry_id, str), "A log entry's change names no roster entry.")
    return {"field": item["field"], "id": None if entry_id is None else entry_id[:24],
            "delta": whole(item.get("delta"), -MAX_POINTS, MAX_POINTS, "A log entry's change")}


def check_log_entry(entry) -> dict:
    """A log entry: a conflict with its changes as deltas ("effects"), a set-aside roll, or an
    entry from before effects existed, which keeps the numbers from before it ("before")."""
    entry = fields(entry, "A log entry")
    need(isinstance(entry.get("record"), dict), "A log entry has no conflict record.")
    kind = entry.get("kind", "conflict")
    need(kind in LOG_KINDS, "A log entry is of an unknown kind.")
    clean = {
        "id": name_text(entry.get("id") or new_id(), "A log entry's id", limit=24),
        "at": name_text(entry.get("at", ""), "A log entry's time", limit=40, allow_empty=True),
        "by": name_text(entry.get("by", ""), "Who logged an entry", allow_empty=True),
        "kind": kind,
        "record": logged_record(entry["record"]),
    }
    if kind == "set-aside":
        need("result" not in entry["record"], "A roll set aside has no result.")
        if entry.get("call"):
            clean["call"] = name_text(entry["call"], "The call a roll was set aside for", limit=MAX_CALL_TITLE)
    if "effects" in entry or "before" not in entry:
        clean["effects"] = [check_effect(item) for item in listed(entry.get("effects", []), "A log entry's changes")]
    else:
        before = fields(entry.get("before", {}), "A log entry's saved numbers")
        ap = fields(before.get("ap", {}), "A log entry's saved AP")
        clean["before"] = {"tension": whole(before.get("tension", 0), 0, MAX_TENSION, "Saved Tension"),
                           "ap": {str(key)[:24]: whole(value, 0, MAX_POINTS, "Saved AP") for key, value in ap.items()}}
    if "n" in entry:
        clean["n"] = whole(entry["n"], 1, MAX_LOG, "A log entry's number")
        clean["phone"] = name_text(entry.get("phone", ""), "The phone that logged an entry", allow_empty=True)
    if "table_lines" in entry:
        clean["table_lines"] = [name_text(line, "A Tension Table line", limit=200, allow_empty=True)
                                for line in listed(entry["table_lines"], "The Tension Table lines", 10)]
    return clean


def check_session(data, keep_log: bool = True) -> dict:
    """A clean session from untrusted JSON, or SessionError saying what is wrong."""
    data = fields(data, "A session")
    need(data.get("v") == SCHEMA_VERSION,
         f"This session was made by a different version of Tableside (version {show(data.get('v'))}).")
    system = data.get("system")
    need(isinstance(system, str) and system in SYSTEMS, "This session names an unknown rule system.")
    players = whole(data.get("players", 3), 1, 20, "The number of players")
    settings = fields(data.get("settings", {}), "The session settings")
    try:
        table = check_tension_table(data.get("tension_table", list(DEFAULT_TENSION_TABLE)))
    except RuleError as error:
        raise SessionError(str(error)) from None
    roster = listed(data.get("roster", []), "The roster", 10 ** 9)
    if len(roster) > 2 * MAX_SHEETS:  # not worth reading each; within it, check_people says which limit is passed
        raise Overfull(f"more than {MAX_SHEETS} sheets: {MAX_PEOPLE} characters and adversaries in each rule system")
    roster = [check_roster_entry(entry) for entry in roster]
    ids = [entry["id"] for entry in roster]
    need(len(ids) == len(set(ids)), "Two roster entries share one id.")
    check_people(roster)
    log = listed(data.get("log", []), "The log", MAX_LOG) if keep_log else []
    return {
        "v": SCHEMA_VERSION,
        "id": name_text(data.get("id") or new_id(), "The session id", limit=24),
        "name": name_text(data.get("name", "Session"), "The session name", MAX_SESSION_NAME),
        "system": system,
        "players": players,
        "tension": whole(data.get("tension", players), 0, MAX_TENSION, "Tension"),
        "settings": {"ones_feed_tension": bool(settings.get("ones_feed_tension", True)),
                     "tension_explodes": bool(settings.get("tension_explodes", True))},
        "tension_table": table,
        "roster": roster,
        "log": [check_log_entry(entry) for entry in log],
    }
