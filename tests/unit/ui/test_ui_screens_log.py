"""ui.screens.log under CPython: the Log screen lists the log newest first, page by page, and counts the
whole log, not the page in memory; undo, export and import, archiving a campaign-sized log
(export first, then only the newest stay); sharing a roll, and a shared roll shown read-only
(roll_link), saying when its result disagrees with its dice; a record too broken to describe."""
import copy

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from session import log_conflict, MemoryStore, new_session
from session.links import v2 as link_v2
from session.links.files import MAX_FILE, read_export
from session.links.v1 import encode_roll
from session.replica import Replica
from ui.arrivals import links
from ui.core.library import switch_to
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.screens.log import actions as log_actions  # noqa: F401  (registers the actions)
from ui.screens.log import tension_line
from ui.screens.log.limits import PAGE
from ui.screens.log.view import label
from ui.screens.session import actions as session_actions  # noqa: F401  (registers the Session screen's taps)
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the actions)

from reading import markup, pictures, text
from samples import AT, campaign, json_values, logged_party, party_of_five, plain
from tapping import keep, log_for, open_link, phone, settle, start, stored, tap


def test_the_log_lists_newest_first_and_undo_restores_the_numbers():
    party = logged_party()
    ash = party["roster"][0]
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": party["tension"],
                            "gm": {"name": "The GM", "total": 4},
                            "player": {"name": ash["name"], "id": ash["id"], "side": "character", "pool": 4,
                                       "dice": [5, 4, 3, 3], "keep": [0, 1, 2], "ap": 1}})
    second = log_conflict(party, record, at="2025-06-01T21:30:00+02:00", by=ash["name"])
    state = phone(second)
    state.screen = "log"
    settle(state)  # the Log reads what it shows from the log store
    page = text(state)
    assert "2 conflicts logged" in page and page.index("#2") < page.index("#1")
    assert "1 Jun, 21:30" in page and "Ash Varga keeps 5, 4 and 3 (1 AP spent)" in page
    assert "Die 1: 6, kept" in markup(state)
    tap(state, "log-undo")
    assert "Undo the newest result?" in text(state) and "Reversed: Ash Varga AP +1." in text(state)
    tap(state, "log-undo-confirmed")
    assert plain(state.session) == party  # Tension and AP exactly as before, the entry gone
    assert stored(state, party["id"]) == party


def test_entries_beyond_the_first_page_wait_behind_a_button():
    party = party_of_five()
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 3,
                            "gm": {"name": "The GM", "total": 4}, "player": {"name": "Quick", "pool": 2, "dice": [5, 4]}})
    for _ in range(25):
        party = log_conflict(party, record, at=AT, by="Quick")
    state = phone(party)
    state.screen = "log"
    settle(state)  # the Log reads what it shows from the log store
    assert markup(state).count('data-testid="log-entry"') == 20 and "Show older entries (5 more)" in text(state)
    tap(state, "log-more")
    assert markup(state).count('data-testid="log-entry"') == 25


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


def test_a_stored_record_too_broken_to_describe_does_not_break_the_log():
    party = logged_party()
    party["log"][0]["record"] = {"system": "tension", "kind": "environment", "result": {"outcome": 5}}
    state = phone()
    switch_to(state, Replica.from_session(party))
    state.screen = "log"
    settle(state)  # the Log reads what it shows from the log store
    assert "could not be read" in text(state)


