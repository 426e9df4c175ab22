"""Who may change what, where changes arrive (session.ownership): every link, roll and live message
goes through `judged` before it merges (ui.arrivals.links.merged_with).

- What its writers may change merges, as before.
- On the GM's phone, a player's claim of a character nobody holds is granted at once; the rest waits
  on screen with every change listed (`state.view["held"]`), for "Add" (written again as the GM's own
  change, so every phone keeps it; counts beyond a phone's rolls stay that phone's, vouched for) or
  "Leave out".
- On any other phone the rest is refused with one sentence.
- On the GM's phone, a player's undo that merged is said with who undid what and "Restore"
  (`state.view["undos"]`): the roll is logged again, as the GM's.
Pure Python.
"""
from __future__ import annotations

from session import SessionError, new_id
from session.log import apply_effect
from session.ownership import FORGED, Table, gm_of, grant, judge, open_claims, roll_words
from session.replica import Replica
from session.vouching import vouch

from ui.core.actions import Input, action
from ui.core.state import AppState
from ui.kit.html import isolate

MAX_SHOWN = 12  # held arrivals (and undo notices) kept on screen; older ones are let go, oldest first


def is_gm_phone(state: AppState, replica: Replica | None = None) -> bool:
    return gm_of(replica or state.replica) == state.device


def judged(state: AppState, mine: Replica, incoming: Replica, known: dict, applying: bool = True,
           own: bool = False) -> tuple[Replica, list[str]]:
    """What of `incoming` merges into `mine` now (SessionError when the link names another GM), and the
    sentences for claims not given (`refused_claims`: also the message now; the rest of the link merges).
    A preview (`applying` False: the join prompt) holds what waits for the GM, and says no undo until it
    merges. `own`: `incoming` is this phone's change (an old link taken here: session.ownership.judge)."""
    gm_here = is_gm_phone(state, mine)
    refused = []
    if gm_here:
        free, contested = open_claims(mine, incoming)
        refused = refused_claims(mine, incoming, contested)
        for entry_id, device in free:
            grant(mine, entry_id, device, state.device)
    verdict = judge(mine, incoming, state.device, known, own)
    if verdict.refusal:
        raise SessionError(verdict.refusal)
    if refused:
        state.fail(" ".join(refused))
    if verdict.forged:
        state.fail(FORGED)
    state.view = {**state.view, "arrived_held": verdict.holds}
    if gm_here:
        if applying:
            note_undos(state, mine, verdict.kept, known)
        if verdict.holds:
            hold(state, verdict.changes, verdict.held)
    elif verdict.holds:
        first = verdict.changes[0]
        more = f" and {len(verdict.changes) - 1} more" if len(verdict.changes) > 1 else ""
        state.fail(f"Not taken here: {first}{more}. That is the GM's to change, on the GM's phone.")
    return verdict.kept, refused


def claim_refused(names: Table, entry_id: str) -> str:
    return f"A phone said it holds {names.name(entry_id)}, whom another phone holds, so that was not taken."


def refused_claims(mine: Replica, incoming: Replica, contested: list[tuple[str, str]]) -> list[str]:
    """(GM) A sentence for each claim of someone another phone holds that this phone has not seen yet (a
    phone's claims travel in every link it shares after: each is said once, when it first arrives)."""
    names = Table(mine, incoming, gm_of(mine))
    fresh = sorted({entry_id for entry_id, device in contested if device not in mine.holders.get(entry_id, {})},
                   key=names.name)
    return [claim_refused(names, entry_id) for entry_id in fresh]


def switched(state: AppState, replica: Replica):
    """Open `replica`'s session (ui.core.library.switch_to) keeping on screen what waits for the GM."""
    from ui.core.library import switch_to

    waiting = {key: state.view[key] for key in ("held", "undos", "arrived_held") if key in state.view}
    switch_to(state, replica)
    state.view.update(waiting)


def only_held(state: AppState) -> str:
    """What to say of a link that changes nothing here at once but holds changes ("" when it holds none)."""
    if not state.view.pop("arrived_held", False):
        return ""
    return ("What this link changes is yours to make: it waits below, for “Add”." if is_gm_phone(state)
            else "Nothing in this link could be taken here.")


def hold(state: AppState, changes: list[str], held: Replica):
    items = [item for item in state.view.get("held", []) if item["changes"] != changes]
    state.view = {**state.view, "held": [*items, {"id": new_id(), "changes": changes, "held": held}][-MAX_SHOWN:]}
    state.announcement = f"A phone sent {len(changes)} change{'s' * (len(changes) != 1)} that are yours to make: " \
                         "add them or leave them out."


