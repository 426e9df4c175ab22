"""The Log and Session screens under CPython: opening links (join, update, bad links),
the session list, undo, export and import, roll links; markup escapes every name."""
import copy
import re

import pytest
import segno
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from session import log_conflict, new_session
from session.files import MAX_FILE
from session.link_text import share_url
from session.link_v1 import encode_roll, encode_session
from session import Library, MemoryLog, MemoryStore
from session import link_v2
from session.replica import Replica
from session.on_device import INDEX_KEY, session_key
from ui.core.library import OFFER_BACKUP_AFTER, switch_to
from ui.core.opening import starting_state
from ui import screens
from ui.kit import qr
from ui import progress
from ui.frame import actions as frame_actions  # noqa: F401 (importing registers actions)
from ui.tension import actions as tension_actions  # noqa: F401
from ui.log import actions as log_actions  # noqa: F401 (importing registers actions)
from ui.session_screen import links

from samples import AT, json_values, logged_party, party_of_five, plain, seen
from tapping import settle, tap

BASE = "http://localhost:8000/"
HOSTILE = '<img src=x onerror="window.hacked=1">'


def phone(*saved, store=None, log=None):
    """A phone with these sessions saved (the last one open), as the app starts."""
    store = store if store is not None else MemoryStore()
    log = log if log is not None else MemoryLog()
    shelf = Library(store, log, clock=lambda: AT)
    for session in saved:
        shelf.save(Replica.from_session(session))
    settle_library(shelf)
    state = starting_state(Library(store, log, clock=lambda: AT), BASE)
    settle(state)
    return state


def settle_library(shelf):
    import asyncio

    asyncio.run(shelf.flush())


def stored(state, session_id) -> dict:
    """A session as this phone stores it, its whole log read."""
    import asyncio

    replica = state.library.read(session_id)
    return plain(asyncio.run(state.library.everything(replica))[0].session())


def lasting(store) -> dict:
    """What a store holds besides the tables in progress (the open screen is saved with them)."""
    return {key: value for key, value in store.items.items() if not key.startswith("tableside.table.")}

def markup(state) -> str:
    return "".join(content for _, content in screens.page(state))


def text(state) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", seen(markup(state))))


def open_link(state, fragment):
    links.open_link(state, fragment)
    settle(state)


# --- Starting and joining -----------------------------------------------------------------------------

def test_a_fresh_phone_joins_a_session_link_at_once():
    party = party_of_five()
    state = phone()
    open_link(state, encode_session(party))
    assert state.session == {**party, "log": []} and state.screen == "roster" and state.pending is None
    assert "Joined “Friday at Kim's”" in seen(state.message.text)
    assert state.library.has(party["id"])


def test_a_phone_with_sessions_asks_before_joining():
    mine = new_session("Mine")
    mine["tension"] = 7
    state = phone(mine)
    party = party_of_five()
    open_link(state, encode_session(party))
    assert state.session == mine and state.pending["kind"] == "join" and state.screen == "session"
    assert "Join this session?" in text(state) and "Ash Varga" in text(state)
    tap(state, "join-new")
    assert state.session["id"] == party["id"] and len(state.library.listing()) == 2
    assert stored(state, mine["id"]) == mine  # untouched


def test_not_now_changes_nothing():
    mine = new_session("Mine")
    mine["tension"] = 4
    store = MemoryStore()
    state = phone(mine, store=store)
    before = lasting(store)
    open_link(state, encode_session(party_of_five()))
    tap(state, "join-cancel")
    assert state.session == mine and state.pending is None and lasting(store) == before


def test_the_same_link_twice_opens_the_same_session_never_a_copy():
    party = party_of_five()
    state = phone()
    fragment = encode_session(party)
    open_link(state, fragment)
    tap(state, "session-new")
    open_link(state, fragment)
    assert state.pending is None and state.session["id"] == party["id"]
    assert "already have" in state.message.text
    assert [entry["id"] for entry in state.library.listing()].count(party["id"]) == 1


def test_a_newer_link_of_a_session_here_offers_an_update_that_keeps_the_log():
    mine = logged_party()
    state = phone(mine)
    theirs = Replica.from_session(mine)  # the same session on another phone, changed there
    before = theirs.session()
    after = {**before, "tension": 9, "roster": [{**before["roster"][0], "ap": 0}, *before["roster"][1:]]}
    theirs.absorb(before, after, "a1")
    open_link(state, link_v2.session_link(theirs))
    assert state.pending["kind"] == "join" and plain(state.pending["mine"]) == mine
    page = text(state)
    assert "Update this session?" in page and "Tension 7 → 9" in page and "Ash Varga: AP 2 → 0" in page
    tap(state, "join-update")
    assert state.session["tension"] == 9 and state.session["roster"][0]["ap"] == 0
    assert plain(state.session)["log"] == mine["log"] and len(state.library.listing()) == 1
    assert stored(state, mine["id"])["tension"] == 9
    open_link(state, link_v2.session_link(theirs))  # the same link again: nothing more to merge
    assert state.pending is None and "already have everything" in state.message.text
    older = copy.deepcopy(mine)
    older["tension"] = 12
    open_link(state, encode_session(older))  # a version-1 link merges too
    assert "Tension 9 → 12" in text(state)
    tap(state, "join-open-mine")
    assert state.session["tension"] == 9


