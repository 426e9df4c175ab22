"""Sessions on this device and links from other phones: what taps on the Session screen
do (open, rename, duplicate, delete, share, settings, unreadable data), how the app
starts from what is saved, and what opening a session or roll link does.

Handlers change the AppState (and the session Library, which saves through the
store it was given); browser work is queued in state.effects for ui/share.py.
Joining never overwrites silently: a link whose session id is already here
offers to update that session or open it as it is; the same link twice opens
the same session, never a copy.
"""
from __future__ import annotations

import copy

import rules
import session as sessions

from ui import share
from ui.actions import Input, action
from ui.log_view import safe_sentence
from ui.session_view import SETUP_FIELDS, listing
from ui.state import AppState

MAX_PLAYERS = 20
SETTINGS = ("ones_feed_tension", "tension_explodes")


# --- Start -----------------------------------------------------------------------------------------

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


def roster_words(session: dict) -> str:
    characters = sum(entry["kind"] == "character" for entry in session["roster"])
    adversaries = len(session["roster"]) - characters
    parts = [f"{characters} character{'s' * (characters != 1)}"]
    if adversaries:
        parts.append(f"{adversaries} adversar{'ies' if adversaries != 1 else 'y'}")
    return " and ".join(parts)


# --- Opening links ---------------------------------------------------------------------------------

def open_link(state: AppState, fragment: str):
    """A session or roll link from the address bar. A bad link only gets a message:
    the open session and everything stored stay as they were."""
    try:
        kind, value = sessions.decode(fragment)
    except sessions.LinkError as error:
        state.fail(str(error))
        return
    if kind == "roll":
        show_roll(state, value)
    else:
        offer_join(state, value)


def same_setup(first: dict, second: dict) -> bool:
    return all(first.get(key) == second.get(key) for key in SETUP_FIELDS)


def stored(state: AppState, session_id: str) -> dict | None:
    """The session with this id on this device, if any (None if it can't be read)."""
    if state.session["id"] == session_id:
        return state.session
    if state.library is None or not state.library.has(session_id):
        return None
    try:
        return state.library.read(session_id)
    except sessions.SessionError:
        return None


def offer_join(state: AppState, incoming: dict):
    mine = stored(state, incoming["id"])
    state.message = None
    if mine is not None and same_setup(mine, incoming):
        switch_to(state, mine)
        state.say(f"You already have “{mine['name']}”, exactly as in the link: it is open.", "success")
        return
    untouched = state.library is None or (state.library.is_empty() and state.session is state.library.pristine)
    if mine is None and untouched:
        join(state, incoming)  # nothing on this phone yet: nothing to ask about
        return
    state.pending = {"kind": "join", "session": incoming, "mine": mine}
    state.screen = "session"
    state.announcement = f"A link to the session “{incoming['name']}”: join it?"


def join(state: AppState, incoming: dict):
    state.pending = None
    if state.library is not None and state.library.is_blocked(incoming["id"]):
        incoming = {**incoming, "id": sessions.new_id()}  # never over data that could not be read
    switch_to(state, incoming)
    state.screen = "roster"
    state.say(f"Joined “{incoming['name']}”: {roster_words(incoming)}, Tension {incoming['tension']}.", "success")


def pending_join(state: AppState) -> dict | None:
    pending = state.pending
    return pending if pending is not None and pending["kind"] == "join" else None


@action("join-new")
def join_new(state: AppState, event: Input):
    pending = pending_join(state)
    if pending is None:
        return
    if pending["mine"] is None:  # a session already here is updated or opened, never copied
        join(state, pending["session"])


@action("join-update")
def join_update(state: AppState, event: Input):
    pending = pending_join(state)
    if pending is None or pending["mine"] is None:
        return
    incoming = pending["session"]
    updated = {**pending["mine"], **{key: copy.deepcopy(incoming[key]) for key in SETUP_FIELDS}}
    state.pending = None
    switch_to(state, updated)
    state.screen = "roster"
    state.say(f"Updated “{updated['name']}” from the link: {roster_words(updated)}, Tension {updated['tension']}. "
              "Its log on this phone is kept.", "success")


@action("join-open-mine")
def open_mine(state: AppState, event: Input):
    pending = pending_join(state)
    if pending is None or pending["mine"] is None:
        return
    state.pending = None
    switch_to(state, pending["mine"])
    state.say(f"Opened “{pending['mine']['name']}” as it was on this phone.")


@action("join-cancel")
def not_now(state: AppState, event: Input):
    state.pending = None
    state.say("The link was not joined; nothing changed.")


def show_roll(state: AppState, roll: dict):
    """A roll link, read-only: the record re-resolved with its own dice (rules.resolve with
    no dice source), and every way its stored result disagrees. Nothing stored changes."""
    record = roll["record"]
    problems = rules.verify(record)
    try:
        checked = rules.resolve(record, source=rules.NoDice())
    except rules.RuleError as error:
        checked, problems = None, [str(error)]
    state.pending = {"kind": "roll", "checked": checked, "problems": problems, "at": roll["at"],
                     "by": roll["by"], "session": roll["session"]}
    state.screen = "log"
    state.message = None
    state.announcement = f"Shared roll: {safe_sentence(checked)}" if checked else "This roll link can't be shown."


@action("roll-close")
def close_roll(state: AppState, event: Input):
    state.pending = None


# --- The session list ------------------------------------------------------------------------------

def library_call(state: AppState, function, *arguments):
    """Run a Library method; its refusal (storage full, unreadable) becomes the message. None then."""
    try:
        return function(*arguments)
    except sessions.SessionError as error:
        state.fail(str(error))
        return None


