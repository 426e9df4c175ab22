"""ui.core.people across phones (issue 30, item 1): a person is their typed sheets and the sheets derived
from them (session.lineage), so a rename, a derived sheet and a removal made on different phones meet as
one person, or none, on every phone, in any merge order; an older session's sheets typed separately
in each system still make one person by name."""
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.words import isolate
from session import blank_sheet, check_roster_entry, lineage, new_session
from session.ownership import Table
from session.replica import Replica
from ui.core.people import derived, derived_id, people, person_of, renamed, sheet_in, without

BRIN = "b1a2c3d4e5f6"


def sheet(entry_id: str, system: str, name: str, kind: str = "character") -> dict:
    return check_roster_entry({"id": entry_id, "system": system, "kind": kind, "name": name,
                               **blank_sheet(system, kind)})


def table(*sheets) -> Replica:
    return Replica.from_session({**new_session(system="tension"), "roster": list(sheets)})


def change(replica: Replica, device: str, how):
    before = replica.session()
    replica.absorb(before, {**before, "roster": how(before["roster"])}, device)


def rename(entry_id: str, name: str):
    return lambda roster: renamed(roster, entry_id, name)


def derive(entry_id: str, system: str):
    def adding(roster):
        person = person_of(roster, entry_id)
        return roster + [derived(roster, person, system)] if sheet_in(roster, person, system) is None else roster
    return adding


def remove(entry_id: str):
    return lambda roster: without(roster, entry_id)


def test_a_rename_on_one_phone_while_another_adds_the_missing_sheet_keeps_one_person_named_as_renamed():
    base = table(sheet(BRIN, "tension", "Brin"), sheet("0a0b0c0d0e0f", "anomaly", "Brin"))
    first, second = base.copy(), base.copy()
    change(first, "phone-a", rename(BRIN, "Bob"))
    change(second, "phone-b", derive(BRIN, "manners"))
    for merged in (first.merge(second), second.merge(first)):
        roster = merged.session()["roster"]
        assert [(person.name, len(person.ids)) for person in people(roster)] == [("Bob", 3)]
        cards = next(entry for entry in roster if entry["system"] == "manners")
        assert cards["id"] == "0a0b0c0d0e0f-m" and cards["name"] == "Bob"  # what the Manner Cards screen shows


def test_the_derived_sheet_is_the_holders_own_and_names_them_after_a_rename():
    base = table(sheet(BRIN, "tension", "Brin"))
    base.holders = {BRIN: {"player": [1, "gm"]}}
    first, second = base.copy(), base.copy()
    change(first, "gm", rename(BRIN, "Bob"))
    change(second, "player", derive(BRIN, "manners"))
    merged = second.merge(first)
    assert Table(second, first, "gm").holds("player", f"{BRIN}-m")  # the player's own sheet, to change at once
    assert Table(first, second, "gm").holds("player", f"{BRIN}-m")  # and so on the GM's phone, renamed already
    merged_table = Table(merged, merged, "gm")
    assert merged_table.holds("player", f"{BRIN}-m") and merged_table.who("player") == isolate("Bob")


def test_a_person_removed_on_one_phone_while_another_adds_their_sheet_stays_removed():
    base = table(sheet(BRIN, "tension", "Brin"), sheet("c0ffee000001", "tension", "Cass"))
    first, second = base.copy(), base.copy()
    change(first, "phone-a", remove(BRIN))
    change(second, "phone-b", derive(BRIN, "manners"))
    for merged in (first.merge(second), second.merge(first)):
        assert [person.name for person in people(merged.session()["roster"])] == ["Cass"]


def test_an_older_sessions_sheets_typed_in_each_system_are_one_person_by_name():
    roster = [sheet("ffff00000001", "tension", "Rook"), sheet("aaaa00000002", "manners", " rook "),
              sheet("bbbb00000003", "anomaly", "Vex", "adversary")]
    rook, vex = people(roster)
    assert (rook.name, rook.ids, rook.systems) == ("Rook", ("ffff00000001", "aaaa00000002"), ("tension", "manners"))
    assert derived_id(rook, "anomaly") == "aaaa00000002-a" and vex.ids == ("bbbb00000003",)
    added = derive("ffff00000001", "anomaly")(roster)
    assert [len(person.ids) for person in people(renamed(added, "ffff00000001", "Rooke"))] == [3, 1]


