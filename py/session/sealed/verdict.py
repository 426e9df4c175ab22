"""Logged results of sealed conflicts (session.sealed.exchange), checked against their seals on every phone.

A sealed conflict's result is logged under its conflict id and carries its proof (`"sealed"`: the
seal, the lock or the other seal, and the reveals it follows from). The proof's messages join the
session's own (replica.sealed, a grow-only set) whenever the entry arrives, so every phone judges
with the same evidence, whatever arrived first: `verdict` says of one entry whether it is an open
result, a result sealed and checked, or flagged, with one sentence why. An open Test logged by the
GM's phone after it left a sealed conflict once the player's Manner was there (session.sealed.exchange
`left`) is flagged too. Pure Python.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import checks
from .exchange import LEFT, TEST, check_message, digest, identity, settle

MAX_PROOF = 4  # a Test: seal, lock, reveal; a Confrontation: two seals, two reveals
need, _ = checks("A sealed result in the log is damaged.")


@dataclass(frozen=True)
class Verdict:
    sealed: bool  # the entry is (or stands in for) the result of a sealed conflict
    flag: str = ""  # why it can't be trusted; "" when its cards check out (or it is an open result)


OPEN = Verdict(False)


def check_proof(value, conflict_id: str) -> list[dict]:
    """The messages a logged sealed result carries, from untrusted data, or SessionError."""
    need(isinstance(value, list) and 0 < len(value) <= MAX_PROOF)
    messages = [check_message(message) for message in value]
    need(all(message["c"] == conflict_id for message in messages) and len({message["k"] for message in messages}) == 1)
    return messages


def fold(replica):
    """Every logged proof's messages into the session's sealed messages (replica_check does this for
    whatever arrives, so a proof's evidence stays even if another copy of its entry wins a merge)."""
    for entry in replica.log.values():
        for message in entry.get("sealed", ()):
            replica.add_sealed(message)


def covered(replica, conflict_id: str) -> bool:
    """The conflict's logged entry carries every message the session has of it (a link needs only the entry)."""
    entry = replica.log.get(conflict_id)
    messages = replica.sealed.get(conflict_id, {})
    return entry is not None and set(messages) <= {digest(message) for message in entry.get("sealed", ())}


def plain(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "result"}


def verdict(replica, entry: dict, left: dict | None = None) -> Verdict:
    """What one logged entry is worth. `left`: `left_behind(replica)`, when many entries are judged at once."""
    record = entry.get("record")
    if entry.get("kind", "conflict") != "conflict" or not isinstance(record, dict) or record.get("system") != "manners":
        return OPEN
    messages = replica.sealed.get(entry["id"])
    if messages is None:
        flag = (left_behind(replica) if left is None else left).get(entry["id"], "")
        return Verdict(bool(flag), flag)
    settled = settle(messages, replica.id)
    if settled.problems:
        return Verdict(True, settled.problems[0])
    if settled.record is None:
        return Verdict(True, "The sealed card was never revealed: this result can't be checked against its seal.")
    if plain(record) == plain(settled.record):
        return Verdict(True)
    card = settled.record.get("complication")
    if card is not None and record.get("complication") != card:
        return Verdict(True, f"The GM sealed {card}, not {record.get('complication')}.")
    return Verdict(True, "This is not the result the sealed cards give.")


def left_behind(replica) -> dict[str, str]:
    """entry id -> why it is flagged, for each open Test the GM's phone logged first, for the same
    character, after leaving a sealed conflict once that character's Manner was there."""
    flagged = {}
    for conflict_id, messages in replica.sealed.items():
        if conflict_id not in replica.log and any(message["t"] == LEFT for message in messages.values()):
            found = instead(replica, messages)
            if found is not None:
                flagged[found[0]] = found[1]
    return flagged


def instead(replica, messages: dict) -> tuple[str, str] | None:
    """(entry id, why) of the open Test logged instead of this sealed conflict, if one was."""
    settled = settle(messages, replica.id)
    if settled.left is None or settled.locked is None:
        return None
    clock, device = settled.left["at"]
    after = [entry for entry in replica.log.values()
             if entry.get("device") == device and entry.get("clock", 0) > clock and entry["id"] not in replica.sealed
             and opens_for(entry, identity(settled.locked))]
    if not after:
        return None
    first = min(after, key=lambda entry: entry["clock"])
    card = settled.record["complication"] if settled.record else None
    if card is not None and first["record"].get("complication") == card:
        return None  # the same card, openly: nothing was gained by leaving
    name = settled.locked["name"]
    return first["id"], (f"Logged openly after the GM left {name}'s sealed conflict once {name}'s Manner was in"
                         + (f" (the sealed card: {card})." if card else "."))


def opens_for(entry: dict, who: str) -> bool:
    """An open Manner Cards Test for this character."""
    record = entry.get("record")
    return (entry.get("kind", "conflict") == "conflict" and isinstance(record, dict) and record.get("kind") == TEST
            and record.get("system") == "manners" and isinstance(record.get("player"), dict)
            and (record["player"].get("id") or record["player"].get("name")) == who)
