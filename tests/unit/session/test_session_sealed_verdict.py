"""Sealed results bound to their seals (session.sealed.verdict, issue 23 item 6): whatever order the
messages of the GM's phone, the player's phone, a second character's phone and a forger arrive in,
every phone settles the same genuine result, never blocked or blamed by the forger; a result logged
under the conflict id with another card is flagged on every phone whichever arrives first; a seal is
bound to its session."""
import copy

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from session import log_conflict, new_session
from session.links import v2 as link_v2
from session.replica import Replica
from session.sealed import exchange as sealed_exchange
from session.sealed.verdict import covered, verdict

SESSION = "s1"
SALT = "ab" * 16
WREN = {"name": "Wren", "id": "w1", "manner": "Force", "manner_rating": 3, "skill_rating": 1, "helpers": 0,
        "descriptors": 0}
ASH = {**WREN, "name": "Ash", "id": "a1", "manner": "Speed"}
SEAL = sealed_exchange.seal_test("x1", "Hostility", 5, SALT, SESSION, "w1")
LOCK = sealed_exchange.lock_test("x1", WREN, SEAL["h"])
REVEAL = sealed_exchange.reveal_test("x1", "Hostility", 5, SALT)
HONEST = [SEAL, LOCK, REVEAL]
GENUINE = rules.resolve({"v": 1, "system": "manners", "kind": "test", "player": WREN, "difficulty": 5,
                         "complication": "Hostility"}, source=rules.NoDice())

salts = st.binary(min_size=16, max_size=16).map(bytes.hex)
cards = st.sampled_from(rules.COMPLICATIONS)
forged_seals = st.builds(lambda card, salt, who: sealed_exchange.seal_test("x1", card, 5, salt, SESSION, who),
                         cards, salts, st.sampled_from(["w1", "a1"]))
forged = st.one_of(
    st.builds(lambda card, salt: sealed_exchange.reveal_test("x1", card, 5, salt), cards, salts),  # opens no seal
    st.builds(lambda card: sealed_exchange.reveal_test("x1", card, 5, SALT), cards),  # the right salt, another card
    forged_seals,  # a seal nobody answered (with its own reveal, below)
    st.builds(lambda seal: sealed_exchange.lock_test("x1", ASH, seal["h"]),  # Ash's phone's lock
              st.sampled_from([SEAL])),
    st.builds(lambda card, salt: sealed_exchange.seal_test("x1", card, 5, salt), cards, salts),  # an unbound (old) seal
)


def keyed(messages) -> dict:
    return {sealed_exchange.digest(message): message for message in messages}


def replica() -> Replica:
    made = Replica.from_session({**new_session(system="manners"), "id": SESSION})
    return made


def carried(source: Replica) -> Replica:
    """What a session link of `source` brings to another phone (the real link path)."""
    return link_v2.read(link_v2.session_link(source)).replica


@settings(max_examples=200, deadline=None)
@given(st.lists(forged, max_size=5), st.randoms(use_true_random=False), st.integers(1, 4))
def test_any_order_of_messages_from_both_phones_and_a_forger_settles_the_genuine_result_everywhere(
        extra, random, phones):
    messages = [*HONEST, *extra]
    held = [dict() for _ in range(phones)]
    for message in random.sample(messages, len(messages)):  # each message reaches some phone first
        held[random.randrange(phones)][sealed_exchange.digest(message)] = message
        for messages_here in held:  # at every moment: never blocked, never another result
            settled = sealed_exchange.settle(messages_here, SESSION)
            assert settled.problems == []
            assert settled.record in (None, GENUINE)
    everything = {}
    for messages_here in random.sample(held, len(held)):  # then they meet, in any order
        everything.update(messages_here)
    settled = sealed_exchange.settle(everything, SESSION)
    assert settled.problems == [] and settled.record == GENUINE and settled.locked == WREN


def test_a_lock_from_a_second_characters_phone_neither_counts_nor_stops_the_reveal():
    ash = sealed_exchange.lock_test("x1", ASH, SEAL["h"])
    waiting = sealed_exchange.settle(keyed([SEAL, ash]), SESSION)
    assert waiting.locked is None and waiting.problems == []  # still waiting for Wren
    settled = sealed_exchange.settle(keyed([SEAL, ash, LOCK, REVEAL]), SESSION)
    assert settled.problems == [] and settled.record == GENUINE


def test_the_same_character_locking_two_manners_is_still_named():
    other = sealed_exchange.lock_test("x1", {**WREN, "manner": "Speed"}, SEAL["h"])
    settled = sealed_exchange.settle(keyed([SEAL, LOCK, other, REVEAL]), SESSION)
    assert settled.record is None and settled.problems == ["Wren sent two different Manners for this conflict."]


def test_a_seal_is_bound_to_its_session_a_copy_elsewhere_opens_nothing():
    assert sealed_exchange.settle(keyed(HONEST), SESSION).record == GENUINE
    elsewhere = sealed_exchange.settle(keyed(HONEST), "s2")  # the same messages copied into another session
    assert elsewhere.record is None and elsewhere.revealed == {}
    secret = sealed_exchange.new_secret(SESSION, "x1", sealed_exchange.TEST, sealed_exchange.GM, "Time", 4, "w1")
    assert sealed_exchange.check_secret(copy.deepcopy(secret), SESSION, "x1")["card"] == "Time"
    for session, conflict in (("s2", "x1"), (SESSION, "x2")):
        try:
            sealed_exchange.check_secret(copy.deepcopy(secret), session, conflict)
        except Exception as error:
            assert "could not be read" in str(error)
        else:
            raise AssertionError("a secret was read for another session or conflict")


