"""The runners of the commands only a browser can carry out (ui.shell.commands.TABLE): the native
share sheet or the clipboard, file downloads, reading a chosen file, the camera, asking to keep
storage and how full it is.

Each takes the state, the command's data, the element tapped, `after()` (shows what changed
once asynchronous work has finished) and the sentence to say if it fails. They run right after
the event, while the tap still counts as a user gesture (the share sheet and the clipboard
need one).
"""
from __future__ import annotations

import traceback

from ui.core.actions import Input
from ui.core.step import step
from ui.kit.html import isolate
from ui.shell import scanner, storage
from ui.shell.background import later
from ui.shell.page_objects import create_once_callable, document, is_none, to_js, window


def share(state, data, element, after, failure):
    """The native share sheet where there is one, else the clipboard."""

    navigator = window.navigator
    content = to_js({"title": data["title"], "url": data["url"]} if data["url"] else
                    {"title": data["title"], "text": data["text"]})
    can_share = hasattr(navigator, "share") and not is_none(navigator.share) and (
        not hasattr(navigator, "canShare") or navigator.canShare(content))
    if not can_share:
        copy(state, data, element, after, data["manual"])
        return
    promise = navigator.share(content)  # now, while the tap still counts as a user gesture

    async def finish():
        try:
            await promise
        except Exception as error:
            if "AbortError" in str(error):  # the player closed the share sheet
                return
            copy(state, data, element, after, data["manual"])
            return
        state.say(data.get("shared", "Shared."), "success")
        done(state, data)
        after()

    later(state, after, finish(), failure)


def done(state, data):
    """The link went out (shared or copied): run the action that notes it, if any."""
    if data.get("then"):
        step(state, data["then"], Input())


def copy(state, data, element, after, failure):

    clipboard = getattr(window.navigator, "clipboard", None)
    if clipboard is None or is_none(clipboard):
        state.fail(failure)
        return
    promise = clipboard.writeText(data["url"] or data["text"])

    async def finish():
        try:
            await promise
        except Exception:
            state.fail(failure)
        else:
            state.say(data.get("copied", "Link copied."), "success")
            done(state, data)
        after()

    later(state, after, finish(), failure)


def download(state, data, element, after, failure):
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


def read_file(state, data, element, after, failure):
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


def persist(state, data, element, after, failure):
    later(state, after, storage.ask_to_persist(state, after), failure)


def measure_space(state, data, element, after, failure):
    later(state, after, storage.measure_space(state, after), failure)


def scan(state, data, element, after, failure):
    """The camera in the scanner's <video>: the first code read, or why there is none, goes to
    the action the command names, then the page is saved and redrawn."""

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

    later(state, after, begin(), failure)


def stop_scan(state, data, element, after, failure):
    scanner.stop()
