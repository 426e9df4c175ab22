"""Links that merge (version 2): a session link and a roll for the GM round-trip, merge once
however often they are opened, keep version-1 links opening, and refuse anything else."""
import functools
import hashlib

import segno
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from session import check_session, log_conflict
from session.links.v1 import encode_roll, encode_session
from samples import logged_party, party_of_five
from crowded import campaign
from session.differences import differences
from session.links import v2 as link_v2
from session.links.text import LinkError
from session.replica import Replica

PLAYER, GM = "ab12cd34", "ef56ab78"
BASE = "https://tableside.netlify.app/"


def logged_roll(replica: Replica, device: str, dice=(6, 5, 3, 1, 1)) -> str:
    """Ash rolls against the environment on `device`; the new log entry's id."""
    before = replica.session()
    ash = before["roster"][0]
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": before["tension"],
                            "gm": {"name": "The GM", "dice": [4] * before["tension"]},
                            "player": {"name": ash["name"], "id": ash["id"], "side": "character", "pool": 5,
                                       "dice": list(dice), "keep": [0, 1, 2], "ap": 1}})
    after = log_conflict(before, record, at="2025-06-01T20:30:00+02:00", by=ash["name"])
    replica.absorb(before, after, device)
    return after["log"][0]["id"]


def qr_version(fragment: str, error: str = "l") -> int:
    return segno.make_qr([BASE + "#", fragment], error=error).version


def test_the_preset_dictionary_never_changes():
    # Every version-2 link ever shared depends on these bytes.
    assert hashlib.sha256(link_v2.PRESET).hexdigest()[:16] == PRESET_DIGEST


def test_a_roll_for_the_gm_merges_what_it_changed_once_however_often_it_is_opened():
    party = logged_party()
    player, gm = Replica.from_session(party), Replica.from_session(party)
    entry_id = logged_roll(player, PLAYER)
    incoming = link_v2.read(link_v2.roll_message(player, entry_id, party["name"]))
    assert incoming.kind == "roll" and incoming.problems == []
    assert incoming.roll["record"]["result"] == player.log[entry_id]["record"]["result"]
    once = gm.merge(incoming.replica)
    twice = once.merge(incoming.replica)
    assert once.session() == twice.session()
    mine = player.session()
    assert once.session()["tension"] == mine["tension"]
    assert once.session()["roster"][0]["ap"] == mine["roster"][0]["ap"]
    assert once.session()["log"][0]["id"] == entry_id


def test_a_roll_fits_a_qr_code_of_version_10():
    party = logged_party()
    player = Replica.from_session(party)
    fragment = link_v2.roll_message(player, logged_roll(player, PLAYER), party["name"])
    assert fragment.startswith("R2.") and fragment[3:].isalnum() and fragment[3:].isupper()
    assert qr_version(fragment, "l") <= 10


def test_a_session_link_merges_into_the_same_session_on_every_phone():
    party = party_of_five()
    gm, player = Replica.from_session(party), Replica.from_session(party)
    logged_roll(player, PLAYER)
    logged_roll(gm, GM, dice=(2, 2, 1, 1, 1))
    on_gm = gm.merge(link_v2.read(link_v2.session_link(player)).replica)
    on_player = player.merge(link_v2.read(link_v2.session_link(gm)).replica)
    assert on_gm.session() == on_player.session()
    assert len(on_gm.session()["log"]) == 2


def test_a_session_link_carries_the_newest_entries_and_still_exact_numbers():
    party = party_of_five()
    gm = Replica.from_session(party)
    for _ in range(25):
        logged_roll(gm, GM)
    joined = link_v2.read(link_v2.session_link(gm)).replica
    assert len(joined.log) == link_v2.LATEST
    view, full = joined.session(), gm.session()
    assert (view["tension"], view["roster"]) == (full["tension"], full["roster"])
    assert [entry["id"] for entry in view["log"]] == [entry["id"] for entry in full["log"][:link_v2.LATEST]]


def test_a_version_one_link_still_opens():
    party = party_of_five()
    incoming = link_v2.read(encode_session(party))
    assert incoming.version == 1 and incoming.replica.session() == {**party, "log": []}
    entry = logged_party()["log"][0]
    roll = link_v2.read(encode_roll(entry["record"], at=entry["at"], by=entry["by"], session_name="Kim's"))
    assert roll.kind == "roll" and roll.version == 1 and roll.problems == [] and roll.session_name == "Kim's"


