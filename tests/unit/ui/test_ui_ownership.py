"""Who may change what on a live table of phones (issue 30, item 3), through the taps and messages the
page uses: a player's phone changes its own character and undoes its own rolls at once; what else it
sends waits on the GM's phone for "Add" with every change listed (or is refused on other phones); the
GM's phone says who undid what and restores it; the GM's call and role are the GM's."""
from __future__ import annotations

import json
import re

from session.links.v2 import session_link
from session.live import protocol as live_protocol
from session.ownership import BEYOND_ROLLS
from ui import router
from ui.arrivals import owned  # noqa: F401  (registers Add, Leave out, Restore)
from ui.core.holding import NOT_YOURS
from ui.screens.log import actions as log_actions  # noqa: F401
from ui.screens.roster import actions as roster_actions  # noqa: F401
from ui.screens.session import actions as session_actions  # noqa: F401
from ui.screens.session.actions import NAME_NOT_YOURS
from ui.screens.frame import actions as frame_actions  # noqa: F401
from ui.systems.tension import actions as tension_actions  # noqa: F401

from live_table import Table
from reading import text
from samples import party_of_five, seen
from tapping import phone, stored, tap
from test_ui_core_outgoing import roll  # a player's Tension roll, logged and sent to the GM


def live_party():
    party = party_of_five()
    gm = phone(party)
    tap(gm, "role-pick", role="gm")
    table = Table(gm=gm, ash=phone(), bo=phone())
    table.join("gm", "ash", role=party["roster"][0]["id"])
    table.join("gm", "bo", role=party["roster"][1]["id"])
    return table, party


def forced(state, make):
    """A change made as an older or altered page would make it: past this phone's own refusal, sent live."""
    before = state.session
    state.session = make(before)
    state.replica.absorb(before, state.session, state.device)
    state.committed = state.session
    tap(state, "dismiss-message")  # any tap: what changed is sent


def test_the_gm_is_on_record_and_each_player_holds_their_character():
    table, party = live_party()
    gm, ash = table.phones["gm"], table.phones["ash"]
    assert gm.replica.gm[0] == gm.device and ash.replica.gm == gm.replica.gm
    assert {entry_id: sorted(devices) for entry_id, devices in gm.replica.holders.items()} == {
        party["roster"][0]["id"]: [ash.device], party["roster"][1]["id"]: [table.phones["bo"].device]}


def test_a_players_phone_refuses_in_a_sentence_every_change_it_does_not_own_and_sends_none():
    table, party = live_party()
    gm, ash = table.phones["gm"], table.phones["ash"]
    bo_id = party["roster"][1]["id"]
    sent = len(table.sent)
    tap(ash, "session-rename", id=ash.session["id"])
    tap(ash, "session-rename-text", value="Ash's game")
    tap(ash, "session-rename-save")
    table.run()
    assert ash.message.text.startswith(NOT_YOURS) and ash.session["name"] == "Friday at Kim's"
    tap(ash, "session-setting", setting="tension_explodes", checked=False)
    assert ash.message.text.startswith(NOT_YOURS) and ash.session["settings"]["tension_explodes"]
    tap(ash, "tension-step", step=3)
    assert ash.message.text.startswith(NOT_YOURS)
    tap(ash, "roster-edit", id=bo_id)
    tap(ash, "roster-delete")
    tap(ash, "roster-delete-confirmed")
    assert ash.message.text.startswith(NOT_YOURS) and any(entry["id"] == bo_id for entry in ash.session["roster"])
    table.run()
    assert all(json.loads(message)["k"] != "link" for _, _, message in table.sent[sent:])
    assert gm.session["name"] == "Friday at Kim's" and "held" not in gm.view


def test_a_players_own_sheet_and_roll_reach_every_phone_at_once():
    table, party = live_party()
    gm, ash, bo = (table.phones[name] for name in ("gm", "ash", "bo"))
    roll(ash)
    table.run()
    assert gm.session["log"][0]["phone"] == "Ash Varga" and bo.session["log"] == gm.session["log"]
    assert gm.session["tension"] == ash.session["tension"] == bo.session["tension"]
    assert "held" not in gm.view


