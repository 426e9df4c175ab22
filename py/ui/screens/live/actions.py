"""Taps on the live screen, and what static/live.js reports, as actions like any tap: the shell
(ui.shell.channels) turns each report into "live-event" or "live-message" through ui.core.step, so
the unit tests drive these same handlers.

Joining takes two scans: the GM's phone makes an offer for one phone and shows its code
("live-connect"); the player's phone scans it (here, or with "Scan a code" on the Session
screen), answers and shows its own code; the GM's phone scans that ("live-scan"), checks that
it answers the offer it waits on (the offer id), and the channel opens. What a code holds is
read in ui.arrivals.codes, what other phones send in ui.arrivals.messages.
"""
from __future__ import annotations

from session import SYSTEMS
from session.live import protocol as live_protocol
from session.live import signal as live_signal
from session.live.signal import LiveCodeError

from ui.arrivals import catchup, messages
from ui.arrivals.codes import NO_CAMERA, take_code
from ui.core import commands, holding, outgoing
from ui.core import live_table
from ui.core import standbys
from ui.core.live_table import peer_name
from ui.core.actions import Input, action
from ui.core.clock import now_text
from ui.core.role import gm_only, show_system
from ui.core.state import AppState
from ui.screens.live import calls
from ui.screens.live.calls import call_form
from ui.screens.live.words import ANSWER_SECONDS, NOT_ANSWERING, NOT_YET, VIDEO, failure_words, new_peer_id


def hub(state: AppState) -> live_table.LiveTable:
    """The GM's side of a live table on this phone (made on first use)."""
    if state.live is None or not state.live.hub:
        state.live = live_table.LiveTable(hub=True, session_id=state.session["id"], known=set(state.replica.log))
        holding.gm_here(state)  # the phone that opens the table is the GM's: on record, if none is
    return state.live


def peer_of(state: AppState, event: Input) -> live_table.Peer | None:
    table = live_table.of(state)
    return table.peers.get(event.text("peer")) if table is not None else None


@action("live-open")
def open_screen(state: AppState, event: Input):
    state.screen = "live"
    state.message = None


# --- The GM's phone: a code for each phone ----------------------------------------------------------

@action("live-connect")
def connect(state: AppState, event: Input):
    """A fresh offer for one more phone (or again for a phone that lost its channel: data-peer)."""
    table = hub(state)
    if table.unsupported:
        return
    for other in list(table.peers.values()):  # one code on screen at a time: an unanswered one goes
        if other.state in (live_table.MAKING, live_table.SHOWING) and other.id != event.text("peer"):
            commands.live_close(state, other.id)
            del table.peers[other.id]
    again = table.peers.get(event.text("peer"))
    peer = live_table.Peer(again.id if again is not None else new_peer_id(), offer_id=live_signal.new_offer_id())
    if again is not None:
        peer.role, peer.who, peer.device = again.role, again.who, again.device
    table.peers[peer.id] = peer
    commands.live_offer(state, peer.id)
    state.message = None
    state.screen = "live"


@action("live-offered")
def offered(state: AppState, event: Input):
    peer = peer_of(state, event)
    if peer is None or peer.state != live_table.MAKING:
        return
    try:
        peer.code = live_signal.offer_code(event.value or "", peer.offer_id)
    except LiveCodeError as error:
        peer.state, peer.problem = live_table.FAILED, str(error)
        state.fail(str(error))
        return
    peer.state = live_table.SHOWING
    commands.live_probe(state)  # this phone's key, for the standbys the channel will arm (once the offer is made)
    state.announcement = "A code for the player's phone is on screen. Scan its answer next."


@action("live-close")
def close_peer(state: AppState, event: Input):
    """(GM) Forget a phone that is lost or never connected."""
    peer = peer_of(state, event)
    if peer is not None and peer.state not in (live_table.OPEN, live_table.INTERRUPTED):
        commands.live_close(state, peer.id)
        del state.live.peers[peer.id]


# --- Scanning a code, on either phone --------------------------------------------------------------

@action("live-scan")
def scan(state: AppState, event: Input):
    table = live_table.of(state)
    if table is None:
        state.live = table = live_table.LiveTable(hub=False, session_id="")
    table.scanning = True
    state.message = None
    state.focus = "live-scan-cancel"
    state.announcement = "Camera on: point it at the other phone's live code."
    commands.scan(state, video=VIDEO, found="live-scanned", failed="live-scan-failed", hold=live_signal.OFFER_PATTERN)


