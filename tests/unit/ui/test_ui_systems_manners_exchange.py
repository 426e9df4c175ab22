"""A sealed Manner Cards exchange bound to its seal, as the phones play it (issue 23 item 6): the GM
who logs another card after the lock, or leaves the sealed conflict and logs an open Test instead, is
flagged on the player's phone, after a reload too; a lock from a second character's phone never
counts; a copy of the GM's seal in another session never makes the GM's phone reveal; the Log says
"Sealed and checked" of a genuine result."""
import re

import rules
from session import check_roster_entry, log_conflict, new_session
from session.links.v2 import sealed_message, session_link
from session.on_device import MemoryStore
from session.sealed import exchange as sealed_exchange
from ui import router
from ui.core.state import AppState
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the actions)
from ui.screens.log import actions as log_actions  # noqa: F401
from ui.systems.manners import actions as manners_actions  # noqa: F401
from ui.systems.manners import draft as draft_model
from ui.systems.manners import exchange as exchange_model

from samples import seen
from tapping import open_link, phone, reload, tap


def sheet(name: str) -> dict:
    return check_roster_entry({"system": "manners", "kind": "character", "name": name,
                               "manners": {"Determination": 1, "Force": 3, "Speed": 2, "Precision": 2,
                                           "Imagination": 1}, "skills": [], "descriptors": []})


WREN, ASH = sheet("Wren"), sheet("Ash")


def table() -> dict:
    session = new_session(system="manners")
    session["roster"] = [WREN, ASH]
    return session


def draft_of(state) -> dict:
    return state.draft(draft_model.new_draft)


def text_of(state) -> str:
    markup = "".join(markup for _, markup in router.page(state))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", seen(markup)))


def carry(source, to):
    """`source`'s newest sealed-card link, opened on `to`."""
    open_link(to, exchange_model.link(source, draft_of(source)["exchange"]).split("#", 1)[1])


def update(state, replica):
    """A session link of `replica` opened on `state` and its update taken."""
    open_link(state, session_link(replica))
    tap(state, "join-update")


def log_text(state) -> str:
    tap(state, "show-screen", screen="log")
    shown = text_of(state)
    tap(state, "show-screen", screen="conflict")
    return shown


def sealed_and_locked(session=None):
    """The GM's phone sealed Hostility (difficulty 5) for Wren; Wren's phone locked Force and sent it."""
    session = session or table()
    gm, player = phone(session, store=MemoryStore()), phone(session, store=MemoryStore())
    tap(player, "manners-who", side="player", value=WREN["id"])
    seal_and_lock(gm, player)
    return gm, player


def seal_and_lock(gm, player):
    """The GM's phone seals Hostility (difficulty 5) for Wren; Wren's phone locks Force and sends it."""
    tap(gm, "manners-who", side="player", value=WREN["id"])
    tap(gm, "manners-gm-mode", value="says")
    tap(gm, "manners-difficulty", value=5)
    tap(gm, "manners-seal-pick", value="Hostility")
    tap(gm, "manners-seal-share")
    carry(gm, player)
    tap(player, "manners-manner", side="player", value="Force")
    tap(player, "manners-lock", side="player")
    tap(player, "manners-seal-send")
    carry(player, gm)


def test_a_genuine_sealed_result_is_sealed_and_checked_in_the_log_of_both_phones():
    gm, player = sealed_and_locked()
    tap(gm, "manners-seal-reveal")
    carry(gm, player)
    for state in (gm, player):
        tap(state, "manners-log")
    update(player, gm.replica)
    for state in (gm, player):
        shown = log_text(state)
        assert "Sealed and checked" in shown and "Flagged" not in shown


def another_card_logged(gm) -> str:
    """The GM's phone logs Time under the sealed conflict's id after the lock (no honest screen does);
    the conflict's id."""
    conflict = draft_of(gm)["exchange"]["id"]
    lock = exchange_model.standing(gm, draft_of(gm)["exchange"]).locked
    before = gm.session
    forged = rules.resolve({"v": 1, "system": "manners", "kind": "test", "player": lock, "difficulty": 5,
                            "complication": "Time"}, source=rules.NoDice())
    gm.replica.absorb(before, log_conflict(before, forged, by="Wren", same_as=conflict), gm.device)
    return conflict


def test_the_gm_logging_another_card_after_the_lock_is_flagged_on_the_players_phone_after_a_reload_too():
    gm, player = sealed_and_locked()
    conflict = another_card_logged(gm)
    update(player, gm.replica)
    shown = log_text(player)
    assert "Flagged:" in shown and "Sealed and checked" not in shown
    assert "Flagged:" in text_of(player)  # the exchange on the Conflict screen says so too
    again = reload(player.library.store)
    assert conflict in again.replica.log and "Flagged:" in log_text(again)
    # The GM's honest reveal arriving later changes nothing: still flagged, now with the sealed card.
    tap(gm, "manners-seal-reveal")
    carry(gm, again)
    assert "The GM sealed Hostility, not Time." in log_text(again)


