"""One person, one name: the people at the table, whatever rule systems they have sheets in.

A session keeps one roster entry per rule system (a character's Tension Engine sheet, their
Anomaly sheet, their Manner Cards sheet), so the same person can have up to three entries.
Everywhere the table thinks of *people* (how many characters a session has, who holds this
phone, whose rolls the Log shows, what a link adds to the roster), entries of the same kind
with the same name (spaces and case aside) are one person. Pure Python.
"""
from __future__ import annotations

from dataclasses import dataclass

SYSTEM_ORDER = ("tension", "anomaly", "manners")


@dataclass(frozen=True)
class Person:
    name: str  # as the first of their sheets spells it
    kind: str  # "character" | "adversary"
    ids: tuple[str, ...]  # their roster entries, one per rule system, in the systems' order
    systems: tuple[str, ...]


def key(entry: dict) -> tuple[str, str]:
    return entry["kind"], " ".join(entry["name"].split()).casefold()


def people(roster: list[dict], kind: str | None = None) -> list[Person]:
    """The people a roster holds (of `kind`, if given), in the order their first sheet was added."""
    found: dict[tuple[str, str], list[dict]] = {}
    for entry in roster:
        if kind is None or entry["kind"] == kind:
            found.setdefault(key(entry), []).append(entry)
    return [Person(sheets[0]["name"], sheets[0]["kind"],
                   tuple(entry["id"] for entry in by_system(sheets)),
                   tuple(entry["system"] for entry in by_system(sheets))) for sheets in found.values()]


def by_system(sheets: list[dict]) -> list[dict]:
    return sorted(sheets, key=lambda entry: SYSTEM_ORDER.index(entry["system"])
                  if entry["system"] in SYSTEM_ORDER else len(SYSTEM_ORDER))


def person_of(roster: list[dict], entry_id: str) -> Person | None:
    """The person whose sheet `entry_id` is."""
    entry = next((item for item in roster if item["id"] == entry_id), None)
    if entry is None:
        return None
    return next(person for person in people(roster, entry["kind"]) if entry_id in person.ids)


def count_words(roster: list[dict]) -> str:
    """"2 characters and 1 adversary": people, not sheets."""
    characters, adversaries = len(people(roster, "character")), len(people(roster, "adversary"))
    words = [f"{characters} character{'s' * (characters != 1)}"]
    if adversaries:
        words.append(f"{adversaries} adversar{'ies' if adversaries != 1 else 'y'}")
    return " and ".join(words)
