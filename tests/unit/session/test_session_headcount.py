"""session.headcount and the replica's check of it (issue 30, item 1): a session keeps MAX_PEOPLE people, each
with a sheet in every rule system, counted from the replica alone; a link past it is refused in a sentence;
the check made before a tap (check_additions) reaches the verdict the check of the result would; and the
verdict on what merged is the same on every phone, whatever order the phones' changes reached it in."""
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session import blank_sheet, check_roster_entry, check_session, new_session
from session.errors import Overfull, SessionError
from session.headcount import MAX_PEOPLE
from session.links.text import LinkError
from session.links.v2 import read, session_link
from session.model import SYSTEMS
from session.replica import Replica
from session.replica_check import check_additions, check_replica
from ui.core.people import derived, everywhere, people, person_of, without

FIRST = ("tension", "anomaly", "manners")


def person(name: str, system: str = "tension", kind: str = "character", entry_id: str | None = None) -> dict:
    return check_roster_entry({"system": system, "kind": kind, "name": name, "id": entry_id,
                               **blank_sheet(system, kind)})


def party(count: int) -> list[dict]:
    roster = []
    for number in range(count):
        entry = person(f"Hero {number}", FIRST[number % 3], entry_id=f"h{number:04d}")
        roster = everywhere(roster + [entry], entry)
    return roster


def table(roster: list[dict]) -> Replica:
    return Replica.from_session({**new_session(system="tension"), "roster": roster})


def with_roster(replica: Replica, roster: list[dict], device: str = "a1") -> Replica:
    """`replica` after a phone made `roster` its roster (unchecked, as an altered page could)."""
    replica = replica.copy()
    was = replica.session()
    replica.absorb(was, {**was, "roster": roster}, device)
    return replica


def verdict(replica: Replica) -> str:
    try:
        check_replica(replica.to_dict())
    except SessionError as error:
        return str(error)
    return ""


def test_sixty_people_with_every_sheet_open_and_the_sixty_first_is_refused_in_a_sentence():
    roster = party(MAX_PEOPLE)
    assert len(roster) == MAX_PEOPLE * len(SYSTEMS) and verdict(table(roster)) == ""
    assert check_session({**new_session(), "roster": roster})["roster"] == roster
    extra = person("One more")
    over = everywhere(roster + [extra], extra)
    assert verdict(with_roster(table(roster), over)) == \
        f"The session has more than {MAX_PEOPLE} characters and adversaries."
    one_sheet_each = [person(f"Hero {number}", FIRST[number % 3]) for number in range(MAX_PEOPLE + 1)]
    with pytest.raises(Overfull, match=f"more than {MAX_PEOPLE} characters and adversaries"):  # a file's session
        check_session({**new_session(), "roster": one_sheet_each})


def test_a_link_past_the_limit_opens_nothing_and_says_why():
    roster = party(MAX_PEOPLE)
    over = with_roster(table(roster), roster + [person("One more")])
    with pytest.raises((LinkError, SessionError), match=f"more than {MAX_PEOPLE} characters and adversaries"):
        read(session_link(over))


def hidden_sheet(typed_id: str, system: str) -> Replica:
    """MAX_PEOPLE people, one of whom (typed as `typed_id`, with no sheet in `system`) was removed on one phone
    while another gave them their blank sheet in `system`: merged, that sheet stays, hidden."""
    base = table([entry for entry in party(MAX_PEOPLE) if entry["id"] != f"{typed_id}-{system[0]}"])
    removing, adding = base.copy(), base.copy()
    was = removing.session()
    removing.absorb(was, {**was, "roster": without(was["roster"], typed_id)}, "aa")
    was = adding.session()
    adding.absorb(was, {**was, "roster": was["roster"] + [derived(was["roster"], person_of(was["roster"], typed_id),
                                                                  system)]}, "bb")
    return removing.merge(adding)


def test_sheets_of_one_system_past_the_limit_are_refused_hidden_ones_included():
    """Two sheets of one person in one system (an older session's name typed twice) count as two sheets;
    a blank sheet hidden because its person was removed meanwhile (session.lineage) takes its room too."""
    twice = [person("Twice", "anomaly", entry_id="tw1"), person("Twice", "anomaly", entry_id="tw2")]
    roster = party(MAX_PEOPLE - 1) + twice
    assert verdict(table(roster)) == f"The session has more than {MAX_PEOPLE} sheets in one rule system."
    replica = hidden_sheet("h0001", "tension")  # Hero 1's
    shown = replica.session()["roster"]
    assert "h0001-t" not in [entry["id"] for entry in shown] and len(people(shown)) == MAX_PEOPLE - 1
    assert verdict(replica) == ""  # 60 Tension Engine sheets with the hidden one
    added = person("Newcomer", "anomaly")
    with pytest.raises(Overfull, match="sheets in one rule system"):  # its Tension Engine sheet: the 61st
        check_additions(replica, everywhere(shown + [added], added))


