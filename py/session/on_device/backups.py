"""When each session on this device was last backed up: exported to a file (which
keeps everything, the log too) or shared as a link (which carries the roster, the
settings and only the newest log entries).

One small key beside the sessions, never inside a session, an export or a link
(a backup is a fact about this device):

    tableside.backups   {"<session id>": {"file": time, "file_log": n, "link": time}, ...}

`file_log` is how many conflicts the log held at that export, so the screens can
say how many are only on this device. Unreadable or odd data reads as "never
backed up" and is replaced at the next backup: nothing depends on it. Pure.
"""
from __future__ import annotations

import json

from ..untrusted import BadJSON, parse

BACKUPS_KEY = "tableside.backups"
MAX_TEXT = 64_000  # a few hundred sessions; anything longer is not ours


def read_backups(raw) -> dict[str, dict]:
    """The backups from the key's raw text; {} for anything unreadable."""
    if not isinstance(raw, str) or len(raw) > MAX_TEXT:
        return {}
    try:
        data = parse(raw)  # nesting bounded before json.loads, lone surrogates refused
    except BadJSON:
        return {}
    if not isinstance(data, dict):
        return {}
    backups = {}
    for session_id, entry in data.items():
        if not isinstance(entry, dict):
            continue
        kept = {key: entry[key] for key in ("file", "link") if isinstance(entry.get(key), str)}
        count = entry.get("file_log")
        if "file" in kept and isinstance(count, int) and not isinstance(count, bool) and count >= 0:
            kept["file_log"] = count
        elif "file" in kept:
            del kept["file"]  # without its count an export says nothing about the log
        if kept:
            backups[session_id] = kept
    return backups


def backups_text(backups: dict[str, dict]) -> str:
    return json.dumps(backups, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def exported(backups: dict[str, dict], session: dict, at: str, logged: int | None = None) -> dict[str, dict]:
    """The backups after `session` was exported to a file at `at` (a new dict); `logged`: how
    many entries its whole log holds, when not all of it is in `session` (session.logbook)."""
    count = len(session["log"]) if logged is None else logged
    entry = {**backups.get(session["id"], {}), "file": at, "file_log": count}
    return {**backups, session["id"]: entry}


def linked(backups: dict[str, dict], session: dict, at: str) -> dict[str, dict]:
    """The backups after `session` was shared as a link at `at` (a new dict)."""
    return {**backups, session["id"]: {**backups.get(session["id"], {}), "link": at}}


def only_here(backups: dict[str, dict], session: dict, logged: int | None = None) -> int:
    """How many logged conflicts no exported file holds (the log keeps the newest first;
    undo can shorten it below the count at the export). `logged` as for `exported`."""
    exported_count = backups.get(session["id"], {}).get("file_log", 0)
    return max(0, (len(session["log"]) if logged is None else logged) - exported_count)
