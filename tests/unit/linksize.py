"""Sessions whose share link is as large as a campaign makes it, for tests/unit/session/test_session_link_size.py
and bench/bench_links.py (issue 30): a full roster's counts stepped on many phones and vouched for by the GM,
and the worst case the replica's caps allow, built from the cap constants themselves (a changed cap changes it).

Built as the replica the taps leave (counts and vouched records of each phone, names at their longest), not
tapped: tapping 60 characters on 64 phones would take minutes."""
import base64
import random
import zlib

from session.links import v2 as link_v2
from session.links.v2 import MAX_MARKS
from session.links.text import split
from session.headcount import MAX_PEOPLE
from session.model import MAX_NAME, MAX_SESSION_NAME, blank_sheet, new_session
from session.replica import ENTRY_COUNTS, LINK_CLOCK, MAX_STEPS, Replica, target_key
from session.replica_check import MAX_DEVICES, MAX_EFFECTS, ROSTER_RECORDS
from session.model import MAX_POINTS

GM = f"{1:016x}"


def phones(count: int) -> list[str]:
    return [f"{number:016x}" for number in range(1, count + 1)]


def full_table(devices: int, steps: list, vouched: bool = True, entries: int = MAX_PEOPLE) -> Replica:
    """A session of `entries` characters with the longest names, each with a sheet in every rule system,
    whose Tension and every AP, Health and Willpower (of their Tension Engine sheets) were stepped
    (`steps`: [up, down]) on each of `devices` phones and (`vouched`) vouched for by the GM. Characters
    past MAX_PEOPLE are removed ones with their Tension Engine sheet only (their removal written, as an
    older phone kept it, with every count and record: the replica's check drops those)."""
    session = new_session("S" * MAX_SESSION_NAME, "tension", 3)
    session["id"] = "campaign"
    session["roster"] = [{"id": f"c{number:03d}", "system": "tension", "kind": "character",
                          "name": f"{number:03d}" + "x" * (MAX_NAME - 3), "attributes": [], "skills": [],
                          "ap": 3, "health": 10, "willpower": 8} for number in range(entries)]
    session["roster"] += [{"id": f"c{number:03d}-{system[0]}", "system": system, "kind": "character",
                           "name": f"{number:03d}" + "x" * (MAX_NAME - 3), **blank_sheet(system, "character")}
                          for number in range(min(entries, MAX_PEOPLE)) for system in ("anomaly", "manners")]
    replica = Replica.from_session(session)
    replica.clock = 10 ** 9
    replica.gm = [GM, 1, GM]
    for number, entry in enumerate(replica.roster.values()):
        entry["added"] = [3 + number, GM]  # (a version-1 session's stamps below 0 fit only MAX_SHEETS entries)
        if number >= MAX_PEOPLE and number < entries:
            entry["removed"] = [2, GM]
    for device in phones(devices):
        replica.tension[device] = list(steps)
        for entry in replica.roster.values():
            for count in entry["counts"]:
                entry["counts"][count][device] = list(steps)
        if vouched:
            targets = [("tension",)] + [("entry", key, count) for key, entry in replica.roster.items()
                                        if entry["counts"] for count in ENTRY_COUNTS]
            replica.vouched[device] = {target_key(target): [*steps, 10 ** 9, GM] for target in targets}
    return replica


def varied(replica: Replica, top: int, seed: int, clocks: bool = False) -> Replica:
    """`replica` with every phone's steps of every count, and every vouched record, drawn at random up to
    `top` (a campaign's counts differ from phone to phone; equal ones compress to almost nothing), and
    (`clocks`) each record stamped at a random clock up to the replica's."""
    draw = random.Random(seed)

    def steps() -> list:
        up = draw.randint(0, top)
        return [up, draw.randint(0, up)]
    for counts in [replica.tension] + [counts for entry in replica.roster.values() for counts in entry["counts"].values()]:
        for device in counts:
            counts[device] = steps() if device else counts[device]
    for records in replica.vouched.values():
        for key, record in records.items():
            records[key] = [*steps(), draw.randint(1, replica.clock) if clocks else record[2], record[3]]
    return replica


def campaign(devices: int) -> Replica:
    """Last session's measured case: counts that differ from phone to phone, each up to 200 steps."""
    return varied(full_table(devices, [1, 0]), 200, 30)


def caps_worst_case() -> Replica:
    """The largest counts the replica's check accepts: ROSTER_RECORDS entries (MAX_PEOPLE people live with a
    sheet in each rule system, the rest removed), each count (and Tension) stepped on MAX_DEVICES phones (the base one included) up to MAX_STEPS each way at random, each
    vouched for at a random clock, the link's clock as high as a link carries."""
    replica = full_table(MAX_DEVICES - 1, [1, 0], entries=ROSTER_RECORDS - 2 * MAX_PEOPLE)  # base counts: the 64th phone
    replica.clock = LINK_CLOCK
    return varied(replica, MAX_STEPS, 30, clocks=True)


def widest_worst_case() -> Replica:
    """The caps' worst case with every number as wide as the checks let it be (the most bytes a link of a
    session this version keeps unpacks to): counts MAX_STEPS up and none down, vouched records of MAX_STEPS
    down and none up stamped at clock 1, and every roster entry held by MAX_DEVICES phones at clock 1;
    beside them MAX_MARKS undo marks (all a link carries), each by MAX_DEVICES phones with MAX_EFFECTS effects."""
    replica = caps_worst_case()
    for counts in [replica.tension] + [counts for entry in replica.roster.values() for counts in entry["counts"].values()]:
        for device in counts:
            counts[device] = [MAX_STEPS, 0]
    for records in replica.vouched.values():
        for key, record in records.items():
            records[key] = [0, MAX_STEPS, 1, record[3]]
    everyone = phones(MAX_DEVICES)
    replica.holders = {entry_id: {device: [1, GM] for device in everyone} for entry_id in replica.roster}
    effects = [{"field": "ap", "id": "c" + "9" * 23, "delta": -MAX_POINTS}] * MAX_EFFECTS
    replica.undone = {f"{number:024d}": {"by": {device: 1 for device in everyone}, "effects": effects}
                      for number in range(MAX_MARKS)}
    return replica


def unpacked_size(fragment: str) -> int:
    """Bytes of JSON the link unpacks to (what MAX_DECODED caps)."""
    _, _, data = split(fragment)
    packed = base64.b32decode(data + "=" * (-len(data) % 8))
    return len(zlib.decompressobj(zdict=link_v2.PRESET).decompress(packed))
