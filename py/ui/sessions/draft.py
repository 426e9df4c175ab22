"""What the Session screen and session links share: the fields a link carries, and a
session's setup in a few words."""
from __future__ import annotations

from session import SYSTEMS

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

# The <video> the camera shows in while scanning a code (ui.sessions.view, ui.sessions.scan).
VIDEO = "scan-video"
