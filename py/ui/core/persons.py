"""Is a phone's holder the person a sealed card names? A phone holds one roster entry (its role: the
sheet of the system it joined in), a sealed card names the sheet of the Manner Cards conflict (or a
name, for a side with no sheet): the same person when both are sheets of one person (ui.core.people).
So a sealed Test or Confrontation reaches a player whichever system that player joined in. Pure Python."""
from __future__ import annotations

from ui.core.people import person_of


def same_person(state, first: str, second: str) -> bool:
    """Two roster ids (or names) that stand for one person of the open session."""
    if not first or not second:
        return False
    if first == second:
        return True
    person = person_of(state.session["roster"], first)
    return person is not None and second in person.ids


def holding(state, phones, identity: str, but: str = ""):
    """Of `phones` (live_table.Peer), the one whose holder is `identity`'s person (not `but`), or None."""
    return next((phone for phone in phones if phone.id != but and same_person(state, phone.role, identity)), None)
