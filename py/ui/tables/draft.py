"""What the Tables screen is doing between taps: Tension Table lines being edited,
a restore to confirm, the last roll on the table."""
from __future__ import annotations

from ui.core.state import AppState

MAX_LINE = 200


def new_tables_draft() -> dict:
    return {"editing": None, "confirm_restore": False, "rolled": None}


def tables_draft(state: AppState) -> dict:
    """What the Tables screen is doing: lines being edited, a restore to confirm, the last roll."""
    return state.drafts.setdefault("tables", new_tables_draft())
