"""Links from other phones: what opening a session link or a roll link does.

Links of both versions open (session.links.v2). A session link of a session this phone does
not have joins it as a new session. One it has is *merged*, never overwritten: first the
log store says which of the link's entries are here already (a background job), then the
join prompt lists what merging changes, per character and field, and "Update mine" applies
the merge; nothing this phone had is lost, and the same link twice changes nothing the
second time. A roll link is shown read-only, re-checked against its own dice. Handlers
change the AppState only.
"""
from __future__ import annotations

import rules
from session import new_id, SessionError
from session.differences import differences, merge_differences
from session.history import Rewritten
from session.links.text import LinkError
from session.links.v2 import read
from session.logbook import Merged, unknown_ids
from session.merging import merge_checked
from session.replica import Replica

from ui.core import commands
from ui.core.actions import Input, action
from ui.core.library import (commit, copy_as, is_blocked, is_here, stored_entries, stored_kinds, switch_to, untouched,
                             with_newest_log)
from ui.arrivals import owned
from ui.arrivals.changes import change_lines
from ui.core.people import count_words
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.systems.summaries import safe_sentence


def roster_words(session: dict) -> str:
    return count_words(session["roster"])


def open_link(state: AppState, fragment: str):
    """A session or roll link from the address bar. A bad link only gets a message:
    the open session and everything stored stay as they were."""
    try:
        incoming = read(fragment)
    except LinkError as error:
        state.fail(str(error))
        return
    if incoming.kind == "sealed":  # one step of a Manner Cards conflict sealed across phones
        from ui.systems.manners import exchange  # only such a link needs this code

        exchange.receive(state, incoming.session_id, incoming.session_name, incoming.messages)
        return
    if incoming.kind == "roll":
        if incoming.version == 1:
            show_roll(state, incoming.roll)
        else:
            offer_roll(state, incoming)
    else:
        offer_join(state, incoming.replica, version_one=incoming.version == 1)


def offer_join(state: AppState, incoming: Replica, version_one: bool = False):
    """`version_one`: a version-1 link, which holds what its session showed without who changed
    what: merged, it sets the fields it shows (as a change made on this phone now)."""
    state.message = None
    if is_here(state, incoming.id):
        commands.job(state, lambda state: preview(state, incoming, version_one),
                    "This link could not be compared with your session. Nothing was changed.")
        return
    if untouched(state):
        join(state, incoming)  # nothing on this phone yet: nothing to ask about
        return
    state.pending = {"kind": "join", "session": incoming.session(), "mine": None, "incoming": incoming}
    state.screen = "session"
    state.announcement = f"A link to the session “{isolate(incoming.fields['name'][0])}”: join it?"


async def merged_with(state: AppState, mine: Replica, incoming: Replica, stored=None, applying: bool = False,
                      own: bool = False):
    """`incoming` merged into `mine` (session.merging.merge_checked), and what the log store said of
    the entries not in memory: (their kinds, the entries). history.Rewritten when it changes a logged
    entry, merging.MergeRefused when the result would not load at the next start (both SessionError).
    `own`: `incoming` is an old link's content written as this phone's change (`overlaid`)."""
    if stored is None:
        wanted = unknown_ids(mine, incoming)
        stored = (await stored_kinds(state, mine, wanted), await stored_entries(state, mine, wanted))
    incoming, refused = owned.judged(state, mine, incoming, stored[1] or {}, applying, own)  # who may change what
    merged = merge_checked(mine, incoming, *stored)
    merged.ignored[:0] = refused  # said with what was left out: the rest of the link merges
    return merged, stored


def overlaid(mine: Replica, shown: Replica, device: str) -> Replica:
    """`mine` with the fields and roster a version-1 link shows written over it (its log kept)."""
    twin = mine.copy()
    before = twin.session()
    twin.absorb(before, {**shown.session(log=False), "log": before["log"]}, device)
    twin.fresh = []
    return twin


