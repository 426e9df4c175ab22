"""Counts the GM's "Add" vouched for (issue 30: Add counted twice), on replicas alone.

Ash's phone logs roll 1, then roll 2. The GM's phone may get roll 2 first, with Ash's Tension count
already holding roll 1's move: only roll 2 accounts for part of it, so the rest waits for "Add". Added,
that rest is Ash's own count, vouched for by the GM (session.vouching.vouch); roll 1 arriving later
then raises Ash's count only to a value it has. Taken as the GM's own count, it counted twice."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session.ownership import BEYOND_ROLLS
from session.vouching import vouch
from session.replica_check import check_replica
from session import SessionError
from samples import seen

from test_session_ownership import ASH, BO, GM, Phone, log_roll, table


def add(gm: Phone):
    """The GM's "Add" of everything waiting (ui.arrivals.owned.add_held without the screen)."""
    for verdict in gm.waiting:
        vouch(gm.replica, verdict.held, GM)
        before = gm.replica.session()
        gm.replica.absorb(before, gm.replica.merge(verdict.held).session(), GM)
    gm.waiting = []


def two_rolls():
    """The table, and Ash's two links: roll 1 alone, and roll 2 alone with Ash's counts after both (a
    link or live roll carries only its newest entries; its counts are whole)."""
    gm, ash, bo, _, ids = table()
    start = gm.replica.session()
    log_roll(ash, "Ash", "Ash", number=1)
    first = ash.replica.copy()
    log_roll(ash, "Ash", "Ash", number=2)
    second = ash.replica.copy()
    second.log = {entry_id: entry for entry_id, entry in second.log.items() if entry_id not in first.log}
    return gm, ash, bo, ids, start, first, second


def tension_and_ap(phone: Phone, ids: dict) -> tuple:
    session = phone.replica.session()
    return session["tension"], {entry["name"]: entry["ap"] for entry in session["roster"]}


def test_roll_two_first_then_add_then_roll_one_counts_each_roll_once():
    gm, ash, bo, ids, start, first, second = two_rolls()
    verdict = gm.receive(second)
    moved = ash.replica.session()["tension"] - start["tension"]
    assert [seen(line) for line in verdict.changes] == [f"Ash's phone: Tension +{moved // 2}, {BEYOND_ROLLS}"]
    add(gm)
    assert gm.replica.tension[ASH] == ash.replica.tension[ASH] and GM not in gm.replica.tension
    assert gm.replica.vouched == {ASH: {"tension": [*ash.replica.tension[ASH], gm.replica.vouched[ASH]["tension"][2], GM]}}
    assert not gm.receive(first).holds
    bo.receive(gm.replica)  # the GM's link: Ash's whole count, vouched for, before Ash's roll 1
    assert not bo.receive(first).holds
    for phone in (gm, bo):
        assert phone.replica.session()["tension"] == ash.replica.session()["tension"] == start["tension"] + moved


def test_vouched_records_round_trip_and_an_older_replica_reads_without_them():
    gm, ash, _, _, _, _, second = two_rolls()
    gm.receive(second)
    add(gm)
    data = json.loads(json.dumps(gm.replica.to_dict()))
    assert check_replica(data).vouched == gm.replica.vouched
    older = {key: value for key, value in data.items() if key != "vouched"}
    assert check_replica(older).vouched == {}
    assert "vouched" not in ash.replica.to_dict()  # only when there are some


@pytest.mark.parametrize("bad", [
    {BO: {"tension": [5, 0, 1, GM]}},  # Bo has no Tension count here
    {ASH: {"ap:nobody": [1, 0, 1, GM]}},  # no such roster entry
    {ASH: {"tension": [1, 0, 1]}},
    {ASH: {"tension": [-1, 0, 1, GM]}},
])
def test_a_vouched_record_without_its_count_or_out_of_shape_is_refused(bad):
    gm, _, _, _, _, _, second = two_rolls()
    gm.receive(second)
    add(gm)
    with pytest.raises(SessionError):
        check_replica({**json.loads(json.dumps(gm.replica.to_dict())), "vouched": bad})


