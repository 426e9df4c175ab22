"""The state the app opens with: the session that was open on this device, or a new one.

Kept apart from the session screen's code, which start-up does not need.
"""
from __future__ import annotations

import session as sessions

from ui.core.state import AppState


def starting_state(library, base_url: str = "") -> AppState:
    """The app's state at start: the session that was open, or a new one (saved at its first change)."""
    session = library.load()
    if session is None:
        session = library.pristine = sessions.new_session()
    state = AppState(session=session, library=library, base_url=base_url)
    repaired = f"Repaired saved text: {'; '.join(library.repairs)}." if library.repairs else ""
    if library.unreadable:
        count = len(library.unreadable)
        state.fail(f"{'Some saved data' if count > 1 else 'Saved data'} could not be read ({count} "
                   f"{'items' if count > 1 else 'item'}). Nothing was deleted: download "
                   f"{'copies' if count > 1 else 'a copy'} from the Session screen. {repaired}".strip())
    elif repaired:
        state.say(repaired)
    elif library.in_memory:
        state.fail("This browser is not letting Tableside save anything: sessions last until this page closes. "
                   "Export them from the Log screen to keep them.")
    return state
