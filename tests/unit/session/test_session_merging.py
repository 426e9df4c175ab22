"""Merges that can't break a session (issue 23, items 1, 2, 3 and 9): whatever a link brings, the
merged session is one the next start loads, or the link is refused with what it would break and
nothing changes; limits say which; stamps never outrun their clock, so this phone's next edit
wins; full counts refuse the tap; a campaign's whole life stays shareable and loadable."""
import copy
import json

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from crowded import PHONES, as_held, campaign, largest_link_replica, roster, session_of
from samples import party_of_five, seen
import rules
from tapping import open_link, phone, reload, settle, tap
from session import MemoryStore, log_conflict
from session.errors import Overfull, SessionError
from session.links.files import ImportFileError, export_text, read_export
from session.links.text import LinkError
from session.links.v2 import MAX_MARKS, read, roll_message, session_link
from session.merging import MergeRefused, merge_checked
from session.on_device.heads import HEAD_PREFIX, head_content, parse_head, stamped
from session.replica import EDIT_CLOCK, LINK_CLOCK, MAX_CLOCK, MAX_STEPS, Replica
from session.replica_check import CLOCK_ROOM, ROSTER_RECORDS, check_replica
from session.sealed import exchange as sealed_exchange
from ui.screens.frame import actions as frame_actions  # noqa: F401  (the taps this file makes: Tension ±, rename)
from ui.screens.session import actions as session_actions  # noqa: F401


def loads(replica: Replica) -> Replica:
    """What the next start makes of this replica's head (session.on_device.heads.parse_head)."""
    return parse_head(stamped(head_content(replica), ""), replica.id)[0]


def every_head_loads(store: MemoryStore):
    """Nothing saved that the next start can't load."""
    heads = {key: raw for key, raw in store.items.items() if key.startswith(HEAD_PREFIX)}
    assert heads
    for key, raw in heads.items():
        parse_head(raw, key[len(HEAD_PREFIX):])


@pytest.fixture(autouse=True)
def every_head_written_loads(monkeypatch):
    """Nothing saved that the next start can't load: every head any test here writes (after each
    tap, link merged, roll added) is read back as the next start reads it, at once."""
    written = MemoryStore.set

    def checked_set(self, key, text):
        written(self, key, text)
        if key.startswith(HEAD_PREFIX):
            parse_head(text, key[len(HEAD_PREFIX):])
    monkeypatch.setattr(MemoryStore, "set", checked_set)


def same(first: Replica, second: Replica) -> bool:
    return json.dumps(first.to_dict(), sort_keys=True) == json.dumps(second.to_dict(), sort_keys=True)


def acted_on(replica: Replica) -> dict:
    """A replica without what nobody can act on (session.inert): counts that add up to nothing, undo
    marks of entries it does not hold. A merge leaves them out of what arrives, so two phones may differ
    in them and in nothing else."""
    data = copy.deepcopy(replica.to_dict())
    data["tension"] = {device: steps for device, steps in data["tension"].items() if steps[0] != steps[1]}
    for entry in data["roster"].values():
        entry["counts"] = {key: {device: steps for device, steps in counts.items() if steps[0] != steps[1]}
                           for key, counts in entry["counts"].items()}
    data["undone"] = {entry_id: mark for entry_id, mark in data["undone"].items() if entry_id in replica.log}
    return data


def same_acted(first: Replica, second: Replica) -> bool:
    return json.dumps(acted_on(first), sort_keys=True) == json.dumps(acted_on(second), sort_keys=True)


def party() -> Replica:
    return Replica.from_session(party_of_five())


def twin(replica: Replica) -> Replica:
    return Replica.from_dict(copy.deepcopy(replica.to_dict()))


# --- Each limit says which ----------------------------------------------------------------------------------

def many_phones(data):
    data["tension"] = {phone: [1, 0] for phone in PHONES} | {"ff": [1, 0]}


def many_removed(data):
    for number in range(ROSTER_RECORDS + 1):
        data["roster"][f"gone{number}"] = {"added": [1, "a1"], "removed": [1, "a1"], "fields": {}, "counts": {}}
    data["clock"] = max(data["clock"], 1)


def many_undone(data):
    data["undone"] = {f"u{number}": {"by": {"a1": 1}, "effects": []} for number in range(101)}
    data["clock"] = max(data["clock"], 1)


def full_steps(data):
    data["tension"]["a1"] = [MAX_STEPS + 1, 0]


def clock_past(data):
    data["clock"] = MAX_CLOCK + 1


