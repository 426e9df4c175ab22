"""The state the app opens with: the session that was open on this device, or a new one.

Kept apart from the session screen's code, which start-up does not need.
"""
from __future__ import annotations

from session import new_session
from session.replica import Replica

from ui.core.state import AppState


def starting_state(library, base_url: str = "") -> AppState:
    """The app's state at start: the session that was open, or a new one (saved at its first change).
    The open session's log is read page by page after this (ui.core.library.read_older)."""
    replica = library.load()
    if replica is None:
        replica = Replica.from_session(new_session())
        library.keep_pristine(replica)
    state = AppState(session=replica.session(), replica=replica, device=library.device(), library=library,
                     base_url=base_url, backups=library.load_backups())
    repaired = f"Repaired saved text: {'; '.join(library.repairs)}." if library.repairs else ""
    repaired = " ".join([*library.salvaged, repaired]).strip()  # sessions opened with what could be read
    unreadable = [item for item in library.unreadable if not item.set_aside]
    if unreadable:
        count = len(unreadable)
        state.fail(f"{'Some saved data' if count > 1 else 'Saved data'} could not be read ({count} "
                   f"{'items' if count > 1 else 'item'}). Nothing was deleted: download "
                   f"{'copies' if count > 1 else 'a copy'} from the Session screen. {repaired}".strip())
    elif library.salvaged:
        state.fail(repaired)
    elif repaired:
        state.say(repaired)
    elif library.in_memory:
        state.fail("This browser is not letting Tableside save anything: sessions last until this page closes. "
                   "Export them from the Log screen to keep them.")
    elif not getattr(library.log, "durable", True):
        state.fail(NO_LOG_STORE)
    return state


NO_LOG_STORE = ("This browser is not letting Tableside keep the log (no IndexedDB here, as in some private "
                "windows): conflicts logged now last until this page closes; Tension, AP and the roster are "
                "saved. Export the session from the Log screen to keep its log.")
