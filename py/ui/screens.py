"""Which regions each screen shows: the conflict screen of the active system, or a shared one."""
from __future__ import annotations

from ui import layout, roster_view, tension_view
from ui.html import Markup, h
from ui.state import AppState

CONFLICT_SCREENS = {"tension": tension_view.regions}
SHARED_SCREENS = {"roster": roster_view.regions}


def not_ready(title: str) -> list[tuple[str, Markup]]:
    return [("screen", h("section", h("h2", title, class_="screen-title"),
                         h("p", "Coming soon.", class_="hint"), class_="card"))]


def screen_regions(state: AppState) -> list[tuple[str, Markup]]:
    if state.screen == "conflict":
        regions = CONFLICT_SCREENS.get(state.system)
        return regions(state) if regions else not_ready("Conflict")
    regions = SHARED_SCREENS.get(state.screen)
    return regions(state) if regions else not_ready(state.screen.title())


def page(state: AppState) -> list[tuple[str, Markup]]:
    return layout.page_regions(state, screen_regions(state))
