"""Adding, editing and removing roster entries. The sheet being edited is a copy;
Save checks it (session.check_roster_entry) and only then puts it in the session. A person is
typed once: a new one gets a sheet in every rule system, a new name renames all their sheets,
and deleting them deletes every sheet (ui.core.people)."""
from __future__ import annotations

import copy

from session import check_roster_entry, new_id, SessionError

from ui.core.actions import Input, action
from ui.core import people
from ui.core.events import entry_added
from ui.core.state import AppState
from ui.kit.fields import TEMPLATES
from ui.kit.html import isolate
from ui.screens.roster.sheets import sheet_module

MAX_LIST = 30


def walk(entry: dict, path: str):
    """(container, key) for a dotted path like "skills.0.rating"."""
    parts = path.split(".")
    container = entry
    for part in parts[:-1]:
        container = container[int(part)] if isinstance(container, list) else container.setdefault(part, {})
    last = parts[-1]
    return container, int(last) if isinstance(container, list) else last


@action("roster-add")
def add_entry(state: AppState, event: Input):
    kind = event.text("kind", "character")
    sheet = sheet_module(state.system)
    entry = {"id": new_id(), "system": state.system, "kind": kind, "name": "", **sheet.blank(kind)}
    state.editing = {"entry": entry, "is_new": True}


@action("roster-edit")
def edit_entry(state: AppState, event: Input):
    entry = state.entry(event.text("id"))
    if entry is not None:
        state.editing = {"entry": copy.deepcopy(entry), "is_new": False}


@action("sheet-set")
def set_field(state: AppState, event: Input):
    if state.editing is None:
        return
    kind = event.text("type")
    if kind == "bool":
        value = bool(event.checked)
    elif kind == "int":
        number = event.number(None)
        value = number if number is not None else (event.value or "")
    else:
        value = event.value or ""
    try:
        container, key = walk(state.editing["entry"], event.text("path"))
        container[key] = value
    except (KeyError, IndexError, ValueError, TypeError):
        state.fail("That field could not be changed; please reopen the sheet.")


@action("sheet-add")
def add_item(state: AppState, event: Input):
    if state.editing is None:
        return
    container, key = walk(state.editing["entry"], event.text("path"))
    items = container.setdefault(key, [])
    if len(items) >= MAX_LIST:
        state.fail(f"A list on a sheet holds at most {MAX_LIST} entries.")
        return
    items.append(copy.deepcopy(TEMPLATES[event.text("template", "rated")]))


@action("sheet-remove")
def remove_item(state: AppState, event: Input):
    if state.editing is None:
        return
    container, key = walk(state.editing["entry"], event.text("path"))
    index = event.number("index")
    if index is not None and 0 <= index < len(container[key]):
        container[key].pop(index)


@action("roster-save")
def save_entry(state: AppState, event: Input):
    if state.editing is None:
        return
    try:
        entry = check_roster_entry(state.editing["entry"])
    except SessionError as error:
        state.fail(str(error))
        return
    if state.editing["is_new"]:
        roster = people.everywhere([item for item in state.session["roster"] if item["id"] != entry["id"]] + [entry],
                                   entry)
        refusal = people.no_room(state.replica, roster, entry["name"])
        if refusal:  # refused before it is made: the session would not load again (the sheet stays open)
            state.fail(refusal)
            return
    else:
        roster = [entry if item["id"] == entry["id"] else item
                  for item in people.renamed(state.session["roster"], entry["id"], entry["name"])]
    state.session = {**state.session, "roster": roster}
    is_new = state.editing["is_new"]
    state.editing = None
    state.say(f"{isolate(entry['name'])} saved.", "success")
    if is_new:
        entry_added(state, entry)


@action("roster-cancel")
def cancel_edit(state: AppState, event: Input):
    state.editing = None
    state.message = None


@action("roster-delete")
def ask_delete(state: AppState, event: Input):
    if state.editing is not None:
        state.editing["confirm_delete"] = True


@action("roster-delete-cancel")
def keep_entry(state: AppState, event: Input):
    if state.editing is not None:
        state.editing["confirm_delete"] = False


@action("roster-delete-confirmed")
def delete_entry(state: AppState, event: Input):
    if state.editing is None:
        return
    entry = state.editing["entry"]
    state.session = {**state.session, "roster": people.without(state.session["roster"], entry["id"])}
    state.editing = None
    state.drafts.pop(state.system, None)  # a draft may point at the deleted entry (others draw a missing one)
    state.say(f"{isolate(entry['name']) if entry.get('name') else 'The entry'} was deleted.")