@action("live-scan-cancel")
def cancel_scan(state: AppState, event: Input):
    if state.live is not None:
        state.live.scanning = False
    commands.stop_scan(state)


@action("live-scan-failed")
def scan_failed(state: AppState, event: Input):
    table = live_table.of(state)
    if table is None or not table.scanning:
        return
    table.scanning = False
    if event.value in NO_CAMERA:
        state.fail(NO_CAMERA[event.value].replace("Paste the link instead", "Paste the code instead")
                   .replace("paste the link instead", "paste the code instead"))
        state.focus = "live-pasted"


@action("live-scanned")
def scanned(state: AppState, event: Input):
    if state.live is not None:
        state.live.scanning = False
    take_code(state, event.value or "")


@action("live-paste-text")
def paste_text(state: AppState, event: Input):
    state.view["live_pasted"] = event.value or ""


@action("live-paste-open")
def paste_open(state: AppState, event: Input):
    text = state.view.get("live_pasted", "")
    if not text.strip():
        state.fail("Paste the other phone's code into the box first.")
        state.focus = "live-pasted"
        return
    if take_code(state, text):
        state.view.pop("live_pasted", None)


@action("live-share-code")
def share_code(state: AppState, event: Input):
    """The code on screen as text, for a phone without a camera to paste."""
    peer, table = peer_of(state, event), live_table.of(state)
    if peer is None or not peer.code:
        return
    where = ("on the player's phone, Session, then paste it into “Or paste a link or code”" if table.hub else
             "on the GM's phone, paste it into “Or paste its code”")
    commands.share(state, title="A Tableside live table code", text=peer.code, shared="Code shared.",
                   copied=f"Code copied: {where}.", manual="Couldn't copy here: select the code in the box and copy it.")


@action("live-answered")
def answered(state: AppState, event: Input):
    peer = peer_of(state, event)
    if peer is None or peer.state != live_table.MAKING:
        return
    commands.stop_scan(state)  # the camera was kept open while the answer was made: its addresses are real
    try:
        peer.code = live_signal.answer_code(event.value or "", peer.offer_id)
    except LiveCodeError as error:
        peer.state, peer.problem = live_table.FAILED, str(error)
        state.fail(str(error))
        return
    peer.state = live_table.SHOWING
    commands.live_wait(state, peer.id, peer.offer_id, ANSWER_SECONDS)
    commands.live_probe(state)  # this phone's key, for the standbys the channel will arm (after the answer:
    # in Firefox a probe while the answer is made can stop that answer's channel from ever opening)
    state.announcement = "This phone's code is on screen: show it to the GM's phone."


# --- What static/live.js reports ---------------------------------------------------------------------

@action("live-failed")
def failed(state: AppState, event: Input):
    """An offer, answer or accept did not go through (static/live.js's word)."""
    peer, word = peer_of(state, event), event.value or "failed"
    if peer is None or word in ("replaced", "closed"):  # a newer code for the same phone, or closed here
        return
    if word == "unsupported":
        state.live.unsupported = True
    peer.state, peer.problem, peer.code = live_table.FAILED, failure_words(state, peer, word), ""
    commands.stop_scan(state)
    state.fail(peer.problem)


