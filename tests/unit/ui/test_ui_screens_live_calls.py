"""ui.screens.live.calls under CPython: a GM's call whose GM side settles on the GM's phone first, in
the seeds' order (issue 32: the called environment roll; issue 31, item 5: opposed rolls on the right
phones). The GM's phone rolls the Tension Pool and takes its boost or extra dice, an adversary's
attack, or an Anomaly defense; every called phone rolls against that one total, logs, and the
result reaches every phone; the GM's Tension is spent once."""
from __future__ import annotations

import json
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from session import model as session_model
from session.live import protocol as live_protocol
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.screens.live import actions as live_actions  # noqa: F401  (registers the live table's actions)
from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401  (registers Anomaly's taps)
from ui.systems.anomaly import draft as anomaly_draft
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the Tension Engine's)
from ui.systems.tension import draft as tension_draft

from live_table import Table
from reading import text
from samples import party, party_of_five
from tapping import phone, tap


def table_of(session: dict, *names: str) -> Table:
    """The GM's phone and a phone for each character named, joined live, each held by its character."""
    gm = phone(session)
    tap(gm, "role-pick", role="gm")
    table = Table(gm=gm)
    for name in names:
        table.add(name, phone())
        role = next(entry["id"] for entry in session["roster"] if entry["name"].lower().split()[0] == name)
        table.join("gm", name, role=role)
    table.run()
    return table


def gm_rolls(gm, faces: str, side: str = "gm", system: str = "tension"):
    """The GM's side as real dice typed in, so the test knows its faces."""
    tap(gm, f"{system}-mode", side=side, value="real")
    tap(gm, f"{system}-type-faces", side=side, value=faces)


def test_a_called_environment_roll_faces_one_gm_total_chosen_on_the_gms_phone():
    table = table_of(party_of_five(), "ash", "brin")
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    gm.screen = "live"
    tension = gm.session["tension"]  # 5: five dice
    gm_rolls(gm, "6 4 4 2 1")
    tap(gm, "tension-boost", side="gm")  # the GM's choice, before any player rolls (seed step 3)
    assert "Boost" in text(gm) and "Total 14" in text(gm)  # 6 + 4 + (5 - 1)
    tap(gm, "live-call-title", value="Pick the lock")
    tap(gm, "live-call")
    table.run()
    assert gm.session["tension"] == tension - 1  # the boost paid once, on the GM's phone
    assert gm.session["log"][0]["kind"] == "set-aside" and gm.session["log"][0]["record"]["gm"]["boost"] is True
    assert "6 + 4 + 4 boost = 14" in text(gm)  # the round says the GM's side
    for player in (ash, brin):
        draft = player.drafts["tension"]
        assert draft["gm"]["total"] == 14 and draft["gm"]["mode"] == "total" and draft["tension"] == tension
        assert "rolled on the GM's phone" in text(player) and "6 + 4 + 4 boost = 14" in text(player)
        tap(player, "tension-total", side="gm", value="2")  # a player can't change the GM's total
        assert player.message.tone == "error" and draft["gm"]["total"] == 14
        kept = tension_draft.check_draft(json.loads(json.dumps(draft)))  # as a reload reads it back
        assert kept["called"] == draft["called"]
    for player in (ash, brin):
        tap(player, "tension-roll", side="player")
        tap(player, "tension-log", then="show")
        table.run()
    records = [entry["record"] for entry in gm.session["log"][:2]]
    assert all(record["gm"] == {"name": "The GM", "dice_from": "total", "total": 14} for record in records)
    failures = sum(record["result"]["outcome"] == "failure" for record in records)
    ones = sum(record["result"]["ones"] for record in records)
    after = tension - 1 + failures + ones
    for state in (gm, ash, brin):  # every phone agrees, the boost counted once
        assert state.session["tension"] == after
        assert [entry["id"] for entry in state.session["log"][:3]] == [entry["id"] for entry in gm.session["log"][:3]]


def test_a_call_waits_for_the_tension_pool_and_refuses_a_choice_that_breaks_a_rule():
    table = table_of(party_of_five(), "ash")
    gm = table.phones["gm"]
    tap(gm, "live-call")
    assert gm.message.text.startswith("Roll the Tension Pool first") and not gm.live.calls
    gm_rolls(gm, "6 4 4 2 1")
    tap(gm, "tension-spend", side="gm", step="1")  # extra dice: 1 Tension
    tap(gm, "live-call")
    table.run()
    assert gm.session["tension"] == 4 and table.phones["ash"].drafts["tension"]["gm"]["total"] == 14


def test_an_attack_goes_to_the_defenders_phone_rolled_there_and_settled_on_every_phone():
    session = party()
    table = table_of(session, "ash")
    gm, ash = table.phones["gm"], table.phones["ash"]
    ghoul = next(entry for entry in session["roster"] if entry["name"] == "Ghoul")
    gm.screen = "live"
    tap(gm, "live-call-kind", value="opposed")
    tap(gm, "live-call-combat", checked=True)
    assert gm.drafts["tension"]["kind"] == "opposed"
    gm_rolls(gm, "6 6 5 1 1", side="initiator-0")  # the Ghoul's Power 5
    tap(gm, "live-call-title", value="The Ghoul lunges")
    tap(gm, "live-call")
    table.run()
    draft = ash.drafts["tension"]
    attacker, defender = draft["initiators"][0], draft["defender"]
    assert (ash.screen, draft["kind"], draft["combat"]) == ("conflict", "opposed", True)
    assert attacker["ref"] == ghoul["id"] and attacker["total"] == 12 and defender["ref"] == ash.role
    assert "The Ghoul lunges" in text(ash) and "Settled on the GM's phone: 6 + 6 = 12." in text(ash)
    for action, data in (("tension-add-initiator", {}), ("tension-combat", {"checked": False}),
                         ("tension-kind", {"value": "environment"})):  # the call is the GM's phone's
        tap(ash, action, **data)
        assert ash.message.tone == "error" and ash.drafts["tension"] is draft
    assert len(draft["initiators"]) == 1 and draft["combat"] is True
    tap(ash, "tension-mode", side="defender", value="real")
    tap(ash, "tension-type-faces", side="defender", value="5 3 2 2 2")  # Agility 3 + Climb 2
    tap(ash, "tension-log", then="show")
    table.run()
    entry = gm.session["log"][0]
    assert entry["record"]["initiators"][0]["total"] == 12 and entry["record"]["result"]["initiators"][0]["damage"] == 4
    health = next(item for item in gm.session["roster"] if item["id"] == ash.role)["health"]
    assert health == 6
    assert next(item for item in ash.session["roster"] if item["id"] == ash.role)["health"] == 6


def test_an_attack_goes_to_one_phone_only():
    table = table_of(party_of_five(), "ash", "brin")
    gm = table.phones["gm"]
    tap(gm, "live-call-kind", value="opposed")
    gm_rolls(gm, "6 4", side="initiator-0")
    tap(gm, "live-call")
    assert gm.message.text.startswith("An attack or a defense goes to one player's phone") and not gm.live.calls


def test_an_anomaly_defense_rolled_on_the_gms_phone_is_what_the_attacker_must_beat():
    session = party()
    table = table_of(session, "rook")
    gm, rook = table.phones["gm"], table.phones["rook"]
    gm.screen = "live"
    tap(gm, "live-call-system", value="anomaly")
    tap(gm, "live-call-kind", value="opposed")
    assert gm.system == "anomaly" and gm.drafts["anomaly"]["kind"] == "opposed"
    tap(gm, "anomaly-mode", side="defender", value="real")
    tap(gm, "anomaly-type-faces", side="defender", value="8")
    tap(gm, "live-call")
    table.run()
    draft = rook.drafts["anomaly"]
    assert (rook.system, draft["kind"], draft["defender"]["total"]) == ("anomaly", "opposed", 8)
    assert anomaly_draft.settled_by(draft, "defender") == "Settled on the GM's phone: 8."
    tap(rook, "anomaly-kind", value="check")  # the call's kind is the GM's phone's
    assert rook.message.tone == "error" and rook.drafts["anomaly"] is draft and draft["kind"] == "opposed"
    assert "Claws" not in text(rook) and "Total only, announced." in text(rook)
    tap(rook, "anomaly-mode", side="actor", value="real")
    tap(rook, "anomaly-type-faces", side="actor", value="9")
    tap(rook, "anomaly-log", then="show")
    table.run()
    record = gm.session["log"][0]["record"]
    assert record["defender"]["total"] == 8 and record["result"]["outcome"] == "success"
    assert gm.session["log"][1]["kind"] == "set-aside"  # the defense's die, in the GM's log


def test_a_called_anomaly_check_takes_a_difficulty_above_12():
    table = table_of(party(), "rook")
    gm, rook = table.phones["gm"], table.phones["rook"]
    tap(gm, "live-call-system", value="anomaly")
    tap(gm, "live-call-difficulty", value="15")
    tap(gm, "live-call")
    table.run()
    assert rook.drafts["anomaly"]["difficulty"] == 15 and "Difficulty 15" in text(rook)


def test_a_call_that_would_carry_a_side_wrongly_is_refused_as_damaged():
    base = {"live": live_protocol.VERSION, "k": "call", "id": "c1", "system": "tension", "kind": "opposed", "title": "x",
            "to": ["a1"], "gm": {"name": "Ghoul", "id": "", "total": 9, "tension": 5, "words": "5 + 4 = 9"}}
    assert live_protocol.read(json.dumps(base))["gm"]["total"] == 9
    for broken in ({"gm": None}, {"to": ["a1", "b2"]}, {"combat": "yes"}, {"system": "manners", "kind": "test"},
                   {"gm": {"name": "Ghoul", "total": 9}}, {"gm": {**base["gm"], "total": 10_000}}):
        try:
            live_protocol.read(json.dumps({**base, **broken}))
        except live_protocol.LiveMessageError:
            continue
        raise AssertionError(f"read {broken}")
    opposed_without_side = {key: value for key, value in base.items() if key != "gm"}
    try:
        live_protocol.read(json.dumps(opposed_without_side))
    except live_protocol.LiveMessageError:
        pass
    else:
        raise AssertionError("an opposed call without its settled side was read")


# --- The settle order: the same result as on one phone ------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(tension=st.integers(2, 8), data=st.data())
def test_a_gm_total_sent_as_a_call_resolves_as_the_gms_dice_on_one_phone(tension, data):
    """Whatever the GM rolls and chooses, a called player's record (the GM's side a total) has the
    outcome and the player's Tension changes that the same dice on one phone have, less the GM's
    spending, which the GM's phone applies once instead."""
    gm_dice = data.draw(st.lists(st.integers(1, 6), min_size=tension, max_size=tension))
    option = data.draw(st.sampled_from(["none", "boost", "extra"]))
    extra = data.draw(st.integers(1, max(1, min(tension - 2, tension - 2)))) if option == "extra" else 0
    if option == "boost" and tension < 3 or option == "extra" and tension - 2 < 1:
        option, extra = "none", 0
    player_dice = data.draw(st.lists(st.integers(1, 6), min_size=3, max_size=3))
    gm_side = {"name": "The GM", "dice": gm_dice, "boost": option == "boost", "extra": extra}
    settled = rules.tension_side(gm_side, "gm", tension)
    player = {"name": "Ash", "pool": 3, "dice": player_dice}
    one_phone = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": tension,
                               "gm": {**gm_side, "pool": tension}, "player": player})
    called = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": tension,
                            "gm": {"name": "The GM", "total": settled["total"]}, "player": player})
    assert called["result"]["outcome"] == one_phone["result"]["outcome"]
    assert called["result"]["gm_total"] == one_phone["result"]["gm_total"]
    spent = tension - settled["tension_after"]
    assert called["result"]["tension_after"] - spent == one_phone["result"]["tension_after"]


