"""Session files: what Export writes (everything, the log included) and what Import accepts.

An export is one JSON object: {"format": "tableside-session", "v": 1,
"exported": time, "session": the whole session (schema version 1)}. Import reads
such a file (or a bare session object, e.g. a downloaded copy of unreadable data
once repaired), checks it like any untrusted input, and re-checks every logged
conflict with `rules.verify`. Pure; errors are ImportFileError with a sentence
for players.
"""
from __future__ import annotations

import json
import re

import rules
from rules import show

from . import untrusted
from .errors import SessionError
from .model import SCHEMA_VERSION, check_session

FORMAT = "tableside-session"
VERSION = 1
MAX_FILE = 8_000_000  # characters; localStorage holds about 5 million in all
UNREADABLE = {
    untrusted.NOT_JSON: "This file is not a Tableside session file: it is not readable JSON.",
    untrusted.TOO_DEEP: "This file is not a Tableside session file: it nests far deeper than any session.",
    untrusted.BROKEN_TEXT: "This file's text holds a broken character (half of one, not valid Unicode), "
                           "so it was not imported.",
}


class ImportFileError(SessionError):
    """A file that cannot be imported, and why."""


def export_text(session: dict, at: str = "") -> str:
    return json.dumps({"format": FORMAT, "v": VERSION, "exported": at, "session": session},
                      ensure_ascii=False, indent=1)


def file_name(session: dict, at: str = "") -> str:
    """tableside-friday-at-kims-2025-06-01.json"""
    words = re.sub(r"[^a-z0-9]+", "-", session["name"].lower()).strip("-")[:40] or "session"
    day = at[:10] if re.fullmatch(r"\d{4}-\d\d-\d\d", at[:10]) else ""
    return f"tableside-{words}{'-' + day if day else ''}.json"


def read_export(text) -> dict:
    """A clean session (log included) from a file's text, or ImportFileError saying what is wrong."""
    if not isinstance(text, str):
        raise ImportFileError("This file is not text.")
    if len(text) > MAX_FILE:
        raise ImportFileError("This file is far larger than any Tableside session.")
    try:
        data = untrusted.parse(text.lstrip("\ufeff"))
    except untrusted.BadJSON as error:
        raise ImportFileError(UNREADABLE[error.reason]) from None
    if isinstance(data, dict) and "format" in data:
        if data.get("format") != FORMAT:
            raise ImportFileError("This JSON file is not a Tableside session file.")
        if data.get("v") != VERSION:
            raise ImportFileError(f"This file was made by another version of Tableside "
                                  f"(file version {show(data.get('v'))}); update the app and try again.")
        data = data.get("session")
    if not isinstance(data, dict) or "roster" not in data or "system" not in data:
        raise ImportFileError("This JSON file is not a Tableside session file.")
    if data.get("v") != SCHEMA_VERSION:
        raise ImportFileError(f"This session was saved by another version of Tableside "
                              f"(version {show(data.get('v'))}); update the app and try again.")
    try:
        session = check_session(data)
    except SessionError as error:
        raise ImportFileError(f"This file can't be imported. {error}") from None
    for number, entry in enumerate(session["log"], start=1):
        # A roll set aside was never resolved: only its dice can be checked.
        check = rules.verify_dice if entry["kind"] == "set-aside" else rules.verify
        problems = check(entry["record"])
        if problems:
            raise ImportFileError(f"This file can't be imported: logged conflict {number} does not hold "
                                  f"together. {problems[0]}")
    return session
