"""Stored data that can't be read (session.on_device.unreadable): left exactly as it was (and
offered for download), never overwritten, while the other sessions load; an unreadable index
copied, then rebuilt. Nothing stored, however hostile, locks the app out."""
import asyncio
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session import MemoryStore, SessionError, encode_session, new_session, untrusted
from session.on_device import version_one
from session.replica import Replica
from session.on_device.heads import INDEX_KEY, head_key, parse_index
from session.on_device.unreadable import RECOVERED_PREFIX
from session.on_device.version_one import SESSION_PREFIX, session_key
from samples import logged_party, party_of_five, plain, random_sessions, seen
from device_library import library, reopened, saved, whole


def test_an_unreadable_session_is_kept_as_is_and_the_others_load():
    party = party_of_five()
    broken = '{"v": 1, "system": "tension", "roster": [{"name": 12}'
    store = MemoryStore({session_key("broken00"): broken})
    shelf = library(store)
    replica = Replica.from_session(party)
    saved(shelf, replica)
    again, loaded = reopened(store)
    assert whole(again, loaded) == party
    assert [(item.key, item.raw) for item in again.unreadable] == [(session_key("broken00"), broken)]
    assert store.get(session_key("broken00")) == broken
    before = loaded.session()
    loaded.absorb(before, {**before, "tension": 9}, "d1")
    saved(again, loaded)
    assert store.get(session_key("broken00")) == broken
    with pytest.raises(SessionError):  # a session with that id would overwrite it: refused
        again.save(Replica.from_session({**new_session(), "id": "broken00"}))
    assert store.get(session_key("broken00")) == broken


def test_the_update_tests_key_survives_being_read():
    # tests/browser/test_update.py writes this key and checks it survives app updates.
    raw = '{"system": "tension", "log": [1, 2, 3]}'
    store = MemoryStore({"tableside.session.update-test": raw})
    shelf, loaded = reopened(store)
    assert loaded is None and shelf.unreadable[0].raw == raw
    saved(shelf, party_of_five())
    assert store.get("tableside.session.update-test") == raw


def test_an_unreadable_index_is_copied_then_rebuilt_from_the_sessions():
    store = MemoryStore()
    shelf = library(store)
    one, two = new_session("One"), new_session("Two")
    saved(shelf, one)
    saved(shelf, two)
    store.set(INDEX_KEY, "{not json")
    again, loaded = reopened(store)
    assert loaded is not None and {entry["id"] for entry in again.listing()} == {one["id"], two["id"]}
    [kept] = again.unreadable
    assert kept.key.startswith(RECOVERED_PREFIX) and store.get(kept.key) == "{not json"
    assert json.loads(store.get(INDEX_KEY))["v"] == 1
    third, _ = reopened(store)  # the copy is offered again, once, until the player removes it
    assert [item.key for item in third.unreadable] == [kept.key]
    assert third.forget(kept.key) and store.get(kept.key) is None


def readable_index(raw) -> bool:
    try:
        parse_index(raw)
    except SessionError:
        return False
    return True


stored_text = st.one_of(st.text(max_size=200), st.just('{"v": 1}'), st.just("[]"), st.just("null"),
                        st.just('{"v": 1, "active": 5, "sessions": [1]}'),
                        st.just('{"v": 1, "active": "a", "sessions": [{"id": "a"}]}'))


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from([INDEX_KEY, SESSION_PREFIX + "a", SESSION_PREFIX + "b",
                                         SESSION_PREFIX, RECOVERED_PREFIX + "x", "tableside.other", "elsewhere"]),
                       stored_text, max_size=6),
       st.lists(random_sessions(max_roster=2), max_size=2))
def test_any_stored_garbage_loads_without_error_and_stays_in_place(garbage, good):
    store = MemoryStore(garbage)
    shelf = library(store)
    for session in good:
        saved(shelf, session)
    before = dict(store.items)
    again, loaded = reopened(store)
    if good:
        assert loaded is not None and {entry["id"] for entry in again.listing()} >= {s["id"] for s in good}
    for key, raw in before.items():
        if key != INDEX_KEY:
            assert store.get(key) == raw  # nothing read is overwritten or deleted
        elif store.get(key) != raw:  # a rewritten index was readable, or was copied first
            assert readable_index(raw) or any(item.raw == raw for item in again.unreadable)
    for item in again.unreadable:
        assert item.problem and store.get(item.key) == item.raw


# --- Hostile stored data: nothing stored can lock the app out ------------------------------------------