def test_counts_on_a_sheet_with_none_in_its_system_are_refused():
    replica = table(party(2))
    anomaly = next(key for key, entry in replica.roster.items() if entry["fields"]["system"][0] == "anomaly")
    replica.roster[anomaly]["counts"] = {"health": {"aa": [5, 0]}}
    assert verdict(replica).startswith("The session's data is damaged")
    hidden = hidden_sheet("h0000", "anomaly")  # a sheet the session does not show: checked here too
    assert verdict(hidden) == "" and "h0000-a" not in [entry["id"] for entry in hidden.session()["roster"]]
    hidden.roster["h0000-a"]["counts"] = {"health": {"aa": [5, 0]}}
    assert verdict(hidden) == "The session's data is damaged."


# --- The same verdict on every phone --------------------------------------------------------------------------

CHANGES = st.lists(st.tuples(st.sampled_from(["add", "add", "remove", "rename"]), st.integers(0, 200)), max_size=6)


def changed(base: Replica, device: str, changes) -> Replica:
    replica = base.copy()
    for number, (kind, pick) in enumerate(changes):
        was = replica.session()
        roster = was["roster"]
        names = [item.name for item in people(roster)]
        if kind == "add":
            entry = person(f"New {pick % 7}", FIRST[pick % 3], "adversary" if pick % 2 else "character",
                           entry_id=f"{device}{number:02d}{pick:03d}")
            roster = everywhere(roster + [entry], entry)
        elif kind == "remove" and roster:
            roster = without(roster, roster[pick % len(roster)]["id"])
        elif kind == "rename" and roster:  # one sheet (as an older phone did), maybe to another person's name
            target = roster[pick % len(roster)]["id"]
            name = names[pick % len(names)] if pick % 3 == 0 else f"New {pick % 7}"
            roster = [{**entry, "name": name} if entry["id"] == target else entry for entry in roster]
        replica.absorb(was, {**was, "roster": roster}, device)
    return replica


@settings(max_examples=80, deadline=None)
@given(st.integers(MAX_PEOPLE - 5, MAX_PEOPLE - 1), CHANGES, CHANGES, CHANGES)
def test_every_merge_order_of_three_phones_changes_reaches_one_verdict(size, first, second, third):
    base = table(party(size))
    phones = [changed(base, device, changes) for device, changes in zip(("a1", "b2", "c3"), (first, second, third))]
    verdicts = set()
    for order in permutations(phones):
        merged = order[0].merge(order[1]).merge(order[2])
        verdicts.add(verdict(merged))
        shown = merged.session()["roster"]
        if verdicts == {""}:
            assert len(people(shown)) <= MAX_PEOPLE
    assert len(verdicts) == 1, verdicts


@settings(max_examples=120, deadline=None)
@given(st.integers(MAX_PEOPLE - 3, MAX_PEOPLE), CHANGES, st.sampled_from(FIRST), st.booleans())
def test_the_check_before_a_tap_agrees_with_the_check_of_the_session_it_would_make(size, changes, system, same_name):
    replica = changed(table(party(size)), "a1", changes)
    was = replica.session()
    entry = person("Hero 3" if same_name else "Newcomer", system, entry_id="zz0001")
    roster = everywhere(was["roster"] + [entry], entry)
    try:
        check_additions(replica, roster)
        before = ""
    except Overfull as error:
        before = error.what
    after = replica.copy()
    after.absorb(was, {**was, "roster": roster}, "a1")
    assert (before == "") == (verdict(after) == ""), (before, verdict(after))


def test_a_session_at_the_old_caps_still_opens_from_storage_and_from_a_link():
    """Before, 60 live roster entries of any systems and 240 with removed ones: each such session is at most
    60 people with at most 60 sheets in one system, so it opens as it did."""
    roster = [person(f"Hero {number}", "tension", entry_id=f"h{number:04d}") for number in range(60)]
    replica = table(roster)
    for number in range(180):
        replica.roster[f"gone{number}"] = {"added": [1, "a1"], "removed": [2, "a1"], "fields": {}, "counts": {}}
    replica.clock = max(replica.clock, 2)
    assert verdict(replica) == ""
    assert read(session_link(check_replica(replica.to_dict()))).replica.session()["roster"] == roster
