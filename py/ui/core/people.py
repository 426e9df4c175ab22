"""One person, one name: the people at the table, whatever rule systems they have sheets in.

A session keeps one roster entry per rule system (a character's Tension Engine sheet, their
Anomaly sheet, their Manner Cards sheet), so the same person can have up to three entries.
Everywhere the table thinks of *people* (how many characters a session has, who holds this
phone, whose rolls the Log shows, what a link adds to the roster), entries of the same kind
with the same name (spaces and case aside) are one person. A person typed once gets a sheet in
every system (`everywhere`); a person of an older session who has none in a system yet gets a
blank one where they are played (`derived`), under an id every phone derives alike, so two phones
that add it add the same sheet. A derived sheet belongs to the person whose typed sheet its id
names (session.lineage), whatever its name: a rename on one phone while another added it does not
split the person (and the session shows it under its typed sheet's name, session.replica). Which sheets
are one person, and how many people a session keeps, are session.headcount's (the replica's check counts
them). Pure Python.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.words import isolate
from session import blank_sheet, check_roster_entry, lineage
from session.errors import Overfull
from session.headcount import MAX_PEOPLE, grouped
from session.replica import Replica
from session.replica_check import RECORDS_FULL, ROSTER_RECORDS, check_additions

SYSTEM_ORDER = ("tension", "anomaly", "manners")


@dataclass(frozen=True)
class Person:
    name: str  # as the first of their sheets spells it
    kind: str  # "character" | "adversary"
    ids: tuple[str, ...]  # their roster entries, one per rule system, in the systems' order
    systems: tuple[str, ...]


def people(roster: list[dict], kind: str | None = None) -> list[Person]:
    """The people a roster holds (of `kind`, if given), in the order their first sheet was added: the
    typed sheets of one kind and name, with the sheets derived from them (session.lineage) whatever
    those are named. A person is named as their first typed sheet spells it."""
    return [Person(typed_first(sheets)["name"], sheets[0]["kind"],
                   tuple(entry["id"] for entry in by_system(sheets)),
                   tuple(entry["system"] for entry in by_system(sheets)))
            for sheets in grouped(roster) if kind is None or sheets[0]["kind"] == kind]


def typed_first(sheets: list[dict]) -> dict:
    return next((entry for entry in sheets if not lineage.is_derived(entry["id"])), sheets[0])


def by_system(sheets: list[dict]) -> list[dict]:
    return sorted(sheets, key=lambda entry: SYSTEM_ORDER.index(entry["system"])
                  if entry["system"] in SYSTEM_ORDER else len(SYSTEM_ORDER))


def person_of(roster: list[dict], entry_id: str) -> Person | None:
    """The person whose sheet `entry_id` is."""
    entry = next((item for item in roster if item["id"] == entry_id), None)
    if entry is None:
        return None
    return next(person for person in people(roster, entry["kind"]) if entry_id in person.ids)


def sheet_in(roster: list[dict], person: Person, system: str) -> dict | None:
    """The person's sheet in `system`, if they have one."""
    return next((entry for entry in roster if entry["id"] in person.ids and entry["system"] == system), None)


def derived_id(person: Person, system: str) -> str:
    """The id of the person's sheet in `system` made here for them: from their own sheets' (those not
    derived), so any phone holding the same person derives the same id, and every phone finds its person
    from it (session.lineage)."""
    typed = [entry_id for entry_id in person.ids if not lineage.is_derived(entry_id)] or list(person.ids)
    return lineage.derived_id(min(typed), system)


def derived(roster: list[dict], person: Person, system: str) -> dict:
    """A blank sheet of the person in `system`, under their name."""
    return check_roster_entry({"id": derived_id(person, system), "system": system, "kind": person.kind,
                               "name": person.name, **blank_sheet(system, person.kind)})


def everywhere(roster: list[dict], entry: dict) -> list[dict]:
    """The roster with `entry`'s person given a blank sheet in every system they have none in: a person
    typed once is at the table in every rule system, each system's numbers filled where it is played."""
    person = person_of(roster, entry["id"])
    missing = [system for system in SYSTEM_ORDER if sheet_in(roster, person, system) is None]
    return roster + [derived(roster, person, system) for system in missing]


def no_room(replica: Replica, roster: list[dict], name: str) -> str:
    """Why the session can't take `roster` (people added on this phone), in a sentence naming `name`,
    the person added; "" when it can. The verdict the session's check would reach at the next start or on
    any phone it travels to (session.replica_check.check_additions), reached before the tap is made."""
    try:
        check_additions(replica, roster)
    except Overfull as error:
        if error.what == RECORDS_FULL:  # removed sheets are kept for good (every phone must learn of the removal)
            return (f"This session has kept {ROSTER_RECORDS:,} sheets, those of people removed included: "
                    f"{isolate(name)} can't be added. Start a new session for more people.")
        return (f"This session keeps {MAX_PEOPLE} characters and adversaries, each with a sheet in every rule system: "
                f"{isolate(name)} can't be added. Remove someone first, or start a new session.")
    return ""


def renamed(roster: list[dict], entry_id: str, name: str) -> list[dict]:
    """The roster with every sheet of the person whose sheet `entry_id` is under `name` (their sheets stay
    one person)."""
    person = person_of(roster, entry_id)
    ids = set(person.ids) if person is not None else {entry_id}
    return [{**item, "name": name} if item["id"] in ids and item["name"] != name else item for item in roster]


def without(roster: list[dict], entry_id: str) -> list[dict]:
    """The roster without the person whose sheet `entry_id` is, in every system."""
    person = person_of(roster, entry_id)
    ids = set(person.ids) if person is not None else {entry_id}
    return [item for item in roster if item["id"] not in ids]


def count_words(roster: list[dict]) -> str:
    """"2 characters and 1 adversary": people, not sheets."""
    characters, adversaries = len(people(roster, "character")), len(people(roster, "adversary"))
    words = [f"{characters} character{'s' * (characters != 1)}"]
    if adversaries:
        words.append(f"{adversaries} adversar{'ies' if adversaries != 1 else 'y'}")
    return " and ".join(words)
