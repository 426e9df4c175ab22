"""The table in progress on this phone: every system's conflict draft, the sheet being
edited, the Tables draft, the open screen and rule system and who holds this phone (the GM or a
player), saved after every change and restored exactly after a reload, a crash or a closed tab.
The rule system shown is this phone's own: a session opened with none stored starts on the
session's (the GM's phone's) and keeps it whatever other phones show.

It is stored per session under its own key through the Library (save_table /
load_table, `tableside.table.<session id>`), never inside the session: the session
is shared and merged across phones, the table in progress is this phone's own.
What is read back is untrusted: each draft is checked against the shape its module
writes (`check_draft`), then drawn once; anything wrong is dropped with a message,
never a crash. A face-down Complication stays in the draft and is never drawn.
"""
from __future__ import annotations

import copy

from session import SYSTEMS, SessionError
from session.replica_check import ID
from session.sealed.exchange import check_secret

from ui import router
from ui.core.live_table import ADD_AT_ONCE, ADD_ON_TAP, MAX_UNCONFIRMED
from ui.core.role import fill_player_sheet
from ui.core.shapes import ShapeError
from ui.core.state import SCREENS, AppState

VERSION = 1
WHAT = {"tension": "the Tension Engine conflict", "anomaly": "the Anomaly roll", "manners": "the Manner Cards conflict",
        "tables": "the Tables screen"}
LOST = "The conflict in progress could not be restored ({what}), so it starts afresh. Nothing logged is lost."


def to_store(state: AppState) -> dict | None:
    """What to store for the open session; None when nothing is in progress."""
    drafts = {key: draft for key, draft in state.drafts.items() if key in WHAT}
    if not drafts and state.editing is None and state.screen == "conflict" and state.role is None \
            and not state.numbered and state.add_rolls == ADD_AT_ONCE and state.system == state.session["system"] \
            and not state.unconfirmed and (state.rejoin is None or state.rejoin.empty()):
        return None
    stored = {"v": VERSION, "session": state.session["id"], "screen": state.screen, "system": state.system,
              "drafts": copy.deepcopy(drafts), "editing": copy.deepcopy(state.editing), "role": state.role,
              "numbered": state.numbered}
    if state.add_rolls != ADD_AT_ONCE:  # the GM's choice for this session's live table
        stored["add_rolls"] = state.add_rolls
    if state.unconfirmed:  # rolls the GM's phone has not said it stored: sent again at the next channel
        stored["unconfirmed"] = list(state.unconfirmed)
    if state.rejoin is not None and not state.rejoin.empty():  # the ways back to a live table (ui.core.standbys)
        stored["rejoin"] = state.rejoin.to_dict()
    return stored


def in_play(state: AppState) -> bool:
    """Dice, a card or a result on the table of some system: a reload must bring them back."""
    return any(router.module(router.DRAFT_CHECKS[system]).in_play(draft)
               for system, draft in state.drafts.items() if system in router.CONFLICT_SCREENS)


def restore(state: AppState, data) -> str | None:
    """Put a stored table back on `state`; the problem in words when part of it was dropped."""
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("v") != VERSION or data.get("session") != state.session["id"]:
        return "it was saved by another version"
    problems = []
    drafts = data.get("drafts") if isinstance(data.get("drafts"), dict) else {}
    for key, stored in drafts.items():
        if key not in WHAT:
            continue
        try:
            draft = router.module(router.DRAFT_CHECKS[key]).check_draft(stored)
            if key in router.CONFLICT_SCREENS:
                draws(state, key, draft)
        except Exception as error:  # untrusted: whatever is wrong (ShapeError or a view's), drop this draft
            problems.append(f"{WHAT.get(key, key)}: {error}" if isinstance(error, ShapeError) else WHAT.get(key, key))
            continue
        state.drafts[key] = draft
    if data.get("editing") is not None:
        try:
            state.editing = router.module(router.DRAFT_CHECKS["editing"]).check_editing(data["editing"])
        except ShapeError as error:
            problems.append(f"the sheet being edited: {error}")
    if data.get("screen") in SCREENS and data["screen"] != "live":  # a reload ends the live channels
        state.screen = data["screen"]
    if data.get("system") in SYSTEMS:  # none from an older version: the session's, as it opens
        state.shown = data["system"]
    numbered = data.get("numbered", 0)  # the last number this phone gave (ui.core.library.numbering)
    if isinstance(numbered, int) and not isinstance(numbered, bool) and 0 <= numbered <= 10 ** 7:
        state.numbered = numbered
    role = data.get("role")
    if isinstance(role, str) and 0 < len(role) <= 64:  # checked against the roster when drawn (ui.core.role)
        state.role = role
    if data.get("add_rolls") == ADD_ON_TAP:
        state.add_rolls = ADD_ON_TAP
    unconfirmed = data.get("unconfirmed", [])
    if isinstance(unconfirmed, list) and len(unconfirmed) <= MAX_UNCONFIRMED:
        state.unconfirmed = [entry_id for entry_id in unconfirmed if isinstance(entry_id, str) and ID.fullmatch(entry_id)]
    if "rejoin" in data:
        rejoin_problem = restore_rejoin(state, data["rejoin"])
        if rejoin_problem:
            state.fail(rejoin_problem)
    return "; ".join(problems) or None


