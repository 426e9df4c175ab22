"""The roster screen: the active system's characters and adversaries, and the sheet editor.

Each system brings its own sheet module (KINDS, blank, summary, form); this
module lists entries and frames the editor (name, kind, save, delete).
"""
from __future__ import annotations

from session import SYSTEMS

from ui.core.role import is_player, may_edit
from ui.core.state import AppState
from ui.kit.fields import text_field, with_article
from ui.kit.html import Markup, h, isolate
from ui.screens.roster.sheets import SHEETS, sheet_module


def entry_card(state: AppState, entry: dict) -> Markup:
    sheet = sheet_module(entry["system"])
    kind_label = dict(sheet.KINDS).get(entry["kind"], entry["kind"])
    return h("li",
             h("div", h("h3", isolate(entry["name"]), class_="roster-name"), h("span", kind_label, class_="badge"),
               class_="roster-head"),
             sheet.summary(entry),
             h("div",
               h("button", "Edit", type="button", class_="button", data_action="roster-edit", data_id=entry["id"],
                 aria_label=f"Edit {entry['name']}"),
               class_="row") if may_edit(state, entry) else Markup(""),
             class_="card roster-card", data_testid="roster-entry")


def roster_list(state: AppState) -> Markup:
    if state.system not in SHEETS:
        return h("section", h("h2", "Roster", class_="screen-title"),
                 h("p", "Sheets for this system are coming soon.", class_="hint"), class_="card")
    sheet = sheet_module(state.system)
    entries = state.roster()
    kinds = [(kind, label) for kind, label in sheet.KINDS if kind == "character" or not is_player(state)]
    adds = [h("button", f"Add {with_article(label.lower())}", type="button", class_="button button-primary",
              data_action="roster-add", data_kind=kind) for kind, label in kinds]
    intro = h("p", f"{SYSTEMS[state.system]} sheets. Pick one in a conflict and its numbers fill in.",
              class_="hint")
    items = h("ul", *(entry_card(state, entry) for entry in entries), class_="roster-list") if entries else \
        h("p", "Nobody here yet. Add the party and the adversaries; or roll without a sheet.", class_="hint")
    return h("section", h("h2", "Roster", class_="screen-title"), intro, h("div", *adds, class_="row row-wrap"),
             items, class_="roster")


def editor(state: AppState) -> Markup:
    editing = state.editing
    entry = editing["entry"]
    sheet = sheet_module(entry["system"])
    kind_label = dict(sheet.KINDS).get(entry["kind"], entry["kind"])
    name = isolate(entry["name"]) if entry.get("name") else kind_label
    title = f"New {kind_label.lower()}" if editing["is_new"] else f"Edit {name}"
    delete = Markup("") if editing["is_new"] else h(
        "button", "Delete…", type="button", class_="button button-danger", data_action="roster-delete")
    if editing.get("confirm_delete"):
        delete = h("div", h("p", f"Delete {isolate(entry.get('name'))}? This cannot be undone.", class_="side-problem"),
                   h("div", h("button", "Yes, delete", type="button", class_="button button-danger",
                              data_action="roster-delete-confirmed"),
                     h("button", "Keep", type="button", class_="button", data_action="roster-delete-cancel"),
                     class_="row"),
                   role="alert")
    return h("section",
             h("h2", title, class_="screen-title", id="sheet-title"),
             text_field("Name", "name", entry.get("name", ""), placeholder="Name"),
             sheet.form(entry),
             h("div", h("button", "Save", type="button", class_="button button-primary", data_action="roster-save"),
               h("button", "Cancel", type="button", class_="button", data_action="roster-cancel"),
               class_="row sheet-actions"),
             delete,
             class_="card sheet-editor", aria_labelledby="sheet-title", data_testid="sheet-editor")


def regions(state: AppState) -> list[tuple[str, Markup]]:
    if state.editing is not None:
        return [("roster", editor(state))]
    return [("roster", roster_list(state))]
