"""History is immutable and verified, and the preview is the change (issue 23, items 4 and 5):
a link that changes a logged entry is refused by name, every entry is checked with its dice and
its effects read from its record, undo marks reverse what this phone logged, a roll link carries
its roll alone; and what the preview lists is exactly what merging changes."""
import copy

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import rules
from session import SessionError, history, log_conflict, undo_last
from session.differences import merge_differences, sealed_steps
from session.links import v2 as link_v2
from session.links.text import LinkError
from session.links.text import split, unpack
from session.log import effects_of
from session.logbook import merge_in
from session.model import MAX_SHEETS
from session.replica import Replica
from session.sealed.exchange import digest, lock_test
from samples import logged_party

PLAYER, GM = "ab12cd34", "ef56ab78"


def roll(replica: Replica, device: str, dice=(6, 4, 3, 1, 1), gm=(6, 5, 2, 1, 1), damage: bool = False) -> str:
    """Ash rolls on `device` (an opposed combat roll against the Ghoul-like second entry when
    `damage`); the new entry's id."""
    before = replica.session()
    ash = before["roster"][0]
    player = {"name": ash["name"], "id": ash["id"], "side": "character", "pool": 5, "dice": list(dice),
              "keep": [0, 1, 2], "ap": 1}
    if damage:
        target = before["roster"][1]
        record = {"v": 1, "system": "tension", "kind": "opposed", "combat": True, "tension": before["tension"],
                  "initiators": [player],
                  "defender": {"name": target["name"], "id": target["id"], "side": "character", "pool": 3,
                               "dice": [1, 1, 2], "keep": [0, 1]}}
    else:
        record = {"v": 1, "system": "tension", "kind": "environment", "tension": before["tension"],
                  "gm": {"name": "The GM", "dice": [gm[face % len(gm)] for face in range(before["tension"])]},
                  "player": player}
    after = log_conflict(before, rules.resolve(record), at="2025-06-01T20:30:00+02:00", by=ash["name"],
                         number=len(before["log"]) + 1, phone=ash["name"])
    replica.absorb(before, after, device)
    return after["log"][0]["id"]


def session_payload(replica: Replica) -> dict:
    payload = replica.to_dict(log=False)
    payload["log"] = [link_v2.in_transit(entry) for entry in replica.live_log()]
    return copy.deepcopy(payload)


def unpacked(link: str) -> dict:
    _, version, data = split(link)
    return unpack(data, version, link_v2.PRESET)


def fragment(payload: dict, kind: str = "S") -> str:
    return f"{kind}2.{link_v2.pack(payload)}"


def two_phones():
    party = logged_party()
    return Replica.from_session(party), Replica.from_session(party)


# --- One content per id -----------------------------------------------------------------------------

def test_a_session_link_that_rewrites_a_logged_roll_is_refused_by_the_logs_name():
    mine, theirs = two_phones()
    entry_id = roll(mine, PLAYER)
    theirs = mine.copy()
    entry = theirs.log[entry_id]
    entry["record"]["player"]["dice"] = [6, 6, 6, 6, 6]  # other dice: a success it never was
    entry["record"] = rules.resolve({k: v for k, v in entry["record"].items() if k != "result"})
    entry["effects"] = effects_of(entry["record"])
    incoming = link_v2.read(fragment(session_payload(theirs))).replica  # it holds together by itself
    with pytest.raises(history.Rewritten) as refused:
        merge_in(mine, incoming, {}, {})
    assert str(refused.value) == f"This link changes conflict {entry['phone']} {entry['n']} that is already logged: " \
                                 "nothing was changed."


def test_an_entry_held_only_in_the_log_store_is_compared_too():
    mine, _ = two_phones()
    entry_id = roll(mine, PLAYER)
    forged = mine.copy()
    forged.log[entry_id]["record"]["player"]["name"] = "Someone else"  # another roller
    held = {entry_id: mine.log.pop(entry_id)}  # in the store only
    mine.complete = False
    with pytest.raises(history.Rewritten):
        merge_in(mine, forged, {entry_id: "conflict"}, held)


