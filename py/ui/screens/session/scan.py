"""Scan a code or paste a link: text from another phone, opened as the link it holds.

On an iPhone a Home Screen app keeps its own storage, and the Camera app opens
links in Safari, so a code must be read inside the app. The text counts as a
Tableside link when it is an address of this app's origin with a link in its
fragment (or just such a fragment); ui.arrivals.links then opens it exactly as
a followed link. Anything else only gets a message: nothing changes.
"""
from __future__ import annotations

from urllib.parse import unquote, urlsplit

from session import looks_like_link
from session.live.signal import OFFER_PATTERN, looks_like_code

from ui.core import commands
from ui.core.actions import Input, action, dispatch
from ui.core.state import AppState
from ui.arrivals import links
from ui.arrivals.changes import VIDEO

NOT_A_CODE_LINK = "That code is not a Tableside link. Nothing changed."
NOT_A_PASTED_LINK = "That is not a Tableside link. Nothing changed."
# static/scan.js says why the camera did not start in one word.
NO_CAMERA = {
    "unsupported": "This browser can't use a camera here. Paste the link instead.",
    "denied": "Tableside may not use the camera. Allow it in the browser's settings for this site, "
              "or paste the link instead.",
    "no-camera": "No camera was found. Paste the link instead.",
    "busy": "The camera is busy in another app. Close it and try again, or paste the link instead.",
    "failed": "The camera could not be started. Paste the link instead.",
}


def link_fragment(text: str, base_url: str) -> str | None:
    """The fragment of `text` for ui.arrivals.links, or None when `text` is not a link to this app."""
    text = text.strip()
    if looks_like_link(text.removeprefix("#")):
        return text.removeprefix("#")
    try:
        parts, home = urlsplit(text), urlsplit(base_url)
    except ValueError:  # e.g. a malformed IPv6 host
        return None
    same_origin = parts.scheme.lower() in ("http", "https") and parts.netloc != "" and \
        (parts.scheme.lower(), parts.netloc.lower()) == (home.scheme.lower(), home.netloc.lower())
    if not same_origin or not parts.fragment:
        return None
    return unquote(parts.fragment)  # as ui.shell.address reads the address bar


def open_text(state: AppState, text: str, refusal: str) -> bool:
    """Open `text` as a followed link would be; True unless it was refused or could not be read.
    A live table's code goes to the live table (ui.screens.live, by its action's name)."""
    if looks_like_code(text):
        dispatch(state, "live-code", Input(value=text.strip()))
        return state.message is None or state.message.tone != "error"
    fragment = link_fragment(text, state.base_url)
    if fragment is None:
        state.fail(refusal)
        return False
    links.open_link(state, fragment)
    return state.message is None or state.message.tone != "error"


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
