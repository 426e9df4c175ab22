"""What taps do on the Log screen: undo the last result, share one roll as a link, export
the session to a file and import one as a new session.
Handlers change the AppState only; browser work (share sheet, download, reading a
file) is queued with ui.core.effects.
"""
from __future__ import annotations

import session as sessions
from session.backups import exported

from ui.core import effects
from ui.core.actions import Input, action
from ui.core.clock import now_text
from ui.core.library import listing, switch_to, unused_name
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.log.draft import PAGE
from ui.log.record import roll_url
from ui.summaries import safe_sentence


def entry_by_id(state: AppState, entry_id: str) -> dict | None:
    return next((entry for entry in state.session["log"] if entry["id"] == entry_id), None)


# --- Undo ------------------------------------------------------------------------------------------

@action("log-undo")
def ask_undo(state: AppState, event: Input):
    if state.session["log"]:
        state.view["undo"] = True


@action("log-undo-cancel")
def keep_last(state: AppState, event: Input):
    state.view.pop("undo", None)


@action("log-undo-confirmed")
def undo(state: AppState, event: Input):
    state.view.pop("undo", None)
    if not state.session["log"]:
        state.fail("There is nothing to undo.")
        return
    entry = state.session["log"][0]
    state.session = sessions.undo_last(state.session)
    for draft in state.drafts.values():  # a conflict screen showing this result as logged can log it again
        if isinstance(draft, dict) and draft.get("logged") == entry["record"]:
            draft["logged"] = None
    words = f"Undone: {safe_sentence(entry['record'])}"
    if entry["record"].get("system") == "tension":
        words += f" Tension is back to {state.session['tension']}."
    state.say(words, "success")
    state.announcement = words


# --- Roll links ------------------------------------------------------------------------------------

@action("log-share")
def share_roll(state: AppState, event: Input):
    entry = entry_by_id(state, event.text("id"))
    if entry is None or entry.get("kind") == "set-aside":
        return
    state.view["shared"] = entry["id"]
    effects.share(state, title=f"A roll at {isolate(state.session['name'])}", url=roll_url(state, entry),
                  shared="Roll link shared.", copied="Roll link copied: paste it to the other phones.",
                  manual="Couldn't copy here: select the roll link under the entry and copy it.")


# --- Export and import -----------------------------------------------------------------------------

@action("log-export")
def export(state: AppState, event: Input):
    at = now_text()
    name = sessions.file_name(state.session, at)
    effects.download(state, name=name, text=sessions.export_text(state.session, at))
    state.backups = exported(state.backups, state.session, at)
    state.say(f"Exported “{isolate(state.session['name'])}” to the file {isolate(name)}.", "success")


@action("log-import")
def choose_file(state: AppState, event: Input):
    effects.read_file(state, then="log-import-text", limit=sessions.MAX_FILE)


@action("log-import-text")
def import_text(state: AppState, event: Input):
    file_name = isolate(event.text("name", "The file")[:60])
    try:
        imported = sessions.read_export(event.value or "")
    except sessions.SessionError as error:
        state.fail(f"“{file_name}” was not imported. {error}")
        return
    taken = {entry["id"] for entry in listing(state)}
    blocked = state.library is not None and state.library.is_blocked(imported["id"])
    if imported["id"] in taken or blocked:  # an import never replaces a session: it becomes a copy
        imported["id"] = sessions.new_id()
        imported["name"] = unused_name(state, imported["name"], "(imported)")
    if state.library is not None:
        try:
            state.library.add(imported)
        except sessions.SessionError as error:
            state.fail(f"“{file_name}” was not imported. {error}")
            return
    switch_to(state, imported)
    state.say(f"Imported “{isolate(imported['name'])}” as a new session ({len(imported['roster'])} in the roster, "
              f"{len(imported['log'])} logged). Your other sessions are unchanged.", "success")


@action("log-more")
def show_more(state: AppState, event: Input):
    state.view["log_shown"] = state.view.get("log_shown", PAGE) + PAGE
