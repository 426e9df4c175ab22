"""ui.storage_effects under CPython: the storage work a change queues, carried out on memory
stores as the shell carries it out on the browser's: a start and a tap that change nothing
write nothing."""
from session import MemoryStore
from ui.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)

from samples import campaign
from tapping import keep, start, tap


def test_a_start_and_a_tap_that_changes_nothing_write_nothing():
    store = MemoryStore()
    keep(store, campaign(3))
    before = dict(store.items)
    state = start(store)
    tap(state, "show-screen", screen="conflict")
    assert store.items == before
