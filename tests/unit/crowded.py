"""Sessions at the edge, for the merge tests (test_session_merging.py) and bench/bench_merge.py:
a campaign's whole life (20,000 entries, 2,000 undos, 12 phones, 60 characters across the
systems) and the costliest session link the format accepts (session.links.text.MAX_DECODED
filled with counts of many phones and undo marks of many effects)."""
import json

import rules
from session import check_roster_entry, log_conflict, new_session
from session.links.text import MAX_DECODED
from session.links.v2 import LATEST, MAX_MARKS
from session.replica import Replica
from session.replica_check import MAX_EFFECTS

PHONES = [f"{number:08x}" for number in range(1, 65)]  # device ids, as new_device() makes them


def quick_record() -> dict:
    return rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 3,
                          "gm": {"name": "The GM", "total": 4}, "player": {"name": "Quick", "pool": 2, "dice": [5, 4]}})


def sheet(system: str, number: int) -> dict:
    name = f"{system.title()} {number}"
    sheets = {"tension": {"ap": 3, "health": 10, "willpower": 8,
                          "attributes": [{"name": "Might", "rating": 2}, {"name": "Wits", "rating": 3}],
                          "skills": [{"name": "Climb", "rating": 1}, {"name": "Brawl", "rating": 2}]},
              "anomaly": {"modifiers": [{"name": "Sword", "kind": "Gear", "value": 2}]},
              "manners": {"manners": {"Force": 2}, "skills": [{"name": "Climb", "rating": 1}]}}
    return check_roster_entry({"id": f"{system[:3]}{number}", "system": system, "kind": "character",
                               "name": name, **sheets[system]})


def roster(systems=("tension", "anomaly", "manners"), count: int = 60) -> list[dict]:
    return [sheet(systems[number % len(systems)], number) for number in range(count)]


def session_of(entries: list[dict]) -> dict:
    session = new_session("The long campaign", players=5)
    session.update(id="long-campaign", roster=entries)  # one session on every phone
    return session


def template_entry() -> dict:
    """A logged conflict as log_conflict writes it (its effects worked out from its record)."""
    return log_conflict(session_of([]), quick_record(), by="Quick")["log"][0]


def counted_by(replica: Replica, phones: list[str], steps: int = 3):
    """Every count (Tension, each character's AP, Health, Willpower) stepped by each of `phones`."""
    for phone in phones:
        replica.tension[phone] = [steps, steps - 1]
        for entry in replica.roster.values():
            for counts in entry["counts"].values():
                counts[phone] = [steps, steps - 1]


def campaign(entries: int = 20_000, undos: int = 2_000, phones: int = 12, doubles: int = 20) -> Replica:
    """A campaign as its GM's phone holds it after years: `entries` logged by `phones` phones in
    turn, every tenth undone (the first `doubles` of them on two phones at once), 60 characters
    across the three systems."""
    replica = Replica.from_session(session_of(roster()))
    devices = PHONES[:phones]
    counted_by(replica, devices)
    template, clock = template_entry(), replica.clock
    for number in range(entries):
        clock += 1
        entry = {**template, "id": f"c{number}", "clock": clock, "device": devices[number % phones]}
        replica.log[entry["id"]] = entry
    step = max(1, entries // max(1, undos))
    for number, entry_number in enumerate(range(0, entries, step)):
        if number >= undos:
            break
        clock += 1
        by = {devices[number % phones]: clock}
        if number < doubles:
            by[devices[(number + 1) % phones]] = clock
        replica.undone[f"c{entry_number}"] = {"by": by, "effects": template["effects"]}
    replica.clock = clock
    replica.fresh, replica.counted, replica.corrections = list(replica.log.values()), None, None
    return replica


def heaviest_marks(replica: Replica, phones: list[str], limit: int = MAX_MARKS):
    """Undo marks of entries this session never had, each by every one of `phones` and with as many
    effects on the roster's counts as a mark may carry: the costliest marks to count."""
    targets = [(entry_id, key) for entry_id, entry in replica.roster.items() for key in ("ap", "health")]
    for number in range(limit):
        effects = [{"field": key, "id": entry_id, "delta": -1}
                   for entry_id, key in targets[number % len(targets):][:MAX_EFFECTS]]
        effects += [{"field": "tension", "id": None, "delta": 1}] * (MAX_EFFECTS - len(effects))
        replica.clock += 1
        replica.undone[f"gone{number}"] = {"by": {phone: replica.clock for phone in phones}, "effects": effects}
        yield


def largest_link_replica(phones: int = 12, markers: int = 8) -> Replica:
    """The costliest session a link carries: 60 Tension Engine characters whose every count was
    changed on `phones` phones, its LATEST newest entries, and as many undo marks (each made on
    `markers` phones, MAX_EFFECTS effects) as fit the MAX_DECODED bytes a link unpacks to."""
    replica = Replica.from_session(session_of(roster(("tension",))))
    counted_by(replica, PHONES[:phones])
    template = template_entry()
    for number in range(LATEST):
        entry = {**template, "id": f"n{number}", "clock": replica.clock + 1, "device": PHONES[0]}
        replica.log[entry["id"]] = entry
        replica.clock += 1
    for _ in heaviest_marks(replica, PHONES[phones:phones + markers]):
        if len(json.dumps(replica.to_dict(), separators=(",", ":"))) > MAX_DECODED * 0.9:
            break
    replica.corrections = None
    return replica


def as_held(replica: Replica, page: int = 20) -> Replica:
    """A replica as a phone holds it in memory: its head and the newest `page` entries of its log
    (the rest is in the log store: Replica.complete is False)."""
    held = Replica.from_dict(replica.to_dict(log=False))
    newest = sorted(replica.log.values(), key=lambda entry: (entry["clock"], entry["device"], entry["id"]))[-page:]
    held.log = {entry["id"]: entry for entry in newest}
    held.complete, held.fresh, held.counted = False, [], dict(replica.tally())
    return held
