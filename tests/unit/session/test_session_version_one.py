"""Sessions saved by version 1 (session.on_device.version_one): they open as before and move to a
head and the log store once, keeping the old key until that has succeeded."""
import asyncio
import json

import pytest

from session import MemoryStore, StorageError
from session.on_device.heads import head_key
from session.on_device.version_one import session_key
from samples import logged_party, plain
from device_library import reopened, whole
from tapping import log_for


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
    log_for(store).limit = 10  # the log store refuses
    shelf, loaded = reopened(store)
    with pytest.raises(StorageError, match="could not be moved"):
        asyncio.run(shelf.migrate(loaded))
    assert store.get(session_key(party["id"])) == raw
    log_for(store).limit = None
    again, loaded = reopened(store)  # the next start reads it, and moves it
    assert whole(again, loaded) == party
    asyncio.run(again.migrate(loaded))
    assert store.get(session_key(party["id"])) is None
    assert whole(*reopened(store)) == party
