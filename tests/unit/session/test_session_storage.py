"""Sessions saved on a device: several sessions, the open one remembered, and stored data
that can't be read left exactly as it was (and offered for download), never overwritten.
Each session is a small head in the store and its log entries in the log store."""
import asyncio
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session import encode_session, log_conflict, new_session, SessionError, untrusted
from session.on_device import version_one
from session import Library, MemoryLog, MemoryStore, StorageError
from session.replica import Replica
from session.on_device import (HEAD_PREFIX, INDEX_KEY, RECOVERED_PREFIX, SESSION_PREFIX, head_key, parse_index,
                             session_key)
from samples import logged_party, party_of_five, plain, random_sessions, seen


class Clock:
    def __init__(self):
        self.tick = 0

    def __call__(self):
        self.tick += 1
        return f"2025-06-01T20:{self.tick:02d}:00+02:00"


LOGS: dict[int, MemoryLog] = {}  # each store's log store: what the next page load finds with it


def log_of(store) -> MemoryLog:
    return LOGS.setdefault(id(store), MemoryLog())


def library(store=None) -> Library:
    store = store if store is not None else MemoryStore()
    return Library(store, log_of(store), clock=Clock())


def reopened(store) -> tuple[Library, Replica | None]:
    """What the next page load sees."""
    fresh = library(store)
    return fresh, fresh.load()


def saved(shelf: Library, session) -> bool:
    """Save a session (a version-1 dict becomes a replica) and let its log entries be stored."""
    replica = session if isinstance(session, Replica) else Replica.from_session(session)
    changed = shelf.save(replica)
    asyncio.run(shelf.flush())
    return changed


def whole(shelf: Library, replica: Replica | None) -> dict | None:
    """The session a loaded replica stands for, its whole log read from the log store."""
    if replica is None:
        return None
    return plain(asyncio.run(shelf.everything(replica))[0].session())


def test_a_saved_session_comes_back_as_it_was():
    store = MemoryStore()
    first = library(store)
    assert first.load() is None
    session = logged_party()
    party = Replica.from_session(session)
    assert saved(first, party) is True
    assert saved(first, party) is False  # unchanged: nothing written
    again, loaded = reopened(store)
    assert whole(again, loaded) == session and not again.unreadable
    assert set(store.keys()) == {INDEX_KEY, head_key(party.id)}
    assert all(key.startswith("tableside.") for key in store.keys())
    assert "log" not in json.loads(store.get(head_key(party.id)))  # the log is in the log store
    assert asyncio.run(log_of(store).count(party.id)) == 1


def test_a_head_is_rewritten_only_when_it_changed_and_entries_are_written_once():
    store = MemoryStore()
    shelf = library(store)
    session = logged_party()
    replica = Replica.from_session(session)
    saved(shelf, replica)
    head = store.get(head_key(replica.id))
    writes = []
    original = log_of(store).append

    async def counting(records):
        writes.append([record["i"] for record in records])
        await original(records)

    log_of(store).append = counting
    assert saved(shelf, replica) is False and store.get(head_key(replica.id)) == head and writes == []
    after = log_conflict(session, session["log"][0]["record"])
    replica.absorb(session, after, "d1")
    assert saved(shelf, replica) is True and writes == [[after["log"][0]["id"]]]
    assert json.loads(store.get(head_key(replica.id)))["logged"] == {"conflict": 2, "set-aside": 0}


def test_several_sessions_and_the_open_one_is_remembered():
    store = MemoryStore()
    shelf = library(store)
    shelf.load()
    one, two = (Replica.from_session(new_session(name)) for name in ("One", "Two"))
    saved(shelf, one)
    saved(shelf, two)
    saved(shelf, one)  # opening One again
    again, loaded = reopened(store)
    assert loaded.id == one.id
    assert [entry["name"] for entry in again.listing()] == ["Two", "One"]  # the most recently saved first
    assert again.read(two.id).session() == two.session()


def test_adding_does_not_change_which_session_is_open():
    store = MemoryStore()
    shelf = library(store)
    one, copy = new_session("One"), new_session("Copy")
    saved(shelf, one)
    shelf.add(Replica.from_session(copy))
    assert reopened(store)[1].id == one["id"]


def test_a_new_untouched_session_is_not_saved_until_it_changes():
    shelf = library()
    fresh = Replica.from_session(new_session())
    shelf.keep_pristine(fresh)
    assert shelf.save(fresh) is False and shelf.is_empty()
    before = fresh.session()
    fresh.absorb(before, {**before, "tension": 5}, "d1")
    assert shelf.save(fresh) is True and not shelf.is_empty()


def test_a_version_one_session_opens_and_moves_once_keeping_the_old_key_until_then():
    party = logged_party()
    raw = json.dumps(party)
    store = MemoryStore({session_key(party["id"]): raw})
    shelf, loaded = reopened(store)
    assert plain(loaded.session()) == party and shelf.legacy
    assert asyncio.run(shelf.migrate(loaded)) == [party["name"]]
    assert store.get(session_key(party["id"])) is None and store.get(head_key(party["id"])) is not None
    again, loaded = reopened(store)
    assert whole(again, loaded) == party and not again.legacy
    assert asyncio.run(again.migrate(loaded)) == []


