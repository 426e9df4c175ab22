"""A roll shown to the GM's phone: its link as a QR code to scan across the table, Share, and
the link itself to copy (ui.screens.frame.actions opens and closes it; the Log shares rolls too).

The link is session.links.v2's version-2 roll message: the log entry and the counts the roll
changed on this phone, which the GM's phone adds to its session once. Markup only.
"""
from __future__ import annotations

from session import share_url

from ui.core import role
from ui.core.live_table import sends_to_gm
from ui.core.state import AppState
from ui.kit.html import Markup, h, isolate
from ui.kit.qr import qr_markup


def roll_url(state: AppState, entry: dict, named: bool = False) -> str:
    """The link that carries one logged roll (session.links.v2: version 2). Shown to the GM, whose
    phone has the session, it leaves the session's name out (its code stays at version 10);
    `named` for a roll shared to anyone (the Log's "Share roll")."""
    from session.links.v2 import roll_message  # links' code: loaded when a roll is shared

    return share_url(state.base_url, roll_message(state.replica, entry["id"], state.session["name"] if named else ""))


def shown_entry(state: AppState) -> dict | None:
    if state.showing is None:
        return None
    return next((entry for entry in state.session["log"] if entry["id"] == state.showing), None)


def dialog(state: AppState) -> Markup:
    entry = shown_entry(state)
    if entry is None or entry["id"] not in state.replica.log:
        return Markup("")
    url = roll_url(state, entry)
    who = isolate(entry.get("by") or "this roll")
    return h("section",
             h("h2", "Show to the GM", class_="screen-title", id="handoff-title"),
             h("p", "On the GM's phone: Session, then “Scan a code”, and point it here. Or share the link.",
               class_="hint"),
             qr_markup(url, f"QR code of {who}'s roll for the GM's phone"),
             h("div", h("button", "Share", type="button", class_="button button-primary",
                        data_action="roll-show-share"),
               h("button", "Done", type="button", class_="button", data_action="roll-show-done", id="handoff-done",
                 data_dismiss="true"),
               class_="row row-wrap handoff-actions"),
             h("label", h("span", "Link to this roll", class_="field-label"),
               h("textarea", url, id="handoff-link", readonly=True, rows="3", class_="field-input link-text",
                 data_testid="handoff-link"),
               class_="field", for_="handoff-link"),
             class_="card dialog handoff", role="dialog", aria_modal="true", aria_labelledby="handoff-title",
             data_testid="handoff")


def log_button(state: AppState, log_action: str, button_id: str, gm_has_it: bool = False) -> Markup:
    """The result bar's main action before logging: on a player's phone it also shows the roll
    to the GM (one tap for both), or on a live table sends it there, unless the GM's phone has the
    result already (`gm_has_it`: a conflict sealed across phones, which both phones log)."""
    if role.is_player(state) and not gm_has_it:
        return h("button", "Log and send to the GM" if sends_to_gm(state) else "Log and show to the GM",
                 type="button", class_="button button-primary",
                 data_action=log_action, data_then="show", id=button_id)
    return h("button", "Log this result", type="button", class_="button button-primary", data_action=log_action,
             id=button_id)


def logged_actions(state: AppState, record: dict, new_action: str, new_label: str, button_id: str,
                   gm_has_it: bool = False) -> Markup:
    """The result bar's actions once logged: the next conflict, and on a player's phone the roll
    shown to the GM again (unless the GM's phone has it: `gm_has_it`, or a live table sent it)."""
    new = h("button", new_label, type="button", class_="button button-primary", data_action=new_action,
            id=button_id)
    shown = gm_has_it or sends_to_gm(state)  # on a live table it went to the GM's phone when it was logged
    entry = role.logged_entry(state, record) if role.is_player(state) and not shown else None
    if entry is None:
        return new
    return h("div", h("button", "Show to the GM", type="button", class_="button", data_action="roll-show",
                      data_id=entry["id"]), new, class_="row result-bar-actions")
