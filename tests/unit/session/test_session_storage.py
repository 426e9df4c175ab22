"""Sessions saved on a device: several sessions, the open one remembered, and stored data
that can't be read left exactly as it was (and offered for download), never overwritten."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import session as sessions
from session import Library, MemoryStore, StorageError
from session.storage import INDEX_KEY, RECOVERED_PREFIX, SESSION_PREFIX, parse_index, session_key
from samples import logged_party, party_of_five, random_sessions, seen


class Clock:
    def __init__(self):
        self.tick = 0

    def __call__(self):
        self.tick += 1
        return f"2025-06-01T20:{self.tick:02d}:00+02:00"


def library(store=None) -> Library:
    return Library(store if store is not None else MemoryStore(), clock=Clock())


def reopened(store) -> tuple[Library, dict | None]:
    """What the next page load sees."""
    fresh = library(store)
    return fresh, fresh.load()


def test_a_saved_session_comes_back_as_it_was():
    store = MemoryStore()
    first = library(store)
    assert first.load() is None
    party = party_of_five()
    assert first.save(party) is True
    assert first.save(party) is False  # unchanged: nothing written
    again, loaded = reopened(store)
    assert loaded == party and not again.unreadable
    assert set(store.keys()) == {INDEX_KEY, session_key(party["id"])}
    assert all(key.startswith("tableside.") for key in store.keys())


def test_several_sessions_and_the_open_one_is_remembered():
    store = MemoryStore()
    shelf = library(store)
    shelf.load()
    one, two = sessions.new_session("One"), sessions.new_session("Two")
    shelf.save(one)
    shelf.save(two)
    shelf.save(one)  # opening One again
    again, loaded = reopened(store)
    assert loaded["id"] == one["id"]
    assert [entry["name"] for entry in again.listing()] == ["Two", "One"]  # the most recently saved first
    assert again.read(two["id"]) == two


def test_adding_does_not_change_which_session_is_open():
    store = MemoryStore()
    shelf = library(store)
    one, copy = sessions.new_session("One"), sessions.new_session("Copy")
    shelf.save(one)
    shelf.add(copy)
    assert reopened(store)[1]["id"] == one["id"]


def test_a_new_untouched_session_is_not_saved_until_it_changes():
    shelf = library()
    fresh = shelf.pristine = sessions.new_session()
    assert shelf.save(fresh) is False and shelf.is_empty()
    assert shelf.save({**fresh, "tension": 5}) is True and not shelf.is_empty()


def test_an_unreadable_session_is_kept_as_is_and_the_others_load():
    party = party_of_five()
    broken = '{"v": 1, "system": "tension", "roster": [{"name": 12}'
    store = MemoryStore({session_key("broken00"): broken})
    shelf = library(store)
    shelf.save(party)
    again, loaded = reopened(store)
    assert loaded == party
    assert [(item.key, item.raw) for item in again.unreadable] == [(session_key("broken00"), broken)]
    assert store.get(session_key("broken00")) == broken
    again.save({**party, "tension": 9})
    assert store.get(session_key("broken00")) == broken
    with pytest.raises(sessions.SessionError):  # a session with that id would overwrite it: refused
        again.save({**sessions.new_session(), "id": "broken00"})
    assert store.get(session_key("broken00")) == broken


def test_the_update_tests_key_survives_being_read():
    # tests/browser/test_update.py writes this key and checks it survives app updates.
    raw = '{"system": "tension", "log": [1, 2, 3]}'
    store = MemoryStore({"tableside.session.update-test": raw})
    shelf, loaded = reopened(store)
    assert loaded is None and shelf.unreadable[0].raw == raw
    shelf.save(party_of_five())
    assert store.get("tableside.session.update-test") == raw


def test_an_unreadable_index_is_copied_then_rebuilt_from_the_sessions():
    store = MemoryStore()
    shelf = library(store)
    one, two = sessions.new_session("One"), sessions.new_session("Two")
    shelf.save(one)
    shelf.save(two)
    store.set(INDEX_KEY, "{not json")
    again, loaded = reopened(store)
    assert loaded is not None and {entry["id"] for entry in again.listing()} == {one["id"], two["id"]}
    [kept] = again.unreadable
    assert kept.key.startswith(RECOVERED_PREFIX) and store.get(kept.key) == "{not json"
    assert json.loads(store.get(INDEX_KEY))["v"] == 1
    third, _ = reopened(store)  # the copy is offered again, once, until the player removes it
    assert [item.key for item in third.unreadable] == [kept.key]
    assert third.forget(kept.key) and store.get(kept.key) is None


def test_a_lost_index_is_rebuilt_and_nothing_is_lost():
    store = MemoryStore()
    shelf = library(store)
    party = party_of_five()
    shelf.save(party)
    store.remove(INDEX_KEY)
    again, loaded = reopened(store)
    assert loaded == party and not again.unreadable


def test_a_full_storage_raises_a_clear_error_and_keeps_what_was_saved():
    party = party_of_five()
    store = MemoryStore()
    shelf = library(store)
    shelf.save(party)
    store.limit = sum(len(key) + len(value) for key, value in store.items.items()) + 100
    before = dict(store.items)
    bigger = {**party, "tension_table": ["A long line of the Tension Table. " * 5] * 6}
    with pytest.raises(StorageError, match="full"):
        shelf.save(bigger)
    assert store.items == before
    assert reopened(store)[1] == party


def test_an_invalid_session_is_never_written():
    shelf = library()
    with pytest.raises(sessions.SessionError):
        shelf.save({**sessions.new_session(), "name": ""})
    assert shelf.is_empty()


def test_removing_a_session_and_forgetting_unreadable_data():
    store = MemoryStore({session_key("zz"): "garbage"})
    shelf = library(store)
    shelf.load()
    one = sessions.new_session("One")
    shelf.save(one)
    shelf.remove(one["id"])
    assert not shelf.has(one["id"]) and store.get(session_key(one["id"])) is None
    assert not shelf.forget("tableside.somewhere-else")
    assert shelf.forget(session_key("zz")) and store.get(session_key("zz")) is None


def readable_index(raw) -> bool:
    try:
        parse_index(raw)
    except sessions.SessionError:
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
        shelf.save(session)
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
    assert loaded == party
    [kept] = shelf.unreadable
    assert "nests far deeper" in kept.problem and store.get(kept.key) == deep
    assert json.loads(store.get(INDEX_KEY))["active"] == party["id"]


def test_a_session_with_a_log_record_nested_2000_deep_is_unreadable_and_the_others_load():
    party, deep = party_of_five(), deep_log_record(2000)
    store = MemoryStore({session_key("0deep0000000"): deep, session_key(party["id"]): json.dumps(party)})
    shelf, loaded = reopened(store)
    assert loaded == party
    [item] = shelf.unreadable
    assert item.key == session_key("0deep0000000") and item.raw == deep and "nests far deeper" in item.problem
    assert store.get(session_key("0deep0000000")) == deep
    with pytest.raises(sessions.SessionError, match="could not be read"):
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
    party, other = party_of_five(), sessions.new_session("Other")
    items = {session_key(party["id"]): json.dumps(party), session_key(other["id"]): json.dumps(other),
             session_key("0fails000000"): "{}", INDEX_KEY: "{}"}
    shelf, loaded = reopened(Failing(items, {session_key("0fails000000"), INDEX_KEY}))
    assert loaded is not None and {entry["id"] for entry in shelf.listing()} == {party["id"], other["id"]}

    real_check = sessions.storage.check_session

    def check_that_breaks(data):
        if data.get("name") == "Other":
            raise TypeError("a value no check foresaw")
        return real_check(data)

    monkeypatch.setattr(sessions.storage, "check_session", check_that_breaks)
    shelf, loaded = reopened(MemoryStore(items))
    assert loaded == party
    assert [seen(item.problem) for item in shelf.unreadable if item.key == session_key(other["id"])] == [
        f"The session saved as “{other['id']}” could not be read. "
        "It holds something this version of Tableside cannot read."]


def test_a_broken_character_in_a_saved_session_is_repaired_and_said():
    party = party_of_five()
    raw = json.dumps(party).replace("Friday at Kim's", "Friday\\ud800 at Kim's").replace("Ash Varga", "Ash\\udc00")
    store = MemoryStore({session_key(party["id"]): raw})
    shelf, loaded = reopened(store)
    assert loaded["name"] == "Friday\ufffd at Kim's" and loaded["roster"][0]["name"] == "Ash\ufffd"
    assert [seen(repair) for repair in shelf.repairs] == ["“Friday\ufffd at Kim's”: 2 broken characters now shown as \ufffd"]
    assert not shelf.unreadable and store.get(session_key(party["id"])) == raw  # repaired when next saved
    sessions.encode_session(loaded)  # the share link (it needs UTF-8) can be made
    shelf.save(loaded)
    assert "\\ud800" not in store.get(session_key(party["id"]))
    assert reopened(store)[0].repairs == []


def test_keys_tableside_never_writes_are_unreadable_and_shown_safely():
    party = party_of_five()
    text = json.dumps(party)
    store = MemoryStore({session_key("\ud800bad"): text, session_key("x" * 500): text, session_key(""): text})
    shelf, loaded = reopened(store)
    assert loaded is None and len(shelf.unreadable) == 3
    for item in shelf.unreadable:
        assert store.get(item.key) == text and not sessions.untrusted.LONE_SURROGATE.search(item.problem)
        assert len(item.problem) < 200
