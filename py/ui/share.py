"""Getting sessions and rolls off this phone and onto others: share links, the QR code,
the native share sheet or the clipboard, file downloads and file imports.

`link`, `qr` and `qr_markup` are pure (views call them under CPython). Actions
never touch the browser: they queue effects in `state.effects` — ("share",
{...}), ("download", {...}), ("read-file", {...}), ("persist", {}) — and `run`
carries them out for app.py right after the event, while the tap still counts
as a user gesture (the share sheet and the clipboard need one). Browser modules
are imported inside the functions that use them.
"""
from __future__ import annotations

import asyncio
from functools import lru_cache
from urllib.parse import unquote

from ui.html import Markup, h

QR_ERROR = "l"  # screens don't get scratched; the smallest code has the largest modules
QR_BORDER = 4  # the quiet zone the QR standard asks for, in modules
_keep = []  # running tasks and proxies handed to JavaScript


# --- Pure: links and QR codes -----------------------------------------------------------------

def link(base_url: str, fragment: str) -> str:
    return f"{base_url.split('#')[0]}#{fragment}"


@lru_cache(maxsize=8)
def qr(url: str) -> tuple[str, str, int]:
    """(inline SVG, designator like "14-L", modules across without the quiet zone) of the QR code for `url`.
    The SVG is segno's own: no user text inside it, no style attribute (CSP style-src 'self').
    segno is imported on first use, keeping it out of the app's start-up."""
    import segno

    code = segno.make_qr(url, error=QR_ERROR, boost_error=True)
    svg = code.svg_inline(border=QR_BORDER, dark="#000", light="#fff", omitsize=True, svgclass="qr-code",
                          lineclass=None)
    return svg, code.designator, code.symbol_size(border=0)[0]


def qr_markup(url: str, label: str) -> Markup:
    svg, _, _ = qr(url)
    return h("div", Markup(svg), class_="qr", role="img", aria_label=label, data_testid="qr")


# --- Browser: reading links from the address bar --------------------------------------------------

def page_address() -> str:
    from pyscript import window
    return str(window.location.href).split("#")[0]


def take_fragment() -> str | None:
    """A Tableside link in the address bar's fragment, removed from the address bar (so a
    reload doesn't open it again); None when the fragment is not a link (e.g. #app)."""
    from pyscript import window

    from session import looks_like_link

    fragment = unquote(str(window.location.hash or "")[1:])
    if not looks_like_link(fragment):
        return None
    location = window.location
    window.history.replaceState(window.history.state, "", f"{location.pathname}{location.search}")
    return fragment


# --- Browser: effects queued by actions -------------------------------------------------------------

def run(state, element, after):
    """Carry out the effects the last action queued; `after()` saves and re-renders once an
    asynchronous one (share sheet, clipboard, file read) has finished."""
    effects, state.effects = state.effects, []
    for kind, data in effects:
        try:
            RUNNERS[kind](state, data, element, after)
        except Exception:  # the browser said no in a way we did not expect: say so, keep going
            state.fail(FAILURES.get(kind, "That did not work in this browser."))


def later(coroutine):
    task = asyncio.ensure_future(coroutine)
    _keep.append(task)
    task.add_done_callback(_keep.remove)


def share(state, data, element, after):
    """The native share sheet where there is one, else the clipboard."""
    from pyscript import window
    from pyscript.ffi import is_none, to_js

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
        after()

    later(finish())


def copy(state, data, element, after):
    from pyscript import window
    from pyscript.ffi import is_none

    clipboard = getattr(window.navigator, "clipboard", None)
    if clipboard is None or is_none(clipboard):
        state.fail(data.get("manual", FAILURES["copy"]))
        return
    promise = clipboard.writeText(data["url"])

    async def finish():
        try:
            await promise
        except Exception:
            state.fail(data.get("manual", FAILURES["copy"]))
        else:
            state.say(data.get("copied", "Link copied."), "success")
        after()

    later(finish())


def download(state, data, element, after):
    """A file download made in the page: a Blob, an object URL and a click on a link."""
    from pyodide.ffi import create_once_callable
    from pyscript import document, window
    from pyscript.ffi import to_js

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
    from ui.actions import Input, dispatch

    files = getattr(element, "files", None)
    if files is None or not files.length:
        return
    chosen = files.item(0)
    name = str(chosen.name)
    element.value = ""  # choosing the same file again must fire "change" again
    if chosen.size > data.get("limit", 8_000_000):
        state.fail(f"“{name[:60]}” is far larger than any Tableside session file.")
        return
    promise = chosen.text()

    async def finish():
        try:
            text = str(await promise)
        except Exception:
            state.fail(f"“{name[:60]}” could not be read.")
        else:
            dispatch(state, data["action"], Input(data={"name": name}, value=text))
        after()

    later(finish())


def persist(state, data, element, after):
    from ui import storage
    later(storage.ask_to_persist(state, after))


RUNNERS = {"share": share, "copy": copy, "download": download, "read-file": read_file, "persist": persist}
FAILURES = {
    "share": "Sharing did not work here: copy the link from the box instead.",
    "copy": "Couldn't copy here: select the link in the box and copy it.",
    "download": "This browser did not save the file.",
    "read-file": "That file could not be read.",
    "persist": "The browser did not answer about keeping data.",
}
