"""Around a conflict's result, the same in every system: what lies on the table set aside in
the log when a conflict ends without a result, a result just logged, the result card, the
result bar (Log this result; then the next conflict) and the row that starts the next one.

Ids, in every system: `<system>-result-card` (where logging lands), `<system>-result-bar`,
`<system>-bar-action` (the bar's main button), `<system>-new` (and its `-hint`); actions
`<system>-log` and `<system>-new`.
"""
from __future__ import annotations

from typing import Callable

import rules
from session import set_aside as set_aside_entry

from ui.core import live_table, people
from ui.core.live_table import GM_PEER, sends_to_gm
from ui.core.actions import Input
from ui.core.clock import now_text
from ui.core.events import when_added, when_role_changed
from ui.core.library import numbering
from ui.core.role import show_to_gm
from ui.core.state import AppState
from ui.kit.controls import result_bar
from ui.kit.html import Markup, h
from ui.systems.handoff import log_button, logged_actions

EMPTY = Markup("")
SET_ASIDE_HINT = "The dice on the table go in the log as set aside."


def opens_on_the_player(system: str, in_play: Callable[[dict], bool]):
    """When this phone is said to be someone's (ui.core.events), `system`'s conflict with nothing on the
    table is made again, so it opens on that player's person, not on whoever it started with."""
    def reopen(state: AppState):
        draft = state.drafts.get(system)
        if draft is not None and not in_play(draft) and draft.get("exchange") is None:
            del state.drafts[system]
    when_role_changed(reopen)


def when_added_to(system: str):
    """Register listener(state, entry, draft), called after a new roster entry of `system` is saved
    while this phone holds a conflict of that system (which may take the newcomer on a free side)."""
    def register(listener: Callable[[AppState, dict, dict], None]):
        def heard(state: AppState, entry: dict):
            draft = state.drafts.get(system)
            if entry["system"] == system and draft is not None:
                listener(state, entry, draft)
        when_added(heard)
        return listener
    return register


def clear_error(state: AppState):
    """A mistake put right: its message goes."""
    if state.message is not None and state.message.tone == "error":
        state.message = None


def clear_passing(state: AppState):
    """Dice going down: a message about the last roll ("Logged…") no longer speaks of what is on screen."""
    if state.message is not None and state.message.passing:
        state.message = None


def set_aside(state: AppState, record: dict, by: str, what: str = "The dice on the table", call: str = ""):
    """What lies on the table and will not be resolved goes in the log as "set aside" (a partial
    record, no result): every roll stays in the log, so a re-roll is visible to the table. `call`:
    the title of the call the GM's side was rolled for."""
    state.session = set_aside_entry(state.session, record, at=now_text(), by=by, call=call, **numbering(state))
    state.say(f"{what} are in the log, set aside.")


# --- A call whose called character's side rolls first on its own phone (issue 31, item 5) ---------------
# The draft's `called` then holds "first": "here" (the player's phone, which rolls first) or "there"
# (the GM's phone, which rolls after it), and "entry": the id the conflict is logged under.

def answer_logged(state: AppState, draft: dict | None) -> dict | None:
    """(Player) The log entry of the conflict the side this phone sent first was for, once it is in
    the log and this phone's draft does not show it yet; else None."""
    called = draft.get("called") if draft else None
    if not called or called.get("first") != "here" or not called["words"] or draft["logged"] is not None:
        return None
    entry = next((item for item in state.session["log"] if item["id"] == called["entry"]), None)
    return entry if entry is not None and entry["kind"] == "conflict" else None


def send_bar(state: AppState, system: str, draft: dict, total: int | None, mine: str, theirs: str) -> Markup:
    """(Player) The bar of a side this phone rolls first for the GM's call: once rolled (`total`),
    "Send to the GM"; once sent, "waiting to reach the GM's phone" (and "Send again") until the GM's
    phone says it stored it (ui.core.outgoing.confirmed), then that it waits for the GM's side (`theirs`)."""
    called = draft.get("called")
    if not called or called.get("first") != "here" or draft["logged"] is not None:
        return EMPTY
    bar_id, action = f"{system}-result-bar", f"{system}-send"
    if called["words"] and called["entry"] in state.unconfirmed:
        return result_bar(h("span", f"Your {mine}: {called['words']}. Waiting to reach the GM's phone…"),
                          h("button", "Send again", type="button", class_="button", data_action=action,
                            id=f"{system}-bar-action"), bar_id)
    if called["words"]:
        return result_bar(h("span", f"On the GM's phone: {called['words']}. Waiting for the {theirs}."),
                          EMPTY, bar_id)
    if total is None:
        return EMPTY
    return result_bar(h("span", f"Your {mine}: {total}"),
                      h("button", "Send to the GM", type="button", class_="button button-primary",
                        data_action=action, id=f"{system}-bar-action"), bar_id)