def stamp_past_clock(data):
    data["fields"]["name"] = ["Later", data["clock"] + 1, "a1"]


def many_sealed(data):
    data["sealed"] = {"x1": {f"k{number}": {} for number in range(13)}}


@pytest.mark.parametrize("change, sentence", [
    (many_phones, "The session has counts from more than 64 phones."),
    (many_removed, f"The session has more than {ROSTER_RECORDS} roster entries, removed ones included."),
    (many_undone, "The session has more than 100 undone entries."),
    (full_steps, f"The session has a count changed more than {MAX_STEPS:,} times on one phone."),
    (clock_past, "The session has a clock past the largest Tableside keeps."),
    (stamp_past_clock, "The session has a change stamped later than its own clock"),
    (many_sealed, "The session has more than 12 sealed-card messages in one conflict."),
])
def test_each_limit_is_named(change, sentence):
    data = party().to_dict()
    change(data)
    with pytest.raises(Overfull) as error:
        check_replica(data, max_log=100)
    assert str(error.value).startswith(sentence)


def test_honest_sessions_keep_their_stamps_within_their_clock():
    replica = party()
    before = replica.session()
    replica.absorb(before, {**before, "name": "Renamed", "tension": 7, "roster": before["roster"][1:]}, "a1")
    merged = replica.merge(twin(replica))
    assert loads(merged).clock == merged.clock and loads(campaign(200, 20)).clock


# --- Closed under merge ----------------------------------------------------------------------------------------

def test_a_union_past_a_limit_is_refused_and_changes_nothing():
    mine = party()
    theirs = twin(mine)
    mine.tension.update({phone: [1, 0] for phone in PHONES[:40]})
    theirs.tension.update({phone: [1, 0] for phone in PHONES[30:]})
    kept = twin(mine)
    loads(mine), loads(theirs)  # each alone is valid
    with pytest.raises(MergeRefused) as error:
        merge_checked(mine, theirs, {})
    assert str(error.value) == "This link can't be merged: the session would have counts from more than 64 phones."
    assert same(mine, kept)


def test_a_sheet_turned_into_another_system_is_refused():
    mine = party()
    theirs = twin(mine)
    ash = next(entry_id for entry_id, entry in theirs.roster.items() if entry["fields"]["name"][0] == "Ash Varga")
    theirs.clock += 1
    kept = theirs.roster[ash]
    theirs.roster[ash] = {"added": kept["added"], "removed": None, "counts": {}, "fields": {
        key: [value, theirs.clock, "a1"] for key, value in
        (("name", "Ash Varga"), ("system", "anomaly"), ("kind", "character"), ("modifiers", []))}}
    read(session_link(theirs))  # valid alone: an Anomaly sheet
    with pytest.raises(MergeRefused) as error:
        merge_checked(mine, theirs, {})
    assert seen(str(error.value)) == ("This link can't be merged: it would turn Ash Varga's Tension Engine sheet "
                                      "into an Anomaly sheet.")


def test_sealed_messages_past_their_limit_in_one_conflict_are_refused():
    mine = party()
    theirs = twin(mine)
    for number in range(7):
        mine.add_sealed(sealed_exchange.seal_test("x1", "Time", 4, f"{number:02x}" * 16))
        theirs.add_sealed(sealed_exchange.seal_test("x1", "Time", 4, f"{number + 7:02x}" * 16))
    with pytest.raises(MergeRefused, match="more than 12 sealed-card messages in one conflict"):
        merge_checked(mine, theirs, {})


def test_a_link_that_would_break_the_session_is_refused_through_the_page_and_the_next_start_loads_it():
    store = MemoryStore()
    state = phone(party_of_five(), store=store)
    theirs = twin(state.replica)
    theirs.tension.update({phone: [1, 0] for phone in PHONES[:63]})  # valid alone: 64 phones
    tap(state, "tension-step", step=1)  # this phone's count: with the link's, 65 phones
    theirs.clock += 1
    theirs.fields["name"] = ["From afar", theirs.clock, "ff"]
    open_link(state, session_link(theirs))
    assert state.message.text == ("This link can't be merged: the session would have counts from more than 64 "
                                  "phones.")
    assert state.pending is None and state.session["name"] == "Friday at Kim's"
    every_head_loads(store)
    assert reload(store).session["name"] == "Friday at Kim's"


# --- Clocks and counters that can't wedge ---------------------------------------------------------------------

def test_a_link_stamped_above_its_clock_is_refused():
    theirs = party()
    theirs.fields["name"] = ["Forever", theirs.clock + 1, "ff"]
    with pytest.raises(LinkError, match="stamped later than its own clock"):
        read(session_link(theirs))


