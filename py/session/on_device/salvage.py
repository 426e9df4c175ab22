"""Repair, not a new session: a head that fails its check at start opens with what can be read.

Data saved by an older version, or by a bug, can fail session.replica_check as a whole while most
of it is fine. `salvage` keeps it part by part: the session's fields, Tension's counts per phone,
each roster entry, each undo mark, each conflict's sealed cards, in that order, each kept only if
the session with it still passes the same check the next start runs (so nothing kept can fail
later); what fails is set aside, the replica's clock is worked out again from the stamps kept, and
a damaged count of logged conflicts is counted again from the log store. The head's text as it was
saved is kept by the caller (session.on_device.heads) for download. Pure: no store here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.words import plural

from ..errors import SessionError
from ..model import new_session
from ..replica import VERSION, Replica
from ..replica_check import MAX_CLOCK, check_replica, counts, roster_entry, sealed_messages, undo_mark

FIELD_WORDS = {"name": "name", "system": "rule system", "players": "number of players", "settings": "settings",
               "tension_table": "Tension Table"}
REPAIRED_NAME = "Repaired session"


@dataclass
class Salvaged:
    """A head repaired part by part: the replica of what could be read, and what was set aside."""
    replica: Replica
    fields: list[str] = field(default_factory=list)  # session fields set aside (defaults in their place)
    aside: dict[str, int] = field(default_factory=dict)  # part -> items set aside: tension, roster, undone, sealed
    recount: bool = False  # its count of logged conflicts was damaged: counted again from the log store

    def words(self) -> list[tuple[str, bool]]:
        """What was set aside, one phrase a part, and whether it is more than one thing."""
        found = []
        if self.fields:
            found.append(("its " + " and ".join(FIELD_WORDS.get(name, name) for name in self.fields),
                          len(self.fields) > 1 or self.fields == ["settings"]))
        for part, one, many in (("tension", "Tension's count from 1 phone", "Tension's counts from {} phones"),
                                ("roster", "1 roster entry", "{} roster entries"),
                                ("undone", "1 undo mark", "{} undo marks"),
                                ("sealed", "the sealed cards of 1 conflict", "the sealed cards of {} conflicts")):
            count = self.aside.get(part, 0)
            if count:
                found.append((plural(count, one, many).format(count), count > 1 or part == "sealed"))
        return found

    def sentence(self, name: str) -> str:
        """What the player is told at start (`name` already isolated)."""
        parts = self.words()
        counted = " Its count of logged conflicts was counted again from the log." if self.recount else ""
        if not parts:
            return f"Part of “{name}” could not be read and was worked out again.{counted}"
        phrases = [phrase for phrase, _ in parts]
        said = ", ".join(phrases[:-1]) + (" and " if len(phrases) > 1 else "") + phrases[-1]
        was = "were" if len(parts) > 1 or parts[0][1] else "was"
        return (f"Part of “{name}” could not be read: {said} {was} set aside (kept as it was saved: download a "
                f"copy from the Session screen).{counted}")


def passes(data: dict) -> bool:
    try:
        check_replica(data)
    except Exception:  # whatever the check trips on, this part is not kept
        return False
    return True


def shaped(check, key, item) -> bool:
    """An item of a part passes its own shape check (cheap: tried before the whole session is checked)."""
    try:
        check(key, item)
    except Exception:
        return False
    return True


def highest_stamp(data: dict) -> int:
    """The highest clock among the stamps in the stored data that look like stamps (the replica's
    clock must not be below any of them)."""
    found = [0]

    def note(value):
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_CLOCK:
            found.append(value)

    def stamps(holder, width):
        for item in holder.values() if isinstance(holder, dict) else []:
            if isinstance(item, list) and len(item) == width:
                note(item[-2])

    stamps(data.get("fields"), 3)
    for entry in data.get("roster").values() if isinstance(data.get("roster"), dict) else []:
        if isinstance(entry, dict):
            stamps({"added": entry.get("added"), "removed": entry.get("removed")}, 2)
            stamps(entry.get("fields"), 3)
    for mark in data.get("undone").values() if isinstance(data.get("undone"), dict) else []:
        for clock in (mark.get("by") or {}).values() if isinstance(mark, dict) and isinstance(mark.get("by"), dict) \
                else []:
            note(clock)
    return max(found)


PART_CHECKS = {
    "tension": lambda key, item: counts({key: item}),
    "roster": lambda key, item: roster_entry(item),
    "undone": lambda key, item: undo_mark(item),
    "sealed": lambda key, item: sealed_messages(key, item),
}


def salvage(data, session_id: str) -> Salvaged:
    """What can be read of a stored head that fails check_replica, as a replica that passes it;
    SessionError when nothing can be (not a head of this session)."""
    if not isinstance(data, dict) or data.get("id") != session_id or "log" in data:
        raise SessionError("It is not in the form Tableside saves a session in.")
    clock = data.get("clock")
    clock = clock if isinstance(clock, int) and not isinstance(clock, bool) and 0 <= clock <= MAX_CLOCK else 0
    base = Replica.from_session({**new_session(REPAIRED_NAME), "id": session_id}).to_dict(log=False)
    kept = {"v": VERSION, "id": session_id, "clock": max(clock, highest_stamp(data)), "fields": base["fields"],
            "tension": {}, "roster": {}, "undone": {}, "sealed": {}}
    if not passes(kept):
        raise SessionError("It is not in the form Tableside saves a session in.")
    found = Salvaged(replica=None)
    stored = data.get("fields") if isinstance(data.get("fields"), dict) else {}
    wanted = {key: stored[key] for key in FIELD_WORDS if key in stored}
    if not passes({**kept, "fields": {**kept["fields"], **wanted}}):
        for key, item in wanted.items():
            if passes({**kept, "fields": {**kept["fields"], key: item}}):
                kept["fields"] = {**kept["fields"], key: item}
            else:
                found.fields.append(key)
        wanted = {}
    kept["fields"] = {**kept["fields"], **wanted}
    found.fields += [key for key in FIELD_WORDS if key not in stored]
    for part, check in PART_CHECKS.items():
        kept[part], found.aside[part] = keep_part(kept, part, data.get(part), check)
    found.replica = check_replica(kept)
    return found


def keep_part(kept: dict, part: str, items, check) -> tuple[dict, int]:
    """The items of one part that can be kept beside what is kept already, and how many were set aside:
    those that fail their own shape first, then those the session fails with (halves tried whole, so a
    few bad items among hundreds cost a few dozen checks, not hundreds)."""
    if not isinstance(items, dict):
        return {}, 0 if items is None else 1
    fitting = [(key, item) for key, item in items.items() if shaped(check, key, item)]
    chosen = fit(kept, part, {}, fitting)
    return chosen, len(items) - len(chosen)


def fit(kept: dict, part: str, chosen: dict, items: list[tuple]) -> dict:
    """`chosen` with as many of `items`, in order, as the session passes its check with."""
    if not items:
        return chosen
    trial = {**chosen, **dict(items)}
    if passes({**kept, part: trial}):
        return trial
    if len(items) == 1:
        return chosen
    half = len(items) // 2
    return fit(kept, part, fit(kept, part, chosen, items[:half]), items[half:])
