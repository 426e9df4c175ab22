"""ui.live under CPython: phones of a live table (tests/unit/live_table.py plays static/live.js)
join with two scans, every roll and change reaches every phone through the links' own merge,
the GM takes rolls at once or on "Add", calls for rolls and sees the round, a phone that comes
back catches up without losing anything, and whatever another phone sends is bounded and
checked like a link."""
from __future__ import annotations

import asyncio
import json
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session import MemoryStore
from session.links import v2 as link_v2
from session.live import catchup as live_catchup
from session.live import protocol as live_protocol
from session.replica import Replica, entry_key
from ui.core import effects
from ui.core import live as model
from ui.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.live import sync
from ui.live import actions as live_actions  # noqa: F401  (registers the live table's actions)
from ui.session_screen import scan as scan_actions  # noqa: F401  (registers "Scan a code")
from ui.tension import actions as tension_actions  # noqa: F401  (registers the Tension Engine's)

from counting_log import CountingLog
from crowded import template_entry
from hostile import any_unicode, nested_json
from live_table import Table
from reading import markup, text
from samples import json_values, party_of_five
from tapping import LOGS, library, open_link, phone, settle, start, tap


def gm_table(*players: str, party=None) -> tuple[Table, dict]:
    """The GM's phone with the party's session open, and a fresh phone for each player named."""
    party = party or party_of_five()
    gm = phone(party)
    tap(gm, "role-pick", role="gm")
    table = Table(gm=gm)
    for name in players:
        table.add(name, phone())
    return table, party


def role_of(party: dict, name: str) -> str:
    return next(entry["id"] for entry in party["roster"] if entry["name"] == name)


def names(party: dict) -> list[str]:
    return [entry["name"] for entry in party["roster"]]


def roll(state, then: str = "show"):
    """A player's Tension roll, as the result bar's buttons do it (a new conflict after the last)."""
    if (state.drafts.get("tension") or {}).get("logged") is not None:
        tap(state, "tension-new")
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-roll", side="player")
    tap(state, "tension-log", then=then)


def seen_table(state) -> dict:
    session = state.session
    return {"tension": session["tension"], "log": [entry["id"] for entry in session["log"]],
            "roster": [(entry["name"], entry.get("ap")) for entry in session["roster"]]}


# --- Joining ---------------------------------------------------------------------------------------

def test_a_player_joins_with_two_scans_and_gets_the_session():
    table, party = gm_table("ash")
    first = names(party)[0]
    gm, ash = table.phones["gm"], table.phones["ash"]
    tap(gm, "live-connect")
    table.run()
    assert gm.screen == "live" and table.code_on("gm").startswith("O1.")
    assert 'data-testid="live-offer"' in markup(gm) and "Scan its answer" in text(gm)
    tap(ash, "live-code", value=table.code_on("gm"))  # the Session screen's scanner read it
    table.run()
    assert ash.screen == "live" and table.code_on("ash").startswith("A1.")
    assert "Show this to the GM's phone" in text(ash)
    tap(gm, "live-scanned", value=table.code_on("ash"))
    table.run()
    assert ash.session["id"] == party["id"] and ash.view.get("choose_role")  # joined: who holds this phone?
    tap(ash, "role-pick", role=role_of(party, first))
    table.run()
    assert gm.live.peers[next(iter(gm.live.peers))].who == first
    assert f"{first}'s phone" in text(gm) and "live since" in text(gm)
    assert "Live" in text(ash) and "the GM since" in text(ash)
    assert seen_table(gm) == seen_table(ash)


