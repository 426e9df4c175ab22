"""ui.keeping.first_paint: the last table's snapshot: the regions exactly as a reload would draw them,
stamped with what they were drawn from; none while a card lies face down, a link waits, or
nothing is saved. static/regions.js paints it; tests/browser/test_boot_snapshot.py checks that."""
import json
import zlib

import pytest

from session.on_device import INDEX_KEY, MemoryStore, head_key, table_key
from ui import router
from ui.keeping import first_paint, progress
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.screens.session import actions as session_actions  # noqa: F401  (registers the Session screen's taps)
from ui.systems.manners import actions as manners_actions  # noqa: F401  (registers the actions)
from ui.systems.manners import draft as manners_draft
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the actions)

from samples import party
from tapping import calm, phone, reload, tap

VERSION = "0123456789ab"


def keep(state, store) -> dict | None:
    return first_paint.content(state, VERSION, store.get)


def rolled_table():
    store = MemoryStore()
    state = phone(party(), store=store)
    state.odds_ready.add("tension")
    tap(state, "tension-step", step=1)
    tap(state, "tension-roll", side="gm")
    return state, store


def test_the_snapshot_is_what_a_reload_draws_with_the_stamps_of_what_is_saved():
    state, store = rolled_table()
    state.say("The dice are on the table.")
    data = keep(state, store)
    assert data["v"] == first_paint.FORMAT and data["version"] == VERSION and data["session"] == state.session["id"]
    keys = [INDEX_KEY, head_key(state.session["id"]), table_key(state.session["id"])]
    assert data["stamps"] == [[key, zlib.crc32(store.get(key).encode())] for key in keys]
    again = reload(store)
    again.odds_ready.add("tension")
    assert [tuple(pair) for pair in data["regions"]] == router.page(again)
    assert dict(data["regions"])["message"] == ""  # a message was about the last tap
    assert " fresh" not in "".join(markup for _, markup in data["regions"])  # the dice tumbled once already
    assert json.loads(json.dumps(data)) == data  # it is stored as JSON


def still(regions) -> list:
    """Regions without the classes that play an animation once (painted still while loading)."""
    return [[region_id, str(markup).replace(" fresh", "").replace(" flip", "")] for region_id, markup in regions]


@pytest.mark.parametrize("system", ["tension", "anomaly", "manners"])
def test_a_calm_table_is_kept_as_drawn_with_no_second_drawing(system, monkeypatch):
    state, store = rolled_table()
    tap(state, "switch-system", system=system)
    state.say("A message about the last tap.")
    drawn = router.page(state)
    data = first_paint.content(state, VERSION, store.get, drawn)
    assert still(data["regions"]) == still(keep(state, store)["regions"])  # the same as drawn again
    monkeypatch.setattr(router, "page", lambda _state: pytest.fail("the page was drawn a second time"))
    assert first_paint.content(state, VERSION, store.get, drawn) == data


def test_an_open_confirmation_is_not_kept_as_drawn():
    state, store = rolled_table()
    tap(state, "show-screen", screen="session")
    tap(state, "session-delete", id=state.session["id"])  # "Delete …?" is open: a reload would not show it
    drawn = router.page(state)
    data = first_paint.content(state, VERSION, store.get, drawn)
    assert data["regions"] != [[region_id, str(markup)] for region_id, markup in drawn]
    assert data == keep(state, store)


def test_reopened_leaves_the_live_state_alone():
    state, _ = rolled_table()
    state.view["confirm"] = "something"
    before = json.dumps(progress.to_store(state), sort_keys=True)
    again = progress.reopened(state)
    assert again.view == {} and again.message is None and again.session is state.session
    assert json.dumps(progress.to_store(state), sort_keys=True) == before
    assert state.drafts["tension"]["gm"]["fresh"] is True
    calm(state)
    assert router.page(again) == router.page(state)


def test_a_stamp_changes_when_what_is_saved_changes():
    state, store = rolled_table()
    first = keep(state, store)
    tap(state, "tension-step", step=1)
    second = keep(state, store)
    assert first["stamps"] != second["stamps"]
    assert first_paint.stamp(None) is None and first_paint.stamp("é") == zlib.crc32("é".encode())


def face_down_manners(store, lock: bool):
    state = phone(party(), store=store)
    tap(state, "switch-system", system="manners")
    tap(state, "manners-complication", value="Hostility")
    if lock:
        tap(state, "manners-manner", side="player", value="Force")
        tap(state, "manners-lock", side="player")
    return state


@pytest.mark.parametrize("lock", [False, True], ids=["complication down", "manner locked too"])
def test_no_snapshot_while_a_card_lies_face_down_and_the_regions_never_show_it(lock):
    store = MemoryStore()
    state = face_down_manners(store, lock)
    assert manners_draft.face_down(state.drafts["manners"])
    assert first_paint.sealed(state) and keep(state, store) is None
    markup = "".join(markup for _, markup in router.page(progress.reopened(state)))
    assert "face down" in markup
    assert "Hostility" not in markup.split("Complications")[-1]  # only the list to choose from names it
    tap(state, "switch-system", system="tension")  # another screen: still sealed on this phone
    assert keep(state, store) is None


def test_a_snapshot_is_kept_again_once_the_cards_are_turned_over():
    store = MemoryStore()
    state = face_down_manners(store, lock=True)
    tap(state, "manners-reveal")
    assert not manners_draft.face_down(state.drafts["manners"])
    assert keep(state, store) is not None


def test_no_snapshot_of_a_link_waiting_a_new_session_or_a_browser_that_saves_nothing():
    state, store = rolled_table()
    state.pending = {"kind": "join"}
    assert keep(state, store) is None
    fresh = phone()  # a new session nobody has changed: it would not open again
    assert keep(fresh, fresh.library.store) is None
    state.pending = None
    state.library.in_memory = True
    assert keep(state, store) is None


def test_a_huge_screen_is_not_kept(monkeypatch):
    state, store = rolled_table()
    monkeypatch.setattr(first_paint, "MAX_CHARS", 100)
    assert keep(state, store) is None
