"""A shared roll: what a roll link shows above the Log.

The record was re-resolved with its own dice when the link was opened
(ui.arrivals.links.show_roll); this shows that result, and says plainly when the
result stored in the link disagrees with its dice. A player's roll of a session on this
phone offers "Add to this session" (ui.arrivals.links.add_to_session), or says it is
already there. Markup only.
"""
from __future__ import annotations

from ui.core.state import AppState
from ui.kit.html import Markup, h, isolate
from ui.screens.log.record import record_details, when


def origin_line(pending: dict) -> Markup:
    parts = []
    if pending["session"]:
        parts.append(f"From “{isolate(pending['session'])}”")
    if pending["by"]:
        parts.append(f"rolled by {isolate(pending['by'])}")
    line = ", ".join(parts)
    time = when(pending["at"]) if pending["at"] else Markup("")
    if not line and not time:
        return Markup("")
    return h("p", line, " · " if line and time else "", time, class_="log-meta")


def panel(state: AppState) -> Markup:
    pending = state.pending
    if pending is None or pending.get("kind") != "roll":
        return Markup("")
    close = h("button", "Close", type="button", class_="button", data_action="roll-close",
              aria_label="Close the shared roll")
    kind = pending.get("state", "read-only")
    title = h("h2", "A player's roll" if kind in ADDING else "A shared roll (read-only)", class_="screen-title")
    checked = pending["checked"]
    if checked is None:
        return h("section", title,
                 h("p", "This roll link can't be shown: ", pending["problems"][0], class_="side-problem"),
                 h("div", close, class_="row"), class_="card roll-link", role="alert", data_testid="roll-link-view")
    warning = Markup("")
    if pending["problems"]:
        warning = h("div",
                    h("p", h("strong", "This link's stored result does not match its dice."),
                      " It may have been changed. Below is what the dice give under the rules."),
                    h("ul", *(h("li", problem) for problem in pending["problems"]), class_="notes"),
                    class_="confirm", role="alert", data_testid="roll-link-mismatch")
    else:
        warning = h("p", "✓ Checked: the result follows from its dice under the rules.", class_="hint roll-checks",
                    data_testid="roll-link-checks")
    return h("section", title, origin_line(pending), warning, *record_details(checked),
             next_step(pending, close), class_="card roll-link result", data_testid="roll-link-view")


ADDING = ("checking", "new", "adding", "already", "undone", "refused", "unmergeable")


def next_step(pending: dict, close: Markup) -> Markup:
    """What the GM can do with it: add it once, or why not."""
    kind = pending.get("state", "read-only")
    if kind == "new":
        changes = pending.get("changes") or []
        listed = h("ul", *(h("li", line) for line in changes), class_="notes", data_testid="roll-changes") \
            if changes else Markup("")
        add = h("button", "Add to this session", type="button", class_="button button-primary",
                data_action="roll-add", id="roll-add")
        return h("div", h("p", "Adding it logs it here and applies what it changed:" if changes
                          else "Adding it logs it here.", class_="hint"), listed,
                 h("div", add, close, class_="row row-wrap"))
    words = {
        "checking": "Looking for it in this session's log…",
        "adding": "Adding it…",
        "already": "This roll is already in this session's log: nothing to add.",
        "undone": "This roll is already in this session's log, and was undone there: nothing to add.",
        "refused": "It does not check, so it can't be added to the log.",
        "unmergeable": pending.get("refusal", ""),  # session.merging: what adding it would break
        "elsewhere": (f"This roll belongs to “{isolate(pending['session'])}”, which is not on this phone"
                      if pending["session"] else "This roll belongs to a session that is not on this phone") +
                     ": open that session's link first, then this roll again.",
        "read-only": "Shown as it was rolled: it is not added to your log.",
    }[kind]
    return h("div", h("p", words, class_="hint", role="status", data_testid="roll-link-state"),
             h("div", close, class_="row"))
