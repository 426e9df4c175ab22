"""A tap as the page makes it, under CPython, and a phone's storage as the app starts with it.

`tap` calls ui.core.step, the function the page's shell calls, then carries out the commands
it queued that need no browser, awaited (ui.keeping.runners.settle: saving, the log store,
pages of the log, background jobs, a live table's inbox), as the page does in the background;
`open_link` does the same for a link from another phone. Commands for the browser (share,
download, camera...) stay in `state.commands` for the test to read. `phone` starts the app on a
phone holding some sessions, `reload` starts it again on the same storage.
"""
from __future__ import annotations

import asyncio
import json
import weakref

from session import Library, MemoryLog, MemoryStore
from session.on_device.heads import head_content
from session.replica import Replica
from ui.arrivals import links
from ui.core.actions import Input
from ui.core.opening import starting_state
from ui.core.step import after_change, step
from ui.keeping import runners

from samples import AT, plain


def tap(state, action: str, value=None, checked=None, typed=None, **data):
    """A tap, a choice or typing on an element with data-action=`action` and these data-*
    fields; `value` is a segment's data-value (and the element's value), `typed` what was
    typed in a field when it differs from its data-value."""
    fields = {key: str(item) for key, item in data.items()}
    if value is not None:
        fields["value"] = str(value)
    entered = typed if typed is not None else fields.get("value")
    assert step(state, action, Input(data=fields, value=entered, checked=checked)), action
    settle(state)


def settle(state):
    """What the page does in the background after a change, until nothing is left to do."""
    after_change(state)
    asyncio.run(runners.settle(state))
    if state.replica is not None:
        assert_head_is_the_replica(state.replica)


def assert_head_is_the_replica(replica: Replica):
    """The head a save writes holds the roster and undo marks as they are now: no text made once
    (Replica.roster_texts, undone_text) outlived a change to them."""
    head = json.loads(head_content(replica))
    assert [head["roster"], head["undone"]] == json.loads(json.dumps([replica.roster, replica.undone]))


def open_link(state, fragment: str):
    """A link from another phone opened here (its fragment), as the page opens it."""
    links.open_link(state, fragment)
    settle(state)


# --- A phone's storage, as the app starts with it ---------------------------------------------------

# Each store's log store: what the next start finds with it. Held as long as its store only, so
# a new store never finds the log store of one gone before it (as keying by id() would).
LOGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def log_for(store) -> MemoryLog:
    return LOGS.setdefault(store, MemoryLog())


def library(store, clock=lambda: "") -> Library:
    """The Library the app makes at start, with this store and its log store."""
    return Library(store, log_for(store), clock=clock)


def keep(store, *sessions, clock=lambda: "") -> Library:
    """Save these sessions (version-1 dicts) the way this version saves them."""
    shelf = library(store, clock)
    for session in sessions:
        shelf.save(Replica.from_session(session))
    asyncio.run(shelf.flush())
    return shelf


def start(store, base_url: str = "", clock=lambda: ""):
    """The app's state at start, as the page makes it (its table in progress restored, its first
    page of the log read)."""
    state = starting_state(library(store, clock), base_url)
    asyncio.run(runners.first_page(state))
    settle(state)
    return state


BASE = "http://localhost:8000/"  # where the tests' phones open the app


def phone(*saved, store=None):
    """A phone with these sessions saved (the last one open) on `store`, a new one unless given,
    as the app starts with them."""
    store = store if store is not None else MemoryStore()
    keep(store, *saved, clock=lambda: AT)
    return start(store, BASE, clock=lambda: AT)


def stored(state, session_id) -> dict:
    """A session as this phone stores it, its whole log read."""
    replica = state.library.read(session_id)
    return plain(asyncio.run(state.library.everything(replica))[0].session())


def lasting(store) -> dict:
    """What a store holds besides the tables in progress (the open screen is saved with them)."""
    return {key: value for key, value in store.items.items() if not key.startswith("tableside.table.")}


def reload(store):
    """The app started again on the phone that holds `store`."""
    return phone(store=store)


def calm(state):
    """Animations (a die just rolled, cards just flipped) play once: not after a reload."""
    for draft in state.drafts.values():
        for value in [draft, *draft.values()] + list(draft.get("initiators", [])):
            if isinstance(value, dict):
                if "fresh" in value:
                    value["fresh"] = False
                if "flip" in value:
                    value["flip"] = False
