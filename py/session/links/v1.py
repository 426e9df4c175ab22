"""Version-1 links (`s1.` a session's setup, `r1.` one logged conflict): still read, still
written by tests; the app writes version 2 (session.links.v2). What a fragment is and how its
data unpacks lives in session.links.text.

`data` is compact JSON (positional arrays for the session, below), zlib-compressed,
base64url without padding. `decode` never trusts its input.

Session data (version 1), one JSON array; the log never travels in a link:

    [id, name, system, players, tension, flags, table, roster]
    system   "tension" | "anomaly" | "manners"
    flags    1: 1s feed Tension, 2: Tension explodes (3 = both, the default)
    table    0 for the default Tension Table, else its six lines
    roster   [[type, id, name, *sheet], ...] with type = system letter + kind letter:
      "tc" Tension character  [ap, health, willpower, [attribute, rating, ...], [skill, rating, ...]]
      "ta" Tension adversary  [power, health, [trait, rating, ...]]
      "ac"/"aa" Anomaly       [[name, kind, value, stacks (0|1), ...]]
      "mc"/"ma" Manner Cards  [[Determination, Force, Speed, Precision, Imagination], [skill, rating, ...],
                               [descriptor, attached to, ...]]

Roll data (version 1), one JSON object: {"r": conflict record with its result,
"a": when it was logged, "b": who, "n": the session's name}. The record is
re-checked by `rules.verify` where it is shown, not trusted here.
"""
from __future__ import annotations

import base64
import json
import re
import zlib

from rules import DEFAULT_TENSION_TABLE, MANNERS

from ..errors import SessionError
from ..model import MAX_NAME, MAX_SESSION_NAME, SCHEMA_VERSION, SYSTEMS, check_session
from .text import ROLL, SESSION, LinkError, split, unpack

MAX_TIME = 40
ID = re.compile(r"[A-Za-z0-9_-]{1,24}")
SYSTEM_LETTERS = {"tension": "t", "anomaly": "a", "manners": "m"}
KIND_LETTERS = {"character": "c", "adversary": "a"}


# --- Encoding -------------------------------------------------------------------------------

def pack(payload) -> str:
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii").rstrip("=")


def flat(items: list[dict], *keys: str) -> list:
    return [item[key] for item in items for key in keys]


def compact_entry(entry: dict) -> list:
    head = [SYSTEM_LETTERS[entry["system"]] + KIND_LETTERS[entry["kind"]], entry["id"], entry["name"]]
    if entry["system"] == "tension":
        if entry["kind"] == "character":
            return head + [entry["ap"], entry["health"], entry["willpower"],
                           flat(entry["attributes"], "name", "rating"), flat(entry["skills"], "name", "rating")]
        return head + [entry["power"], entry["health"], flat(entry["traits"], "name", "rating")]
    if entry["system"] == "anomaly":
        return head + [[value for item in entry["modifiers"]
                        for value in (item["name"], item["kind"], item["value"], int(bool(item["stacks"])))]]
    return head + [[entry["manners"][manner] for manner in MANNERS], flat(entry["skills"], "name", "rating"),
                   flat(entry["descriptors"], "name", "on")]


def compact_session(session: dict) -> list:
    settings = session["settings"]
    flags = (1 if settings["ones_feed_tension"] else 0) | (2 if settings["tension_explodes"] else 0)
    table = 0 if list(session["tension_table"]) == list(DEFAULT_TENSION_TABLE) else list(session["tension_table"])
    return [session["id"], session["name"], session["system"], session["players"], session["tension"], flags,
            table, [compact_entry(entry) for entry in session["roster"]]]


def encode_session(session: dict) -> str:
    """The fragment (without '#') of a link to this session's setup: everything but the log."""
    return f"{SESSION}1.{pack(compact_session(session))}"


def encode_roll(record: dict, at: str = "", by: str = "", session_name: str = "") -> str:
    """The fragment (without '#') of a link to one logged conflict (a resolved record)."""
    payload = {"r": record}
    for key, value in (("a", at), ("b", by), ("n", session_name)):
        if value:
            payload[key] = value
    return f"{ROLL}1.{pack(payload)}"


# --- Decoding ---------------------------------------------------------------------------------

def decode(fragment) -> tuple[str, dict]:
    """("session", clean session without log) or ("roll", {"record", "at", "by", "session"}),
    from a version-1 fragment with or without '#' (session.links.v2 reads both versions).
    Anything wrong raises LinkError."""
    kind, version, data = split(fragment)
    if version != 1:
        raise LinkError("This link was made by a newer version of Tableside; open it with session.links.v2.")
    payload = unpack(data)
    if kind == SESSION:
        return "session", session_from_payload(payload)
    return "roll", roll_from_payload(payload)


def decode_session(fragment) -> dict:
    kind, value = decode(fragment)
    if kind != "session":
        raise LinkError("This is a link to one roll, not to a session.")
    return value


