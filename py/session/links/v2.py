"""What travels between phones: session links that merge, and a roll shown to the GM.

Version 2 fragments are `S2.` (a session) and `R2.` (one roll), then base32 (upper
case, no padding) of zlib-compressed JSON with a preset dictionary of the words
every record repeats. Upper-case base32 fits the QR code's alphanumeric mode, and
with the preset a roll fits a code small enough to scan across a table.

- A session link carries the replica (session.replica) without its log, plus the
  newest log entries; a roll carries the one log entry and the counts of the phone
  that logged it for what the roll changed (Tension, AP, Health), as a partial replica, and
  nothing else (a roll link with a name, sheets, removals or undo marks is refused; other
  counts are left out). Either is *merged* into the replica of the same session on the
  receiving phone (a join: opening it twice, or in any order, gives the
  same session).
- A session link carries at most MAX_MARKS undo marks (a campaign undoes thousands of entries
  in its life): those undone on more than one phone first (they change counts: undo_correction),
  then the newest. An older mark stays where it is: phones that have it keep it (a join drops
  nothing), and a phone without it has not got its entry either (a link carries only the newest
  entries), so it changes nothing there; an export file carries every mark.
- Log entries travel without their "result": it is worked out again from the record
  and its own dice by rules.resolve on the receiving phone, so a result changed in
  transit cannot be logged as valid (and links stay small).
- Counts and vouched records travel compactly (session.links.compact); a link written before
  that, with them as the replica keeps them, still opens.
- Version 1 links (`s1.`, `r1.`, session.links.v1) still open: a session becomes a replica
  the way a saved version-1 session does; a roll is shown as it was.
"""
from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass, field

import rules

from .. import history
from ..errors import SessionError
from ..log import effects_of
from ..model import MAX_SESSION_NAME, name_text
from ..replica import Replica, effect_targets
from ..replica_check import CLOCK_ROOM, check_replica, identifier
from ..sealed.exchange import check_message
from ..sealed.verdict import covered
from .compact import compacted, expanded, is_compact
from .text import ROLL, SEALED, SESSION, LinkError, split, unpack
from .v1 import roll_from_payload, session_from_payload

VERSION = 2
LATEST = 20  # log entries a session link carries
ROLL_PARTS = {"id", "tension", "roster", "log"}  # what a roll link carries: nothing else
MAX_MARKS = LATEST * 5  # undo marks a session link carries (and read_session accepts)
FEW_CELLS = 400  # counts' steps by device up to which a session link is written both ways and the shorter sent
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
    chosen = replica.live_log()[:latest] if entries is None else entries
    payload["undone"] = recent_marks(replica.undone, {entry["id"] for entry in chosen})
    if replica.sealed:  # exchanges not logged yet, and those of entries sent that don't carry all of them
        sent = {entry["id"] for entry in chosen}
        payload["sealed"] = {key: item for key, item in replica.sealed.items()
                             if key not in replica.log or (key in sent and not covered(replica, key))}
    payload["log"] = [in_transit(entry) for entry in chosen]
    packed = pack(compacted(payload, replica))
    if count_cells(replica) <= FEW_CELLS:  # a small session: the replica's own shape may be shorter (the preset knows it)
        packed = min(packed, pack(payload), key=len)
    return f"{SESSION.upper()}{VERSION}.{packed}"


def count_cells(replica: Replica) -> int:
    """How many steps by device a replica's counts hold."""
    return len(replica.tension) + sum(len(counts) for entry in replica.roster.values() for counts in entry["counts"].values())


def recent_marks(undone: dict, carried=frozenset()) -> dict:
    """The undo marks a session link carries: all of them up to MAX_MARKS, else those of the entries it
    carries (a mark of an entry the receiving phone does not hold is left out there: session.inert), those
    that change counts (undone on several phones) and then the newest."""
    if len(undone) <= MAX_MARKS:
        return undone
    ranked = sorted(undone.items(), reverse=True,
                    key=lambda item: (item[0] in carried, len(item[1]["by"]) > 1, max(item[1]["by"].values()),
                                      item[0]))
    return dict(ranked[:MAX_MARKS])