def test_the_same_conflict_logged_on_two_phones_is_one_content():
    # A sealed-card exchange logs one conflict on both phones under one id (log_conflict's same_as).
    mine, theirs = two_phones()
    entry_id = roll(mine, PLAYER)
    twin = {**copy.deepcopy(mine.log[entry_id]), "by": "The GM", "at": "", "clock": 9, "device": GM, "n": 4,
            "phone": "GM"}
    assert history.content(twin) == history.content(mine.log[entry_id])
    theirs.log[entry_id] = twin
    assert merge_in(mine, theirs, {}, {}).replica.log[entry_id]


# --- Every entry verified, its effects from its record -----------------------------------------------

def test_effects_a_link_says_its_dice_did_not_do_are_refused():
    mine, _ = two_phones()
    entry_id = roll(mine, PLAYER)
    payload = session_payload(mine)
    [travelling] = [entry for entry in payload["log"] if entry["id"] == entry_id]
    ash = mine.session()["roster"][0]
    travelling.update(resolved=True, effects=[{"field": "health", "id": ash["id"], "delta": -99}])
    with pytest.raises(LinkError, match="not what its dice did"):
        link_v2.read(fragment(payload))


def test_effects_held_at_the_end_of_a_range_still_travel():
    mine, _ = two_phones()
    before = mine.session()
    mine.absorb(before, {**before, "tension": 98}, PLAYER)
    entry_id = roll(mine, PLAYER)  # +2 Tension from 98: only +1 made
    assert mine.log[entry_id]["effects"][0]["delta"] == 1
    incoming = link_v2.read(link_v2.session_link(mine)).replica
    assert incoming.log[entry_id]["effects"] == mine.log[entry_id]["effects"]


@pytest.mark.parametrize("resolved", [True, "effects"])
def test_a_resolved_roll_without_a_record_is_a_sentence(resolved):
    mine, _ = two_phones()
    entry_id = roll(mine, PLAYER)
    message = link_v2.read(link_v2.roll_message(mine, entry_id)).replica
    payload = {"p": {"id": mine.id, "tension": {}, "roster": {},
                     "log": [{"id": entry_id, "clock": 3, "device": PLAYER, "resolved": resolved}]}}
    assert message.log
    with pytest.raises(LinkError, match="can't be opened"):
        link_v2.read(fragment(payload, "R"))


def test_a_session_entry_whose_result_breaks_its_rules_is_refused():
    mine, _ = two_phones()
    roll(mine, PLAYER)
    payload = session_payload(mine)
    payload["log"][0]["record"]["player"]["dice"] = [9, 9, 9, 9, 9]  # no die of the Tension Engine
    with pytest.raises(LinkError, match="does not hold together"):
        link_v2.read(fragment(payload))


# --- Undo marks reverse what this phone holds ----------------------------------------------------------

def test_an_undo_marks_effects_are_the_entry_this_phone_holds():
    mine, _ = two_phones()
    entry_id = roll(mine, PLAYER, damage=True)
    theirs = mine.copy()
    for device in (PLAYER, GM):  # undone on two phones: the correction adds one back
        before = theirs.session()
        theirs.absorb(before, undo_last(before), device) if before["log"][0]["id"] == entry_id else None
    theirs.undone[entry_id] = {"by": {PLAYER: 50, GM: 51}, "effects": [
        {"field": "health", "id": mine.session()["roster"][1]["id"], "delta": -90}]}  # forged
    theirs.clock = max(theirs.clock, 51)  # a link's stamps are within its clock (replica_check.check_clock)
    incoming = link_v2.read(link_v2.session_link(theirs)).replica
    merged = merge_in(mine, incoming, {}, {}).replica
    assert merged.undone[entry_id]["effects"] == mine.log[entry_id]["effects"]
    unknown = {"by": {PLAYER: 50, GM: 51}, "effects": [{"field": "tension", "id": None, "delta": 50}]}
    incoming.undone["feedbeef"] = unknown
    merged = merge_in(mine, incoming, {}, {}).replica
    assert merged.undone["feedbeef"]["effects"] == []  # an entry never seen here reverses nothing here


