"""What nobody can act on, left out where it arrives: it takes no room and does not travel.

A session's limits (phones in a count, undo marks, sealed-card messages per conflict, sealed
conflicts) hold what the table did; anyone may send a link, so what a link brings that no phone
could ever act on must not use them up. Before a merge (session.merging) and before a sealed-card
link's steps are added (ui.systems.manners.exchange), what comes in is sifted against what this
phone holds:

- a reveal that opens no seal of its conflict (anyone can send one: it is nobody's evidence);
- a lock that answers no sealed card of its conflict (the GM's card it names is not there, or is
  for another character), and a `left` of a Test nobody locked a Manner in;
- a conflict left with no message once those are gone (it never takes one of MAX_EXCHANGES);
- an undo mark of an entry neither this phone nor the link holds (a mark of an entry this phone
  never saw reverses nothing; kept, it would hide that entry when it is logged later: a sealed
  conflict's result is logged under the conflict's id, which every phone of the table knows);
- a count that a phone this phone does not know raised and lowered by as much (it changes no
  number, and would take one of the 64 phones a count holds). A phone is known by its counts here
  or by any roll or undo mark it wrote, here or in the link: a roll and its undo that arrive
  together bring a count that adds up to nothing, and the GM's phone must get that count with the
  undo mark wherever the mark travels (session.ownership weighs a count against the rolls and marks
  that arrive with it). Left out, its steps are forgotten
  here: an older copy of that phone's count arriving later (a stale link) counts again until that
  phone changes the count once more. Made-up phones have no older copy; [0, 0], the most common,
  is the join's zero and loses nothing. A `vouched` record goes with its count: left out with it.

Each is judged from the messages and entries in hand, the same on every phone; what a person may be
waiting for is said in one sentence (`ignored`). Pure Python.
"""
from __future__ import annotations

from .replica import Replica, counts_at, key_target
from .sealed.exchange import GM, LEFT, LOCK, REVEAL, SEAL, answers, digest, opens

IGNORED_REVEAL = "A reveal that matches no seal was ignored."
IGNORED_LOCK = "A Manner that answers no sealed card here was ignored."


def useful_steps(session_id: str, held: dict, incoming: dict) -> tuple[dict, list[str]]:
    """Of one conflict's `incoming` messages ({digest: message}), those someone can act on beside
    `held` (this phone's messages of that conflict), and a sentence for each kind left out."""
    every = {**held, **incoming}
    seals = [message for message in every.values() if message["t"] == SEAL]
    locked = [message for message in every.values() if message["t"] == LOCK
              and any(seal["by"] == GM and answers(seal, message) for seal in seals)]
    kept, ignored = {}, []
    for key, message in incoming.items():
        if key in held:
            kept[key] = message
        elif message["t"] == REVEAL and not any(
                seal["by"] == message["by"] and opens(seal, message, message["c"], session_id) for seal in seals):
            ignored.append(IGNORED_REVEAL)
        elif message["t"] == LOCK and message not in locked:
            ignored.append(IGNORED_LOCK)
        elif message["t"] == LEFT and not locked:
            continue  # nothing to leave: no Manner was ever locked in it
        else:
            kept[key] = message
    return kept, sorted(set(ignored), key=ignored.index)


def sift(mine: Replica, incoming: Replica, stored=()) -> tuple[Replica, list[str]]:
    """`incoming` without what nobody can act on beside `mine` (`stored`: ids of entries this phone
    holds in its log store only), and the sentences for what someone might miss. `incoming` is not
    changed: a new replica shares its untouched parts."""
    ignored: list[str] = []
    sealed = {}
    for conflict_id, messages in incoming.sealed.items():
        kept, said = useful_steps(incoming.id, mine.sealed.get(conflict_id, {}), messages)
        ignored += [sentence for sentence in said if sentence not in ignored]
        if kept:
            sealed[conflict_id] = kept
    held = mine.log.keys() | incoming.log.keys() | set(stored)
    undone = {entry_id: mark for entry_id, mark in incoming.undone.items()
              if entry_id in held or entry_id in mine.undone}
    known = writers(mine, incoming)
    roster = {entry_id: {**entry, "counts": {key: known_counts(mine.roster.get(entry_id, {}).get("counts", {}).get(key, {}),
                                                               counts, known)
                                             for key, counts in entry.get("counts", {}).items()}}
              for entry_id, entry in incoming.roster.items()}
    sifted = Replica(incoming.id, incoming.clock, incoming.fields, known_counts(mine.tension, incoming.tension, known),
                     roster, incoming.log, undone, sealed, incoming.gm, incoming.holders)
    sifted.vouched = standing(incoming.vouched, mine, sifted)
    sifted.complete, sifted.fresh, sifted.counted = incoming.complete, incoming.fresh, incoming.counted
    return sifted, ignored


def standing(vouched: dict, *replicas: Replica) -> dict:
    """The `vouched` records whose device has that count in one of `replicas` (replica_check's rule)."""
    kept = {}
    for device, records in vouched.items():
        records = {key: record for key, record in records.items()
                   if any(device in counts_at(replica, key_target(key)) for replica in replicas)}
        if records:
            kept[device] = records
    return kept


def writers(mine: Replica, incoming: Replica) -> set[str]:
    """The devices that logged a roll or wrote an undo mark, in either replica."""
    return {entry["device"] for replica in (mine, incoming) for entry in replica.log.values()} | \
           {device for replica in (mine, incoming) for mark in replica.undone.values() for device in mark["by"]}


def known_counts(mine: dict, incoming: dict, known: set[str]) -> dict:
    """A count's steps by device without those that add up to nothing of devices neither in `mine`
    (this phone's steps of that count) nor `known` (writers)."""
    return {device: steps for device, steps in incoming.items()
            if device in mine or device in known or steps[0] != steps[1]}
