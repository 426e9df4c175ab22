"""Manner Cards sheets: a rating in each of the five Manners, Skills and Spells with
ratings, and descriptors (Traits and Specialities) each attached to a Manner or a Skill.
Characters and adversaries (the GM's characters) share one sheet."""
from __future__ import annotations

import rules

from ui.kit.fields import number_field, rated_list, remove_button, select_field, text_field
from ui.kit.html import Markup, h, isolate

KINDS = (("character", "Character"), ("adversary", "Adversary"))
DEFAULT_RATING = 2


def blank(kind: str) -> dict:
    return {"manners": {manner: DEFAULT_RATING for manner in rules.MANNERS}, "skills": [], "descriptors": []}


def rated_words(items: list[dict]) -> str:
    return ", ".join(f"{isolate(item['name'])} {item['rating']}" for item in items) or "none"


def summary(entry: dict) -> Markup:
    manners = entry.get("manners", {})
    descriptors = ", ".join(f"{isolate(item['name'])} ({isolate(item['on'])})"
                            for item in entry.get("descriptors", [])) or "none"
    return h("p", " · ".join(f"{manner} {manners.get(manner, 0)}" for manner in rules.MANNERS), h("br"),
             f"Skills and Spells: {rated_words(entry.get('skills', []))}", h("br"),
             f"Descriptors: {descriptors}", class_="roster-summary")


def attach_options(entry: dict, current: str) -> list[tuple[str, str]]:
    """What a descriptor can be attached to: the five Manners, then the sheet's Skills and Spells."""
    options = [("", "Choose a Manner or Skill")]
    options += [(manner, f"{manner} (Manner)") for manner in rules.MANNERS]
    skills = [item.get("name", "").strip() for item in entry.get("skills", [])]
    options += [(name, name) for name in dict.fromkeys(skills) if name and name not in rules.MANNERS]
    if current and current not in {value for value, _ in options}:
        options.append((current, f"{current} (no longer on the sheet)"))
    return options


def descriptor_list(entry: dict) -> Markup:
    items = entry.get("descriptors", [])
    rows = []
    for index, item in enumerate(items):
        name = item.get("name") or f"Descriptor {index + 1}"
        rows.append(h("li",
                      text_field("Trait or Speciality", f"descriptors.{index}.name", item.get("name", ""),
                                 placeholder="e.g. Stubborn"),
                      select_field("Attached to", f"descriptors.{index}.on", item.get("on", ""),
                                   attach_options(entry, item.get("on", ""))),
                      remove_button("descriptors", index, name),
                      class_="sheet-row descriptor-row"))
    return h("fieldset",
             h("legend", "Descriptors"),
             h("p", "Traits and Specialities, each on a Manner or a Skill: more applicable descriptors win a tie.",
               class_="hint hint-small"),
             h("ul", *rows, class_="sheet-list") if rows else h("p", "No descriptors yet.", class_="hint"),
             h("button", "Add a descriptor", type="button", class_="button", data_action="sheet-add",
               data_path="descriptors", data_template="descriptor"),
             class_="sheet-group")


def form(entry: dict) -> Markup:
    manners = entry.get("manners", {})
    high = rules.LIMITS["rating"]
    return h("div",
             h("fieldset", h("legend", "Manners"),
               h("div", *(number_field(manner, f"manners.{manner}", manners.get(manner), 0, high)
                          for manner in rules.MANNERS), class_="sheet-numbers sheet-manners"),
               class_="sheet-group"),
             rated_list("Skills and Spells", "skills", entry.get("skills", []), "Skill or Spell", high=high),
             descriptor_list(entry))