def test_export_then_import_makes_a_new_equal_session():
    party = logged_party()
    state = phone(party)
    tap(state, "log-export")
    [(kind, data)] = state.commands
    assert kind == "download" and data["name"].startswith("tableside-friday-at-kims")
    state.commands.clear()
    tap(state, "log-import")
    assert state.commands == [("read-file", {"action": "log-import-text", "limit": MAX_FILE})]
    state.commands.clear()
    tap(state, "log-import-text", value=data["text"], name="export.json")
    imported = state.session
    assert imported["id"] != party["id"] and imported["name"] == "Friday at Kim's (imported)"
    assert plain({**imported, "id": party["id"], "name": party["name"]}) == party
    assert stored(state, party["id"]) == party and len(state.library.listing()) == 2
    tap(state, "log-import-text", value="{broken", name="broken.json")
    assert state.message.tone == "error" and "broken.json" in state.message.text
    elsewhere = phone()
    tap(elsewhere, "log-import-text", value=data["text"], name="export.json")
    assert plain(elsewhere.session) == party  # a new phone gets the very same session


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
    [(kind, data)] = [command for command in state.commands if command[0] == "download"]
    assert len(read_export(data["text"]).log) == 130
    assert "30 older entries were removed" in state.message.text
    assert state.replica.logged() == 100 and state.session["tension"] == session["tension"]
    import asyncio

    assert asyncio.run(log_for(store).count(session["id"])) == 100
    assert "100 conflicts logged" in text(state)


# --- Rolls shared as links (roll_link) ----------------------------------------------------------------------

def test_sharing_a_roll_and_opening_its_link():
    state = phone(logged_party())
    entry = state.session["log"][0]
    tap(state, "log-share", id=entry["id"])
    [(kind, data)] = state.commands
    fragment = data["url"].split("#", 1)[1]
    state.screen = "log"
    settle(state)  # the Log reads what it shows from the log store
    assert data["url"] in markup(state)  # also shown under the entry, to copy by hand
    other = phone(new_session("Other"))
    before = copy.deepcopy(other.session)
    open_link(other, fragment)
    assert other.screen == "log" and other.pending["kind"] == "roll" and other.pending["problems"] == []
    page = text(other)
    assert "A shared roll (read-only)" in page and "From “Friday at Kim's”, rolled by Ash Varga" in page
    assert "does not match" not in page and other.session == before
    tap(other, "roll-close")
    assert other.pending is None


def test_a_roll_link_whose_result_disagrees_with_its_dice_says_so():
    entry = logged_party()["log"][0]
    record = copy.deepcopy(entry["record"])
    record["result"]["outcome"] = "failure"
    record["result"]["player_total"] = 3
    state = phone()
    open_link(state, encode_roll(record, at=entry["at"], by=entry["by"]))
    page = text(state)
    assert "does not match its dice" in page and "Success" in page  # what the dice give
    broken = {**record, "gm": {"name": "The GM", "dice": [9, 9]}}
    open_link(state, encode_roll(broken))
    assert "can't be shown" in text(state)


@settings(deadline=None, max_examples=200)
@given(st.one_of(json_values, st.builds(lambda key, value: {**logged_party()["log"][0]["record"], key: value},
                                        st.sampled_from(["gm", "player", "result", "kind", "tension", "v"]),
                                        json_values)))
def test_any_roll_link_shows_read_only_without_breaking(record):
    state = phone()
    roll = {"record": record if isinstance(record, dict) else {"r": record}, "at": "", "by": "", "session": ""}
    links.show_roll(state, roll)
    page = text(state)
    assert "A shared roll (read-only)" in page and state.session["log"] == []


def log_a_roll(state, total: int):
    """The GM says the environment's total; the player's real dice; logged (as the Tension screen does)."""
    tap(state, "show-screen", screen="conflict")
    tap(state, "tension-new")
    tap(state, "tension-mode", side="gm", value="total")
    tap(state, "tension-total", side="gm", value=str(total))
    tap(state, "tension-mode", side="player", value="real")
    tap(state, "tension-type-faces", side="player", typed="6 5 4 3 2 1"[:2 * pool(state) - 1])
    tap(state, "tension-log")
    assert state.message is None or state.message.tone != "error", state.message
    return state.session["log"][0]


def pool(state) -> int:
    from ui.systems.tension import draft as tension_draft

    draft = state.drafts["tension"]
    return tension_draft.pool(state, draft, draft["player"])


