"""Sealed cards between any two phones of a live table (issue 30, item 5): a sealed Test reaches a player
whichever system they joined in; a sealed Confrontation between two players' phones goes through the GM's
phone, which passes each step on (its own table untouched) and sees the result once both cards are down;
no link, QR code or "Open the link" words for steps that travel by themselves; a step switches no phone's
system; "on the other phone" only once that phone stored the step. Each phone restarts at the end."""
from __future__ import annotations

from session import check_roster_entry, new_session
from session.on_device import MemoryStore
from ui.core import commands
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.screens.log import actions as log_actions  # noqa: F401
from ui.systems.manners import across
from ui.systems.manners import actions as manners_actions  # noqa: F401

from live_table import Table, seal_for
from reading import markup, text
from tapping import phone, reload, tap
from test_ui_core_standbys import page_reloads

NAMES = ("Ash", "Brin")


def people() -> dict:
    """Two people with a sheet in each rule system, as a party typed once has them."""
    session = new_session("Friday", players=2)
    for who in NAMES:
        session["roster"] += [
            check_roster_entry({"system": "tension", "kind": "character", "name": who, "ap": 2, "health": 10,
                                "attributes": [{"name": "Wits", "rating": 2}], "skills": []}),
            check_roster_entry({"system": "anomaly", "kind": "character", "name": who, "modifiers": []}),
            check_roster_entry({"system": "manners", "kind": "character", "name": who,
                                "manners": {"Force": 3, "Speed": 2, "Precision": 2, "Imagination": 1},
                                "skills": [], "descriptors": []})]
    return session


def sheet_of(session: dict, who: str, system: str) -> str:
    return next(entry["id"] for entry in session["roster"] if entry["name"] == who and entry["system"] == system)


def live_table() -> tuple[Table, dict, dict]:
    """The GM's phone (in the Tension Engine) and Ash's and Brin's, who joined as their Tension Engine sheets."""
    session = people()
    stores = {name: MemoryStore() for name in ("gm", "ash", "brin")}
    gm = phone(session, store=stores["gm"])
    tap(gm, "role-pick", role="gm")
    table = Table(gm=gm, ash=phone(store=stores["ash"]), brin=phone(store=stores["brin"]))
    for name, who in (("ash", "Ash"), ("brin", "Brin")):
        table.join("gm", name, role=sheet_of(session, who, "tension"))
    return table, session, stores


def no_link_words(state):
    shown = text(state)
    assert "Open the link" not in shown and "link" not in shown.lower() and "QR code" not in shown
    assert 'data-testid="qr"' not in markup(state)


def test_a_sealed_test_reaches_a_player_who_joined_in_another_system_and_switches_nothing():
    table, session, stores = live_table()
    gm, ash = table.phones["gm"], table.phones["ash"]
    seal_for(gm, sheet_of(session, "Ash", "manners"), card="Time", difficulty=6)
    assert gm.message.text == across.WAITING.format(what="The GM's sealed card")
    table.run()
    assert not [kind for kind, _ in gm.commands if kind == commands.SHARE]  # it went live: no share sheet
    assert gm.message.text == across.THERE.format(what="The GM's sealed card")  # once Ash's phone stored it
    assert ash.system == "tension" and "A sealed card came in for you in Manner Cards" in ash.message.text
    tap(ash, "switch-system", system="manners")
    assert ash.drafts["manners"]["exchange"]["role"] == "player" and ash.drafts["manners"]["gm"]["difficulty"] == 6
    assert "Difficulty 6" in text(ash)
    no_link_words(ash)
    tap(ash, "manners-manner", side="player", value="Force")
    tap(ash, "manners-lock", side="player")
    tap(ash, "manners-seal-send")
    table.run()
    assert ash.message.text == across.THERE.format(what="The player's Manner")
    no_link_words(gm)
    tap(gm, "manners-seal-reveal")
    table.run()
    for state in (gm, ash):
        assert state.drafts["manners"]["revealed"]["complication"] == "Time"
        tap(state, "manners-log")
    table.run()
    conflict = gm.drafts["manners"]["exchange"]["id"]
    for name in ("gm", "ash"):
        assert reload(stores[name]).session["log"][0]["id"] == conflict


