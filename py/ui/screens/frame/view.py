"""The frame around every screen: session bar, system switch, messages, bottom navigation.

`page_regions(state)` is the whole page as `[(region_id, Markup)]`; the active
screen contributes its own regions in the middle.
"""
from __future__ import annotations

from session import SYSTEMS

from ui.core import live_table, role, space
from ui.core.clock import short_text
from ui.core.people import people
from ui.core.state import AppState
from ui.kit.html import Markup, classes, h, isolate
from ui.screens.frame.held import held_notices
from ui.systems.handoff import dialog

NAVIGATION = (
    ("conflict", "Conflict"),
    ("roster", "Roster"),
    ("log", "Log"),
    ("tables", "Tables"),
    ("session", "Session"),
)


def session_bar(state: AppState) -> Markup:
    session = state.session
    tabs = h("nav", *(
        h("button", label, type="button", class_="system-tab", data_action="switch-system",
          data_system=system, aria_pressed="true" if system == state.system else "false")
        for system, label in SYSTEMS.items()
    ), class_="system-tabs", aria_label="Rule system")
    return h("div", h("div", h("p", isolate(session["name"]), class_="session-name"), holder(state),
                      class_="session-line"),
             tabs, glance(state), class_="session-bar")


def holder(state: AppState) -> Markup:
    """Who holds this phone, and the way to change it (or to say it, after "Not now")."""
    if state.role is None:
        return h("p", h("button", "Whose phone is this?", type="button", class_="button-link",
                        data_action="role-choose"), class_="holder", data_testid="holder")
    player = role.player_entry(state)
    who = h("span", "You: ", h("strong", isolate(player["name"]) if player else "the GM"), class_="holder-name")
    return h("p", who, " ", h("button", "Change", type="button", class_="button-link", data_action="role-choose",
                              aria_label="Change who holds this phone"), class_="holder", data_testid="holder")


def role_chooser(state: AppState) -> Markup:
    """Joining a session (or "Change"): who holds this phone. It decides what the phone shows
    first; it locks nothing."""
    if not state.view.get("choose_role"):
        return Markup("")
    choices = [h("button", "The GM", type="button", class_="button button-wide", data_action="role-pick",
                 data_role=role.GM, aria_pressed="true" if state.role == role.GM else "false")]
    choices += [h("button", isolate(person.name), type="button", class_="button button-wide",
                  data_action="role-pick", data_role=role.sheet_here(state, person),
                  aria_pressed="true" if state.role in person.ids else "false")
                for person in people(state.session["roster"], "character")]
    return h("section", h("h2", "Who are you at this table?", class_="card-title", id="role-title"),
             h("p", "A player's phone opens on their character and leaves the GM's controls to the GM's phone. "
                    "You can change this any time (“Whose phone is this?” or “Change” at the top): it is focus, "
                    "not security.", class_="hint"),
             h("div", *choices, class_="role-choices"),
             h("button", "Not now", type="button", class_="button button-quiet", data_action="role-later",
               data_dismiss="true"),
             class_="card dialog role-chooser", role="dialog", aria_modal="true", aria_labelledby="role-title",
             data_testid="role-chooser")


def glance(state: AppState) -> Markup:
    """The numbers that matter at a glance for the active system."""
    if state.system != "tension":
        return Markup("")
    tension = state.session["tension"]
    characters = state.roster("character")
    player = role.player_entry(state)
    if not role.changes_session(state):  # the Tension is the GM's to change: shown, not offered
        if player is not None:
            characters = [player, *(entry for entry in characters if entry is not player)]
        return h("div",
                 h("div", h("span", "Tension", class_="glance-label", id="tension-label"),
                   h("output", str(tension), class_="glance-value", aria_labelledby="tension-label",
                     data_testid="tension"), class_="glance-tension"),
                 ap_chips(characters, player), class_="glance")
    return h("div",
             h("div",
               h("span", "Tension", class_="glance-label", id="tension-label"),
               h("button", "−", type="button", class_="button button-round", data_action="tension-step",
                 data_step="-1", aria_label="Lower Tension by 1", disabled=tension <= 2,
                 aria_describedby="tension-floor" if tension <= 2 else None),
               h("output", str(tension), class_="glance-value", aria_labelledby="tension-label",
                 data_testid="tension"),
               h("button", "+", type="button", class_="button button-round", data_action="tension-step",
                 data_step="1", aria_label="Raise Tension by 1"),
               h("span", "never below 2", class_="hint hint-small", id="tension-floor") if tension <= 2 else Markup(""),
               class_="glance-tension"),
             ap_chips(characters, None), class_="glance")


def ap_chips(characters: list[dict], mine: dict | None) -> Markup:
    """Each character's AP and Health, side by side: what a player spends and what they have left."""
    if not characters:
        return Markup("")
    return h("ul", *(h("li", h("span", isolate(entry["name"]), class_="chip-name"), " ",
                           h("span", f"{entry['ap']} AP, {entry.get('health', 0)} Health", class_="chip-value"),
                           class_=classes("chip", chip_mine=entry is mine))
                     for entry in characters), class_="glance-ap", aria_label="Adventure Points and Health")


def message_bar(state: AppState) -> Markup:
    message = state.message
    if message is None:
        return Markup("")
    role = "alert" if message.tone == "error" else "status"
    return h("div", h("p", message.text), h("button", "Dismiss", type="button", class_="button button-quiet",
                                            data_action="dismiss-message"),
             class_=classes("message", f"message-{message.tone}"), role=role)