def test_an_answer_to_an_offer_the_gm_no_longer_waits_on_is_refused():
    table, _ = gm_table("ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    tap(gm, "live-connect")
    table.run()
    old = table.code_on("gm")
    tap(gm, "live-connect")  # a new code: the old offer is closed
    table.run()
    tap(ash, "live-code", value=old)
    table.run()
    tap(gm, "live-scanned", value=table.code_on("ash"))
    table.run()
    assert gm.message.tone == "error" and "not waiting on" in gm.message.text
    assert not any(peer.state == model.OPEN for peer in gm.live.peers.values())
    assert not [kind for kind, _ in gm.effects if kind == effects.LIVE_ACCEPT]


def test_a_code_that_is_no_live_code_gets_a_sentence_and_changes_nothing():
    table, _ = gm_table("ash")
    ash = table.phones["ash"]
    for code in ("O1.", "O9.ABC", "X1.ABC", "O1." + "A" * 500):
        tap(ash, "live-code", value=code)
        assert ash.message.tone == "error" and ash.message.text.endswith(".")
    assert ash.live is None


def test_the_session_screens_scanner_and_paste_take_live_codes():
    table, _ = gm_table("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    tap(gm, "live-connect")
    table.run()
    ash.screen = "session"
    tap(ash, "link-paste-text", value=table.code_on("gm"))
    tap(ash, "link-paste-open")
    table.run()
    assert ash.screen == "live" and table.code_on("ash").startswith("A1.")
    tap(ash, "scan-start")
    tap(ash, "scan-found", value="  " + table.code_on("gm") + "\n")
    assert ash.live.peers["gm"].state == model.MAKING  # answering again, the newest offer read


# --- Everything reaches every phone --------------------------------------------------------------------

def joined(*players: str, party=None) -> tuple[Table, dict]:
    table, party = gm_table(*players, party=party)
    for index, name in enumerate(players):
        table.join("gm", name, role=party["roster"][index]["id"])
    return table, party


def test_a_players_roll_reaches_the_gm_and_every_phone_at_once():
    table, party = joined("ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    tap(ash, "tension-roll", side="gm")
    tap(ash, "tension-roll", side="player")
    assert "Log and send to the GM" in text(ash)
    tap(ash, "tension-log", then="show")
    table.run()
    assert ash.showing is None and "on the GM's phone" in ash.message.text  # no QR code to show: it went
    assert len(gm.session["log"]) == 1 and gm.session["log"][0]["id"] == ash.session["log"][0]["id"]
    assert seen_table(gm) == seen_table(ash) == seen_table(brin)
    assert not ash.pending and not brin.pending  # no "Update" tap anywhere
    tap(gm, "tension-step", step="1")
    table.run()
    assert seen_table(gm) == seen_table(ash) == seen_table(brin) and brin.session["tension"] == gm.session["tension"]


def test_rolls_can_wait_for_the_gm_to_add_them():
    table, party = joined("ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    tap(gm, "live-add-mode", value=model.ADD_ON_TAP)
    tension = gm.session["tension"]
    roll(ash)
    table.run()
    assert gm.session["log"] == [] and gm.session["tension"] == tension  # nothing counts before "Add"
    [item] = gm.live.waiting
    gm.screen = "live"
    assert "1 roll to add" in text(gm) and 'data-action="live-add"' in markup(gm)
    tap(gm, "live-add", id=item["entry_id"])
    table.run()
    assert gm.live.waiting == [] and seen_table(gm) == seen_table(ash) == seen_table(brin)
    roll(brin)
    table.run()
    [item] = gm.live.waiting
    tap(gm, "live-leave-out", id=item["entry_id"])
    assert gm.live.waiting == [] and len(gm.session["log"]) == 1
    assert gm.add_rolls == model.ADD_ON_TAP  # the GM's choice, kept with this session's table


def test_a_roll_that_does_not_check_out_is_never_added_at_once():
    table, party = joined("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    roll(ash, then="")
    entry = ash.replica.log[ash.session["log"][0]["id"]]
    entry["record"]["player"]["dice"] = [7, 7]  # a changed record: it no longer resolves
    text_sent = live_protocol.link(link_v2.roll_message(ash.replica, entry["id"]))
    table.deliver("gm", "live-message", text_sent, peer=next(iter(gm.live.peers)))
    table.run()
    assert gm.session["log"] == []
    assert gm.message is not None and gm.message.tone == "error"


# --- Calls for rolls and the round ------------------------------------------------------------------

def test_the_gm_calls_for_rolls_and_sees_the_round():
    table, party = joined("ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    first, second = names(party)[:2]
    for phone_state in (ash, brin):
        phone_state.screen = "log"
    gm.screen = "live"
    assert "Call for a roll" in text(gm)
    tap(gm, "live-call-title", value="Climb the wall")
    tap(gm, "live-call-stakes", value="The guards hear you")
    tap(gm, "live-call")
    table.run()
    assert "0 of 2 rolled" in text(gm)
    for phone_state in (ash, brin):
        assert phone_state.screen == "conflict" and "The GM calls for your roll" in text(phone_state)
        assert "Climb the wall" in text(phone_state)
    roll(ash)
    table.run()
    words = text(gm).replace(" :", ":")
    assert "1 of 2 rolled" in words and f"{first}: rolled" in words and f"{second}: still to roll" in words
    assert "The GM calls for your roll" not in text(ash)
    roll(brin)
    table.run()
    assert "2 of 2 rolled" in text(gm)
    tap(gm, "live-call-end", id=next(iter(gm.live.calls)))
    table.run()
    assert brin.live.calls == {} and "ended" in text(gm)


def test_a_call_for_an_anomaly_check_opens_it_at_the_difficulty_set():
    from samples import party as mixed_party
    from ui.anomaly import actions as anomaly_actions  # noqa: F401

    session = mixed_party()
    table, party = gm_table("rook", party=session)
    table.join("gm", "rook", role=role_of(session, "Rook"))
    gm, rook = table.phones["gm"], table.phones["rook"]
    tap(gm, "live-call-system", value="anomaly")
    tap(gm, "live-call-difficulty", value="7")
    tap(gm, "live-call")
    table.run()
    assert rook.system == "anomaly" == gm.system and rook.drafts["anomaly"]["difficulty"] == 7
    assert rook.screen == "conflict"


# --- A phone that goes away and comes back ----------------------------------------------------------

def test_a_phone_that_comes_back_catches_up_both_ways_and_nothing_is_overwritten():
    table, party = joined("ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    roll(ash)
    table.run()
    table.lose("ash")
    assert "lost at" in text(gm) and ash.live.peers["gm"].state == model.LOST
    assert "Not live" in text(ash)
    for _ in range(3):
        roll(brin)  # the table goes on without Ash's phone
        table.run()
    tap(gm, "tension-step", step="1")
    roll(ash)  # logged while away: its link still shows, for the GM's phone to scan
    table.run()
    assert ash.showing is not None  # not live: "Show to the GM" as before
    ash_entry = ash.session["log"][0]["id"]
    assert ash_entry not in gm.replica.log
    lost = next(peer.id for peer in gm.live.peers.values() if peer.state == model.LOST)
    table.join("gm", "ash", peer=lost)  # a new code for that phone: two scans again
    assert seen_table(gm) == seen_table(ash) == seen_table(brin)
    assert ash_entry in gm.replica.log and len(gm.session["log"]) == 5
    assert sum(peer.state == model.OPEN for peer in gm.live.peers.values()) == 2


def test_the_wait_on_a_phones_first_code_does_not_fail_its_new_one():
    """A phone lost soon after it joined gets a new code; the GM's phone still waits on the first
    code's channel, and when that wait ends the new code stays on screen, ready for its answer."""
    table, party = joined("ash")
    gm = table.phones["gm"]
    [(_, peer, first_offer)] = [wait for wait in table.waits if wait[0] == "gm"]
    table.lose("ash")
    tap(gm, "live-connect", peer=peer)
    table.run()
    table.deliver("gm", "live-waited", str(first_offer), peer=peer)
    assert gm.live.peers[peer].state == model.SHOWING and table.code_on("gm", peer)
    table.join("gm", "ash", peer=peer)
    assert gm.live.peers[peer].state == model.OPEN


def test_catching_up_reaches_entries_older_than_what_a_phone_holds_in_memory():
    table, party = joined("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    table.lose("ash")
    for _ in range(30):  # more than a page of the log in memory (20)
        roll(gm)
    roll(ash)
    table.run()
    lost = next(iter(gm.live.peers))
    table.join("gm", "ash", peer=lost)
    assert len(gm.session["log"]) >= 20 and gm.replica.logged() == ash.replica.logged() == 31


# --- What another phone sends is checked -------------------------------------------------------------

@pytest.mark.parametrize("sent", [
    "hello", "{}", '{"live": 1, "k": "link", "link": "S2.AAAA"}', '{"live": 9, "k": "call"}',
    json.dumps({"live": 1, "k": "call", "id": "c1", "system": "tension", "kind": "environment",
                "title": "<img src=x onerror=alert(1)>", "to": ["nobody"]}),
])
def test_whatever_a_phone_sends_is_refused_with_a_sentence_or_used_checked(sent):
    table, party = joined("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    before = (gm.replica.to_dict(), ash.replica.to_dict())
    table.deliver("ash", "live-message", sent, peer="gm")
    table.deliver("gm", "live-message", sent, peer=next(iter(gm.live.peers)))
    table.run()
    assert (gm.replica.to_dict(), ash.replica.to_dict()) == before
    assert "<img" not in markup(ash) and "<img" not in markup(gm)


def test_a_roll_of_another_session_is_not_taken():
    table, party = joined("ash")
    gm = table.phones["gm"]
    other = phone(party_of_five())
    roll(other, then="")
    sent = live_protocol.link(link_v2.roll_message(other.replica, other.session["log"][0]["id"]))
    table.deliver("gm", "live-message", sent, peer=next(iter(gm.live.peers)))
    table.run()
    assert gm.session["log"] == []


def test_a_browser_without_webrtc_says_so_and_links_keep_working():
    table, party = gm_table("ash")
    table.unsupported.add("gm")
    gm = table.phones["gm"]
    tap(gm, "live-connect")
    table.run()
    assert gm.live.unsupported and "no WebRTC" in text(gm) and "Links and QR codes work" in text(gm)
    gm.screen = "session"
    assert "session-link" in markup(gm)  # sharing by link is still there


def test_a_phone_that_never_connects_says_why_and_gives_up():
    table, party = gm_table("ash")
    table.cut.add("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    tap(gm, "live-connect")
    table.run()
    tap(ash, "live-code", value=table.code_on("gm"))
    table.run()
    tap(gm, "live-scanned", value=table.code_on("ash"))
    table.run()
    [(name, peer, offer)] = [wait for wait in table.waits if wait[0] == "gm"]
    table.deliver("gm", "live-waited", str(offer), peer=peer)
    table.run()
    assert "same Wi-Fi" in gm.message.text and "Links and QR codes keep working" in gm.message.text
    [(_, _, answered)] = [wait for wait in table.waits if wait[0] == "ash"]
    table.deliver("ash", "live-waited", str(answered), peer="gm")
    assert "Not connected yet" in text(ash)


def test_the_wake_lock_is_offered_while_live():
    table, party = joined("ash")
    ash = table.phones["ash"]
    assert "Keep the screen on" in text(ash)
    tap(ash, "live-wake")
    table.run()
    assert ash.live.wake == "on" and 'aria-pressed="true"' in markup(ash)
    tap(ash, "live-wake-state", value="refused")  # the browser said no (low battery, the page not in front)
    assert ash.live.wake == "off" and "did not keep the screen on" in ash.message.text
    tap(ash, "live-wake-state", value="unsupported")
    assert "Keep the screen on" not in text(ash)


def test_leaving_the_live_table_closes_every_channel():
    table, party = joined("ash", "brin")
    gm, ash = table.phones["gm"], table.phones["ash"]
    tap(gm, "live-end")
    table.run()
    assert gm.live is None and ash.live.peers["gm"].state == model.LOST
    assert open_link is not None and settle is not None and Replica is not None


def test_a_sealed_test_goes_between_the_two_phones_by_itself():
    from samples import party as mixed_party
    from ui.manners import actions as manners_actions  # noqa: F401

    session = {**mixed_party(), "system": "manners"}
    table, party = gm_table("wren", party=session)
    table.join("gm", "wren", role=role_of(session, "Wren"))
    gm, wren = table.phones["gm"], table.phones["wren"]
    tap(gm, "switch-system", system="manners")
    tap(gm, "manners-who", side="player", value=role_of(session, "Wren"))
    tap(gm, "manners-gm-mode", value="says")
    tap(gm, "manners-difficulty", value=5)
    tap(gm, "manners-seal-pick", value="Hostility")
    tap(gm, "manners-seal-share")
    table.run()
    assert not [kind for kind, _ in gm.effects if kind == effects.SHARE]  # no share sheet: it went live
    exchange = wren.drafts["manners"]["exchange"]
    assert exchange is not None and wren.screen == "conflict"
    tap(wren, "manners-manner", side="player", value="Force")
    tap(wren, "manners-lock", side="player")
    tap(wren, "manners-seal-send")
    table.run()
    assert "Reveal to the player" in markup(gm)
    tap(gm, "manners-seal-reveal")
    table.run()
    assert wren.drafts["manners"]["revealed"] == gm.drafts["manners"]["revealed"] is not None
    assert wren.drafts["manners"]["revealed"]["complication"] == "Hostility"


SAMPLE_TABLE = {}


def sample_table():
    """One table for every fuzzed message (a refused message changes nothing, so it can be shared)."""
    if not SAMPLE_TABLE:
        SAMPLE_TABLE["table"], _ = joined("ash")
    return SAMPLE_TABLE["table"]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(any_unicode, nested_json(), st.builds(
    lambda kind, data: json.dumps({"live": 1, "k": kind, **data}), st.sampled_from(sorted(live_protocol.FIELDS)),
    st.dictionaries(st.sampled_from(["to", "keys", "more", "rest", "ids", "link", "call", "id", "system", "kind",
                                     "title", "stakes", "phones", "role", "who", "device", "session", "n", "print",
                                     "oldest", "difficulty"]), json_values, max_size=8))))
def test_any_message_from_another_phone_is_refused_or_read_and_never_breaks_the_table(text):
    table = sample_table()
    gm, ash = table.phones["gm"], table.phones["ash"]
    before = (json.dumps(gm.replica.to_dict(), sort_keys=True), json.dumps(ash.replica.to_dict(), sort_keys=True))
    table.deliver("ash", "live-message", text, peer="gm")
    table.deliver("gm", "live-message", text, peer=next(iter(gm.live.peers)))
    table.run()
    after = (json.dumps(gm.replica.to_dict(), sort_keys=True), json.dumps(ash.replica.to_dict(), sort_keys=True))
    assert after == before
    for state in (gm, ash):
        assert state.message is None or state.message.text.endswith(".")
        markup(state)  # every screen still draws
        state.message = None


def test_each_phone_shows_who_is_live_and_since_when():
    table, party = joined("ash", "brin")
    gm, ash = table.phones["gm"], table.phones["ash"]
    first, second = names(party)[:2]
    words = text(gm)
    assert f"{first} since" in words and f"{second} since" in words
    ash.screen = "live"
    words = text(ash)
    assert "the GM since" in words and "2 phones at the table" in words
    assert f"{first} (since" in words and f"{second} (since" in words


def test_a_player_is_told_the_button_as_it_reads_on_a_live_table():
    table, party = joined("ash")
    assert "“Log and send to the GM”" in table.phones["ash"].message.text


def test_a_message_that_rewrites_a_logged_roll_is_refused_by_its_log_name():
    # Issue 23, item 4: live messages are links, and a logged entry's id means one content.
    import copy

    import rules
    from session.log import effects_of

    table, party = joined("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    roll(ash)
    table.run()
    logged = copy.deepcopy(gm.session["log"])
    assert len(logged) == 1
    forged = ash.replica.copy()
    entry = forged.log[logged[0]["id"]]
    record = {key: value for key, value in entry["record"].items() if key != "result"}
    record["player"] = {**record["player"], "name": "Mallory"}  # another roller, the same dice
    entry["record"] = rules.resolve(record)
    entry["effects"] = effects_of(entry["record"])
    sent = live_protocol.link(link_v2.roll_message(forged, entry["id"]))
    table.deliver("gm", "live-message", sent, peer=next(iter(gm.live.peers)))
    table.run()
    assert gm.session["log"] == logged
    assert gm.message.tone == "error" and "that is already logged: nothing was changed" in gm.message.text


# --- Catching up: what it reads -------------------------------------------------------------------

ENTRY = template_entry()  # a logged conflict, as log_conflict writes it
DEVICES = ["0000000a", "0000000b", "0000000c"]


def phone_with_log(session: dict, keys, keep: int | None = None):
    """A phone holding `session` with entries at these keys (its newest page in memory, as at
    start), all but the newest `keep` archived when given; its log store counts what it reads."""
    store = MemoryStore()
    LOGS[store] = CountingLog()
    replica = Replica.from_session(session)
    replica.log = {entry_id: {**ENTRY, "id": entry_id, "clock": clock, "device": device}
                   for clock, device, entry_id in keys}
    replica.clock = max([replica.clock, *(key[0] for key in keys)])
    replica.fresh, replica.counted = list(replica.log.values()), None
    shelf = library(store)
    shelf.keep_new_session(replica)
    shelf.save(replica)
    asyncio.run(shelf.flush())
    if keep is not None:
        asyncio.run(shelf.archive(replica, keep))
    state = start(store, "http://localhost:8000/")
    assert state.session["id"] == session["id"]
    return state


def held_keys(state) -> set:
    whole, _ = asyncio.run(state.library.everything(state.replica))
    return {entry_key(entry) for entry in whole.log.values()}


class CountingTable(Table):
    """A live table whose phones' log stores count what each message made them read (but the
    keys of the whole log, read once a page's life for its print: `session.logbook.Held`)."""

    def __init__(self, **phones):
        super().__init__(**phones)
        self.costs: list[tuple[str, dict, int]] = []  # (phone, message, entries read)

    def deliver(self, name: str, action: str, value: str | None = None, **data):
        log = self.phones[name].library.log
        before = log.reads - log.read_by["keys"]
        super().deliver(name, action, value, **data)
        if action == "live-message":
            self.costs.append((name, json.loads(value), log.reads - log.read_by["keys"] - before))


def most_read(message: dict) -> int:
    """What one message may make a phone read, however long its log: the walk's pages, down to
    MAX_DEPTH + PAGE entries a page at a time, and two lookups for each key, id or entry it
    carries (a link: CHUNK entries at most; a hello's link, LATEST)."""
    carried = len(message.get("keys", message.get("ids", [])))
    if message["k"] in (live_protocol.HELLO, live_protocol.LINK):
        carried = max(sync.CHUNK, link_v2.LATEST)
    return live_catchup.MAX_DEPTH + 2 * live_catchup.PAGE + 2 * carried


def caught_up(mine: set, theirs: set, hello: set = frozenset()) -> set:
    """What a phone holds after the walk: its own, the newest entries a hello brought (`hello`), and
    every entry of the other's it lacks, unless it kept none or its log was cut from the other's
    (joined later, archived: then only those from its oldest entry on)."""
    if not mine:
        return set(hello)
    start_key = min(mine)
    cut = start_key[2] in {key[2] for key in theirs}
    return mine | set(hello) | {key for key in theirs if not cut or key >= start_key}


def newest(keys: set, count: int = link_v2.LATEST) -> set:
    return set(sorted(keys, reverse=True)[:count])


@contextmanager
def walk_sizes(page: int, pages: int, depth: int):
    saved = live_catchup.PAGE, live_catchup.MAX_PAGES, live_catchup.MAX_DEPTH
    live_catchup.PAGE, live_catchup.MAX_PAGES, live_catchup.MAX_DEPTH = page, pages, depth
    try:
        yield
    finally:
        live_catchup.PAGE, live_catchup.MAX_PAGES, live_catchup.MAX_DEPTH = saved


def meet(gm_keys: set, player_keys: set, gm_keep=None, player_keep=None) -> tuple[CountingTable, set, set]:
    """The GM's phone and a player's holding one session with these logs (archived as given) meet on
    a live table by the two scans; the table and each phone's log before they met."""
    party = party_of_five()
    gm = phone_with_log(party, gm_keys, gm_keep)
    tap(gm, "role-pick", role="gm")
    table = CountingTable(gm=gm, ash=phone_with_log(party, player_keys, player_keep))
    before = held_keys(gm), held_keys(table.phones["ash"])
    table.join("gm", "ash")
    return table, *before


logs = st.dictionaries(st.integers(0, 500).map(lambda number: f"e{number}"),
                       st.tuples(st.integers(1, 40), st.sampled_from(DEVICES), st.sampled_from(["both", "gm", "player"])),
                       max_size=40)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(logs, st.integers(1, 4), st.one_of(st.none(), st.integers(1, 12)), st.one_of(st.none(), st.integers(1, 12)))
def test_after_catching_up_each_phone_holds_what_the_other_had_and_it_may_take(universe, page, gm_keep, player_keep):
    """Two phones with any logs (cut by an archive or not) meet: each gets what the other holds
    and it lacks, but older than where its log was cut, through the app's own walk, its pages of
    a few keys (many more pages than a table's) read from each phone's log store."""
    gm_keys = {(clock, device, entry_id) for entry_id, (clock, device, where) in universe.items() if where != "player"}
    player_keys = {(clock, device, entry_id) for entry_id, (clock, device, where) in universe.items() if where != "gm"}
    with walk_sizes(page, 1_000, live_catchup.MAX_DEPTH):
        table, gm_before, player_before = meet(gm_keys, player_keys, gm_keep, player_keep)
    gm, ash = table.phones["gm"], table.phones["ash"]
    assert held_keys(gm) == caught_up(gm_before, player_before)
    assert held_keys(ash) == caught_up(player_before, gm_before, newest(gm_before))


def hostile(draw, keys: list) -> str:
    """A `have` or a `want` a phone could send: any keys, of the other's log or not, any `to`."""
    made_up = [(clock, "0000000d", f"x{clock}") for clock in range(1, 600, 7)]
    pool = sorted(set(keys) | set(made_up))
    if draw(st.booleans()):
        ids = draw(st.lists(st.sampled_from(pool), max_size=live_protocol.PAGE))
        return live_protocol.write(live_protocol.WANT, ids=list(dict.fromkeys(key[2] for key in ids)))
    listed = sorted(set(draw(st.lists(st.sampled_from(pool), min_size=1, max_size=30))), reverse=True)
    to = draw(st.sampled_from([None] + [key for key in pool if key > listed[0]]))
    return live_protocol.have(to, listed, draw(st.booleans()), draw(st.sampled_from(["0" * 16, "f" * 16])))


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 400), st.integers(0, 4), st.integers(0, 4), st.one_of(st.none(), st.integers(10, 60)),
       st.data())
def test_each_message_of_a_walk_reads_what_it_asks_for_however_long_the_log(length, gm_own, player_own, keep, data):
    """However long the log, each message a phone answers (the walk's, and any `have` or `want`
    another phone could send) reads at most the walk's pages down to MAX_DEPTH + PAGE entries and a
    lookup per key or id it carries; each phone reads its log's keys once (its print). Phones away
    for a while (their new entries among the newest, the player's log cut by an archive or not)
    still end with what the other had and they may take."""
    base = {(clock, DEVICES[clock % 3], f"e{clock}") for clock in range(1, length + 1)}
    gm_keys = base | {(max(1, length - 2 + number), "0000000d", f"g{number}") for number in range(gm_own)}
    player_keys = base | {(max(1, length - 1 + number), "0000000e", f"p{number}") for number in range(player_own)}
    with walk_sizes(4, 5, 20):
        table, gm_before, player_before = meet(gm_keys, player_keys, player_keep=keep)
        gm, ash = table.phones["gm"], table.phones["ash"]
        assert held_keys(gm) == caught_up(gm_before, player_before)
        assert held_keys(ash) == caught_up(player_before, gm_before, newest(gm_before))
        peer = next(iter(gm.live.peers))
        for _ in range(data.draw(st.integers(1, 6))):
            table.deliver("gm", "live-message", hostile(data.draw, sorted(gm_keys)), peer=peer)
            table.deliver("ash", "live-message", hostile(data.draw, sorted(player_keys)), peer="gm")
            table.run()
        for name, message, read in table.costs:
            assert read <= most_read(message), (name, message["k"], read)
    assert all(phone.library.log.calls["keys"] <= 1 for phone in table.phones.values())
