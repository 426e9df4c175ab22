"""Carrying out the effects a change queued (ui.core.commands): the browser's here (the
native share sheet or the clipboard, file downloads, reading a chosen file, the camera,
asking to keep storage, how full it is), storage through ui.keeping.runners.

`run` carries the queued effects out for ui.shell.app right after the event,
while the tap still counts as a user gesture (the share sheet and the clipboard
need one); `after()` shows what changed once an asynchronous one has finished.
Asynchronous work runs through `later`, which turns any failure into a message on
screen and a traceback in the console: nothing the player started fails silently.
"""
from __future__ import annotations

import asyncio
import traceback

from pyodide.ffi import create_once_callable
from pyscript import document, window
from pyscript.ffi import is_none, to_js

from ui.keeping import runners
from ui.core import commands
from ui.core.actions import Input
from ui.core.step import step
from ui.kit.html import isolate
from ui.shell import scanner, storage

_keep = []  # running tasks and proxies handed to JavaScript


def run(state, element, after):
    """Carry out the effects queued, in order, and those they queue in turn; `after()` shows
    what changed once an asynchronous one (share sheet, clipboard, file read, the log store)
    has finished."""
    while state.commands:
        kind, data = state.commands.pop(0)
        try:
            if kind in runners.RUNNERS:
                work = runners.run(state, kind, data)
                if work is not None:
                    later(state, after, finished(work, after), FAILURES.get(kind) or data["failure"])
            else:
                RUNNERS[kind](state, data, element, after)
        except Exception as error:  # the browser said no in a way we did not expect: say so, keep going
            traceback.print_exception(error)
            state.fail(FAILURES.get(kind) or data.get("failure") or "That did not work in this browser.")


async def finished(work, after):
    """Storage work waited on: show what it changed (unless it says nothing on screen did)."""
    if await work is not False:
        after()


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

    later(state, after, finish(), FAILURES[commands.SHARE])


def done(state, data):
    """The link went out (shared or copied): run the action that notes it, if any."""
    if data.get("then"):
        step(state, data["then"], Input())


def copy(state, data, element, after):

    clipboard = getattr(window.navigator, "clipboard", None)
    if clipboard is None or is_none(clipboard):
        state.fail(data.get("manual", FAILURES[commands.COPY]))
        return
    promise = clipboard.writeText(data["url"])

    async def finish():
        try:
            await promise
        except Exception:
            state.fail(data.get("manual", FAILURES[commands.COPY]))
        else:
            state.say(data.get("copied", "Link copied."), "success")
            done(state, data)
        after()

    later(state, after, finish(), data.get("manual", FAILURES[commands.COPY]))


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
    failure = f"Something went wrong with “{isolate(name[:60])}”. Nothing saved was changed."

    async def finish():
        try:
            text = str(await promise)
        except Exception:
            state.fail(f"“{isolate(name[:60])}” could not be read.")
        else:
            step(state, data["action"], Input(data={"name": name}, value=text), failure)
        after()

    later(state, after, finish(), failure)


def persist(state, data, element, after):
    later(state, after, storage.ask_to_persist(state, after), FAILURES[commands.PERSIST])


def measure_space(state, data, element, after):
    later(state, after, storage.measure_space(state, after), FAILURES[commands.MEASURE_SPACE])


def scan(state, data, element, after):
    """The camera in the scanner's <video>: the first code read, or why there is none, goes to
    the action the effect names, then the page is saved and redrawn."""

    def answer(name: str, value: str):
        step(state, name, Input(value=value), "That code could not be opened. Nothing was changed.")
        after()

    async def begin():
        try:
            await scanner.start(data["video"], lambda text: answer(data["found"], text),
                                lambda word: answer(data["failed"], word), data.get("hold", ""))
        except Exception as error:  # scan.js or the decoder did not load: say so, close the scanner
            traceback.print_exception(error)
            answer(data["failed"], "failed")

    later(state, after, begin(), FAILURES[commands.SCAN])


def stop_scan(state, data, element, after):
    scanner.stop()


RUNNERS = {commands.SHARE: share, commands.COPY: copy, commands.DOWNLOAD: download, commands.READ_FILE: read_file,
           commands.PERSIST: persist, commands.SCAN: scan, commands.STOP_SCAN: stop_scan,
           commands.MEASURE_SPACE: measure_space}
FAILURES = {
    commands.SHARE: "Sharing did not work here: copy the link from the box instead.",
    commands.COPY: "Couldn't copy here: select the link in the box and copy it.",
    commands.DOWNLOAD: "This browser did not save the file.",
    commands.READ_FILE: "That file could not be read.",
    commands.PERSIST: "The browser did not answer about keeping data.",
    commands.MEASURE_SPACE: "The browser did not say how much room it has left.",
    commands.FLUSH: "Saving the log did not work in this browser. Export the session to keep it.",
    commands.READ_OLDER: "The older entries of the log could not be read.",
    commands.SCAN: "The camera could not be started here. Paste the link instead.",
    commands.STOP_SCAN: "The camera did not stop; reload the page to turn it off.",
}
