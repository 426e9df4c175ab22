"""The router: which regions each screen shows (the conflict screen of the active system, or a
shared one), and every other module of ui that is loaded by name.

Screens are imported on first use (their actions register as they load), so start-up compiles
only what the first screen needs; `preload` brings in the rest once the page is ready, one
module at a time. These names are the only imports import-linter cannot see: this module sits
above the screens, arrivals and systems (pyproject.toml's "ui-layers"), and
tests/unit/test_layers.py checks that each name is a module of those layers.
"""
from __future__ import annotations

import importlib

from ui.core.state import AppState
from ui.kit.html import Markup
from ui.screens.frame import view as frame

# screen -> (view module with regions(state), the modules of its actions)
CONFLICT_SCREENS = {
    "tension": ("ui.systems.tension.view", "ui.systems.tension.actions"),
    "anomaly": ("ui.systems.anomaly.view", "ui.systems.anomaly.actions"),
    "manners": ("ui.systems.manners.view", "ui.systems.manners.actions"),
}
SHARED_SCREENS = {
    "roster": ("ui.screens.roster.view", "ui.screens.roster.actions"),
    "log": ("ui.screens.log.view", "ui.screens.log.actions"),
    "tables": ("ui.screens.tables.view", "ui.screens.tables.actions"),
    # The Session screen also answers a link's join prompt (arrivals), and exports and imports files with
    # the Log's actions.
    "session": ("ui.screens.session.view", "ui.screens.session.actions", "ui.screens.session.scan",
                "ui.arrivals.links", "ui.screens.log.actions"),
    "live": ("ui.screens.live.view", "ui.screens.live.actions"),
}
# Where each stored draft of the table in progress is checked (ui.keeping.progress): imported only when
# such a draft is stored, so a start with nothing in progress loads no other screen.
DRAFT_CHECKS = {"tension": "ui.systems.tension.draft", "anomaly": "ui.systems.anomaly.draft",
                "manners": "ui.systems.manners.draft", "tables": "ui.screens.tables.editing",
                "editing": "ui.screens.roster.sheets"}
# Where a system says whether a card lies face down in its draft (ui.keeping.first_paint keeps no snapshot then).
FACE_DOWN = {"manners": "ui.systems.manners.draft"}


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
