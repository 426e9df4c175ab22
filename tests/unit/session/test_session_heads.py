"""Sessions saved on a device (session.on_device.heads): several sessions, the open one
remembered, a head rewritten only when it changed, the index only a cache rebuilt from the heads.
Each session is a small head in the store and its log entries in the log store."""
import asyncio
import json

import pytest

from session import MemoryStore, SessionError, StorageError, log_conflict, new_session
from session.replica import Replica
from session.on_device.heads import INDEX_KEY, head_key
from session.on_device.version_one import session_key
from samples import logged_party, party_of_five
from device_library import library, reopened, saved, whole
from tapping import log_for


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
    assert asyncio.run(log_for(store).count(party.id)) == 1


def test_a_head_is_rewritten_only_when_it_changed_and_entries_are_written_once():
    store = MemoryStore()
    shelf = library(store)
    session = logged_party()
    replica = Replica.from_session(session)
    saved(shelf, replica)
    head = store.get(head_key(replica.id))
    writes = []
    original = log_for(store).append

    async def counting(records):
        writes.append([record["i"] for record in records])
        await original(records)

    log_for(store).append = counting
    assert saved(shelf, replica) is False and store.get(head_key(replica.id)) == head and writes == []
    after = log_conflict(session, session["log"][0]["record"])
    replica.absorb(session, after, "d1")
    assert saved(shelf, replica) is True and writes == [[after["log"][0]["id"]]]
    assert json.loads(store.get(head_key(replica.id)))["logged"] == {"conflict": 2, "set-aside": 0}


def test_a_saved_head_holds_every_change_to_the_roster_after_its_texts_were_made():
    store = MemoryStore()
    first = library(store)
    party = Replica.from_session(party_of_five())
    saved(first, party)  # every roster entry's text made once
    before = party.session()
    ash, brin = before["roster"][0], before["roster"][1]
    after = {**before, "roster": [{**ash, "ap": ash["ap"] - 1}, *before["roster"][2:]]}  # Ash spends, Brin leaves
    party.absorb(before, after, "a1")
    saved(first, party)
    again = library(store)
    again.load()
    kept = {entry["id"]: entry for entry in again.read(party.id).session()["roster"]}
    assert kept[ash["id"]]["ap"] == ash["ap"] - 1 and brin["id"] not in kept


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
    assert asyncio.run(log_for(store).count(one["id"])) == 0
    assert not shelf.forget("tableside.somewhere-else")
    assert shelf.forget(session_key("zz")) and store.get(session_key("zz")) is None
