"""What taps on the Session screen do: open, rename, duplicate and delete the sessions
on this device, share this one, its settings, and unreadable saved data.

Handlers change the AppState; they read the sessions on this device through
ui.core.library, and what they change there or ask of the browser is queued with
ui.core.commands.
"""
from __future__ import annotations

import rules
from session import SessionError, new_id, new_session
from session.model import MAX_SESSION_NAME, name_text
from session.on_device.backups import linked
from session.ownership import gm_of
from session.replica import Replica

from ui.core import commands
from ui.core.actions import Input, action
from ui.core.clock import now_text
from ui.core.holding import NOT_YOURS
from ui.core.library import (copy_as, listing, logged, read_session, switch_to, unreadable, unused_name, whole,
                             with_fields)
from ui.core.role import renames
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.screens.session.sharing import TOO_LARGE_TO_OPEN, session_url, too_large_to_open

MAX_PLAYERS = 20
SETTINGS = ("ones_feed_tension", "tension_explodes")


# --- The session list ------------------------------------------------------------------------------

@action("session-open")
def open_session(state: AppState, event: Input):
    chosen = read_session(state, event.text("id"))
    if chosen is None or chosen is state.replica:
        return
    switch_to(state, chosen)
    state.say(f"Opened “{isolate(state.session['name'])}”.", "success")


@action("session-new")
def start_session(state: AppState, event: Input):
    fresh = new_session(name=unused_name(state, "New session", f"{len(listing(state)) + 1}"),
                                 system=state.system, players=state.session["players"])
    switch_to(state, Replica.from_session(fresh))
    state.say(f"Started “{isolate(fresh['name'])}”. Rename it below.", "success")


async def duplicate_job(state: AppState, source: Replica):
    """A copy of a session with its whole log, under a new id and name."""
    complete, broken = await whole(state, source)
    name = source.fields["name"][0]
    twin = copy_as(complete, new_id(), unused_name(state, name, "(copy)"), state.device)
    commands.add_session(state, twin, "The copy was not made.")
    left = f" {broken} stored log {'entry' if broken == 1 else 'entries'} could not be read and {'was' if broken == 1 else 'were'} " \
           "not copied." if broken else ""
    state.say(f"Made a copy: “{isolate(twin.fields['name'][0])}”.{left}", "success")


@action("session-duplicate")
def duplicate(state: AppState, event: Input):
    source = read_session(state, event.text("id"))
    if source is None:
        return
    commands.job(state, lambda state: duplicate_job(state, source), "The copy could not be made. Nothing was changed.")


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
    commands.remove_session(state, session_id)
    if session_id == state.session["id"]:
        remaining = [item for item in listing(state) if item["id"] != session_id]
        following = read_session(state, remaining[0]["id"]) if remaining else None
        switch_to(state, following if following is not None
                  else Replica.from_session(new_session(system=state.system)))
    state.say(f"Deleted “{isolate(entry['name'])}”.")


NAME_NOT_YOURS = f"{NOT_YOURS}: the session's name. It was not changed."


@action("session-rename")
def start_rename(state: AppState, event: Input):
    entry = next((item for item in listing(state) if item["id"] == event.text("id")), None)
    if entry is None:
        return
    if not renames(state, entry["id"], entry.get("gm")):
        state.fail(NAME_NOT_YOURS)  # its Rename is not drawn here: an old page or a stray event
        return
    state.view = {"renaming": entry["id"], "rename_text": entry["name"]}


@action("session-rename-text")
def type_name(state: AppState, event: Input):
    state.view["rename_text"] = (event.value or "")[:MAX_SESSION_NAME]


@action("session-rename-cancel")
def cancel_rename(state: AppState, event: Input):
    state.view.pop("renaming", None)
    state.view.pop("rename_text", None)


@action("session-rename-save")
def save_name(state: AppState, event: Input):
    session_id = state.view.get("renaming")
    try:
        name = name_text(state.view.get("rename_text", ""), "The session name",
                                        MAX_SESSION_NAME)
    except SessionError as error:  # empty, or nothing in it shows
        state.fail(str(error))
        return
    target = read_session(state, session_id) if session_id else None
    if target is None:
        return
    if target is state.replica:
        state.session = {**state.session, "name": name}  # refused, if it is not this phone's, by holding.refused_here
    elif not renames(state, session_id, gm_of(target)):
        cancel_rename(state, event)
        state.fail(NAME_NOT_YOURS)
        return
    else:
        commands.save_session(state, with_fields(target, state.device, name=name))
    cancel_rename(state, event)
    state.say(f"Renamed to “{isolate(name)}”.", "success")


# --- This session's settings -----------------------------------------------------------------------

@action("session-players")
def step_players(state: AppState, event: Input):
    players = max(1, min(MAX_PLAYERS, state.session["players"] + event.number("step", 0)))
    changes = {"players": players}
    if not any(logged(state).values()):  # before the first conflict, Tension starts at the number of players
        changes["tension"] = rules.starting_tension(players)
    state.session = {**state.session, **changes}
    state.announcement = f"{players} players." + (f" Tension is {changes['tension']}." if "tension" in changes else "")


@action("session-setting")
def toggle_setting(state: AppState, event: Input):
    setting = event.text("setting")
    if setting in SETTINGS:
        state.session = {**state.session, "settings": {**state.session["settings"], setting: bool(event.checked)}}


# --- Sharing and storage ---------------------------------------------------------------------------

@action("session-share")
def share_session(state: AppState, event: Input):
    url = session_url(state)
    if too_large_to_open(url):  # the screen says so where the button was: a stale tap is told too
        state.fail(TOO_LARGE_TO_OPEN)
        return
    commands.share(state, title=f"{isolate(state.session['name'])} — Tableside", url=url,
                  shared="Session link shared.", copied="Session link copied: paste it to the other phones.",
                  manual="Couldn't copy here: select the link in the box below and copy it.",
                  then="session-shared")


@action("session-shared")
def note_link(state: AppState, event: Input):
    state.backups = linked(state.backups, state.session, now_text())


@action("storage-persist")
def ask_to_keep(state: AppState, event: Input):
    commands.persist(state)


@action("unreadable-download")
def download_unreadable(state: AppState, event: Input):
    item = unreadable_item(state, event.text("key"))
    if item is not None:
        name = "tableside-unreadable-" + "".join(c if c.isalnum() else "-" for c in item.key.removeprefix("tableside."))
        commands.download(state, name=f"{name[:80]}.txt", text=item.raw, kind="text/plain")


def unreadable_item(state: AppState, key: str):
    return next((item for item in unreadable(state) if item.key == key), None)


@action("unreadable-remove")
def ask_remove(state: AppState, event: Input):
    state.view = {"forgetting": event.text("key")}


@action("unreadable-remove-cancel")
def keep_unreadable(state: AppState, event: Input):
    state.view.pop("forgetting", None)


@action("unreadable-remove-confirmed")
def remove_unreadable(state: AppState, event: Input):
    key = state.view.pop("forgetting", None)
    if key and unreadable_item(state, key) is not None:
        commands.forget(state, key)
