"""The Live table screen. On the GM's phone: the phones live and since when, a code for the next
phone and the camera for its answer, how players' rolls are taken (at once, or waiting for
"Add"), the call for a roll and its round. On a player's phone: scanning the GM's code, this
phone's answer as a QR code, and who is live. Markup only.
"""
from __future__ import annotations

from session import SYSTEMS

from ui.core import live_table
from ui.core.clock import short_text
from ui.core.live_table import peer_name
from ui.core.role import is_player
from ui.core.state import AppState
from ui.kit.controls import button, scanner, select, text_input
from ui.kit.html import Markup, classes, h, isolate, join
from ui.kit.qr import qr_markup
from ui.screens.live.calls import SETTLING, asks, call_form, call_kind, newest_call, players, round_rows
from ui.screens.live.words import NO_WEBRTC, VIDEO, since_words
from ui.systems.anomaly import calls as anomaly_calls
from ui.systems.anomaly import view as anomaly_view
from ui.systems.summaries import entry_sentence
from ui.systems.tension import calls as tension_calls
from ui.systems.tension import draft as tension_draft
from ui.systems.tension import view as tension_view

PRIVACY = ("Phones on the same Wi-Fi talk directly: nothing leaves the local network, and no server is "
           "involved. Links and QR codes keep working for any phone that can't join.")



def regions(state: AppState) -> list[tuple[str, Markup]]:
    table = live_table.of(state)
    player = is_player(state) or (table is not None and not table.hub)  # calls and rolls are the GM's
    if player:
        return [("live-main", player_card(state)), ("live-scanner", scanner_card(state)),
                ("live-rolls", Markup("")), ("live-round", Markup("")), ("live-call", Markup(""))]
    return [("live-main", gm_card(state)), ("live-scanner", scanner_card(state)), ("live-rolls", rolls_card(state)),
            ("live-round", round_card(state)), ("live-call", call_card(state))]


def phone_list(state: AppState, table: live_table.LiveTable | None) -> Markup:
    peers = [peer for peer in (table.peers.values() if table else [])
             if peer.state not in (live_table.MAKING, live_table.SHOWING)]
    if not peers:
        return h("p", "No phone is live with this one yet.", class_="hint", data_testid="live-phones")
    rows = []
    for peer in peers:
        again = Markup("")
        if table.hub and peer.state in (live_table.LOST, live_table.FAILED):
            again = h("div", button("New code", "live-connect", data_peer=peer.id,
                                    aria_label=f"New code for {peer_name(state, peer)}"),
                      button("Scan its rejoin code", "live-scan", aria_label=f"Scan {peer_name(state, peer)}'s "
                             "rejoin code") if any(held.armed for held in peer.held.values()) else Markup(""),
                      button("Forget", "live-close", data_peer=peer.id, aria_label=f"Forget {peer_name(state, peer)}"),
                      class_="row row-wrap")
        rows.append(h("li", h("strong", peer_name(state, peer)), " ", h("span", since_words(peer), class_="hint"),
                      h("p", peer.problem, class_="hint hint-small") if peer.problem else Markup(""), again,
                      class_=classes("live-phone", live_phone_open=peer.state == live_table.OPEN)))
    return h("ul", *rows, class_="plain-list live-phones", aria_label="Phones on this live table",
             data_testid="live-phones")


