"""On the GM's phone: what another phone sent that is the GM's to make, every change listed, with
"Add" and "Leave out"; and who undid which roll, with "Restore" (ui.arrivals.owned keeps both)."""
from __future__ import annotations

from ui.core.state import AppState
from ui.kit.html import Markup, h


def held_notices(state: AppState) -> Markup:
    held, undos = state.view.get("held", []), state.view.get("undos", [])
    if not held and not undos:
        return Markup("")
    cards = [h("section",
               h("h2", "A phone sent changes that are yours to make", class_="card-title"),
               h("ul", *(h("li", line) for line in item["changes"]), class_="plain-list held-changes"),
               h("div", h("button", "Add", type="button", class_="button button-primary", data_action="held-add",
                          data_id=item["id"]),
                 h("button", "Leave out", type="button", class_="button button-quiet", data_action="held-leave",
                   data_id=item["id"]), class_="row row-wrap"),
               class_="card held", role="region", aria_label="Changes waiting for you", data_testid="held")
             for item in held]
    cards += [h("section", h("p", note["words"], "."),
                h("div", h("button", "Restore", type="button", class_="button button-primary",
                           data_action="undo-restore", data_id=note["id"]),
                  h("button", "Dismiss", type="button", class_="button button-quiet", data_action="undo-dismiss",
                    data_id=note["id"]), class_="row row-wrap"),
                class_="message message-info undo-notice", role="status", data_testid="undo-notice")
              for note in undos]
    return h("div", *cards, class_="held-notices")
