"""A session's log on a device, through the outbox (session.on_device.outbox): entries paged
newest first and counted without reading them, archiving that keeps the numbers, and a log
store that refuses without losing the head."""
import asyncio

import pytest

from session import MemoryStore, StorageError, log_conflict
from session.replica import Replica
from samples import logged_party, party_of_five
from device_library import library, reopened, saved, whole
from tapping import log_for


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
    assert replica.logged() == 10 and asyncio.run(log_for(store).count(replica.id)) == 10
    again, loaded = reopened(store)
    assert loaded.session(log=False)["tension"] == session["tension"]
    assert [entry["id"] for entry in whole(again, loaded)["log"]] == [entry["id"] for entry in session["log"][:10]]


def test_a_full_log_store_keeps_the_numbers_and_says_so():
    session = party_of_five()
    store = MemoryStore()
    shelf = library(store)
    replica = Replica.from_session(session)
    saved(shelf, replica)
    log_for(store).limit = 0
    after = log_conflict(session, logged_party()["log"][0]["record"])
    replica.absorb(session, after, "d1")
    shelf.save(replica)
    with pytest.raises(StorageError, match="newest log entries are not saved"):
        asyncio.run(shelf.flush())
    again, loaded = reopened(store)
    assert loaded.session(log=False)["tension"] == after["tension"]  # the head was written anyway