def restore_rejoin(state: AppState, data) -> str | None:
    """The ways back to a live table (session.live.standby); the sentence when they can't be read
    (the phone then joins with codes as before; the session is untouched)."""
    from session.live.standby import StandbyError, read_ways  # only a phone that was live reads these

    try:
        state.rejoin = read_ways(data)
    except StandbyError as error:
        return str(error)
    return None


def draws(state: AppState, system: str, draft: dict):
    """Draw the system's screen with this draft once: a draft the view cannot draw is dropped."""
    trial = AppState(session=state.session, shown=system, drafts={system: copy.deepcopy(draft)})
    router.load(router.CONFLICT_SCREENS[system]).regions(trial)


def load(state: AppState):
    """At start, and when another session is opened: its table in progress, if any. From then on the
    rule system shown is this phone's own."""
    state.unconfirmed = []  # another session's rolls are not this one's
    state.rejoin = None  # nor its ways back to a live table
    if state.library is None:
        state.shown = state.shown or state.session["system"]
        return
    try:
        problem = restore(state, state.library.load_table(state.session["id"]))
    except SessionError as error:
        problem = str(error).rstrip(".").lower()
    except Exception:  # whatever is stored, a start never fails for the table in progress
        problem = "it holds something this version cannot read"
    state.shown = state.shown or state.session["system"]
    fill_player_sheet(state)  # the player's person where this phone opens (stored with the next change)
    if problem:
        state.fail(LOST.format(what=problem))
    recall_secrets(state)


def recall_secrets(state: AppState):
    """The cards this phone sealed in the exchanges on its table (their own keys, never the table's)."""
    for draft in state.drafts.values():
        exchange = draft.get("exchange") if isinstance(draft, dict) else None
        if exchange is None or exchange["id"] in state.secrets:
            continue
        try:
            state.secrets[exchange["id"]] = check_secret(state.library.load_secret(state.session["id"], exchange["id"]),
                                                         state.session["id"], exchange["id"])
        except SessionError:
            pass  # none stored (the other phone's exchange, or already revealed): the screen says what it can do


def save(state: AppState):
    """After every change: store the table in progress (the Library skips unchanged text), and each
    sealed card's secret under its own key (deleted once revealed)."""
    if state.library is not None and not state.library.is_pristine(state.replica):
        state.library.save_table(state.session["id"], to_store(state))
    if state.library is not None:
        for conflict_id, secret in list(state.secrets.items()):
            state.library.save_secret(secret["s"] if secret else state.session["id"], conflict_id, secret)
            if secret is None:
                del state.secrets[conflict_id]


def reopened(state: AppState) -> AppState:
    """The state a reload would bring back now: the session and its table in progress as
    stored (a copy, checked), without what only lives on screen (a message, an open
    confirmation, the animation of dice just rolled)."""
    again = AppState(session=state.session, library=state.library, base_url=state.base_url,
                     persistence=state.persistence, odds_ready=set(state.odds_ready))
    stored = to_store(state)
    restore(again, copy.deepcopy(stored))
    return again


def follow(state: AppState, previous_id: str):
    """After a change that opened another session: bring in that session's table."""
    if state.session["id"] != previous_id:
        load(state)