def test_a_vouched_record_another_phone_wrote_is_ignored_and_one_in_the_gms_name_is_forged_on_the_gms():
    gm, ash, bo, _, start, first, second = two_rolls()
    forged = second.copy()
    forged.vouched = {ASH: {"tension": [*second.tension[ASH], second.clock, ASH]}}  # Ash vouching for itself
    verdict = bo.receive(forged)
    assert verdict.kept.vouched == {} and verdict.holds
    assert bo.replica.session()["tension"] < ash.replica.session()["tension"]
    forged.vouched = {ASH: {"tension": [*second.tension[ASH], second.clock, GM]}}  # in the GM's name
    verdict = gm.receive(forged)
    assert verdict.forged == 1 and verdict.holds
    assert gm.replica.vouched[ASH]["tension"][:2] == gm.replica.tension[ASH] != ash.replica.tension[ASH]  # what it took


def test_a_hostile_link_can_not_grow_vouched_past_one_record_per_phone_and_count():
    gm, _, bo, _, _, _, second = two_rolls()
    gm.receive(second)
    add(gm)
    data = json.loads(json.dumps(gm.replica.to_dict()))
    data["vouched"] = {f"{n:08x}": {"tension": [1, 0, 1, GM]} for n in range(65)}
    with pytest.raises(SessionError):
        check_replica(data)


# --- Every order, at every phone -----------------------------------------------------------------

EVENTS = [("gm", "first"), ("gm", "second"), ("add",), ("bo", "first"), ("bo", "second"),
          ("bo", "gm"), ("ash", "gm"), ("gm", "bo"), ("bo", "gm"), ("add",)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(EVENTS), st.integers(0, len(EVENTS)))
def test_in_every_order_every_phone_ends_on_the_same_tension_and_ap_and_tension_is_what_the_rolls_did(order, cut):
    gm, ash, bo, ids, start, first, second = two_rolls()
    phones = {"gm": gm, "ash": ash, "bo": bo}
    links = {"first": first, "second": second}

    def deliver(event):
        if event == ("add",):
            add(gm)
            return
        to, what = event
        incoming = links.get(what) or phones[what].replica
        phones[to].receive(check_replica(json.loads(json.dumps(incoming.to_dict()))))  # as a link is read

    for event in order[:cut]:  # some of it, in any order
        deliver(event)
    for event in order[cut:]:
        deliver(event)
    # then whatever is still on its way: every phone gets both rolls and the GM's phone's link
    for what in ("first", "second"):
        for to in ("gm", "bo"):
            deliver((to, what))
    add(gm)
    for to in ("ash", "bo"):
        deliver((to, "gm"))
    deliver(("gm", "bo"))
    rolled = tension_and_ap(ash, ids)
    assert tension_and_ap(gm, ids) == tension_and_ap(bo, ids) == rolled
    did = sum(effect["delta"] for entry in ash.replica.log.values() for effect in entry["effects"]
              if effect["field"] == "tension")
    assert did > 0 and rolled[0] == start["tension"] + did
    assert gm.replica.tension.get(GM, [0, 0]) == [0, 0]  # nothing of Ash's became the GM's
    assert not gm.waiting


def test_a_count_written_in_a_phones_name_elsewhere_that_the_gm_added_is_taken_on_that_phone_too():
    """A link made in Ash's phone's name but not on it (an altered page, a forger) moves Tension; the GM
    adds it. Ash's phone never made those steps, but the GM vouched for them: it counts them like every
    other phone, so the phones agree; more than the GM vouched for is still forged there."""
    gm, ash, bo, _, ids = table()
    written = ash.replica.copy()
    before = written.session()
    written.absorb(before, {**before, "tension": before["tension"] + 5}, ASH)
    gm.receive(written)
    add(gm)
    assert gm.replica.session()["tension"] == before["tension"] + 5
    for phone in (ash, bo):
        verdict = phone.receive(gm.replica)
        assert not verdict.holds and not verdict.forged
    assert tension_and_ap(ash, ids) == tension_and_ap(bo, ids) == tension_and_ap(gm, ids)
    more = gm.replica.copy()
    more.tension[ASH] = [more.tension[ASH][0] + 3, more.tension[ASH][1]]
    assert ash.receive(more).forged == 1 and tension_and_ap(ash, ids) == tension_and_ap(gm, ids)
