"""ui.screens.live under CPython: phones of a live table (tests/unit/live_table.py plays static/live.js)
join with two scans, every roll and change reaches every phone through the links' own merge,
the GM takes rolls at once or on "Add", calls for rolls and sees the round, a phone that comes
back catches up without losing anything, and whatever another phone sends is bounded and
checked like a link."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session.links import v2 as link_v2
from session.live import protocol as live_protocol
from session.replica import Replica
from ui.core import commands
from ui.core import live_table
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.screens.live import actions as live_actions  # noqa: F401  (registers the live table's actions)
from ui.screens.session import scan as scan_actions  # noqa: F401  (registers "Scan a code")
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the Tension Engine's)

from hostile import any_unicode, nested_json
from live_table import Table, seal_for
from reading import markup, text
from samples import json_values, party_of_five
from tapping import open_link, phone, settle, tap


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


def called_roll(state, then: str = "show"):
    """A called player's roll: the GM's side came with the call, so only the player's dice are rolled."""
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
    tap(ash, "scan-found", value=table.code_on("gm"))  # the Session screen's scanner read it
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


def test_a_phone_nobody_named_yet_is_listed_as_a_phone():
    table, party = gm_table("ash")
    table.join("gm", "ash")  # Ash's phone has not said who holds it
    ash = table.phones["ash"]
    ash.screen = "live"
    assert "Live at this table with the GM's phone: a phone (since " in text(ash)  # not ": (since "


