"""Form fields for character sheets, each bound to a path in the entry being edited.

A field carries `data-action="sheet-set"` and `data-path="skills.0.rating"`;
ui.screens.roster.actions writes what is typed to that path. Lists of rated things
(Attributes, Skills, Dread Traits, Spells) get add and remove buttons.
"""
from __future__ import annotations

from ui.kit.html import Markup, h, isolate


def with_article(noun: str) -> str:
    """"a Skill", "an Attribute"."""
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"


def field_id(path: str) -> str:
    return "sheet-" + path.replace(".", "-")


def text_field(label: str, path: str, value, placeholder: str = "", maxlength: int = 60) -> Markup:
    identifier = field_id(path)
    return h("label", h("span", label, class_="field-label"),
             h("input", type="text", id=identifier, value="" if value is None else str(value),
               maxlength=str(maxlength), placeholder=placeholder, autocomplete="off",
               data_action="sheet-set", data_path=path, class_="field-input"),
             class_="field", for_=identifier)


def number_field(label: str | Markup, path: str, value, low: int = 0, high: int = 99) -> Markup:
    identifier = field_id(path)
    return h("label", h("span", label, class_="field-label"),
             h("input", type="number", inputmode="numeric", id=identifier,
               value="" if value is None else str(value), min=str(low), max=str(high),
               data_action="sheet-set", data_path=path, data_type="int", class_="field-input field-number"),
             class_="field", for_=identifier)


def check_field(label: str, path: str, checked: bool) -> Markup:
    identifier = field_id(path)
    return h("label", h("input", type="checkbox", id=identifier, checked=bool(checked),
                        data_action="sheet-set", data_path=path, data_type="bool"),
             f" {label}", class_="check", for_=identifier)


def select_field(label: str, path: str, value: str, options) -> Markup:
    identifier = field_id(path)
    return h("label", h("span", label, class_="field-label"),
             h("select", *(h("option", text, value=option, selected=option == value) for option, text in options),
               id=identifier, data_action="sheet-set", data_path=path, class_="field-select"),
             class_="field", for_=identifier)


def remove_button(path: str, index: int, what: str) -> Markup:
    return h("button", "Remove", type="button", class_="button button-quiet", data_action="sheet-remove",
             data_path=path, data_index=str(index), aria_label=f"Remove {what}")


def rated_list(title: str, path: str, items: list[dict], noun: str, high: int = 40) -> Markup:
    """Name + rating rows, e.g. Skills; `noun` names one entry ("Skill")."""
    rows = []
    for index, item in enumerate(items):
        name = item.get("name") or f"{noun} {index + 1}"
        rows.append(h("li",
                      text_field(f"{noun} name", f"{path}.{index}.name", item.get("name", "")),
                      # Seen as "Rating", heard as "Rating of Climb": the name holds the visible label.
                      number_field(h("span", "Rating", h("span", " of ", isolate(name), class_="visually-hidden")),
                                   f"{path}.{index}.rating", item.get("rating"), 0, high),
                      remove_button(path, index, name),
                      class_="sheet-row"))
    return h("fieldset",
             h("legend", title),
             h("ul", *rows, class_="sheet-list") if rows else h("p", f"No {title.lower()} yet.", class_="hint"),
             h("button", f"Add {with_article(noun)}", type="button", class_="button", data_action="sheet-add",
               data_path=path, data_template="rated"),
             class_="sheet-group")


# What "Add a …" appends to a list on a sheet, by data-template.
TEMPLATES = {
    "rated": {"name": "", "rating": 1},
    "modifier": {"name": "", "kind": "Gear", "value": 1, "stacks": False},
    "descriptor": {"name": "", "on": ""},
}
