"""How a version-2 session link writes its counts (issue 30): compactly, as numbers and not as devices.

A campaign's replica holds, for Tension and each roster entry's AP, Health and Willpower, what each of up
to 64 phones added and took away, and the GM's vouched record of many of them (session.replica). Written
as the replica keeps them, every count repeats each 16-character device id and every vouched record its
target, stamp and writer, and a long campaign on many phones outgrew any link. Here:

- the devices are listed once ("d"), and a count is a flat list of numbers per device in that list's
  order: the gap to the previous device's place, what it added, and what it added less what it took
  (a phone's count moves both ways, so this is small even when both are large);
- a vouched record is kept beside its count: for each target, per device, the gap, the count's steps
  less the record's (0 when the GM vouched for the count as it stands, the usual case), the link's clock
  less the record's, and its writer's place in the device list;
- the phones holding a roster entry (session.ownership) the same way: gap, the link's clock less the
  record's, the writer's place.

The payload says so with "v": COMPACT, which a phone that does not read this form refuses as "a different
version of Tableside" (not as damage). `expanded` gives back exactly the replica's shape, for
session.replica_check to check like any other; whatever does not fit the form is damage.
"""
from __future__ import annotations

from ..errors import checks
from ..replica import VERSION, counts_at, key_target

COMPACT = 3  # the payload version of a session link written this way (the replica inside is VERSION)
COUNT_WIDTH, VOUCH_WIDTH, HOLDER_WIDTH = 3, 5, 3  # numbers per device in a count, a vouched record, a holder

need, whole = checks("its session data is damaged.")


def compacted(payload: dict, replica) -> dict:
    """`payload` (Replica.to_dict's shape, of `replica`) with its counts and vouched records written compactly."""
    devices = {device for counts in all_counts(replica) for device in counts}
    for device, records in replica.vouched.items():
        devices |= {device, *(record[3] for record in records.values())}
    for holders in replica.holders.values():
        devices |= {*holders, *(record[1] for record in holders.values())}
    devices = sorted(devices)
    place = {device: number for number, device in enumerate(devices)}
    written = {**payload, "v": COMPACT, "d": devices, "tension": flat_counts(replica.tension, place)}
    written["roster"] = {entry_id: {**entry, "counts": {key: flat_counts(counts, place)
                                                        for key, counts in entry["counts"].items()}}
                         for entry_id, entry in payload["roster"].items()}
    written.pop("vouched", None)
    if replica.vouched:
        written["vouched"] = flat_vouched(replica, place)
    if replica.holders:
        written["holders"] = {entry_id: flat_holders(holders, place, replica.clock)
                              for entry_id, holders in replica.holders.items()}
    return written


def all_counts(replica):
    yield replica.tension
    for entry in replica.roster.values():
        yield from entry["counts"].values()


def flat_counts(counts: dict, place: dict) -> list:
    numbers, previous = [], -1
    for number, device in sorted((place[device], device) for device in counts):
        up, down = counts[device]
        numbers += [number - previous, up, up - down]
        previous = number
    return numbers


def flat_holders(holders: dict, place: dict, clock: int) -> list:
    numbers, previous = [], -1
    for number, device in sorted((place[device], device) for device in holders):
        when, writer = holders[device]
        numbers += [number - previous, clock - when, place[writer]]
        previous = number
    return numbers


def flat_vouched(replica, place: dict) -> dict:
    by_target: dict[str, list] = {}
    for device, records in replica.vouched.items():
        for key, record in records.items():
            by_target.setdefault(key, []).append((place[device], device, record))
    written = {}
    for key in sorted(by_target):
        numbers, previous = [], -1
        for number, device, (up, down, clock, writer) in sorted(by_target[key]):
            count_up, count_down = counts_at(replica, key_target(key)).get(device, [0, 0])
            numbers += [number - previous, count_up - up, count_down - down, replica.clock - clock, place[writer]]
            previous = number
        written[key] = numbers
    return written


# --- Reading ---------------------------------------------------------------------------------------

def expanded(payload: dict) -> dict:
    """A compact session payload in Replica.to_dict's shape (SessionError when it is not one)."""
    devices = payload.get("d")
    need(isinstance(devices, list) and all(isinstance(device, str) for device in devices)
         and len(set(devices)) == len(devices))
    clock = whole(payload.get("clock"), 0, 2 ** 63)
    roster = payload.get("roster")
    need(isinstance(roster, dict) and all(isinstance(entry, dict) for entry in roster.values()))
    shaped = {key: value for key, value in payload.items() if key != "d"}
    shaped.update(v=VERSION, tension=counts_of(payload.get("tension"), devices))
    shaped["roster"] = {entry_id: {**entry, "counts": counts_dict(entry.get("counts", {}), devices)}
                        for entry_id, entry in roster.items()}
    if "vouched" in payload:
        shaped["vouched"] = vouched_of(payload["vouched"], shaped, devices, clock)
    if "holders" in payload:
        need(isinstance(payload["holders"], dict))
        shaped["holders"] = {entry_id: holders_of(numbers, devices, clock)
                             for entry_id, numbers in payload["holders"].items()}
    return shaped


def holders_of(numbers, devices: list, clock: int) -> dict:
    holders = {}
    for device, (clock_less, writer) in places(numbers, HOLDER_WIDTH, devices):
        need(0 <= writer < len(devices))
        holders[device] = [clock - clock_less, devices[writer]]
    return holders


def counts_dict(value, devices: list) -> dict:
    need(isinstance(value, dict))
    return {key: counts_of(numbers, devices) for key, numbers in value.items()}


def places(numbers, width: int, devices: list):
    """(device, the numbers after the gap) of one flat list."""
    need(isinstance(numbers, list) and len(numbers) % width == 0
         and all(isinstance(number, int) and not isinstance(number, bool) for number in numbers))
    previous = -1
    for start in range(0, len(numbers), width):
        previous += numbers[start]
        need(numbers[start] > 0 and previous < len(devices))
        yield devices[previous], numbers[start + 1:start + width]


def counts_of(numbers, devices: list) -> dict:
    return {device: [up, up - net] for device, (up, net) in places(numbers, COUNT_WIDTH, devices)}


def vouched_of(value, shaped: dict, devices: list, clock: int) -> dict:
    need(isinstance(value, dict))
    vouched: dict[str, dict] = {}
    for key, numbers in value.items():
        need(isinstance(key, str))
        target = key_target(key)
        if target == ("tension",):
            counts = shaped["tension"]
        else:
            entry = shaped["roster"].get(target[1])
            counts = entry["counts"].get(target[2], {}) if entry is not None else {}
        for device, (up_less, down_less, clock_less, writer) in places(numbers, VOUCH_WIDTH, devices):
            need(0 <= writer < len(devices))
            count_up, count_down = counts.get(device, [0, 0])
            vouched.setdefault(device, {})[key] = [count_up - up_less, count_down - down_less, clock - clock_less,
                                                   devices[writer]]
    return vouched


def is_compact(payload) -> bool:
    return isinstance(payload, dict) and payload.get("v") == COMPACT

