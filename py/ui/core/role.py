"""Who holds this phone: the GM, or the player of one character.

It is focus, not security: anyone can switch. A player's phone opens on their character
and keeps the GM's controls (Tension buttons, adversaries, the GM's choices in a roll,
editing other sheets) off screen; the GM's phone, or a phone nobody said who holds (one
phone for the whole table), shows everything. Pure Python.
"""
from __future__ import annotations

import functools

from session.ownership import gm_of

from ui.core import people
from ui.core.live_table import ON_ITS_WAY, sends_to_gm
from ui.core.people import Person
from ui.core.state import AppState

GM = "gm"


def player_entry(state: AppState) -> dict | None:
    """The character this phone's player plays, if a player holds it (and the character is still there):
    their sheet in the rule system shown (the same person, ui.core.people), else the sheet they were
    picked by until they have one here (`fill_player_sheet`)."""
    if state.role in (None, GM):
        return None
    entry = state.entry(state.role)
    if entry is None or entry["kind"] != "character":
        return None
    if entry["system"] == state.system:
        return entry
    person = people.person_of(state.session["roster"], entry["id"])
    return people.sheet_in(state.session["roster"], person, state.system) or entry


def own_sheet(state: AppState) -> dict | None:
    """The player's sheet in the rule system shown: theirs, else the blank one `fill_player_sheet` gives
    their person there (the id every phone derives, so a side picked on it is theirs once it is added);
    None on a phone no player holds, or when that blank sheet was removed."""
    player = player_entry(state)
    if player is None or player["system"] == state.system:
        return player
    roster = state.session["roster"]
    person = people.person_of(roster, player["id"])
    if people.derived_id(person, state.system) in state.replica.roster:
        return None
    return people.derived(roster, person, state.system)


def fill_player_sheet(state: AppState):
    """A player's person with no sheet in the rule system shown gets a blank one there, so everything on
    this phone opens on them (never on someone else's sheet). Its id is the one every phone derives; one
    removed already is not added again."""
    player = player_entry(state)
    if player is None or player["system"] == state.system:
        return
    roster = state.session["roster"]
    person = people.person_of(roster, player["id"])
    if people.derived_id(person, state.system) not in state.replica.roster:
        filled = people.everywhere(roster, player)
        if not people.no_room(state.replica, filled, person.name):  # full only if hidden or doubled sheets fill a system
            state.session = {**state.session, "roster": filled}


def sheet_here(state: AppState, person: Person) -> str:
    """The person's sheet in the open rule system, else their first."""
    return next((entry_id for entry_id, system in zip(person.ids, person.systems) if system == state.system),
                person.ids[0])


def is_player(state: AppState) -> bool:
    return player_entry(state) is not None


GM_ONLY = "That is the GM's to do, on the GM's phone."


def gm_controls(state: AppState) -> bool:
    """The GM's controls (the Tension Table's roll and lines, calls for rolls, how players' rolls are
    taken) are on this phone: the GM's, or one shared by the whole table; never a player's."""
    return not is_player(state)


def gm_only(handler):
    """An action that is the GM's: on a player's phone (where its control is not drawn, so only an old
    page or a stray event sends it) it changes nothing and says so."""
    @functools.wraps(handler)
    def guarded(state: AppState, event):
        if not gm_controls(state):
            state.fail(GM_ONLY)
            return None
        return handler(state, event)
    return guarded


def show_system(state: AppState, system: str):
    """Show `system` on this phone (its own choice, moving no other phone). The GM's phone (or a shared
    one, while no GM is on record) also makes it the session's rule system, the one a phone that joins opens on."""
    state.shown = system
    if gm_controls(state) and gm_of(state.replica) in (None, state.device) and state.session["system"] != system:
        state.session = {**state.session, "system": system}


def own_first(state: AppState, characters: list[dict]) -> dict | None:
    """The character a new conflict starts with: this phone's player's (their blank sheet while they have
    none here, never someone else's), else the first."""
    player = player_entry(state)
    if player is None:
        return characters[0] if characters else None
    if player in characters:
        return player
    if player["system"] != state.system:
        return own_sheet(state)
    return None


def own_side(state: AppState, side: dict) -> bool:
    """A side of a conflict that is this phone's player's own character (drawn without "Who")."""
    player = player_entry(state)
    return player is not None and side.get("ref") == player["id"]


def changes_session(state: AppState) -> bool:
    """The session's name, players, settings, Tension by hand and who is in the roster are changed on this
    phone: the GM's, or one used alone (no GM on record, nobody said it is a player's). Elsewhere they are
    drawn read-only: ui.core.holding.refused_here would refuse them (and still does, for a stray tap)."""
    return gm_controls(state) and gm_of(state.replica) in (None, state.device)


def renames(state: AppState, session_id: str, gm: str | None) -> bool:
    """A session on this phone's list may be renamed here: the open one as `changes_session` says; another
    (its GM's phone `gm`, as stored) when this phone is its GM's or it has none (a phone used alone). On a
    player's phone its name is the GM's to change."""
    if session_id == state.session["id"]:
        return changes_session(state)
    return gm in (None, state.device)


def may_edit(state: AppState, entry: dict) -> bool:
    """A player edits their own sheet; the GM (or a shared phone) every sheet."""
    player = player_entry(state)
    return changes_session(state) or (player is not None and player["id"] == entry["id"])


def may_undo(state: AppState, entry: dict) -> bool:
    """Undo of a logged entry is offered here: this phone's own roll, or any on the GM's (or a shared) phone."""
    return entry.get("device") == state.device or changes_session(state)


def logged_entry(state: AppState, record: dict) -> dict | None:
    """The log entry holding this just-logged record (newest first), to show it to the GM."""
    return next((entry for entry in state.session["log"] if entry.get("record") == record), None)


NEXT_CONFLICT = {"tension": "tension-new", "anomaly": "anomaly-new", "manners": "manners-new"}


def show_to_gm(state: AppState, record: dict):
    """Put the roll of this logged record on screen for the GM's phone (QR code, Share, link); once
    it is put away ("Done"), the next conflict is ready: the roll is logged and shown, so nothing
    is left to do with it on this phone (the Log shares it again). On a live table it is on its way
    to the GM's phone (ui.core.outgoing), which is all it says until the GM's phone says it stored
    it: the result stays on screen."""
    entry = logged_entry(state, record)
    if entry is not None and sends_to_gm(state):
        state.say(ON_ITS_WAY, passing=True)
    elif entry is not None:
        state.showing = entry["id"]
        state.next_after_showing = NEXT_CONFLICT.get(state.system)
        state.focus = "handoff-done"
