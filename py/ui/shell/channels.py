"""A live table's browser side: static/live.js, loaded on first use (as scanner.py loads scan.js),
its reports turned into actions through ui.core.step exactly as a tap is ("live-event",
"live-message"), the effects ui.core.commands queues for it, and the Screen Wake Lock.

What to send after a change is ui.arrivals.catchup's to say (pure); this module only hands texts to
live.js and descriptions back and forth. ui.shell.app adds RUNNERS to the shell's effects.
"""
from __future__ import annotations

import asyncio

from pyodide.ffi import create_once_callable
from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

from ui.core import commands
from ui.core.actions import Input
from ui.core.step import step
from ui.shell.commands import later

SCRIPT = "./static/live.js"
WORDS = ("unsupported", "bad-peer", "refused", "no-offer", "replaced", "closed")
FAILURE = "The live table's connection did not work in this browser. Links and QR codes still do."
_kept = {"listener": None, "wake": None, "wanted": False, "visibility": None}


def live():
    """static/live.js's API once it is in the page, else None."""
    space = getattr(window, "tableside", None)
    found = getattr(space, "live", None) if space is not None and not is_none(space) else None
    return None if found is None or is_none(found) else found


async def load(state, after):
    """static/live.js, added to the page once (a <script> of our own origin, as the CSP allows), and
    its reports turned into actions."""
    if live() is None:
        done = asyncio.get_running_loop().create_future()
        script = document.createElement("script")
        script.src = SCRIPT
        script.onload = create_once_callable(lambda *_: done.done() or done.set_result(None))
        script.onerror = create_once_callable(
            lambda *_: done.done() or done.set_exception(OSError(f"{SCRIPT} did not load")))
        document.head.append(script)
        await done
    if _kept["listener"] is None:
        def report(peer, event, detail, *_):
            event, peer = str(event), str(peer)
            if event == "message":
                step(state, "live-message", Input(data={"peer": peer}, value=str(detail)), FAILURE)
            else:
                step(state, "live-event", Input(data={"peer": peer, "event": event, "detail": str(detail)}), FAILURE)
            after()

        _kept["listener"] = create_proxy(report)
        live().listen(_kept["listener"])
    return live()


def word(error) -> str:
    """live.js's one word in a rejected promise's error."""
    text = str(error)
    return next((one for one in WORDS if one in text), "failed")


def answer(state, after, name: str, peer: str, value: str):
    step(state, name, Input(data={"peer": peer}, value=value), FAILURE)
    after()


def describe(kind: str):
    """The runner of an offer or an answer: the SDP to "live-offered"/"live-answered", or the word to "live-failed"."""
    def runner(state, data, element, after):
        async def begin():
            api = await load(state, after)
            try:
                sdp = await (api.offer(data["peer"]) if kind == "offer" else api.answer(data["peer"], data["sdp"]))
            except Exception as error:
                answer(state, after, "live-failed", data["peer"], word(error))
                return
            answer(state, after, f"live-{kind}ed", data["peer"], str(sdp))

        later(state, after, begin(), FAILURE)

    return runner


def accept(state, data, element, after):
    async def begin():
        try:
            await (await load(state, after)).accept(data["peer"], data["sdp"])
        except Exception as error:
            answer(state, after, "live-failed", data["peer"], word(error))

    later(state, after, begin(), FAILURE)


def send(state, data, element, after):
    api = live()
    if api is not None:
        api.send(data["peer"], data["text"])  # false when its channel closed meanwhile: the catch-up covers it


def close(state, data, element, after):
    api = live()
    if api is not None:
        api.close(data["peer"])


def wait(state, data, element, after):
    async def begin():
        await asyncio.sleep(data["seconds"])
        answer(state, after, "live-waited", data["peer"], str(data["offer"]))

    later(state, after, begin(), FAILURE)


# --- The Screen Wake Lock ------------------------------------------------------------------------------

def wake_lock(state, data, element, after):
    """Ask to keep the screen on (released by the browser whenever the page is hidden: asked again
    when it is shown), or let it sleep."""
    _kept["wanted"] = bool(data["on"])
    if _kept["visibility"] is None:
        _kept["visibility"] = create_proxy(lambda *_: _kept["wanted"] and later(state, after, hold(state, after),
                                                                                FAILURE))
        document.addEventListener("visibilitychange", _kept["visibility"])
    later(state, after, hold(state, after) if data["on"] else release(state, after), FAILURE)


async def hold(state, after):
    navigator = window.navigator
    lock = getattr(navigator, "wakeLock", None)
    if lock is None or is_none(lock):
        answer(state, after, "live-wake-state", "", "unsupported")
        return
    if document.visibilityState != "visible" or (_kept["wake"] is not None and not _kept["wake"].released):
        return
    try:
        _kept["wake"] = await lock.request("screen")
    except Exception:  # refused (low battery, the page not in front): the player is told, nothing broke
        answer(state, after, "live-wake-state", "", "refused")
        return
    answer(state, after, "live-wake-state", "", "on")


async def release(state, after):
    sentinel, _kept["wake"] = _kept["wake"], None
    if sentinel is not None and not sentinel.released:
        await sentinel.release()
    answer(state, after, "live-wake-state", "", "off")


RUNNERS = {commands.LIVE_OFFER: describe("offer"), commands.LIVE_ANSWER: describe("answer"),
           commands.LIVE_ACCEPT: accept, commands.LIVE_SEND: send, commands.LIVE_CLOSE: close,
           commands.LIVE_WAIT: wait, commands.WAKE_LOCK: wake_lock}
FAILURES = {kind: FAILURE for kind in RUNNERS}
