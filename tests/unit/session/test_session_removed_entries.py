"""A removed roster entry keeps only what a removal needs (issue 30): its stamps and who it was
(system, kind, name), no counts, no other fields and no vouched records, however it arrives (a tap
here, a merge in any order, a stored session or a link written before this version kept all of it)."""
import itertools

from session.model import new_session
from session.ownership import judge
from session.replica import REMOVAL_FIELDS, Replica, target_key
from session.replica_check import check_replica

GM, PLAYER = "aa", "bb"


def table() -> Replica:
    session = {**new_session("Campaign", "tension", 3), "id": "campaign"}
    session["roster"] = [{"id": f"c{number}", "system": "tension", "kind": "character", "name": f"Hero {number}",
                          "attributes": [], "skills": [], "ap": 3, "health": 10, "willpower": 8} for number in range(3)]
    replica = Replica.from_session(session)
    for entry in replica.roster.values():
        entry["counts"]["ap"][PLAYER] = [7, 2]
    replica.vouched = {PLAYER: {target_key(("entry", entry_id, "ap")): [7, 2, 0, GM] for entry_id in replica.roster}}
    return replica


def removed(replica: Replica, entry_id: str) -> Replica:
    before = replica.session()
    replica.absorb(before, {**before, "roster": [entry for entry in before["roster"] if entry["id"] != entry_id]}, GM)
    return replica


def test_a_removal_here_drops_the_entrys_counts_fields_and_vouched_records():
    replica = removed(table(), "c1")
    entry = replica.roster["c1"]
    assert entry["counts"] == {} and set(entry["fields"]) == set(REMOVAL_FIELDS) and entry["removed"][1] == GM
    assert set(replica.vouched[PLAYER]) == {"ap:c0", "ap:c2"}
    assert check_replica(replica.to_dict()).to_dict() == replica.to_dict()


def test_merging_a_removal_in_any_order_reaches_one_replica_that_holds_nothing_of_the_removed_entry():
    gm, player, other = removed(table(), "c1"), table(), table()
    for entry in player.roster.values():  # the player stepped every count after the GM removed one
        entry["counts"]["ap"][PLAYER] = [40, 2]
        entry["fields"]["notes"] = ["x" * 500, 5, PLAYER]
    other.vouched[PLAYER]["ap:c1"] = [40, 2, 0, GM]
    results = set()
    for first, second, third in itertools.permutations([gm, player, other]):
        merged = first.merge(second).merge(third)
        assert merged.roster["c1"]["counts"] == {} and set(merged.roster["c1"]["fields"]) <= set(REMOVAL_FIELDS)
        assert "ap:c1" not in merged.vouched[PLAYER]
        results.add(repr(sorted(merged.to_dict().items())))
    assert len(results) == 1


def test_a_stored_session_that_kept_all_of_a_removed_entry_reads_without_it():
    """What this phone or an older one stored before (and links of version 2 written then) still opens."""
    old = table().to_dict()
    entry = old["roster"]["c1"]
    entry["removed"] = [5, GM]
    entry["fields"]["notes"] = ["x" * 500, 5, PLAYER]
    entry["fields"]["name"] = [["not", "a", "name"], 5, PLAYER]  # never checked as part of a live sheet
    old["clock"] = 5
    replica = check_replica(old)
    assert replica.roster["c1"]["counts"] == {} and set(replica.roster["c1"]["fields"]) == {"system", "kind"}
    assert "ap:c1" not in replica.vouched[PLAYER] and "ap:c0" in replica.vouched[PLAYER]
    assert [sheet["id"] for sheet in replica.session()["roster"]] == ["c0", "c2"]


def test_a_phone_that_removed_an_entry_takes_an_older_link_with_its_sheet_as_nothing_new_not_forged():
    """The GM's phone wrote Hero 1's sheet, then removed Hero 1 (its sheet shed); a link from before the
    removal brings that sheet back in the GM's name: not a forgery, and nothing of it stays. (The player's
    counts of it it brings are still held as moves beyond its rolls, as every phone judges them alike.)"""
    gm = table()
    gm.gm = [GM, 1, GM]
    before = gm.session()
    gm.absorb(before, {**before, "roster": [{**entry, "skills": [{"name": "Climb", "rating": 2}]}
                                            if entry["id"] == "c1" else entry for entry in before["roster"]]}, GM)
    older = gm.copy()
    removed(gm, "c1")
    verdict = judge(gm, older, GM)
    assert verdict.forged == 0 and not any("Hero 1's skills" in line for line in verdict.changes)
    merged = gm.merge(verdict.kept).merge(verdict.held)  # (the GM's "Add" of what it holds)
    assert merged.roster["c1"]["counts"] == {} and "skills" not in merged.roster["c1"]["fields"]
