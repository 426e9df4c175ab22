"""What travels between phones: session links that merge, and a roll shown to the GM.

Version 2 fragments are `S2.` (a session) and `R2.` (one roll), then base32 (upper
case, no padding) of zlib-compressed JSON with a preset dictionary of the words
every record repeats. Upper-case base32 fits the QR code's alphanumeric mode, and
with the preset a roll fits a code small enough to scan across a table.

- A session link carries the replica (session.replica) without its log, plus the
  newest log entries; a roll carries the one log entry and the counts of the phone
  that logged it (Tension, and the AP, Health and Willpower of the roster entries in
  the record), as a partial replica. Either is *merged* into the replica of the same
  session on the receiving phone (a join: opening it twice, or in any order, gives the
  same session).
- A session link carries at most MAX_MARKS undo marks (a campaign undoes thousands of entries
  in its life): those undone on more than one phone first (they change counts: undo_correction),
  then the newest. An older mark stays where it is: phones that have it keep it (a join drops
  nothing), and a phone without it has not got its entry either (a link carries only the newest
  entries), so it changes nothing there; an export file carries every mark.
- Log entries travel without their "result": it is worked out again from the record
  and its own dice by rules.resolve on the receiving phone, so a result changed in
  transit cannot be logged as valid (and links stay small).
- Version 1 links (`s1.`, `r1.`, session.link_v1) still open: a session becomes a replica
  the way a saved version-1 session does; a roll is shown as it was.
"""
from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass, field

import rules

from .errors import SessionError
from .log import effects_of
from .link_text import ROLL, SEALED, SESSION, LinkError, split, unpack
from .link_v1 import roll_from_payload, session_from_payload
from .model import MAX_SESSION_NAME, name_text
from .replica import Replica
from .replica_check import CLOCK_ROOM, check_replica, identifier
from .sealed import check_message

VERSION = 2
LATEST = 20  # log entries a session link carries
MAX_MARKS = LATEST * 5  # undo marks a session link carries (and read_session accepts)
MAX_SENT = 4  # sealed-card messages one link carries: the steps of one phone in one conflict
# The preset dictionary zlib starts from: the shapes of records and replicas, so their
# repeated words cost almost nothing. Part of link version 2: never change it (a test pins it).
PRESET = json.dumps([
    {"v": 1, "system": "tension", "kind": "environment", "tension": 5, "retry": False,
     "settings": {"ones_feed_tension": True, "tension_explodes": True},
     "gm": {"name": "The GM", "dice": [6, 5, 4, 3, 2, 1], "keep": [0, 1], "boost": False, "extra": 0},
     "player": {"name": "", "id": "", "side": "character", "pool": 5, "dice": [6, 4, 3, 1], "keep": [0, 1],
                "ap": 0}, "table_rolls": []},
    {"kind": "opposed", "combat": True, "initiators": [{"side": "adversary", "total": 9}],
     "defender": {"side": "character"}},
    {"system": "anomaly", "kind": "check", "actor": {"good": 0, "bad": 0, "dice": [7], "modifiers": [
        {"name": "", "kind": "Gear", "value": 2, "stacks": False}, {"kind": "Attribute"}, {"kind": "Skill"},
        {"kind": "Size"}, {"kind": "Knowledge"}]}, "difficulty": 9},
    {"system": "manners", "kind": "test", "player": {"manner": "Determination", "manner_rating": 2,
                                                      "skill": "", "skill_rating": 1, "helpers": 0,
                                                      "descriptors": 0},
     "difficulty": 5, "complication": "Hostility", "opponent": {}, "Force": 0, "Speed": 0, "Precision": 0,
     "Imagination": 0, "Time": 0, "Confusion": 0, "Collateral": 0, "Consumption": 0, "confrontation": 0},
    {"v": 2, "id": "", "clock": 0, "fields": {"name": ["", 0, ""], "system": ["tension", 0, ""],
                                              "players": [3, 0, ""], "settings": [{}, 0, ""],
                                              "tension_table": [[], 0, ""]},
     "tension": {"": [3, 0]}, "roster": {"": {"added": [0, ""], "removed": None, "fields": {
         "system": ["tension", 0, ""], "kind": ["character", 0, ""], "name": ["", 0, ""],
         "attributes": [[{"name": "", "rating": 2}], 0, ""], "skills": [[], 0, ""], "traits": [[], 0, ""],
         "power": [4, 0, ""], "modifiers": [[], 0, ""], "manners": [{}, 0, ""], "descriptors": [[], 0, ""]},
         "counts": {"ap": {"": [3, 0]}, "health": {"": [10, 0]}, "willpower": {"": [8, 0]}}}},
     "undone": {}, "log": [{"id": "", "at": "", "by": "", "clock": 0, "device": "", "record": {},
                            "effects": [{"field": "tension", "id": None, "delta": 1}], "before": {}}]},
], separators=(",", ":")).encode()


