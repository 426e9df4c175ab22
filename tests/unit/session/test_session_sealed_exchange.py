"""Sealed cards across phones (session.sealed.exchange): a seal binds its card, difficulty, conflict and
salt, and nothing else verifies against it; messages survive a link; hostile ones are refused
with a sentence; a reveal that fails its seal is named and never resolves."""
import base64
import zlib

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rules
from samples import json_values
from session import LinkError, SessionError, new_session
from session.links import v2 as link_v2
from session.replica import Replica
from session.replica_check import check_replica
from session.sealed import exchange as sealed_exchange

cards = st.sampled_from(rules.COMPLICATIONS)
difficulties = st.integers(1, rules.LIMITS["manners_difficulty"])
conflicts = st.from_regex(r"[A-Za-z0-9_-]{1,24}", fullmatch=True)
salts = st.binary(min_size=16, max_size=32).map(bytes.hex)
sides = st.fixed_dictionaries({
    "name": st.text(st.characters(categories=["L", "N", "Zs"]), max_size=20).filter(str.isprintable),
    "manner": st.sampled_from(rules.MANNERS), "manner_rating": st.integers(0, rules.LIMITS["rating"]),
    "skill_rating": st.integers(0, rules.LIMITS["rating"]), "helpers": st.integers(0, rules.LIMITS["helpers"]),
    "descriptors": st.integers(0, rules.LIMITS["descriptors"])})


@settings(max_examples=200, deadline=None)
@given(cards, difficulties, conflicts, salts, cards, difficulties, conflicts, salts)
def test_a_commitment_never_verifies_against_another_card_difficulty_conflict_or_salt(
        card, difficulty, conflict, salt, other_card, other_difficulty, other_conflict, other_salt):
    seal = sealed_exchange.commitment(card, difficulty, conflict, salt)
    assert sealed_exchange.verify(seal, card, difficulty, conflict, salt)
    for changed in ((other_card, difficulty, conflict, salt), (card, other_difficulty, conflict, salt),
                    (card, difficulty, other_conflict, salt), (card, difficulty, conflict, other_salt)):
        if changed != (card, difficulty, conflict, salt):
            assert not sealed_exchange.verify(seal, *changed)
    assert not sealed_exchange.verify(seal, card, difficulty, conflict, salt, sealed_exchange.CONFRONTATION)


@settings(deadline=None)
@given(sides, sides, conflicts, salts)
def test_a_sealed_side_binds_every_number_on_it(side, other, conflict, salt):
    assume(side != other)
    seal = sealed_exchange.commitment(side, None, conflict, salt, sealed_exchange.CONFRONTATION)
    assert sealed_exchange.verify(seal, side, None, conflict, salt, sealed_exchange.CONFRONTATION)
    assert not sealed_exchange.verify(seal, other, None, conflict, salt, sealed_exchange.CONFRONTATION)


def test_salts_are_128_bits_or_more_and_differ():
    made = {sealed_exchange.new_salt() for _ in range(50)}
    assert len(made) == 50 and all(len(salt) * 4 >= 128 for salt in made)


def messages_of(conflict, card, difficulty, salt, side):
    return [sealed_exchange.seal_test(conflict, card, difficulty, salt), sealed_exchange.lock_test(conflict, side),
            sealed_exchange.reveal_test(conflict, card, difficulty, salt)]


@settings(max_examples=60, deadline=None)
@given(conflicts, cards, difficulties, salts, sides)
def test_messages_round_trip_through_a_link_and_settle_to_the_same_record(conflict, card, difficulty, salt, side):
    sent = messages_of(conflict, card, difficulty, salt, side)
    incoming = link_v2.read(link_v2.sealed_message("s1", "Friday", sent[2:]))
    assert incoming.kind == "sealed" and incoming.messages == sent[2:] and incoming.session_id == "s1"
    settled = sealed_exchange.settle({sealed_exchange.digest(message): message for message in sent})
    assert settled.problems == [] and settled.record["complication"] == card
    assert settled.record["difficulty"] == difficulty and settled.record["player"]["manner"] == side["manner"]


@settings(max_examples=60, deadline=None)
@given(conflicts, cards, difficulties, salts, sides, st.sampled_from(["card", "d", "salt"]))
def test_a_reveal_that_fails_its_seal_is_ignored_and_never_resolves(conflict, card, difficulty, salt, side, changed):
    sent = messages_of(conflict, card, difficulty, salt, side)
    other = {"card": rules.COMPLICATIONS[(rules.COMPLICATIONS.index(card) + 1) % 5],
             "d": difficulty % rules.LIMITS["manners_difficulty"] + 1, "salt": salt[::-1] if salt != salt[::-1]
             else "0" * len(salt) if salt != "0" * len(salt) else "1" * len(salt)}[changed]
    sent[2] = {**sent[2], changed: other}
    settled = sealed_exchange.settle({sealed_exchange.digest(message): message for message in sent})
    assert settled.record is None and settled.problems == [] and settled.revealed == {}  # anyone can send one