def test_what_an_altered_phone_sends_waits_on_the_gms_phone_listed_and_add_makes_it_everyones():
    table, party = live_party()
    gm, ash, bo = (table.phones[name] for name in ("gm", "ash", "bo"))
    forced(ash, lambda s: {**s, "name": "Taken over", "tension": s["tension"] + 80,
                           "roster": [{**e, "name": "Bob"} if e["id"] == party["roster"][1]["id"] else e
                                      for e in s["roster"]]})
    table.run()
    [held] = gm.view["held"]
    assert [seen(line) for line in held["changes"]] == [
        "Ash Varga's phone: the session's name to “Taken over”", "Ash Varga's phone: rename Brin Olsen to “Bob”",
        "Ash Varga's phone: Tension +80, " + BEYOND_ROLLS]
    assert gm.session["name"] == bo.session["name"] == "Friday at Kim's"
    page = seen(text(gm))
    assert "A phone sent changes that are yours to make" in page and "rename Brin Olsen to “Bob”" in page
    tap(gm, "held-add", id=held["id"])
    table.run()
    assert gm.session["name"] == bo.session["name"] == "Taken over"
    assert gm.session["tension"] == bo.session["tension"] == 85
    assert gm.replica.fields["name"][2] == gm.device  # the GM's own change now: every phone keeps it


def test_leave_out_changes_nothing():
    table, party = live_party()
    gm, ash = table.phones["gm"], table.phones["ash"]
    forced(ash, lambda s: {**s, "name": "Taken over"})
    table.run()
    tap(gm, "held-leave", id=gm.view["held"][0]["id"])
    assert gm.session["name"] == "Friday at Kim's" and not gm.view["held"]


def test_undoing_someone_elses_roll_is_refused_on_the_players_phone_and_waits_on_the_gms():
    table, party = live_party()
    gm, ash, bo = (table.phones[name] for name in ("gm", "ash", "bo"))
    roll(bo)
    table.run()
    tap(ash, "log-undo")
    tap(ash, "log-undo-confirmed")  # Brin's roll, the newest: not Ash's to undo
    assert ash.message.text.startswith(NOT_YOURS) and len(ash.session["log"]) == 1
    forced(ash, lambda s: {**s, "log": s["log"][1:]})  # an altered page undoes it anyway
    table.run()
    assert len(gm.session["log"]) == 1
    assert seen(gm.view["held"][0]["changes"][0]).startswith("Ash Varga's phone: undid Brin Olsen's roll Brin Olsen 1")



def test_undoing_ones_own_roll_is_taken_at_once_and_said_to_the_gm_with_restore():
    table, party = live_party()
    gm, ash, bo = (table.phones[name] for name in ("gm", "ash", "bo"))
    roll(bo)
    table.run()
    before_ash = gm.session["tension"]
    roll(ash)
    table.run()
    tension = gm.session["tension"]  # the dice decide whether Ash's roll moved it
    tap(ash, "log-undo")
    tap(ash, "log-undo-confirmed")  # its own: at once
    table.run()
    assert len(gm.session["log"]) == 1 and gm.session["tension"] == before_ash
    [note] = gm.view["undos"]
    assert seen(note["words"]) == "Ash Varga undid Ash Varga's roll Ash Varga 1"
    assert "Restore" in text(gm)
    tap(gm, "undo-restore", id=note["id"])
    table.run()
    assert gm.session["tension"] == bo.session["tension"] == tension
    assert gm.session["log"][0]["phone"] == "GM" and len(bo.session["log"]) == 2


def test_a_players_phone_can_not_end_the_gms_call_nor_claim_the_gms_role_or_someone_elses():
    table, party = live_party()
    gm, ash = table.phones["gm"], table.phones["ash"]
    gm.live.calls["c1"] = {"id": "c1", "system": "tension", "to": [party["roster"][0]["id"]], "rolled": {}}
    peer = next(peer for peer in gm.live.peers.values() if peer.device == ash.device)
    table.deliver("gm", "live-message", live_protocol.write(live_protocol.END, id="c1"), peer=peer.id)
    assert "c1" in gm.live.calls
    table.deliver("gm", "live-message", live_protocol.write(live_protocol.WHO, role="gm", who=""), peer=peer.id)
    assert peer.role == "" and "GM's" in gm.message.text
    table.deliver("gm", "live-message", live_protocol.write(live_protocol.WHO, role=party["roster"][1]["id"],
                                                            who="Brin Olsen"), peer=peer.id)
    assert peer.role == "" and "another phone holds" in seen(gm.message.text)