def test_a_link_leaves_room_below_the_largest_clock():
    theirs = party()
    theirs.clock = MAX_CLOCK - CLOCK_ROOM + 1
    with pytest.raises(LinkError, match="a clock too close to the largest Tableside keeps"):
        read(session_link(theirs))
    theirs.clock = MAX_CLOCK - CLOCK_ROOM
    assert read(session_link(theirs)).replica.clock == theirs.clock


def test_this_phones_next_edit_wins_over_everything_it_merged():
    store = MemoryStore()
    state = phone(party_of_five(), store=store)
    theirs = twin(state.replica)
    theirs.clock = EDIT_CLOCK  # as far ahead as a link may be and leave this phone its edits
    theirs.fields["name"] = ["Theirs", theirs.clock, "ffffffffffffffff"]  # the highest device id too
    link = session_link(theirs)
    open_link(state, link)
    tap(state, "join-update")
    assert state.session["name"] == "Theirs", state.message
    tap(state, "session-rename", id=state.session["id"])
    tap(state, "session-rename-text", value="Ours")
    tap(state, "session-rename-save")
    open_link(state, link)  # the same link again changes nothing
    assert state.session["name"] == "Ours"
    every_head_loads(store)
    assert reload(store).session["name"] == "Ours"


def test_after_one_rename_a_phone_that_took_the_farthest_link_shares_with_every_phone():
    """Issue 30, "also still open": a link at the highest clock a link may carry, then one rename, made this
    phone's own share link refused on every phone ("a clock too close to the largest…")."""
    store = MemoryStore()
    original = party_of_five()
    state, other = phone(original, store=store), phone(original)
    for clock in (EDIT_CLOCK, LINK_CLOCK):
        theirs = twin(state.replica)
        theirs.clock = clock
        theirs.fields["name"] = [f"Far ahead {clock}", clock, "ff"]
        open_link(state, session_link(theirs))
        tap(state, "join-update")
        tap(state, "session-rename", id=state.session["id"])
        tap(state, "session-rename-text", value="Ours")
        tap(state, "session-rename-save")
        renamed = state.session["name"] == "Ours"
        assert renamed == (clock == EDIT_CLOCK) or state.message.text.endswith("its clock is full.")
        mine = session_link(state.replica)
        for phone_there in (state, other):  # this phone's own link, and another phone's, both take it
            open_link(phone_there, mine)
            assert phone_there.message is None or phone_there.message.tone != "error", phone_there.message
            if phone_there.pending is not None:
                tap(phone_there, "join-update")
            assert phone_there.session["name"] == state.session["name"]
    every_head_loads(store)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.sampled_from([0, EDIT_CLOCK - 1, EDIT_CLOCK, EDIT_CLOCK + 1, LINK_CLOCK - 1, LINK_CLOCK]),
                 st.integers(0, LINK_CLOCK)), st.integers(0, 4))
def test_what_a_phone_accepts_it_can_share_after_any_taps(clock, taps):
    """Any link a phone reads, merged, then taps until the clock refuses one: its own link is read by every phone
    (a tap here renames the session and adds a character: several ticks, fewer than TAP_ROOM)."""
    base = party()
    theirs = twin(base)
    theirs.clock = clock
    theirs.fields["name"] = ["Far", clock, "ff"]
    merged = merge_checked(twin(base), read(session_link(theirs)).replica, {}).replica
    for number in range(taps):
        before = merged.session()
        entry = {"id": f"new{number}", "system": "tension", "kind": "character", "name": f"Hero {number}", "ap": 1,
                 "health": 10, "willpower": 10, "attributes": [{"name": "Wits", "rating": 2}], "skills": []}
        try:
            merged.absorb(before, {**before, "name": f"Ours {number}", "roster": [*before["roster"], entry]}, "a1")
        except SessionError:
            assert merged.clock > EDIT_CLOCK
            break
    assert merged.clock <= LINK_CLOCK
    shared = read(session_link(merged)).replica  # what every phone does with its link
    assert merge_checked(twin(base), shared, {}).replica.session(log=False)["name"] == merged.session()["name"]