def note_undos(state: AppState, mine: Replica, kept: Replica, known: dict):
    """(GM) Each roll another phone undid that merges now, in words, with the entry to restore."""
    table = Table(mine, kept, state.device)
    notes = list(state.view.get("undos", []))
    for entry_id, mark in kept.undone.items():
        had = mine.undone.get(entry_id, {}).get("by", {})
        entry = mine.log.get(entry_id) or known.get(entry_id) or kept.log.get(entry_id)
        for device in mark["by"]:
            if device in had or device == state.device or entry is None:
                continue
            words = f"{table.who(device)} undid {roll_words(entry, table)}"
            if all(note["entry"]["id"] != entry_id for note in notes):
                notes.append({"id": new_id(), "words": words, "entry": entry})
    if notes:
        state.view = {**state.view, "undos": notes[-MAX_SHOWN:]}


def taken(state: AppState, key: str, item_id: str) -> dict | None:
    items = state.view.get(key, [])
    item = next((one for one in items if one["id"] == item_id), None)
    if item is not None:
        state.view = {**state.view, key: [one for one in items if one is not item]}
    return item


@action("held-add")
def add_held(state: AppState, event: Input):
    """(GM) The changes a phone sent, made here as the GM's own: every phone keeps them. Counts it moved
    beyond its rolls stay its own, vouched for by this phone (session.vouching.vouch): taken as the GM's,
    they counted twice once the roll that accounted for them arrived."""
    item = taken(state, "held", event.text("id"))
    if item is None or not is_gm_phone(state):
        return
    vouched = vouch(state.replica, item["held"], state.device)
    if vouched:
        for target in vouched:
            if target[0] == "entry":
                state.replica.roster_texts.pop(target[1], None)  # the head writes the entry out again
        state.session = state.committed = {**state.replica.session(log=False), "log": state.committed["log"]}
    before = state.session
    after = state.replica.merge(item["held"]).session()
    known = {entry["id"] for entry in before["log"]}
    log = [entry if entry["id"] in known else relabelled(state, entry) for entry in after["log"]]
    state.session = {**after, "log": log}
    state.say(f"Added: {'; '.join(item['changes'])}.", "success")


def relabelled(state: AppState, entry: dict) -> dict:
    """A held roll logged again as the GM's: a new id, the GM's numbering."""
    from ui.core.library import numbering

    number = numbering(state)
    fresh = {key: value for key, value in entry.items() if key not in ("clock", "device", "id", "n", "phone")}
    return {**fresh, "id": new_id(), "n": number["number"], "phone": number["phone"] or "GM"}


@action("held-leave")
def leave_held(state: AppState, event: Input):
    item = taken(state, "held", event.text("id"))
    if item is not None:
        state.say("Left out: nothing of it was changed here.")


@action("undo-restore")
def restore(state: AppState, event: Input):
    """(GM) A roll another phone undid, logged again as the GM's, with what it changed."""
    note = taken(state, "undos", event.text("id"))
    if note is None or not is_gm_phone(state):
        return
    entry = note["entry"]
    session, effects = state.session, []
    for effect in entry.get("effects", []):
        session, made = apply_effect(session, effect["field"], effect["id"], effect["delta"])
        if made is not None:
            effects.append(made)
    restored = {**relabelled(state, entry), "effects": effects}
    state.session = {**session, "log": [restored, *session["log"]]}
    state.say(f"Restored {isolate(note['words'].split(' undid ', 1)[-1])}.", "success")


@action("undo-dismiss")
def dismiss_undo(state: AppState, event: Input):
    taken(state, "undos", event.text("id"))


def peer_role(state: AppState, peer, claimed: str) -> str:
    """(GM) Who a player's phone says holds it, as the GM's phone takes it: never the GM's role (this
    phone is the GM's), nor a character another phone holds; a free character is given at once."""
    from ui.core import live_table  # only a live table asks

    table = live_table.of(state)
    if table is None or not table.hub or not claimed or not is_gm_phone(state):
        return claimed
    if claimed == live_table.GM_PEER:
        state.fail("A phone said it is the GM's. This phone is the GM's, so that was not taken.")
        return ""
    names = Table(state.replica, state.replica, state.device)
    holders = names.holders.get(names.person(claimed), set()) if claimed in names.names else set()
    if holders - {peer.device}:
        state.fail(claim_refused(names, claimed))
        return ""
    if claimed in names.names and peer.device:
        grant(state.replica, claimed, peer.device, state.device)
    return claimed
