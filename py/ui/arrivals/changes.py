"""What merging something from another phone changes, in a line each, for people: the join
prompt of a session link, a roll waiting to be added. Pure Python."""
from __future__ import annotations

from session import SYSTEMS
from session.differences import Difference

from ui.core.people import people
from ui.kit.html import isolate


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


FIELD_WORDS = {"name": "Name", "system": "Rule system", "players": "Players", "tension": "Tension",
               "settings": "Tension Pool settings", "tension_table": "Tension Table", "ap": "AP",
               "health": "Health", "willpower": "Willpower", "power": "Power", "attributes": "Attributes",
               "skills": "Skills", "traits": "Dread Traits", "modifiers": "Modifiers", "manners": "Manners",
               "descriptors": "Descriptors", "kind": "Kind"}


def shown_value(field: str, value) -> str | None:
    """A value as the change list shows it; None for values too big to show (a sheet's list)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    if field == "system":
        return SYSTEMS.get(value, str(value))
    return isolate(value) if isinstance(value, str) else str(value)


def change_lines(found: list[Difference], before: dict, after: dict) -> list[str]:
    """What merging a link changes, one line each, for people: a person new to the roster (or
    gone from it) is one line whatever the number of their sheets, naming the rule systems; a
    change to one sheet names its rule system when that person has sheets in several."""
    rosters = {entry["id"]: entry for entry in [*before["roster"], *after["roster"]]}
    one_system = len({entry["system"] for entry in rosters.values()}) <= 1  # no system worth naming
    lines, grouped = [], set()
    for difference in found:
        if difference.field in ("added", "removed"):
            if (difference.field, difference.who) in grouped:
                continue
            grouped.add((difference.field, difference.who))
            roster = after["roster"] if difference.field == "added" else before["roster"]
            sheets = [item.entry_id for item in found if item.field == difference.field and item.who == difference.who]
            systems = [SYSTEMS[entry["system"]] for entry in roster if entry["id"] in sheets]
            sheets_words = "" if one_system else f" ({listed(systems)} {'sheet' if len(systems) == 1 else 'sheets'})"
            lines.append(change_words(difference) + sheets_words)
            continue
        entry = rosters.get(difference.entry_id)
        several = entry is not None and len(next((person.ids for person in people(after["roster"])
                                                 if difference.entry_id in person.ids), ())) > 1
        lines.append(change_words(difference, SYSTEMS[entry["system"]] if several else ""))
    return lines


def listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def change_words(difference: Difference, sheet: str = "") -> str:
    """One line of what merging a link changes: "Ash Varga: AP 3 → 2", "Log: 2 new entries";
    `sheet` names the rule system of the sheet that changed ("Ash Varga (Anomaly): …")."""
    field = difference.field
    if field == "order":
        return "Roster: in another order"
    if field == "sealed":  # a sealed-card exchange under way (session.sealed)
        steps = difference.after - difference.before
        return f"Sealed cards: {steps} new step{'s' * (steps != 1)}"
    if field == "log":
        undone, added = difference.before, difference.after
        parts = [plural(added, "new entry", "new entries")] if added else []
        parts += [f"{plural(undone, 'entry', 'entries')} undone"] if undone else []
        return "Log: " + ", ".join(parts)
    who = "" if difference.who == "session" else f"{isolate(difference.who)}{f' ({sheet})' if sheet else ''}: "
    if field == "added":
        return f"{isolate(difference.who)}: new in the roster"
    if field == "removed":
        return f"{isolate(difference.who)}: removed from the roster"
    before, after = shown_value(field, difference.before), shown_value(field, difference.after)
    name = FIELD_WORDS.get(field, field.replace("_", " ").capitalize())
    if before is None or after is None:
        return f"{who}{name} changed"
    return f"{who}{name} {before} → {after}"