@dataclass
class Incoming:
    """An opened link. `replica` is what to merge (a partial one for a roll); `roll` is the
    entry a roll carries; `problems` what rules.verify found wrong with a roll's record."""
    kind: str  # "session" | "roll" | "sealed"
    version: int
    replica: Replica | None = None
    roll: dict | None = None
    session_name: str = ""
    problems: list = field(default_factory=list)
    messages: list = field(default_factory=list)  # sealed-card messages of one conflict (session.sealed)
    session_id: str = ""  # the session a sealed-card message belongs to


# --- Writing --------------------------------------------------------------------------------------

def pack(payload) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, PRESET)
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.b32encode(packer.compress(text) + packer.flush()).decode("ascii").rstrip("=")


def in_transit(entry: dict) -> dict:
    """A log entry as a link carries it: without the result and what it changed, which the
    receiver works out again from the record (and without the v1 numbers from before it once
    it says what it changed, nor the kind of nearly every entry, "conflict")."""
    travelling = {key: value for key, value in entry.items() if not (key == "before" and "effects" in entry)
                  and not (key == "kind" and value == "conflict")}  # the kind every reader assumes
    record = entry["record"]
    if isinstance(record, dict) and isinstance(record.get("result"), dict):
        travelling.update(record={key: value for key, value in record.items() if key != "result"}, resolved=True)
        try:
            same = entry.get("effects") == effects_of(record)
        except (KeyError, TypeError, ValueError, AttributeError):  # a stored record too broken to read
            same = False
        if same:
            del travelling["effects"]
            travelling["resolved"] = "effects"
    return travelling


def session_link(replica: Replica, latest: int = LATEST, entries: list[dict] | None = None) -> str:
    """The fragment (without '#') of a link to this session: everything but the older log; with
    `entries`, those entries instead of the newest (a live table sends what changed)."""
    payload = replica.to_dict(log=False)
    payload["undone"] = recent_marks(replica.undone)
    if replica.sealed:  # exchanges already logged are settled: the log entry carries their result
        payload["sealed"] = {key: item for key, item in replica.sealed.items() if key not in replica.log}
    chosen = replica.live_log()[:latest] if entries is None else entries
    payload["log"] = [in_transit(entry) for entry in chosen]
    return f"{SESSION.upper()}{VERSION}.{pack(payload)}"


def recent_marks(undone: dict) -> dict:
    """The undo marks a session link carries: all of them up to MAX_MARKS, else those that change
    counts (undone on several phones) and then the newest."""
    if len(undone) <= MAX_MARKS:
        return undone
    ranked = sorted(undone.items(), reverse=True,
                    key=lambda item: (len(item[1]["by"]) > 1, max(item[1]["by"].values()), item[0]))
    return dict(ranked[:MAX_MARKS])


def roll_message(replica: Replica, entry_id: str, session_name: str = "") -> str:
    """The fragment of one logged roll for the GM's phone: the entry, and the counts of the
    phone that logged it for Tension and the roster entries the record names. The app sends no
    `session_name`: the GM's phone knows its session's name, and those 30-odd characters keep a
    roll's code at QR version 10."""
    entry = replica.log[entry_id]
    device = entry["device"]
    named = {side.get("id") for side in record_sides(entry["record"])} & replica.roster.keys()
    roster = {}
    for entry_key in sorted(named):
        counts = {key: {device: steps[device]} for key, steps in replica.roster[entry_key]["counts"].items()
                  if device in steps}
        if counts:
            roster[entry_key] = {"counts": counts}
    partial = {"id": replica.id,  # its version and clock are the link's and the entry's
               "tension": {device: replica.tension[device]} if device in replica.tension else {},
               "roster": roster, "log": [in_transit(entry)]}
    message = {"p": partial, "n": session_name} if session_name else {"p": partial}
    return f"{ROLL.upper()}{VERSION}.{pack(message)}"


