"""ui.core under CPython: the library's record of when the open session was last backed up, as
the Log and Session screens say it, and the backup they offer after an evening of play (library);
the storage notice, early, calm, and put away until the storage fills more (space). Who holds
this phone (role) is in test_ui_frame.py, with the prompt and taps that set it; one tap's
saving is in test_ui_keeping_runners.py."""
import re

from session import log_conflict, MemoryStore
from ui.core import space
from ui.core.library import OFFER_BACKUP_AFTER
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.screens.log import actions as log_actions  # noqa: F401  (registers the actions)
from ui.screens.session import actions as session_actions  # noqa: F401  (registers the Session screen's taps)

from reading import markup, text
from samples import AT, logged_party
from tapping import phone, settle, start, tap


# --- When the session was last backed up (library) ----------------------------------------------------------

def log_more(state, count):
    for _ in range(count):
        state.session = log_conflict(state.session, state.session["log"][-1]["record"], at=AT, by="Kim")
    settle(state)  # as after a tap: the replica records them


def test_the_log_and_session_screens_say_when_the_session_was_last_backed_up():
    state = phone(logged_party())
    state.screen = "log"
    assert "Not exported to a file from this phone yet. Its 1 logged entry is only here." in text(state)
    tap(state, "log-export")
    assert re.search(r"Last exported to a file on \d+ \w{3}, \d\d:\d\d\.", text(state))
    state.screen = "session"
    assert "Last exported to a file on" in text(state)
    tap(state, "session-share")
    [(kind, data)] = [command for command in state.commands if command[0] == "share"]
    assert data["then"] == "session-shared"  # noted only once the link went out (ui.shell.commands)
    assert "shared as a link" not in text(state)
    tap(state, "session-shared")
    assert "Last shared as a link on" in text(state) and "the newest 20 log entries" in text(state)


def export_is_primary(state) -> bool:
    [export] = re.findall(r'<button[^>]*data-action="log-export"[^>]*>', markup(state))
    return "button-primary" in export


def test_after_an_evening_of_play_both_screens_offer_a_backup():
    state = phone(logged_party())
    tap(state, "log-export")
    log_more(state, OFFER_BACKUP_AFTER - 1)
    state.screen = "log"
    assert "Back up this session" not in text(state)
    log_more(state, 1)
    assert f"{OFFER_BACKUP_AFTER} logged entries since then are only on this phone" in text(state)
    assert "Back up this session: export it to a file" in text(state)
    assert export_is_primary(state)
    state.screen = "session"
    assert export_is_primary(state)
    tap(state, "log-export")
    state.screen = "log"
    assert "Back up this session" not in text(state) and not export_is_primary(state)


# --- The storage notice (space) -----------------------------------------------------------------------------

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


def test_the_screens_say_as_many_log_entries_as_a_link_carries():
    from session.links import v2 as link_v2
    from ui.core import library

    assert library.LATEST == link_v2.LATEST


def test_a_session_that_fails_its_check_at_start_opens_repaired_and_says_what_was_set_aside():
    import json

    from session.on_device.heads import head_key
    from tapping import keep

    session = logged_party()
    store = MemoryStore()
    keep(store, session)
    head = json.loads(store.get(head_key(session["id"])))
    first = next(iter(head["roster"]))
    head["roster"][first]["fields"]["kind"] = [None, 0, ""]
    store.items[head_key(session["id"])] = json.dumps(head)
    state = start(store)
    assert state.session["id"] == session["id"] and state.session["name"] == session["name"]
    assert state.message.text.startswith(f"Part of “\u2068{session['name']}\u2069” could not be read: 1 roster "
                                         "entry was set aside (kept as it was saved")
    assert len(state.session["roster"]) == len(session["roster"]) - 1
    tap(state, "show-screen", screen="session")
    assert "Download a copy" in text(state)
    again = start(store)  # repaired in place: it opens as it is now, the copy still offered
    assert again.session["roster"] == state.session["roster"] and "Part of" not in again.message.text


def test_a_huge_unreadable_value_at_the_brink_of_the_quota_is_said_as_unreadable_at_start():
    from tapping import keep

    session = logged_party()
    store = MemoryStore(limit=5_000_000)
    keep(store, session)
    used = sum(len(key) + len(value) for key, value in store.items.items())
    store.items[f"tableside.head.{session['id']}"] = "x" * (5_000_000 - used)  # the open session's head
    state = start(store)
    assert state.message.text.startswith("Saved data could not be read (1 item).")
    assert "storage" not in state.message.text.lower()
