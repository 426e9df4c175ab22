"""Taps on the frame: switching screens and systems, the GM's Tension buttons, messages."""
from __future__ import annotations

from session import SYSTEMS

from ui.core.actions import Input, action
from ui.core.state import SCREENS, AppState

MAX_TENSION = 99


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
    tension = state.session["tension"] + event.number("step", 0)
    state.session = {**state.session, "tension": max(0, min(MAX_TENSION, tension))}
    state.announcement = f"Tension is {state.session['tension']}."


@action("dismiss-message")
def dismiss_message(state: AppState, event: Input):
    state.message = None
