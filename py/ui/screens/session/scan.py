"""Scan a code or paste a link on the Session screen: the camera on and off, the pasted text
kept between taps; what the text holds is opened by ui.arrivals.codes.
"""
from __future__ import annotations

from session.live.signal import OFFER_PATTERN

from ui.arrivals.codes import NO_CAMERA, NOT_A_CODE_LINK, NOT_A_PASTED_LINK, open_text
from ui.core import commands
from ui.core.actions import Input, action
from ui.core.state import AppState
from ui.screens.session.sharing import VIDEO


@action("scan-start")
def start(state: AppState, event: Input):
    state.view["scanning"] = True
    state.message = None
    state.announcement = "Camera on: point it at a Tableside code."
    state.focus = "scan-cancel"
    commands.scan(state, video=VIDEO, found="scan-found", failed="scan-failed", hold=OFFER_PATTERN)


@action("scan-cancel")
def cancel(state: AppState, event: Input):
    state.view.pop("scanning", None)
    commands.stop_scan(state)
    state.say("Scanning stopped; nothing changed.")


@action("scan-found")
def found(state: AppState, event: Input):
    state.view.pop("scanning", None)
    open_text(state, event.value or "", NOT_A_CODE_LINK)


@action("scan-failed")
def failed(state: AppState, event: Input):
    """The camera did not start, or its <video> left the screen ("gone": nothing to say)."""
    if not state.view.pop("scanning", None):
        return
    if event.value in NO_CAMERA:
        state.fail(NO_CAMERA[event.value])
        state.focus = "pasted-link"


@action("link-paste-text")
def paste_text(state: AppState, event: Input):
    state.view["pasted"] = event.value or ""


@action("link-paste-open")
def open_pasted(state: AppState, event: Input):
    text = state.view.get("pasted", "")
    if not text.strip():
        state.fail("Paste a Tableside link into the box first.")
        state.focus = "pasted-link"
        return
    if open_text(state, text, NOT_A_PASTED_LINK):
        state.view.pop("pasted", None)
