"""A session's log on a device, through the outbox (session.on_device.outbox): entries paged
newest first and counted without reading them, archiving that keeps the numbers, and a log
store that refuses without losing the head or the entries it refused."""
import asyncio
import json

import pytest

from session import MemoryStore, SessionError, StorageError, log_conflict
from session.live.catchup import log_print
from session.on_device.outbox import parse_unstored, unstored_key
from session.replica import Replica, entry_key
from samples import logged_party, party_of_five, plain
from counting_log import CountingLog
from device_library import library, reopened, saved, whole
from tapping import LOGS, log_for


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


def played(count: int) -> tuple[dict, Replica]:
    """The party of five with `count` conflicts logged on phone d1: the session, and its replica."""
    session = party_of_five()
    record = logged_party()["log"][0]["record"]
    replica = Replica.from_session(session)
    for _ in range(count):
        after = log_conflict(session, record)
        replica.absorb(session, after, "d1")
        session = after
    return session, replica


def test_archiving_keeps_the_newest_entries_and_the_numbers():
    store = MemoryStore()
    shelf = library(store)
    session, replica = played(30)
    saved(shelf, replica)
    assert asyncio.run(shelf.archive(replica, 10)) == 20
    assert replica.logged() == 10 and asyncio.run(log_for(store).count(replica.id)) == 10
    again, loaded = reopened(store)
    assert loaded.session(log=False)["tension"] == session["tension"]
    assert [entry["id"] for entry in whole(again, loaded)["log"]] == [entry["id"] for entry in session["log"][:10]]


@pytest.mark.parametrize("log", [None, CountingLog], ids=["memory", "counting"])
def test_archiving_to_keep_more_than_the_log_holds_removes_nothing(log):
    """Keeping 24 of 22 entries removed 20 of them (a slice from the end went past the start): the
    browser's store (static/logdb.js) walks from the newest and never did."""
    store = MemoryStore()
    if log is not None:
        LOGS[store] = log()
    shelf = library(store)
    session, replica = played(22)
    saved(shelf, replica)
    assert asyncio.run(shelf.archive(replica, 24)) == 0
    assert asyncio.run(log_for(store).count(replica.id)) == 22
    again, loaded = reopened(store)
    assert [entry["id"] for entry in whole(again, loaded)["log"]] == [entry["id"] for entry in session["log"]]


def test_what_a_device_holds_of_a_log_is_read_once_then_kept_up_to_date():
    """A live table's hello and catch-up ask for it at every message: the log store's keys are read
    the first time only; entries logged or merged since count at once, each once; an archive reads
    them again (or, with every entry in memory, none)."""
    store = MemoryStore()
    LOGS[store] = log = CountingLog()
    session, replica = played(30)
    saved(library(store), replica)
    again, loaded = reopened(store)
    held = asyncio.run(again.held(loaded))
    ids = [entry["id"] for entry in session["log"]]
    oldest = min(replica.log.values(), key=entry_key)
    assert held.ids == set(ids) and f"{held.print:016x}" == log_print(ids) and held.oldest == entry_key(oldest)
    after = log_conflict(session, logged_party()["log"][0]["record"])
    loaded.absorb(session, after, "d1")
    again.save(loaded)  # queued for the log store, not stored yet
    held = asyncio.run(again.held(loaded))
    held.add_entries(after["log"])  # the same entries again: counted once
    assert held.ids == {entry["id"] for entry in after["log"]} and f"{held.print:016x}" == log_print(held.ids)
    assert log.calls["keys"] == 1
    asyncio.run(again.archive(loaded, 10))
    assert asyncio.run(again.held(loaded)).ids == {entry["id"] for entry in after["log"][:10]}