def test_every_gm_choice_on_every_small_pool_keeps_one_total_for_every_player():
    """Brute force, Tension 3: each of the GM's options on every roll of three dice gives the called
    players the total the rules settle, whichever player rolls first."""
    for gm_dice in itertools.product(range(1, 7), repeat=3):
        for boost, extra in ((False, 0), (True, 0), (False, 1)):
            settled = rules.tension_side({"name": "The GM", "dice": list(gm_dice), "boost": boost, "extra": extra},
                                         "gm", 3)
            totals = {rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 3,
                                     "gm": {"name": "The GM", "total": settled["total"]},
                                     "player": {"name": name, "pool": 2, "dice": [face, 7 - face]}}
                                    )["result"]["gm_total"] for name, face in (("Ash", 1), ("Brin", 6))}
            assert totals == {settled["total"]}


def test_the_gms_set_aside_tension_pool_names_its_call_in_the_log():
    table = table_of(party_of_five(), "ash")
    gm = table.phones["gm"]
    gm_rolls(gm, "6 4 4 2 1")
    tap(gm, "live-call-title", value="Pick the lock")
    tap(gm, "live-call")
    table.run()
    aside = gm.session["log"][0]
    assert aside["kind"] == "set-aside" and aside["call"] == "Pick the lock"
    assert session_model.check_log_entry(json.loads(json.dumps(aside)))["call"] == "Pick the lock"  # as read back
    gm.screen = "log"
    shown = text(gm).replace("\u2068", "").replace("\u2069", "")  # the title is isolated (FSI ... PDI)
    assert "Tension Pool for the call: Pick the lock. Each called phone rolls against its total." in shown