def test_a_bad_link_only_says_so():
    mine = logged_party()
    store = MemoryStore()
    state = phone(mine, store=store)
    before = lasting(store)
    for fragment in ("s1.!!!", "s1.eJz", "s7.abc", "r1." + "A" * 40, "s1." + "A" * 200_000, "s2.!!!"):
        open_link(state, fragment)
        assert state.message.tone == "error" and state.pending is None
        assert plain(state.session) == mine and lasting(store) == before


def test_names_with_html_are_shown_as_text_everywhere():
    party = party_of_five()
    party["name"] = HOSTILE
    party["roster"][0]["name"] = HOSTILE
    state = phone(new_session("Mine"))
    open_link(state, encode_session(party))
    assert state.screen == "session" and "&lt;img" in markup(state) and "<img" not in markup(state)
    tap(state, "join-new")
    for screen in ("session", "roster", "log", "conflict"):
        state.screen = screen
        assert "<img" not in markup(state) and "&lt;img" in markup(state)


def test_starting_with_unreadable_data_says_so_and_keeps_it():
    party = party_of_five()
    store = MemoryStore({session_key("oops"): "{cut short", INDEX_KEY: "[[["})
    state = phone(party, store=store)
    assert state.session == party and state.message.tone == "error"
    assert "could not be read" in state.message.text and "Nothing was deleted" in state.message.text
    state.screen = "session"
    page = text(state)
    assert "Saved data that could not be read" in page and "Download a copy" in page
    tap(state, "unreadable-download", key=session_key("oops"))
    [(kind, data)] = state.effects
    assert kind == "download" and data["text"] == "{cut short" and data["name"].endswith(".txt")
    tap(state, "unreadable-remove", key=session_key("oops"))
    tap(state, "unreadable-remove-confirmed")
    assert store.get(session_key("oops")) is None


# --- The session list ---------------------------------------------------------------------------------

def test_switch_rename_duplicate_and_delete_with_confirmation():
    one, two = new_session("One"), new_session("Two")
    one["tension"] = 4
    two["tension"] = 6
    state = phone(one, two)
    state.screen = "session"
    assert state.session["id"] == two["id"]
    tap(state, "session-open", id=one["id"])
    assert state.session == one
    tap(state, "session-rename", id=two["id"])
    tap(state, "session-rename-text", value="  Second   night ")
    tap(state, "session-rename-save")
    assert stored(state, two["id"])["name"] == "Second night" and state.session["name"] == "One"
    tap(state, "session-duplicate", id=one["id"])
    names = sorted(entry["name"] for entry in state.library.listing())
    assert names == ["One", "One (copy)", "Second night"]
    tap(state, "session-delete", id=one["id"])
    assert "Delete “One” and its log" in text(state) and state.library.has(one["id"])
    tap(state, "session-delete-cancel")
    assert state.library.has(one["id"])
    tap(state, "session-delete", id=one["id"])
    tap(state, "session-delete-confirmed")
    assert not state.library.has(one["id"]) and state.session["id"] != one["id"]
    assert len(state.library.listing()) == 2


def test_players_and_tension_settings():
    state = phone()
    state.screen = "session"
    tap(state, "session-players", step=1)
    assert state.session["players"] == 4 and state.session["tension"] == 4  # nothing logged yet
    tap(state, "session-setting", setting="ones_feed_tension", checked=False)
    assert state.session["settings"] == {"ones_feed_tension": False, "tension_explodes": True}
    assert "1s feed Tension" in text(state) and "Tension explodes" in text(state)
    assert "CC BY 4.0 SRD (original design by Will Lentz and Brett Zeiler for Party First, published by " \
           "Gamenomicon)" in text(state)


def test_the_share_card_shows_the_link_and_its_qr_code():
    state = phone(party_of_five())
    state.screen = "session"
    page = markup(state)
    url = share_url(BASE, link_v2.session_link(state.replica))
    assert url in page and "#S2." in url and 'class="qr-code"' in page and "style=" not in page
    tap(state, "session-share")
    [(kind, data)] = state.effects
    assert kind == "share" and data["url"] == url
    assert link_v2.read(url.split("#", 1)[1]).replica.session() == state.session


