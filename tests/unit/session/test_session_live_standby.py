"""session.live.standby: the ways back a phone stores (read back as untrusted), the one-scan code
(about 40 characters, read back exactly, anything else refused with a sentence), and the
protocol's standby messages."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from session.live import protocol as live_protocol
from session.live import signal as live_signal
from session.live import standby as live_standby
from session.live.protocol import LiveMessageError
from session.live.standby import MUNGE, SCAN, StandbyError, Way, Ways, read_rejoin_code, read_ways, rejoin_code

SAMPLES = Path(__file__).resolve().parent / "live_sdp"
OFFER = live_signal.from_sdp(live_signal.OFFER, (SAMPLES / "chromium-156-camera-offer.sdp").read_text(), 77)
PRINT = ":".join(["3F"] * 32)


def ways() -> Ways:
    stored = Ways(hub=False)
    ufrag, pwd = live_standby.new_credentials()
    stored.add("gm", Way(77, MUNGE, OFFER, ufrag, pwd), keep=[77])
    stored.peers["gm"].role, stored.peers["gm"].who = "gm", "Kim"
    return stored


def test_stored_ways_read_back_as_they_were_written():
    stored = ways()
    again = read_ways(json.loads(json.dumps(stored.to_dict())))
    assert again.to_dict() == stored.to_dict() and again.peers["gm"].ways[0].offer == OFFER


def test_a_holder_that_no_longer_keeps_a_standby_drops_its_way_back_and_ways_are_single_use():
    stored = ways()
    offer = live_signal.Signal(live_signal.OFFER, 78, OFFER.ufrag, OFFER.pwd, OFFER.fingerprint, OFFER.candidates)
    stored.add("gm", Way(78, SCAN, offer), keep=[78])  # its holder reloaded: 77 is gone with its page
    assert [way.id for way in stored.peers["gm"].ways] == [78]
    assert stored.peers["gm"].take(MUNGE) is None and stored.peers["gm"].take(SCAN).id == 78
    assert stored.empty() and "gm" not in stored.to_dict()["peers"]


def broken(change) -> dict:
    data = ways().to_dict()
    change(data)
    return data


@pytest.mark.parametrize("data", [
    None, [], "x", {"hub": False}, {"hub": 1, "peers": {}},
    broken(lambda data: data["peers"].update({"<bad id>": data["peers"]["gm"]})),
    broken(lambda data: data["peers"]["gm"].update(role="<script>")),
    broken(lambda data: data["peers"]["gm"].update(who="x" * 10_000)),
    broken(lambda data: data["peers"]["gm"]["ways"][0].update(offer="O1.NOTACODE")),
    broken(lambda data: data["peers"]["gm"]["ways"][0].update(offer=rejoin_code(77, "abcd", "x" * 22))),
    broken(lambda data: data["peers"]["gm"]["ways"][0].update(id=78)),  # not its offer's
    broken(lambda data: data["peers"]["gm"]["ways"][0].update(id=True)),
    broken(lambda data: data["peers"]["gm"]["ways"][0].update(ufrag="")),
    broken(lambda data: data["peers"]["gm"]["ways"][0].update(ufrag="a b c d")),
    broken(lambda data: data["peers"]["gm"]["ways"][0].update(mode=SCAN)),  # a scan way holds no credentials
    broken(lambda data: data["peers"]["gm"]["ways"][0].update(mode="quiet")),
    broken(lambda data: data["peers"]["gm"]["ways"].extend([data["peers"]["gm"]["ways"][0]] * 10)),
    broken(lambda data: data["peers"].update({f"p{n}": data["peers"]["gm"] for n in range(30)})),
])
def test_stored_ways_that_are_wrong_get_a_sentence_and_the_phone_joins_with_codes(data):
    with pytest.raises(StandbyError, match=r"joins with a code as before\. Nothing of the session is lost\."):
        read_ways(data)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                               max_size=4), max_leaves=30))
def test_any_stored_value_is_read_or_refused_with_a_sentence(data):
    try:
        read_ways(data)
    except StandbyError as error:
        assert str(error).endswith("Nothing of the session is lost.")


@pytest.mark.parametrize("ufrag, pwd", [("Xy1+", "a/b" * 8), ("0123abcd", "f" * 32), ("UFRAG123", "P" * 24)])
def test_the_one_scan_code_is_about_forty_characters_and_reads_back_exactly(ufrag, pwd):
    code = rejoin_code(4_000_000_000, ufrag, pwd)
    assert code.startswith("J1.") and len(code) <= 48  # Chromium's credentials (4 + 24): 41
    assert set(code[3:]) <= set(live_signal.BASE45) and live_standby.looks_like_rejoin_code(code)
    assert read_rejoin_code(f"  {code}\n") == (4_000_000_000, ufrag, pwd)


@pytest.mark.parametrize("text, words", [
    (None, "not a Tableside rejoin code"), ("", "not a Tableside rejoin code"), ("O1.ABC", "not a Tableside rejoin"),
    ("J9.ABC", "newer version"), ("J0.ABC", "not a Tableside rejoin code"), ("J1." + "0" * 500, "not a Tableside"),
    ("J1.AB", "damaged"), ("J1.abc", "damaged"), ("J1.::::::", "damaged"),
    (rejoin_code(1, "abcd", "x" * 22) + "00", "damaged"), (rejoin_code(1, "abcd", "x" * 22)[:-3], "damaged"),
])
def test_a_rejoin_code_that_is_wrong_is_refused_with_a_sentence(text, words):
    with pytest.raises(StandbyError, match=words):
        read_rejoin_code(text)


@given(st.text(max_size=80))
def test_any_text_is_a_rejoin_code_or_a_sentence(text):
    try:
        standby_id, ufrag, pwd = read_rejoin_code("J1." + text)
    except StandbyError as error:
        assert str(error).endswith(".")
    else:
        assert live_standby.credentials_ok(ufrag, pwd) and 0 <= standby_id <= live_standby.MAX_ID


def test_the_standby_messages_read_back_and_refuse_what_a_phone_never_sends():
    offer = OFFER.code()
    message = live_protocol.read(live_protocol.write(live_protocol.STANDBY, id=77, mode=MUNGE, offer=offer, keep=[77]))
    assert message["offer"] == OFFER and message["keep"] == [77]
    armed = live_protocol.read(live_protocol.write(live_protocol.ARMED, id=77, ufrag="abcdefgh", pwd="p" * 24,
                                                   print=PRINT.lower()))
    assert armed["print"] == PRINT
    for kind, data in [(live_protocol.STANDBY, {"id": 78, "mode": MUNGE, "offer": offer, "keep": []}),  # not its offer
                       (live_protocol.STANDBY, {"id": 77, "mode": "loud", "offer": offer, "keep": []}),
                       (live_protocol.STANDBY, {"id": 77, "mode": SCAN, "offer": "A1.XX", "keep": []}),
                       (live_protocol.ARMED, {"id": 77, "ufrag": "ab", "pwd": "p" * 24, "print": PRINT}),
                       (live_protocol.ARMED, {"id": 77, "ufrag": "", "pwd": "", "print": "AB:CD"}),
                       (live_protocol.DROP, {"ids": [-1]}), (live_protocol.DROP, {"ids": [1] * 20})]:
        text = json.dumps({"live": live_protocol.VERSION, "k": kind, **data})
        with pytest.raises(LiveMessageError, match="damaged"):
            live_protocol.read(text)


def test_a_phone_of_the_previous_version_is_told_to_update_and_this_one_says_which_phone_is_older():
    assert live_protocol.VERSION == 2  # version 1 refuses "live": 2 as "a newer Tableside. Update this one"
    with pytest.raises(LiveMessageError, match="runs an older Tableside. Update it"):
        live_protocol.read('{"live": 1, "k": "ack", "ids": []}')


def test_only_an_offer_that_replies_before_its_answer_lets_a_player_say_it_does_not_answer():
    firefox = live_signal.from_sdp(live_signal.OFFER, (SAMPLES / "firefox-153-no-camera-offer.sdp").read_text(), 1)
    assert not live_signal.from_firefox(OFFER) and live_signal.from_firefox(firefox)