def gm_card(state: AppState) -> Markup:
    table = live_table.of(state)
    if table is not None and table.unsupported:
        return h("section", h("h2", "Live table", class_="screen-title"), h("p", NO_WEBRTC, class_="side-problem"),
                 class_="card live-card", data_testid="live-gm")
    showing = next((peer for peer in (table.peers.values() if table else [])
                    if peer.state in (live_table.MAKING, live_table.SHOWING) and not peer.rejoining), None)
    if showing is None:
        offer = button("Connect a phone" if not (table and table.peers) else "Connect another phone", "live-connect",
                       primary=True, wide=True, id="live-connect")
    elif showing.state == live_table.MAKING:
        offer = h("p", "Making a code for the next phone…", class_="hint", role="status")
    else:
        offer = h("div",
                  h("h3", "Step 1: the player scans this", class_="card-title"),
                  h("p", "On the player's phone: Session, then “Scan a code”, and point it here.", class_="hint"),
                  qr_markup(showing.code, "QR code for the next phone to join the live table"),
                  code_text(showing, "This code as text", "live-offer-text",
                            "No camera on that phone? Share the code to it: there, Session, then paste it into "
                            "“Or paste a link or code”."),
                  h("h3", "Step 2: scan the player's answer", class_="card-title"),
                  button("Scanning…" if table.scanning else "Scan its answer", "live-scan", primary=True, wide=True,
                         disabled=table.scanning, id="live-scan"),
                  paste_field(state, "Or paste its code"),
                  class_="live-offer", data_testid="live-offer")
    leave = button("Leave the live table", "live-end") if table is not None and table.peers else Markup("")
    return h("section", h("h2", "Live table", class_="screen-title", id="live-title"),
             h("p", "Every roll a player logs reaches this phone at once, and every change here reaches every "
                    "live phone: no sharing, no updating. Each player joins once with two scans.", class_="hint"),
             phone_list(state, table), rejoin_codes(state, table), offer,
             h("p", PRIVACY, class_="hint hint-small"), leave,
             class_="card live-card", aria_labelledby="live-title", data_testid="live-gm")


def paste_field(state: AppState, label: str) -> Markup:
    return h("div",
             h("label", h("span", label, class_="field-label"),
               h("input", type="text", id="live-pasted", value=state.view.get("live_pasted", ""), autocomplete="off",
                 autocapitalize="characters",
                 spellcheck="false", data_action="live-paste-text", class_="field-input"),
               class_="field", for_="live-pasted"),
             button("Use this code", "live-paste-open"), class_="live-paste")


def code_text(peer: live_table.Peer, label: str, field_id: str, hint: str, rows: int = 5) -> Markup:
    """The code a QR code above shows, as text to share or copy, for a phone without a camera."""
    return h("div",
             h("label", h("span", label, class_="field-label"),
               h("textarea", peer.code, id=field_id, readonly=True, rows=str(rows), class_="field-input link-text",
                 data_testid=field_id),
               class_="field", for_=field_id),
             h("p", hint, class_="hint hint-small"),
             button("Share the code", "live-share-code", data_peer=peer.id),
             class_="live-code-text")


def player_card(state: AppState) -> Markup:
    table = live_table.of(state)
    gm = table.peers.get(live_table.GM_PEER) if table is not None else None
    if table is not None and table.unsupported:
        body = [h("p", NO_WEBRTC, class_="side-problem")]
    elif gm is None or gm.state == live_table.FAILED and not gm.code:
        body = [h("p", "Join the GM's live table: on the GM's phone, Live table, then “Connect a phone”. "
                       "Scan the code it shows.", class_="hint"),
                h("p", gm.problem, class_="side-problem") if gm is not None and gm.problem else Markup(""),
                button("Scanning…" if table and table.scanning else "Scan the GM's code", "live-scan", primary=True,
                       wide=True, disabled=bool(table and table.scanning), id="live-scan"),
                paste_field(state, "Or paste the GM's code")]
    elif gm.state == live_table.MAKING:
        body = [h("p", "Making this phone's answer…", class_="hint", role="status")]
    elif gm.state == live_table.SHOWING and gm.rejoining:
        body = [h("p", gm.problem, class_="hint", role="status"), rejoin_code(gm, "the GM's phone")]
    elif gm.state == live_table.SHOWING:
        body = [h("p", "Show this to the GM's phone: it scans it with “Scan its answer”.", class_="hint"),
                qr_markup(gm.code, "This phone's answer, a QR code for the GM's phone"),
                h("p", gm.problem, class_="hint hint-small", role="status") if gm.problem else Markup(""),
                code_text(gm, "This phone's code", "live-answer-text",
                          "No camera on the GM's phone? Share the code to it: there, paste it into "
                          "“Or paste its code”.")]
    else:
        body = [phone_list(state, table), others(table),
                h("p", live_table.GMS_SESSION_TOO_LARGE, class_="side-problem", data_testid="live-unsent")
                if table.unsent else Markup(""),
                h("p", gm.problem, class_="side-problem") if gm.problem and gm.state == live_table.LOST else Markup(""),
                button("Scan a new code from the GM", "live-scan", primary=gm.state != live_table.OPEN,
                       id="live-scan") if gm.state in (live_table.LOST, live_table.FAILED) else Markup(""),
                button("Leave the live table", "live-end")]
    return h("section", h("h2", "Live table", class_="screen-title", id="live-title"), *body,
             h("p", PRIVACY, class_="hint hint-small"),
             class_="card live-card", aria_labelledby="live-title", data_testid="live-player")


