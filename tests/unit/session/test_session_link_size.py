"""How large a session link grows (issue 30): a GM's phone that holds every count of a full roster,
stepped on many phones and vouched for, must still share its session in one link that unpacks within
session.links.text.MAX_DECODED and that the receiving phone's checks accept; the limits come from the
worst case the replica's caps allow (tests/unit/linksize.py builds it from the cap constants), and a
session past them is refused in a sentence and still travels whole by export file.

Numbers (characters, bytes, read time): bench/bench_links.py (make bench-links)."""
import json

import pytest

from linksize import caps_worst_case, campaign, full_table, unpacked_size, widest_worst_case
from session.links import compact
from session.links import v2 as link_v2
from session.links.files import export_text, read_export
from session.errors import SessionError
from session.links.text import MAX_DECODED, MAX_FRAGMENT, LinkError, split, unpack
from session.live import protocol as live_protocol
from session.replica import Replica
from session.replica_check import MAX_DEVICES, check_replica


def shares(replica: Replica) -> tuple[int, int]:
    """(link characters, unpacked bytes) of the GM's share link; asserts the receiving phone reads it whole."""
    fragment = link_v2.session_link(check_replica(replica.to_dict()))
    incoming = link_v2.read(fragment)
    assert incoming.replica.vouched == replica.vouched and incoming.replica.tension == replica.tension
    return len(fragment), unpacked_size(fragment)


def same_state(first: Replica, second: Replica) -> bool:
    return first.to_dict(log=False) == second.to_dict(log=False)


def test_a_full_roster_stepped_and_vouched_on_twelve_phones_shares_in_one_link():
    """Last session's measured case: 12 phones stepping every count of 60 characters tens of times."""
    characters, size = shares(full_table(12, [40, 39]))
    assert size <= MAX_DECODED, (characters, size)


def test_the_largest_counts_the_checks_accept_still_share_in_one_link():
    characters, size = shares(full_table(MAX_DEVICES - 1, [999_999, 999_998]))  # base counts: the 64th phone
    assert characters <= MAX_FRAGMENT and size <= MAX_DECODED, (characters, size)


def test_counts_that_differ_on_many_phones_still_share_in_one_link():
    """Counts drawn at random up to 200 steps on each of 63 phones, vouched records too (185,128 characters
    before issue 30's compact counts, past MAX_FRAGMENT)."""
    replica = check_replica(campaign(MAX_DEVICES - 1).to_dict())
    fragment = link_v2.session_link(replica)
    incoming = link_v2.read(fragment)  # the receiving phone: refused past MAX_FRAGMENT or MAX_DECODED
    assert len(fragment) <= MAX_FRAGMENT and unpacked_size(fragment) <= MAX_DECODED, len(fragment)
    assert same_state(incoming.replica, replica)


def test_every_session_the_caps_allow_unpacks_within_max_decoded_and_reads_back_the_same():
    """The widest numbers the checks accept on every count, vouched record, holder and undo mark: the
    bytes never refuse a link that fits in characters. (Its link is short: equal numbers compress.)"""
    replica = check_replica(widest_worst_case().to_dict())
    fragment = link_v2.session_link(replica)
    assert unpacked_size(fragment) <= MAX_DECODED, unpacked_size(fragment)
    assert len(fragment) <= MAX_FRAGMENT
    assert same_state(link_v2.read(fragment).replica, replica)


def test_past_max_fragment_a_session_is_refused_in_a_sentence_and_travels_whole_by_file(monkeypatch):
    """The caps' worst case (counts drawn at random up to MAX_STEPS on 64 phones, vouched for) writes a link
    no phone opens (a live message carries at most MAX_MESSAGE characters): the receiving phone says so
    and opens nothing; the export file carries all of it. If a cap shrinks until it fits, say so here."""
    replica = check_replica(caps_worst_case().to_dict())
    fragment = link_v2.session_link(replica)
    assert len(fragment) > MAX_FRAGMENT, f"the caps' worst case now fits in a link ({len(fragment):,} characters)"
    with pytest.raises(LinkError, match=f"longer than the {MAX_FRAGMENT:,} characters this version of Tableside opens"):
        link_v2.read(fragment)
    assert same_state(read_export(export_text(replica)), replica)
    monkeypatch.setattr("session.links.text.MAX_FRAGMENT", 10 ** 7)  # the compact form itself holds it all
    assert same_state(link_v2.read(fragment).replica, replica)


def test_every_link_a_phone_opens_fits_one_live_message():
    longest = live_protocol.link("S2." + "A" * (MAX_FRAGMENT - 3), "x" * 24)
    assert len(longest) <= live_protocol.MAX_MESSAGE


def old_form_link(replica: Replica) -> str:
    """A session link as this version wrote it before its counts were compact (the replica's own shape)."""
    payload = {**replica.to_dict(log=False), "log": [], "undone": {}}
    return f"S2.{link_v2.pack(payload)}"


def test_a_link_written_before_compact_counts_still_opens():
    replica = check_replica(campaign(5).to_dict())
    replica.holders = {"c001": {"0000000000000002": [7, "0000000000000001"]}}
    replica.undone = {}
    assert same_state(link_v2.read(old_form_link(replica)).replica, replica)


def test_compact_counts_round_trip_exactly():
    replica = check_replica(campaign(5).to_dict())
    replica.holders = {"c001": {"0000000000000002": [7, "0000000000000001"], "": [9, "0000000000000001"]}}
    payload = replica.to_dict(log=False)
    written = compact.compacted(payload, replica)
    assert written["v"] == compact.COMPACT and "0000000000000002" not in json.dumps(written["tension"])
    assert compact.expanded(json.loads(json.dumps(written))) == {**payload, "v": 2}


@pytest.mark.parametrize("damage", [
    lambda payload: payload.update(d="not a list"),
    lambda payload: payload.update(d=payload["d"] + payload["d"][:1]),  # a device twice
    lambda payload: payload.update(tension=[0, 1, 1]),  # a gap of 0
    lambda payload: payload.update(tension=[999, 1, 1]),  # past the device list
    lambda payload: payload.update(tension=[1, 1]),  # not whole records
    lambda payload: payload.update(tension=[1, True, 1]),
    lambda payload: payload.update(tension=[1, 1, 5]),  # took away a negative count (added 1, net 5)
    lambda payload: payload["vouched"].update(tension=[1, 0, 0, 0, 999]),  # a writer past the list
    lambda payload: payload.update(holders={"c001": [1, 0]}),
])
def test_a_damaged_compact_link_is_refused_in_a_sentence(damage):
    replica = check_replica(campaign(3).to_dict())
    written = json.loads(json.dumps(compact.compacted({**replica.to_dict(log=False), "log": [], "undone": {}}, replica)))
    damage(written)
    with pytest.raises(LinkError, match="can't be opened"):
        link_v2.read(f"S2.{link_v2.pack(written)}")


def test_an_older_phone_calls_a_compact_link_another_version_not_damage():
    """What a phone of this version before compact counts said of one: it checks "v" first."""
    replica = check_replica(campaign(2).to_dict())
    payload = unpack(split(link_v2.session_link(replica))[2], 2, link_v2.PRESET)
    with pytest.raises(SessionError, match="different version of Tableside"):
        check_replica(payload)
