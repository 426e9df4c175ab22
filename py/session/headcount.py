"""How many people a session keeps: a person (a character or an adversary) is their sheets, one in each
rule system, and a session holds up to MAX_PEOPLE of them, so up to MAX_PEOPLE sheets in each system.

Which sheets are one person is read from the roster alone, so every phone counts the same people: the
sheets of one kind with the same name (spaces and case aside; an older session typed a person once per
system), with the sheets derived from them whatever those are named (session.lineage). ui.core.people
builds the screens' people from the same grouping. Pure Python."""
from __future__ import annotations

from collections import Counter

from . import lineage
from .errors import Overfull

MAX_PEOPLE = 60
PEOPLE_FULL = f"more than {MAX_PEOPLE} characters and adversaries"
SYSTEM_FULL = f"more than {MAX_PEOPLE} sheets in one rule system"


def key(entry: dict) -> tuple[str, str]:
    return entry["kind"], " ".join(entry["name"].split()).casefold()


def grouped(roster: list[dict]) -> list[list[dict]]:
    """The roster's sheets person by person, in the order each person's first sheet was added."""
    by_id = {entry["id"]: entry for entry in roster}
    found: dict[tuple[str, str], list[dict]] = {}
    for entry in roster:
        typed = lineage.parent(entry["id"], by_id)
        found.setdefault(key(by_id[typed] if typed is not None else entry), []).append(entry)
    return list(found.values())


def check_people(roster: list[dict], systems: Counter | None = None):
    """Overfull past MAX_PEOPLE people on `roster`, or past MAX_PEOPLE sheets in one rule system (`systems`:
    how many live sheets each system has, hidden ones included; by default the roster's own)."""
    if len(grouped(roster)) > MAX_PEOPLE:
        raise Overfull(PEOPLE_FULL)
    if systems is None:
        systems = Counter(entry["system"] for entry in roster)
    if max(systems.values(), default=0) > MAX_PEOPLE:
        raise Overfull(SYSTEM_FULL)
