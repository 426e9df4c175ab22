"""Which regions each screen shows: the conflict screen of the active system, or a shared one."""
from __future__ import annotations

from ui import (anomaly_view, layout, log_view, manners_view, roster_view, session_view, tables_view,
                tension_view)
from ui.html import Markup
from ui.state import AppState

CONFLICT_SCREENS = {
    "tension": tension_view.regions,
    "anomaly": anomaly_view.regions,
    "manners": manners_view.regions,
}
SHARED_SCREENS = {
    "roster": roster_view.regions,
    "log": log_view.regions,
    "tables": tables_view.regions,
    "session": session_view.regions,
}


def screen_regions(state: AppState) -> list[tuple[str, Markup]]:
    if state.screen == "conflict":
        return CONFLICT_SCREENS[state.system](state)
    return SHARED_SCREENS[state.screen](state)


def page(state: AppState) -> list[tuple[str, Markup]]:
    return layout.page_regions(state, screen_regions(state))
