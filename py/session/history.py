"""History is immutable and verified: a log entry id means one content forever.

Whatever brings a log entry to this phone (a session link, a roll link, a live table's message,
a file) brings it through here:

- `problems(entry)`: its record is checked with rules.verify (its dice alone, for a roll set
  aside), and its effects are the ones its record implies (session.log.effects_of). A phone
  that logged it at the end of a range (Tension 99, AP 0) wrote less: such effects are kept only
  when each is one the record implies, in its order, of the same sign and no larger. Anything
  else (a Health to 0 the dice never dealt) is refused.
- `content(entry)`: what an id means: its kind, its record without the result (worked out again
  from the dice), and what it changed. Who logged it, when, its stamp and the Log's number are
  left out: two phones that log one sealed-card conflict log it under one id, each with its own.
- `rewritten(held, incoming)`: the first entry a replica carries with another content for an id
  this phone holds (in memory or only in its log store): such a link is refused whole.
- `held_effects`: an undo mark's effects are the entry's as this phone holds it, never a link's.

Pure; errors are SessionError with a sentence for players.
"""
from __future__ import annotations

import json

import rules

from .errors import SessionError
from .log import effects_of


class Rewritten(SessionError):
    """A link that changes an entry already logged: refused whole (its message says which)."""


def content(entry: dict) -> str:
    """An entry's content as canonical JSON: the same on every phone for the same id."""
    record = entry.get("record")
    record = {key: value for key, value in record.items() if key != "result"} if isinstance(record, dict) else record
    kept = {"kind": entry.get("kind", "conflict"), "record": record}
    for key in ("effects", "before"):
        if key in entry:
            kept[key] = entry[key]
    return json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def problems_of(entry: dict) -> list[str]:
    """What rules.verify finds wrong with an entry's record (only its dice for a roll set aside)."""
    record = entry.get("record")
    if not isinstance(record, dict):
        return ["A logged conflict has no record."]
    check = rules.verify_dice if entry.get("kind") == "set-aside" else rules.verify
    return check(record)


def implied(effects: list, record: dict) -> bool:
    """True when `effects` are what logging `record` changed: its own effects, some of them held at
    the end of their range (smaller, never larger or of another sign), in their order."""
    wanted = effects_of(record)
    position = 0
    for effect in effects:
        if not isinstance(effect, dict):
            return False
        while position < len(wanted) and (wanted[position]["field"], wanted[position]["id"]) != (
                effect.get("field"), effect.get("id")):
            position += 1
        if position == len(wanted):
            return False
        delta, most = effect.get("delta"), wanted[position]["delta"]
        if not isinstance(delta, int) or isinstance(delta, bool) or delta * most <= 0 or abs(delta) > abs(most):
            return False
        position += 1
    return True


def problems(entry: dict) -> list[str]:
    """What does not hold together in `entry` (its result already worked out from its dice); when
    nothing, its effects are the ones read from its record (set in place)."""
    found = problems_of(entry)
    if found:
        return found
    record = entry["record"]
    if "effects" not in entry:
        if "before" not in entry:  # entries from before effects existed keep their numbers instead
            entry["effects"] = effects_of(record) if "result" in record else []
    elif not isinstance(entry["effects"], list) or not implied(entry["effects"], record):
        return ["What it says it changed (Tension, AP, Health) is not what its dice did."]
    return []


def entry_label(entry: dict) -> str:
    """How the Log names an entry: the phone's holder and its count there ("Ash 3", "GM 12", "Phone 7"
    from a phone nobody said who holds); "" for one logged before entries were numbered."""
    if not isinstance(entry.get("n"), int):
        return ""
    return f"{entry['phone'] or 'Phone'} {entry['n']}"


def rewritten(held: dict[str, dict], incoming: dict[str, dict]) -> dict | None:
    """Of the entries this phone holds ({id: entry}), the first that `incoming` ({id: entry})
    carries with another content; None when every id it shares means the same."""
    for entry_id in sorted(held.keys() & incoming.keys()):
        if content(held[entry_id]) != content(incoming[entry_id]):
            return held[entry_id]
    return None


def refusal(entry: dict) -> str:
    """The sentence that refuses a link rewriting `entry` (as this phone holds it)."""
    what = "roll set aside" if entry.get("kind") == "set-aside" else "conflict"
    label = entry_label(entry)
    named = f"{what} {label}" if label else f"a {what}"
    return f"This link changes {named} that is already logged: nothing was changed."


def held_effects(undone: dict[str, dict], held: dict[str, dict], before: dict[str, dict]):
    """Set each undo mark's effects (in place) from the entry this phone holds (`held`), else from
    the mark it had (`before`); a mark of an entry this phone never saw reverses nothing here:
    its effects would be the link's word alone (they arrive with the entry)."""
    for entry_id, mark in undone.items():
        if entry_id in held:
            mark["effects"] = list(held[entry_id].get("effects", []))
        elif entry_id in before:
            mark["effects"] = list(before[entry_id]["effects"])
        else:
            mark["effects"] = []
