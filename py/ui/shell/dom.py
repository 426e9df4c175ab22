"""The only Python that touches the DOM: patch rendered regions into #app,
delegate events to `data-action` elements, keep focus, announce results.

Views return `[(region_id, Markup), ...]`; `Page.patch` sends only the regions
whose markup changed, in one call, to static/regions.js, which changes them in
place (morphdom): elements that stay the same are kept, so the browser restyles and
lays out only what changed, focus and scroll stay put, and a field the user is
typing in is never replaced under their fingers.
At start, `adopt` takes over the last table static/regions.js painted before
Python was ready: regions that match are left exactly as they are.
"""
from __future__ import annotations

import json

from ui.kit.html import flat
from ui.shell.page_objects import create_proxy, is_none, window


class Page:
    def __init__(self, root_id: str = "app"):
        self.root = window.document.getElementById(root_id)
        self.rendered: dict[str, str] = {}
        self.order: list[str] = []
        self.listeners = []  # proxies handed to JS must stay alive
        self.painted = False  # #app still shows the last table painted before Python was ready

    def adopt(self, painted: list[tuple[str, str]] | None):
        """Take the regions painted by static/regions.js (what they show is known markup)."""
        if painted:
            self.rendered = dict(painted)
            self.order = [region_id for region_id, _ in painted]
            self.painted = True

    def settle(self):
        """The player acts on the live table: painted content is no longer worth keeping."""
        self.painted = False

    def patch(self, regions, typing: bool = False, focus: str | None = None, announce: str = ""):
        """Show `regions`, then focus the element `focus` and say `announce` (aria-live: heard,
        not seen, so without the isolates around names, see ui.kit.html).
        While `typing`, the region holding the focused field is left alone. One call into
        JavaScript (static/regions.js), whatever changed: each call across costs more than
        comparing the markup here."""
        order = [region_id for region_id, _ in regions]
        rebuild = order != self.order
        changed = [[region_id, markup] for region_id, markup in regions
                   if rebuild or self.rendered.get(region_id) != markup]
        if not changed and not focus and not announce:
            return
        request = {"order": order if rebuild else None, "changed": changed, "typing": typing,
                   "keepPainted": self.painted, "focus": focus, "announce": flat(announce)}
        left = str(window.tableside.patch(json.dumps(request, ensure_ascii=False)))
        self.rendered.update((region_id, markup) for region_id, markup in changed if region_id != left)
        self.order = order

    def invalidate(self):
        """Forget what is on screen (after something else changed the DOM)."""
        self.rendered = {}
        self.order = []

    def delegate(self, event_type: str, handler):
        """Call handler(event, element) for events inside #app on a [data-action] element."""

        def on_event(event):
            target = event.target
            element = target.closest("[data-action]") if hasattr(target, "closest") else None
            if element is not None and not is_none(element) and self.root.contains(element):
                handler(event, element)

        proxy = create_proxy(on_event)
        self.listeners.append(proxy)
        self.root.addEventListener(event_type, proxy)