def test_a_long_typed_id_is_found_from_the_prefix_its_derived_sheets_keep():
    long_id = "0123456789abcdef01234567"  # 24 characters, the most an id has
    roster = [sheet(long_id, "tension", "Rook")]
    person = people(roster)[0]
    added = renamed(derive(long_id, "manners")(roster), long_id, "Rooke")
    assert derived_id(person, "manners") == "0123456789abcdef01234-m"
    assert [(person.name, person.ids) for person in people(added)] == [("Rooke", (long_id, "0123456789abcdef01234-m"))]
    assert lineage.parent("0123456789abcdef01234-m", {long_id, "0123456789abcdef01234-m"}) == long_id


# --- Any operations on two or three phones, merged in every order ------------------------------------------

PERSONS = {"b1a2c3d4e5f6": ("Brin", "Bob", "Brinna"),  # typed once, in the Tension Engine
           "c0ffee000001": ("Cass", "Cassia", "Kit")}  # an older session's: typed twice, related by name
OLD_TWIN = "00aa00bb00cc"
START = [sheet("b1a2c3d4e5f6", "tension", "Brin"), sheet("c0ffee000001", "tension", "Cass"),
         sheet(OLD_TWIN, "anomaly", "Cass")]
ORIGIN = {"b1a2c3d4e5f6": "b1a2c3d4e5f6", "c0ffee000001": "c0ffee000001", OLD_TWIN: "c0ffee000001"}

operation = st.one_of(
    st.tuples(st.just("rename"), st.integers(0, 2), st.sampled_from(sorted(PERSONS)), st.integers(0, 2)),
    st.tuples(st.just("derive"), st.integers(0, 2), st.sampled_from(sorted(PERSONS)),
              st.sampled_from(("tension", "anomaly", "manners"))),
    st.tuples(st.just("remove"), st.integers(0, 2), st.sampled_from(sorted(PERSONS)), st.just(0)),
    st.tuples(st.just("merge"), st.integers(0, 2), st.integers(0, 2), st.just(0)),
)


def origin(entry_id: str) -> str:
    return ORIGIN.get(entry_id) or ORIGIN[next(typed for typed in ORIGIN if entry_id.startswith(typed))]


def play(phones: list[Replica], step):
    what, at, target, detail = step
    phone = phones[at]
    if what == "merge":
        phones[at] = phone.merge(phones[target])
        return
    if target not in {entry["id"] for entry in phone.session()["roster"]}:
        return  # removed here already
    if what == "rename":
        change(phone, f"phone-{at}", rename(target, PERSONS[target][detail]))
    elif what == "derive" and derived_id(person_of(phone.session()["roster"], target), detail) not in phone.roster:
        change(phone, f"phone-{at}", derive(target, detail))  # as ui.core.role.fill_player_sheet: never one removed
    elif what == "remove":
        change(phone, f"phone-{at}", remove(target))


def grouping(replica: Replica) -> list[tuple]:
    return [(person.name, person.ids) for person in people(replica.session()["roster"])]


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 3), st.lists(operation, max_size=12))
def test_every_phone_ends_with_the_same_people_none_split_and_no_ghosts(count, steps):
    start = table(*START)
    phones = [start.copy() for _ in range(count)]
    for step in steps:
        if step[1] < count and (step[0] != "merge" or step[2] < count):
            play(phones, step)
    results = set()
    for order in permutations(range(count)):
        merged = phones[order[0]].copy()
        for index in order[1:]:
            merged = merged.merge(phones[index])
        results.add(tuple(grouping(merged)))
        roster = merged.session()["roster"]
        origins = [{origin(entry_id) for entry_id in person.ids} for person in people(roster)]
        assert all(len(found) == 1 for found in origins)  # no two people in one
        assert len({min(found) for found in origins}) == len(origins)  # no person split in two
        for person in people(roster):
            assert any(entry_id in ORIGIN for entry_id in person.ids)  # no ghost of only blank sheets
            assert {entry["name"] for entry in roster if entry["id"] in person.ids} == {person.name}
    assert len(results) == 1
