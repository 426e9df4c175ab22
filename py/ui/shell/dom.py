"""The only place that touches the DOM: patch rendered regions into #app,
delegate events to `data-action` elements, keep focus, announce results.

Views return `[(region_id, Markup), ...]`; `Page.patch` changes only the regions
whose markup changed, and those in place (morphdom, through static/regions.js):
elements that stay the same are kept, so the browser restyles and lays out only
what changed, and a field the user is typing in is never replaced under their fingers.
At start, `adopt` takes over the last table static/regions.js painted before
Python was ready: regions that match are left exactly as they are.
"""
from __future__ import annotations

from pyscript import document, window
from pyscript.ffi import create_proxy, is_none

from ui.kit.html import flat

TEXT_INPUTS = {"text", "search", "number", "tel", "url", "email", ""}


class Page:
    def __init__(self, root_id: str = "app"):
        self.root = document.getElementById(root_id)
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

    def patch(self, regions, typing: bool = False):
        """Show `regions`; while `typing`, leave the region holding the focused field alone."""
        order = [region_id for region_id, _ in regions]
        focus = remember_focus()
        had_focus = self.root.contains(document.activeElement)
        if order != self.order:
            morph(self.root, "".join(f'<div id="{region_id}" class="region">{markup}</div>'
                                     for region_id, markup in regions), self.painted)
            self.rendered = dict(regions)
            self.order = order
        else:
            busy = focused_region(focus) if typing else None
            for region_id, markup in regions:
                if self.rendered.get(region_id) != markup and region_id != busy:
                    morph(document.getElementById(region_id), markup, self.painted)
                    self.rendered[region_id] = markup
        restore_focus(focus)
        if document.activeElement == document.body and had_focus:
            self.root.focus()  # the focused control was replaced: stay inside the app, not on <body>

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


def morph(element, markup: str, keep_painted: bool):
    """Make `element`'s children `markup`, changing only what differs. `keep_painted`: a
    placeholder (aria-busy, e.g. "Working out the odds…") leaves painted content in its place."""
    window.tableside.morph(element, markup, keep_painted)


def remember_focus():
    element = document.activeElement
    if is_none(element) or not element.id:
        return None
    selection = None
    if element.tagName == "INPUT" and element.type in ("text", "search"):
        selection = (element.selectionStart, element.selectionEnd)
    return element.id, selection


def focused_region(focus):
    if focus is None:
        return None
    element = document.getElementById(focus[0])
    if is_none(element) or element.tagName not in ("INPUT", "TEXTAREA"):
        return None
    region = element.closest(".region")
    return None if is_none(region) else region.id


def restore_focus(focus):
    if focus is None:
        return
    element_id, selection = focus
    element = document.getElementById(element_id)
    if is_none(element):
        return
    if element == document.activeElement:
        return
    element.focus()
    if selection is not None and not is_none(selection[0]):
        element.setSelectionRange(*selection)


def focus(element_id: str):
    element = document.getElementById(element_id)
    if not is_none(element):
        element.focus()


def announce(sentence: str):
    """Say one sentence to screen readers (the #announcer aria-live region). It is heard, not
    seen: the isolates around names (ui.kit.html) are left out."""
    announcer = document.getElementById("announcer")
    if not is_none(announcer):
        announcer.textContent = ""
        announcer.textContent = flat(sentence)