def test_an_answer_to_an_offer_the_gm_no_longer_waits_on_is_refused():
    table, _ = gm_table("ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    tap(gm, "live-connect")
    table.run()
    old = table.code_on("gm")
    tap(gm, "live-connect")  # a new code: the old offer is closed
    table.run()
    tap(ash, "scan-found", value=old)
    table.run()
    tap(gm, "live-scanned", value=table.code_on("ash"))
    table.run()
    assert gm.message.tone == "error" and "not waiting on" in gm.message.text
    assert not any(peer.state == live_table.OPEN for peer in gm.live.peers.values())
    assert not [kind for kind, _ in gm.commands if kind == commands.LIVE_ACCEPT]


def test_a_code_that_is_no_live_code_gets_a_sentence_and_changes_nothing():
    table, _ = gm_table("ash")
    ash = table.phones["ash"]
    for code in ("O1.", "O9.ABC", "X1.ABC", "O1." + "A" * 500):
        tap(ash, "scan-found", value=code)
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
    assert ash.live.peers["gm"].state == live_table.MAKING  # answering again, the newest offer read


def shared_text(state) -> dict:
    """What the last tap put on the share sheet (or the clipboard, where there is none)."""
    [(_, data)] = [item for item in state.commands if item[0] == commands.SHARE]
    state.commands = [item for item in state.commands if item[0] != commands.SHARE]
    return data


def test_a_phone_without_a_camera_joins_by_pasting_the_code_shared_as_text():
    """The GM's code is on screen as text too, with "Share the code" (the share sheet, or the
    clipboard): a phone whose camera can't start pastes it on the Session screen, and its answer
    goes back the same way to a GM's phone that pastes it."""
    table, party = gm_table("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    tap(gm, "live-connect")
    table.run()
    offer = table.code_on("gm")
    [showing] = gm.live.peers.values()
    assert 'id="live-offer-text"' in markup(gm) and offer in text(gm) and "No camera on that phone?" in text(gm)
    tap(gm, "live-share-code", peer=showing.id)
    shared = shared_text(gm)
    assert shared["text"] == offer and shared["url"] == "" and "“Or paste a link or code”" in shared["copied"]

    ash.screen = "session"
    tap(ash, "scan-start")
    tap(ash, "scan-failed", value="no-camera")  # static/scan.js: no camera on this phone
    assert ash.focus == "pasted-link" and "Or paste a link or code" in text(ash)
    tap(ash, "link-paste-text", value=shared["text"])
    tap(ash, "link-paste-open")
    table.run()
    answer = table.code_on("ash")
    assert ash.screen == "live" and answer in text(ash)
    tap(ash, "live-share-code", peer=live_table.GM_PEER)
    shared = shared_text(ash)
    assert shared["text"] == answer and "“Or paste its code”" in shared["copied"]

    tap(gm, "live-paste-text", value=shared["text"])
    tap(gm, "live-paste-open")
    table.run()
    tap(ash, "role-pick", role=role_of(party, names(party)[0]))
    table.run()
    assert showing.state == live_table.OPEN and ash.live.peers[live_table.GM_PEER].state == live_table.OPEN
    assert seen_table(gm) == seen_table(ash)


def test_sharing_a_code_no_longer_on_screen_does_nothing():
    table, _ = gm_table("ash")
    gm = table.phones["gm"]
    tap(gm, "live-connect")
    table.run()
    [showing] = gm.live.peers.values()
    tap(gm, "live-connect")  # a new code: the first is gone
    table.run()
    gm.commands.clear()
    tap(gm, "live-share-code", peer=showing.id)
    assert [item for item in gm.commands if item[0] == commands.SHARE] == []


def test_a_players_phone_says_where_it_stands_with_the_gms_and_a_join_that_stalls_says_so():
    table, party = gm_table("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    table.first_scan("gm", "ash")
    assert "Joining the live table…" in text(ash)
    [(_, _, offer)] = [wait for wait in table.waits if wait[0] == "ash"]
    tap(ash, "live-waited", value=str(offer), peer=live_table.GM_PEER)  # its code on screen, no channel yet
    assert ash.message.tone == "error" and "Has the GM's phone scanned this code?" in ash.message.text
    assert "Not live yet: has the GM's phone scanned this code?" in text(ash)
    tap(gm, "live-scanned", value=table.code_on("ash"))  # scanned late: it still joins
    table.run()
    tap(ash, "role-pick", role=role_of(party, names(party)[0]))
    table.run()
    assert "Live with the GM's phone" in text(ash)
    table.deliver("ash", "live-event", peer=live_table.GM_PEER, event="connecting", detail="interrupted")
    assert "Not live: reconnecting…" in text(ash)
    table.lose("ash")
    assert "Not live: ask the GM for a code" in text(ash)
    assert ash.message.tone == "error" and "ask the GM for a new code and scan it" in ash.message.text
    assert "make a new code for it" in gm.message.text  # the GM's phone, which makes codes


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
    tap(gm, "live-add-mode", value=live_table.ADD_ON_TAP)
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
    assert gm.add_rolls == live_table.ADD_ON_TAP  # the GM's choice, kept with this session's table


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
    assert gm.message.text.startswith("Roll the Tension Pool first") and not gm.live.calls  # the seeds' step 3
    tap(gm, "tension-roll", side="gm")
    tap(gm, "live-call")
    table.run()
    assert "0 of 2 rolled" in text(gm)
    for phone_state in (ash, brin):
        assert phone_state.screen == "conflict" and "The GM calls for your roll" in text(phone_state)
        assert "Climb the wall" in text(phone_state)
    called_roll(ash)
    table.run()
    words = text(gm).replace(" :", ":")
    assert "1 of 2 rolled" in words and f"{first}: rolled" in words and f"{second}: still to roll" in words
    assert "The GM calls for your roll" not in text(ash)
    called_roll(brin)
    table.run()
    assert "2 of 2 rolled" in text(gm)
    tap(gm, "live-call-end", id=next(iter(gm.live.calls)))
    table.run()
    assert brin.live.calls == {} and "ended" in text(gm)


def test_a_call_for_an_anomaly_check_opens_it_at_the_difficulty_set():
    from samples import party as mixed_party
    from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401

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
    assert "lost at" in text(gm) and ash.live.peers["gm"].state == live_table.LOST
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
    lost = next(peer.id for peer in gm.live.peers.values() if peer.state == live_table.LOST)
    table.join("gm", "ash", peer=lost)  # a new code for that phone: two scans again
    assert seen_table(gm) == seen_table(ash) == seen_table(brin)
    assert ash_entry in gm.replica.log and len(gm.session["log"]) == 5
    assert sum(peer.state == live_table.OPEN for peer in gm.live.peers.values()) == 2


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
    assert gm.live.peers[peer].state == live_table.SHOWING and table.code_on("gm", peer)
    table.join("gm", "ash", peer=peer)
    assert gm.live.peers[peer].state == live_table.OPEN


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
    "hello", "{}", '{"live": 2, "k": "link", "link": "S2.AAAA"}', '{"live": 9, "k": "call"}',
    json.dumps({"live": 2, "k": "call", "id": "c1", "system": "tension", "kind": "environment",
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
    table.first_scan("gm", "ash")
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
    assert gm.live is None and ash.live.peers["gm"].state == live_table.LOST
    assert open_link is not None and settle is not None and Replica is not None


def test_a_sealed_test_goes_between_the_two_phones_by_itself():
    from samples import party as mixed_party
    from ui.systems.manners import actions as manners_actions  # noqa: F401

    session = {**mixed_party(), "system": "manners"}
    table, party = gm_table("wren", party=session)
    table.join("gm", "wren", role=role_of(session, "Wren"))
    gm, wren = table.phones["gm"], table.phones["wren"]
    seal_for(gm, role_of(session, "Wren"))
    table.run()
    assert not [kind for kind, _ in gm.commands if kind == commands.SHARE]  # no share sheet: it went live
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
    lambda kind, data: json.dumps({"live": 2, "k": kind, **data}), st.sampled_from(sorted(live_protocol.FIELDS)),
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


# --- The GM's controls, on the GM's phone only -----------------------------------------------------

def test_a_players_phone_shows_no_call_round_or_way_rolls_are_taken_and_refuses_them():
    table, party = joined("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    gm.screen = ash.screen = "live"
    tap(gm, "tension-roll", side="gm")
    tap(gm, "live-call")
    table.run()
    for words in ("Call for a roll", "The round:", "Players' rolls", "goes in the log at once"):
        assert words in text(gm) and words not in text(ash)
    for action, data in [("live-add-mode", {"value": "wait"}), ("live-call-system", {"value": "anomaly"}),
                         ("live-call", {}), ("live-call-end", {"id": next(iter(gm.live.calls))})]:
        tap(ash, action, **data)
        assert ash.message.tone == "error" and "GM's phone" in ash.message.text
    assert ash.add_rolls == "at-once" and "call" not in ash.view and ash.live.hub is False
    assert ash.live.calls and not any(call.get("ended") for call in gm.live.calls.values())


def test_a_player_whose_phone_never_went_live_is_shown_the_way_to_join_not_the_gms_controls():
    gm = phone(party_of_five())
    tap(gm, "role-pick", role=gm.session["roster"][1]["id"])
    tap(gm, "live-open")
    assert "Join the GM's live table" in text(gm) and 'data-action="live-connect"' not in markup(gm)
    assert 'data-testid="live-call"' not in markup(gm)


# --- The screen is per phone -----------------------------------------------------------------------

def pressed_tab(state) -> str:
    [system] = re.findall(r'data-action="switch-system" data-system="(\w+)" aria-pressed="true"', markup(state))
    return system


def test_a_phones_rule_system_tab_moves_no_other_phone_even_after_a_rejoin():
    table, party = joined("ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    tap(brin, "switch-system", system="manners")  # a player's tab
    tap(ash, "show-screen", screen="log")
    table.run()
    assert brin.system == "manners" and ash.system == gm.system == "tension" and ash.screen == "log"
    assert gm.session["system"] == "tension"  # a player's tab is not the table's
    tap(gm, "switch-system", system="anomaly")  # the GM's tab: the GM's phone only
    table.run()
    assert gm.system == "anomaly" and ash.system == "tension" and brin.system == "manners"
    assert ash.session["system"] == brin.session["system"] == "anomaly"  # the default a joining phone opens on
    assert pressed_tab(ash) == "tension" and pressed_tab(gm) == "anomaly"
    tap(brin, "show-screen", screen="roster")
    table.lose("ash")
    lost = next(peer.id for peer in gm.live.peers.values() if peer.state == live_table.LOST)
    table.join("gm", "ash", peer=lost)  # a rejoin merges both ways (Ash's phone scans on its Live table screen)
    assert (gm.system, ash.system, brin.system) == ("anomaly", "tension", "manners")
    assert brin.screen == "roster" and pressed_tab(ash) == "tension" and pressed_tab(brin) == "manners"


def test_only_the_gms_call_opens_a_conflict_and_its_system_on_the_phones_called():
    table, party = joined("ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    tap(ash, "show-screen", screen="roster")
    tap(brin, "switch-system", system="manners")
    tap(brin, "show-screen", screen="log")
    tap(gm, "live-call-who", role=party["roster"][1]["id"], checked=False)  # Brin is left out
    tap(gm, "live-call-system", value="anomaly")
    tap(gm, "live-call")
    table.run()
    assert (ash.system, ash.screen) == ("anomaly", "conflict")
    assert (brin.system, brin.screen) == ("manners", "log")  # not called: where it was


def test_words_on_a_live_table_fit_who_holds_the_phone():
    """Issue 32: "Logged" goes with the next roll, no "Show to the GM" once the roll is on the GM's
    phone, a set-aside entry read as one, and the call form on the GM's tab."""
    from ui.screens.live import calls

    table, party = joined("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    roll(ash)
    table.run()
    assert ash.message.text == "Logged. It is on the GM's phone." and "Show to the GM" not in text(ash)
    tap(ash, "tension-new")
    tap(ash, "tension-roll", side="gm")
    assert ash.message is None  # it spoke of the last roll
    tap(gm, "tension-roll", side="gm")
    tap(gm, "tension-new")  # the GM's dice set aside: newest in every phone's log
    table.run()
    for state in (gm, ash):
        assert "Newest roll: Dice rolled and set aside, not resolved." in text(state)
    gm.screen = "live"
    assert calls.call_form(gm)["system"] == "tension"
    tap(gm, "switch-system", system="anomaly")
    assert calls.call_form(gm)["system"] == "anomaly"  # the form follows the GM's tab
    tap(gm, "live-call-system", value="manners")
    assert calls.call_form(gm)["system"] == "manners"  # a pick in the form stays while the tab does