# --- Trying again under a call: a new Tension Pool rolled on the GM's phone (seed step 6, then 2-3) ---------

def called_and_failed(names=("ash", "brin")):
    """The GM calls Pick the lock (Tension Pool 6 4 4 2 1, boost: 14); every player logs a failure."""
    table = table_of(party_of_five(), *names)
    gm = table.phones["gm"]
    gm.screen = "live"
    gm_rolls(gm, "6 4 4 2 1")
    tap(gm, "tension-boost", side="gm")
    tap(gm, "live-call-title", value="Pick the lock")
    tap(gm, "live-call")
    table.run()
    for name in names:
        player = table.phones[name]
        tap(player, "tension-mode", side="player", value="real")
        faces = " ".join(["2"] * tension_draft.pool(player, player.drafts["tension"], player.drafts["tension"]["player"]))
        tap(player, "tension-type-faces", side="player", value=faces)  # 2 + 2 = 4: a failure against 14
        tap(player, "tension-log", then="show")
        table.run()
    return table


def test_try_again_on_a_called_roll_asks_the_gms_phone_for_a_new_tension_pool_under_the_same_call():
    table = called_and_failed()
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    call_id = ash.drafts["tension"]["called"]["id"]
    first = ash.drafts["tension"]["logged"]
    tap(ash, "tension-retry")
    table.run()
    assert ash.drafts["tension"]["logged"] == first  # the logged result stays, waiting: nothing rolls here
    assert "waiting for the GM's phone to roll the Tension Pool" in text(ash)
    assert "Try again" not in text(ash)
    tap(ash, "tension-retry")  # a second tap asks nothing more
    table.run()
    assert [text for _, _, text in table.sent].count(live_protocol.write(live_protocol.AGAIN, call=call_id)) == 1
    assert "asks to try again" in gm.message.text and gm.live.calls[call_id]["asks"] == [ash.role]
    assert "Ash Varga asks to try again" in text(gm) and "1 asking to try again" in text(gm)
    tap(gm, "live-call")  # no new call before the try again is answered
    assert gm.message.tone == "error" and len(gm.live.calls) == 1

    tension = gm.session["tension"]
    tap(gm, "live-again-prepare", role=ash.role)
    draft = gm.drafts["tension"]
    assert draft["retry"] is True and tension_draft.gm_pool(gm, draft) == tension + 1  # one more die
    tap(gm, "live-again-send", role=ash.role)
    assert gm.message.text.startswith("Roll the Tension Pool first")  # nothing goes before it rolls
    gm_rolls(gm, " ".join(["5"] * (tension + 1)))
    tap(gm, "tension-spend", side="gm", step="1")  # the GM's choice again: an extra die for 1 Tension
    tap(gm, "live-again-send", role=ash.role)
    table.run()
    assert gm.session["tension"] == tension - 1 and gm.session["log"][0]["kind"] == "set-aside"
    assert gm.live.calls[call_id]["asks"] == [] and ash.role not in gm.live.calls[call_id]["rolled"]
    again = ash.drafts["tension"]
    assert (again["retry"], again["gm"]["total"], again["called"]["id"]) == (True, 15, call_id)
    assert again["logged"] is None and "Trying again" in ash.announcement
    # one short note for the try again, not the older sentence about the call's Tension (issue 32)
    assert f"Trying again: the GM's phone rolled {tension + 1} dice (Tension {tension} + 1); " \
           f"Tension is now {tension - 1}." in text(ash)
    assert "rolled this call at Tension" not in text(ash) and "Tension +1 first" not in text(ash)
    assert brin.drafts["tension"]["logged"]["gm"]["total"] == 14  # Brin keeps the call's first total
    assert "still to roll, trying again against 15" in text(gm)

    tap(ash, "tension-mode", side="player", value="real")
    tap(ash, "tension-type-faces", side="player", value="6 6 6")
    tap(ash, "tension-log", then="show")
    table.run()
    record = gm.session["log"][0]["record"]
    assert record["retry"] is True and record["gm"]["total"] == 15 and record["result"]["outcome"] == "failure"
    assert gm.live.calls[call_id]["rolled"][ash.role] == gm.session["log"][0]["id"]
    assert "tried again" in text(gm) and "2 of 2 rolled" in text(gm)
    after = tension - 1 + 1 + 1  # the extra die, the try again's +1, the failure's +1 (no 1s rolled)
    for state in (gm, ash, brin):
        assert state.session["tension"] == after