def test_leaving_a_sealed_conflict_after_the_lock_reveals_it_and_the_open_test_instead_is_flagged():
    gm, player = sealed_and_locked()
    tap(gm, "manners-new")
    assert "revealed" in gm.message.text
    tap(gm, "manners-gm-mode", value="here")
    tap(gm, "manners-difficulty", value=5)
    tap(gm, "manners-complication", value="Time")
    tap(gm, "manners-manner", side="player", value="Force")
    tap(gm, "manners-lock", side="player")
    tap(gm, "manners-reveal")
    tap(gm, "manners-log")
    update(player, gm.replica)  # the GM's session link brings the reveal, the leaving and the open Test
    assert "Show the result" in text_of(player)
    tap(player, "manners-seal-show")
    assert draft_of(player)["revealed"]["complication"] == "Hostility"  # the sealed card, shown after all
    words = ("Logged openly after the GM left Wren's sealed conflict once Wren's Manner was in "
             "(the sealed card: Hostility).")
    for state in (player, gm, reload(player.library.store)):
        assert words in log_text(state)
    assert words in text_of(player)


def test_a_lock_from_a_second_characters_phone_is_refused_there_and_never_stops_the_reveal():
    gm, player = sealed_and_locked()
    ash = phone({**gm.session, "log": []}, store=MemoryStore())  # a third phone of the same session
    tap(ash, "manners-who", side="player", value=ASH["id"])
    gm_seal = exchange_model.own_messages(gm, draft_of(gm)["exchange"])
    open_link(ash, sealed_message(gm.session["id"], "", gm_seal))
    assert "The GM's card is sealed for Wren: their phone picks the Manner." in text_of(ash)
    tap(ash, "manners-manner", side="player", value="Speed")
    tap(ash, "manners-lock", side="player")
    tap(ash, "manners-seal-send")
    assert ash.message.tone == "error" and "for \u2068Wren\u2069, not for" in ash.message.text
    stray = sealed_exchange.lock_test(draft_of(gm)["exchange"]["id"],
                                      {**draft_model.record_side(ash, draft_of(ash)["player"])}, gm_seal[0]["h"])
    open_link(gm, sealed_message(gm.session["id"], "", [stray]))  # as if an older phone had sent it
    assert "Reveal to the player" in text_of(gm)
    tap(gm, "manners-seal-reveal")
    assert draft_of(gm)["revealed"]["player"]["name"] == "Wren"


def test_a_copy_of_the_gms_seal_in_another_session_never_makes_the_gms_phone_reveal():
    gm, player = sealed_and_locked()
    exchange = draft_of(gm)["exchange"]
    secret = gm.secrets[exchange["id"]]
    copied = exchange_model.own_messages(gm, exchange) + exchange_model.own_messages(
        player, draft_of(player)["exchange"])
    other = AppState(session=table(), base_url="http://localhost/")
    other.secrets[exchange["id"]] = secret  # even held in memory, it belongs to the first session
    for step in ("gm", "player"):
        open_link(other, sealed_message(other.session["id"], "", [m for m in copied if m["by"] == step]))
    assert "Reveal to the player" not in text_of(other)
    tap(other, "manners-seal-reveal")
    assert not [m for m in other.replica.sealed[exchange["id"]].values() if m["t"] == "reveal"]
    assert draft_of(other)["revealed"] is None


def test_a_card_logged_after_the_lock_is_the_newest_entry_on_a_player_phone_that_said_who_it_is():
    """As the browser test plays it: Wren's phone joins by link and says it is Wren's, a sealed Test is
    logged on both phones, then the GM's phone logs another card after the next lock. That card is the
    newest entry whatever the devices' ids (the Log orders by clock, then device: saying who holds a
    phone once moved its next roll level with the GM's card, and a higher device id won the tie)."""
    gm = phone(table(), store=MemoryStore())
    player = phone(store=MemoryStore())
    player.device = "ffffffff"  # sorts after any other device: a tie would put its entry first
    open_link(player, session_link(gm.replica))
    tap(player, "role-pick", role=WREN["id"])

    seal_and_lock(gm, player)
    tap(gm, "manners-seal-reveal")
    tap(gm, "manners-log")
    carry(gm, player)
    tap(player, "manners-log")
    for state in (gm, player):
        tap(state, "manners-new")
    seal_and_lock(gm, player)
    conflict = another_card_logged(gm)
    update(player, gm.replica)
    assert player.session["log"][0]["id"] == conflict and "Flagged:" in log_text(player)
