"""Fuzzing every way data enters the app (share links, saved data, imported files) with
nested JSON of any depth, arbitrary bytes and arbitrary Unicode: each is refused with a
sentence or read into something clean; loading what is saved never fails and changes
nothing; the app then starts and draws every screen, and whatever it holds can be shared
and exported again (UTF-8, no lone surrogates)."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session import SessionError
from session.links.files import export_text, ImportFileError, read_export
from session.links.text import LinkError
from session.links.v1 import decode, encode_session
from session.on_device import parse_index
from hostile import (hostile_export_text, hostile_fragment, hostile_json, hostile_session_text, hostile_v2_fragment,
                     logged_replica)
import tapping
from samples import party_of_five, plain
from session import MemoryStore
from session.links import v2 as link_v2
from session.replica import Replica
from tapping import keep, settle, start
from session.on_device import INDEX_KEY, RECOVERED_PREFIX, session_key, table_key
from session.untrusted import LONE_SURROGATE
from ui import router
from ui.arrivals import links
from ui.core.opening import starting_state
from ui.keeping import progress

GOOD = party_of_five()
FUZZ = settings(deadline=None, max_examples=500, suppress_health_check=list(HealthCheck))
FUZZ_THE_APP = settings(FUZZ, max_examples=100)  # each example starts the app and draws every screen


def shareable(session):
    """Whatever the app holds can leave it again: as links (both versions), a QR code's text and a file."""
    replica = session if isinstance(session, Replica) else Replica.from_session(session)
    encode_session(replica.session())
    link_v2.session_link(replica).encode("ascii")
    export_text(replica).encode("utf-8")


def every_screen(state) -> str:
    pages = []
    for screen in ("conflict", "roster", "log", "tables", "session"):
        state.screen = screen
        pages.append("".join(markup for _, markup in router.page(state)))
    return "".join(pages)


@FUZZ
@given(hostile_fragment())
def test_any_link_is_refused_with_a_sentence_or_read_clean(fragment):
    try:
        kind, value = decode(fragment)
    except LinkError as error:
        assert str(error) and not LONE_SURROGATE.search(str(error))
        return
    if kind == "session":
        shareable(value)


@FUZZ
@given(hostile_v2_fragment())
def test_any_version_two_link_is_refused_with_a_sentence_or_read_clean(fragment):
    try:
        incoming = link_v2.read(fragment)
    except SessionError as error:  # a LinkError mostly
        assert str(error) and not LONE_SURROGATE.search(str(error))
        return
    assert incoming.version == 2
    if incoming.kind == "session":
        shareable(incoming.replica)
    else:
        assert isinstance(incoming.roll, dict) and isinstance(incoming.session_name, str)
    if incoming.replica.id == logged_replica().id:  # merged into the phone it came from
        shareable(logged_replica().merge(incoming.replica))


@FUZZ_THE_APP
@given(st.one_of(hostile_fragment(), hostile_v2_fragment()))
def test_opening_any_link_in_the_app_leaves_saved_data_as_it_was(fragment):
    store = MemoryStore()
    keep(store, party_of_five(), logged_replica().session())  # a version-2 link of the second compares with it
    state = start(store, "http://localhost/")
    before = dict(store.items)
    links.open_link(state, fragment)
    settle(state)
    assert {key: value for key, value in store.items.items() if not key.startswith("tableside.table.")} \
        == {key: value for key, value in before.items() if not key.startswith("tableside.table.")}
    every_screen(state)


@FUZZ
@given(hostile_export_text())
def test_any_file_is_refused_with_a_sentence_or_imported_clean(text):
    try:
        session = read_export(text)
    except ImportFileError as error:
        assert str(error) and not LONE_SURROGATE.search(str(error))
        return
    shareable(session)


@FUZZ_THE_APP
@given(st.dictionaries(st.sampled_from([INDEX_KEY, session_key("0a0a0a0a0a0a"), session_key("0b0b0b0b0b0b"),
                                        session_key("\ud800"), RECOVERED_PREFIX + "x", table_key(GOOD["id"])]),
                       st.one_of(hostile_session_text(), hostile_json), min_size=1, max_size=4))
def test_anything_saved_loads_without_error_changes_nothing_and_the_app_starts(saved):
    good = GOOD
    store = MemoryStore({**saved, session_key(good["id"]): json.dumps(good)})
    before = dict(store.items)
    library = tapping.library(store)
    state = starting_state(library, "http://localhost/")
    progress.load(state)  # the table in progress, as the page's start does
    assert plain(state.session) == good or library.entries.keys() - {good["id"]}
    for key, raw in before.items():
        if key != INDEX_KEY:
            assert store.get(key) == raw
        elif store.get(key) != raw:  # rebuilt: the old text was readable, or is kept as a copy
            assert any(value == raw for name, value in store.items.items() if name.startswith(RECOVERED_PREFIX)) \
                or parse_index(raw)
    if library.unreadable or library.repairs:
        assert state.message is not None  # said what happened
    for item in library.unreadable:
        assert not LONE_SURROGATE.search(item.problem)
    for entry in library.listing():
        shareable(library.read(entry["id"]))
    shareable(state.session)
    every_screen(state)
