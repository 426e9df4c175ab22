"""Session files: what Export writes (everything, the whole log included) and what Import accepts.

An export (file version 2) is one JSON object: {"format": "tableside-session", "v": 2,
"exported": time, "replica": the session as a replica (session.replica, to_dict() with every
log entry, undone ones too)}, so a file carries what merging needs. Version 1 files
({"v": 1, "session": a whole session, schema version 1}) and bare session objects (e.g. a
downloaded copy of unreadable data once repaired) still import. Import checks a file like any
untrusted input and re-checks every logged conflict with `rules.verify`. Pure; errors are
ImportFileError with a sentence for players.
"""
from __future__ import annotations

import json
import re
import unicodedata

from rules import show

from .. import history, untrusted
from ..errors import SessionError
from ..model import MAX_LOG, SCHEMA_VERSION, check_session
from ..replica import Replica, entry_key
from ..replica_check import CLOCK_ROOM, check_replica

FORMAT = "tableside-session"
VERSION = 2
VERSIONS = (1, 2)
MAX_FILE = 80_000_000  # characters: a campaign's log (MAX_LOG entries of about a kilobyte) and room to spare
UNREADABLE = {
    untrusted.NOT_JSON: "This file is not a Tableside session file: it is not readable JSON.",
    untrusted.TOO_DEEP: "This file is not a Tableside session file: it nests far deeper than any session.",
    untrusted.BROKEN_TEXT: "This file's text holds a broken character (half of one, not valid Unicode), "
                           "so it was not imported.",
}


class ImportFileError(SessionError):
    """A file that cannot be imported, and why."""


def export_text(replica: Replica, at: str = "") -> str:
    """The file of a session: `replica` holding its whole log (see Library.everything)."""
    return json.dumps({"format": FORMAT, "v": VERSION, "exported": at, "replica": replica.to_dict()},
                      ensure_ascii=False, indent=1)


def file_name(session: dict, at: str = "") -> str:
    """tableside-friday-at-zoes-2025-06-01.json for "Friday at Zoë's": accents folded (NFKD), other
    letters kept (a Greek or Cyrillic name stays readable), apostrophes dropped, the rest a dash."""
    folded = "".join(character for character in unicodedata.normalize("NFKD", session["name"].lower())
                     if not unicodedata.combining(character) and character not in "'’")
    words = "".join(character if character.isalnum() else "-" for character in folded)
    words = re.sub(r"-+", "-", words).strip("-")[:40].strip("-") or "session"
    day = at[:10] if re.fullmatch(r"\d{4}-\d\d-\d\d", at[:10]) else ""
    return f"tableside-{words}{'-' + day if day else ''}.json"


def read_export(text) -> Replica:
    """A clean session (its whole log included) from a file's text, or ImportFileError saying what is wrong."""
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
        if data.get("v") not in VERSIONS:
            raise ImportFileError(f"This file was made by another version of Tableside "
                                  f"(file version {show(data.get('v'))}); update the app and try again.")
        if data["v"] == 2:
            return checked(read_replica(data.get("replica")))
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
    return checked(Replica.from_session(session))


def read_replica(data) -> Replica:
    if not isinstance(data, dict):
        raise ImportFileError("This JSON file is not a Tableside session file.")
    try:
        return check_replica(data, max_log=MAX_LOG, room=CLOCK_ROOM)  # room for this phone's edits after
    except SessionError as error:
        raise ImportFileError(f"This file can't be imported. {error}") from None


def checked(replica: Replica) -> Replica:
    """Every logged conflict re-checked against its own dice, and what it changed against its
    record (session.history), oldest first."""
    for number, entry in enumerate(sorted(replica.log.values(), key=entry_key), start=1):
        # A roll set aside was never resolved: only its dice are checked; effects must follow from the record.
        problems = history.problems(entry)
        if problems:
            raise ImportFileError(f"This file can't be imported: logged conflict {number} does not hold "
                                  f"together. {problems[0]}")
    return replica
