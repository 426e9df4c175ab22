"""Nothing from outside uses up a limit (issue 30, item 4), as the phones of a live table play it: what
no phone can act on (reveals that open no seal, undo marks of entries nobody has, counts of made-up
phones that add up to nothing, sealed conflicts with nothing in them) takes no room and does not
travel; a forged step is said in one sentence; a tap that would pass a limit is refused before it is
made. Each case first failed against the code before it (the numbers are in the issue's closing note)."""
from __future__ import annotations

import base64
import copy
import json
import secrets
import zlib

from session.inert import IGNORED_REVEAL
from session.links import text as link_text
from session.links.v2 import PRESET, read, sealed_message, session_link
from session.live import protocol as live_protocol
from session.on_device import MemoryStore
from session.replica import Replica
from session.sealed import exchange as sealed_exchange
from ui.core import live_table, outgoing
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.screens.log import actions as log_actions  # noqa: F401
from ui.screens.roster import actions as roster_actions  # noqa: F401
from ui.systems.manners import actions as manners_actions  # noqa: F401
from ui.systems.manners import exchange as exchange_model
from ui.systems.tension import actions as tension_actions  # noqa: F401

from live_table import Table, seal_for
from reading import text
from samples import logged_party, party, party_of_five
from tapping import open_link, phone, reload, tap


def role_of(session: dict, name: str) -> str:
    return next(entry["id"] for entry in session["roster"] if entry["name"] == name)


def sealed_table(store=None):
    """The GM's phone and Wren's, live: the GM sealed Hostility (difficulty 5) for Wren, Wren locked Force."""
    session = {**party(), "system": "manners"}
    gm = phone(session, store=store or MemoryStore())
    tap(gm, "role-pick", role="gm")
    table = Table(gm=gm, wren=phone())
    table.join("gm", "wren", role=role_of(session, "Wren"))
    wren = table.phones["wren"]
    seal_for(gm, role_of(session, "Wren"))
    table.run()
    tap(wren, "manners-manner", side="player", value="Force")
    tap(wren, "manners-lock", side="player")
    tap(wren, "manners-seal-send")
    table.run()
    return table, gm, wren


def conflict_of(state) -> str:
    return state.drafts["manners"]["exchange"]["id"]


def junk_reveal(conflict: str, salt: str = "") -> dict:
    return sealed_exchange.reveal_test(conflict, "Hostility", 5, salt or secrets.token_hex(16))


def forged(state, messages: list[dict]) -> str:
    """A sealed-card link anyone at the table could make for this conflict."""
    return sealed_message(state.session["id"], state.session["name"], messages)


def test_ten_junk_reveals_take_no_room_and_the_gms_reveal_reaches_the_player():
    table, gm, wren = sealed_table()
    conflict = conflict_of(gm)
    junk = [junk_reveal(conflict) for _ in range(10)]
    for at in range(0, 10, 4):  # a link carries four steps at most
        open_link(gm, forged(gm, junk[at:at + 4]))
        assert gm.message.text == IGNORED_REVEAL  # said, in one sentence
    assert len(exchange_model.messages(gm, conflict)) == 2  # the seal and the lock: no room taken
    tap(gm, "manners-seal-reveal")
    table.run()
    assert len(exchange_model.messages(gm, conflict)) == 3
    assert wren.drafts["manners"]["revealed"]["complication"] == "Hostility"


def test_a_forged_reveal_on_the_players_phone_is_said_and_the_real_one_still_settles():
    table, gm, wren = sealed_table()
    open_link(wren, forged(wren, [junk_reveal(conflict_of(wren))]))
    assert wren.message.text == IGNORED_REVEAL and wren.drafts["manners"]["revealed"] is None
    tap(gm, "manners-seal-reveal")
    table.run()
    assert wren.drafts["manners"]["revealed"]["complication"] == "Hostility"


