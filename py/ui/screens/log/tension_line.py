"""Tension over the session as a small line on the Log, read from the log itself: the Tension each
Tension Engine conflict was rolled with and the Tension it left (its record's `tension_after`),
oldest first. A change by hand between two conflicts shows as the step from one's level after
to the next one's level before. It is drawn over the entries in memory (the newest pages; "Show
older entries" reads more and the line reaches further back), so it needs nothing kept beside
the log, nothing to merge, and every phone draws the same line from the same entries.
"""
from __future__ import annotations

import rules

from ui.core.state import AppState
from ui.kit.charts import level_line
from ui.kit.html import Markup, h

HIGHEST = rules.LIMITS["tension"]


def level(value) -> int | None:
    """A Tension a record holds, or None (records are read, never judged: a foreign one may hold anything)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= HIGHEST else None


def levels(log: list[dict]) -> tuple[list[int], int]:
    """(the levels in order, how many conflicts they come from), oldest first."""
    values, conflicts = [], 0
    for entry in reversed(log):
        record = entry.get("record")
        if entry.get("kind") == "set-aside" or not isinstance(record, dict) or record.get("system") != "tension":
            continue
        result = record.get("result")
        after = level(result.get("tension_after")) if isinstance(result, dict) else None
        if after is None:
            continue
        before = level(record.get("tension"))
        if before is not None and (not values or values[-1] != before):
            values.append(before)
        values.append(after)
        conflicts += 1
    return values, conflicts


def picture(state: AppState) -> Markup:
    values, conflicts = levels(state.session["log"])
    if not conflicts:
        return Markup("")
    which = "the session's" if state.replica.complete else "the newest"
    many = "conflict" if conflicts == 1 else "conflicts"
    label = f"Tension over {which} {conflicts:,} Tension Engine {many}"
    return h("div", h("p", f"{label}, oldest first", class_="chart-caption", aria_hidden="true"),
             level_line(values, label), class_="log-tension")
