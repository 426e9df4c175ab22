"""Links from other phones: what opening a session link or a roll link does.

Joining never overwrites silently: a link whose session id is already here
offers to update that session or open it as it is; the same link twice opens
the same session, never a copy. A roll link is shown read-only, re-checked
against its own dice. Handlers change the AppState only.
"""
from __future__ import annotations

import copy

import rules
import session as sessions

from ui.core.actions import Input, action
from ui.core.library import switch_to
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.sessions.draft import SETUP_FIELDS
from ui.summaries import safe_sentence


def roster_words(session: dict) -> str:
    characters = sum(entry["kind"] == "character" for entry in session["roster"])
    adversaries = len(session["roster"]) - characters
    parts = [f"{characters} character{'s' * (characters != 1)}"]
    if adversaries:
        parts.append(f"{adversaries} adversar{'ies' if adversaries != 1 else 'y'}")
    return " and ".join(parts)


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
        state.say(f"You already have “{isolate(mine['name'])}”, exactly as in the link: it is open.", "success")
        return
    untouched = state.library is None or (state.library.is_empty() and state.session is state.library.pristine)
    if mine is None and untouched:
        join(state, incoming)  # nothing on this phone yet: nothing to ask about
        return
    state.pending = {"kind": "join", "session": incoming, "mine": mine}
    state.screen = "session"
    state.announcement = f"A link to the session “{isolate(incoming['name'])}”: join it?"


def join(state: AppState, incoming: dict):
    state.pending = None
    if state.library is not None and state.library.is_blocked(incoming["id"]):
        incoming = {**incoming, "id": sessions.new_id()}  # never over data that could not be read
    switch_to(state, incoming)
    state.screen = "roster"
    state.say(f"Joined “{isolate(incoming['name'])}”: {roster_words(incoming)}, Tension {incoming['tension']}.",
              "success")


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
    state.say(f"Updated “{isolate(updated['name'])}” from the link: {roster_words(updated)}, "
              f"Tension {updated['tension']}. "
              "Its log on this phone is kept.", "success")


@action("join-open-mine")
def open_mine(state: AppState, event: Input):
    pending = pending_join(state)
    if pending is None or pending["mine"] is None:
        return
    state.pending = None
    switch_to(state, pending["mine"])
    state.say(f"Opened “{isolate(pending['mine']['name'])}” as it was on this phone.")


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