def test_two_thousand_sealed_conflicts_with_nothing_to_act_on_take_no_room_and_do_not_travel():
    store = MemoryStore()
    gm = phone(party(), store=store)
    theirs = gm.replica.copy()
    for number in range(2_000):
        conflict = f"j{number}"
        message = junk_reveal(conflict, "0" * 32)  # alike but for the id
        theirs.sealed[conflict] = {sealed_exchange.digest(message): message}
        if number % 400 == 399:  # five links of 400: each opens
            theirs.clock += 1
            theirs.fields["name"] = [f"Friday {number}", theirs.clock, "ff"]
            open_link(gm, session_link(theirs))
            tap(gm, "join-update")
            theirs.sealed = {}
    assert gm.session["name"] == "Friday 1999" and gm.replica.sealed == {}
    assert len(session_link(gm.replica)) < 2_000  # a QR code again
    tap(gm, "switch-system", system="manners")
    tap(gm, "manners-who", side="player", value=role_of(gm.session, "Wren"))
    tap(gm, "manners-gm-mode", value="says")
    tap(gm, "manners-seal-pick", value="Time")
    tap(gm, "manners-seal-share")
    assert len(gm.replica.sealed) == 1  # sealed cards still work
    assert reload(store).replica.sealed == gm.replica.sealed


def test_counts_of_made_up_phones_that_add_up_to_nothing_never_refuse_an_honest_phones_roll():
    session = party_of_five()
    gm = phone(session)
    tap(gm, "role-pick", role="gm")
    junk = gm.replica.copy()
    made_up = {f"{number:08x}": [3, 3] for number in range(63)}  # with the session's own: 64 phones
    junk.tension.update(made_up)
    junk.roster[session["roster"][0]["id"]]["counts"]["ap"].update(made_up)
    junk.clock += 1
    junk.fields["name"] = ["Crowded", junk.clock, "ff"]
    open_link(gm, session_link(junk))
    tap(gm, "join-update")
    assert len(gm.replica.tension) <= 1  # no room taken
    # A GM is on record, so the made-up phone's rename is not taken: it waits for the GM's Add, listed.
    assert gm.session["name"] == session["name"]
    [held] = gm.view["held"]
    assert held["changes"] == ["A phone: the session's name to “\u2068Crowded\u2069”"]  # no "Tension +0" of junk
    tap(gm, "held-add", id=held["id"])
    assert gm.session["name"] == "Crowded" and len(gm.replica.tension) <= 1  # the Add takes no room either
    table = Table(gm=gm, ash=phone())
    table.join("gm", "ash", role=session["roster"][0]["id"])
    ash = table.phones["ash"]
    tap(ash, "tension-roll", side="gm")
    tap(ash, "tension-roll", side="player")
    tap(ash, "tension-spend", side="player", step=1)  # the roll moves Ash's AP: a count of a new phone
    tap(ash, "tension-log", then="show")
    table.run()
    assert gm.session["roster"][0]["ap"] == ash.session["roster"][0]["ap"] == session["roster"][0]["ap"] - 1
    assert [entry["id"] for entry in gm.session["log"]] == [ash.session["log"][0]["id"]]
    assert ash.message.text == live_table.ON_THE_GMS_PHONE and ash.unconfirmed == []


def test_an_undo_mark_sent_before_a_sealed_result_is_logged_never_hides_it():
    store = MemoryStore()
    table, gm, wren = sealed_table(store)
    conflict = conflict_of(gm)
    hostile = gm.replica.copy()
    hostile.undone[conflict] = {"by": {"0badf00d": hostile.clock}, "effects": []}
    hostile.clock += 1
    hostile.fields["name"] = ["Friday, again", hostile.clock, "0badf00d"]
    for state in (gm, wren):
        open_link(state, session_link(hostile))
        tap(state, "join-update")
        assert conflict not in state.replica.undone  # nobody holds that entry: the mark takes no room
    tap(gm, "manners-seal-reveal")
    table.run()
    for state in (gm, wren):
        tap(state, "manners-log")
    table.run()
    for state in (gm, wren):
        assert [entry["id"] for entry in state.session["log"]][:1] == [conflict]
    assert [entry["id"] for entry in reload(store).session["log"]][:1] == [conflict]


def test_a_step_past_a_conflicts_limit_is_said_and_the_tap_refused_before_it_is_made():
    table, gm, wren = sealed_table()
    conflict = conflict_of(gm)
    crowded = gm.replica.copy()
    for number in range(sealed_exchange.MAX_MESSAGES - 2):  # seals nobody answered: anyone may send them
        seal = sealed_exchange.seal_test(conflict, "Time", 3, secrets.token_hex(16), gm.session["id"], "nobody")
        crowded.add_sealed(seal)
    open_link(wren, session_link(crowded))
    tap(wren, "join-update")
    assert len(exchange_model.messages(wren, conflict)) == sealed_exchange.MAX_MESSAGES
    reveal = sealed_exchange.reveal_of(gm.secrets[conflict])
    open_link(wren, forged(gm, [reveal]))  # the GM's genuine reveal, a 13th step
    assert wren.message.text == exchange_model.FULL  # not "This phone had every step in this link already"
    open_link(gm, session_link(crowded))
    tap(gm, "join-update")
    tap(gm, "manners-seal-reveal")  # refused before it is made: the secret is kept, nothing is said sent
    assert gm.message.text == exchange_model.FULL and gm.secrets[conflict] is not None
    assert "sent" not in text(gm).lower().split("the new step")[0][-40:]
    assert read(session_link(gm.replica)).replica.sealed[conflict] == gm.replica.sealed[conflict]