def test_a_link_naming_another_gm_is_refused_with_a_sentence():
    table, party = live_party()
    ash = table.phones["ash"]
    other = phone(party_of_five())
    other.replica = ash.replica.copy()
    other.replica.gm = ["ffffffff", other.replica.clock + 1, "ffffffff"]
    other.replica.clock += 1
    fragment = session_link(other.replica)
    from tapping import open_link

    open_link(ash, fragment)
    assert "names another phone as the GM" in ash.message.text


def test_an_old_link_opened_on_the_gms_phone_asks_to_update_and_on_a_players_phone_is_refused():
    """A version-1 link carries no writer: what it shows is taken as a change the person on this phone
    chooses ("Update mine"), so it is judged as this phone's change, never as one forged in its name."""
    from session.links.v1 import encode_session
    from tapping import open_link

    table, party = live_party()
    gm, ash = table.phones["gm"], table.phones["ash"]
    shown = {**gm.session, "name": "Renamed by an old link", "tension": gm.session["tension"] + 2}
    open_link(gm, encode_session(shown))
    assert "Update this session?" in text(gm)
    tap(gm, "join-update")
    assert gm.session["name"] == "Renamed by an old link" and gm.session["tension"] == shown["tension"]
    name = ash.session["name"]
    open_link(ash, encode_session({**ash.session, "name": "Ash's old link"}))
    if ash.pending is not None:
        tap(ash, "join-update")
    assert ash.session["name"] == name and "GM's to change" in ash.message.text


def test_picking_ones_character_moves_no_clock_so_what_the_phone_logged_keeps_its_place():
    """The Log orders entries by clock across phones. A player's claim is stamped at the clock it has,
    not a new tick: with a tick, the player's next roll sat a clock later than before, level with a
    card the GM's phone logged after that player's lock, and the two changed places by device id."""
    from tapping import open_link

    party = party_of_five()
    gm = phone(party)
    ash = phone()
    open_link(ash, session_link(gm.replica))
    clock = ash.replica.clock
    tap(ash, "role-pick", role=party["roster"][0]["id"])
    assert ash.role == party["roster"][0]["id"] and ash.device in ash.replica.holders[party["roster"][0]["id"]]
    assert ash.replica.clock == clock


# --- A player's phone draws only what it may change (issue 30, item 3's leftovers) ----------------------

def actions_on(state, screen: str) -> set[str]:
    from reading import markup

    tap(state, "show-screen", screen=screen)
    return set(re.findall(r'data-action="([^"]+)"', markup(state)))


SESSION_CONTROLS = {"session-rename", "session-players", "session-setting"}


def test_a_players_phone_draws_no_control_of_the_session_and_reads_its_name_players_and_settings():
    table, party = live_party()
    gm, ash = table.phones["gm"], table.phones["ash"]
    assert not actions_on(ash, "session") & SESSION_CONTROLS
    page = seen(text(ash))
    assert "Friday at Kim's" in page and f"{ash.session['players']} players" in page
    assert "every 1 a character rolls adds 1 Tension; at each multiple of 10 the GM rolls on the Tension Table" in page
    assert "The GM changes these on the GM's phone." in page
    assert actions_on(gm, "session") >= SESSION_CONTROLS