def test_the_gm_may_say_no_and_an_ended_call_takes_no_try_again():
    table = called_and_failed()
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    tap(ash, "tension-retry")
    table.run()
    tap(gm, "live-again-no", role=ash.role)
    table.run()
    assert ash.message.text.startswith("The GM said no to trying again") and "Try again" in text(ash)
    assert ash.live.asked == ""
    tap(brin, "tension-retry")
    table.run()
    tap(gm, "live-call-end", id=next(iter(gm.live.calls)))
    table.run()
    assert brin.message.text.startswith("The GM's phone has closed that call") and brin.live.asked == ""
    tap(ash, "tension-retry")  # after the round ended: the GM's phone answers that the call is over
    table.run()
    assert ash.message.text.startswith("The GM's phone has closed that call")
    assert all(entry["kind"] != "set-aside" for entry in gm.session["log"][:1])  # no Tension Pool rolled


def test_try_again_with_no_live_gms_phone_says_so_and_changes_nothing():
    table = called_and_failed(("ash",))
    ash = table.phones["ash"]
    draft = ash.drafts["tension"]
    tap(ash, "tension-retry")  # asked, then the channel goes: the ask may be lost with it
    table.lose("ash")
    assert ash.live.asked == "" and "Try again" in text(ash)
    tap(ash, "tension-retry")
    assert ash.message.tone == "error" and "not live" in ash.message.text and ash.drafts["tension"] is draft


