"""What opening a link would change in a session, field by field, before it is applied.

`differences(before, after)` compares two sessions (this phone's, and the one merging
a link would give) and lists every change a player would want to see: per session
field, per roster entry and field, and what the log gains or loses. The screens put
it into words; nothing here decides whether to apply it.
"""
from __future__ import annotations

from dataclasses import dataclass

SESSION_FIELDS = ("name", "system", "players", "tension", "settings", "tension_table")


@dataclass(frozen=True)
class Difference:
    who: str  # "session", or a roster entry's name
    field: str  # a session or sheet field; "added" / "removed" for a roster entry; "log" for the log
    before: object
    after: object
    entry_id: str | None = None


def differences(before: dict, after: dict, log: tuple[int, int] | None = None) -> list[Difference]:
    """`log`: (entries undone, entries added) when the log is not wholly in memory (merging
    into a phone's replica tells them: session.logbook.merge_in); else the logs are compared."""
    found = [Difference("session", key, before[key], after[key]) for key in SESSION_FIELDS
             if before[key] != after[key]]
    old = {entry["id"]: entry for entry in before["roster"]}
    new = {entry["id"]: entry for entry in after["roster"]}
    for entry_id, entry in new.items():
        if entry_id not in old:
            found.append(Difference(entry["name"], "added", None, entry, entry_id))
            continue
        mine = old[entry_id]
        for key in sorted(entry.keys() | mine.keys()):
            if key != "id" and mine.get(key) != entry.get(key):
                found.append(Difference(mine["name"], key, mine.get(key), entry.get(key), entry_id))
    found += [Difference(entry["name"], "removed", entry, None, entry_id)
              for entry_id, entry in old.items() if entry_id not in new]
    if log is None:
        old_log = {entry["id"] for entry in before["log"]}
        new_log = {entry["id"] for entry in after["log"]}
        log = (len(old_log - new_log), len(new_log - old_log))
    if any(log):
        found.append(Difference("session", "log", *log))
    return found
