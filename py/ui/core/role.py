"""Who holds this phone: the GM, or the player of one character.

It is focus, not security: anyone can switch. A player's phone opens on their character
and keeps the GM's controls (Tension buttons, adversaries, the GM's choices in a roll,
editing other sheets) off screen; the GM's phone, or a phone nobody said who holds (one
phone for the whole table), shows everything. Pure Python.
"""
from __future__ import annotations

from ui.core.live_table import sends_to_gm
from ui.core.people import Person
from ui.core.state import AppState

GM = "gm"


def player_entry(state: AppState) -> dict | None:
    """The character this phone's player plays, if a player holds it (and the character is still there);
    in another rule system, their sheet of the same name there."""
    if state.role in (None, GM):
        return None
    entry = state.entry(state.role)
    if entry is None or entry["kind"] != "character":
        return None
    if entry["system"] == state.system:
        return entry
    # the same person under another system's sheet: the character of that name there, if any
    return next((other for other in state.roster("character") if other["name"] == entry["name"]), entry)


def sheet_here(state: AppState, person: Person) -> str:
    """The person's sheet in the open rule system, else their first."""
    return next((entry_id for entry_id, system in zip(person.ids, person.systems) if system == state.system),
                person.ids[0])


def is_player(state: AppState) -> bool:
    return player_entry(state) is not None


def own_first(state: AppState, characters: list[dict]) -> dict | None:
    """The character a new conflict starts with: this phone's player's, else the first."""
    player = player_entry(state)
    if player is not None and player in characters:
        return player
    return characters[0] if characters else None


def own_side(state: AppState, side: dict) -> bool:
    """A side of a conflict that is this phone's player's own character (drawn without "Who")."""
    player = player_entry(state)
    return player is not None and side.get("ref") == player["id"]


def may_edit(state: AppState, entry: dict) -> bool:
    """A player edits their own sheet; the GM (or a shared phone) every sheet."""
    player = player_entry(state)
    return player is None or player["id"] == entry["id"]


def logged_entry(state: AppState, record: dict) -> dict | None:
    """The log entry holding this just-logged record (newest first), to show it to the GM."""
    return next((entry for entry in state.session["log"] if entry.get("record") == record), None)


NEXT_CONFLICT = {"tension": "tension-new", "anomaly": "anomaly-new", "manners": "manners-new"}


def show_to_gm(state: AppState, record: dict):
    """Put the roll of this logged record on screen for the GM's phone (QR code, Share, link); once
    it is put away ("Done"), the next conflict is ready: the roll is logged and shown, so nothing
    is left to do with it on this phone (the Log shares it again). On a live table it has gone to
    the GM's phone already (ui.core.outgoing), which is all it says: the result stays on screen."""
    entry = logged_entry(state, record)
    if entry is not None and sends_to_gm(state):
        state.say("Logged. It is on the GM's phone.", "success", passing=True)
    elif entry is not None:
        state.showing = entry["id"]
        state.next_after_showing = NEXT_CONFLICT.get(state.system)
        state.focus = "handoff-done"
