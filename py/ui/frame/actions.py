"""Taps on the frame: switching screens and systems, the GM's Tension buttons, messages."""
from __future__ import annotations

from session import SYSTEMS

from ui.core.actions import Input, action
from ui.core.state import SCREENS, AppState

MAX_TENSION = 99
TENSION_FLOOR = 2  # the rules never spend Tension below 2; lowering it by hand stops there too


@action("show-screen")
def show_screen(state: AppState, event: Input):
    screen = event.text("screen")
    if screen in SCREENS:
        state.screen = screen
        state.message = None


@action("switch-system")
def switch_system(state: AppState, event: Input):
    system = event.text("system")
    if system in SYSTEMS and system != state.system:
        state.session = {**state.session, "system": system}
        state.message = None
        state.editing = None


@action("tension-step")
def step_tension(state: AppState, event: Input):
    now = state.session["tension"]
    tension = max(min(TENSION_FLOOR, now), min(MAX_TENSION, now + event.number("step", 0)))
    state.session = {**state.session, "tension": tension}
    state.announcement = f"Tension is {state.session['tension']}."


@action("dismiss-message")
def dismiss_message(state: AppState, event: Input):
    state.message = None


@action("space-open")
def open_archive(state: AppState, event: Input):
    """From the storage notice to the Log, where Export and archiving are."""
    state.screen = "log"
    state.message = None
    state.view = {**state.view, "archive": True}


@action("space-dismiss")
def put_away_notice(state: AppState, event: Input):
    if state.space is not None:
        state.space = {**state.space, "dismissed": state.space["share"]}
