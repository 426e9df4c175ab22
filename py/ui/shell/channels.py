"""A live table's browser side: static/live.js, loaded on first use (ui.shell.scripts), its
reports turned into actions through ui.core.step exactly as a tap is ("live-event",
"live-message"), the runners of the live table's commands (ui.shell.commands.TABLE), and the
Screen Wake Lock.

What to send after a change is ui.core.outgoing's to say, what comes in ui.arrivals.messages'
(both pure); this module only hands texts to live.js and descriptions back and forth.
"""
from __future__ import annotations

import asyncio
import json

from ui.core.actions import Input
from ui.core.step import step
from ui.shell import scripts
from ui.shell.background import later
from ui.shell.page_objects import create_proxy, document, is_none, window

SCRIPT = "./static/live.js"
WORDS = ("unsupported", "bad-peer", "refused", "no-offer", "replaced", "closed")
FAILURE = "The live table's connection did not work in this browser. Links and QR codes still do."
_kept = {"listener": None, "wake": None, "wanted": False, "visibility": None}


def api():
    """static/live.js's API once it is in the page, else None."""
    space = getattr(window, "tableside", None)
    found = getattr(space, "live", None) if space is not None and not is_none(space) else None
    return None if found is None or is_none(found) else found


async def load(state, after):
    """static/live.js in the page, and its reports turned into actions."""
    channels = await scripts.load(SCRIPT, api)
    if _kept["listener"] is None:
        def report(peer, event, detail, *_):
            event, peer = str(event), str(peer)
            if event == "message":
                step(state, "live-message", Input(data={"peer": peer}, value=str(detail)), FAILURE)
            else:
                step(state, "live-event", Input(data={"peer": peer, "event": event, "detail": str(detail)}), FAILURE)
            after()

        _kept["listener"] = create_proxy(report)
        channels.listen(_kept["listener"])
    return channels


def word(error) -> str:
    """live.js's one word in a rejected promise's error."""
    text = str(error)
    return next((one for one in WORDS if one in text), "failed")


def answer(state, after, name: str, peer: str, value: str):
    step(state, name, Input(data={"peer": peer}, value=value), FAILURE)
    after()


def describe(kind: str):
    """The runner of an offer or an answer: the SDP to "live-offered"/"live-answered", or the word to "live-failed"."""
    def runner(state, data, element, after, failure):
        async def begin():
            channels = await load(state, after)
            try:
                sdp = await (channels.offer(data["peer"]) if kind == "offer"
                             else channels.answer(data["peer"], data["sdp"]))
            except Exception as error:
                answer(state, after, "live-failed", data["peer"], word(error))
                return
            answer(state, after, f"live-{kind}ed", data["peer"], str(sdp))

        later(state, after, begin(), failure)

    return runner


def accept(state, data, element, after, failure):
    async def begin():
        try:
            await (await load(state, after)).accept(data["peer"], data["sdp"])
        except Exception as error:
            answer(state, after, "live-failed", data["peer"], word(error))

    later(state, after, begin(), failure)


def send(state, data, element, after, failure):
    channels = api()
    if channels is not None:
        channels.send(data["peer"], data["text"])  # false when its channel closed meanwhile: the catch-up covers it


def at_once(function: str, key: str):
    """The runner of a call to live.js's `function` with the command's `key`, nothing to wait for
    (nothing to do when live.js was never loaded)."""
    def runner(state, data, element, after, failure):
        channels = api()
        if channels is not None:
            getattr(channels, function)(data[key])

    return runner


close = at_once("close", "peer")


def wait(state, data, element, after, failure):
    async def begin():
        await asyncio.sleep(data["seconds"])
        answer(state, after, "live-waited", data["peer"], str(data["offer"]))

    later(state, after, begin(), failure)


# --- Rejoining with no scan (ui.core.standbys) ---------------------------------------------------------

def probe(state, data, element, after, failure):
    async def begin():
        channels = await load(state, after)
        try:
            found = await channels.probe()
            value = json.dumps({"munge": bool(found.munge), "print": str(found.fingerprint)})
        except Exception as error:
            value = json.dumps({"munge": False, "print": "", "word": word(error)})
        answer(state, after, "live-probed", "", value)

    later(state, after, begin(), failure)


def standby(state, data, element, after, failure):
    async def begin():
        channels = await load(state, after)
        try:
            sdp = await channels.standby(data["peer"], data["id"])
        except Exception as error:  # the browser could not make it: another instead (ui.core.standbys)
            step(state, "live-standby-failed", Input(data={"peer": data["peer"], "id": str(data["id"])},
                                                     value=word(error)), FAILURE)
            after()
            return
        step(state, "live-standby-made", Input(data={"peer": data["peer"], "id": str(data["id"])}, value=str(sdp)),
             FAILURE)
        after()

    later(state, after, begin(), failure)


def expect(state, data, element, after, failure):
    async def begin():
        try:
            await (await load(state, after)).expect(data["id"], data["sdp"])
        except Exception as error:
            step(state, "live-expect-failed", Input(data={"id": str(data["id"])}, value=word(error)), FAILURE)
            after()

    later(state, after, begin(), failure)


drop = at_once("drop", "id")


def rejoin(state, data, element, after, failure):
    async def begin():
        channels = await load(state, after)
        try:
            sdp = await channels.rejoin(data["peer"], data["sdp"], data["ufrag"], data["pwd"])
        except Exception as error:
            step(state, "live-rejoin-failed", Input(data={"peer": data["peer"], "id": str(data["id"])},
                                                    value=word(error)), FAILURE)
            after()
            return
        if not data["ufrag"]:
            step(state, "live-rejoin-answered", Input(data={"peer": data["peer"], "id": str(data["id"])},
                                                      value=str(sdp)), FAILURE)
            after()

    later(state, after, begin(), failure)


# --- The Screen Wake Lock ------------------------------------------------------------------------------

def wake_lock(state, data, element, after, failure):
    """Ask to keep the screen on (released by the browser whenever the page is hidden: asked again
    when it is shown), or let it sleep."""
    _kept["wanted"] = bool(data["on"])
    if _kept["visibility"] is None:
        _kept["visibility"] = create_proxy(lambda *_: _kept["wanted"] and later(state, after, hold(state, after),
                                                                                failure))
        document.addEventListener("visibilitychange", _kept["visibility"])
    later(state, after, hold(state, after) if data["on"] else release(state, after), failure)


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
