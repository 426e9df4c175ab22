"""Browser work that actions queue (ui.core.effects): the native share sheet or the
clipboard, file downloads, reading a chosen file, asking to keep storage.

`run` carries the queued effects out for ui.shell.app right after the event,
while the tap still counts as a user gesture (the share sheet and the clipboard
need one); `after()` saves and re-renders once an asynchronous one has finished.
Asynchronous work runs through `later`, which turns any failure into a message on
screen and a traceback in the console: nothing the player started fails silently.
"""
from __future__ import annotations

import asyncio
import traceback

from pyodide.ffi import create_once_callable
from pyscript import document, window
from pyscript.ffi import is_none, to_js

from ui.core import effects
from ui.core.actions import Input, dispatch
from ui.kit.html import isolate
from ui.shell import scanner, storage

_keep = []  # running tasks and proxies handed to JavaScript


def run(state, element, after):
    """Carry out the effects the last action queued; `after()` saves and re-renders once an
    asynchronous one (share sheet, clipboard, file read) has finished."""
    queued, state.effects = state.effects, []
    for kind, data in queued:
        try:
            RUNNERS[kind](state, data, element, after)
        except Exception as error:  # the browser said no in a way we did not expect: say so, keep going
            traceback.print_exception(error)
            state.fail(FAILURES.get(kind, "That did not work in this browser."))


def later(state, after, work, failure: str):
    """Run coroutine `work` in the background. Anything that goes wrong in it becomes
    `failure` on screen (its traceback goes to the console): background work never fails
    silently, and a lost task never leaves the player waiting for nothing."""

    async def guarded():
        try:
            await work
        except Exception as error:
            traceback.print_exception(error)
            state.fail(failure)
            after()

    task = asyncio.ensure_future(guarded())
    _keep.append(task)
    task.add_done_callback(_keep.remove)


def share(state, data, element, after):
    """The native share sheet where there is one, else the clipboard."""

    navigator = window.navigator
    content = to_js({"title": data["title"], "url": data["url"]})
    can_share = hasattr(navigator, "share") and not is_none(navigator.share) and (
        not hasattr(navigator, "canShare") or navigator.canShare(content))
    if not can_share:
        copy(state, data, element, after)
        return
    promise = navigator.share(content)  # now, while the tap still counts as a user gesture

    async def finish():
        try:
            await promise
        except Exception as error:
            if "AbortError" in str(error):  # the player closed the share sheet
                return
            copy(state, data, element, after)
            return
        state.say(data.get("shared", "Shared."), "success")
        done(state, data)
        after()

    later(state, after, finish(), FAILURES[effects.SHARE])


def done(state, data):
    """The link went out (shared or copied): run the action that notes it, if any."""
    if data.get("then"):
        dispatch(state, data["then"], Input())


def copy(state, data, element, after):

    clipboard = getattr(window.navigator, "clipboard", None)
    if clipboard is None or is_none(clipboard):
        state.fail(data.get("manual", FAILURES[effects.COPY]))
        return
    promise = clipboard.writeText(data["url"])

    async def finish():
        try:
            await promise
        except Exception:
            state.fail(data.get("manual", FAILURES[effects.COPY]))
        else:
            state.say(data.get("copied", "Link copied."), "success")
            done(state, data)
        after()

    later(state, after, finish(), data.get("manual", FAILURES[effects.COPY]))


def download(state, data, element, after):
    """A file download made in the page: a Blob, an object URL and a click on a link."""

    blob = window.Blob.new(to_js([data["text"]]), to_js({"type": data.get("type", "application/json")}))
    url = window.URL.createObjectURL(blob)
    anchor = document.createElement("a")
    anchor.href = url
    anchor.download = data["name"]
    anchor.hidden = True
    document.body.appendChild(anchor)
    anchor.click()
    anchor.remove()
    window.setTimeout(create_once_callable(lambda: window.URL.revokeObjectURL(url)), 60_000)


def read_file(state, data, element, after):
    """Read the file chosen in a file input, then run action `data["action"]` with its text."""

    files = getattr(element, "files", None)
    if files is None or not files.length:
        return
    chosen = files.item(0)
    name = str(chosen.name)
    element.value = ""  # choosing the same file again must fire "change" again
    if chosen.size > data.get("limit", 8_000_000):
        state.fail(f"“{isolate(name[:60])}” is far larger than any Tableside session file.")
        return
    promise = chosen.text()

    async def finish():
        try:
            text = str(await promise)
        except Exception:
            state.fail(f"“{isolate(name[:60])}” could not be read.")
        else:
            dispatch(state, data["action"], Input(data={"name": name}, value=text))
        after()

    later(state, after, finish(), f"Something went wrong with “{isolate(name[:60])}”. "
                                  "Nothing saved was changed.")


def persist(state, data, element, after):
    later(state, after, storage.ask_to_persist(state, after), FAILURES[effects.PERSIST])


def job(state, data, element, after):
    """Work on the log store an action started; its own effects (a download) run when it ends."""

    async def finish():
        await data["work"](state)
        run(state, element, after)
        after()

    later(state, after, finish(), data["failure"])


def scan(state, data, element, after):
    """The camera in the scanner's <video>: the first code read, or why there is none, goes to
    the action the effect names, then the page is saved and redrawn."""

    def answer(name: str, value: str):
        try:
            dispatch(state, name, Input(value=value))
        except Exception as error:  # whatever the code held, the table stays
            traceback.print_exception(error)
            state.fail("That code could not be opened. Nothing was changed.")
        after()

    async def begin():
        try:
            await scanner.start(data["video"], lambda text: answer(data["found"], text),
                                lambda word: answer(data["failed"], word))
        except Exception as error:  # scan.js or the decoder did not load: say so, close the scanner
            traceback.print_exception(error)
            answer(data["failed"], "failed")

    later(state, after, begin(), FAILURES[effects.SCAN])


def stop_scan(state, data, element, after):
    scanner.stop()


RUNNERS = {effects.SHARE: share, effects.COPY: copy, effects.DOWNLOAD: download, effects.READ_FILE: read_file,
           effects.PERSIST: persist, effects.JOB: job, effects.SCAN: scan, effects.STOP_SCAN: stop_scan}
FAILURES = {
    effects.SHARE: "Sharing did not work here: copy the link from the box instead.",
    effects.COPY: "Couldn't copy here: select the link in the box and copy it.",
    effects.DOWNLOAD: "This browser did not save the file.",
    effects.READ_FILE: "That file could not be read.",
    effects.PERSIST: "The browser did not answer about keeping data.",
    effects.JOB: "That did not work in this browser. Nothing saved was changed.",
    effects.SCAN: "The camera could not be started here. Paste the link instead.",
    effects.STOP_SCAN: "The camera did not stop; reload the page to turn it off.",
}