# --- A roll link carries its roll and nothing else -----------------------------------------------------

@pytest.mark.parametrize("extra", [
    {"fields": {"name": ["Renamed", 99, GM]}},
    {"undone": {"feedbeef": {"by": {GM: 5}, "effects": []}}},
    {"sealed": {}},
    {"clock": 5},
])
def test_a_roll_link_with_other_changes_is_refused(extra):
    mine, _ = two_phones()
    entry_id = roll(mine, PLAYER)
    payload = {"p": {**unpacked(link_v2.roll_message(mine, entry_id))["p"], **extra}}
    with pytest.raises(LinkError, match="its roll and nothing else"):
        link_v2.read(fragment(payload, "R"))


@pytest.mark.parametrize("sheet", [{"removed": [9, GM]}, {"fields": {"name": ["Mallory", 9, GM]}},
                                   {"added": [9, GM]}])
def test_a_roll_link_that_changes_a_sheet_is_refused(sheet):
    mine, _ = two_phones()
    entry_id = roll(mine, PLAYER)
    payload = unpacked(link_v2.roll_message(mine, entry_id))
    [entry_key] = payload["p"]["roster"]
    payload["p"]["roster"][entry_key].update(sheet)
    with pytest.raises(LinkError, match="its roll and nothing else"):
        link_v2.read(fragment(payload, "R"))


def test_a_roll_link_brings_only_the_counts_its_effects_changed():
    mine, _ = two_phones()
    entry_id = roll(mine, PLAYER)
    payload = unpacked(link_v2.roll_message(mine, entry_id))
    other = mine.session()["roster"][1]["id"]
    payload["p"]["roster"][other] = {"counts": {"health": {PLAYER: [0, 9]}}}  # not the roll's
    payload["p"]["tension"][GM] = [0, 5]  # nor another phone's
    incoming = link_v2.read(fragment(payload, "R")).replica
    assert other not in incoming.roster and set(incoming.tension) == {PLAYER}


# --- The preview is the change ----------------------------------------------------------------------

SEALED = [lock_test(f"c{number:07d}", {"name": "Wren", "manner": "Force", "manner_rating": number, "skill_rating": 1,
                                       "helpers": 0, "descriptors": 0}) for number in range(4)]

taps = st.lists(st.tuples(st.sampled_from(["name", "players", "table", "tension", "ap", "health", "add",
                                           "remove", "reorder", "roll", "undo", "sealed"]),
                          st.integers(0, 5)), max_size=8)


def tapped(replica: Replica, device: str, steps) -> Replica:
    """`replica` after random taps on `device`."""
    for kind, number in steps:
        before = replica.session()
        roster = before["roster"]
        after = None
        if kind == "name":
            after = {**before, "name": f"Friday {number}"}
        elif kind == "players":
            after = {**before, "players": 1 + number}
        elif kind == "table":
            after = {**before, "tension_table": [f"{device} {number}"] * 6}
        elif kind == "tension":
            after = {**before, "tension": min(99, max(0, before["tension"] + number - 2))}
        elif kind in ("ap", "health") and roster and kind in roster[number % len(roster)]:
            index = number % len(roster)
            changed = {**roster[index], kind: max(0, roster[index][kind] - 1 - number % 2)}
            after = {**before, "roster": [*roster[:index], changed, *roster[index + 1:]]}
        elif kind == "add":
            newcomer = {**roster[0], "id": f"{device[:4]}{number:04d}", "name": f"Newcomer {number}"} if roster \
                else None
            if newcomer and newcomer["id"] not in replica.roster:
                after = {**before, "roster": [*roster, newcomer]}
        elif kind == "remove" and len(roster) > 1:
            after = {**before, "roster": [entry for entry in roster if entry is not roster[number % len(roster)]]}
        elif kind == "reorder" and roster:  # a phone that says it had this entry first
            lowest = min(entry["added"][0] for entry in replica.roster.values() if entry["added"])
            replica.roster[roster[number % len(roster)]["id"]]["added"] = [max(-MAX_SHEETS, lowest - 1), device]
        elif kind == "roll" and roster and "ap" in roster[0]:
            roll(replica, device, dice=(6, 1 + number, 3, 1, 1), damage=number % 2 == 1 and len(roster) > 1)
        elif kind == "undo" and before["log"]:
            after = undo_last(before)
        elif kind == "sealed":
            replica.add_sealed(SEALED[number % len(SEALED)])
        if after is not None:
            replica.absorb(before, after, device)
    return replica


