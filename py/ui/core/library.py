"""The sessions on this device as the screens see them: the list, which one is open, the
open session's replica and its log page by page, names that don't collide, and when the
open one was last backed up. The one way screens read the Library (session.on_device);
what they change in it is queued as commands (ui.core.commands), never written here.
Used after every change (`commit`, ui.core.step), by the Session and Log screens and links."""
from __future__ import annotations

from session import SessionError
from session.model import MAX_SESSION_NAME
from session.on_device.backups import only_here
from session.ownership import gm_of
from session.replica import LOG_HEAD, Replica, entry_key

from ui.core import commands
from ui.core.clock import short_text
from ui.core.people import person_of
from ui.core.role import GM, player_entry
from ui.core.state import AppState

LATEST = 20  # log entries a session link carries (session.links.v2.LATEST; its code loads only when a link is made)

# After this many conflicts that no exported file holds, the Log and Session screens
# offer a backup: a long evening, not every roll.
OFFER_BACKUP_AFTER = 5

PAGE = 20  # log entries shown at first, and added by "Show older entries"
SEARCH_PAGE = 100  # entries read at a time while looking for one character's rolls


def commit(state: AppState) -> bool:
    """After a tap: what the action changed in `state.session` becomes the replica's, stamped
    by this phone. Work is proportional to what changed (the unchanged parts of the session
    are the same objects). True when something changed."""
    if state.session is state.committed:
        return False
    if state.session["id"] != state.committed["id"]:
        raise ValueError("another session was opened without switch_to")
    state.replica.absorb(state.committed, state.session, state.device)
    state.committed = state.session
    return True


def switch_to(state: AppState, replica: Replica):
    """Make `replica`'s session the open one; what was on the table belonged to the other."""
    state.replica = replica
    state.session = state.committed = replica.session()
    state.drafts = {}
    state.editing = None
    state.view = {}
    state.role = None  # who holds this phone is kept per session, with its table in progress
    state.numbered = 0  # so is the count of the entries this phone numbered in it
    state.add_rolls = "at-once"  # and how its live table's rolls are taken
    state.showing = None
    state.shown = None  # the rule system shown too: the session's default until its table is loaded
    commands.open_table(state)  # that session's table in progress, before anything is saved


def read_session(state: AppState, session_id: str) -> Replica | None:
    """A session on this device as a replica (the open one's own); None, with the reason on
    screen, when it can't be read."""
    if session_id == state.session["id"]:
        return state.replica
    if state.library is None:
        return None
    try:
        return state.library.read(session_id)
    except SessionError as error:
        state.fail(str(error))
        return None


def is_here(state: AppState, session_id: str) -> bool:
    """The session is open, or saved on this device."""
    return session_id == state.session["id"] or (state.library is not None and state.library.has(session_id))


def is_blocked(state: AppState, session_id: str) -> bool:
    """Unreadable data sits under this session's keys: a session with that id can't be saved here."""
    return state.library is not None and state.library.is_blocked(session_id)


def untouched(state: AppState) -> bool:
    """Nothing is saved on this device and the open session is new and unchanged."""
    library = state.library
    return library is None or (library.is_empty() and library.is_pristine(state.replica))


def keeps_nothing(state: AppState) -> bool:
    """The browser refused storage: nothing outlives the page."""
    return state.library is not None and state.library.in_memory


def keeps_log(state: AppState) -> bool:
    """The log store outlives the page (no IndexedDB: the log lasts as long as it)."""
    return state.library is None or getattr(state.library.log, "durable", True)


def unreadable(state: AppState) -> list:
    """Saved data that could not be read (session.on_device.Unreadable), kept for download."""
    return state.library.unreadable if state.library is not None else []


def stored_secret(state: AppState, conflict_id: str):
    """What this phone sealed in one exchange, as stored (unchecked JSON); None when none is."""
    return state.library.load_secret(state.session["id"], conflict_id) if state.library is not None else None


async def with_newest_log(state: AppState, session_id: str) -> Replica:
    """This phone's replica of a session, its newest log entries read (a merge needs them).
    SessionError when it can't be read."""
    if session_id == state.replica.id:
        return state.replica
    mine = state.library.read(session_id)
    await state.library.older(mine)
    return mine


async def stored_kinds(state: AppState, replica: Replica, ids: list[str]) -> dict[str, str]:
    """{id: kind} of these log entry ids that this device holds for the session."""
    return await state.library.stored_kinds(replica, ids) if state.library is not None else {}


async def stored_entries(state: AppState, replica: Replica, ids: list[str]) -> dict[str, dict]:
    """{id: entry} of these log entry ids as this device holds them for the session."""
    return await state.library.stored_entries(replica, ids) if state.library is not None else {}


async def whole(state: AppState, replica: Replica) -> tuple[Replica, int]:
    """A copy of `replica` with its whole log, and how many stored entries could not be read."""
    return await state.library.everything(replica) if state.library is not None else (replica, 0)


async def archive(state: AppState, replica: Replica, keep: int) -> int:
    """Keep only the newest `keep` log entries of this session on this device; how many went."""
    return await state.library.archive(replica, keep) if state.library is not None else 0


def with_fields(replica: Replica, device: str, **fields) -> Replica:
    """A session that is not open with some of its fields written (a rename)."""
    before = replica.session(log=False)
    replica.absorb(before, {**before, **fields}, device)
    return replica


def copy_as(replica: Replica, session_id: str, name: str, device: str) -> Replica:
    """`replica` (holding its whole log) as another session: a new id, and a name that does not
    collide, written by this phone."""
    twin = Replica(session_id, replica.clock, replica.fields, replica.tension, replica.roster, replica.log,
                   replica.undone)
    before = twin.session(log=False)
    if name != before["name"]:
        twin.absorb(before, {**before, "name": name}, device)
    return twin


