"""Counts the GM's phone vouched for (`Replica.vouched`): what session.ownership allows of a phone's
count beside what its rolls account for.

- At "Add", the counts a phone moved beyond its rolls stay that phone's own, each with a record
  written by the GM's device (`vouch`). Taken as the GM's own count instead, they counted twice
  once the roll still on its way arrived: that roll then raises the count only to a value it has.
- As the GM's phone takes counts from a phone's rolls, it vouches for them too (`Vouches.taken`,
  stamped at its clock, no tick): a phone that got a later roll first, with a count that holds an
  earlier one, and the earlier roll after, has room for the earlier roll's move only in what the
  GM's phone, which took both, vouched for.
- Every phone reads only records the GM on record wrote; on the GM's phone, one it does not have is
  forged. A phone takes a count in its own name up to what the GM vouched for (the GM added steps
  written in its name elsewhere, and every other phone counts them).
Pure Python.
"""
from __future__ import annotations

from .inert import standing, writers
from .replica import Replica, counts_at, higher_vouch, join_vouched, key_target, target_key


class Vouches:
    """The records one judgement reads: this phone's, and the incoming ones the GM wrote."""

    def __init__(self, mine: Replica, incoming: Replica, gm: str, forgeable: str | None):
        self.gm, self.here = gm, mine.vouched
        self.forged = 0  # records in this phone's name (the GM's) that it never wrote
        self.arrived: dict[str, dict] = {}
        for device, records in incoming.vouched.items():
            for key, record in records.items():
                had = self.here.get(device, {}).get(key)
                if record[3] != gm:
                    continue  # no other phone vouches
                if record[3] == forgeable and higher_vouch(had, record) != had and not removed_target(mine, key):
                    self.forged += 1
                    continue
                self.arrived.setdefault(device, {})[key] = record
        self.taken: dict[str, dict] = {}  # (the GM's phone) what it vouches for as it takes it from rolls

    def allowed(self, target: tuple, device: str) -> list:
        """[up, down] the GM vouched for of `device`'s count at `target` (here or in what arrives)."""
        if device not in self.here and device not in self.arrived:
            return [0, 0]
        key = target_key(target)
        records = [record for record in (self.here.get(device, {}).get(key), self.arrived.get(device, {}).get(key))
                   if record is not None and record[3] == self.gm]
        return [max((record[0] for record in records), default=0), max((record[1] for record in records), default=0)]

    def take(self, device: str, kept: list[tuple[tuple, list]], clock: int):
        """(The GM's phone) `device`'s counts it keeps from rolls ([(target, steps)]), vouched for."""
        self.taken[device] = {target_key(target): [*steps, clock, self.gm] for target, steps in kept}

    def kept(self, mine: Replica, kept: Replica) -> dict:
        """What merges: the records that arrived beside a count of their device, and those taken."""
        return join_vouched(standing(self.arrived, mine, kept), self.taken)

    def own(self, had_of, device: str, moves) -> tuple[list, int]:
        """Of counts in this phone's own name it never made ([(target, steps)]), what the GM vouched for
        ([(target, steps kept)]), and how many went past it (forged). `had_of(target)`: its steps here."""
        kept, forged = [], 0
        for target, steps in moves:
            had, allowed = had_of(target), self.allowed(target, device)
            now = [max(had[side], min(steps[side], allowed[side])) for side in (0, 1)]
            kept += [(target, now)] if now != had else []
            forged += now != [max(had[side], steps[side]) for side in (0, 1)]
        return kept, forged


def removed_target(replica: Replica, key: str) -> bool:
    """Is `key`'s count one of a roster entry removed on this phone? Its records were dropped here
    (replica.shed), so one in this phone's name that an older link brings back is not forged."""
    target = key_target(key)
    return target != ("tension",) and (replica.roster.get(target[1]) or {}).get("removed") is not None


def vouch(replica: Replica, held: Replica, gm: str) -> set[tuple]:
    """(The GM's phone, at "Add") The counts `held` brings that moved beyond their phone's rolls, taken as
    that phone's own, each vouched for by `gm`. Not the counts of a phone whose rolls or undo marks are
    held with them (they are made again as the GM's, with the roll), nor of a roster entry this phone
    does not have (its addition is the GM's) or has removed (a removed entry keeps no counts). The counts changed here, by target."""
    whole = writers(Replica(held.id), held)
    places = [(("tension",), held.tension)] + [
        (("entry", entry_id, key), counts) for entry_id, entry in held.roster.items()
        if replica.roster.get(entry_id, {"removed": True})["removed"] is None and entry.get("added") is None
        for key, counts in entry["counts"].items()]
    changed = set()
    for target, counts in places:
        for device, steps in counts.items():
            if device == gm or device in whole:
                continue
            here = counts_at(replica, target) if target == ("tension",) else \
                replica.roster[target[1]]["counts"].setdefault(target[2], {})
            had = here.get(device, [0, 0])
            here[device] = [max(had[0], steps[0]), max(had[1], steps[1])]
            record = [*here[device], replica.tick(), gm]
            replica.vouched = join_vouched(replica.vouched, {device: {target_key(target): record}})
            changed.add(target)
    return changed