def test_a_tap_at_a_full_count_is_refused_and_changes_nothing():
    store = MemoryStore()
    state = phone(party_of_five(), store=store)
    theirs = twin(state.replica)
    theirs.tension[state.device] = [MAX_STEPS, MAX_STEPS - 1]  # this phone's own count, full (back in a link)
    theirs.clock += 1
    theirs.fields["name"] = ["Full", theirs.clock, "a1"]
    open_link(state, session_link(theirs))
    tap(state, "join-update")
    tension = state.session["tension"]
    tap(state, "tension-step", step=1)
    assert state.message.text == "Tension can't be changed again on this phone in this session: its count is full."
    assert state.session["tension"] == tension and state.replica.tension[state.device] == [MAX_STEPS, MAX_STEPS - 1]
    every_head_loads(store)
    assert reload(store).session["tension"] == tension


def test_a_full_count_of_a_character_names_it():
    replica = party()
    before = replica.session()
    ash = before["roster"][0]
    replica.roster[ash["id"]]["counts"]["health"]["a1"] = [MAX_STEPS, MAX_STEPS]
    after = {**before, "roster": [{**ash, "health": ash["health"] - 1}, *before["roster"][1:]]}
    kept = twin(replica)
    with pytest.raises(SessionError) as error:
        replica.absorb(before, after, "a1")
    assert seen(str(error.value)) == ("Ash Varga's Health can't be changed again on this phone in this session: "
                                      "its count is full.")
    assert same(replica, kept)


def test_a_full_clock_refuses_the_tap():
    replica = party()
    replica.clock = MAX_CLOCK - 10
    before = replica.session()
    with pytest.raises(SessionError, match="its clock is full"):
        replica.absorb(before, {**before, "name": "Again"}, "a1")
    assert replica.clock == MAX_CLOCK - 10


# --- Hypothesis: pairs of valid replicas at their limits ---------------------------------------------------------

@st.composite
def crowded_replicas(draw):
    """A valid replica of one shared session pushed toward every limit: devices in its counts,
    live and removed roster entries, sealed-card messages, undo marks, counts at their caps,
    clocks near their bounds."""
    replica = Replica.from_session(session_of(roster(("tension",), 3)))
    phones = draw(st.lists(st.sampled_from(PHONES + ["ff", "fe"]), max_size=63, unique=True))  # and "": 64
    caps = st.sampled_from([0, 1, MAX_STEPS - 1, MAX_STEPS])
    for phone in phones:  # a count that adds up to nothing is [0, 0] here: another is left out where it arrives
        up, down = draw(caps), draw(caps)  # (session.inert), and a stale copy of its phone's count could count again
        replica.tension[phone] = [up, down] if up != down or not up else [up, 0]
    entry_id = draw(st.sampled_from(sorted(replica.roster)))
    for phone in draw(st.lists(st.sampled_from(PHONES), max_size=63, unique=True)):
        replica.roster[entry_id]["counts"]["ap"][phone] = [draw(caps), 0]
    clock = draw(st.sampled_from([5, 10 ** 6, MAX_CLOCK - CLOCK_ROOM - 1, MAX_CLOCK - CLOCK_ROOM]))
    for number in draw(st.lists(st.integers(0, 250), max_size=180, unique=True)):  # with the live: 240 at most
        replica.roster[f"gone{number}"] = {"added": [1, "a1"], "removed": [2, "a1"], "fields": {}, "counts": {}}
    for number in draw(st.lists(st.integers(0, 70), max_size=57, unique=True)):  # with the 3: up to 60 live
        replica.roster[f"live{number}"] = {"added": [1, "a1"], "removed": None, "counts": {},
                                           "fields": {"name": [f"Hero {number}", 1, "a1"],
                                                      "system": ["anomaly", 1, "a1"], "kind": ["character", 1, "a1"],
                                                      "modifiers": [[], 1, "a1"]}}
    for number in draw(st.lists(st.integers(0, 20), max_size=12, unique=True)):
        replica.add_sealed(sealed_exchange.seal_test("x1", "Time", 4, f"{number:02x}" * 16))
    for number in draw(st.lists(st.integers(0, 120), max_size=100, unique=True)):
        # no entry of its own here, so it reverses nothing (session.history.held_effects)
        replica.undone[f"u{number}"] = {"by": {draw(st.sampled_from(PHONES)): draw(st.integers(0, clock))},
                                        "effects": []}
    if draw(st.booleans()):
        replica.fields["name"] = [draw(st.sampled_from(["A", "B"])), clock, draw(st.sampled_from(PHONES))]
    replica.clock = clock
    data = json.loads(json.dumps(replica.to_dict()))
    try:
        return check_replica(data, room=CLOCK_ROOM)
    except SessionError:
        assume(False)