def rejoin_code(peer: live_table.Peer, whose: str) -> Markup:
    """This phone's one-scan code for a phone it rejoins (ui.core.standbys), and as text."""
    return h("div", qr_markup(peer.code, f"This phone's rejoin code, a QR code for {whose}"),
             code_text(peer, "This phone's rejoin code", f"live-rejoin-text-{peer.id}",
                       f"No camera on {whose}? Share the code to it: there, Session, then paste it into "
                       "“Or paste a link or code”.", rows=2),
             class_="live-rejoin-code", data_testid="live-rejoin-code")


def rejoin_codes(state: AppState, table: live_table.LiveTable | None) -> Markup:
    """(GM) After a reload in a browser that refuses the quiet way: a one-scan code for each player's phone."""
    peers = [peer for peer in (table.peers.values() if table else [])
             if peer.rejoining and peer.state in (live_table.MAKING, live_table.SHOWING)]
    if not peers:
        return Markup("")
    return h("ul", *(h("li", h("h3", peer_name(state, peer), class_="card-title"),
                          h("p", peer.problem, class_="hint"),
                          rejoin_code(peer, peer_name(state, peer)) if peer.code else
                          h("p", "Making its code…", class_="hint", role="status"))
                     for peer in peers), class_="plain-list", aria_label="Codes to rejoin phones with")


def others(table: live_table.LiveTable) -> Markup:
    """Who else is live at the table and since when, as the GM's phone said."""
    if not table.others:
        return Markup("")
    listed = [f"{isolate(phone['who']) if phone['who'] else 'a phone'} (since {(short_text(phone['since']) or '').split(', ')[-1]})"
              for phone in table.others]
    return h("p", "Live at this table with the GM's phone: ", ", ".join(listed), ".", class_="hint",
             data_testid="live-others")


def scanner_card(state: AppState) -> Markup:
    """The camera's picture while scanning, in its own region (the camera stops once it leaves the page)."""
    table = live_table.of(state)
    if table is None or not table.scanning:
        return Markup("")
    return scanner("live-scanner", "Scan a live code", VIDEO, "Point the camera at the code on the other phone.",
                   "live-scan-cancel")


def rolls_card(state: AppState) -> Markup:
    table = live_table.of(state)
    if table is None or not table.peers:
        return Markup("")
    choice = h("fieldset",
               h("legend", "A player's roll, once it checks out"),
               *(h("label", h("input", type="radio", name="live-add-mode", value=value, id=f"live-add-{value}",
                              checked=state.add_rolls == value, data_action="live-add-mode"), f" {label}",
                   class_="check", for_=f"live-add-{value}")
                 for value, label in ((live_table.ADD_AT_ONCE, "goes in the log at once"),
                                      (live_table.ADD_ON_TAP, "waits here until I add it"))),
               class_="settings-group")
    waiting = [h("li", h("p", h("strong", isolate(item["by"]) or "A player"), ": ",
                         entry_sentence(item["entry"])),
                 h("p", "; ".join(item.get("changes") or []) or "", class_="hint hint-small"),
                 h("p", item["problems"][0], class_="side-problem") if item["problems"] else Markup(""),
                 h("div", button("Add", "live-add", primary=True, data_id=item["entry_id"],
                                 disabled=not item.get("addable") or item.get("adding"),
                                 aria_label=f"Add {isolate(item['by']) or 'this'} roll"),
                   button("Leave out", "live-leave-out", data_id=item["entry_id"]), class_="row row-wrap"),
                 class_="live-waiting")
               for item in table.waiting]
    listed = h("ul", *waiting, class_="plain-list", aria_label="Rolls waiting to be added",
               data_testid="live-waiting") if waiting else Markup("")
    return h("section", h("h2", "Players' rolls", class_="screen-title"), choice, listed, class_="card")