def sealed_message(session_id: str, session_name: str, messages: list[dict]) -> str:
    """The fragment of a sealed-card exchange's messages from one phone (each step it took so far,
    so its newest link alone is enough), for the other phone."""
    return f"{SEALED.upper()}{VERSION}.{pack({'s': session_id, 'n': session_name, 'm': messages})}"


def record_sides(record) -> list[dict]:
    """Every side of a conflict record, whatever its system."""
    if not isinstance(record, dict):
        return []
    sides = [record.get(key) for key in ("gm", "player", "actor", "defender", "opponent")]
    if isinstance(record.get("initiators"), list):
        sides += record["initiators"]
    return [side for side in sides if isinstance(side, dict)]


# --- Reading ----------------------------------------------------------------------------------------

def resolved_again(entry: dict) -> tuple[dict, list[str]]:
    """A travelled entry with its result (and, when they travelled out, its effects) worked out
    from its own dice, and what went wrong."""
    resolved = entry.pop("resolved", False)
    if not resolved:
        return entry, []
    try:
        record = rules.resolve(entry["record"], source=rules.NoDice())
    except rules.RuleError as error:
        return entry, [str(error)]
    entry["record"] = record
    if resolved == "effects":
        entry["effects"] = effects_of(record)
    return entry, []


def read(fragment) -> Incoming:
    """Any Tableside link (versions 1 and 2) as something to merge or show. LinkError otherwise."""
    kind, version, data = split(fragment)
    if version == 1:
        payload = unpack(data)
        if kind == SESSION:
            return Incoming("session", 1, replica=Replica.from_session(session_from_payload(payload)))
        roll = roll_from_payload(payload)
        return Incoming("roll", 1, roll=roll, session_name=roll["session"], problems=rules.verify(roll["record"]))
    payload = unpack(data, version, PRESET)
    try:
        if kind == SESSION:
            return Incoming("session", 2, replica=read_session(payload))
        if kind == SEALED:
            return read_sealed(payload)
        return read_roll(payload)
    except SessionError as error:
        raise LinkError(f"This link can't be opened: {error}") from None


def read_session(payload) -> Replica:
    if not isinstance(payload, dict) or not isinstance(payload.get("log"), list):
        raise SessionError("it does not hold a Tableside session.")
    entries = []
    for entry in payload["log"]:
        if not isinstance(entry, dict):
            raise SessionError("its log is damaged.")
        entry, problems = resolved_again(dict(entry))
        if problems:
            raise SessionError(f"a logged conflict does not hold together. {problems[0]}")
        entries.append(entry)
    return check_replica({**payload, "log": entries}, max_log=MAX_MARKS, room=CLOCK_ROOM)


def read_roll(payload) -> Incoming:
    if not isinstance(payload, dict) or not isinstance(payload.get("p"), dict):
        raise SessionError("it does not hold a Tableside roll.")
    partial = payload["p"]
    log = partial.get("log")
    if not isinstance(log, list) or len(log) != 1 or not isinstance(log[0], dict):
        raise SessionError("it does not hold one roll.")
    entry, problems = resolved_again(dict(log[0]))
    replica = check_replica({**partial, "v": VERSION, "clock": entry.get("clock"), "log": [entry]}, max_log=1,
                            partial=True, room=CLOCK_ROOM)
    name = name_text(payload.get("n", ""), "The session's name", MAX_SESSION_NAME, allow_empty=True)
    [entry] = replica.log.values()
    return Incoming("roll", 2, replica=replica, roll=entry, session_name=name,
                    problems=problems or rules.verify(entry["record"]))




def read_sealed(payload) -> Incoming:
    if not isinstance(payload, dict) or set(payload) != {"s", "n", "m"}:
        raise SessionError("it does not hold a sealed-card message.")
    messages = payload["m"]
    if not isinstance(messages, list) or not 0 < len(messages) <= MAX_SENT:
        raise SessionError("it does not hold a sealed-card message.")
    checked = [check_message(message) for message in messages]
    if len({(message["c"], message["k"], message["by"]) for message in checked}) != 1:
        raise SessionError("it mixes the steps of two conflicts or two sides.")
    name = name_text(payload["n"], "The session's name", MAX_SESSION_NAME, allow_empty=True)
    return Incoming("sealed", 2, messages=checked, session_id=identifier(payload["s"]), session_name=name)
