"""Anomaly sheets: characters and adversaries carry their usual modifiers (name,
kind, signed value, stacks), which a conflict turns into chips for each roll.

The stored shape is session.model.check_anomaly_entry's: {"modifiers": [{"name",
"kind", "value", "stacks"}]}. Fields write through the sheet editor's
`sheet-set` action (ui.kit.fields, ui.screens.roster.actions).
"""
from __future__ import annotations

import rules

from ui.kit.fields import check_field, field_id, remove_button, text_field
from ui.kit.html import Markup, h
from ui.systems.anomaly.words import modifier_words

KINDS = (("character", "Character"), ("adversary", "Adversary"))
OTHER = ""  # the kind picker's "Other…": the kind is typed in beside it
MAX_VALUE = 99  # session.model.MAX_POINTS


def blank(kind: str) -> dict:
    return {"modifiers": []}


def summary(entry: dict) -> Markup:
    modifiers = entry.get("modifiers", [])
    if not modifiers:
        return h("p", "No usual modifiers yet.", class_="roster-summary")
    shown = [modifier_words(modifier) + (", stacks" if modifier.get("stacks") else "") for modifier in modifiers]
    return h("p", "Modifiers: ", " · ".join(shown), class_="roster-summary")


def kind_picker(path: str, kind: str) -> Markup:
    """A select of the common kinds plus "Other…"; with Other, a text field for the kind's name."""
    identifier = field_id(path) + "-select"
    chosen = kind if kind in rules.COMMON_KINDS else OTHER
    options = [(name, name) for name in rules.COMMON_KINDS] + [(OTHER, "Other…")]
    picker = h("div", h("label", "Kind", class_="field-label", for_=identifier),
               h("select", *(h("option", text, value=value, selected=value == chosen) for value, text in options),
                 id=identifier, data_action="sheet-set", data_path=path, class_="field-select"),
               class_="field")
    if chosen != OTHER:
        return picker
    return h("div", picker, text_field("Kind name", path, kind, placeholder="e.g. Magic", maxlength=30),
             class_="kind-other")


def signed_field(label: str, path: str, value) -> Markup:
    """A whole number that may be negative (no numeric-only keypad, which lacks a minus sign on some phones)."""
    identifier = field_id(path)
    return h("label", h("span", label, class_="field-label"),
             h("input", type="number", id=identifier, value="" if value is None else str(value),
               min=str(-MAX_VALUE), max=str(MAX_VALUE), step="1",
               data_action="sheet-set", data_path=path, data_type="int", class_="field-input field-number"),
             class_="field", for_=identifier)


def modifier_row(index: int, modifier: dict) -> Markup:
    """One modifier, in its own group ("Modifier 1") so its fields' names say whose they are."""
    path = f"modifiers.{index}"
    what = modifier.get("name") or f"modifier {index + 1}"
    return h("li",
             h("fieldset",
               h("legend", f"Modifier {index + 1}", class_="modifier-legend"),
               text_field("Name", f"{path}.name", modifier.get("name", ""), placeholder="e.g. Sword"),
               h("div",
                 kind_picker(f"{path}.kind", modifier.get("kind", "")),
                 signed_field("Value", f"{path}.value", modifier.get("value")),
                 class_="modifier-numbers"),
               h("div",
                 check_field("Stacks with others of its kind", f"{path}.stacks", modifier.get("stacks", False)),
                 remove_button("modifiers", index, what),
                 class_="row row-wrap modifier-end"),
               class_="modifier-fields"),
             class_="sheet-row modifier-row")


def form(entry: dict) -> Markup:
    modifiers = entry.get("modifiers", [])
    rows = [modifier_row(index, modifier) for index, modifier in enumerate(modifiers)]
    return h("fieldset",
             h("legend", "Usual modifiers"),
             h("p", "What this sheet usually adds to a roll: Size, Attribute, Skill, Knowledge, Gear or a kind "
                    "you name. In a conflict each one is a chip, off until you tap it on for a roll it applies to.",
               class_="hint hint-small"),
             h("ul", *rows, class_="sheet-list") if rows else h("p", "No modifiers yet.", class_="hint"),
             h("button", "Add a modifier", type="button", class_="button", data_action="sheet-add",
               data_path="modifiers", data_template="modifier"),
             class_="sheet-group")
