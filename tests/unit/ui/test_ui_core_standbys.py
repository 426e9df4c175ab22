"""ui.core.standbys under CPython (tests/unit/live_table.py plays static/live.js): once joined, each
phone holds standbys for the other and stores the other's as ways back; a phone that reloads
rejoins through them with no scan (the GM's phone rejoins every player's), with the one-scan code
where the browser refuses changed credentials, with a sentence within REJOIN_SECONDS when no way
back works; stored ways that are wrong get a sentence and nothing of the session is lost."""
from __future__ import annotations

import json

from session.live.standby import MUNGE, SCAN
from ui.core import live_table
from ui.core.standbys import REJOIN_SECONDS, SPARES, Held
from ui.screens.live import actions as live_actions  # noqa: F401  (registers the live table's actions)

from live_table import Table
from reading import text
from tapping import reload, tap
from test_ui_screens_live import joined, roll, seen_table


def ways_on(state, peer: str) -> list[str]:
    back = state.rejoin.peers.get(peer) if state.rejoin is not None else None
    return sorted(way.mode for way in back.ways) if back is not None else []


def page_reloads(table: Table, name: str):
    """The phone's page reloads: its channels end (the others see them closed) and it starts again."""
    for (phone, peer), (other, other_peer) in list(table.channels.items()):
        if phone == name:
            table.channels.pop((phone, peer))
            table.channels.pop((other, other_peer), None)
            table.deliver(other, "live-event", peer=other_peer, event="closed", detail="by-peer")
    table.standbys = {key: held for key, held in table.standbys.items() if held[0] != name}  # gone with its page
    table.phones[name] = again = reload(table.phones[name].library.store)
    tap(again, "live-rejoin")  # as the shell does at start when ways back are stored
    table.run()
    return again