async def preview(state: AppState, incoming: Replica, version_one: bool = False):
    """What merging the link would change, for the join prompt (or: nothing, it is open)."""
    try:
        mine = await with_newest_log(state, incoming.id)
        if version_one:
            incoming = overlaid(mine, incoming, state.device)
        merged, stored = await merged_with(state, mine, incoming, own=version_one)
    except SessionError as error:
        state.fail(str(error))
        return
    before, after = mine.session(), merged.replica.session()
    changes = change_lines(merge_differences(mine, merged.replica, (merged.undone, merged.added)), before, after)
    if not changes:
        if mine is not state.replica:
            owned.switched(state, mine)
        held = owned.only_held(state)
        if held:
            if state.message is None or state.message.tone != "error":
                state.say(held)
            return
        state.say("".join(f"{sentence} " for sentence in merged.ignored)
                  + f"You already have everything in this link of “{isolate(before['name'])}”: it is open.",
                  "error" if merged.ignored else "success")
        ask_who(state)
        return
    state.pending = {"kind": "join", "session": after, "mine": before, "incoming": incoming, "stored": stored,
                     "changes": changes, "own": version_one}
    state.screen = "session"
    state.announcement = f"A link to your session “{isolate(before['name'])}”: {len(changes)} changes. Update it?"


def join(state: AppState, incoming: Replica):
    state.pending = None
    if is_blocked(state, incoming.id):
        # never over data that could not be read
        incoming = copy_as(incoming, new_id(), incoming.fields["name"][0], state.device)
    switch_to(state, incoming)
    state.screen = "conflict"
    session = state.session
    state.view["choose_role"] = True  # a phone that joins is someone's: the GM's, or a player's
    state.say(f"Joined “{isolate(session['name'])}”: {roster_words(session)}, Tension {session['tension']}.",
              "success")


def ask_who(state: AppState):
    """A link of this session opened again on a phone nobody said who holds: ask again ("Not now"
    said not now, not never)."""
    if state.role is None:
        state.view["choose_role"] = True


def pending_join(state: AppState) -> dict | None:
    pending = state.pending
    return pending if pending is not None and pending["kind"] == "join" else None


@action("join-new")
def join_new(state: AppState, event: Input):
    pending = pending_join(state)
    if pending is None:
        return
    if pending["mine"] is None:  # a session already here is updated or opened, never copied
        join(state, pending["incoming"])


async def merged_here(state: AppState, incoming: Replica, stored=None, own: bool = False) -> Merged | None:
    """Merge `incoming` into this phone's replica of its session and open it (the open session
    keeps what is on the table): what merging gave. None, with the message, when the session can't be read.
    `own`: `merged_with`."""
    commit(state)
    try:
        mine = await with_newest_log(state, incoming.id)
        merged, _ = await merged_with(state, mine, incoming, stored, applying=True, own=own)
    except SessionError as error:
        state.fail(str(error))
        return None
    if mine is state.replica:
        state.replica = merged.replica
        state.session = state.committed = merged.replica.session()
    else:
        owned.switched(state, merged.replica)
    if merged.ignored:  # what nobody could act on was left out (session.inert): said, in a sentence each
        state.fail(" ".join(merged.ignored))
    return merged


async def apply_merge(state: AppState, pending: dict):
    merged = await merged_here(state, pending["incoming"], pending.get("stored"), pending.get("own", False))
    if merged is None:
        return
    state.screen = "conflict"
    ask_who(state)
    session = state.session
    state.say("".join(f"{sentence} " for sentence in merged.ignored) + f"Updated “{isolate(session['name'])}” from the link: {roster_words(session)}, "
              f"Tension {session['tension']}. Nothing this phone had is lost.", "success")


@action("join-update")
def join_update(state: AppState, event: Input):
    pending = pending_join(state)
    if pending is None or pending["mine"] is None:
        return
    state.pending = None
    commands.job(state, lambda state: apply_merge(state, pending), "The link could not be merged. Nothing was changed.")


