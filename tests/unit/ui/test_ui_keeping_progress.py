"""ui.keeping.progress: the table in progress survives a reload. Every system's draft, the sheet being
edited and the Tables draft are saved per session (Library.save_table, never inside the session)
and restored exactly; anything stored that the app would not have written is dropped with a
message, never a crash."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from session import new_session
from session.on_device import TABLE_PREFIX, MemoryStore
from ui import router
from ui.keeping import progress
from ui.screens.frame import actions as frame_actions  # noqa: F401
from ui.screens.roster import actions as roster_actions  # noqa: F401
from ui.screens.session import actions as session_actions  # noqa: F401
from ui.screens.tables import actions as tables_actions  # noqa: F401
from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401  (registers the actions)
from ui.systems.manners import actions as manners_actions  # noqa: F401
from ui.systems.tension import actions as tension_actions  # noqa: F401

from samples import party
from tapping import calm, keep, phone, reload, tap


def regions(state) -> list:
    return router.page(state)


def same_after_reload(state, store):
    calm(state)
    state.message = None  # messages are about the last tap: not kept
    progress.save(state)
    again = reload(store)
    assert again.message is None, again.message
    assert regions(again) == regions(state)
    return again


def test_the_table_is_stored_under_its_own_key_not_in_the_session():
    store = MemoryStore()
    state = phone(party(), store=store)
    tap(state, "tension-roll", side="gm")
    key = TABLE_PREFIX + state.session["id"]
    assert key in store.items
    assert "drafts" not in store.items["tableside.head." + state.session["id"]]
    stored = json.loads(store.items[key])
    assert stored["session"] == state.session["id"] and stored["drafts"]["tension"]["gm"]["dice"]


def test_a_tension_conflict_survives_a_reload_at_every_step(monkeypatch):
    monkeypatch.setattr(rules.dice, "DEFAULT_SOURCE", rules.FixedDice([6, 5, 4, 3, 2, 1] * 10))
    store = MemoryStore()
    state = phone(party(), store=store)
    steps = [
        lambda: tap(state, "tension-roll", side="gm"),
        lambda: tap(state, "tension-boost", side="gm"),
        lambda: tap(state, "tension-roll", side="player"),
        lambda: tap(state, "tension-spend", side="player", step=1),
        lambda: tap(state, "tension-log"),
        lambda: tap(state, "tension-kind", value="opposed"),
        lambda: tap(state, "tension-combat", checked=True),
        lambda: tap(state, "tension-add-initiator"),
        lambda: tap(state, "tension-roll", side="initiator-0"),
    ]
    for step in steps:
        step()
        state = same_after_reload(state, store)


def test_an_anomaly_roll_and_a_face_down_complication_survive_a_reload():
    store = MemoryStore()
    state = phone(party(), store=store)
    tap(state, "switch-system", system="anomaly")
    for name, data in (("anomaly-difficulty", {"value": 9}), ("anomaly-chip", {"side": "actor", "chip": "s0"}),
                       ("anomaly-adding", {"side": "actor"}), ("anomaly-dice", {"side": "actor", "which": "good", "step": 1}),
                       ("anomaly-mode", {"side": "actor", "value": "real"}), ("anomaly-add-face", {"side": "actor", "face": 7})):
        tap(state, name, **data)
        state = same_after_reload(state, store)
    tap(state, "switch-system", system="manners")
    tap(state, "manners-complication", value="Hostility")
    state = same_after_reload(state, store)
    assert state.drafts["manners"]["gm"]["complication"] == "Hostility"
    assert "Hostility" not in "".join(markup for _, markup in regions(state)).split("Complications")[-1]
    tap(state, "manners-manner", side="player", value="Force")
    wren = state.drafts["manners"]["player"]
    bryn = next(entry for entry in state.session["roster"] if entry["name"] == "Bryn")
    tap(state, "manners-helper", side="player", id=bryn["id"])
    tap(state, "manners-lock", side="player")
    state = same_after_reload(state, store)
    assert state.drafts["manners"]["player"]["helper_ids"] == [bryn["id"]] and wren["manner"] == "Force"
    tap(state, "manners-reveal")
    state = same_after_reload(state, store)


def test_the_roster_editor_and_the_tables_screen_survive_a_reload():
    store = MemoryStore()
    state = phone(party(), store=store)
    tap(state, "show-screen", screen="roster")
    tap(state, "roster-add", kind="character")
    tap(state, "sheet-set", value="Half-typed", path="name")
    tap(state, "sheet-add", path="skills", template="rated")
    state = same_after_reload(state, store)
    assert state.screen == "roster" and state.editing["entry"]["name"] == "Half-typed"
    tap(state, "show-screen", screen="tables")
    tap(state, "tables-edit")
    tap(state, "tables-line", value="The lights go out", index=0)
    state = same_after_reload(state, store)
    assert state.drafts["tables"]["editing"][0] == "The lights go out"


@pytest.mark.parametrize("stored", [
    "not json", "[1, 2]", '{"v": 2}', json.dumps({"v": 1, "session": "someone else", "drafts": {}}),
])
def test_a_stored_table_that_cannot_be_read_is_dropped_with_a_message(stored):
    store = MemoryStore()
    session = party()
    keep(store, session)
    store.items[TABLE_PREFIX + session["id"]] = stored
    state = reload(store)
    assert state.message.tone == "error" and "could not be restored" in state.message.text
    assert state.drafts == {} and state.session["id"] == session["id"]


@pytest.mark.parametrize("change", [
    lambda draft: draft["gm"].update(dice=[7, 1]),
    lambda draft: draft["gm"].update(keep=[0, 9]),
    lambda draft: draft.update(kind="duel"),
    lambda draft: draft.update(surprise=True),
    lambda draft: draft["player"].update(pool="many"),
    lambda draft: draft.update(logged={"v": 1, "system": "tension", "result": {"outcome": "success"}}),
    lambda draft: draft.update(initiators=[]),
])
def test_a_stored_draft_the_app_would_not_write_is_dropped_and_the_rest_kept(change):
    store = MemoryStore()
    state = phone(party(), store=store)
    tap(state, "tension-roll", side="gm")
    tap(state, "switch-system", system="anomaly")
    tap(state, "anomaly-difficulty", value=12)
    key = TABLE_PREFIX + state.session["id"]
    stored = json.loads(store.items[key])
    change(stored["drafts"]["tension"])
    store.items[key] = json.dumps(stored)
    again = reload(store)
    assert "tension" not in again.drafts and again.drafts["anomaly"]["difficulty"] == 12
    assert "Tension Engine conflict" in again.message.text
    router.page(again)


def test_a_deep_or_huge_stored_table_is_refused_without_a_crash():
    store = MemoryStore()
    session = party()
    keep(store, session)
    store.items[TABLE_PREFIX + session["id"]] = "[" * 100_000
    assert "could not be restored" in reload(store).message.text
    store.items[TABLE_PREFIX + session["id"]] = json.dumps({"v": 1, "drafts": {}, "x": "y" * 600_000})
    assert "could not be restored" in reload(store).message.text


def test_removing_a_session_removes_its_table():
    store = MemoryStore()
    state = phone(party(), store=store)
    tap(state, "tension-roll", side="gm")
    state.library.remove(state.session["id"])
    assert not any(key.startswith(TABLE_PREFIX) for key in store.items)


# --- Any draft the taps can make, saved and loaded, draws the same regions ------------------------

TENSION_TAPS = st.sampled_from([
    ("tension-roll", {"side": "gm"}), ("tension-roll", {"side": "player"}), ("tension-boost", {"side": "gm"}),
    ("tension-spend", {"side": "player", "step": 1}), ("tension-spend", {"side": "gm", "step": 1}),
    ("tension-keep", {"side": "player", "index": 2}), ("tension-mode", {"side": "gm", "value": "real"}),
    ("tension-add-face", {"side": "gm", "face": 3}), ("tension-mode", {"side": "gm", "value": "total"}),
    ("tension-total", {"side": "gm", "value": "9"}), ("tension-log", {}), ("tension-new", {}),
    ("tension-kind", {"value": "opposed"}), ("tension-kind", {"value": "environment"}),
    ("tension-combat", {"checked": True}), ("tension-add-initiator", {}), ("tension-roll", {"side": "initiator-0"}),
    ("tension-roll", {"side": "initiator-1"}), ("tension-roll", {"side": "defender"}), ("tension-retry", {}),
    ("tension-step", {"step": 1}),
])
ANOMALY_TAPS = st.sampled_from([
    ("anomaly-difficulty", {"value": 9}), ("anomaly-roll", {"side": "actor"}), ("anomaly-roll", {"side": "defender"}),
    ("anomaly-kind", {"value": "opposed"}), ("anomaly-kind", {"value": "check"}),
    ("anomaly-chip", {"side": "actor", "chip": "s0"}), ("anomaly-dice", {"side": "actor", "which": "bad", "step": 1}),
    ("anomaly-adding", {"side": "actor"}), ("anomaly-add-modifier", {"side": "actor"}),
    ("anomaly-mode", {"side": "defender", "value": "total"}), ("anomaly-total", {"side": "defender", "value": "8"}),
    ("anomaly-log", {}), ("anomaly-new", {}),
])
MANNERS_TAPS = st.sampled_from([
    ("manners-complication", {"value": "Time"}), ("manners-manner", {"side": "player", "value": "Force"}),
    ("manners-lock", {"side": "player"}), ("manners-reveal", {}), ("manners-log", {}), ("manners-new", {}),
    ("manners-kind", {"value": "confrontation"}), ("manners-kind", {"value": "test"}),
    ("manners-manner", {"side": "opponent", "value": "Speed"}), ("manners-lock", {"side": "opponent"}),
    ("manners-difficulty", {"value": 7}), ("manners-gm-mode", {"value": "says"}),
])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TENSION_TAPS, max_size=12), st.lists(ANOMALY_TAPS, max_size=10), st.lists(MANNERS_TAPS, max_size=10),
       st.sampled_from(["tension", "anomaly", "manners"]))
def test_any_draft_saved_and_loaded_draws_the_same_regions(tension_taps, anomaly_taps, manners_taps, system):
    store = MemoryStore()
    state = phone(party(), store=store)
    for system_taps, name in ((tension_taps, "tension"), (anomaly_taps, "anomaly"), (manners_taps, "manners")):
        tap(state, "switch-system", system=name)
        for action, data in system_taps:
            data = dict(data)
            checked = data.pop("checked", None)
            tap(state, action, checked=checked, **data)
    tap(state, "switch-system", system=system)
    state.message = None
    same_after_reload(state, store)


def test_opening_another_session_brings_in_its_own_table_and_back_again():
    first, second = party(), new_session("Sunday")
    state = phone(first, second)  # the second is open
    tap(state, "tension-roll", side="gm")
    second_dice = state.drafts["tension"]["gm"]["dice"]
    tap(state, "session-open", id=first["id"])
    assert state.session["id"] == first["id"] and "tension" not in state.drafts  # nothing in progress there
    tap(state, "tension-roll", side="gm")
    first_dice = state.drafts["tension"]["gm"]["dice"]
    tap(state, "session-open", id=second["id"])
    assert state.drafts["tension"]["gm"]["dice"] == second_dice  # each session keeps its own table
    tap(state, "session-open", id=first["id"])
    assert state.drafts["tension"]["gm"]["dice"] == first_dice
