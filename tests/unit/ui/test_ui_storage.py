"""A campaign-sized session under CPython: the storage notice (early, calm, put away until the
storage fills more), archiving from the Log (export first, then only the newest stay), and
views that count the whole log, not the page in memory."""
import rules
from session import log_conflict
from session.files import read_export
from session import MemoryStore
from ui.core import space
from ui.frame import actions as frame_actions  # noqa: F401
from ui import screens
from ui.log import actions as log_actions  # noqa: F401 (importing registers actions)
from ui.session_screen import actions as sessions_actions  # noqa: F401

from samples import party_of_five, seen
from tapping import keep, log_for, settle, start, tap

def text(state) -> str:
    return seen("".join(content for _, content in screens.page(state)))


def campaign(count: int) -> dict:
    session = party_of_five()
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 3,
                            "gm": {"name": "The GM", "total": 4}, "player": {"name": "Quick", "pool": 2, "dice": [5, 4]}})
    for _ in range(count):
        session = log_conflict(session, record, by="Quick")
    return session


def test_the_notice_comes_early_and_stays_away_once_put_away_until_storage_fills_more():
    assert space.room(500, 1000, 0) == {"share": 0.5, "where": "log"}
    assert space.room(None, None, 4_500_000) == {"share": 0.9, "where": "heads"}
    state = start(MemoryStore())
    space.note(state, space.room(50, 100, 0))
    assert space.shown(state) is None and "Storage is" not in text(state)
    space.note(state, space.room(85, 100, 0))
    assert "Storage is 85% full" in text(state) and "Everything is saved for now" in text(state)
    tap(state, "space-dismiss")
    space.note(state, space.room(87, 100, 0))
    assert space.shown(state) is None
    space.note(state, space.room(91, 100, 0))
    assert "Storage is 91% full" in text(state)
    tap(state, "space-open")
    assert state.screen == "log" and "Nothing to archive here" in text(state)


def test_archiving_exports_every_entry_then_keeps_the_newest():
    store = MemoryStore()
    session = campaign(130)
    keep(store, session)
    state = start(store)
    assert state.replica.logged() == 130 and len(state.session["log"]) == 20  # the newest page only
    state.screen = "log"
    tap(state, "log-archive")
    tap(state, "log-archive-keep", value="100")
    assert "exports all 130 entries" in text(state)
    tap(state, "log-archive-confirmed")
    [(kind, data)] = [effect for effect in state.effects if effect[0] == "download"]
    assert len(read_export(data["text"]).log) == 130
    assert "30 older entries were removed" in state.message.text
    assert state.replica.logged() == 100 and state.session["tension"] == session["tension"]
    import asyncio

    assert asyncio.run(log_for(store).count(session["id"])) == 100
    assert "100 conflicts logged" in text(state)


def test_views_count_the_whole_log_not_the_page_in_memory():
    store = MemoryStore()
    keep(store, campaign(50))
    state = start(store)
    state.screen = "session"
    players, tension = state.session["players"], state.session["tension"]
    tap(state, "session-players", step=1)
    assert state.session["players"] == players + 1 and state.session["tension"] == tension  # conflicts are logged
    state.screen = "log"
    settle(state)
    assert "50 conflicts logged" in text(state)
    tap(state, "log-undo")
    tap(state, "log-undo-confirmed")
    assert "49 conflicts logged" in text(state) and state.replica.logged() == 49


def test_a_start_and_a_tap_that_changes_nothing_write_nothing():
    store = MemoryStore()
    keep(store, campaign(3))
    before = dict(store.items)
    state = start(store)
    tap(state, "show-screen", screen="conflict")
    assert store.items == before