@action("live-event")
def report(state: AppState, event: Input):
    peer, kind, detail = peer_of(state, event), event.text("event"), event.text("detail")
    if peer is None:
        return
    if kind == "open":
        was, back = peer.state, peer.rejoining or detail == "standby"
        peer.state, peer.problem, peer.code = live_table.OPEN, "", ""
        if was != live_table.INTERRUPTED or detail == "standby":  # a new channel (a standby is one too)
            peer.since = now_text()
            standbys.rejoined(peer)  # its standbys are armed once its hello is about this table's session
            commands.job(state, lambda state: catchup.send_hello(state, peer.id),
                        "This phone could not greet the other. Make a new code to try again.")
            joined = "is live with the GM's phone again" if back else "is live with the GM's phone"
            state.say(f"This phone {joined}: your rolls reach it as you log them." if not state.live.hub else
                      f"{peer_name(state, peer)} is back on the live table." if back else
                      "A phone joined the live table.", "success")
    elif kind == "reached" and detail == "no" and not state.live.hub and peer.replies_early and peer.state in (
            live_table.MAKING, live_table.SHOWING):
        peer.problem = NOT_ANSWERING  # within seconds of its answer, not after the 20 s wait on a scan
        state.fail(NOT_ANSWERING)
    elif kind == "dropped":  # static/live.js let a message through only up to its own limit
        said = live_protocol.TOO_LARGE if detail == "too-large" else live_protocol.DAMAGED
        state.fail(live_protocol.naming(said, live_table.sender(state, peer)))
    elif kind == "connecting" and detail == "interrupted" and peer.state == live_table.OPEN:
        peer.state = live_table.INTERRUPTED
    elif kind in ("closed", "failed") and detail not in ("replaced", "here") and standbys.gave_up(state, peer):
        return  # a quiet rejoin that did not open: the next way back
    elif kind in ("closed", "failed") and detail not in ("replaced", "here"):
        was_live = peer.state in (live_table.OPEN, live_table.INTERRUPTED)
        peer.problem = failure_words(state, peer, detail if was_live else "no-route")
        peer.state, peer.since, peer.code = (live_table.LOST if was_live else live_table.FAILED), now_text(), ""
        state.live.asked = ""  # (player) a try again asked for may be lost with the channel: it can be asked again
        state.fail(peer.problem)


@action("live-message")
def message(state: AppState, event: Input):
    messages.receive(state, event.text("peer"), event.value or "")


@action("live-waited")
def waited(state: AppState, event: Input):
    """A channel that should be open by now: the GM's phone gives up on it; a player's says why it may not be."""
    peer = peer_of(state, event)
    if peer is None or peer.state in (live_table.OPEN, live_table.INTERRUPTED, live_table.LOST, live_table.FAILED):
        return
    if event.value != str(peer.offer_id):  # a wait on an earlier code for the same phone
        return
    if standbys.gave_up(state, peer, peer.offer_id):  # a quiet rejoin not open in time: the next way back
        return
    if state.live.hub:
        peer.state, peer.problem = live_table.FAILED, failure_words(state, peer, "no-route")
        commands.live_close(state, peer.id)
        state.fail(peer.problem)
    elif peer.state == live_table.SHOWING:
        peer.problem = NOT_YET
        state.fail(NOT_YET)


# --- Rejoining with no scan (ui.core.standbys) --------------------------------------------------------

@action("live-rejoin")
def rejoin(state: AppState, event: Input):
    """At start, with ways back stored: rejoin each phone with no scan."""
    if state.live is None and standbys.start(state):
        state.announcement = "Rejoining the live table…"


@action("live-probed")
def probed(state: AppState, event: Input):
    standbys.probed(state, event.value or "")


@action("live-standby-made")
def standby_made(state: AppState, event: Input):
    standbys.made(state, event.text("peer"), event.number("id"), event.value or "")


@action("live-standby-failed")
def standby_failed(state: AppState, event: Input):
    standbys.came_to_nothing(state, event.text("peer"), event.number("id"))


@action("live-expect-failed")
def expect_failed(state: AppState, event: Input):
    standbys.expect_failed(state, event.number("id"))


@action("live-rejoin-answered")
def rejoin_answered(state: AppState, event: Input):
    standbys.answered(state, event.text("peer"), event.number("id"), event.value or "")


@action("live-rejoin-failed")
def rejoin_failed(state: AppState, event: Input):
    peer = peer_of(state, event)
    if peer is not None and event.value not in ("replaced", "closed"):
        standbys.gave_up(state, peer, event.number("id"), unreached=False)  # this browser refused it


@action("live-wake")
def wake(state: AppState, event: Input):
    table = live_table.of(state)
    if table is not None:
        commands.wake_lock(state, table.wake != "on")


@action("live-wake-state")
def wake_state(state: AppState, event: Input):
    table = live_table.of(state)
    if table is not None and event.value in ("on", "off", "unsupported", "refused"):
        table.wake = "off" if event.value == "refused" else event.value
        if event.value == "unsupported":
            state.say("This browser can't keep the screen on. Turn up the screen's sleep time in the phone's settings.")
        elif event.value == "refused":
            state.say("The browser did not keep the screen on just now. Try again, or turn up the screen's sleep "
                      "time in the phone's settings.")


