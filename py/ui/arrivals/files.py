"""A session exported to a file (on another phone, or this one) and imported here: read and
checked (session.links.files), then opened as a new session. One with the id of a session
already here, or of data that could not be read, comes in as a copy: an import never replaces
anything. Pure Python."""
from __future__ import annotations

from session import SessionError, new_id

from ui.core.library import copy_as, is_blocked, listing, switch_to, unused_name
from ui.core.state import AppState
from ui.kit.html import isolate


def open_file(state: AppState, name: str, text: str):
    """The text of the file `name`, imported; a file that is not a Tableside export only gets a message."""
    from session.links.files import read_export  # export files: loaded when one is imported

    shown_name = isolate(name[:60])
    try:
        imported = read_export(text)
    except SessionError as error:
        state.fail(f"“{shown_name}” was not imported. {error}")
        return
    taken = {entry["id"] for entry in listing(state)}
    session_name = imported.fields["name"][0]
    if imported.id in taken or is_blocked(state, imported.id):  # an import never replaces a session: a copy
        imported = copy_as(imported, new_id(), unused_name(state, session_name, "(imported)"), state.device)
    switch_to(state, imported)  # saved as the open session, like any change
    count = imported.logged()
    state.say(f"Imported “{isolate(state.session['name'])}” as a new session ({len(state.session['roster'])} in the "
              f"roster, {count:,} logged). Your other sessions are unchanged.", "success")
