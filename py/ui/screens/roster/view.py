"""The roster screen: the active system's characters and adversaries, and the sheet editor.

Each system brings its own sheet module (KINDS, blank, summary, form); this
module lists entries and frames the editor (name, kind, save, delete).
"""
from __future__ import annotations

from session import SYSTEMS

from ui.core.role import changes_session, may_edit
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
    adding = changes_session(state)  # who is in the roster is the GM's: a player's phone adds no one
    adds = [h("button", f"Add {with_article(label.lower())}", type="button", class_="button button-primary",
              data_action="roster-add", data_kind=kind) for kind, label in sheet.KINDS] if adding else []
    intro = h("p", f"{SYSTEMS[state.system]} sheets. Pick one in a conflict and its numbers fill in."
                   + ("" if adding else " The GM adds and removes people, on the GM's phone."), class_="hint")
    items = h("ul", *(entry_card(state, entry) for entry in entries), class_="roster-list") if entries else \
        h("p", "Nobody here yet. Add the party and the adversaries; or roll without a sheet." if adding else
          "Nobody here yet: the GM adds the party on the GM's phone.", class_="hint")
    return h("section", h("h2", "Roster", class_="screen-title"), intro, h("div", *adds, class_="row row-wrap"),
             items, class_="roster")


def editor(state: AppState) -> Markup:
    editing = state.editing
    entry = editing["entry"]
    sheet = sheet_module(entry["system"])
    kind_label = dict(sheet.KINDS).get(entry["kind"], entry["kind"])
    name = isolate(entry["name"]) if entry.get("name") else kind_label
    title = f"New {kind_label.lower()}" if editing["is_new"] else f"Edit {name}"
    whole = changes_session(state)  # who it is (name) and whether it is in the roster are the GM's
    delete = Markup("") if editing["is_new"] or not whole else h(
        "button", "Delete…", type="button", class_="button button-danger", data_action="roster-delete")
    if editing.get("confirm_delete") and whole:
        delete = h("div", h("p", f"Delete {isolate(entry.get('name'))} from every rule system? This cannot be undone.", class_="side-problem"),
                   h("div", h("button", "Yes, delete", type="button", class_="button button-danger",
                              data_action="roster-delete-confirmed"),
                     h("button", "Keep", type="button", class_="button", data_action="roster-delete-cancel"),
                     class_="row"),
                   role="alert")
    return h("section",
             h("h2", title, class_="screen-title", id="sheet-title"),
             text_field("Name", "name", entry.get("name", ""), placeholder="Name") if whole or editing["is_new"] else
             h("p", f"Only the GM's phone renames or removes {name}.", class_="hint hint-small",
               data_testid="sheet-name-read"),
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
