"""ui.arrivals under CPython: what comes from another phone. Links (joining a session link,
updating a session from one, bad links, a player's roll added to the GM's session once, a link that
would rewrite a logged conflict refused), the words for what a merge changes, and text scanned or
pasted read as a link of this app or not. A live table's messages are in test_ui_screens_live.py
(its phones are played together there); an imported file in test_ui_screens_log.py."""
import copy

import pytest

import rules
from session import check_roster_entry, log_conflict, MemoryStore, new_session
from session.links import v2 as link_v2
from session.links.v1 import encode_session
from session.replica import Replica
from ui.arrivals import codes
from ui.screens.log import actions as log_actions  # noqa: F401  (registers Undo)
from ui.screens.session import actions as session_actions  # noqa: F401  (the Session screen, where a link opens)

from reading import markup, text
from samples import AT, campaign, logged_party, party_of_five, plain, seen
from tapping import BASE, lasting, open_link, phone, reload, settle, stored, tap



# --- Joining a session link (links) -------------------------------------------------------------------------

def test_a_fresh_phone_joins_a_session_link_at_once():
    party = party_of_five()
    state = phone()
    open_link(state, encode_session(party))
    assert state.session == {**party, "log": []} and state.screen == "conflict" and state.pending is None
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
    tap(state, "join-cancel")  # "Not now": this phone's session stays as it is
    assert state.session["tension"] == 9 and "stays as it was" in state.message.text


def test_a_bad_link_only_says_so():
    mine = logged_party()
    store = MemoryStore()
    state = phone(mine, store=store)
    before = lasting(store)
    for fragment in ("s1.!!!", "s1.eJz", "s7.abc", "r1." + "A" * 40, "s1." + "A" * 200_000, "s2.!!!"):
        open_link(state, fragment)
        assert state.message.tone == "error" and state.pending is None
        assert plain(state.session) == mine and lasting(store) == before


def test_a_session_link_brings_the_steps_of_a_sealed_card_exchange():
    from session.sealed import exchange as sealed_exchange

    mine = logged_party()
    state = phone(mine)
    theirs = Replica.from_session(mine)
    theirs.add_sealed(sealed_exchange.seal_test("x1", "Time", 4, "ab" * 16))  # the GM's phone sealed a card
    open_link(state, link_v2.session_link(theirs))
    assert "Sealed cards: 1 new step" in text(state) and "ab" * 16 not in markup(state)
    tap(state, "join-update")
    assert list(state.replica.sealed["x1"].values()) == [sealed_exchange.seal_test("x1", "Time", 4, "ab" * 16)]
    assert state.library.read(mine["id"]).sealed == state.replica.sealed


# --- A player's roll on the GM's phone (links) --------------------------------------------------------------

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


# --- Text scanned or pasted: is it a link of this app? (codes) ------------------------------------------

@pytest.mark.parametrize("written, fragment", [
    (BASE + "#s1.abc", "s1.abc"),
    ("  HTTP://LOCALHOST:8000/#s1.abc\n", "s1.abc"),  # scheme and host in any case, spaces around
    ("http://localhost:8000/index.html#r1.xyz", "r1.xyz"),  # another page of the same origin
    ("http://localhost:8000/#s1.a%2Db", "s1.a-b"),  # read like the address bar
    ("s1.abc", "s1.abc"), ("#r1.abc", "r1.abc"),  # the link's fragment alone
    ("http://localhost:8000/#app", "app"),  # ours, but no link: the reader says what is wrong
])
def test_a_link_of_this_app_gives_its_fragment(written, fragment):
    assert codes.link_fragment(written, BASE) == fragment


@pytest.mark.parametrize("written", [
    "", "hello", "https://localhost:8000/#s1.abc", "http://localhost:9000/#s1.abc",
    "http://example.com/#s1.abc", "http://localhost:8000/", "javascript:alert(1)#s1.abc",
    "WIFI:S:home;T:WPA;P:secret;;", "http://[::1/#s1.abc", "//localhost:8000/#s1.abc",
])
def test_anything_else_is_not_a_tableside_link(written):
    assert codes.link_fragment(written, BASE) is None


def test_a_link_names_each_new_person_once_with_the_rule_systems_of_their_sheets():
    from session import check_roster_entry

    mine = party_of_five()
    state = phone(mine)
    theirs = Replica.from_session(mine)
    grown = theirs.session()
    grown["roster"] = [*grown["roster"], *(check_roster_entry(
        {"system": system, "kind": "character", "name": "Wren", **sheet}) for system, sheet in (
            ("tension", {"ap": 2, "health": 10, "willpower": 10, "attributes": [], "skills": []}),
            ("anomaly", {"modifiers": []})))]
    theirs.absorb(theirs.session(), grown, "beef")
    open_link(state, link_v2.session_link(theirs))
    changes = state.pending["changes"]
    assert [line for line in changes if "Wren" in line] == [
        "\u2068Wren\u2069: new in the roster (Tension Engine and Anomaly sheets)"]


