"""The frame around every screen: session bar, system switch, messages, bottom navigation.

`page_regions(state)` is the whole page as `[(region_id, Markup)]`; the active
screen contributes its own regions in the middle.
"""
from __future__ import annotations

from session import SYSTEMS

from ui.core import space
from ui.core.state import AppState
from ui.kit.html import Markup, classes, h, isolate

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
          data_system=system, aria_pressed="true" if system == session["system"] else "false")
        for system, label in SYSTEMS.items()
    ), class_="system-tabs", aria_label="Rule system")
    return h("div", h("p", isolate(session["name"]), class_="session-name"), tabs, glance(state),
             class_="session-bar")


def glance(state: AppState) -> Markup:
    """The numbers that matter at a glance for the active system."""
    if state.system != "tension":
        return Markup("")
    tension = state.session["tension"]
    characters = state.roster("character")
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
             h("ul", *(h("li", h("span", isolate(entry["name"]), class_="chip-name"), " ",
                           h("span", f"{entry['ap']} AP", class_="chip-value"), class_="chip")
                        for entry in characters), class_="glance-ap", aria_label="Adventure Points")
             if characters else Markup(""),
             class_="glance")


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


def page_regions(state: AppState, screen_regions) -> list[tuple[str, Markup]]:
    return [
        ("session-bar", session_bar(state)),
        ("message", message_bar(state)),
        ("space", space_notice(state)),
        *screen_regions,
        ("bottom-nav", bottom_nav(state)),
    ]
