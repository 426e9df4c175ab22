"""The Tables screen: both Manner Cards resolution tables as a reference, and the
session's Tension Table, which the GM reads, rewrites and rolls on.

Regions: the Manner Cards tables (drawn from rules, never retyped) and the
Tension Table; the active system's table comes first. A player's phone shows the Tension Table's
lines only: rolling on it and writing them are the GM's (ui.core.role.gm_controls). Markup only.
"""
from __future__ import annotations

import rules

from ui.core.role import changes_session, gm_controls
from ui.core.state import AppState
from ui.kit.dice import d6_face
from ui.kit.html import Markup, classes, h, isolate
from ui.screens.tables.editing import MAX_LINE, tables_screen
from ui.systems.manners import cards as cards_view
from ui.systems.manners import words as manners_words

# --- Manner Cards ------------------------------------------------------------------------------

def manner_tables(state: AppState) -> Markup:
    extra = [manners_words.NUMBERS_RULE, manners_words.TIES_RULE, rules.READINGS["manners-test-partial"]]
    return h("section",
             h("h2", "Manner Cards tables", class_="screen-title"),
             h("p", "Find the player's Manner in the rows and the other card in the columns.", class_="hint"),
             cards_view.resolution_table("test"),
             cards_view.resolution_table("confrontation"),
             h("h3", "What the cells mean", class_="card-title"),
             cards_view.legend(manners_words.CELL_MEANINGS, extra),
             class_="card reference-tables", data_testid="manner-tables")


# --- Tension Table -------------------------------------------------------------------------------

def rolled_block(table: list[str], rolled: int | None) -> Markup:
    if rolled is None:
        return Markup("")
    return h("div",
             h("span", d6_face(rolled), class_="die d6 kept rolled-die", role="img",
               aria_label=f"A d6 showing {rolled}"),
             h("p", h("strong", f"Rolled {rolled}: "), isolate(table[rolled - 1]), class_="rolled-line"),
             class_="tension-rolled", data_testid="tension-rolled")


def reading_view(state: AppState, draft: dict) -> list[Markup]:
    table = state.session["tension_table"]
    rolled = draft["rolled"]
    lines = [h("li",
               h("span", h("span", cards_view.MARK, class_="cell-mark", aria_hidden="true") if number == rolled
                 else Markup(""), str(number), class_="line-face", aria_hidden="true"),
               h("span", f"{number}: ", class_="visually-hidden"),
               h("span", isolate(line), class_="line-text"),
               class_=classes("tension-line", rolled=number == rolled),
               aria_current="true" if number == rolled else None, data_testid="tension-line")
             for number, line in enumerate(table, start=1)]
    if draft["confirm_restore"]:
        restore = h("div",
                    h("p", "Replace the six lines with the app's examples? Your own lines will be lost.",
                      class_="side-problem"),
                    h("div", h("button", "Yes, restore the examples", type="button", class_="button button-danger",
                               data_action="tables-restore-confirmed"),
                      h("button", "Keep my lines", type="button", class_="button", data_action="tables-restore-cancel"),
                      class_="row row-wrap"),
                    role="alert")
    else:
        restore = h("button", "Restore the examples…", type="button", class_="button",
                    data_action="tables-restore")
    listed = h("ol", *lines, class_="tension-lines", aria_label="Tension Table, one line per face of a d6")
    if not gm_controls(state):  # a player reads the lines; rolling and writing them are the GM's
        return [listed]
    return [
        listed,
        rolled_block(table, rolled),
        h("button", "Roll on the Tension Table", type="button", class_="button button-primary button-wide",
          data_action="tables-roll", id="tables-roll"),  # keeps the focus: roll again with Enter
        h("div", h("button", "Edit the lines", type="button", class_="button", data_action="tables-edit",
                   id="tables-edit"),
          restore, class_="row row-wrap tension-table-actions")
        if changes_session(state) else Markup(""),  # the lines are the session's: the GM on record writes them
    ]


def editing_view(state: AppState, draft: dict) -> list[Markup]:
    fields = [h("label",
                h("span", f"Line {number} (the die shows {number})", class_="field-label"),
                h("input", type="text", id=f"tension-line-{number}", value=line, maxlength=str(MAX_LINE),
                  autocomplete="off", data_action="tables-line", data_index=str(number - 1),
                  class_="field-input"),
                class_="field", for_=f"tension-line-{number}")
              for number, line in enumerate(draft["editing"], start=1)]
    return [
        h("p", f"Six lines, one per face of a d6; up to {MAX_LINE} characters each.", class_="hint hint-small"),
        *fields,
        h("div", h("button", "Save the lines", type="button", class_="button button-primary",
                   data_action="tables-save"),
          h("button", "Cancel", type="button", class_="button", data_action="tables-cancel"),
          class_="row row-wrap"),
    ]


def tension_table(state: AppState) -> Markup:
    draft = tables_screen(state)
    gm = gm_controls(state)
    writing = changes_session(state) and draft["editing"] is not None
    body = editing_view(state, draft) if writing else reading_view(state, draft)
    return h("section",
             h("h2", "Tension Table", class_="screen-title", id="tension-table-title"),
             h("p", "When Tension explodes (at each multiple of 10) the GM rolls a d6 here. "
                    "The GM writes the six lines for the session." if gm else
                    "When Tension explodes (at each multiple of 10) the GM rolls a d6 on this table, on the GM's "
                    "phone. The GM writes its six lines.", class_="hint"),
             *body,
             class_="card tension-table", aria_labelledby="tension-table-title", data_testid="tension-table")


def regions(state: AppState) -> list[tuple[str, Markup]]:
    tension = ("tables-tension", tension_table(state))
    manners = ("tables-manners", manner_tables(state))
    return [tension, manners] if state.system == "tension" else [manners, tension]