def test_no_more_sealed_conflicts_than_a_session_keeps_is_refused_at_the_tap():
    gm = phone(party())
    from session.replica import MAX_EXCHANGES
    seal = sealed_exchange.seal_test("x0", "Time", 3, secrets.token_hex(16), gm.session["id"], "nobody")
    gm.replica.sealed = {f"k{number}": {sealed_exchange.digest({**seal, "c": f"k{number}"}): {**seal, "c": f"k{number}"}}
                         for number in range(MAX_EXCHANGES)}
    tap(gm, "switch-system", system="manners")
    tap(gm, "manners-gm-mode", value="says")
    tap(gm, "manners-seal-pick", value="Time")
    assert gm.message.text == exchange_model.TOO_MANY and gm.drafts["manners"]["exchange"] is None


def test_a_roll_waiting_for_add_that_its_phone_took_back_is_not_added_later():
    """A mark of an entry the GM's phone does not hold is left out where it arrives; a roll still waiting for
    "Add" that its phone undid leaves the waiting list with it, so the GM never adds it after."""
    from ui.screens.live import actions as live_actions  # noqa: F401  (registers "live-add-mode")
    session = party_of_five()
    gm = phone(session)
    tap(gm, "role-pick", role="gm")
    table = Table(gm=gm, ash=phone())
    table.join("gm", "ash", role=session["roster"][0]["id"])
    ash = table.phones["ash"]
    tap(gm, "live-add-mode", value=live_table.ADD_ON_TAP)
    tap(ash, "tension-roll", side="gm")
    tap(ash, "tension-roll", side="player")
    tap(ash, "tension-log", then="show")
    table.run()
    assert len(gm.live.waiting) == 1
    tap(ash, "log-undo-confirmed")
    table.run()
    assert gm.live.waiting == [] and gm.session["log"] == [] and ash.session["log"] == []
    assert ash.unconfirmed == []  # acknowledged: nothing of it waits to reach the GM's phone


# --- A session too large to travel (issue 30): said on every path, nothing lost -----------------------
# The limits are lowered with monkeypatch below this session's own sizes (never copied: another change
# may move them).

def unpacked(fragment: str) -> int:
    data = fragment.split(".", 1)[1]
    return len(zlib.decompressobj(zdict=PRESET).decompress(base64.b32decode(data + "=" * (-len(data) % 8))))


def live_pair():
    """The GM's phone with the party's session and Ash's phone, live."""
    session = party_of_five()
    gm = phone(session)
    tap(gm, "role-pick", role="gm")
    table = Table(gm=gm, ash=phone())
    table.join("gm", "ash", role=session["roster"][0]["id"])
    return table, session


def test_a_change_too_large_to_send_is_said_on_the_sending_phone_and_kept(monkeypatch):
    table, session = live_pair()
    gm, ash = table.phones["gm"], table.phones["ash"]
    tension = gm.session["tension"]
    monkeypatch.setattr(link_text, "MAX_DECODED", unpacked(session_link(gm.replica, entries=[])) - 1)
    sent = len(table.sent)
    tap(gm, "tension-step", step="1")
    table.run()
    assert gm.message.text == live_table.TOO_LARGE_TO_SEND and gm.message.tone == "error"
    assert not [item for item in table.sent[sent:] if '"k":"link"' in item[2]]  # not sent, not half-sent
    assert gm.session["tension"] == tension + 1 and ash.session["tension"] == tension  # kept as it is here
    assert ash.message.text == live_table.GMS_SESSION_TOO_LARGE and ash.message.tone == "error"  # not silence
    tap(ash, "dismiss-message")
    tap(gm, "tension-step", step="1")  # still too large: Ash's phone was told already, once is enough
    table.run()
    assert ash.message is None and [item[2] for item in table.sent[sent:] if item[1] == "ash"] == [
        live_protocol.write(live_protocol.UNSENT)]
    ash.screen = "live"
    assert live_table.GMS_SESSION_TOO_LARGE in text(ash)  # dismissed, still said where the live table is
    monkeypatch.undo()  # a newer version, or the session back within the limits: the next change carries both
    tap(gm, "tension-step", step="1")
    table.run()
    assert ash.session["tension"] == gm.session["tension"] == tension + 3
    assert ash.message is None or ash.message.text != live_table.GMS_SESSION_TOO_LARGE
    assert live_table.GMS_SESSION_TOO_LARGE not in text(ash)
    monkeypatch.setattr(link_text, "MAX_DECODED", unpacked(session_link(gm.replica, entries=[])) - 1)
    tap(gm, "tension-step", step="1")  # too large again after a session got through: told again
    table.run()
    assert ash.message.text == live_table.GMS_SESSION_TOO_LARGE