def test_a_players_phone_adds_and_removes_no_one_and_does_not_rename_its_own_character():
    table, party = live_party()
    gm, ash = table.phones["gm"], table.phones["ash"]
    assert "roster-add" not in actions_on(ash, "roster")
    assert "The GM adds and removes people, on the GM's phone." in seen(text(ash))
    tap(ash, "roster-edit", id=ash.role)
    page = markup_of(ash)
    assert 'data-path="name"' not in page and "roster-delete" not in page and 'data-path="ap"' in page
    assert "Only the GM's phone renames or removes Ash Varga" in seen(text(ash))
    tap(ash, "sheet-set", path="ap", type="int", value="5")
    tap(ash, "roster-save")  # what it may change is still saved
    assert ash.entry(ash.role)["ap"] == 5 and ash.message.tone == "success"
    assert "roster-add" in actions_on(gm, "roster")
    tap(gm, "roster-edit", id=party["roster"][1]["id"])
    assert 'data-path="name"' in markup_of(gm) and "roster-delete" in markup_of(gm)


def test_undo_is_drawn_on_a_players_phone_for_its_own_newest_roll_only():
    table, party = live_party()
    gm, ash, bo = (table.phones[name] for name in ("gm", "ash", "bo"))
    roll(bo)
    table.run()
    assert "log-undo" not in actions_on(ash, "log")
    assert "only the GM's phone undoes it" in seen(text(ash))
    assert "log-undo" in actions_on(gm, "log")
    tap(ash, "log-undo-confirmed")  # a stray tap (an old page) is still refused in a sentence
    assert ash.message.text.startswith(NOT_YOURS) and len(ash.session["log"]) == 1
    roll(ash)
    table.run()
    assert "log-undo" in actions_on(ash, "log")
    assert "log-undo" not in actions_on(bo, "log")  # Ash's roll is the newest now: not Bo's to undo
    tap(ash, "show-screen", screen="log")
    tap(ash, "log-undo")
    tap(ash, "log-undo-confirmed")
    assert ash.message.tone == "success" and len(ash.session["log"]) == 1


def test_a_phone_used_alone_and_the_gms_draw_every_control_and_one_that_said_not_now_reads_them():
    alone = phone(party_of_five())
    roll(alone)
    for screen, wanted in (("session", SESSION_CONTROLS), ("roster", {"roster-add"}), ("log", {"log-undo"})):
        assert actions_on(alone, screen) >= wanted
    tap(alone, "show-screen", screen="conflict")
    assert "tension-step" in markup_of(alone)
    table, party = live_party()
    bystander = phone()
    from tapping import open_link

    open_link(bystander, session_link(table.phones["gm"].replica))
    tap(bystander, "role-later")  # "Not now": the GM on record is another phone, so nothing here is its to change
    assert not actions_on(bystander, "session") & SESSION_CONTROLS
    assert "roster-add" not in actions_on(bystander, "roster") and "roster-edit" not in actions_on(bystander, "roster")
    assert "tables-edit" not in actions_on(bystander, "tables")  # the lines are the session's, the GM's to write
    tap(bystander, "show-screen", screen="conflict")
    assert "tension-step" not in markup_of(bystander)
    assert {"tables-edit", "tables-roll"} <= actions_on(table.phones["gm"], "tables") & actions_on(alone, "tables")


def markup_of(state) -> str:
    from reading import markup

    return markup(state)


# --- A claim by link of someone another phone holds is said, and the rest of the link merges -----------

def test_a_claim_by_link_of_someone_another_phone_holds_is_said_and_the_rest_of_the_link_merges():
    from tapping import open_link

    table, party = live_party()
    gm = table.phones["gm"]
    ash_id = party["roster"][0]["id"]
    cy = phone()
    open_link(cy, session_link(gm.replica))
    tap(cy, "role-pick", role=ash_id)  # Ash is held by Ash's phone already
    roll(cy)  # this phone's own roll: the GM's phone takes it
    entry_id = cy.session["log"][0]["id"]
    open_link(gm, session_link(cy.replica))
    said = "A phone said it holds Ash Varga, whom another phone holds, so that was not taken."
    assert said in seen(gm.message.text)
    tap(gm, "join-update")
    assert said in seen(gm.message.text) and "Updated" in gm.message.text
    assert entry_id in gm.replica.log
    assert [device for device, record in gm.replica.holders[ash_id].items() if record[1] == gm.device] == [
        table.phones["ash"].device]
    open_link(gm, session_link(cy.replica))  # the same claim again: said once, when it first came
    assert "whom another phone holds" not in seen(gm.message.text)