def test_a_forged_reveal_beside_the_genuine_one_is_ignored_and_the_genuine_one_settles():
    sent = messages_of("c1", "Time", 4, "ab" * 16, {"name": "Wren", "manner": "Force", "manner_rating": 3,
                                                      "skill_rating": 0, "helpers": 0, "descriptors": 0})
    forged = {**sent[2], "card": "Hostility"}
    settled = sealed_exchange.settle({sealed_exchange.digest(message): message for message in [*sent, forged]})
    assert settled.problems == [] and settled.record["complication"] == "Time"


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_as_a_message_is_refused_with_a_sentence_or_read(value):
    try:
        sealed_exchange.check_message(value)
    except SessionError as error:
        assert str(error).endswith(".")
    try:
        link_v2.read(link_v2.sealed_message("s1", "", [value]))
    except LinkError as error:
        assert str(error).startswith("This link")


HOSTILE = [
    {"c": "x1", "k": "test", "t": "seal", "by": "gm", "d": 4, "h": "0" * 64, "card": "Time"},  # a seal with its card
    {"c": "x1", "k": "test", "t": "seal", "by": "player", "d": 4, "h": "0" * 64},  # the player never seals a Test
    {"c": "x1", "k": "test", "t": "reveal", "by": "gm", "card": "Time", "d": 99, "salt": "ab" * 16},
    {"c": "x1", "k": "test", "t": "reveal", "by": "gm", "card": "<script>", "d": 4, "salt": "ab" * 16},
    {"c": "x1", "k": "test", "t": "reveal", "by": "gm", "card": "Time", "d": 4, "salt": "ab"},  # a short salt
    {"c": "x" * 200, "k": "test", "t": "seal", "by": "gm", "d": 4, "h": "0" * 64},
    {"c": "x1", "k": "confrontation", "t": "reveal", "by": "player", "salt": "ab" * 16,
     "side": {"name": "W" * 500, "manner": "Force", "manner_rating": 3, "skill_rating": 0, "helpers": 0,
              "descriptors": 0}},
    {"c": "x1", "k": "confrontation", "t": "reveal", "by": "player", "salt": "ab" * 16,
     "side": {"name": "Wren", "manner": "Force", "manner_rating": 3, "skill_rating": 0, "helpers": 0,
              "descriptors": 0, "result": {"outcome": "success"}}},
]


@pytest.mark.parametrize("message", HOSTILE)
def test_hostile_messages_are_refused_with_a_clear_sentence(message):
    with pytest.raises(SessionError, match=r"sealed|reveal|Complication|\.$"):
        sealed_exchange.check_message(message)


def test_a_replica_keeps_messages_only_under_their_own_digest():
    replica = Replica.from_session(new_session())
    replica.add_sealed(sealed_exchange.seal_test("x1", "Time", 4, "ab" * 16))
    data = replica.to_dict()
    assert check_replica(data).sealed == replica.sealed
    [key] = data["sealed"]["x1"]
    data["sealed"]["x1"][key] = {**data["sealed"]["x1"][key], "d": 5}
    with pytest.raises(SessionError):
        check_replica(data)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_sealed_link_with_any_part_replaced_is_refused_with_a_sentence_or_opens_cleanly(data):
    from hostile import hostile_json, json_paths, splice

    sent = messages_of("c1", "Time", 4, "ab" * 16, {"name": "Wren", "manner": "Force", "manner_rating": 3,
                                                      "skill_rating": 0, "helpers": 0, "descriptors": 0})
    payload = {"s": "s1", "n": "Friday", "m": [sent[0], sent[2]]}
    path = data.draw(st.sampled_from(list(json_paths(payload))))
    spliced = splice(payload, path, data.draw(hostile_json)).encode("utf-8", "surrogatepass")
    packer = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, link_v2.PRESET)
    fragment = "C2." + base64.b32encode(packer.compress(spliced) + packer.flush()).decode().rstrip("=")
    try:
        incoming = link_v2.read(fragment)
    except LinkError as error:
        assert str(error).startswith("This link") and str(error).endswith(".")
        return
    assert incoming.kind == "sealed" and all(sealed_exchange.check_message(message) == message
                                             for message in incoming.messages)