@action("join-cancel")
def not_now(state: AppState, event: Input):
    pending = pending_join(state)
    state.pending = None
    if pending is not None and pending["mine"] is not None:
        state.say(f"“{isolate(pending['mine']['name'])}” stays as it was on this phone; the link changed nothing.")
    else:
        state.say("The link was not joined; nothing changed.")


def offer_roll(state: AppState, incoming):
    """A player's roll on the GM's phone: shown as it was rolled and checked against its own
    dice; when its session is on this phone, "Add to this session" merges it (the log entry and
    the counts the player's phone changed: AP, Tension, Health), once."""
    entry = incoming.roll
    show_roll(state, {"record": entry["record"], "at": entry.get("at", ""), "by": entry.get("by", ""),
                      "session": incoming.session_name}, problems=incoming.problems)
    state.pending.update(entry_id=entry["id"], incoming=incoming.replica, addable=False, state="checking")
    if not is_here(state, incoming.replica.id):
        state.pending["state"] = "elsewhere"
        return
    commands.job(state, lambda state: compare_roll(state, state.pending),
                "This roll could not be compared with your session. Nothing was changed.")


async def compare_roll(state: AppState, pending: dict):
    """Is the roll in this session's log already, and what adding it changes."""
    incoming = pending["incoming"]
    try:
        mine = await with_newest_log(state, incoming.id)
    except SessionError as error:
        state.fail(str(error))
        return
    pending["session"] = mine.fields["name"][0]  # a roll carries no name: this phone's is the one to show
    try:
        merged, stored = await merged_with(state, mine, incoming)
    except Rewritten as error:
        pending.update(state="refused", problems=[str(error)], addable=False)
        state.fail(str(error))
        return
    except SessionError as error:  # merging.MergeRefused: the session would not load again
        pending["state"], pending["refusal"] = "unmergeable", str(error)
        state.fail(str(error))
        return
    pending["stored"] = stored
    if pending["entry_id"] in mine.log or pending["entry_id"] in stored[0]:
        pending["state"] = "undone" if pending["entry_id"] in mine.undone else "already"
        state.announcement = "This roll is already in this session's log."
        return
    before, after = mine.session(log=False), merged.replica.session(log=False)
    pending["changes"] = change_lines(differences({**before, "log": []}, {**after, "log": []}), before, after)
    pending["state"] = "refused" if pending["problems"] else "new"
    pending["addable"] = not pending["problems"]


async def add_roll(state: AppState, pending: dict):
    merged = await merged_here(state, pending["incoming"], pending.get("stored"))
    if not merged:
        return
    state.pending = None
    by = isolate(pending["by"]) if pending["by"] else "The roll"
    changes = "; ".join(pending.get("changes") or [])
    state.say("".join(f"{sentence} " for sentence in merged.ignored)
              + f"Added {by}'s roll to “{isolate(state.session['name'])}”." + (f" {changes}." if changes else ""),
              "success")


@action("roll-add")
def add_to_session(state: AppState, event: Input):
    pending = state.pending
    if pending is None or pending.get("kind") != "roll" or not pending.get("addable"):
        return
    pending["addable"] = False  # a second tap while the merge runs does nothing
    pending["state"] = "adding"
    commands.job(state, lambda state: add_roll(state, pending), "The roll could not be added. Nothing was changed.")


def show_roll(state: AppState, roll: dict, problems: list | None = None):
    """A roll link, read-only: the record re-resolved with its own dice (rules.resolve with
    no dice source), and every way its stored result disagrees. Nothing stored changes."""
    record = roll["record"]
    problems = list(problems) if problems else rules.verify(record)
    try:
        checked = rules.resolve(record, source=rules.NoDice())
    except rules.RuleError as error:
        checked, problems = None, [str(error)]
    state.pending = {"kind": "roll", "checked": checked, "problems": problems, "at": roll["at"],
                     "by": roll["by"], "session": roll["session"], "state": "read-only"}
    state.screen = "log"
    state.message = None
    state.announcement = f"Shared roll: {safe_sentence(checked)}" if checked else "This roll link can't be shown."


@action("roll-close")
def close_roll(state: AppState, event: Input):
    state.pending = None
