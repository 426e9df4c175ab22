"""ui.core.outgoing under CPython, through the app's live table (tests/unit/live_table.py plays
static/live.js): a player's roll is "on the GM's phone" only once the GM's phone says it stored it
(an `ack`, sent once its log store holds it); until then it is on its way, and it is sent again on
every new channel, whatever the GM's log holds, after a reload of the player's phone too."""
from __future__ import annotations

import json

from session import MemoryStore
from ui.core import live_table
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.screens.live import actions as live_actions  # noqa: F401  (registers the live table's actions)
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the Tension Engine's)

from live_table import Table
from reading import text
from samples import party_of_five
from tapping import phone, reload, stored, tap

WAITING = "1 roll waiting to reach the GM"


def table_of(ash_store=None) -> tuple[Table, dict]:
    """The GM's phone with the party's session (its log empty) and Ash's phone joined."""
    party = party_of_five()
    gm = phone(party)
    tap(gm, "role-pick", role="gm")
    table = Table(gm=gm, ash=phone(store=ash_store))
    table.join("gm", "ash", role=party["roster"][0]["id"])
    return table, party


def roll(state) -> str:
    """A player's Tension roll logged and sent to the GM ("Log and send to the GM"); its entry id."""
    if (state.drafts.get("tension") or {}).get("logged") is not None:
        tap(state, "tension-new")
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-roll", side="player")
    tap(state, "tension-log", then="show")
    return state.session["log"][0]["id"]


def acks(table: Table) -> list[list[str]]:
    return [json.loads(sent)["ids"] for _, _, sent in table.sent if json.loads(sent)["k"] == "ack"]


def lost_peer(gm) -> str:
    return next(peer.id for peer in gm.live.peers.values() if peer.state == live_table.LOST)


def test_a_roll_is_on_the_gms_phone_once_the_gm_has_stored_it():
    table, party = table_of()
    gm, ash = table.phones["gm"], table.phones["ash"]
    entry_id = roll(ash)
    assert ash.message.text == live_table.ON_ITS_WAY and ash.unconfirmed == [entry_id]
    assert WAITING in text(ash)
    table.run()
    assert acks(table) == [[entry_id]]
    assert entry_id in {entry["id"] for entry in stored(gm, party["id"])["log"]}  # in its log store
    assert ash.message.text == live_table.ON_THE_GMS_PHONE and ash.message.tone == "success"
    assert ash.unconfirmed == [] and WAITING not in text(ash)


def test_the_gms_phone_says_nothing_of_a_roll_its_log_store_refused():
    table, party = table_of()
    gm, ash = table.phones["gm"], table.phones["ash"]
    log = gm.library.log
    refuse = log.append

    async def full(records):
        raise RuntimeError("QuotaExceededError")

    log.append = full
    entry_id = roll(ash)
    table.run()
    assert entry_id in {entry["id"] for entry in gm.session["log"]}  # on its screen, not in its store
    assert acks(table) == [] and ash.unconfirmed == [entry_id] and ash.message.text == live_table.ON_ITS_WAY
    log.append = refuse
    roll(ash)  # the next save writes both
    table.run()
    assert ash.unconfirmed == [] and sorted(sum(acks(table), [])) == sorted([entry_id, ash.session["log"][0]["id"]])


def test_a_roll_lost_on_a_dead_channel_reaches_a_gm_whose_log_was_empty_at_the_next_connection():
    """The first roll of a fresh session, sent while the channel was already dead (the phones did not
    know yet): the GM's log is empty, so catching up alone would never send it; it is sent again."""
    table, party = table_of()
    gm, ash = table.phones["gm"], table.phones["ash"]
    assert gm.session["log"] == []
    table.cut.add("ash")  # messages to and from Ash's phone are lost from now on
    entry_id = roll(ash)
    table.run()
    assert gm.session["log"] == [] and ash.unconfirmed == [entry_id] and ash.message.text == live_table.ON_ITS_WAY
    table.cut.clear()
    table.lose("ash")
    table.join("gm", "ash", peer=lost_peer(gm))
    assert [entry["id"] for entry in gm.session["log"]] == [entry_id]
    assert ash.unconfirmed == [] and WAITING not in text(ash)


def test_rolls_logged_while_not_live_and_kept_over_a_reload_are_sent_at_the_next_connection():
    store = MemoryStore()
    table, party = table_of(store)
    gm = table.phones["gm"]
    table.lose("ash")
    first = roll(table.phones["ash"])  # not live: shown as a QR code, and kept to send
    tap(table.phones["ash"], "roll-show-done")
    second = roll(table.phones["ash"])
    assert table.phones["ash"].unconfirmed == [first, second]
    table.phones["ash"] = again = reload(store)
    assert again.unconfirmed == [first, second] and gm.session["log"] == []
    table.join("gm", "ash", peer=lost_peer(gm))
    assert {entry["id"] for entry in gm.session["log"]} == {first, second}
    assert again.unconfirmed == [] and sorted(sum(acks(table), [])) == sorted([first, second])


def test_a_roll_the_gm_already_holds_is_acknowledged_when_sent_again():
    """The GM's phone stored the roll but its ack never arrived: sent again, it is acknowledged."""
    table, party = table_of()
    gm, ash = table.phones["gm"], table.phones["ash"]
    entry_id = roll(ash)
    table.run()
    ash.unconfirmed = [entry_id]  # as if the ack had been lost
    table.lose("ash")
    table.join("gm", "ash", peer=lost_peer(gm))
    assert acks(table) == [[entry_id], [entry_id]] and ash.unconfirmed == []
    assert [entry["id"] for entry in gm.session["log"]] == [entry_id]