def decode_roll(fragment) -> dict:
    kind, value = decode(fragment)
    if kind != "roll":
        raise LinkError("This is a link to a session, not to one roll.")
    return value


# --- From compact data back to a session -------------------------------------------------------

def need(condition: bool, message: str = "This link does not hold a Tableside session."):
    if not condition:
        raise LinkError(message)


def array(value, length: int | None = None, what: str = "This link does not hold a Tableside session.") -> list:
    need(isinstance(value, list) and (length is None or len(value) == length), what)
    return value


def groups(value, size: int, what: str) -> list[list]:
    """A flat list read back in groups of `size` ([name, rating, name, rating] -> pairs)."""
    value = array(value, what=f"{what} in this link are not readable.")
    need(len(value) % size == 0, f"{what} in this link are not readable.")
    return [value[start:start + size] for start in range(0, len(value), size)]


def rated(value, what: str) -> list[dict]:
    return [{"name": name, "rating": rating} for name, rating in groups(value, 2, what)]


def identifier(value) -> str:
    need(isinstance(value, str) and ID.fullmatch(value) is not None, "This link is damaged: it holds a bad id.")
    return value


def entry_from_compact(item) -> dict:
    item = array(item, what="A roster entry in this link is not readable.")
    need(len(item) >= 3 and isinstance(item[0], str) and len(item[0]) == 2,
         "A roster entry in this link is not readable.")
    systems = {letter: system for system, letter in SYSTEM_LETTERS.items()}
    kinds = {letter: kind for kind, letter in KIND_LETTERS.items()}
    system, kind = systems.get(item[0][0]), kinds.get(item[0][1])
    need(system is not None and kind is not None, "A roster entry in this link has an unknown type.")
    entry = {"system": system, "kind": kind, "id": identifier(item[1]), "name": item[2]}
    sheet = item[3:]
    who = "A sheet"
    if system == "tension" and kind == "character":
        ap, health, willpower, attributes, skills = array(sheet, 5, f"{who} in this link is not readable.")
        entry.update(ap=ap, health=health, willpower=willpower, attributes=rated(attributes, "Attributes"),
                     skills=rated(skills, "Skills"))
    elif system == "tension":
        power, health, traits = array(sheet, 3, f"{who} in this link is not readable.")
        entry.update(power=power, health=health, traits=rated(traits, "Dread Traits"))
    elif system == "anomaly":
        [modifiers] = array(sheet, 1, f"{who} in this link is not readable.")
        entry["modifiers"] = [{"name": name, "kind": kind_name, "value": value, "stacks": stacks}
                              for name, kind_name, value, stacks in groups(modifiers, 4, "Modifiers")]
        need(all(item["stacks"] in (0, 1) for item in entry["modifiers"]), "Modifiers in this link are not readable.")
    else:
        ratings, skills, descriptors = array(sheet, 3, f"{who} in this link is not readable.")
        entry.update(manners=dict(zip(MANNERS, array(ratings, len(MANNERS), "Manners in this link are not readable."))),
                     skills=rated(skills, "Skills"),
                     descriptors=[{"name": name, "on": on} for name, on in groups(descriptors, 2, "Descriptors")])
    return entry


def session_from_payload(payload) -> dict:
    session_id, name, system, players, tension, flags, table, roster = array(payload, 8)
    need(isinstance(system, str) and system in SYSTEMS, "This link names an unknown rule system.")
    need(isinstance(flags, int) and not isinstance(flags, bool) and 0 <= flags <= 3,
         "This link's settings are not readable.")
    need(table == 0 or isinstance(table, list), "This link's Tension Table is not readable.")
    data = {
        "v": SCHEMA_VERSION, "id": identifier(session_id), "name": name, "system": system,
        "players": players, "tension": tension,
        "settings": {"ones_feed_tension": bool(flags & 1), "tension_explodes": bool(flags & 2)},
        "tension_table": list(DEFAULT_TENSION_TABLE) if table == 0 else table,
        "roster": [entry_from_compact(item) for item in array(roster, what="This link's roster is not readable.")],
        "log": [],
    }
    try:
        return check_session(data, keep_log=False)
    except LinkError:
        raise
    except SessionError as error:
        raise LinkError(f"This link can't be opened. {error}") from None


def text_field(payload: dict, key: str, limit: int, what: str) -> str:
    value = payload.get(key, "")
    need(isinstance(value, str), f"{what} in this link is not text.")
    value = " ".join(value.split())
    need(len(value) <= limit, f"{what} in this link is too long: {limit} characters at most.")
    return value


def roll_from_payload(payload) -> dict:
    need(isinstance(payload, dict) and isinstance(payload.get("r"), dict), "This link does not hold a roll.")
    return {"record": payload["r"],
            "at": text_field(payload, "a", MAX_TIME, "The time"),
            "by": text_field(payload, "b", MAX_NAME, "Who rolled"),
            "session": text_field(payload, "n", MAX_SESSION_NAME, "The session's name")}
