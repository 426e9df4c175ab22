"""The sessions on this device as the screens see them: the list, which one is open,
names that don't collide, and when the open one was last backed up. Used by the
Session and Log screens and by links."""
from __future__ import annotations

import session as sessions
from session.backups import only_here

from ui.core.clock import short_text
from ui.core.state import AppState

# After this many conflicts that no exported file holds, the Log and Session screens
# offer a backup: a long evening, not every roll.
OFFER_BACKUP_AFTER = 5


def listing(state: AppState) -> list[dict]:
    """The sessions on this device, most recently saved first; the open one first while it
    has never been saved (a new session is saved at its first change)."""
    library = state.library
    entries = library.listing() if library is not None else []
    if all(entry["id"] != state.session["id"] for entry in entries):
        session = state.session
        entries = [{"id": session["id"], "name": session["name"], "system": session["system"],
                    "roster": len(session["roster"]), "log": len(session["log"]), "saved": ""}, *entries]
    return entries


def switch_to(state: AppState, session: dict):
    """Make `session` the open one; what was on the table belonged to the other."""
    state.session = session
    state.drafts = {}
    state.editing = None
    state.view = {}


def unused_name(state: AppState, name: str, suffix: str) -> str:
    """`name`, or `name (suffix)` if another session on this device already has it."""
    if name not in {entry["name"] for entry in listing(state)}:
        return name
    return f"{name[:sessions.model.MAX_SESSION_NAME - len(suffix) - 1]} {suffix}"


def backup_due(state: AppState) -> bool:
    return only_here(state.backups, state.session) >= OFFER_BACKUP_AFTER


def backup_words(state: AppState) -> list[str]:
    """When the open session was last exported to a file and shared as a link, and how much
    of its log is only on this device."""
    backup = state.backups.get(state.session["id"], {})
    count = only_here(state.backups, state.session)
    conflicts = f"{count} logged conflict{'s' * (count != 1)}"
    exported = short_text(backup.get("file", ""))
    if exported:
        words = [f"Last exported to a file on {exported}."
                 + (f" {conflicts} since then {'are' if count != 1 else 'is'} only on this phone." if count else "")]
    else:
        words = ["Not exported to a file from this phone yet."
                 + (f" Its {conflicts} {'are' if count != 1 else 'is'} only here." if count else "")]
    linked = short_text(backup.get("link", ""))
    if linked:
        words.append(f"Last shared as a link on {linked} (a link carries the roster and settings, not the log).")
    return words