def test_a_failed_migration_leaves_the_version_one_session_in_place_and_says_so():
    party = logged_party()
    raw = json.dumps(party)
    store = MemoryStore({session_key(party["id"]): raw})
    log_of(store).limit = 10  # the log store refuses
    shelf, loaded = reopened(store)
    with pytest.raises(StorageError, match="could not be moved"):
        asyncio.run(shelf.migrate(loaded))
    assert store.get(session_key(party["id"])) == raw
    log_of(store).limit = None
    again, loaded = reopened(store)  # the next start reads it, and moves it
    assert whole(again, loaded) == party
    asyncio.run(again.migrate(loaded))
    assert store.get(session_key(party["id"])) is None
    assert whole(*reopened(store)) == party


def test_the_log_pages_newest_first_and_counts_without_reading_it():
    store = MemoryStore()
    shelf = library(store)
    session = party_of_five()
    record = logged_party()["log"][0]["record"]
    replica = Replica.from_session(session)
    for _ in range(45):
        after = log_conflict(session, record)
        replica.absorb(session, after, "d1")
        session = after
        saved(shelf, replica)
    again, loaded = reopened(store)
    assert loaded.log == {} and loaded.logged() == 45 and not loaded.complete
    ids = [entry["id"] for entry in session["log"]]
    pages = []
    while not loaded.complete:
        gained, broken = asyncio.run(again.older(loaded, 20))
        pages.append(sorted(gained, key=lambda entry: entry["clock"], reverse=True))
        assert broken == 0
    assert [len(page) for page in pages] == [20, 20, 5]
    assert [entry["id"] for page in pages for entry in page] == ids
    assert again.entries[loaded.id]["log"] == 45


def test_archiving_keeps_the_newest_entries_and_the_numbers():
    store = MemoryStore()
    shelf = library(store)
    session = party_of_five()
    record = logged_party()["log"][0]["record"]
    replica = Replica.from_session(session)
    for _ in range(30):
        after = log_conflict(session, record)
        replica.absorb(session, after, "d1")
        session = after
    saved(shelf, replica)
    assert asyncio.run(shelf.archive(replica, 10)) == 20
    assert replica.logged() == 10 and asyncio.run(log_of(store).count(replica.id)) == 10
    again, loaded = reopened(store)
    assert loaded.session(log=False)["tension"] == session["tension"]
    assert [entry["id"] for entry in whole(again, loaded)["log"]] == [entry["id"] for entry in session["log"][:10]]


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


def test_a_lost_index_is_rebuilt_and_nothing_is_lost():
    store = MemoryStore()
    shelf = library(store)
    party = logged_party()
    saved(shelf, party)
    store.remove(INDEX_KEY)
    again, loaded = reopened(store)
    assert whole(again, loaded) == party and not again.unreadable


def test_a_full_storage_raises_a_clear_error_and_keeps_what_was_saved():
    party = party_of_five()
    store = MemoryStore()
    shelf = library(store)
    replica = Replica.from_session(party)
    saved(shelf, replica)
    store.limit = sum(len(key) + len(value) for key, value in store.items.items()) + 100
    before = dict(store.items)
    replica.absorb(party, {**party, "tension_table": ["A long line of the Tension Table. " * 5] * 6}, "d1")
    with pytest.raises(StorageError, match="full"):
        shelf.save(replica)
    assert store.items == before
    assert whole(*reopened(store)) == party


def test_a_full_log_store_keeps_the_numbers_and_says_so():
    session = party_of_five()
    store = MemoryStore()
    shelf = library(store)
    replica = Replica.from_session(session)
    saved(shelf, replica)
    log_of(store).limit = 0
    after = log_conflict(session, logged_party()["log"][0]["record"])
    replica.absorb(session, after, "d1")
    shelf.save(replica)
    with pytest.raises(StorageError, match="newest log entries are not saved"):
        asyncio.run(shelf.flush())
    again, loaded = reopened(store)
    assert loaded.session(log=False)["tension"] == after["tension"]  # the head was written anyway


def test_an_invalid_session_is_never_written():
    shelf = library()
    with pytest.raises(SessionError):
        shelf.save(Replica.from_session({**new_session(), "name": ""}))
    assert shelf.is_empty()


def test_removing_a_session_and_forgetting_unreadable_data():
    store = MemoryStore({session_key("zz"): "garbage"})
    shelf = library(store)
    shelf.load()
    one = logged_party()
    saved(shelf, one)
    shelf.remove(one["id"])
    asyncio.run(shelf.flush())
    assert not shelf.has(one["id"]) and store.get(head_key(one["id"])) is None
    assert asyncio.run(log_of(store).count(one["id"])) == 0
    assert not shelf.forget("tableside.somewhere-else")
    assert shelf.forget(session_key("zz")) and store.get(session_key("zz")) is None


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