# --- The log ----------------------------------------------------------------------------------------

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
    assert "1 Jun, 21:30" in page and "Ash Varga keeps 5 and 4 and 3" in page
    assert "Die 1: 6, kept" in markup(state)
    tap(state, "log-undo")
    assert "Undo the newest result?" in text(state) and "Reversed: Ash Varga AP +1." in text(state)
    tap(state, "log-undo-confirmed")
    assert plain(state.session) == party  # Tension and AP exactly as before, the entry gone
    assert stored(state, party["id"]) == party


def test_sharing_a_roll_and_opening_its_link():
    state = phone(logged_party())
    entry = state.session["log"][0]
    tap(state, "log-share", id=entry["id"])
    [(kind, data)] = state.effects
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


def test_export_then_import_makes_a_new_equal_session():
    party = logged_party()
    state = phone(party)
    tap(state, "log-export")
    [(kind, data)] = state.effects
    assert kind == "download" and data["name"].startswith("tableside-friday-at-kim-s")
    state.effects.clear()
    tap(state, "log-import")
    assert state.effects == [("read-file", {"action": "log-import-text", "limit": MAX_FILE})]
    state.effects.clear()
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


def test_a_stored_record_too_broken_to_describe_does_not_break_the_log():
    party = logged_party()
    party["log"][0]["record"] = {"system": "tension", "kind": "environment", "result": {"outcome": 5}}
    state = phone()
    switch_to(state, Replica.from_session(party))
    state.screen = "log"
    settle(state)  # the Log reads what it shows from the log store
    assert "could not be read" in text(state)


@pytest.mark.parametrize("fragment", [encode_session(party_of_five()),
                                      link_v2.session_link(Replica.from_session(logged_party()))])
def test_the_qr_code_decodes_back_to_the_link(fragment):
    import zxingcpp

    url = share_url(BASE, fragment)
    svg, designator, modules = qr.qr(url)
    assert svg.startswith("<svg") and "style" not in svg and "<script" not in svg
    assert modules == int(designator.split("-")[0]) * 4 + 17
    code = segno.make_qr(qr.segments(url), error=qr.QR_ERROR, boost_error=True)
    scale = 4
    pixels = bytearray()
    for row in code.matrix_iter(border=qr.QR_BORDER, scale=scale):
        pixels += bytes(0 if dark else 255 for dark in row)
    side = (modules + 2 * qr.QR_BORDER) * scale
    image = memoryview(bytes(pixels)).cast("B", (side, side))
    [found] = zxingcpp.read_barcodes(image)
    assert found.text == url


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


def log_more(state, count):
    for _ in range(count):
        state.session = log_conflict(state.session, state.session["log"][-1]["record"], at=AT, by="Kim")
    settle(state)  # as after a tap: the replica records them


def test_the_log_and_session_screens_say_when_the_session_was_last_backed_up():
    state = phone(logged_party())
    state.screen = "log"
    assert "Not exported to a file from this phone yet. Its 1 logged conflict is only here." in text(state)
    tap(state, "log-export")
    assert re.search(r"Last exported to a file on \d+ \w{3}, \d\d:\d\d\.", text(state))
    state.screen = "session"
    assert "Last exported to a file on" in text(state)
    tap(state, "session-share")
    [(kind, data)] = [effect for effect in state.effects if effect[0] == "share"]
    assert data["then"] == "session-shared"  # noted only once the link went out (ui.shell.effects)
    assert "shared as a link" not in text(state)
    tap(state, "session-shared")
    assert "Last shared as a link on" in text(state) and "not the log" in text(state)


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
    assert f"{OFFER_BACKUP_AFTER} logged conflicts since then are only on this phone" in text(state)
    assert "Back up this session: export it to a file" in text(state)
    assert export_is_primary(state)
    state.screen = "session"
    assert export_is_primary(state)
    tap(state, "log-export")
    state.screen = "log"
    assert "Back up this session" not in text(state) and not export_is_primary(state)


def test_the_storage_card_promises_nothing_and_suggests_the_home_screen_in_safari():
    state = phone(logged_party())
    state.screen = "session"
    for persistence in ("kept", "not-kept", "unsupported", "unknown"):
        state.persistence = persistence
        assert " safe" not in text(state).lower()
    assert "add Tableside to the Home Screen" not in text(state)
    state.persistence = "not-kept"
    assert text(state).count("7 days without a visit") == 1  # said for Safari wherever it runs
    state.safari_tab = True
    assert "add Tableside to the Home Screen" in text(state) and text(state).count("7 days without a visit") == 1


# --- A player's roll on the GM's phone ------------------------------------------------------------------

