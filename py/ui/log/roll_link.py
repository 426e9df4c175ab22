"""A shared roll, read-only: what a roll link shows above the Log.

The record was re-resolved with its own dice when the link was opened
(ui.sessions.links.show_roll); this shows that result, and says plainly when the
result stored in the link disagrees with its dice. Nothing here can change the
open session. Markup only.
"""
from __future__ import annotations

from ui.core.state import AppState
from ui.kit.html import Markup, h, isolate
from ui.log.record import record_details, when


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
    title = h("h2", "A shared roll (read-only)", class_="screen-title")
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
    return h("section", title, origin_line(pending), warning, *record_details(checked),
             h("p", "Shown as it was rolled: it is not added to your log.", class_="hint hint-small"),
             h("div", close, class_="row"),
             class_="card roll-link result", data_testid="roll-link-view")
