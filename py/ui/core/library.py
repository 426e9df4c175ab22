"""The sessions on this device as the screens see them: the list, which one is open,
and names that don't collide. Used by the Session and Log screens and by links."""
from __future__ import annotations

import session as sessions

from ui.core.state import AppState


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