def call_card(state: AppState) -> Markup:
    live_players = players(state)
    if not live_players:
        return Markup("")
    form = call_form(state)
    who = h("fieldset", h("legend", "Who rolls"),
            *(h("label", h("input", type="checkbox", id=f"live-call-{peer.role}", checked=peer.role not in form["out"],
                           data_action="live-call-who", data_role=peer.role),
                f" {peer_name(state, peer).removesuffix(chr(39) + 's phone')}", class_="check",
                for_=f"live-call-{peer.role}")
              for peer in live_players), class_="settings-group")
    kind = call_kind(form)
    difficulty = text_input("Difficulty (any number)", "live-call-difficulty", str(form["difficulty"]),
                            "live-call-difficulty", input_type="number", inputmode="numeric", low=0, high=99,
                            hint="Most often a multiple of 3: 3, 6, 9, 12, 15, 18. Success needs a total above it."
                            ) if form["system"] == "anomaly" and kind == "check" else Markup("")
    return h("section",
             h("h2", "Call for a roll", class_="screen-title", id="live-call-title-heading"),
             h("p", "The phones you choose open on this conflict, ready to roll; the round below shows who has "
                    "rolled.", class_="hint"),
             who,
             select("Rule system", list(SYSTEMS.items()), form["system"], "live-call-system", "live-call-system"),
             kind_choice(form["system"], kind),
             difficulty,
             gm_side(state, form["system"], kind, form),
             text_field("The conflict", "live-call-title", form["title"], "Climb the wall", 80),
             text_field("What is at stake", "live-call-stakes", form["stakes"], "The guards hear you", 160),
             button("Call for the roll", "live-call", primary=True, wide=True, id="live-call-send"),
             class_="card", aria_labelledby="live-call-title-heading", data_testid="live-call")


def kind_choice(system: str, kind: str) -> Markup:
    settling = SETTLING.get(system)
    if settling is None:
        return h("p", "A Test: you say the Complication once their Manner is locked.", class_="hint hint-small")
    return select("Kind of roll", [(one, settling.KIND_WORDS[one]) for one in settling.KINDS], kind,
                  "live-call-kind", "live-call-kind")


def gm_side(state: AppState, system: str, kind: str, form: dict) -> Markup:
    """The side the GM's phone settles before the call goes (the seeds' order), rolled right here:
    the Tension Pool with its boost or extra dice, an adversary's attack, an Anomaly defense."""
    settling = SETTLING.get(system)
    if settling is None or (system == "anomaly" and kind == "check"):
        return Markup("")
    if asks(state):  # one Tension Pool on screen at a time: the try again's, in the round above
        return h("p", "Answer the try again in the round above first.", class_="hint", data_testid="live-call-gm")
    if not settling.ready(state, kind):
        return h("div", h("p", "The conflict on this phone has other dice on the table: they go in the log as set "
                               "aside.", class_="hint"),
                 button("Roll the GM's side here", "live-call-prepare", id="live-call-prepare"),
                 data_testid="live-call-gm")
    draft = state.drafts.get(system) or state.draft(tension_draft.new_draft)  # the tab is the call's (calls.call_form)
    if system == "anomaly" and kind == anomaly_calls.DEFENSE:
        card = anomaly_view.roller_card(state, draft, "actor")
        note = ("Choose who attacks: the defender's phone rolls first, then you roll the attack here, on the "
                "Conflict screen.")
    elif system == "anomaly":
        card = anomaly_view.roller_card(state, draft, "defender")
        note = "Roll the defense first: its total is what the attacker must beat."
    else:
        key = tension_calls.gm_key(kind)
        title = {"environment": "The Tension Pool for this call", "opposed": "The adversary's attack"}.get(
            kind, "The adversary who defends")
        card = tension_view.side_card(state, draft, key, tension_calls.side(draft, kind), title, None)
        note = {"environment": "Roll the Tension Pool and take boost or extra dice: every called phone rolls "
                               "against this one total.",
                "opposed": "Roll the attack: the defender's phone rolls against it."}.get(
            kind, "Choose who defends: the attacker's phone rolls first, then you roll the defense here, on the "
                  "Conflict screen.")
    combat = h("label", h("input", type="checkbox", id="live-call-combat", checked=form["combat"],
                          data_action="live-call-combat"), " Combat (the difference is damage)", class_="check",
               for_="live-call-combat") if system == "tension" and kind in ("opposed", "attack") else Markup("")
    return h("div", h("p", note, class_="hint"), combat, card, class_="live-call-gm", data_testid="live-call-gm")