def ash_seals_against_brin(table: Table, session: dict):
    """Ash's phone starts a sealed Confrontation against Brin (both phones in Manner Cards) and seals Force."""
    ash, brin = table.phones["ash"], table.phones["brin"]
    for state in (ash, brin):
        tap(state, "switch-system", system="manners")
    tap(ash, "manners-kind", value="confrontation")
    tap(ash, "manners-who", side="opponent", value=sheet_of(session, "Brin", "manners"))
    tap(ash, "manners-manner", side="player", value="Force")
    tap(ash, "manners-seal-side", side="player")
    table.run()


def test_a_sealed_confrontation_between_two_players_phones_reveals_on_both_and_the_gms():
    table, session, stores = live_table()
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    gm_system = gm.system
    ash_seals_against_brin(table, session)
    assert gm.system == gm_system and gm.drafts.get("manners", {}).get("exchange") is None  # not taken over
    exchange = brin.drafts["manners"]["exchange"]
    assert exchange is not None and exchange["role"] == "opponent"
    assert brin.drafts["manners"]["player"]["ref"] == sheet_of(session, "Ash", "manners")
    assert brin.drafts["manners"]["opponent"]["ref"] == sheet_of(session, "Brin", "manners")
    assert ash.message.text == across.THERE.format(what="A sealed Manner")  # Brin's phone stored it
    no_link_words(brin)
    tap(brin, "manners-manner", side="opponent", value="Speed")
    tap(brin, "manners-seal-side", side="opponent")
    table.run()
    assert "Reveal" in text(ash) and "Reveal" in text(brin)
    tap(ash, "manners-seal-reveal")
    table.run()
    tap(brin, "manners-seal-reveal")
    table.run()
    results = [state.drafts["manners"]["revealed"] for state in (ash, brin)]
    assert results[0] is not None and results[0] == results[1]
    assert results[0]["player"]["manner"] == "Force" and results[0]["opponent"]["manner"] == "Speed"
    assert "both cards turned over" in gm.message.text
    for state in (ash, brin):
        tap(state, "manners-log")
    table.run()
    conflict = exchange["id"]
    for name in ("gm", "ash", "brin"):
        again = reload(stores[name])
        assert again.session["log"][0]["id"] == conflict, name


def test_steps_sent_again_after_a_reload_leave_the_other_phones_screen_and_table_as_they_are():
    """A phone that reloads sends its steps of the exchange on its table again (they travel until acknowledged,
    and a new page does not know they were): a phone that logged that exchange changes nothing, whatever it
    shows. Before, it was taken to the conflict: the Log opened after logging went away, and the GM's phone
    (keeping the steps itself while the other player's phone was not live) had its own table replaced."""
    table, session, stores = live_table()
    gm, ash, brin = (table.phones[name] for name in ("gm", "ash", "brin"))
    ash_seals_against_brin(table, session)
    tap(brin, "manners-manner", side="opponent", value="Speed")
    tap(brin, "manners-seal-side", side="opponent")
    table.run()
    for state in (ash, brin):
        tap(state, "manners-seal-reveal")
        table.run()
    for state in (ash, brin):
        tap(state, "manners-log")
    table.run()
    tap(ash, "show-screen", screen="log")
    said = ash.message
    sent = len(table.sent)
    brin = page_reloads(table, "brin")
    assert [text for who, to, text in table.sent[sent:] if (who, to) == ("gm", "ash") and '"C2.' in text]  # again
    assert ash.screen == "log" and ash.message == said
    assert brin.drafts["manners"]["logged"] and ash.drafts["manners"]["logged"]
    # With Ash's phone not live, the GM's phone keeps the steps itself: its own table stays its own.
    tap(gm, "show-screen", screen="log")
    gm_table = gm.drafts.get("manners")
    table.lose("ash")
    page_reloads(table, "brin")
    assert gm.screen == "log" and gm.drafts.get("manners") == gm_table
