"""Which regions each screen shows: the conflict screen of the active system, or a shared one.

Screens are imported on first use (their actions register as they load), so
start-up compiles only what the first screen needs; `preload` brings in the
rest once the page is ready, one module at a time.
"""
from __future__ import annotations

import importlib

from ui import layout
from ui.html import Markup
from ui.state import AppState

# screen -> (view module with regions(state), module of its actions)
CONFLICT_SCREENS = {
    "tension": ("ui.tension_view", "ui.tension_actions"),
    "anomaly": ("ui.anomaly_view", "ui.anomaly_actions"),
    "manners": ("ui.manners_view", "ui.manners_actions"),
}
SHARED_SCREENS = {
    "roster": ("ui.roster_view", "ui.roster_actions"),
    "log": ("ui.log_view", "ui.log_actions"),
    "tables": ("ui.tables_view", "ui.tables_actions"),
    "session": ("ui.session_view", "ui.session_actions"),
}


def load(modules: tuple[str, str]):
    view, actions = modules
    importlib.import_module(actions)
    return importlib.import_module(view)


def every_screen() -> list[tuple[str, str]]:
    return [*CONFLICT_SCREENS.values(), *SHARED_SCREENS.values()]


def screen_regions(state: AppState) -> list[tuple[str, Markup]]:
    if state.screen == "conflict":
        return load(CONFLICT_SCREENS[state.system]).regions(state)
    return load(SHARED_SCREENS[state.screen]).regions(state)


def page(state: AppState) -> list[tuple[str, Markup]]:
    return layout.page_regions(state, screen_regions(state))
