"""A call whose called character rolls first on its own phone (issue 31, item 5): a Tension Engine
character's attack on an adversary, an Anomaly character's defense against one. The player's phone
rolls its side and sends it (the `side` message), the GM's phone rolls the adversary's side against
it and logs the conflict, and every phone ends with the same result, in the seeds' order (the
initiator first, the defender after, and the defender may still spend; an Anomaly defense first,
its total the attack's difficulty)."""
from __future__ import annotations

import json

import pytest

import rules
from session import MemoryStore, check_roster_entry
from ui.core import live_table
from session.live import protocol as live_protocol
from ui.screens.live import actions as live_actions  # noqa: F401  (registers the live table's actions)
from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401  (registers Anomaly's taps)
from ui.systems.anomaly import draft as anomaly_draft
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the Tension Engine's)
from ui.systems.tension import calls as tension_calls
from ui.systems.tension import draft as tension_draft

from reading import text
from samples import party
from tapping import phone, reload, tap
from test_ui_screens_live_calls import gm_rolls, table_of


def attack_called(session=None, combat=True, ash_store=None):
    """Ash's phone (on `ash_store`, if given, to reload it) called to attack the Ghoul, which the GM's
    phone will defend."""
    session = session or party()
    if ash_store is None:
        table = table_of(session, "ash")
    else:
        table = table_of(session)
        table.add("ash", phone(store=ash_store))
        table.join("gm", "ash", role=next(entry["id"] for entry in session["roster"] if entry["name"] == "Ash"))
    gm, ash = table.phones["gm"], table.phones["ash"]
    gm.screen = "live"
    tap(gm, "live-call-kind", value="attack")
    if combat:
        tap(gm, "live-call-combat", checked=True)
    tap(gm, "live-call-title", value="Ash strikes the Ghoul")
    tap(gm, "live-call")
    table.run()
    return table, gm, ash


def test_the_attacker_rolls_first_on_its_phone_and_the_gm_defends_against_it():
    table, gm, ash = attack_called()
    ghoul = next(entry for entry in gm.session["roster"] if entry["name"] == "Ghoul")
    call = next(iter(gm.live.calls.values()))
    assert call["kind"] == "attack" and call["foe"] == {"name": "Ghoul", "id": ghoul["id"]} and "gm" not in call
    draft = ash.drafts["tension"]
    assert (ash.screen, draft["kind"], draft["combat"]) == ("conflict", "opposed", True)
    assert draft["initiators"][0]["ref"] == ash.role and draft["defender"]["ref"] == ghoul["id"]
    assert "you roll first" in text(ash) and "rolls the defense" in text(ash)
    tap(ash, "tension-roll", side="defender")  # the defense is the GM's phone's
    assert ash.message.tone == "error" and not draft["defender"]["dice"]
    assert gm.drafts["tension"]["called"]["first"] == "there"
    tap(gm, "tension-roll", side="defender")  # and waits for the attack (the initiator rolls first)
    assert gm.message.tone == "error" and not gm.drafts["tension"]["defender"]["dice"]

    tap(ash, "tension-mode", side="initiator-0", value="real")
    tap(ash, "tension-type-faces", side="initiator-0", value="6 5 4 1 1")  # Agility 3 + Climb 2
    tap(ash, "tension-spend", side="initiator-0", step="1")  # one AP: 6 + 5 + 4
    assert "Send to the GM" in text(ash)
    tap(ash, "tension-send")
    assert draft["called"]["words"] == "6 + 5 + 4 = 15"
    tap(ash, "tension-spend", side="initiator-0", step="1")  # sent: settled
    assert ash.message.tone == "error" and draft["initiators"][0]["keep"] == [0, 1, 2]
    table.run()

    gm_draft = gm.drafts["tension"]
    assert (gm.screen, gm.system) == ("conflict", "tension")
    assert "the attack arrived (6 + 5 + 4 = 15)" in gm.message.text
    gm.screen = "live"
    assert "attacked (6 + 5 + 4 = 15): roll the defense" in text(gm)
    gm.screen = "conflict"
    assert gm_draft["initiators"][0]["dice"] == [6, 5, 4, 1, 1] and gm_draft["initiators"][0]["keep"] == [0, 1, 2]
    assert "Settled on Ash's phone: 6 + 5 + 4 = 15." in text(gm).replace("\u2068", "").replace("\u2069", "")
    tension = gm.session["tension"]
    gm_rolls(gm, "6 6 5 2 2", side="defender")  # the Ghoul's Power 5
    tap(gm, "tension-spend", side="defender", step="1")  # the defender may still spend: 6 + 6 + 5 = 17
    tap(gm, "tension-log")
    table.run()

    entry = gm.session["log"][0]
    record = entry["record"]
    assert entry["id"] == draft["called"]["entry"]  # logged under the id Ash's phone chose
    assert record["initiators"][0]["ap"] == 1 and record["defender"]["extra"] == 1
    assert record["result"]["initiators"][0]["outcome"] == "defender"
    assert gm.session["tension"] == tension - 1 + 2  # the GM's extra die, then Ash's two 1s
    for phone in (gm, ash):
        assert next(item for item in phone.session["roster"] if item["id"] == ash.role)["ap"] == 2
        assert phone.session["log"][0]["id"] == entry["id"] and phone.session["tension"] == gm.session["tension"]
    assert draft["logged"] == record and ash.drafts["tension"] is draft  # Ash's phone shows the result
    assert draft["defender"]["dice"] == [6, 6, 5, 2, 2] and "Result (logged)" in text(ash)
    assert "The GM's phone rolled its side" in ash.announcement
    gm.screen = "live"
    assert call["rolled"] == {ash.role: entry["id"]} and "1 of 1 rolled" in text(gm)


def test_the_call_form_names_the_called_attacker_from_the_moment_it_shows_the_attack():
    """Not "Player" until the call goes: the character of the one phone chosen, followed as the GM
    changes who rolls or a phone joins; a person with no sheet in the call's system by their name."""
    session = party()
    table = table_of(session, "ash")
    gm = table.phones["gm"]
    gm.screen = "live"
    tap(gm, "live-call-kind", value="attack")
    assert "Ash rolls first: the defender rolls once the initiators have." in text(gm)
    assert "Player rolls first" not in text(gm)
    table.add("rook", phone())  # Rook has an Anomaly sheet only
    table.join("gm", "rook", role=next(entry["id"] for entry in session["roster"] if entry["name"] == "Rook"))
    assert "The player rolls first" in text(gm)  # two phones called: no one attacker yet (the call refuses both)
    tap(gm, "live-call-who", role=table.phones["ash"].role, checked=False)
    assert "Rook rolls first: the defender rolls once the initiators have." in text(gm)
    tap(gm, "live-call")
    table.run()
    gm.screen = "conflict"
    assert "Waiting for Rook's attack from that phone" in text(gm)


def test_the_same_attack_on_one_phone_gives_the_same_result():
    """The two phones' conflict resolves as the same dice on one phone would."""
    table, gm, ash = attack_called()
    tap(ash, "tension-mode", side="initiator-0", value="real")
    tap(ash, "tension-type-faces", side="initiator-0", value="6 6 3 2 1")
    tap(ash, "tension-send")
    table.run()
    gm_rolls(gm, "4 3 2 2 1", side="defender")
    tap(gm, "tension-log")
    table.run()
    record = gm.session["log"][0]["record"]
    one_phone = rules.resolve({key: value for key, value in record.items() if key != "result"})
    assert record["result"] == one_phone["result"]
    assert record["result"]["initiators"][0]["damage"] == 12 - 7
    assert next(item for item in ash.session["roster"] if item["name"] == "Ghoul")["health"] == 10 - 5


def test_an_attack_sent_again_or_for_no_open_call_changes_nothing_on_the_gms_phone():
    table, gm, ash = attack_called()
    tap(ash, "tension-roll", side="initiator-0")
    tap(ash, "tension-send")
    tap(ash, "tension-send")  # "Send again": a phone that can't tell it arrived
    table.run()
    assert gm.message is None or gm.message.tone != "error"
    gm_rolls(gm, "6 6 6 6 6", side="defender")
    tap(gm, "tension-send")  # the GM's phone sends nothing
    tap(gm, "tension-log")
    tap(ash, "tension-send")
    table.run()
    conflicts = [entry for entry in gm.session["log"] if entry["kind"] == "conflict"]
    assert gm.session["log"][0]["kind"] == "conflict" and len(conflicts) == 1
    message = {**tension_calls.side_message(ash), "call": "cnotacall"}
    _, peer = table.channels[("ash", "gm")]
    table.deliver("gm", "live-message", live_protocol.write(live_protocol.SIDE, **message), peer=peer)
    table.run()
    assert gm.message.tone == "error" and "not open here" in gm.message.text


def test_a_side_too_big_or_malformed_is_refused_with_a_sentence():
    good = {"live": live_protocol.VERSION, "k": "side", "call": "c1", "entry": "e1", "name": "Ash", "id": "",
            "from": "app", "attribute": "Agility", "skill": "Climb", "dice": [6, 5, 1], "keep": [0, 1], "total": 11,
            "words": "6 + 5 = 11"}
    assert live_protocol.read(json.dumps(good))["dice"] == [6, 5, 1]
    for broken in ({"dice": [7]}, {"dice": []}, {"dice": [1] * 100}, {"keep": [0, 0]}, {"keep": [3]},
                   {"from": "total"}, {"total": 10_000}, {"call": "no spaces"}, {"name": "x" * 500}, {"words": 5}):
        with pytest.raises(live_protocol.LiveMessageError) as error:
            live_protocol.read(json.dumps({**good, **broken}))
        assert str(error.value)
    call = {"live": live_protocol.VERSION, "k": "call", "id": "c1", "system": "tension", "kind": "attack",
            "title": "x", "to": ["a1"], "foe": {"name": "Ghoul", "id": ""}}
    assert live_protocol.read(json.dumps(call))["foe"]["name"] == "Ghoul"
    for broken in ({"foe": None}, {"to": ["a1", "b2"]}, {"gm": {"name": "G", "id": "", "total": 1, "tension": 3,
                                                                "words": "1"}}, {"system": "anomaly"}):
        with pytest.raises(live_protocol.LiveMessageError):
            live_protocol.read(json.dumps({**call, **broken}))
    without_foe = {key: value for key, value in call.items() if key != "foe"}
    with pytest.raises(live_protocol.LiveMessageError):
        live_protocol.read(json.dumps(without_foe))


def test_a_reload_keeps_the_attack_sent_and_its_wait():
    table, gm, ash = attack_called()
    tap(ash, "tension-roll", side="initiator-0")
    tap(ash, "tension-send")
    table.run()
    for draft in (ash.drafts["tension"], gm.drafts["tension"]):
        kept = tension_draft.check_draft(json.loads(json.dumps(draft)))
        assert kept["called"] == draft["called"]


# --- Anomaly: a character's defense rolled first on its own phone --------------------------------------

def anomaly_party() -> dict:
    session = party()
    session["roster"].append(check_roster_entry({"system": "anomaly", "kind": "adversary", "name": "Wraith",
                                                 "modifiers": [{"name": "Claws", "kind": "Gear", "value": 2}]}))
    return session


def test_a_defense_rolls_first_on_the_defenders_phone_and_is_what_the_gms_attack_must_beat():
    table = table_of(anomaly_party(), "rook")
    gm, rook = table.phones["gm"], table.phones["rook"]
    wraith = next(entry for entry in gm.session["roster"] if entry["name"] == "Wraith")
    gm.screen = "live"
    tap(gm, "live-call-system", value="anomaly")
    tap(gm, "live-call-kind", value="defense")
    assert gm.drafts["anomaly"]["actor"]["ref"] == wraith["id"]
    tap(gm, "live-call-title", value="The Wraith strikes")
    tap(gm, "live-call")
    table.run()
    call = next(iter(gm.live.calls.values()))
    assert call["foe"] == {"name": "Wraith", "id": wraith["id"]}
    draft = rook.drafts["anomaly"]
    assert (rook.screen, rook.system, draft["kind"]) == ("conflict", "anomaly", "opposed")
    assert draft["defender"]["ref"] == rook.role and draft["actor"]["ref"] == wraith["id"]
    tap(rook, "anomaly-roll", side="actor")  # the attack is the GM's phone's
    assert rook.message.tone == "error" and not draft["actor"]["dice"]
    tap(gm, "anomaly-roll", side="actor")  # and waits for the defense
    assert gm.message.tone == "error" and not gm.drafts["anomaly"]["actor"]["dice"]

    tap(rook, "anomaly-mode", side="defender", value="real")
    tap(rook, "anomaly-type-faces", side="defender", value="7")
    assert "Send to the GM" in text(rook)
    tap(rook, "anomaly-send")
    assert draft["called"]["words"] == "7"
    table.run()
    gm_draft = gm.drafts["anomaly"]
    assert (gm.screen, gm.system) == ("conflict", "anomaly") and gm_draft["defender"]["total"] == 7
    gm.screen = "live"
    assert "defended (7): roll the attack" in text(gm)
    gm.screen = "conflict"
    tap(gm, "anomaly-mode", side="actor", value="real")
    tap(gm, "anomaly-type-faces", side="actor", value="8")
    tap(gm, "anomaly-log")
    logged_id = gm.session["log"][0]["id"]
    table.run()
    entry = next(item for item in gm.session["log"] if item["id"] == logged_id)
    assert entry["id"] == draft["called"]["entry"] and entry["record"]["defender"]["total"] == 7
    assert entry["record"]["defender"]["name"] == "Rook" and entry["record"]["defender"]["id"] == rook.role
    assert entry["record"]["result"]["outcome"] == "success" and entry["record"]["result"]["margin"] == 1
    assert draft["logged"] == entry["record"] and "Result (logged)" in text(rook)
    assert call["rolled"] == {rook.role: entry["id"]}
    table.run()
    set_aside = rook.session["log"][0]  # the defense's die: it went as a total, its die stays in the log
    assert set_aside["kind"] == "set-aside" and set_aside["record"]["defender"]["dice"] == [7]
    assert [item["id"] for item in gm.session["log"][:2]] == [set_aside["id"], entry["id"]]
    assert [item["id"] for item in rook.session["log"][:2]] == [set_aside["id"], entry["id"]]
    tap(rook, "anomaly-new")  # nothing on the table to set aside again
    assert rook.session["log"][0]["id"] == set_aside["id"]
    kept = anomaly_draft.check_draft(json.loads(json.dumps(draft)))  # as a reload reads it back
    assert kept["called"] == draft["called"]


def test_a_defense_side_may_come_as_a_total_and_a_tension_side_may_not():
    total_only = {"live": live_protocol.VERSION, "k": "side", "call": "c1", "entry": "e1", "name": "Rook", "id": "",
                  "total": -3, "words": "2 − 5 = −3"}
    assert live_protocol.read(json.dumps(total_only))["total"] == -3
    with pytest.raises(live_protocol.LiveMessageError):
        live_protocol.read(json.dumps({**total_only, "dice": [1, 2]}))  # dice without the rest of a Tension side


def test_an_attack_still_reaches_a_gms_phone_that_reloaded_while_it_waited():
    """Calls are not kept across a reload; the GM's conflict waiting for the attack is: it takes it."""
    table, gm, ash = attack_called()
    waiting = tension_draft.check_draft(json.loads(json.dumps(gm.drafts["tension"])))  # as a reload reads it back
    gm.live.calls.clear()
    gm.drafts["tension"] = waiting
    tap(ash, "tension-mode", side="initiator-0", value="real")
    tap(ash, "tension-type-faces", side="initiator-0", value="6 6 3 2 2")
    tap(ash, "tension-send")
    table.run()
    assert gm.drafts["tension"]["initiators"][0]["dice"] == [6, 6, 3, 2, 2] and "Ghoul's defense" in gm.message.text
    gm_rolls(gm, "3 2 2 1 1", side="defender")
    tap(gm, "tension-log")
    table.run()
    assert ash.drafts["tension"]["logged"] is not None and ash.session["log"][0]["id"] == gm.session["log"][0]["id"]
    assert next(iter(gm.live.calls.values()))["rolled"] == {ash.role: gm.session["log"][0]["id"]}


# --- A side rolled first waits to reach the GM's phone until that phone stored it -----------------------

def acks(table) -> list[str]:
    """Every entry id the GM's phone acknowledged, in order."""
    messages = [json.loads(sent) for _, _, sent in table.sent]
    return [entry_id for message in messages if message["k"] == "ack" for entry_id in message["ids"]]


def lost_peer(gm) -> str:
    return next(peer.id for peer in gm.live.peers.values() if peer.state == live_table.LOST)


def rolled_attack(ash):
    tap(ash, "tension-mode", side="initiator-0", value="real")
    tap(ash, "tension-type-faces", side="initiator-0", value="6 5 4 1 1")


def test_an_attack_is_on_the_gms_phone_only_once_that_phone_stored_it():
    table, gm, ash = attack_called()
    rolled_attack(ash)
    tap(ash, "tension-send")
    entry = ash.drafts["tension"]["called"]["entry"]
    assert ash.unconfirmed == [entry] and "Waiting to reach the GM's phone" in text(ash)
    assert "1 roll waiting to reach the GM" in text(ash)
    table.run()
    assert acks(table) == [entry] and ash.unconfirmed == []
    assert "On the GM's phone: 6 + 5 = 11. Waiting for the defense." in text(ash) and "Send again" not in text(ash)
    assert "Ghoul's defense" in gm.message.text


def test_an_attack_lost_on_a_dead_channel_and_kept_over_a_reload_is_sent_at_the_next_connection():
    store = MemoryStore()
    table, gm, ash = attack_called(ash_store=store)
    table.cut.add("ash")  # the channel died; neither phone knows yet
    rolled_attack(ash)
    tap(ash, "tension-send")
    table.run()
    assert not gm.drafts["tension"]["initiators"][0]["dice"] and "Waiting to reach the GM's phone" in text(ash)
    table.cut.clear()
    table.lose("ash")
    table.phones["ash"] = ash = reload(store)  # the player's phone reloads before the attack arrived
    assert ash.unconfirmed == [ash.drafts["tension"]["called"]["entry"]]
    assert "Waiting to reach the GM's phone" in text(ash)
    table.join("gm", "ash", peer=lost_peer(gm))  # the next connection: sent again, with no tap
    assert gm.drafts["tension"]["initiators"][0]["dice"] == [6, 5, 4, 1, 1] and "Ghoul's defense" in gm.message.text
    ash.screen = "conflict"  # (the join showed the Live table)
    assert ash.unconfirmed == [] and "On the GM's phone: 6 + 5 = 11." in text(ash)
    gm_rolls(gm, "3 2 2 1 1", side="defender")
    tap(gm, "tension-log")
    table.run()
    assert ash.drafts["tension"]["logged"] is not None
    assert [entry["kind"] for entry in gm.session["log"]] == ["conflict"]


def test_an_attack_sent_while_not_live_goes_at_the_next_connection():
    table, gm, ash = attack_called()
    table.lose("ash")
    rolled_attack(ash)
    tap(ash, "tension-send")
    assert ash.message.tone != "error" and "as soon as this phone is live again" in ash.message.text
    assert "Waiting to reach the GM's phone" in text(ash)
    table.join("gm", "ash", peer=lost_peer(gm))
    assert gm.drafts["tension"]["initiators"][0]["dice"] == [6, 5, 4, 1, 1] and ash.unconfirmed == []


def test_an_attack_whose_ack_was_lost_is_acknowledged_again_and_its_result_confirms_it_too():
    table, gm, ash = attack_called()
    rolled_attack(ash)
    tap(ash, "tension-send")
    table.run()
    entry = ash.drafts["tension"]["called"]["entry"]
    ash.unconfirmed = [entry]  # as if the ack had been lost
    table.lose("ash")
    table.join("gm", "ash", peer=lost_peer(gm))
    assert acks(table) == [entry, entry] and ash.unconfirmed == []
    ash.unconfirmed = [entry]
    table.cut.add("ash")
    gm_rolls(gm, "3 2 2 1 1", side="defender")
    tap(gm, "tension-log")
    table.run()
    table.cut.clear()
    table.lose("ash")
    table.join("gm", "ash", peer=lost_peer(gm))  # the result comes with the catch-up: it reached the GM
    assert ash.drafts["tension"]["logged"] is not None and ash.unconfirmed == []
    assert [entry["kind"] for entry in gm.session["log"]] == ["conflict"]


# --- "New conflict" on the GM's phone while a side is on its way -------------------------------------

def test_new_conflict_while_an_attack_is_on_its_way_says_so_and_keeps_waiting_until_tapped_again():
    table, gm, ash = attack_called()
    gm.screen = "conflict"
    assert "Ash's attack is still on its way to this phone" in text(gm)  # beside New conflict, before any tap
    waiting = json.dumps(gm.drafts["tension"])
    tap(gm, "tension-new")
    assert json.dumps(gm.drafts["tension"]) == waiting and "Tap it again to stop waiting" in gm.message.text
    gm.message = None  # a tap elsewhere, then New conflict again: it says so again
    tap(gm, "tension-new")
    assert json.dumps(gm.drafts["tension"]) == waiting
    rolled_attack(ash)  # the GM kept waiting: the attack arrives into its conflict
    tap(ash, "tension-send")
    table.run()
    assert gm.drafts["tension"]["initiators"][0]["dice"] == [6, 5, 4, 1, 1] and "Ghoul's defense" in gm.message.text
    assert "still on its way" not in text(gm)
    tap(gm, "tension-new")  # what arrived is on the table now: New conflict sets it aside, as any dice
    assert gm.drafts["tension"]["called"] is None


def test_new_conflict_tapped_twice_ends_the_round_and_a_late_attack_is_answered_with_the_rounds_end():
    table, gm, ash = attack_called()
    rolled_attack(ash)
    late = tension_calls.side_message(ash)
    tap(ash, "tension-send")  # lost on the way
    table.cut.add("ash")
    tap(gm, "tension-new")
    tap(gm, "tension-new")
    table.run()
    table.cut.clear()
    assert gm.drafts["tension"]["called"] is None and next(iter(gm.live.calls.values()))["ended"]
    _, peer = table.channels[("ash", "gm")]
    sent = len(table.sent)
    table.deliver("gm", "live-message", live_protocol.write(live_protocol.SIDE, **late), peer=peer)
    table.run()
    assert not gm.drafts["tension"]["initiators"][0]["dice"]  # refused: not used for the ended round
    assert ("gm", "ash", live_protocol.write(live_protocol.END, id=late["call"])) in table.sent[sent:]
    # The round's end was lost on the way: the GM's phone answers the refused attack with it, so Ash's
    # phone puts the attack away (set aside in its log) and sends it no more.
    assert not ash.unconfirmed and "The GM ended the round before your roll was used" in ash.message.text
    assert ash.drafts["tension"]["called"] is None and ash.session["log"][0]["kind"] == "set-aside"
    assert gm.session["log"][0]["id"] == ash.session["log"][0]["id"]  # the set-aside dice reach the GM's log


def test_a_round_ended_before_the_attack_was_used_puts_it_away_on_the_players_phone():
    table, gm, ash = attack_called()
    table.cut.add("ash")
    rolled_attack(ash)
    tap(ash, "tension-send")
    table.cut.clear()
    tap(gm, "tension-new")
    tap(gm, "tension-new")  # the GM stops waiting: the round ends, and Ash's phone hears it
    table.run()
    assert ash.live.calls == {} and ash.unconfirmed == [] and ash.drafts["tension"]["called"] is None
    assert "ended the round" in ash.message.text
    assert [entry["kind"] for entry in ash.session["log"]] == ["set-aside"]


def test_new_roll_while_an_anomaly_defense_is_on_its_way_says_so_first():
    table = table_of(anomaly_party(), "rook")
    gm = table.phones["gm"]
    gm.screen = "live"
    tap(gm, "live-call-system", value="anomaly")
    tap(gm, "live-call-kind", value="defense")
    tap(gm, "live-call-title", value="The Wraith strikes")
    tap(gm, "live-call")
    table.run()
    gm.screen = "conflict"
    tap(gm, "anomaly-new")
    assert gm.drafts["anomaly"]["called"]["first"] == "there"
    assert "defense is still on its way" in gm.message.text
    tap(gm, "anomaly-new")
    assert gm.drafts["anomaly"]["called"] is None


@pytest.mark.parametrize("kind", ["check", "defense"])
def test_an_anomaly_call_to_a_character_with_no_anomaly_sheet_names_them_on_their_card(kind):
    """Ash has only a Tension Engine sheet: called for an Anomaly roll, their card says "Ash" (their person's
    blank Anomaly sheet, which their phone adds), never the side's default name."""
    table = table_of(party(), "ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    gm.screen = "live"
    tap(gm, "live-call-system", value="anomaly")
    tap(gm, "live-call-kind", value=kind)
    tap(gm, "live-call-title", value="Ash acts")
    tap(gm, "live-call")
    table.run()
    draft = ash.drafts["anomaly"]
    role = "defender" if kind == "defense" else "actor"
    sheet = ash.entry(draft[role]["ref"])
    assert (sheet["name"], sheet["system"]) == ("Ash", "anomaly")
    assert anomaly_draft.roller_name(ash, draft[role], role) == "Ash"
    assert "Player" not in text(ash)
    if kind == "defense":  # no Anomaly adversary: the attack is a quick roll named for what it is
        call = next(iter(gm.live.calls.values()))
        assert call["foe"]["name"] == "The adversary"
        assert anomaly_draft.roller_name(gm, gm.drafts["anomaly"]["defender"], "defender") == "Ash"


@pytest.mark.parametrize("system, kind", [("tension", "attack"), ("manners", "test")])
def test_a_call_in_another_system_to_a_character_with_no_sheet_there_names_them_on_their_card(system, kind):
    """Rook has only an Anomaly sheet: called in the Tension Engine or Manner Cards, their side is their person's
    blank sheet there, under their name."""
    table = table_of(party(), "rook")
    gm, rook = table.phones["gm"], table.phones["rook"]
    gm.screen = "live"
    tap(gm, "live-call-system", value=system)
    tap(gm, "live-call-kind", value=kind)
    tap(gm, "live-call-title", value="Rook acts")
    tap(gm, "live-call")
    table.run()
    assert (rook.screen, rook.system) == ("conflict", system)
    draft = rook.drafts[system]
    sides = [side for side in [*draft.values(), *draft.get("initiators", [])] if isinstance(side, dict) and "ref" in side]
    sheets = [rook.entry(side["ref"]) for side in sides if side["ref"]]
    assert ("Rook", system) in [(sheet["name"], sheet["system"]) for sheet in sheets if sheet is not None]
    assert "Player" not in text(rook).replace("The player Rook", "")
