"""Sessions that merge: the laws of a join, convergence in any order, nothing local dropped,
and a replica's session always equal to what the taps on that phone made."""
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from session import check_roster_entry, check_session, SessionError
from samples import json_values, party_of_five, random_sessions
from session.replica import Replica, new_device
from session.replica_check import check_replica
from session.sealed import exchange as sealed_exchange

DEVICES = ("aaaa0001", "bbbb0002", "cccc0003")


def plain(session: dict) -> dict:
    """A session without the stamps a replica adds to log entries."""
    return {**session, "log": [{key: value for key, value in entry.items() if key not in ("clock", "device")}
                               for entry in session["log"]]}


def same(first: Replica, second: Replica) -> bool:
    return json.dumps(first.to_dict(), sort_keys=True) == json.dumps(second.to_dict(), sort_keys=True)


# --- Taps, as actions make them: new session dicts, never edits of the old one ---------------------------

def clamp(value, high=99):
    return max(0, min(high, value))


def apply(session: dict, operation, serial: int) -> dict:
    kind, amount, index = operation
    characters = [entry for entry in session["roster"] if "ap" in entry]
    if kind == "tension":
        return {**session, "tension": clamp(session["tension"] + amount)}
    if kind == "ap" and characters:
        target = characters[index % len(characters)]
        roster = [{**entry, "ap": clamp(entry["ap"] + amount)} if entry is target else entry
                  for entry in session["roster"]]
        return {**session, "roster": roster}
    if kind == "rename":
        return {**session, "name": f"Session {amount}"}
    if kind == "add":
        entry = check_roster_entry({"id": f"e{serial}x{index}", "system": "tension", "kind": "character",
                                             "name": f"Hero {serial}", "ap": abs(amount) % 5})
        return {**session, "roster": [*session["roster"], entry]}
    if kind == "remove" and session["roster"]:
        gone = session["roster"][index % len(session["roster"])]
        return {**session, "roster": [entry for entry in session["roster"] if entry is not gone]}
    if kind == "log":
        after = clamp(session["tension"] + abs(amount))
        effects = [{"field": "tension", "id": None, "delta": after - session["tension"]}]
        entry = {"id": f"log{serial}x{index}", "at": "", "by": "", "kind": "conflict", "record": {"n": serial},
                 "effects": effects}
        return {**session, "tension": after, "log": [entry, *session["log"]]}
    if kind == "undo" and session["log"]:
        newest = session["log"][0]
        delta = sum(effect["delta"] for effect in newest.get("effects", []) if effect["field"] == "tension")
        return {**session, "tension": clamp(session["tension"] - delta), "log": session["log"][1:]}
    return session


operations = st.tuples(st.sampled_from(["tension", "ap", "rename", "add", "remove", "log", "undo", "seal"]),
                       st.integers(-6, 6), st.integers(0, 20))
# Each step: a device taps (operation) or takes in another device's replica (a link opened).
steps = st.lists(st.tuples(st.integers(0, 2), st.one_of(operations, st.integers(0, 2))), max_size=30)


def sealed_step(amount: int, index: int, serial: int) -> dict:
    """One of a few sealed-card messages of three conflicts: a seal, a lock or a reveal."""
    conflict, card, salt = f"x{index % 3}", rules.COMPLICATIONS[amount % 5], f"{serial:032x}"
    if index % 2:
        return sealed_exchange.seal_test(conflict, card, 1 + abs(amount) % 8, salt)
    if amount % 3 == 0:
        return sealed_exchange.lock_test(conflict, {"name": "Wren", "manner": "Force", "manner_rating": 3,
                                                    "skill_rating": 0, "helpers": 0, "descriptors": abs(amount) % 3})
    return sealed_exchange.reveal_test(conflict, card, 1 + abs(amount) % 8, salt)


class Phone:
    def __init__(self, device: str, replica: Replica):
        self.device = device
        self.replica = replica
        self.session = replica.session()

    def tap(self, operation, serial: int):
        if operation[0] == "seal":  # a step of a sealed-card exchange (session.sealed): not in the session dict
            self.replica.add_sealed(sealed_step(*operation[1:], serial))
            return
        after = apply(self.session, operation, serial)
        self.replica.absorb(self.session, after, self.device)
        self.session = after

    def open(self, other: Replica):
        self.replica = self.replica.merge(other)
        self.session = self.replica.session()


def play(base: dict, script) -> list[Phone]:
    phones = [Phone(device, Replica.from_session(base)) for device in DEVICES]
    for serial, (who, step) in enumerate(script):
        if isinstance(step, tuple):
            phones[who].tap(step, serial)
        else:
            phones[who].open(phones[step].replica.copy())
    return phones


def base_session() -> dict:
    return party_of_five()


# --- A replica stands for its session -------------------------------------------------------------------

@settings(deadline=None, max_examples=60)
@given(random_sessions())
def test_a_version_one_session_becomes_a_replica_of_itself(session):
    assert plain(Replica.from_session(session).session()) == session


@settings(deadline=None, max_examples=80)
@given(steps)
def test_after_any_taps_a_replica_derives_exactly_the_session_on_screen(script):
    for phone in play(base_session(), script):
        assert phone.replica.session() == phone.session


