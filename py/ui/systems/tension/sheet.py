"""Tension Engine sheets: characters (Attributes, Skills, AP, Health, Willpower) and
adversaries (Power and Dread Traits)."""
from __future__ import annotations

from ui.kit.fields import number_field, rated_list
from ui.kit.html import Markup, h, isolate

KINDS = (("character", "Character"), ("adversary", "Adversary"))


def blank(kind: str) -> dict:
    if kind == "character":
        return {"attributes": [{"name": "Might", "rating": 2}, {"name": "Agility", "rating": 2},
                               {"name": "Wits", "rating": 2}],
                "skills": [], "ap": 3, "health": 10, "willpower": 10}
    return {"power": 4, "traits": [], "health": 10}


def rated_words(items: list[dict]) -> str:
    return ", ".join(f"{isolate(item['name'])} {item['rating']}" for item in items) or "none"


def summary(entry: dict) -> Markup:
    if entry["kind"] == "character":
        return h("p", f"{entry['ap']} AP · Health {entry['health']} · Willpower {entry['willpower']}",
                 h("br"), f"Attributes: {rated_words(entry['attributes'])}", h("br"),
                 f"Skills: {rated_words(entry['skills'])}", class_="roster-summary")
    return h("p", f"Power {entry['power']} · Health {entry['health']}", h("br"),
             f"Dread Traits: {rated_words(entry['traits'])}", class_="roster-summary")


def form(entry: dict) -> Markup:
    if entry["kind"] == "character":
        return h("div",
                 h("div", number_field("AP", "ap", entry.get("ap")),
                   number_field("Health", "health", entry.get("health")),
                   number_field("Willpower", "willpower", entry.get("willpower")), class_="sheet-numbers"),
                 rated_list("Attributes", "attributes", entry.get("attributes", []), "Attribute"),
                 rated_list("Skills", "skills", entry.get("skills", []), "Skill"))
    return h("div",
             h("div", number_field("Power", "power", entry.get("power")),
               number_field("Health", "health", entry.get("health")), class_="sheet-numbers"),
             rated_list("Dread Traits", "traits", entry.get("traits", []), "Dread Trait"))