def test_the_player_whose_roll_made_the_session_too_large_is_told_too(monkeypatch):
    """A roll the GM's phone adds goes on to every phone but its own; when the session with it is too large
    to send, the phone it came from is told as well (it has its roll, not the session since)."""
    table, session = live_pair()
    gm, ash = table.phones["gm"], table.phones["ash"]
    monkeypatch.setattr(link_text, "MAX_DECODED", unpacked(session_link(gm.replica, entries=[])) + 10)
    tap(ash, "tension-roll", side="gm")
    tap(ash, "tension-roll", side="player")
    tap(ash, "tension-log", then="show")
    table.run()
    assert set(gm.replica.log) == set(ash.replica.log) and gm.replica.log  # the roll arrived and was added
    assert ash.message.text == live_table.GMS_SESSION_TOO_LARGE
    assert gm.message.text == live_table.TOO_LARGE_TO_SEND  # not hidden by "Ash Varga rolled: …"


def test_the_gms_entries_travel_in_smaller_messages_when_forty_would_pass_the_limit(monkeypatch):
    """Nothing is lost when the head fits but a full chunk of entries would not: fewer to a message."""
    state = phone(logged_party_of(12))
    entries = sorted(state.replica.log.values(), key=lambda entry: entry["clock"])
    whole = session_link(state.replica, entries=entries)
    single = max(unpacked(session_link(state.replica, entries=[entry])) for entry in entries)
    monkeypatch.setattr(link_text, "MAX_DECODED", (single + unpacked(whole)) // 2)
    messages = outgoing.session_messages(state, entries)
    assert len(messages) > 1 and state.message is None
    carried = [entry["id"] for message in messages for entry in read(json.loads(message)["link"]).replica.log.values()]
    assert sorted(carried) == sorted(entry["id"] for entry in entries)
    monkeypatch.setattr(link_text, "MAX_DECODED", single - 1)  # not even one entry with the head: nothing, said
    assert outgoing.session_messages(state, entries) == [] and state.message.text == live_table.TOO_LARGE_TO_SEND


def test_a_message_too_large_for_this_phone_is_said_as_too_large_not_damaged(monkeypatch):
    """What a phone of another version may send: a link past MAX_FRAGMENT, one that unpacks past MAX_DECODED,
    or a message live.js drops for its size; the receiving phone says what it is, and keeps its session."""


    table, session = live_pair()
    gm, ash = table.phones["gm"], table.phones["ash"]
    before = ash.session
    tap(gm, "tension-step", step="1")
    head = session_link(gm.replica, entries=[])
    message = json.dumps({"live": live_protocol.VERSION, "k": "link", "link": head})
    said = live_protocol.naming(live_protocol.TOO_LARGE, "the GM's phone")
    assert said.startswith("A message from the GM's phone is larger than") and said.count("phone") == 2  # + "that"
    with monkeypatch.context() as patched:
        patched.setattr(live_protocol, "MAX_FRAGMENT", len(head) - 1)
        table.deliver("ash", "live-message", message, peer="gm")
    assert ash.message.text == said and "damaged" not in said
    tap(ash, "dismiss-message")
    with monkeypatch.context() as patched:
        patched.setattr(link_text, "MAX_DECODED", unpacked(head) - 1)
        table.deliver("ash", "live-message", message, peer="gm")
        table.run()
    assert ash.message.text == said
    tap(ash, "dismiss-message")
    table.deliver("ash", "live-event", peer="gm", event="dropped", detail="too-large")
    assert ash.message.text == said
    assert ash.session["tension"] == before["tension"] and ash.session["roster"] == before["roster"]


def logged_party_of(rolls: int) -> dict:
    """The party of five with `rolls` environment rolls logged on the GM's phone."""
    session = logged_party()
    entry = session["log"][0]
    session["log"] = [{**copy.deepcopy(entry), "id": f"{entry['id']}{number:03d}", "clock": number + 1}
                      for number in range(rolls)]
    return session


def test_a_session_too_large_to_join_is_said_on_the_gms_phone_when_a_phone_joins(monkeypatch):
    """The GM's hello carries its session: with its newest entries when they fit, its head alone when only
    that fits (the catch-up brings the entries), and nothing, said, when not even the head does."""
    session = party_of_five()
    gm = phone(session)
    tap(gm, "role-pick", role="gm")
    for _ in range(3):
        tap(gm, "tension-new")
        tap(gm, "tension-roll", side="gm")
        tap(gm, "tension-roll", side="player")
        tap(gm, "tension-log", then="show")
    assert len(gm.replica.log) == 3
    table = Table(gm=gm, ash=phone())
    monkeypatch.setattr(link_text, "MAX_DECODED", unpacked(session_link(gm.replica)) - 1)  # the head fits
    table.join("gm", "ash")
    assert set(table.phones["ash"].replica.log) == set(gm.replica.log)  # the entries came with the walk
    gm2 = phone(gm.session)
    tap(gm2, "role-pick", role="gm")
    table = Table(gm=gm2, bo=phone())
    monkeypatch.setattr(link_text, "MAX_DECODED", unpacked(session_link(gm2.replica, entries=[])) - 1)
    table.join("gm", "bo")
    assert gm2.message.text == live_table.TOO_LARGE_TO_SEND
    assert table.phones["bo"].session["id"] != session["id"]  # nothing half-joined
    assert table.phones["bo"].message.text == live_table.GMS_SESSION_TOO_LARGE  # told, not left waiting


def test_a_change_past_what_a_live_message_holds_is_said_too(monkeypatch):
    """A link within the links' limits in a message past MAX_MESSAGE (should the limits move apart)."""
    table, session = live_pair()
    gm, ash = table.phones["gm"], table.phones["ash"]
    monkeypatch.setattr(live_protocol, "MAX_MESSAGE", len(live_protocol.link(session_link(gm.replica, entries=[]))) - 1)
    tap(gm, "tension-step", step="1")
    table.run()
    assert gm.message.text == live_table.TOO_LARGE_TO_SEND
    assert ash.session["tension"] == gm.session["tension"] - 1
    assert ash.message.text == live_table.GMS_SESSION_TOO_LARGE


def test_a_live_refusal_names_the_phone_that_sent_it_once(monkeypatch):
    """Issue 30: "A message from Ash's phone was damaged…", not "Ash's phone: A message from the other phone…"."""
    from ui.arrivals import messages

    table, session = live_pair()
    gm = table.phones["gm"]
    ash = next(iter(gm.live.peers))  # Ash's phone, as the GM's phone knows it
    said = []
    for message in ('{"live": 2, "k": "end"}', '{"live": 1, "k": "end", "id": "c1"}'):
        table.deliver("gm", "live-message", message, peer=ash)
        said.append(gm.message.text)
    table.deliver("gm", "live-event", peer=ash, event="dropped", detail="too-large")
    said.append(gm.message.text)
    assert said[0] == "A message from ⁨Ash Varga⁩'s phone was damaged, so it was not used."
    assert said[1].startswith("⁨Ash Varga⁩'s phone runs an older Tableside. Update it (reload it")
    assert said[2].startswith("A message from ⁨Ash Varga⁩'s phone is larger than this version of Tableside opens, "
                              "so it was not used. If that phone runs a newer Tableside")
    assert all(sentence.count("Ash Varga") == 1 and "other phone" not in sentence for sentence in said)

    async def broken(state, peer, message):
        raise RuntimeError("a bug")
    monkeypatch.setitem(messages.HANDLERS, live_protocol.END, broken)
    table.deliver("gm", "live-message", live_protocol.write(live_protocol.END, id="c1"), peer=ash)
    table.run()
    assert gm.message.text == "A message from ⁨Ash Varga⁩'s phone could not be used. Nothing was changed."  # not "ash"
    player = table.phones["ash"]
    table.deliver("ash", "live-message", '{"live": 2, "k": "end"}', peer="gm")
    assert player.message.text == "A message from the GM's phone was damaged, so it was not used."