# --- The laws ---------------------------------------------------------------------------------------------

@settings(deadline=None, max_examples=80)
@given(steps)
def test_merge_is_commutative_associative_and_idempotent(script):
    a, b, c = (phone.replica for phone in play(base_session(), script))
    assert same(a.merge(b), b.merge(a))
    assert same(a.merge(b).merge(c), a.merge(b.merge(c)))
    assert same(a.merge(a), a)
    assert same(a.merge(b).merge(b), a.merge(b))
    merged = a.merge(b).merge(c)
    for replica in (a, b, c):  # the sealed-card messages: a union, nothing dropped
        for conflict, messages in replica.sealed.items():
            assert messages.items() <= merged.sealed[conflict].items()


@settings(deadline=None, max_examples=80)
@given(steps, st.permutations([0, 1, 2]), st.permutations([0, 1, 2]))
def test_phones_that_opened_the_same_links_show_the_same_session_in_any_order(script, first, second):
    replicas = [phone.replica for phone in play(base_session(), script)]
    one = replicas[first[0]].merge(replicas[first[1]]).merge(replicas[first[2]])
    other = replicas[second[0]].merge(replicas[second[1]]).merge(replicas[second[2]]).merge(replicas[second[1]])
    assert one.session() == other.session()


@settings(deadline=None, max_examples=80)
@given(steps)
def test_merging_never_drops_what_a_phone_had(script):
    a, b, _ = (phone.replica for phone in play(base_session(), script))
    merged = a.merge(b)
    assert a.log.keys() <= merged.log.keys()
    assert a.undone.keys() <= merged.undone.keys()
    for device, (up, down) in a.tension.items():
        assert merged.tension[device][0] >= up and merged.tension[device][1] >= down
    for key, write in a.fields.items():
        assert (merged.fields[key][1], merged.fields[key][2]) >= (write[1], write[2])
    assert a.roster.keys() <= merged.roster.keys()


# --- What merging means at the table -----------------------------------------------------------------------

def test_spending_on_one_phone_and_gaining_on_another_both_count():
    base = base_session()
    gm, player = (Phone(device, Replica.from_session(base)) for device in DEVICES[:2])
    gm.tap(("tension", 2, 0), 1)
    player.tap(("ap", -1, 0), 2)
    player.tap(("tension", 1, 0), 3)
    gm.open(player.replica)
    player.open(gm.replica)
    assert gm.session == player.session
    assert gm.session["tension"] == base["tension"] + 3
    assert gm.session["roster"][0]["ap"] == base["roster"][0]["ap"] - 1


def test_an_entry_undone_on_two_phones_at_once_is_undone_once():
    base = base_session()
    start = Phone(DEVICES[0], Replica.from_session(base))
    start.tap(("log", 4, 0), 1)
    first, second = Phone(DEVICES[1], start.replica.copy()), Phone(DEVICES[2], start.replica.copy())
    first.tap(("undo", 0, 0), 2)
    second.tap(("undo", 0, 0), 3)
    first.open(second.replica)
    assert first.session["tension"] == base["tension"]
    assert first.session["log"] == []


def test_a_later_write_wins_and_two_phones_agree_which_is_later():
    base = base_session()
    gm, player = (Phone(device, Replica.from_session(base)) for device in DEVICES[:2])
    gm.tap(("rename", 1, 0), 1)
    player.tap(("rename", 2, 0), 2)
    player.tap(("rename", 3, 0), 3)  # clock 2 on the player's phone: later than the GM's clock 1
    gm.open(player.replica)
    player.open(gm.replica)
    assert gm.session["name"] == player.session["name"] == "Session 3"


def test_device_ids_are_short_and_differ():
    ids = {new_device() for _ in range(50)}
    assert len(ids) == 50 and all(len(device) == 8 for device in ids)


# --- Untrusted replicas -----------------------------------------------------------------------------------

def as_json(replica: Replica):
    return json.loads(json.dumps(replica.to_dict()))


@settings(deadline=None, max_examples=60)
@given(steps)
def test_a_replica_written_out_reads_back_the_same(script):
    for phone in play(base_session(), script):
        assert same(check_replica(as_json(phone.replica)), phone.replica)


@settings(deadline=None, max_examples=300)
@given(json_values)
def test_any_json_is_refused_with_a_sentence_or_read(value):
    try:
        check_replica(value)
    except SessionError as error:
        assert str(error)


def paths(value, prefix=()):
    """Every (path, value) inside nested dicts and lists."""
    yield prefix, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from paths(item, (*prefix, key))


@settings(deadline=None, max_examples=300)
@given(steps, st.data())
def test_a_replica_with_one_part_replaced_is_refused_or_clean(script, data):
    raw = as_json(play(base_session(), script)[0].replica)
    places = [path for path, _ in paths(raw) if path]
    path = data.draw(st.sampled_from(places))
    target = raw
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(json_values)
    try:
        replica = check_replica(raw)
    except SessionError as error:
        assert str(error)
    else:
        assert same(check_replica(as_json(replica)), replica)
        check_session(replica.session())
