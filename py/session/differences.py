"""What opening a link would change in a session, field by field, before it is applied.

`differences(before, after)` compares two sessions (this phone's, and the one merging
a link would give) and lists every change merging makes: per session field, per roster
entry and field, who joins or leaves the roster and its order, and what the log gains or
loses (entries added, entries undone: what an undo changed shows as the counts it moved).
`merge_differences` adds what a session dict does not hold: the steps of sealed-card
exchanges. The preview is the change: a property test (tests/unit/session/
test_session_history.py) applies links and compares. The screens put it into words;
nothing here decides whether to apply it.
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
    kept_before = [entry_id for entry_id in old if entry_id in new]
    kept_after = [entry_id for entry_id in new if entry_id in old]
    if kept_before != kept_after:  # the roster is in the order entries were added: a link may say earlier
        found.append(Difference("session", "order", kept_before, kept_after))
    if log is None:
        old_log = {entry["id"] for entry in before["log"]}
        new_log = {entry["id"] for entry in after["log"]}
        log = (len(old_log - new_log), len(new_log - old_log))
    if any(log):
        found.append(Difference("session", "log", *log))
    return found


def sealed_steps(replica) -> int:
    """How many sealed-card messages a replica (session.replica) holds."""
    return sum(len(messages) for messages in replica.sealed.values())


def merge_differences(mine, merged, log: tuple[int, int] | None = None) -> list[Difference]:
    """Every change merging made of replica `mine` into replica `merged` (`log` as for `differences`):
    the sessions' differences and the sealed-card steps gained."""
    found = differences(mine.session(), merged.session(), log)
    steps = sealed_steps(merged) - sealed_steps(mine)
    if steps:
        found.append(Difference("session", "sealed", sealed_steps(mine), sealed_steps(merged)))
    return found