def text_field(label: str, field_id: str, value: str, example: str, limit: int) -> Markup:
    return h("label", h("span", label, class_="field-label"),
             h("input", type="text", id=field_id, value=value, maxlength=str(limit), placeholder=f"e.g. {example}",
               autocomplete="off", data_action=field_id, class_="field-input"),
             class_="field", for_=field_id)


def round_card(state: AppState) -> Markup:
    call = newest_call(state)
    if call is None:
        return Markup("")
    rows = round_rows(state, call)
    done = sum(entry is not None for _, entry, _ in rows)
    items = [h("li", h("strong", who), ": ",
               h("span", f"{standing} — {entry_sentence(entry)}" if entry is not None else standing),
               class_=classes("live-round-row", live_round_done=entry is not None), data_testid="live-round-row")
             for who, entry, standing in rows]
    stakes = h("p", "At stake: ", isolate(call["stakes"]), class_="hint") if call["stakes"] else Markup("")
    if call.get("gm"):
        stakes = join([stakes, h("p", isolate(call["gm"]["name"]), f": {call['gm']['words']}", class_="hint",
                                 data_testid="live-round-gm")])
    end = Markup("") if call.get("ended") else button("End the round", "live-call-end", data_id=call["id"])
    return h("section",
             h("h2", f"The round: {isolate(call['title'])}", class_="screen-title", id="live-round-title",
               tabindex="-1"),
             h("p", f"{SYSTEMS.get(call['system'], call['system'])} · {done} of {len(rows)} rolled"
                    + (" · ended" if call.get("ended") else ""), class_="hint", data_testid="live-round-count"),
             stakes, h("ul", *items, class_="plain-list", aria_label="Who has rolled"), again_card(state), end,
             class_="card", aria_labelledby="live-round-title", data_testid="live-round")


def again_card(state: AppState) -> Markup:
    """The first player asking to try again: the Tension Pool rolled here for it (Tension +1 first), with
    the GM's boost or extra dice, then sent; or no (not every action allows another attempt)."""
    asking = asks(state)
    if not asking:
        return Markup("")
    role, name = asking[0]
    if tension_calls.ready(state, "environment", again=True):
        draft = state.drafts["tension"]
        pool = join([tension_view.side_card(state, draft, "gm", draft["gm"], f"The Tension Pool for {name}", None),
                     button(f"Send the new total to {name}", "live-again-send", primary=True, wide=True,
                            data_role=role)])
    else:
        pool = button("Roll the Tension Pool for it here", "live-again-prepare", data_role=role)
    later = h("p", f"Then: {', '.join(other for _, other in asking[1:])}.", class_="hint") if asking[1:] else Markup("")
    return h("div", h("h3", f"{name} asks to try again", id="live-again-heading"),
             h("p", "Tension +1 first, so the Tension Pool rolls one more die; take boost or extra dice as for the "
                    "call. Only this phone's roll changes: the others keep theirs.", class_="hint"),
             pool, button("No, not this time", "live-again-no", data_role=role), later,
             class_="live-again", role="group", aria_labelledby="live-again-heading", data_testid="live-again")