def listing(state: AppState) -> list[dict]:
    """The sessions on this device, most recently saved first; the open one first while it
    has never been saved (a new session is saved at its first change)."""
    library = state.library
    entries = library.listing() if library is not None else []
    if all(entry["id"] != state.session["id"] for entry in entries):
        session = state.session
        entries = [{"id": session["id"], "name": session["name"], "system": session["system"],
                    "roster": len(session["roster"]), "log": state.replica.logged(), "saved": "",
                    "gm": gm_of(state.replica)}, *entries]
    return entries


def unused_name(state: AppState, name: str, suffix: str) -> str:
    """`name`, or `name (suffix)` if another session on this device already has it."""
    if name not in {entry["name"] for entry in listing(state)}:
        return name
    return f"{name[:MAX_SESSION_NAME - len(suffix) - 1]} {suffix}"


# --- The open session's log, page by page ----------------------------------------------------------

def logged(state: AppState) -> dict[str, int]:
    """Live entries of each kind in the whole log ("conflict", "set-aside"), loaded or not."""
    return state.replica.tally()


def numbering(state: AppState) -> dict:
    """How the Log will number the entry about to be logged: {"number", "phone"}. Each phone
    numbers the entries it logs itself, 1, 2, 3…, and the Log shows the number with the phone's
    holder ("Ash 3": the third logged on Ash's phone; "GM 12"). Given once and carried with the
    entry, it never changes when rolls arrive late from other phones, and no two phones give the
    same label. Counted from this phone's entries in memory and the count kept with its table in
    progress (ui.keeping.progress), so entries older than the page in memory still count."""
    made = [*state.session["log"][:LOG_HEAD], *state.replica.log.values()]  # this tap's are not committed yet
    mine = [entry.get("n", 0) for entry in made
            if entry.get("device", state.device) == state.device and "n" in entry]
    state.numbered = 1 + max([state.numbered, *mine])
    return {"number": state.numbered, "phone": holder_label(state)}


def holder_label(state: AppState) -> str:
    """Who holds this phone, as the Log labels its entries: "GM", a character's name, or "" (nobody said)."""
    player = player_entry(state)
    if player is not None:
        return player["name"]
    return "GM" if state.role == GM else ""


def involves(entry: dict, who) -> bool:
    """True when the person `who` (their sheets' roster ids, a set) took part in a logged entry."""
    from session.links.v2 import record_sides  # links' code: loaded when the Log is searched, not at start

    return any(side.get("id") in who for side in record_sides(entry.get("record")))


def sheets_of(state: AppState, entry_id: str) -> set[str]:
    """The roster ids of everyone's sheets that are the same person as `entry_id` (ui.core.people)."""
    person = person_of(state.session["roster"], entry_id)
    return set(person.ids) if person is not None else {entry_id}


def wanted(state: AppState) -> int:
    """How many older log entries to read from the log store now (0: none): the Log shows more
    than is in memory, a search by character has too few matches, or undo ran the page down."""
    if state.replica.complete:
        return 0
    log = state.session["log"]
    if state.screen != "log":
        return PAGE if len(log) < PAGE else 0
    shown = state.view.get("log_shown", PAGE)
    who = state.view.get("log_who")
    if who:
        sheets = sheets_of(state, who)
        found = sum(involves(entry, sheets) for entry in log)
        return SEARCH_PAGE if state.view.get("log_search") and found < shown else 0
    return PAGE if len(log) <= shown else 0


def extend(state: AppState, gained: list[dict]):
    """Older entries read into the open replica go below those on screen."""
    commit(state)
    live = sorted((entry for entry in gained if entry["id"] not in state.replica.undone), key=entry_key, reverse=True)
    if live:
        state.session = state.committed = {**state.session, "log": [*state.session["log"], *live]}


async def read_older(state: AppState, limit: int):
    """Read the next page of older entries of the open session (a background job)."""
    replica = state.replica
    gained, broken = await state.library.older(replica, limit)
    if state.replica is replica:
        extend(state, gained)
        if state.view.get("log_search"):
            state.view["log_search"] = max(0, state.view["log_search"] - max(1, len(gained)))
        if broken:
            state.fail(f"{broken} logged {'entry' if broken == 1 else 'entries'} on this device could not be read "
                       f"and {'is' if broken == 1 else 'are'} left out of the Log.")


def backup_due(state: AppState) -> bool:
    return only_here(state.backups, state.session, state.replica.logged()) >= OFFER_BACKUP_AFTER


def backup_words(state: AppState) -> list[str]:
    """When the open session was last exported to a file and shared as a link, and how much
    of its log is only on this device."""
    backup = state.backups.get(state.session["id"], {})
    count = only_here(state.backups, state.session, state.replica.logged())
    conflicts = f"{count:,} logged {'entry' if count == 1 else 'entries'}"
    exported = short_text(backup.get("file", ""))
    if exported:
        words = [f"Last exported to a file on {exported}."
                 + (f" {conflicts} since then {'are' if count != 1 else 'is'} only on this phone." if count else "")]
    else:
        words = ["Not exported to a file from this phone yet."
                 + (f" Its {conflicts} {'are' if count != 1 else 'is'} only here." if count else "")]
    linked = short_text(backup.get("link", ""))
    if linked:
        words.append(f"Last shared as a link on {linked} (a link carries the roster, the settings and the newest "
                     f"{LATEST} log entries; a file keeps the whole log).")
    return words