def space_notice(state: AppState) -> Markup:
    """Storage nearly full: said calmly and early, with the way out (export, then archive)."""
    notice = space.shown(state)
    if notice is None:
        return Markup("")
    where = ("the browser's small store, where Tableside keeps each session's numbers" if notice["where"] == "heads"
             else "this phone's storage for Tableside")
    return h("section",
             h("p", h("strong", f"Storage is {round(notice['share'] * 100)}% full. "),
               f"That is {where}. Everything is saved for now; to keep room for the campaign, export this "
               "session to a file and archive its old entries (the file keeps them)."),
             h("div", h("button", "Export and archive…", type="button", class_="button button-primary",
                        data_action="space-open"),
               h("button", "Not now", type="button", class_="button button-quiet", data_action="space-dismiss"),
               class_="row row-wrap"),
             class_="message message-info space-notice", role="status", data_testid="space-notice")


def bottom_nav(state: AppState) -> Markup:
    return h("nav", h("ul", *(
        h("li", h("button", label, type="button", class_="nav-button", data_action="show-screen",
                  data_screen=screen, aria_current="page" if state.screen == screen else None))
        for screen, label in NAVIGATION
    )), class_="bottom-nav", aria_label="Screens")


def standing(table: live_table.LiveTable) -> str:
    """Where a player's phone stands with the GM's, in words."""
    gm = table.peers.get(live_table.GM_PEER)
    if gm is None or gm.state in (live_table.LOST, live_table.FAILED):
        return "Not live: ask the GM for a code"
    if gm.rejoining and gm.state == live_table.SHOWING:  # (ui.core.standbys) the one-scan code
        return "Not live: show this phone's code to the GM's phone"
    if gm.rejoining:
        return "Not live: rejoining the GM's phone…"
    if gm.state == live_table.OPEN:
        return "Live with the GM's phone"
    if gm.state == live_table.INTERRUPTED:
        return "Not live: reconnecting…"
    if gm.problem.startswith("The GM's phone does not answer"):  # its checks got no reply (static/live.js)
        return "Not live: ask the GM for a new code"
    if gm.problem:  # its code has been on screen a while, and the GM's phone never connected
        return "Not live yet: has the GM's phone scanned this code?"
    return "Joining the live table…"


def live_line(state: AppState) -> Markup:
    """On a live table (ui.screens.live): who is live and since when, what waits for the GM, the call a
    player's phone answers, and the Screen Wake Lock."""
    table = live_table.of(state)
    if table is None or not table.peers or (table.hub and not table.open_peers() and state.screen == "live"):
        return Markup("")
    phones = []
    for peer in table.peers.values():
        if peer.state in (live_table.OPEN, live_table.INTERRUPTED, live_table.LOST):
            entry = state.entry(peer.role) if peer.role and peer.role != live_table.GM_PEER else None
            name = "the GM" if live_table.GM_PEER in (peer.id, peer.role) else isolate(entry["name"] if entry else peer.who)
            at = (short_text(peer.since) or "").split(", ")[-1]
            phones.append(f"{name or 'a phone'} {'since' if peer.state != live_table.LOST else 'lost at'} {at}".strip())
    notes = [f"{len(table.waiting)} roll{'s' * (len(table.waiting) != 1)} to add"] if table.waiting else []
    if not table.hub and state.unconfirmed:  # not yet stored on the GM's phone (ui.core.outgoing)
        notes.append(f"{len(state.unconfirmed)} roll{'s' * (len(state.unconfirmed) != 1)} waiting to reach the GM")
    if not table.hub and table.others:
        notes.append(f"{len(table.others)} phone{'s' * (len(table.others) != 1)} at the table")
    open_calls = [call for call in table.calls.values() if not call.get("ended")] if table.hub else []
    if open_calls:
        call = open_calls[-1]
        notes.append(f"{len(call['rolled'])} of {len(call['to'])} rolled")
        if call.get("asks"):
            notes.append(f"{len(call['asks'])} asking to try again")
    called = next((call for call in table.calls.values() if state.role in call["to"] and not call.get("rolled")),
                  None) if not table.hub else None
    status = standing(table) if not table.hub else "Live" if live_table.is_live(state) else "Not live"
    line = h("p", h("strong", status),
             " · " + " · ".join(phones + notes) if phones or notes else "", class_="live-line-who")
    call_words = h("p", "The GM calls for your roll: ", h("strong", isolate(called["title"])),
                   f". At stake: {isolate(called['stakes'])}" if called["stakes"] else "", class_="live-line-call",
                   data_testid="live-call-banner") if called else Markup("")
    from ui.systems.summaries import entry_sentence  # every system's words: loaded once a table is live, not at start

    log = state.session["log"]
    newest = h("p", "Newest roll: ", entry_sentence(log[0]), class_="hint hint-small live-line-newest",
               data_testid="live-newest", data_entry=log[0]["id"]) if log else Markup("")
    wake = h("button", "Keep the screen on", type="button", class_="button button-quiet", data_action="live-wake",
             aria_pressed="true" if table.wake == "on" else "false") if table.wake != "unsupported" else Markup("")
    return h("section", line, call_words, newest,
             h("div", Markup("") if state.screen == "live" else
               h("button", "Live table", type="button", class_="button button-quiet", data_action="live-open"),
               wake, class_="row row-wrap"),
             class_="live-line", aria_label="Live table", data_testid="live-line")


def page_regions(state: AppState, screen_regions) -> list[tuple[str, Markup]]:
    return [
        ("session-bar", session_bar(state)),
        ("message", message_bar(state)),
        ("space", space_notice(state)),
        ("role", role_chooser(state)),
        ("held", held_notices(state)),
        ("live-line", live_line(state)),
        *screen_regions,
        ("handoff", dialog(state)),
        ("bottom-nav", bottom_nav(state)),
    ]
