"""A Manner Cards conflict sealed across two phones, under CPython: the phones meet only through
the links they show; each step says whose turn it is; both end with one identical log entry;
the hidden card and its salt are in no markup, link or draft of the other phone before the reveal;
a reveal that fails its seal is caught and can't be logged."""
import copy
import json

from session import new_session
from session.link_v2 import sealed_message
from session import sealed
from session.replica import Replica
from ui.core.state import AppState
from ui.frame import actions as frame_actions  # noqa: F401  (registers switch-system)
from ui.manners import actions as manners_actions  # noqa: F401  (registers the actions)
from ui.manners import exchange as exchange_model
from ui.session_screen import links

from tapping import tap
from test_ui_manners import draft_of, page, sheet, text_of

FRAGMENT = "#"


def phones():
    session = new_session(system="manners")
    session["roster"] = [sheet("Wren"), sheet("The Warden", kind="adversary")]
    gm = AppState(session=session, base_url="http://localhost/")
    twin = Replica.from_dict(copy.deepcopy(gm.replica.to_dict()))
    player = AppState(session=twin.session(), replica=twin, base_url="http://localhost/")
    return gm, player


def link_of(state) -> str:
    return exchange_model.link(state, draft_of(state)["exchange"])


def carry(link: str, to: AppState):
    links.open_link(to, link.split(FRAGMENT, 1)[1])


def everything(state) -> str:
    """Whatever another phone could read of this phone: its markup, drafts and session."""
    return page(state) + json.dumps(state.drafts) + json.dumps(state.replica.to_dict())


def test_a_sealed_test_ends_with_one_identical_log_entry_and_hides_the_card_until_revealed():
    gm, player = phones()
    tap(gm, "manners-gm-mode", value="says")
    tap(gm, "manners-difficulty", value=5)
    tap(gm, "manners-seal-pick", value="Hostility")
    assert "Hostility" not in json.dumps(gm.drafts)  # only in the secret
    secret = gm.secrets[draft_of(gm)["exchange"]["id"]]
    tap(gm, "manners-seal-share")
    seal_link = link_of(gm)
    assert "Your turn" not in text_of(page(gm)) and "The player's turn" in text_of(page(gm))
    carry(seal_link, player)
    seen = text_of(page(player))
    assert "The GM's card is sealed" in seen and "Difficulty 5" in seen
    assert secret["salt"] not in everything(player) + seal_link
    tap(player, "manners-manner", side="player", value="Force")
    tap(player, "manners-lock", side="player")
    tap(player, "manners-seal-send")
    lock_link = link_of(player)
    assert "The GM's turn" in text_of(page(player))
    assert secret["salt"] not in everything(player) + lock_link
    carry(lock_link, gm)
    assert "Reveal to the player" in page(gm)
    tap(gm, "manners-seal-reveal")
    assert gm.secrets[secret["c"]] is None
    assert draft_of(gm)["revealed"]["complication"] == "Hostility"
    carry(link_of(gm), player)
    assert draft_of(player)["revealed"] == draft_of(gm)["revealed"]
    tap(gm, "manners-log")
    tap(player, "manners-log")
    assert gm.session["log"][0]["id"] == player.session["log"][0]["id"] == secret["c"]
    assert gm.session["log"][0]["record"] == player.session["log"][0]["record"]
    merged = gm.replica.merge(player.replica)
    assert len(merged.session()["log"]) == 1


def test_a_tampered_reveal_is_caught_loudly_and_nothing_is_logged():
    gm, player = phones()
    tap(gm, "manners-gm-mode", value="says")
    tap(gm, "manners-seal-pick", value="Time")
    tap(gm, "manners-seal-share")
    carry(link_of(gm), player)
    tap(player, "manners-manner", side="player", value="Force")
    tap(player, "manners-lock", side="player")
    tap(player, "manners-seal-send")
    carry(link_of(player), gm)
    tap(gm, "manners-seal-reveal")
    conflict = draft_of(gm)["exchange"]["id"]
    forged = [sealed.check_message(message) for message in exchange_model.own_messages(gm, draft_of(gm)["exchange"])]
    forged[-1] = {**forged[-1], "card": "Consumption"}
    carry("x#" + sealed_message(gm.session["id"], "", forged), player)
    assert draft_of(player)["revealed"] is None
    assert 'role="alert"' in page(player) and "does not match the card they sealed" in page(player)
    tap(player, "manners-log")
    assert conflict not in {entry["id"] for entry in player.session["log"]}


def test_a_sealed_confrontation_checks_both_ways_and_logs_the_same_on_both_phones():
    first, second = phones()
    tap(first, "manners-kind", value="confrontation")
    tap(first, "manners-who", side="opponent", value="")
    tap(first, "manners-name", side="opponent", value="  The   \u202eWarden ")  # sealed as it is read back
    tap(first, "manners-manner", side="opponent", value="Speed")
    tap(first, "manners-seal-side", side="opponent")
    secret = first.secrets[draft_of(first)["exchange"]["id"]]
    assert draft_of(first)["opponent"]["manner"] is None  # the card lives in the secret only
    carry(link_of(first), second)
    assert draft_of(second)["exchange"]["role"] == "player"
    assert secret["salt"] not in everything(second)
    tap(second, "manners-manner", side="player", value="Force")
    tap(second, "manners-seal-side", side="player")
    carry(link_of(second), first)
    tap(first, "manners-seal-reveal")
    carry(link_of(first), second)
    tap(second, "manners-seal-reveal")
    assert draft_of(second)["revealed"] is not None
    carry(link_of(second), first)
    assert draft_of(first)["revealed"] == draft_of(second)["revealed"]
    assert draft_of(first)["revealed"]["opponent"]["manner"] == "Speed"
    assert draft_of(first)["revealed"]["opponent"]["name"] == "The \u202eWarden"
    tap(first, "manners-log")
    tap(second, "manners-log")
    assert first.session["log"][0]["id"] == second.session["log"][0]["id"]


def test_the_secret_lives_under_its_own_key_survives_a_reload_and_no_snapshot_is_kept():
    from session.storage import MemoryStore
    from ui import first_paint
    from samples import party
    from tapping import phone, reload

    store = MemoryStore()
    state = phone(party(), store=store)
    tap(state, "switch-system", system="manners")
    tap(state, "manners-gm-mode", value="says")
    tap(state, "manners-seal-pick", value="Hostility")
    conflict = draft_of(state)["exchange"]["id"]
    tap(state, "manners-seal-share")
    salt = json.loads(store.get(f"tableside.secret.{conflict}"))["salt"]
    elsewhere = {key: value for key, value in store.items.items() if key != f"tableside.secret.{conflict}"}
    assert not [key for key, value in elsewhere.items() if salt in value or "Hostility" in value]
    assert first_paint.content(state, "0123456789ab", store.get) is None  # sealed: no snapshot of this table
    again = reload(store)
    assert again.secrets[conflict]["card"] == "Hostility"
    assert exchange_model.stage(again, draft_of(again)) == exchange_model.WAITING


def test_a_sealed_link_of_another_session_only_says_which_to_open():
    gm, player = phones()
    tap(gm, "manners-gm-mode", value="says")
    tap(gm, "manners-seal-pick", value="Time")
    tap(gm, "manners-seal-share")
    stranger = AppState(session=new_session(system="manners"))
    carry(link_of(gm), stranger)
    assert stranger.message.tone == "error" and "not on this phone" in stranger.message.text
    assert stranger.replica.sealed == {} and "manners" not in stranger.drafts