def roll_message(replica: Replica, entry_id: str, session_name: str = "") -> str:
    """The fragment of one logged roll for the GM's phone: the entry, and the counts of the
    phone that logged it for what its effects changed (Tension, AP, Health), nothing else. The app sends no
    `session_name`: the GM's phone knows its session's name, and those 30-odd characters keep a
    roll's code at QR version 10."""
    entry = replica.log[entry_id]
    tension, counts = moved_counts(replica.tension, replica.roster, entry)
    roster = {entry_key: {"counts": counts[entry_key]} for entry_key in sorted(counts)}
    partial = {"id": replica.id, "tension": tension,  # its version and clock are the link's and the entry's
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
    from its own dice, and what does not hold together (session.history: rules.verify, and
    effects its record does not imply)."""
    resolved = entry.pop("resolved", False)
    if not isinstance(entry.get("record"), dict):
        return entry, ["It has no conflict record."]
    if resolved:
        try:
            entry["record"] = rules.resolve(entry["record"], source=rules.NoDice())
        except rules.RuleError as error:
            return entry, [str(error)]
        if resolved == "effects":
            entry["effects"] = effects_of(entry["record"])
    return entry, history.problems(entry)


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
    if is_compact(payload):  # how this version writes counts (session.links.compact); older links do not
        payload = expanded(payload)
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
    if not isinstance(payload, dict) or not isinstance(payload.get("p"), dict) or not set(payload) <= {"p", "n"}:
        raise SessionError("it does not hold a Tableside roll.")
    partial = payload["p"]
    log = partial.get("log")
    if not isinstance(log, list) or len(log) != 1 or not isinstance(log[0], dict):
        raise SessionError("it does not hold one roll.")
    if not set(partial) <= ROLL_PARTS or any(not isinstance(item, dict) or set(item) != {"counts"}
                                             for item in mapping_values(partial.get("roster", {}))):
        raise SessionError("a roll link carries its roll and nothing else, and this one changes more.")
    entry, problems = resolved_again(dict(log[0]))
    replica = check_replica({**partial, "v": VERSION, "clock": entry.get("clock"), "log": [entry]}, max_log=1,
                            partial=True, room=CLOCK_ROOM)
    name = name_text(payload.get("n", ""), "The session's name", MAX_SESSION_NAME, allow_empty=True)
    [entry] = replica.log.values()
    if not problems:
        roll_counts(replica, entry)
    return Incoming("roll", 2, replica=replica, roll=entry, session_name=name, problems=problems)


def mapping_values(value) -> list:
    return list(value.values()) if isinstance(value, dict) else [None]


def moved_counts(tension: dict, roster: dict, entry: dict) -> tuple[dict, dict]:
    """Of a replica's Tension and roster counts, only the steps of the phone that logged `entry`,
    for what its effects changed: (Tension, {roster id: counts}), roster entries with none left out."""
    device = entry["device"]
    moved = {target for target, _ in effect_targets(entry.get("effects", []))}
    kept = {}
    for entry_id, item in roster.items():
        counts = {key: {device: steps[device]} for key, steps in item["counts"].items()
                  if ("entry", entry_id, key) in moved and device in steps}
        if counts:
            kept[entry_id] = counts
    return ({device: tension[device]} if ("tension",) in moved and device in tension else {}), kept


def roll_counts(replica: Replica, entry: dict):
    """A roll's counts: only those `moved_counts` keeps. Any other count is left out (links written
    before rolls carried only these brought the phone's other counts too): merging a roll changes
    what the roll changed, nothing else. (A count is that phone's running total, so it is not
    compared with the roll's own steps.)"""
    replica.tension, counts = moved_counts(replica.tension, replica.roster, entry)
    for entry_id in list(replica.roster):
        if entry_id in counts:
            replica.roster[entry_id]["counts"] = counts[entry_id]
        else:
            del replica.roster[entry_id]


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