def test_a_try_again_message_is_bounded_and_checked():
    assert live_protocol.read(live_protocol.write(live_protocol.AGAIN, call="c1"))["answer"] == ""
    assert live_protocol.read(json.dumps({"live": live_protocol.VERSION, "k": "again", "call": "c1",
                                          "answer": "declined"}))["answer"] == "declined"
    call = {"live": live_protocol.VERSION, "k": "call", "id": "c1", "system": "tension", "kind": "environment",
            "title": "x", "to": ["a1"], "gm": {"name": "The GM", "id": "", "total": 9, "tension": 5, "words": "9"}}
    assert live_protocol.read(json.dumps({**call, "again": True}))["again"] is True
    assert live_protocol.read(json.dumps(call))["again"] is False
    opposed = {**call, "kind": "opposed"}
    for broken in ({"k": "again", "call": "c1", "answer": "maybe"}, {"k": "again", "call": "../x"},
                   {"k": "again", "call": "c1", "gm": 3}, {"k": "again"},
                   {**call, "again": False}, {**call, "again": 1}, {**opposed, "again": True},
                   {**{key: value for key, value in call.items() if key != "gm"}, "again": True}):
        try:
            live_protocol.read(json.dumps({"live": live_protocol.VERSION, **broken}))
        except live_protocol.LiveMessageError:
            continue
        raise AssertionError(f"read {broken}")
