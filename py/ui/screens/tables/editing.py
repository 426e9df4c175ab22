"""What the Tables screen is doing between taps: Tension Table lines being edited,
a restore to confirm, the last roll on the table."""
from __future__ import annotations

from ui.core import shapes
from ui.core.state import AppState

MAX_LINE = 200


def new_tables_screen() -> dict:
    return {"editing": None, "confirm_restore": False, "rolled": None}


def tables_screen(state: AppState) -> dict:
    """What the Tables screen is doing: lines being edited, a restore to confirm, the last roll."""
    return state.drafts.setdefault("tables", new_tables_screen())


SHAPE = shapes.fields({"editing": shapes.optional(shapes.listing(shapes.text(MAX_LINE), 6)),
                       "confirm_restore": shapes.flag, "rolled": shapes.optional(shapes.whole(1, 6))},
                      "the Tables screen")


def check_draft(data) -> dict:
    """A stored Tables draft as the app wrote it, or ShapeError."""
    return SHAPE(data)