def merged_or_refused(first: Replica, second: Replica) -> Replica | None:
    try:
        merged = merge_checked(first, second, {}).replica
    except MergeRefused:
        return None
    loads(merged)  # the next start loads it
    return merged


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(crowded_replicas(), crowded_replicas(), crowded_replicas())
def test_merges_at_the_limits_are_valid_or_refused_and_the_join_laws_hold(first, second, third):
    one_way = merged_or_refused(first, second)
    other_way = merged_or_refused(second, first)
    assert (one_way is None) == (other_way is None)
    event("refused" if one_way is None else "merged")
    if one_way is None:
        return
    assert same_acted(one_way, other_way) and one_way.session() == other_way.session()
    assert same(merged_or_refused(one_way, one_way), one_way)
    left = merged_or_refused(one_way, third)
    right_inner = merged_or_refused(second, third)
    if left is not None and right_inner is not None:
        right = merged_or_refused(first, right_inner)
        assert right is not None and same_acted(left, right) and left.session() == right.session()


# --- Limits honest use never reaches -------------------------------------------------------------------------------

def test_a_campaigns_whole_life_stays_shareable_and_loadable():
    """20,000 entries, 2,000 undos (20 of them on two phones at once), 12 phones, 60 characters."""
    whole = campaign()
    assert len(whole.log) == 20_000 and len(whole.undone) == 2_000 and len(whole.roster) == 60
    assert loads(whole).session(log=False) == whole.session(log=False)  # loadable
    link = session_link(whole)
    incoming = read(link).replica  # shareable: its link opens on another phone
    assert len(incoming.undone) == MAX_MARKS and len(incoming.log) == 20
    assert incoming.session(log=False) == whole.session(log=False)  # every number exact there
    older = campaign(19_000, 1_900)  # a phone that saw it a while ago
    for mine in (older, as_held(older)):  # its whole log in memory, or (as a phone holds it) the newest page
        merged = merge_checked(mine, incoming, {}).replica
        assert loads(merged).session(log=False) == whole.session(log=False)


def test_the_largest_link_merges_into_a_phone_that_loads_it_again():
    incoming = read(session_link(largest_link_replica())).replica
    mine = Replica.from_session(session_of(roster(("tension",))))
    merged = merge_checked(mine, incoming, {}).replica
    assert loads(merged).session(log=False) == merged.session(log=False)


def test_a_roll_that_would_take_the_session_past_a_limit_is_not_added():
    party_session = party_of_five()
    store = MemoryStore()
    gm = phone(party_session, store=store)
    crowded = twin(gm.replica)
    crowded.tension.update({phone: [1, 0] for phone in PHONES[:63]})  # with "": 64 phones, the most
    crowded.clock += 1
    crowded.fields["name"] = ["Crowded", crowded.clock, "ff"]
    open_link(gm, session_link(crowded))
    tap(gm, "join-update")
    player = phone()
    open_link(player, session_link(Replica.from_session(party_session)))
    ash = player.session["roster"][0]
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 5,
                            "gm": {"name": "The GM", "dice": [6, 5, 2, 1, 1]},
                            "player": {"name": ash["name"], "id": ash["id"], "side": "character", "pool": 5,
                                       "dice": [6, 4, 3, 1, 1], "keep": [0, 1, 2], "ap": 1}})
    player.session = log_conflict(player.session, record, by=ash["name"])
    settle(player)
    open_link(gm, roll_message(player.replica, player.session["log"][0]["id"]))
    refusal = "This link can't be merged: the session would have counts from more than 64 phones."
    assert gm.pending["state"] == "unmergeable" and gm.message.text == refusal and not gm.pending["addable"]
    assert gm.session["log"] == [] and gm.session["name"] == "Crowded"
    every_head_loads(store)


def test_a_file_keeps_the_same_limits_as_a_link():
    replica = party()
    replica.clock = MAX_CLOCK - CLOCK_ROOM + 1
    with pytest.raises(ImportFileError, match="a clock too close to the largest Tableside keeps"):
        read_export(export_text(replica))
    replica.clock = 3
    replica.fields["name"] = ["Later", 4, "a1"]
    with pytest.raises(ImportFileError, match="stamped later than its own clock"):
        read_export(export_text(replica))
    whole = campaign(2_000, 200)
    assert loads(read_export(export_text(whole))).session(log=False) == whole.session(log=False)


def test_a_conflict_keeps_no_more_sealed_messages_than_the_check_accepts():
    replica = party()
    added = [replica.add_sealed(sealed_exchange.seal_test("x1", "Time", 4, f"{number:02x}" * 16))
             for number in range(14)]
    assert added == [True] * 12 + [False] * 2 and len(replica.sealed["x1"]) == 12
    assert loads(replica).sealed == replica.sealed
