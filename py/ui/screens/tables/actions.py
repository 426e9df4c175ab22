"""What taps do on the Tables screen: rewrite the Tension Table's six lines, restore the
examples, and roll on it. Each handler changes the AppState only."""
from __future__ import annotations

import rules

from ui.core.actions import Input, action
from ui.core.state import AppState
from ui.screens.tables.editing import MAX_LINE, tables_screen


@action("tables-edit")
def edit_lines(state: AppState, event: Input):
    draft = tables_screen(state)
    draft.update(editing=list(state.session["tension_table"]), confirm_restore=False)
    state.focus = "tension-line-1"


@action("tables-line")
def type_line(state: AppState, event: Input):
    draft = tables_screen(state)
    index = event.number("index")
    if draft["editing"] is not None and index is not None and 0 <= index < len(draft["editing"]):
        draft["editing"][index] = (event.value or "")[:MAX_LINE]


@action("tables-save")
def save_lines(state: AppState, event: Input):
    draft = tables_screen(state)
    if draft["editing"] is None:
        return
    try:
        lines = rules.check_tension_table(draft["editing"])
    except rules.RuleError as error:
        state.fail(str(error))
        return
    state.session = {**state.session, "tension_table": lines}
    draft["editing"] = None
    state.say("The Tension Table is saved.", "success")
    state.focus = "tables-edit"


@action("tables-cancel")
def cancel_edit(state: AppState, event: Input):
    tables_screen(state)["editing"] = None
    state.message = None
    state.focus = "tables-edit"


@action("tables-restore")
def ask_restore(state: AppState, event: Input):
    tables_screen(state)["confirm_restore"] = True


@action("tables-restore-cancel")
def keep_lines(state: AppState, event: Input):
    tables_screen(state)["confirm_restore"] = False


@action("tables-restore-confirmed")
def restore_examples(state: AppState, event: Input):
    draft = tables_screen(state)
    state.session = {**state.session, "tension_table": list(rules.DEFAULT_TENSION_TABLE)}
    draft.update(confirm_restore=False, editing=None)
    state.say("The example lines are back.", "success")


@action("tables-roll")
def roll_on_table(state: AppState, event: Input):
    draft = tables_screen(state)
    [face] = rules.roll(1, 6)
    draft["rolled"] = face
    line = rules.tension_table_line(face, state.session["tension_table"])
    state.announcement = f"Rolled {face} on the Tension Table: {line}"