def session_by_id(state: AppState, session_id: str) -> dict | None:
    if session_id == state.session["id"]:
        return state.session
    if state.library is None:
        return None
    return library_call(state, state.library.read, session_id)


@action("session-open")
def open_session(state: AppState, event: Input):
    chosen = session_by_id(state, event.text("id"))
    if chosen is None or chosen is state.session:
        return
    switch_to(state, chosen)
    state.say(f"Opened “{chosen['name']}”.", "success")


@action("session-new")
def new_session(state: AppState, event: Input):
    fresh = sessions.new_session(name=unused_name(state, "New session", f"{len(listing(state)) + 1}"),
                                 system=state.system, players=state.session["players"])
    switch_to(state, fresh)
    state.say(f"Started “{fresh['name']}”. Rename it below.", "success")


@action("session-duplicate")
def duplicate(state: AppState, event: Input):
    source = session_by_id(state, event.text("id"))
    if source is None:
        return
    twin = {**copy.deepcopy(source), "id": sessions.new_id(), "name": unused_name(state, source["name"], "(copy)")}
    if state.library is not None and library_call(state, state.library.add, twin) is None:
        return
    state.say(f"Made a copy: “{twin['name']}”.", "success")


@action("session-delete")
def ask_delete(state: AppState, event: Input):
    state.view = {"deleting": event.text("id")}


@action("session-delete-cancel")
def keep_session(state: AppState, event: Input):
    state.view.pop("deleting", None)


@action("session-delete-confirmed")
def delete(state: AppState, event: Input):
    session_id = state.view.pop("deleting", None)
    entry = next((item for item in listing(state) if item["id"] == session_id), None)
    if entry is None:
        return
    if state.library is not None:
        state.library.remove(session_id)
    if session_id == state.session["id"]:
        remaining = listing(state) if state.library is not None else []
        remaining = [item for item in remaining if item["id"] != session_id]
        following = session_by_id(state, remaining[0]["id"]) if remaining else None
        switch_to(state, following if following is not None else sessions.new_session(system=state.system))
    state.say(f"Deleted “{entry['name']}”.")


@action("session-rename")
def start_rename(state: AppState, event: Input):
    entry = next((item for item in listing(state) if item["id"] == event.text("id")), None)
    if entry is not None:
        state.view = {"renaming": entry["id"], "rename_text": entry["name"]}


@action("session-rename-text")
def type_name(state: AppState, event: Input):
    state.view["rename_text"] = (event.value or "")[:sessions.model.MAX_SESSION_NAME]


@action("session-rename-cancel")
def cancel_rename(state: AppState, event: Input):
    state.view.pop("renaming", None)
    state.view.pop("rename_text", None)


@action("session-rename-save")
def save_name(state: AppState, event: Input):
    session_id = state.view.get("renaming")
    name = " ".join(state.view.get("rename_text", "").split())[:sessions.model.MAX_SESSION_NAME]
    if not name:
        state.fail("A session needs a name.")
        return
    target = session_by_id(state, session_id) if session_id else None
    if target is None:
        return
    renamed = {**target, "name": name}
    if target is state.session:
        state.session = renamed
    elif library_call(state, state.library.save, renamed, False) is None:
        return
    cancel_rename(state, event)
    state.say(f"Renamed to “{name}”.", "success")


# --- This session's settings -----------------------------------------------------------------------

@action("session-players")
def step_players(state: AppState, event: Input):
    players = max(1, min(MAX_PLAYERS, state.session["players"] + event.number("step", 0)))
    changes = {"players": players}
    if not state.session["log"]:  # before the first conflict, Tension starts at the number of players
        changes["tension"] = rules.starting_tension(players)
    state.session = {**state.session, **changes}
    state.announcement = f"{players} players." + (f" Tension is {changes['tension']}." if "tension" in changes else "")


@action("session-setting")
def toggle_setting(state: AppState, event: Input):
    setting = event.text("setting")
    if setting in SETTINGS:
        state.session = {**state.session, "settings": {**state.session["settings"], setting: bool(event.checked)}}


# --- Sharing and storage ---------------------------------------------------------------------------

def session_url(state: AppState) -> str:
    return share.link(state.base_url, sessions.encode_session(state.session))


@action("session-share")
def share_session(state: AppState, event: Input):
    state.effects.append(("share", {
        "title": f"{state.session['name']} — Tableside", "url": session_url(state),
        "shared": "Session link shared.", "copied": "Session link copied: paste it to the other phones.",
        "manual": "Couldn't copy here: select the link in the box below and copy it."}))


@action("storage-persist")
def ask_to_keep(state: AppState, event: Input):
    state.effects.append(("persist", {}))


@action("unreadable-download")
def download_unreadable(state: AppState, event: Input):
    item = unreadable(state, event.text("key"))
    if item is not None:
        name = "tableside-unreadable-" + "".join(c if c.isalnum() else "-" for c in item.key.removeprefix("tableside."))
        state.effects.append(("download", {"name": f"{name[:80]}.txt", "text": item.raw, "type": "text/plain"}))


def unreadable(state: AppState, key: str):
    items = state.library.unreadable if state.library is not None else []
    return next((item for item in items if item.key == key), None)


@action("unreadable-remove")
def ask_remove(state: AppState, event: Input):
    state.view = {"forgetting": event.text("key")}


@action("unreadable-remove-cancel")
def keep_unreadable(state: AppState, event: Input):
    state.view.pop("forgetting", None)


@action("unreadable-remove-confirmed")
def remove_unreadable(state: AppState, event: Input):
    key = state.view.pop("forgetting", None)
    if key and state.library is not None and state.library.forget(key):
        state.say("The unreadable data was deleted.")