@action("live-end")
def leave(state: AppState, event: Input):
    """Close every channel on this phone; links and QR codes carry on as before."""
    table = live_table.of(state)
    if table is None:
        return
    for peer in table.peers:
        commands.live_close(state, peer)
    if table.wake == "on":
        commands.wake_lock(state, False)
    state.live = None
    state.say("This phone left the live table. Links and QR codes work as before.")


# --- The GM's phone: rolls and calls ------------------------------------------------------------------

@action("live-add-mode")
@gm_only
def add_mode(state: AppState, event: Input):
    if event.value in (live_table.ADD_AT_ONCE, live_table.ADD_ON_TAP):
        state.add_rolls = event.value


def waiting_roll(state: AppState, event: Input) -> dict | None:
    table = live_table.of(state)
    return next((item for item in table.waiting if item["entry_id"] == event.text("id")), None) if table else None


@action("live-add")
@gm_only
def add(state: AppState, event: Input):
    item = waiting_roll(state, event)
    if item is None or not item.get("addable") or item.get("adding"):
        return
    item["adding"] = True  # a second tap while it merges does nothing
    commands.job(state, lambda state: messages.add(state, item), "The roll could not be added. Nothing was changed.")


@action("live-leave-out")
@gm_only
def leave_out(state: AppState, event: Input):
    item = waiting_roll(state, event)
    if item is not None:
        state.live.waiting.remove(item)
        state.say(f"Left out {item['by'] or 'that player'}'s roll: it stays on that phone only.")


@action("live-call-who")
@gm_only
def call_who(state: AppState, event: Input):
    form, role = call_form(state), event.text("role")
    form["out"] = [one for one in form["out"] if one != role] + ([] if event.checked else [role])


@action("live-call-system")
@gm_only
def call_system(state: AppState, event: Input):
    if event.value in SYSTEMS:
        show_system(state, event.value)  # the GM's phone rolls its side of the call in that system
        call_form(state)["system"] = event.value
        calls.prepare(state)


@action("live-call-kind")
@gm_only
def call_kind(state: AppState, event: Input):
    form = call_form(state)
    if event.value in live_protocol.CALL_KINDS[form["system"]]:
        form["kind"] = event.value
        calls.prepare(state)


@action("live-call-prepare")
@gm_only
def call_prepare(state: AppState, event: Input):
    """(GM) This phone's conflict becomes the call's, to roll the GM's side in it."""
    calls.prepare(state)


@action("live-call-combat")
@gm_only
def call_combat(state: AppState, event: Input):
    call_form(state)["combat"] = bool(event.checked)


@action("live-call-difficulty")
@gm_only
def call_difficulty(state: AppState, event: Input):
    value = event.number()
    if value is not None and 0 <= value <= 99:
        call_form(state)["difficulty"] = value


@action("live-call-title")
@gm_only
def call_title(state: AppState, event: Input):
    call_form(state)["title"] = (event.value or "")[:live_protocol.MAX_TITLE]


@action("live-call-stakes")
@gm_only
def call_stakes(state: AppState, event: Input):
    call_form(state)["stakes"] = (event.value or "")[:live_protocol.MAX_STAKES]


@action("live-call")
@gm_only
def call(state: AppState, event: Input):
    made = calls.make_call(state)
    if made is not None:
        gm = made.get("gm")
        settled = f" {gm['name']}: {gm['words']}." if gm else ""
        state.say(f"Called {len(made['to'])} phone{'s' * (len(made['to']) != 1)} to roll: {made['title']}."
                  f"{settled}{spent_words(made.get('spent', 0))}", "success")
        state.focus = "live-round-title"  # its heading: "live-round" is the region around it


@action("live-again-prepare")
@gm_only
def again_prepare(state: AppState, event: Input):
    calls.prepare_again(state)


@action("live-again-send")
@gm_only
def again_send(state: AppState, event: Input):
    sent = calls.send_again(state, event.text("role"))
    if sent is not None:
        state.say(f"Sent the new total for the try again: {sent['gm']['words']}.{spent_words(sent['spent'])}",
                  "success")
        state.focus = "live-round-title"


def spent_words(spent: int) -> str:
    return f" Tension spent: {spent}." if spent else ""


@action("live-again-no")
@gm_only
def again_no(state: AppState, event: Input):
    calls.say_no(state, event.text("role"))


@action("live-call-end")
@gm_only
def end_call(state: AppState, event: Input):
    outgoing.end_call(state, event.text("id"))