def logged(made: Replica, record: dict, proof=None, device: str = "aa") -> Replica:
    """`made` with `record` logged under the conflict id, as the manners screen logs it."""
    before = made.session()
    after = log_conflict(before, record, by="Wren", same_as="x1")
    if proof is not None:
        after["log"][0]["sealed"] = proof
    made.absorb(before, after, device)
    return made


TIME = rules.resolve({**{key: value for key, value in GENUINE.items() if key != "result"}, "complication": "Time"},
                     source=rules.NoDice())


def gm_logs_another_card(own_lock: bool) -> Replica:
    """The GM's phone, after the lock: logs Time under the conflict id, with a seal and reveal of its own
    (and, `own_lock`, a copy of Wren's lock answering that seal)."""
    gm = replica()
    for message in [SEAL, LOCK]:
        gm.add_sealed(message)
    other_salt = "cd" * 16
    own_seal = sealed_exchange.seal_test("x1", "Time", 5, other_salt, SESSION, "w1")
    lock = sealed_exchange.lock_test("x1", WREN, own_seal["h"]) if own_lock else LOCK
    return logged(gm, TIME, [own_seal, lock, sealed_exchange.reveal_test("x1", "Time", 5, other_salt)])


@pytest.mark.parametrize("own_lock", [False, True])
def test_another_card_logged_under_the_conflict_id_is_flagged_on_every_phone_whichever_arrives_first(own_lock):
    forged_first = replica()
    for message in [SEAL, LOCK]:
        forged_first.add_sealed(message)
    forged_first = forged_first.merge(carried(gm_logs_another_card(own_lock)))
    assert verdict(forged_first, forged_first.log["x1"]).flag  # flagged before the genuine reveal too
    reveal_first = replica()
    for message in HONEST:
        reveal_first.add_sealed(message)
    reveal_first = reveal_first.merge(carried(gm_logs_another_card(own_lock)))
    forged_first.add_sealed(REVEAL)
    bare = replica().merge(carried(gm_logs_another_card(own_lock)))  # a third phone, from the GM's link alone
    for phone in (forged_first, reveal_first, bare, replica().merge(carried(forged_first))):
        judged = verdict(phone, phone.log["x1"])
        assert judged.sealed and judged.flag, judged
    assert verdict(forged_first, forged_first.log["x1"]) == verdict(reveal_first, reveal_first.log["x1"])
    assert verdict(reveal_first, reveal_first.log["x1"]).flag == (
        "Two different sealed cards were each answered with a Manner in this conflict." if own_lock
        else "The GM sealed Hostility, not Time.")


def test_a_genuine_logged_result_is_sealed_and_checked_everywhere_and_links_need_only_the_entry():
    player = replica()
    for message in HONEST:
        player.add_sealed(message)
    player = logged(player, GENUINE, HONEST)
    assert covered(player, "x1")
    arrived = carried(player)
    assert "x1" not in link_v2.read(link_v2.session_link(player)).replica.to_dict().get("sealed", {}) or covered(
        arrived, "x1")
    for phone in (player, replica().merge(arrived)):
        assert verdict(phone, phone.log["x1"]).sealed and verdict(phone, phone.log["x1"]).flag == ""


def test_a_logged_sealed_result_without_its_reveal_is_flagged_not_checked():
    gm = replica()
    for message in [SEAL, LOCK]:
        gm.add_sealed(message)
    gm = logged(gm, GENUINE)  # no proof: the card never shown against the seal
    judged = verdict(gm, gm.log["x1"])
    assert judged.flag.startswith("The sealed card was never revealed")


@settings(max_examples=60, deadline=None)
@given(st.lists(forged, max_size=3), st.booleans(), st.randoms(use_true_random=False))
def test_whatever_order_phones_meet_in_every_phone_gives_the_same_verdict_to_a_card_logged_after_the_lock(
        extra, own_lock, random):
    """The GM's phone (logs Time after the lock), the player's phone (the genuine reveal arrives) and a
    forger's phone hand their replicas around by session links in any order: in the end every phone has
    the entry flagged, with the same sentence, and the exchange settles to the genuine result."""
    gm = gm_logs_another_card(own_lock)
    player = replica()
    for message in HONEST:
        player.add_sealed(message)
    forger = replica()
    for message in extra:
        forger.add_sealed(message)
    phones = [gm, player, forger]
    for _ in range(6):  # links opened in a random order, some phones more than once
        source, target = random.sample(range(3), 2)
        phones[target] = phones[target].merge(carried(phones[source]))
    for index in range(3):  # then everyone meets everyone
        for other in range(3):
            phones[index] = phones[index].merge(carried(phones[other]))
    verdicts = {verdict(phone, phone.log["x1"]) for phone in phones}
    assert len(verdicts) == 1 and next(iter(verdicts)).flag
    for phone in phones:
        assert sealed_exchange.settle(phone.sealed["x1"], SESSION).record in (None, GENUINE)