# --- History is immutable and verified (issue 23, item 4) ----------------------------------------------

def numbered_party() -> dict:
    """The party of five with Ash's roll logged as Ash's phone numbers it: "Ash Varga 3"."""
    return logged_party(number=3, phone=party_of_five()["roster"][0]["name"])


def rewritten_link(session: dict, change) -> str:
    """A session link from another phone that holds the session's newest entry with `change` made
    to it (its result and effects worked out again, so that it holds together by itself)."""
    from session.log import effects_of

    theirs = Replica.from_session(copy.deepcopy(session))
    entry = theirs.log[session["log"][0]["id"]]
    change(entry["record"])
    entry["record"] = rules.resolve({key: value for key, value in entry["record"].items() if key != "result"})
    entry["effects"] = effects_of(entry["record"])
    before = theirs.session()
    theirs.absorb(before, {**before, "name": "Renamed"}, "a1")  # and something else worth merging
    return link_v2.session_link(theirs)


def other_dice(record: dict):
    record["player"]["dice"] = [6, 6, 6, 6, 6]


def test_a_link_that_rewrites_a_logged_conflict_is_refused_and_the_session_loads_unchanged():
    mine = numbered_party()
    store = MemoryStore()
    state = phone(mine, store=store)
    before = lasting(store)
    open_link(state, rewritten_link(mine, other_dice))
    assert seen(state.message.text) == ("This link changes conflict Ash Varga 3 that is already logged: "
                                        "nothing was changed.")
    assert state.message.tone == "error" and state.pending is None
    assert plain(state.session) == mine and lasting(store) == before
    again = reload(store)
    assert plain(again.session) == mine and again.session["log"][0]["record"]["player"]["dice"] == [6, 4, 3, 1, 1]
    tap(again, "log-undo-confirmed")  # this phone's effects are reversed: Tension +2 and AP -1 as logged
    assert again.session["tension"] == party_of_five()["tension"] == mine["tension"] - 2
    assert again.session["roster"][0]["ap"] == mine["roster"][0]["ap"] + 1


def test_an_entry_only_in_the_log_store_cannot_be_rewritten_either():
    mine = campaign(45)  # the newest page is in memory, the rest only in the log store
    store = MemoryStore()
    state = phone(mine, store=store)
    before = lasting(store)
    assert not state.replica.complete
    oldest = mine["log"][-1]
    assert oldest["id"] not in state.replica.log
    theirs = Replica.from_session(copy.deepcopy(mine))
    theirs.log[oldest["id"]]["by"] = "Mallory"  # who logged it may differ (one sealed conflict, two phones)...
    theirs.log[oldest["id"]]["record"]["player"]["name"] = "Mallory"  # ...who rolled may not
    open_link(state, link_v2.session_link(theirs, entries=[theirs.log[oldest["id"]]]))
    assert "that is already logged: nothing was changed" in state.message.text and state.pending is None
    assert lasting(store) == before and reload(store).replica.logged() == 45


def test_undo_after_a_forged_link_reverses_what_this_phone_logged():
    mine = numbered_party()
    state = phone(mine)
    forged = Replica.from_session(mine)
    entry_id = mine["log"][0]["id"]
    forged.undone[entry_id] = {"by": {"a1": 90, "b2": 91},
                               "effects": [{"field": "tension", "id": None, "delta": 60}]}  # never logged so
    forged.clock = max(forged.clock, 91)  # a link's stamps are within its clock (replica_check.check_clock)
    open_link(state, link_v2.session_link(forged))
    tap(state, "join-update")
    assert state.replica.undone[entry_id]["effects"] == mine["log"][0]["effects"]
    assert state.session["tension"] == mine["tension"] + 2  # two undos, one added back: by what was logged, not 60


def test_a_roll_link_that_carries_more_than_its_roll_is_refused():
    from session.links.text import split, unpack

    party = party_of_five()
    gm = phone(party)
    fragment, _ = players_roll(party)
    _, version, data = split(fragment)
    payload = unpack(data, version, link_v2.PRESET)
    payload["p"]["fields"] = {"name": ["Renamed", 99, "a1"]}
    ash = party["roster"][0]["id"]
    payload["p"]["roster"][ash] = {**payload["p"]["roster"].get(ash, {}), "removed": [99, "a1"]}
    open_link(gm, f"R2.{link_v2.pack(payload)}")
    assert "a roll link carries its roll and nothing else" in gm.message.text
    assert gm.session == gm.committed and gm.session["name"] == party["name"] and len(gm.session["roster"]) == 5