def logged_while_full(store, log_limit: int = 0):
    """A session saved on `store`, then a conflict logged while the log store refuses every write:
    (the session after it, the library, the replica, the refusal's message)."""
    session = party_of_five()
    shelf = library(store)
    replica = Replica.from_session(session)
    saved(shelf, replica)
    log_for(store).limit = log_limit
    after = log_conflict(session, logged_party()["log"][0]["record"])
    replica.absorb(session, after, "d1")
    shelf.save(replica)
    with pytest.raises(StorageError) as refused:
        asyncio.run(shelf.flush())
    return after, shelf, replica, str(refused.value)


def test_a_full_log_store_keeps_the_entry_aside_and_a_restart_with_room_stores_it():
    store = MemoryStore()
    after, shelf, replica, message = logged_while_full(store)
    assert message.startswith("Storage is full: the last roll is kept aside on this phone")
    [entry] = after["log"]
    assert json.loads(store.get(unstored_key(replica.id))) == [replica.log[entry["id"]]]
    again, loaded = reopened(store)  # still full: shown all the same, from where it was kept
    assert loaded.session(log=False)["tension"] == after["tension"]  # the head was written anyway
    assert whole(again, loaded)["log"] == plain(after)["log"] and loaded.logged() == 1
    log_for(store).limit = None  # room was freed
    again, loaded = reopened(store)
    asyncio.run(again.older(loaded))
    assert [item["id"] for item in loaded.log.values()] == [entry["id"]]
    asyncio.run(again.flush())
    assert asyncio.run(log_for(store).count(replica.id)) == 1 and store.get(unstored_key(replica.id)) is None
    third, loaded = reopened(store)
    assert whole(third, loaded) == plain(after) and third.outbox == []


def test_entries_kept_aside_are_counted_when_the_head_is_recounted():
    store = MemoryStore()
    after, _, replica, _ = logged_while_full(store)
    again, loaded = reopened(store)
    assert replica.id in again.recounting
    asyncio.run(again.recount(loaded))
    assert loaded.logged() == 1


def test_with_no_room_anywhere_the_entry_stays_in_memory_and_says_so():
    store = MemoryStore()
    after, shelf, replica, _ = logged_while_full(store)
    store.limit = 0  # localStorage full too: a second roll has nowhere to go but memory
    store.items.pop(unstored_key(replica.id))
    before = replica.session()
    replica.absorb(before, log_conflict(before, logged_party()["log"][0]["record"]), "d1")
    with pytest.raises(StorageError, match="the last change is not saved"):  # its head
        shelf.save(replica)
    with pytest.raises(StorageError, match="the last 2 log entries are kept only in this page's memory"):
        asyncio.run(shelf.flush())
    assert len(shelf.log_outbox.queued(replica.id)) == 2  # nothing dropped
    store.limit, log_for(store).limit = None, None
    shelf.save(replica)
    asyncio.run(shelf.flush())
    assert asyncio.run(log_for(store).count(replica.id)) == 2


def test_unreadable_entries_kept_aside_are_listed_and_never_written_over():
    store = MemoryStore()
    after, _, replica, _ = logged_while_full(store)
    store.items[unstored_key(replica.id)] = '[{"kind": "conflict"}]'
    again, loaded = reopened(store)
    assert loaded.session(log=False)["tension"] == after["tension"]
    [item] = again.unreadable
    assert item.key == unstored_key(replica.id) and "kept aside while storage was full" in item.problem
    before = loaded.session(log=False)
    loaded.absorb(before, log_conflict(before, logged_party()["log"][0]["record"]), "d1")
    again.save(loaded)
    with pytest.raises(StorageError, match="kept only in this page's memory"):
        asyncio.run(again.flush())
    assert store.get(unstored_key(replica.id)) == '[{"kind": "conflict"}]'


@pytest.mark.parametrize("raw", ["", "[]", "{}", "not json", "[1]", json.dumps([{"id": "x"}] * 3)])
def test_entries_kept_aside_that_cant_be_read_are_refused(raw):
    with pytest.raises(SessionError):
        parse_unstored(raw)