def test_a_players_phone_draws_no_rename_for_a_session_it_plays_in_from_its_list_and_refuses_a_forced_one():
    table, party = live_party()
    gm, ash = table.phones["gm"], table.phones["ash"]
    played = ash.session["id"]
    tap(ash, "session-new")  # this phone's own session, open now: the played one is further down the list
    ash.screen = gm.screen = "session"
    assert ash.session["id"] != played and ash.library.has(played)
    assert 'data-action="session-rename"' not in dict(router.page(ash))["session-list"]
    tap(ash, "session-rename", id=played)
    assert ash.message.text == NAME_NOT_YOURS and "renaming" not in ash.view
    ash.view = {"renaming": played, "rename_text": "Ash's game"}  # a form left open by an older page
    tap(ash, "session-rename-save")
    assert ash.message.text == NAME_NOT_YOURS and stored(ash, played)["name"] == "Friday at Kim's"
    own = ash.session["id"]
    tap(ash, "session-open", id=played)
    ash.screen = "session"
    assert 'data-action="session-rename"' in dict(router.page(ash))["session-list"]  # its own session's, a phone alone
    tap(ash, "session-rename", id=own)
    tap(ash, "session-rename-text", value="Ash's notes")
    tap(ash, "session-rename-save")
    assert stored(ash, own)["name"] == "Ash's notes"


def test_the_gms_phone_renames_its_sessions_from_its_list():
    table, party = live_party()
    gm = table.phones["gm"]
    run = gm.session["id"]
    tap(gm, "session-new")
    gm.screen = "session"
    assert dict(router.page(gm))["session-list"].count('data-action="session-rename"') == 1
    tap(gm, "session-rename", id=run)
    tap(gm, "session-rename-text", value="Saturday at Kim's")
    tap(gm, "session-rename-save")
    assert stored(gm, run)["name"] == "Saturday at Kim's"


# --- Add of a count whose roll is still on its way (counted twice before `vouched`) ------------------

def test_adding_a_count_whose_earlier_roll_is_still_on_its_way_counts_that_roll_once_on_every_phone():
    """Ash's two rolls never reach the GM's phone live; a link brings the second alone, with Ash's
    Tension count after both. The first roll's move waits for Add; added, it stays Ash's (vouched for
    by the GM's phone), so the first roll, arriving later, moves nothing again, here or on Brin's phone."""
    from tapping import open_link

    table, party = live_party()
    gm, ash, bo = (table.phones[name] for name in ("gm", "ash", "bo"))
    table.cut = {"ash"}
    start = gm.session["tension"]
    rolled = []
    while len([entry for entry in rolled if any(effect["field"] == "tension" for effect in entry["effects"])]) < 2:
        roll(ash)
        rolled.append(ash.session["log"][0])
    table.run()
    assert gm.session["tension"] == start and ash.session["tension"] > start
    open_link(gm, session_link(ash.replica, entries=rolled[-1:]))
    tap(gm, "join-update")
    [held] = gm.view["held"]
    assert [seen(line).split(", ", 1)[-1] for line in held["changes"]] == [BEYOND_ROLLS]
    tap(gm, "held-add", id=held["id"])
    assert gm.session["tension"] == ash.session["tension"] and gm.device not in gm.replica.tension
    open_link(gm, session_link(ash.replica, entries=rolled[:-1]))  # the first roll, late
    tap(gm, "join-update")
    assert gm.session["tension"] == ash.session["tension"] and not gm.view.get("held")
    assert stored(gm, gm.session["id"])["tension"] == ash.session["tension"]
    open_link(bo, session_link(gm.replica))  # the GM's link on Brin's phone, then Ash's first roll there too
    tap(bo, "join-update")
    open_link(bo, session_link(ash.replica, entries=rolled[:-1]))
    tap(bo, "join-update")
    assert bo.session["tension"] == gm.session["tension"] == ash.session["tension"]
    assert len(bo.session["log"]) == len(gm.session["log"]) == len(ash.session["log"])