def waiting_call(state: AppState, system: str, kind: str, call_id: str, role: str,
                 foe: Callable[[dict], str]) -> dict | None:
    """(GM) The call this phone's `system` conflict waits for a side of (`called` "there"), as
    live_table's calls hold it, when the call itself is gone (the GM's phone reloaded since: calls are
    not kept): a side that arrives for it is still taken. `foe(draft)`: the GM's side's name."""
    draft = state.drafts.get(system)
    called = draft.get("called") if draft else None
    if not called or called.get("first") != "there" or called["id"] != call_id or draft["logged"] is not None:
        return None
    return {"id": call_id, "system": system, "kind": kind, "to": [role], "rolled": {},
            "title": "A roll called before this phone reloaded", "stakes": "", "gm": None, "difficulty": None,
            "combat": bool(draft.get("combat")), "foe": {"name": foe(draft), "id": ""}}


def side_on_its_way(state: AppState, draft: dict | None, who: str, what: str) -> str | None:
    """(GM) The sentence a "New conflict" tap gets first while this phone's conflict waits for the side
    `who`'s phone rolls first (`what`: "attack", "defense"), or None when it waits for none (the side
    arrived, the result is logged, the round ended)."""
    called = draft.get("called") if draft else None
    if not called or called.get("first") != "there" or called["words"] or draft["logged"] is not None:
        return None
    table = live_table.of(state)
    call = table.calls.get(called["id"]) if table is not None else None
    if call is not None and call.get("ended"):
        return None
    return f"{who}'s {what} is still on its way to this phone, and this conflict waits for it."


def keeps_waiting(state: AppState, draft: dict | None, who: str, what: str) -> bool:
    """(GM) A "New conflict" tap while this phone's conflict waits for a side rolled first on a player's
    phone: the first tap says so and drops nothing (True); the next one, with that said, stops waiting."""
    on_its_way = side_on_its_way(state, draft, who, what)
    if on_its_way is None:
        return False
    sentence = f"{on_its_way} Tap it again to stop waiting: the {what} is then refused when it arrives."
    if state.message is not None and state.message.text == sentence:
        from ui.core.outgoing import end_call  # the live table's code: loaded once a phone is live

        end_call(state, draft["called"]["id"])  # (after a reload here the call is gone: refused all the same)
        return False
    state.say(sentence)
    return True


def sheet_in(state: AppState, entry_id: str, system: str) -> dict | None:
    """The character sheet in `system` of the person whose sheet `entry_id` is (a call names the
    phone's role, which may be that person's sheet in another system), or None."""
    person = people.person_of(state.session["roster"], entry_id) if entry_id else None
    entry = people.sheet_in(state.session["roster"], person, system) if person is not None else None
    return entry if entry is not None and entry["kind"] == "character" else None


def person_name(state: AppState, entry_id: str) -> str:
    """The name of the person whose sheet `entry_id` is ("" when it is gone). A sheet's own name is its
    person's: the session shows a blank sheet made for a person under their typed sheet's name
    (session.lineage.with_typed)."""
    entry = state.entry(entry_id)
    return entry["name"] if entry is not None else ""


def logged_for(state: AppState, draft: dict) -> str:
    """(GM) The id a side rolled first on a player's phone is logged under (the one that phone chose,
    so it knows its result when it arrives), or "" for any other conflict; the call's round counts it
    as that phone's roll."""
    called = draft.get("called")
    if not called or called.get("first") != "there" or not called["entry"]:
        return ""
    table = live_table.of(state)
    call = table.calls.get(called["id"]) if table is not None else None
    if call is not None:
        call["rolled"][call["to"][0]] = called["entry"]
    return called["entry"]


def send_side(state: AppState, draft: dict, message: Callable[[AppState], dict], not_ready: type[Exception]):
    """(Player) The side this phone rolled first for the GM's call, settled and sent to the GM's phone
    (`message(state)`: the `side` it sends, or `not_ready` and why). Like a roll, it waits to reach the
    GM's phone until that phone says it stored it, and goes again at every new channel until then
    (ui.arrivals.catchup.send_unconfirmed); sent again, it changes nothing there."""
    from ui.core.outgoing import send, unconfirmed  # the live table's code: loaded once a phone is live

    called = draft.get("called")
    if not called or called.get("first") != "here" or draft["logged"] is not None:
        return
    if live_table.of(state) is None:
        state.fail("This phone is not live with the GM's phone: your roll stays here until it is.")
        return
    try:
        side = message(state)
    except not_ready as reason:
        state.fail(str(reason))
        return
    called["words"] = side["words"]
    unconfirmed(state, [called["entry"]])
    if sends_to_gm(state):
        send(state, GM_PEER, side_text(side))
        state.say(f"Sent: {side['words']}. Waiting to reach the GM's phone…", passing=True)
    else:
        state.say(f"Kept: {side['words']}. It goes to the GM's phone as soon as this phone is live again.",
                  passing=True)


