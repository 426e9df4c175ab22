"""Whose sheet a derived sheet is: a sheet made on a phone for a person who had none in a rule system
(ui.core.people.derived) takes an id that names the typed sheet it derives from (`<typed id>-<system's
first letter>`), so every phone finds its person from the roster alone, whatever the sheets' names say
after a rename or a removal made on another phone meanwhile. Pure Python."""
from __future__ import annotations

SYSTEM_LETTERS = frozenset("tam")  # tension, anomaly, manners
PREFIX = 21  # of the typed id a derived id keeps


def is_derived(entry_id: str) -> bool:
    return len(entry_id) > 2 and entry_id[-2] == "-" and entry_id[-1] in SYSTEM_LETTERS


def derived_id(typed_id: str, system: str) -> str:
    return f"{typed_id[:PREFIX]}-{system[0]}"


def parent(entry_id: str, ids: dict | set) -> str | None:
    """Of `ids`, the typed sheet the derived sheet `entry_id` derives from (None: not derived, or its
    typed sheet is not among them)."""
    if not is_derived(entry_id):
        return None
    stem = entry_id[:-2]
    if stem in ids and not is_derived(stem):
        return stem
    if len(stem) < PREFIX:  # the whole typed id, not among them
        return None
    return min((typed for typed in ids if not is_derived(typed) and typed[:PREFIX] == stem), default=None)


def with_typed(sheets: list[dict], records: dict[str, dict]) -> list[dict]:
    """The live roster entries `sheets` with each derived sheet beside its typed sheet, from the replica's
    roster `records` (session.replica): under its name (a rename on one phone while another added the
    sheet renames it too), and gone once that is removed (a removal on one phone while another added it
    leaves no ghost with one blank sheet)."""
    kept = []
    for sheet in sheets:
        typed = parent(sheet["id"], records)
        if typed is None:
            kept.append(sheet)
        elif records[typed].get("removed") is None:
            name = records[typed]["fields"].get("name")
            kept.append({**sheet, "name": name[0]} if name is not None else sheet)
    return kept
