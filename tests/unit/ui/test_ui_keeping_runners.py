"""ui.keeping.runners under CPython: the storage work a change queues, carried out on memory
stores as the shell carries it out on the browser's: a start and a tap that change nothing
write nothing; a roll the log store refuses is said at once and lost by no restart."""
import asyncio

from session import MemoryStore
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the Tension Engine's taps)

from samples import campaign
from tapping import keep, log_for, start, tap


def test_a_start_and_a_tap_that_changes_nothing_write_nothing():
    store = MemoryStore()
    keep(store, campaign(3))
    before = dict(store.items)
    state = start(store)
    tap(state, "show-screen", screen="conflict")
    assert store.items == before


def test_a_roll_the_full_log_store_refuses_is_said_at_once_and_is_there_after_a_restart_with_room():
    store = MemoryStore()
    keep(store, campaign(0))
    state = start(store)
    tension = state.session["tension"]
    log_for(store).limit = 0  # IndexedDB refuses every write (quota)
    for side, faces in (("gm", [5, 5, 2, 2, 2][:tension]), ("player", [6, 1, 1])):
        tap(state, "tension-mode", side=side, value="real")
        for face in faces:
            tap(state, "tension-add-face", side=side, face=face)
    tap(state, "tension-log")
    assert state.message.tone == "error" and state.message.text.startswith("Storage is full: the last roll is kept")
    raised = state.session["tension"]
    assert raised > tension  # two 1s fed it
    logged = [entry["id"] for entry in state.session["log"]]

    restarted = start(store)  # still full: the roll shows, and is tried again (and said again)
    assert restarted.session["tension"] == raised
    assert [entry["id"] for entry in restarted.session["log"]] == logged
    assert restarted.message.text.startswith("Storage is full")

    log_for(store).limit = None  # room was freed
    restarted = start(store)
    assert restarted.session["tension"] == raised and restarted.message is None
    assert [entry["id"] for entry in restarted.session["log"]] == logged
    assert asyncio.run(log_for(store).count(restarted.session["id"])) == 1
    assert not [key for key in store.items if key.startswith("tableside.unstored.")]