def test_joined_phones_store_ways_back_both_ways_and_old_standbys_go_once_new_ones_are_armed():
    table, party = joined("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    ash_peer = next(iter(gm.live.peers))
    assert ways_on(ash, "gm") == [MUNGE, MUNGE, SCAN] and ways_on(gm, ash_peer) == [MUNGE, MUNGE, SCAN]
    assert all(held.armed for held in gm.live.peers[ash_peer].held.values())
    assert len(table.standbys) == 6  # three each way, every one armed (munge ones with their answer set)
    assert gm.rejoin.peers[ash_peer].role == party["roster"][0]["id"]  # who it is, said after its hello: kept too
    stored = json.loads(ash.library.store.items[f"tableside.table.{ash.session['id']}"])
    assert len(stored["rejoin"]["peers"]["gm"]["ways"]) == 3  # kept with the table in progress


def test_a_players_phone_that_reloads_is_live_again_with_no_scan_and_its_rolls_follow():
    table, party = joined("ash", "brin")
    roll(table.phones["ash"])
    table.run()
    ash = page_reloads(table, "ash")
    gm = table.phones["gm"]
    assert "Live with the GM's phone" in text(ash) and "again" in ash.message.text
    assert [(phone, quiet != "") for phone, _, _, quiet in table.rejoins] == [("ash", True)]  # no code, no scan
    assert sum(peer.state == live_table.OPEN for peer in gm.live.peers.values()) == 2
    assert ways_on(ash, "gm") == [MUNGE, MUNGE, SCAN]  # armed again on the new channel; the used one is gone
    roll(ash)
    table.run()
    assert seen_table(gm) == seen_table(ash) == seen_table(table.phones["brin"]) and len(gm.session["log"]) == 2
    assert "on the GM's phone" in ash.message.text


def test_the_gms_phone_that_reloads_rejoins_every_players_phone():
    table, party = joined("ash", "brin")
    gm = page_reloads(table, "gm")
    assert sorted(phone for phone, *_ in table.rejoins) == ["gm", "gm"]
    assert sum(peer.state == live_table.OPEN for peer in gm.live.peers.values()) == 2
    assert {peer.role for peer in gm.live.peers.values()} == {party["roster"][0]["id"], party["roster"][1]["id"]}
    for name in ("ash", "brin"):
        assert "Live with the GM's phone" in text(table.phones[name])
    roll(table.phones["brin"])
    table.run()
    assert seen_table(gm) == seen_table(table.phones["ash"]) == seen_table(table.phones["brin"])


def test_a_standby_that_gathered_no_address_or_failed_is_made_again_so_every_way_back_is_stored():
    """Under load a standby's gathering may find no address before live.js stops waiting, or the
    browser may fail to make it: another is made in its place, so the GM's phone that reloaded
    still stores three new ways back to each player, and the old ones go once those are armed."""
    table, party = joined("ash", "brin")
    gm = table.phones["gm"]
    before = {peer_id: {way.id for way in back.ways} for peer_id, back in gm.rejoin.peers.items()}
    table.standby_troubles = {"ash": ["no address"], "brin": ["fails", "no address"]}
    gm = page_reloads(table, "gm")
    assert table.standby_troubles == {"ash": [], "brin": []}  # every trouble was met
    for peer_id, back in gm.rejoin.peers.items():
        assert sorted(way.mode for way in back.ways) == [MUNGE, MUNGE, SCAN]
        assert not {way.id for way in back.ways} & before[peer_id]  # all new: the old ones were dropped
    for name in ("ash", "brin"):
        [peer] = table.phones[name].live.peers.values()
        assert len(peer.held) == 3 and all(held.armed for held in peer.held.values())


def test_a_phone_whose_standbys_never_find_an_address_stops_trying_and_keeps_its_old_ways_back():
    table, party = joined("ash")
    table.standby_troubles = {"ash": ["no address"] * 20}
    gm = page_reloads(table, "gm")
    [ash_peer] = gm.live.peers
    assert len(table.standby_troubles["ash"]) == 20 - 3 - SPARES  # the set, then SPARES more, then no more
    assert ways_on(gm, ash_peer) == [MUNGE, SCAN]  # the old ones not used: still ways back to Ash's page
    assert "Live with the GM's phone" in text(table.phones["ash"])


def test_standbys_left_by_channels_cut_while_arming_do_not_stop_the_next_set():
    """A channel cut while its set was being armed leaves standbys never armed (and a set partly armed):
    the next set's `keep`, or its drop, would then list more than MAX_WAYS ids, which no message may
    carry, and no way back would be stored again. The next set sends what was left as dropped first."""
    table, party = joined("ash", "brin")
    [peer] = table.phones["ash"].live.peers.values()
    for number in range(7):  # two sets cut short, one of them partly armed
        peer.held[1000 + number] = Held(MUNGE if number % 3 else SCAN, armed=number < 2)
    gm = page_reloads(table, "gm")
    [ash_peer] = [one for one in gm.live.peers.values() if one.role == party["roster"][0]["id"]]
    assert ways_on(gm, ash_peer.id) == [MUNGE, MUNGE, SCAN]
    assert len(peer.held) == 3 and all(held.armed for held in peer.held.values())


def test_where_the_browser_refuses_changed_credentials_the_rejoining_phone_shows_one_code():
    table, party = joined("ash")
    table.munge = False  # the probe: this browser refuses (Chromium's WebRTC-NoSdpMangleUfrag)
    ash = page_reloads(table, "ash")
    code = table.code_on("ash")
    assert code.startswith("J1.") and len(code) < 50 and "show the code below to the GM's phone" in text(ash)
    assert "Not live" in text(ash)
    tap(table.phones["gm"], "live-scanned", value=code)  # one scan (or paste) on the GM's phone
    table.run()
    assert "Live with the GM's phone" in text(ash)
    tap(table.phones["gm"], "live-scanned", value=code)  # the same code again: its standby is used
    assert "not waiting on" in table.phones["gm"].message.text


def test_a_quiet_rejoin_that_does_not_open_tries_the_next_way_then_says_so_within_seconds():
    """No way back answers (the GM's phone reloaded too, or left the Wi-Fi): the scan standby sat in the
    same gone page, so no one-scan code is shown, only what happened and what to do."""
    table, party = joined("ash")
    table.cut.add("ash")  # no route to the GM's phone any more
    before = len(table.waits)
    ash = page_reloads(table, "ash")
    assert [phone for phone, _, _ in table.waits[before:]] == ["ash"]
    tap(ash, "live-waited", value=str(table.waits[-1][2]), peer="gm")  # REJOIN_SECONDS later
    table.run()
    assert [phone for phone, _, _ in table.waits[before:]] == ["ash", "ash"] and REJOIN_SECONDS <= 3
    tap(ash, "live-waited", value=str(table.waits[-1][2]), peer="gm")
    table.run()
    assert ash.live.peers["gm"].state == live_table.FAILED and not ash.live.peers["gm"].code
    assert "restarted at about the same moment" in ash.message.text and "same Wi-Fi" not in ash.message.text
    assert "Scan the code shown on the GM's phone" in ash.message.text and "Not live: ask the GM for a code" in text(ash)
    assert len(table.rejoins) == 2  # the two quiet ways only: the scan one was not answered for nothing
    assert table.closed[-1] == ("ash", "gm")  # the last attempt too: its late failure says nothing more
    assert ways_on(ash, "gm") == []  # every way back was tried once: single-use


def test_two_phones_that_reload_together_each_say_so_and_join_again_with_two_scans():
    table, party = joined("ash")
    table.cut.update({"gm", "ash"})  # each one's ways back lead to the other's old page
    for name in ("gm", "ash"):
        page_reloads(table, name)
    gm, ash = table.phones["gm"], table.phones["ash"]
    for phone, peer in ((gm, next(iter(gm.live.peers))), (ash, "gm")):
        for _ in range(2):
            tap(phone, "live-waited", value=str(phone.live.peers[peer].offer_id), peer=peer)
            table.run()
        assert phone.live.peers[peer].state == live_table.FAILED and "restarted at about the same" in phone.message.text
    assert "“New code”" in gm.message.text and "'s phone seems" in gm.message.text and "New code" in text(gm)
    assert "The GM's phone seems to have restarted" in ash.message.text
    table.cut.clear()
    table.join("gm", "ash", peer=next(iter(gm.live.peers)))  # “New code” for it: the two scans, as before
    assert "Live with the GM's phone" in text(ash)


def test_a_one_scan_code_whose_standby_is_gone_is_taken_back_with_a_sentence_not_the_wi_fi_one():
    """Where the browser refuses changed credentials the code is shown; if the GM's phone reloaded too
    (its standby gone), that code's connection fails: it goes, and the phone says why."""
    table, party = joined("ash")
    table.munge = False
    ash = page_reloads(table, "ash")
    assert table.code_on("ash").startswith("J1.")
    tap(ash, "live-event", peer="gm", event="failed", detail="no-route")
    assert ash.live.peers["gm"].state == live_table.FAILED and not ash.live.peers["gm"].code
    assert "restarted at about the same moment" in ash.message.text and "same Wi-Fi" not in ash.message.text


def test_a_player_with_no_way_back_left_is_told_in_a_sentence_to_ask_for_a_code():
    table, party = joined("ash")
    ash = table.phones["ash"]
    ash.rejoin.peers["gm"].ways = [way for way in ash.rejoin.peers["gm"].ways if way.mode == MUNGE][:1]
    tap(ash, "tension-new")  # stored with the next change
    table.cut.add("ash")
    ash = page_reloads(table, "ash")
    tap(ash, "live-waited", value=str(table.waits[-1][2]), peer="gm")
    table.run()
    assert ash.message.tone == "error" and "can't rejoin it on its own" in ash.message.text
    assert "Scan the code shown on the GM's phone" in ash.message.text and "Not live: ask the GM for a code" in text(ash)


def test_stored_ways_that_are_wrong_get_a_sentence_and_nothing_of_the_session_is_lost():
    table, party = joined("ash")
    ash = table.phones["ash"]
    roll(ash)
    table.run()
    key = f"tableside.table.{ash.session['id']}"
    stored = json.loads(ash.library.store.items[key])
    stored["rejoin"]["peers"]["gm"]["ways"][0]["offer"] = "O1.DAMAGED"
    ash.library.store.items[key] = json.dumps(stored)
    before = seen_table(ash)
    again = reload(ash.library.store)
    tap(again, "live-rejoin")
    assert again.live is None and "could not be read" in again.message.text and "joins with a code" in again.message.text
    assert seen_table(again) == before and again.role == ash.role


def test_an_answer_the_gms_phone_does_not_reply_to_says_so_within_seconds_and_a_reply_says_nothing():
    from test_ui_screens_live import gm_table

    table, party = gm_table("ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    table.first_scan("gm", "ash")
    table.deliver("ash", "live-event", peer=live_table.GM_PEER, event="reached", detail="yes")
    assert ash.message is None and "Joining the live table…" in text(ash)
    table.deliver("ash", "live-event", peer=live_table.GM_PEER, event="reached", detail="no")  # live.js: 4 s of checks
    assert ash.message.tone == "error" and "does not answer this code" in ash.message.text
    assert "Not live: ask the GM for a new code" in text(ash)
    tap(gm, "live-scanned", value=table.code_on("ash"))  # and should it connect after all, it joins
    table.run()
    assert "Live with the GM's phone" in text(ash)


def test_a_reloaded_phone_says_waiting_only_for_the_rolls_the_gms_phone_has_not_stored():
    """After a reload, before it is live again, a player's phone counts as waiting only the rolls the GM's
    phone has not acknowledged (kept with its table in progress), not every roll it holds; a roll logged
    then is waiting, and goes at the next channel."""
    table, party = joined("ash")
    roll(table.phones["ash"])
    table.run()
    assert table.phones["ash"].unconfirmed == []
    for (phone, peer) in [key for key in table.channels if "ash" in (key[0], table.channels[key][0])]:
        table.channels.pop((phone, peer), None)  # the page goes before it can rejoin
    table.phones["ash"] = again = reload(table.phones["ash"].library.store)
    tap(again, "live-rejoin")  # rejoining: not live yet
    assert again.unconfirmed == [] and "waiting to reach the GM" not in text(again)
    roll(again)
    waiting = again.session["log"][0]["id"]
    assert again.unconfirmed == [waiting] and "1 roll waiting to reach the GM" in text(again)
    table.run()
    assert again.unconfirmed == [] and waiting in {entry["id"] for entry in table.phones["gm"].session["log"]}


def test_a_rejoin_given_up_just_as_it_opens_is_not_taken_for_the_next_one():
    """Under load the GM's phone can give up on a quiet way back (REJOIN_SECONDS) just as its channel
    opens. That attempt is closed at once, so its late open is not taken for the next attempt's: were it,
    the GM's phone would think the player live while live.js replaced that channel, and the next way
    failing would read as a lost connection instead of saying what to do (or showing a one-scan code)."""
    table, party = joined("ash")
    expected, table.expected = table.expected, {}  # the player's standbys do not answer in time
    gm = page_reloads(table, "gm")
    [(_, ash_peer, first, _)] = table.rejoins
    tap(gm, "live-waited", value=str(first), peer=ash_peer)  # REJOIN_SECONDS later: the next way back
    table.expected = expected
    table.late_open("gm", ash_peer, first)  # it comes after the give-up, before live.js began the next
    assert gm.live.peers[ash_peer].state == live_table.CONNECTING and gm.live.peers[ash_peer].rejoining
    table.expected = {}  # the next quiet way does not open either: its connection fails
    table.run()
    tap(gm, "live-event", peer=ash_peer, event="failed", detail="no-route")
    table.run()
    assert gm.live.peers[ash_peer].state == live_table.FAILED  # not LOST: it was never live again
    assert "can't rejoin it on its own" in gm.message.text and len(table.rejoins) == 2  # as when neither opened