def test_a_number_in_the_log_never_changes_when_an_older_roll_arrives_late():
    """Numbers are given once, when an entry is logged, and travel with it: a roll logged on a
    phone that was away keeps its own number on every phone, and nothing already logged moves."""
    party = party_of_five()
    gm, player = phone(party), phone()
    tap(gm, "role-pick", role="gm")
    open_link(player, link_v2.session_link(gm.replica))
    tap(player, "role-pick", role=party["roster"][0]["id"])
    late = log_a_roll(player, 3)  # logged on the player's phone while the GM's phone did not see it
    first, second = log_a_roll(gm, 4), log_a_roll(gm, 5)
    labels = {entry["id"]: label(entry, 0) for entry in (first, second, late)}
    assert list(labels.values()) == ["GM 1", "GM 2", "Ash Varga 1"]  # each phone counts its own
    open_link(gm, link_v2.roll_message(player.replica, late["id"]))
    tap(gm, "roll-add")
    assert {entry["id"]: entry["n"] for entry in gm.session["log"]} == {
        first["id"]: 1, second["id"]: 2, late["id"]: 1}  # nothing renumbered
    assert log_a_roll(gm, 6)["n"] == 3  # the next one follows every number this phone has seen
    open_link(player, link_v2.session_link(gm.replica))
    tap(player, "join-update")
    assert {entry["id"]: entry["n"] for entry in player.session["log"]} == \
        {entry["id"]: entry["n"] for entry in gm.session["log"]}


def environment_roll(tension: int, gm_total: int, dice: list[int]) -> dict:
    return rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": tension,
                          "gm": {"name": "the GM", "total": gm_total},
                          "player": {"name": "Ash", "side": "character", "pool": len(dice), "dice": dice, "ap": 0}})


def test_the_log_draws_tension_over_its_conflicts_with_a_change_by_hand_as_a_step():
    party = party_of_five()
    party["tension"] = 8
    party = log_conflict(party, environment_roll(8, 11, [6, 4, 2]))  # a failure: 8 -> 9
    party = log_conflict(party, environment_roll(9, 12, [6, 5, 1]))  # a failure and a 1: 9 -> 11
    party = {**party, "tension": 4}  # the GM lowers it by hand
    party = log_conflict(party, environment_roll(4, 3, [5, 5, 3]))  # a success: stays 4
    state = phone(party)
    state.screen = "log"
    settle(state)
    assert tension_line.levels(state.session["log"]) == ([8, 9, 11, 4, 4], 3)
    line = next(said for said in pictures(state) if said.startswith("Tension over"))
    assert line == "Tension over the session's 3 Tension Engine conflicts: from 8 to 4, highest 11; it climbed to 10"


def test_the_tension_line_skips_what_it_cannot_read_and_says_when_older_entries_are_not_loaded():
    log = [{"kind": "set-aside", "record": {"system": "tension", "tension": 50}},
           {"record": {"system": "tension", "tension": "7", "result": {"tension_after": True}}},
           {"record": {"system": "anomaly", "result": {"outcome": "success"}}},
           {"record": {"system": "tension", "tension": 3, "result": {"tension_after": 4}}}]
    assert tension_line.levels(log) == ([3, 4], 1)
    state = phone(campaign(3 * PAGE))
    state.screen = "log"
    settle(state)
    loaded = len(state.session["log"])
    assert not state.replica.complete and loaded < 3 * PAGE
    assert f"Tension over the newest {loaded} Tension Engine conflicts: from 3 to 3, highest 3" in pictures(state)


def test_one_count_one_numbering_and_a_roll_set_aside_read_as_one():
    state = phone(party_of_five())
    state.screen = "conflict"
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-new")  # the GM's dice set aside before the player rolled
    log_a_roll(state, 4)
    state.screen = "log"
    page = text(state)
    assert "2 entries logged in “Friday at Kim's”, newest first: 1 conflict and 1 roll set aside." in page
    assert "Its 2 logged entries are only here." in page
    set_aside = markup(state).split('data-testid="log-entry"')[2]
    assert 'class="log-by"' not in set_aside  # nobody's roll: the player never rolled it
    assert [label(entry, 0) for entry in state.session["log"]] == ["Phone 2", "Phone 1"]
    tap(state, "log-undo")
    assert "Undo the newest result?" in text(state)
    tap(state, "log-undo-confirmed")
    tap(state, "log-undo")
    assert "Dice rolled and set aside, not resolved. It only leaves the log" in text(state)