def actual_changes(mine: Replica, merged: Replica) -> set:
    """Everything merging changed, from the two replicas themselves."""
    before, after = mine.session(), merged.session()
    found = {("session", key) for key in ("name", "system", "players", "tension", "settings", "tension_table")
             if before[key] != after[key]}
    old = {entry["id"]: entry for entry in before["roster"]}
    new = {entry["id"]: entry for entry in after["roster"]}
    found |= {(entry_id, "added") for entry_id in new.keys() - old.keys()}
    found |= {(entry_id, "removed") for entry_id in old.keys() - new.keys()}
    found |= {(entry_id, key) for entry_id in old.keys() & new.keys() for key in old[entry_id].keys() | new[entry_id].keys()
              if key != "id" and old[entry_id].get(key) != new[entry_id].get(key)}
    if [key for key in old if key in new] != [key for key in new if key in old]:
        found.add(("session", "order"))
    old_log = {entry["id"] for entry in before["log"]}
    new_log = {entry["id"] for entry in after["log"]}
    if old_log != new_log:
        found.add(("log", len(old_log - new_log), len(new_log - old_log)))
    if sealed_steps(merged) != sealed_steps(mine):
        found.add(("session", "sealed"))
    return found


def previewed(found) -> set:
    listed = set()
    for difference in found:
        if difference.field == "log":
            listed.add(("log", difference.before, difference.after))
        else:
            listed.add((difference.entry_id or "session", difference.field))
    return listed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shared=taps, here=taps, there=taps)
def test_the_preview_lists_exactly_what_merging_changes(shared, here, there):
    common = tapped(Replica.from_session(logged_party()), GM, shared)
    mine = tapped(common.copy(), PLAYER, here)
    theirs = tapped(common.copy(), GM, there)
    incoming = link_v2.read(link_v2.session_link(theirs, latest=100)).replica
    merged = merge_in(mine, incoming, {}, {})
    found = merge_differences(mine, merged.replica, (merged.undone, merged.added))
    changes = actual_changes(mine, merged.replica)
    for change in changes:
        if change[0] == "log":
            event("log: entries undone" if change[1] else "log: entries added")
        else:
            event(f"{change[0]} {change[1]}" if change[0] == "session" else f"roster {change[1]}")
    assert previewed(found) == changes
    from ui.arrivals.changes import change_lines  # the words say each of them

    lines = change_lines(found, mine.session(), merged.replica.session())
    assert bool(lines) == bool(found)
    assert all(line.strip() for line in lines)


def test_roster_order_and_sealed_steps_are_in_the_preview():
    common = Replica.from_session(logged_party())
    mine, theirs = common.copy(), tapped(common.copy(), GM, [("reorder", 1), ("sealed", 0)])
    merged = merge_in(mine, link_v2.read(link_v2.session_link(theirs)).replica, {}, {})
    found = merge_differences(mine, merged.replica, (merged.undone, merged.added))
    assert {difference.field for difference in found} == {"order", "sealed"}
    assert digest(SEALED[0]) in merged.replica.sealed[SEALED[0]["c"]]
    assert isinstance(history.Rewritten("x"), SessionError)  # refused like any bad link: a sentence