def players_roll(party: dict) -> tuple[str, dict]:
    """The party's session on a player's phone (joined from the GM's link), one roll logged there:
    the roll's fragment, and the player's session."""
    gm = Replica.from_session(party)
    player = phone()
    open_link(player, link_v2.session_link(gm))
    ash = player.session["roster"][0]
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": party["tension"],
                            "gm": {"name": "The GM", "dice": [6, 5, 2, 1, 1]},
                            "player": {"name": ash["name"], "id": ash["id"], "side": "character", "pool": 5,
                                       "dice": [6, 4, 3, 1, 1], "keep": [0, 1, 2], "ap": 1}})
    player.session = log_conflict(player.session, record, at=AT, by=ash["name"])
    settle(player)
    entry = player.session["log"][0]
    return link_v2.roll_message(player.replica, entry["id"], player.session["name"]), player.session


def test_a_players_roll_is_added_to_the_gms_session_once():
    party = party_of_five()
    gm = phone(party)
    fragment, theirs = players_roll(party)
    open_link(gm, fragment)
    page = text(gm)
    assert gm.pending["state"] == "new" and "A player's roll" in page and "rolled by Ash Varga" in page
    assert "Checked: the result follows from its dice" in page
    assert "Ash Varga: AP 3 → 2" in page and "Tension 5 → 7" in page  # what adding it changes, before it does
    assert gm.session["tension"] == 5 and gm.session["log"] == []  # nothing yet
    tap(gm, "roll-add")
    assert gm.pending is None and "Added Ash Varga's roll" in seen(gm.message.text)
    assert gm.session["tension"] == theirs["tension"] == 7 and gm.session["roster"][0]["ap"] == 2
    assert [entry["id"] for entry in gm.session["log"]] == [theirs["log"][0]["id"]]
    assert stored(gm, party["id"])["tension"] == 7
    open_link(gm, fragment)  # the same roll again
    assert gm.pending["state"] == "already" and "already in this session's log" in text(gm)
    assert "roll-add" not in markup(gm)
    tap(gm, "roll-add")  # nothing to add: no change
    assert len(gm.session["log"]) == 1 and gm.session["tension"] == 7


def test_a_roll_of_a_session_not_on_this_phone_is_only_shown():
    fragment, _ = players_roll(party_of_five())
    other = phone(new_session("Other"))
    open_link(other, fragment)
    assert other.pending["state"] == "elsewhere" and "not on this phone" in text(other)
    assert "roll-add" not in markup(other) and other.session["log"] == []


# --- Who holds this phone ------------------------------------------------------------------------------

def test_joining_asks_who_holds_the_phone_and_a_players_phone_keeps_the_gms_controls_away():
    party = party_of_five()
    state = phone()
    open_link(state, link_v2.session_link(Replica.from_session(party)))
    assert "Who are you at this table?" in text(state)
    ash = party["roster"][0]
    tap(state, "role-pick", role=ash["id"])
    page = markup(state)
    assert state.role == ash["id"] and state.screen == "conflict" and "You: Ash Varga" in text(state)
    assert 'data-action="tension-step"' not in page  # Tension is shown, not offered
    assert "Conflicts with adversaries are rolled on the GM's phone" in text(state)
    assert 'id="player-who"' not in page  # the player's side is theirs
    state.screen = "roster"
    page = markup(state)
    assert "Add an adversary" not in page and page.count('data-action="roster-edit"') == 1
    again = progress.reopened(state)  # kept with the table in progress: a reload keeps it
    assert again.role == ash["id"]
    tap(state, "role-choose")
    tap(state, "role-pick", role="gm")
    assert 'data-action="tension-step"' in markup(state) and "You: the GM" in text(state)


def test_a_players_roll_is_logged_and_shown_to_the_gm_in_one_tap(monkeypatch):
    party = party_of_five()
    state = phone()
    open_link(state, link_v2.session_link(Replica.from_session(party)))
    tap(state, "role-pick", role=party["roster"][0]["id"])
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-roll", side="player")
    assert "Log and show to the GM" in text(state)
    tap(state, "tension-log", then="show")
    entry = state.session["log"][0]
    assert state.showing == entry["id"] and "Show to the GM" in text(state)
    dialog = markup(state)
    assert 'data-testid="qr"' in dialog and "#R2." in dialog
    tap(state, "roll-show-done")
    assert state.showing is None and 'data-action="roll-show"' in markup(state)  # shown again from the bar


def test_a_session_link_brings_the_steps_of_a_sealed_card_exchange():
    from session import sealed

    mine = logged_party()
    state = phone(mine)
    theirs = Replica.from_session(mine)
    theirs.add_sealed(sealed.seal_test("x1", "Time", 4, "ab" * 16))  # the GM's phone sealed a card
    open_link(state, link_v2.session_link(theirs))
    assert "Sealed cards: 1 new step" in text(state) and "ab" * 16 not in markup(state)
    tap(state, "join-update")
    assert list(state.replica.sealed["x1"].values()) == [sealed.seal_test("x1", "Time", 4, "ab" * 16)]
    assert state.library.read(mine["id"]).sealed == state.replica.sealed