def side_text(side: dict) -> str:
    """A side rolled first, as the `side` message carries it."""
    from session.live import protocol as live_protocol  # the live table's code: loaded once a phone is live

    return live_protocol.write(live_protocol.SIDE, **side)


def to_log(state: AppState, draft: dict, everyone_in: bool, resolve: Callable[[], dict]) -> dict | None:
    """The resolved record a Log tap logs, once everyone has rolled (`everyone_in`); else None,
    with why on screen (a result already logged is not logged again)."""
    if draft["logged"] is not None:
        return None
    if not everyone_in:
        state.fail("Not everyone has rolled yet.")
        return None
    try:
        return resolve()
    except rules.RuleError as error:
        state.fail(str(error))
        return None


def logged(state: AppState, system: str, record: dict, sentence: str, event: Input):
    """A result just logged: said (aria-live), focus on its card, and on a player's phone shown
    to the GM when the tap asked for it."""
    state.announcement = sentence
    state.focus = f"{system}-result-card"
    if event.text("then") == "show":
        show_to_gm(state, record)


# --- Markup -------------------------------------------------------------------------------------

def result_card(system: str, title: str, body: list[Markup]) -> Markup:
    """The result, as it stands or logged; focusable, for logging lands on it."""
    return h("section", h("h3", title, class_="card-title"), *body, class_="card result", data_testid="result",
             id=f"{system}-result-card", tabindex="-1")


def new_row(system: str, label: str, hint: str = SET_ASIDE_HINT) -> Markup:
    """The next conflict, and what becomes of what lies on the table."""
    return h("div", h("button", label, type="button", class_="button", data_action=f"{system}-new",
                      id=f"{system}-new", aria_describedby=f"{system}-new-hint"),
             h("span", hint, class_="hint hint-small", id=f"{system}-new-hint"), class_="row row-wrap result-actions")


def result_panel(system: str, logged_record: dict | None, standing: Callable[[], dict | None],
                 body: Callable[[dict, bool], list[Markup]], waiting: Callable[[], str], on_table: bool,
                 new_label: str = "New conflict", on_its_way: str | None = None) -> Markup:
    """The result of a system whose result stands once every die is down: logged; else as it
    stands (`standing()`: the record, None before everyone has rolled, RuleError when the dice
    break a rule); else whom it waits for. `body(record, logged)`: what the card shows of it.
    While dice lie on the table, the next conflict is offered (they go in the log as set aside);
    while a side is on its way (`on_its_way`, side_on_its_way), offered with that said."""
    if logged_record is not None:
        return result_card(system, "Result (logged)", body(logged_record, True))
    new = new_row(system, new_label) if on_table else EMPTY
    if on_its_way is not None and not on_table:
        new = new_row(system, new_label, on_its_way)
    try:
        record = standing()
    except rules.RuleError as error:
        return h("section", h("p", str(error), class_="side-problem"), new, class_="card result-waiting",
                 role="status", data_testid="problem")
    if record is None:
        return h("section", h("p", waiting(), class_="hint"), new, class_="card result-waiting",
                 data_testid="waiting")
    return result_card(system, "As it stands", [*body(record, False), new])


def bar(state: AppState, system: str, summary: Markup, record: dict, is_logged: bool,
        new_label: str = "New conflict", gm_has_it: bool = False) -> Markup:
    """A result and its main action, always in reach: Log it; once logged, the next conflict.
    `gm_has_it`: the GM's phone logs it too (a conflict sealed across phones)."""
    button = f"{system}-bar-action"
    if is_logged:
        return result_bar(h("span", "Logged: ", summary),
                          logged_actions(state, record, f"{system}-new", new_label, button, gm_has_it),
                          f"{system}-result-bar")
    return result_bar(summary, log_button(state, f"{system}-log", button, gm_has_it), f"{system}-result-bar")


def standing_bar(state: AppState, system: str, logged_record: dict | None, standing: Callable[[], dict | None],
                 summary: Callable[[dict], Markup], new_label: str = "New conflict") -> Markup:
    """The bar of a system whose result stands once every die is down: none before, nor while
    the dice break a rule (`standing` as for `result_panel`)."""
    record = logged_record
    if record is None:
        try:
            record = standing()
        except rules.RuleError:
            return EMPTY
    if record is None:
        return EMPTY
    return bar(state, system, summary(record), record, logged_record is not None, new_label)
