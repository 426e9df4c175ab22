"""The browser side of the first paint: the last table's snapshot (ui/keeping/first_paint.py says what it holds).

Written DELAY_S after the last change and at once when the page is hidden or left
(a closed tab, a phone put away), never during a tap; skipped when its text has not
changed. At start, `painted()` hands ui.shell.dom.Page what static/regions.js painted.
"""
from __future__ import annotations

import asyncio
import json

from ui.keeping import first_paint
from ui.shell.page_objects import create_proxy, document, is_none, window

DELAY_S = 1.0


def painted() -> list[tuple[str, str]] | None:
    """The regions static/regions.js painted from the snapshot before Python was ready."""
    regions = getattr(window.tableside, "painted", None)
    if regions is None or is_none(regions):
        return None
    return [(str(region_id), str(markup)) for region_id, markup in regions.to_py()]


class Keeper:
    """Keeps `tableside.snapshot` up to date with the table `current()` returns."""

    def __init__(self, current):
        self.current = current
        self.drawn = None  # the regions last drawn: the snapshot reuses them when it can
        self.timer = None  # the pending write after a change
        self.written: str | None = None  # the text last written (or removed: None)
        self.listeners = []  # proxies handed to JS must stay alive

    def start(self):
        for target, kind, handler in ((document, "visibilitychange", self.on_visibility),
                                      (window, "pagehide", self.on_leave)):
            self.listeners.append(create_proxy(handler))
            target.addEventListener(kind, self.listeners[-1])

    def redrawn(self, drawn):
        """The page was drawn again (`drawn`, its regions): the snapshot is written a moment later."""
        self.drawn = drawn
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_event_loop().call_later(DELAY_S, self.write)

    def on_visibility(self, _event=None):
        if document.visibilityState == "hidden":
            self.on_leave()

    def on_leave(self, _event=None):
        if self.timer is not None:
            self.timer.cancel()
            self.write()

    def write(self):
        self.timer = None
        state = self.current()
        if state.library is None:
            return
        store = state.library.store
        data = first_paint.content(state, str(document.documentElement.dataset.version), store.get, self.drawn)
        text = None if data is None else json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        if text == self.written:
            return
        try:
            if text is None:
                store.remove(first_paint.KEY)
            else:
                store.set(first_paint.KEY, text)
        except Exception:  # storage full or refused: the next start simply waits for Python
            store.remove(first_paint.KEY)
        self.written = text
