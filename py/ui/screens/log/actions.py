"""What taps do on the Log screen: undo the last result, share one roll as a link, look for one
character's rolls, show older entries, export the session to a file, import one as a new
session, and archive old entries.
Handlers change the AppState only; browser work (share sheet, download, reading a file)
and work on the log store (export and archive read every entry) are queued with
ui.core.commands.
"""
from __future__ import annotations

from session import undo_last
from session.on_device.backups import exported as exported_to_file
from session.replica import Replica

from ui.arrivals import files
from ui.core import commands
from ui.core.actions import Input, action
from ui.core.clock import now_text
from ui.core.library import PAGE, commit, whole
from ui.core.library import archive as archive_log
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.screens.log.limits import ARCHIVE_KEEP, KEEP, SEARCH
from ui.systems.handoff import roll_url
from ui.systems.summaries import entry_sentence


def entry_by_id(state: AppState, entry_id: str) -> dict | None:
    return state.replica.log.get(entry_id) if entry_id not in state.replica.undone else None


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
    state.session = undo_last(state.session)
    for draft in state.drafts.values():  # a conflict screen showing this result as logged can log it again
        if isinstance(draft, dict) and draft.get("logged") == entry["record"]:
            draft["logged"] = None
    words = f"Undone: {entry_sentence(entry)}"
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
    commands.share(state, title=f"A roll at {isolate(state.session['name'])}", url=roll_url(state, entry, named=True),
                  shared="Roll link shared.", copied="Roll link copied: paste it to the other phones.",
                  manual="Couldn't copy here: select the roll link under the entry and copy it.")


# --- Paging and looking for one character -------------------------------------------------------------

@action("log-more")
def show_more(state: AppState, event: Input):
    state.view["log_shown"] = state.view.get("log_shown", PAGE) + PAGE
    if state.view.get("log_who"):
        state.view["log_search"] = SEARCH


@action("log-who")
def choose_who(state: AppState, event: Input):
    who = event.value or ""
    state.view.pop("log_shown", None)
    if who and state.entry(who) is not None:
        state.view.update(log_who=who, log_search=SEARCH)
    else:
        state.view.pop("log_who", None)
        state.view.pop("log_search", None)


@action("log-search-further")
def search_further(state: AppState, event: Input):
    if state.view.get("log_who"):
        state.view["log_search"] = SEARCH


# --- Export and import -----------------------------------------------------------------------------

async def export_job(state: AppState):
    """Every entry of the open session, from the log store, into one file."""
    await exported(state, state.replica)


async def exported(state: AppState, replica: Replica) -> bool:
    complete, broken = await whole(state, replica)
    at = now_text()
    from session.links.files import export_text, file_name  # export files: loaded when one is made

    name = file_name(state.session, at)
    commands.download(state, name=name, text=export_text(complete, at))
    state.backups = exported_to_file(state.backups, state.session, at, complete.logged())
    count = len(complete.log)
    left = f" {broken} stored {'entry' if broken == 1 else 'entries'} could not be read and {'is' if broken == 1 else 'are'} " \
           "not in it." if broken else ""
    state.say(f"Exported “{isolate(state.session['name'])}” ({count:,} log {'entry' if count == 1 else 'entries'}) "
              f"to the file {isolate(name)}.{left}", "success" if not broken else "info")
    return not broken


@action("log-export")
def export(state: AppState, event: Input):
    state.say("Exporting: reading every entry of the log…")
    commands.job(state, export_job, "The export did not work in this browser. Nothing was changed.")


@action("log-import")
def choose_file(state: AppState, event: Input):
    from session.links.files import MAX_FILE

    commands.read_file(state, then="log-import-text", limit=MAX_FILE)


@action("log-import-text")
def import_text(state: AppState, event: Input):
    files.open_file(state, event.text("name", "The file"), event.value or "")


# --- Archiving: export, then keep only the newest entries on this phone --------------------------------

@action("log-archive")
def ask_archive(state: AppState, event: Input):
    state.view["archive"] = True
    state.view.setdefault("archive_keep", ARCHIVE_KEEP)


@action("log-archive-keep")
def choose_keep(state: AppState, event: Input):
    keep = event.number(default=ARCHIVE_KEEP)
    state.view["archive_keep"] = keep if keep in KEEP else ARCHIVE_KEEP


@action("log-archive-cancel")
def keep_everything(state: AppState, event: Input):
    state.view.pop("archive", None)


async def archive_job(state: AppState):
    replica = state.replica
    keep = state.view.pop("archive_keep", ARCHIVE_KEEP)
    state.view.pop("archive", None)
    if not await exported(state, replica):
        state.fail("Not archived: some stored entries could not be read, so the file would not hold them all. "
                   "The file has the rest; nothing was removed.")
        return
    commit(state)
    removed = await archive_log(state, replica, keep)
    if state.replica is replica:  # the log on screen starts again from the newest page
        state.session = state.committed = replica.session()
        state.view.pop("log_shown", None)
    state.say(f"Archived: the file holds every entry; {removed:,} older "
              f"{'entry was' if removed == 1 else 'entries were'} removed from this phone, the newest "
              f"{keep:,} stay. Tension, AP and the roster are unchanged.", "success")


@action("log-archive-confirmed")
def archive(state: AppState, event: Input):
    state.say("Archiving: exporting every entry first…")
    commands.job(state, archive_job, "Archiving did not work in this browser. Nothing was removed.")
