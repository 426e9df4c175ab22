"""Who holds this phone, as the session keeps it (session.ownership): the GM's phone on record, a
player's claim of their character, and a player's phone that makes only what the GM's phone
would take at once (`refused_here`, before a tap's change is recorded). Pure Python.
"""
from __future__ import annotations

from session.ownership import WHO_IS_WHO, claim, gm_of, grant, judge, record_gm
from session.replica import ENTRY_COUNTS, SESSION_FIELDS

from ui.core import people
from ui.core.role import GM
from ui.core.state import AppState

ANOTHER_PHONE = "This session's GM is on another phone: pick your character here."
NOT_YOURS = "That is the GM's to change, on the GM's phone"


def gm_here(state: AppState):
    """This phone is the GM's: on record, when no phone is yet."""
    if state.role in (GM, None):
        record_gm(state.replica, state.device)


def say_who(state: AppState, picked: str) -> str:
    """Record who holds this phone (GM or a character's player); a sentence when it can't be."""
    gm = gm_of(state.replica)
    if picked == GM:
        if gm is None:
            record_gm(state.replica, state.device)
        elif gm != state.device:
            return ANOTHER_PHONE
        return ""
    if gm != state.device:
        claim(state.replica, picked, state.device)
    return ""


def is_player_phone(state: AppState) -> bool:
    gm = gm_of(state.replica)
    return gm is not None and gm != state.device


def refused_here(state: AppState) -> str:
    """On a player's phone, a tap's change the GM's phone would not take at once (session.ownership):
    the sentence that says so; "" when it may be made (the GM's phone, a shared one, its own changes)."""
    before, after = state.committed, state.session
    if before is after or not is_player_phone(state) or plainly_own(state, before, after):
        return ""
    replica, gm = state.replica, gm_of(state.replica)
    mine = replica.copy()
    for entry_id, devices in replica.holders.items():  # this phone's claims count here as granted
        if state.device in devices:
            grant(mine, entry_id, state.device, gm)
    trial = mine.copy()
    trial.absorb(before, after, state.device)
    verdict = judge(mine, trial, gm)
    if not verdict.holds:
        return ""
    first = verdict.changes[0].split(": ", 1)[-1]
    first = f"undoing {first[len('undid '):]}" if first.startswith("undid ") else first
    return f"{NOT_YOURS}: {first}. It was not changed."


def plainly_own(state: AppState, before: dict, after: dict) -> bool:
    """Cheap to tell: only this phone's own person's sheet changed (not who it is), and rolls were
    logged (what they changed follows from their dice)."""
    if any(before[key] is not after[key] and before[key] != after[key] for key in SESSION_FIELDS):
        return False
    logged = len(after["log"]) > len(before["log"]) and {entry["id"] for entry in before["log"]} <= {
        entry["id"] for entry in after["log"]}
    if before["tension"] != after["tension"] and not logged:
        return False
    if before["log"] is not after["log"] and not logged:
        return False
    old = {entry["id"]: entry for entry in before["roster"]}
    new = {entry["id"]: entry for entry in after["roster"]}
    if old.keys() - new.keys():
        return False
    own = own_ids(state, after["roster"])
    for entry_id, entry in new.items():
        was = old.get(entry_id)
        if was is entry or was == entry:
            continue
        if was is None:  # a sheet added: only this phone's person's, in another system
            if entry_id not in own:
                return False
        elif any(was.get(key) != entry.get(key) for key in WHO_IS_WHO):
            return False
        elif entry_id not in own and (not logged or any(
                was.get(key) != entry.get(key) for key in entry.keys() | was.keys() if key not in ENTRY_COUNTS)):
            return False  # someone else's sheet: only the counts a roll moved
    return True


def own_ids(state: AppState, roster: list[dict]) -> set[str]:
    """The roster ids of the person this phone claimed (their sheets in every system)."""
    claimed = [entry_id for entry_id, devices in state.replica.holders.items() if state.device in devices]
    ids = set()
    for entry_id in claimed:
        person = people.person_of(roster, entry_id)
        ids |= set(person.ids) if person is not None else set()
    return ids
