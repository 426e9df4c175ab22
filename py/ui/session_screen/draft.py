"""What the Session screen and session links share: the fields a link carries, and a
session's setup in a few words."""
from __future__ import annotations

from session import SYSTEMS, share_url
from session.differences import Difference

from ui.kit.html import isolate

# What a session link carries and joining compares: everything but the id and the log.
SETUP_FIELDS = ("name", "system", "players", "tension", "settings", "tension_table", "roster")


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def setup_words(session: dict) -> str:
    characters = sum(entry["kind"] == "character" for entry in session["roster"])
    adversaries = len(session["roster"]) - characters
    words = [SYSTEMS[session["system"]], plural(characters, "character")]
    if adversaries:
        words.append(plural(adversaries, "adversary", "adversaries"))
    words.append(f"Tension {session['tension']}")
    return " · ".join(words)


def session_url(state) -> str:
    """The link that carries this session (and its newest log entries) to other phones, where it
    merges (session.link_v2: version 2)."""
    from session.link_v2 import session_link  # links' code: loaded when a session is shared

    return share_url(state.base_url, session_link(state.replica))


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


def change_words(difference: Difference) -> str:
    """One line of what merging a link changes: "Ash Varga: AP 3 → 2", "Log: 2 new entries"."""
    field = difference.field
    if field == "log":
        undone, added = difference.before, difference.after
        parts = [plural(added, "new entry", "new entries")] if added else []
        parts += [f"{plural(undone, 'entry', 'entries')} undone"] if undone else []
        return "Log: " + ", ".join(parts)
    who = "" if difference.who == "session" else f"{isolate(difference.who)}: "
    if field == "added":
        return f"{isolate(difference.who)}: new in the roster"
    if field == "removed":
        return f"{isolate(difference.who)}: removed from the roster"
    before, after = shown_value(field, difference.before), shown_value(field, difference.after)
    name = FIELD_WORDS.get(field, field.replace("_", " ").capitalize())
    if before is None or after is None:
        return f"{who}{name} changed"
    return f"{who}{name} {before} → {after}"


# The <video> the camera shows in while scanning a code (ui.session_screen.view, ui.session_screen.scan).
VIDEO = "scan-video"