def test_a_result_changed_in_transit_is_worked_out_again_from_the_dice():
    party = logged_party()
    player = Replica.from_session(party)
    entry_id = logged_roll(player, PLAYER)
    player.log[entry_id]["record"]["result"]["outcome"] = "failure"  # what a forged link would claim
    incoming = link_v2.read(link_v2.roll_message(player, entry_id, party["name"]))
    assert incoming.roll["record"]["result"]["outcome"] == "success"


def test_what_merging_would_change_is_listed_per_character_and_field():
    party = party_of_five()
    gm, player = Replica.from_session(party), Replica.from_session(party)
    logged_roll(player, PLAYER)
    found = differences(gm.session(), gm.merge(player).session())
    fields = {(item.who, item.field) for item in found}
    assert ("session", "tension") in fields and ("Ash Varga", "ap") in fields and ("session", "log") in fields


@settings(deadline=None, max_examples=400)
@given(st.one_of(st.text(max_size=200), st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", max_size=400)),
       st.sampled_from(["S2.", "R2.", "s2.", "r2.", ""]))
def test_anything_else_is_refused_with_a_sentence(data, prefix):
    try:
        link_v2.read(prefix + data)
    except LinkError as error:
        assert str(error) and "Traceback" not in str(error)


@functools.cache
def one_roll() -> tuple[dict, str]:
    party = logged_party()
    player = Replica.from_session(party)
    return party, link_v2.roll_message(player, logged_roll(player, PLAYER), party["name"])


@settings(deadline=None, max_examples=200)
@given(st.data())
def test_a_damaged_link_is_refused_or_opens_clean(data):
    party, fragment = one_roll()
    position = data.draw(st.integers(3, len(fragment) - 1))
    letter = data.draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"))
    try:
        incoming = link_v2.read(fragment[:position] + letter + fragment[position + 1:])
    except LinkError:
        return
    here = Replica.from_session(party)
    if incoming.replica.id != here.id:  # the damage fell in the session's id: another session's link, opened apart
        check_session(incoming.replica.session())
        return
    check_session(here.merge(incoming.replica).session())


PRESET_DIGEST = "dd166fb4349bd873"


def test_the_sizes_of_a_roll_and_of_a_session_code_are_measured():
    """What the issue asks to report, with the app's own QR encoding (ui.kit.qr: the address in
    byte mode, the fragment alphanumeric) and a deployed address."""
    from pathlib import Path

    from ui.kit import qr

    party = party_of_five()
    player = Replica.from_session(party)
    rolls = [link_v2.roll_message(player, logged_roll(player, PLAYER)) for _ in range(20)]  # as the app sends it
    lines = []
    for name, fragment in (("first roll going to the GM", rolls[0]), ("20th roll going to the GM", rolls[-1]),
                           *((f"five characters and the last {latest} log entries",
                              link_v2.session_link(player, latest)) for latest in (0, 5, 20))):
        url = BASE + "#" + fragment
        _, designator, modules = qr.qr(url)
        at_m = segno.make_qr(qr.segments(url), error="m").designator
        lines.append(f"{name}: {len(fragment)} characters, QR {designator} ({modules} modules), {at_m}")
    folder = Path(__file__).resolve().parents[2] / "artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "v2-link-sizes.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    for fragment in rolls:
        assert segno.make_qr(qr.segments(BASE + "#" + fragment), error="l").version <= 10


def test_a_session_link_carries_the_marks_of_the_entries_it_carries_before_any_other():
    """A mark of an entry the receiving phone does not hold is left out there (session.inert), so a link
    that carries an old undone entry (a live table's catch-up) carries its mark, whatever else it leaves out."""
    whole = campaign(2_000, 200, doubles=0)
    oldest = min((whole.log[entry_id] for entry_id in whole.undone), key=lambda entry: entry["clock"])
    assert len(whole.undone) > link_v2.MAX_MARKS
    carried = link_v2.read(link_v2.session_link(whole, entries=[oldest])).replica
    assert oldest["id"] in carried.undone and len(carried.undone) == link_v2.MAX_MARKS