def deep_log_record(levels: int) -> dict:
    """A saved session whose one log record holds a value nested `levels` deep."""
    party = logged_party()
    text = json.dumps(party)
    marker = '"extra": 0'
    text = text.replace('"outcome"', f'{marker}, "outcome"', 1)
    return text.replace(marker, '"extra": ' + "[" * levels + "]" * levels)


def test_an_index_nested_10000_deep_is_copied_and_the_sessions_load():
    party = party_of_five()
    deep = "[" * 10_000 + "]" * 10_000
    store = MemoryStore({INDEX_KEY: deep, session_key(party["id"]): json.dumps(party)})
    shelf, loaded = reopened(store)
    assert plain(loaded.session()) == party
    [kept] = shelf.unreadable
    assert "nests far deeper" in kept.problem and store.get(kept.key) == deep
    assert json.loads(store.get(INDEX_KEY))["active"] == party["id"]


def test_a_session_with_a_log_record_nested_2000_deep_is_unreadable_and_the_others_load():
    party, deep = party_of_five(), deep_log_record(2000)
    store = MemoryStore({session_key("0deep0000000"): deep, session_key(party["id"]): json.dumps(party)})
    shelf, loaded = reopened(store)
    assert plain(loaded.session()) == party
    [item] = shelf.unreadable
    assert item.key == session_key("0deep0000000") and item.raw == deep and "nests far deeper" in item.problem
    assert store.get(session_key("0deep0000000")) == deep
    with pytest.raises(SessionError, match="could not be read"):
        shelf.read("0deep0000000")


def test_a_log_record_deeper_than_rules_reads_is_unreadable_even_within_the_json_limit():
    shelf, loaded = reopened(MemoryStore({session_key("0deep0000000"): deep_log_record(26)}))
    assert loaded is None and "A logged conflict is not readable" in shelf.unreadable[0].problem


class Failing(MemoryStore):
    """A store whose reads of some keys fail the way a browser's can (a JS exception)."""

    def __init__(self, items, failing):
        super().__init__(items)
        self.failing = failing

    def get(self, key):
        if key in self.failing:
            raise RuntimeError("SecurityError")
        return super().get(key)


def test_any_exception_while_reading_only_makes_that_key_unreadable(monkeypatch):
    party, other = party_of_five(), new_session("Other")
    items = {session_key(party["id"]): json.dumps(party), session_key(other["id"]): json.dumps(other),
             session_key("0fails000000"): "{}", INDEX_KEY: "{}"}
    shelf, loaded = reopened(Failing(items, {session_key("0fails000000"), INDEX_KEY}))
    assert loaded is not None and {entry["id"] for entry in shelf.listing()} == {party["id"], other["id"]}

    real_check = version_one.check_session

    def check_that_breaks(data):
        if data.get("name") == "Other":
            raise TypeError("a value no check foresaw")
        return real_check(data)

    monkeypatch.setattr(version_one, "check_session", check_that_breaks)
    shelf, loaded = reopened(MemoryStore(items))
    assert plain(loaded.session()) == party
    assert [seen(item.problem) for item in shelf.unreadable if item.key == session_key(other["id"])] == [
        f"The session saved as “{other['id']}” could not be read. "
        "It holds something this version of Tableside cannot read."]


def test_a_broken_character_in_a_saved_session_is_repaired_and_said():
    party = party_of_five()
    raw = json.dumps(party).replace("Friday at Kim's", "Friday\\ud800 at Kim's").replace("Ash Varga", "Ash\\udc00")
    store = MemoryStore({session_key(party["id"]): raw})
    shelf, loaded = reopened(store)
    loaded = loaded.session()
    assert loaded["name"] == "Friday\ufffd at Kim's" and loaded["roster"][0]["name"] == "Ash\ufffd"
    assert [seen(repair) for repair in shelf.repairs] == ["“Friday\ufffd at Kim's”: 2 broken characters now shown as \ufffd"]
    assert not shelf.unreadable and store.get(session_key(party["id"])) == raw  # repaired when next saved
    encode_session(loaded)  # the share link (it needs UTF-8) can be made
    asyncio.run(shelf.migrate())
    assert store.get(session_key(party["id"])) is None and "\\ud800" not in store.get(head_key(party["id"]))
    assert reopened(store)[0].repairs == []


def test_keys_tableside_never_writes_are_unreadable_and_shown_safely():
    party = party_of_five()
    text = json.dumps(party)
    store = MemoryStore({session_key("\ud800bad"): text, session_key("x" * 500): text, session_key(""): text})
    shelf, loaded = reopened(store)
    assert loaded is None and len(shelf.unreadable) == 3
    for item in shelf.unreadable:
        assert store.get(item.key) == text and not untrusted.LONE_SURROGATE.search(item.problem)
        assert len(item.problem) < 200
