"""Which regions each screen shows: the conflict screen of the active system, or a shared one;
and every other module of ui that is loaded by name.

Screens are imported on first use (their actions register as they load), so
start-up compiles only what the first screen needs; `preload` brings in the
rest once the page is ready, one module at a time. These names are the only imports
import-linter cannot see: this module sits in a layer above every screen and system,
and tests/unit/test_layers.py checks that each name is a module of those layers.
"""
from __future__ import annotations

import importlib

from ui.core.state import AppState
from ui.frame import view as frame
from ui.kit.html import Markup

# screen -> (view module with regions(state), the modules of its actions)
CONFLICT_SCREENS = {
    "tension": ("ui.tension.view", "ui.tension.actions"),
    "anomaly": ("ui.anomaly.view", "ui.anomaly.actions"),
    "manners": ("ui.manners.view", "ui.manners.actions"),
}
SHARED_SCREENS = {
    "roster": ("ui.roster.view", "ui.roster.actions"),
    "log": ("ui.log.view", "ui.log.actions"),
    "tables": ("ui.tables.view", "ui.tables.actions"),
    # The Session screen also exports and imports files with the Log's actions.
    "session": ("ui.session_screen.view", "ui.session_screen.actions", "ui.session_screen.links",
                "ui.session_screen.scan", "ui.log.actions", "ui.live.actions"),  # a live code scanned goes there
    "live": ("ui.live.view", "ui.live.actions"),
}
# Where each stored draft of the table in progress is checked (ui.progress): imported only when
# such a draft is stored, so a start with nothing in progress loads no other screen.
DRAFT_CHECKS = {"tension": "ui.tension.draft", "anomaly": "ui.anomaly.draft", "manners": "ui.manners.draft",
                "tables": "ui.tables.draft", "editing": "ui.roster.draft"}
# Where a system says whether a card lies face down in its draft (ui.first_paint keeps no snapshot then).
FACE_DOWN = {"manners": "ui.manners.draft"}


def module(name: str):
    """One of the modules named in the tables above."""
    return importlib.import_module(name)


def load(modules: tuple[str, ...]):
    view, *actions = modules
    for module in actions:
        importlib.import_module(module)
    return importlib.import_module(view)


def every_screen() -> list[tuple[str, ...]]:
    return [*CONFLICT_SCREENS.values(), *SHARED_SCREENS.values()]


def screen_regions(state: AppState) -> list[tuple[str, Markup]]:
    if state.screen == "conflict":
        return load(CONFLICT_SCREENS[state.system]).regions(state)
    return load(SHARED_SCREENS[state.screen]).regions(state)


def page(state: AppState) -> list[tuple[str, Markup]]:
    return frame.page_regions(state, screen_regions(state))
