"""A Manner Cards conflict sealed across phones, drawn: the GM's sealed side and the panel that
says whose turn it is, with this phone's newest link to share (ui.systems.manners.exchange runs it).
Markup only; never a sealed card's face."""
from __future__ import annotations

from ui.core.state import AppState
from ui.kit.html import Markup, h
from ui.kit.qr import qr_markup, size_words
from ui.systems.manners import cards as cards_view
from ui.systems.manners import exchange as exchange_model


def sealed_gm_body(state: AppState, draft: dict, stage: str) -> list[Markup]:
    """The GM's side of a Test sealed across phones, on either phone: never the card's face."""
    exchange = draft["exchange"]
    difficulty = h("p", f"Difficulty {draft['gm']['difficulty']}", class_="pool-line", data_testid="manners-difficulty")
    if exchange["role"] != "gm":
        return [difficulty, h("div", cards_view.card_back("The GM's Complication, sealed on the GM's phone"),
                              h("div", h("p", "The GM's card is sealed.", class_="face-down-words"),
                                h("p", "It was sealed on the GM's phone before you pick: it can't change now, and "
                                       "this phone checks it when the GM reveals it.", class_="hint hint-small")),
                              class_="face-down")]
    if stage == exchange_model.TO_SEAL:
        return [cards_view.difficulty_picker(draft["gm"]["difficulty"]),
                h("div", cards_view.card_back("The GM's Complication, face down on this phone"),
                  h("div", h("p", "The Complication is face down on this phone.", class_="face-down-words"),
                    h("p", "Sealing it sends the player's phone a seal, never the card.", class_="hint hint-small"),
                    h("button", "Choose again", type="button", class_="button", data_action="manners-seal-again")),
                  class_="face-down"),
                h("button", "Seal and share", type="button", class_="button button-primary button-wide",
                  data_action="manners-seal-share", id="manners-seal-share")]
    words = {exchange_model.WAITING: ("Sealed" if exchange_model.travels(state, draft) else "Sealed and shared")
             + ". It turns over when you reveal it.",
             exchange_model.TO_REVEAL: "Sealed. The player's Manner is here: reveal your card.",
             exchange_model.LOST: "Sealed, but this phone no longer holds the card."}
    return [difficulty, h("div", cards_view.card_back("The GM's Complication, sealed"),
                          h("div", h("p", "The Complication is sealed.", class_="face-down-words"),
                            h("p", words.get(stage, ""), class_="hint hint-small")), class_="face-down")]


def seal_offer() -> Markup:
    """In "GM says": the GM's own phone can seal the card for the player's phone instead."""
    return h("div",
             h("p", "Or, on the GM's phone: pick the Complication here, face down, and seal it for the player's "
                    "phone (neither side can change its card after seeing the other's):", class_="field-label"),
             cards_view.complication_buttons("manners-seal-pick"),
             h("button", "Pick at random", type="button", class_="button button-wide", data_action="manners-seal-pick",
               data_value="random"),
             class_="seal-offer", data_testid="seal-offer")


def exchange_panel(state: AppState, draft: dict) -> Markup:
    """Whose turn it is, what the other phone waits for, and this phone's newest link to share."""
    exchange = draft.get("exchange")
    if exchange is None:
        return Markup("")
    stage = exchange_model.stage(state, draft)
    parts = [h("h3", "Sealed across phones", class_="card-title")]
    if stage == exchange_model.BROKEN:
        problems = exchange_model.standing(state, exchange).problems
        parts.append(h("div", h("p", h("strong", "The sealed cards don't check out.")),
                       h("ul", *(h("li", problem) for problem in problems), class_="notes"),
                       h("p", "Nothing in this conflict can be logged as valid. Start a new conflict."),
                       class_="confirm", role="alert", data_testid="sealed-mismatch"))
    else:
        turn = exchange_model.turn_words(state, draft)
        if turn:
            parts.append(h("p", turn, class_="turn", data_testid="sealed-turn"))
    flagged = exchange_model.flag(state, exchange)
    if flagged:
        parts.append(h("p", h("strong", "Flagged: "), flagged, class_="log-flag", role="alert",
                       data_testid="sealed-flag"))
    if stage == exchange_model.DONE and draft["revealed"] is None:  # turned over in a session link, not a card link
        parts.append(h("button", "Show the result", type="button", class_="button button-primary button-wide",
                       data_action="manners-seal-show"))
    if stage == exchange_model.TO_REVEAL:
        parts.append(h("button", "Reveal to the player" if exchange["role"] == "gm" else "Reveal to the other phone",
                       type="button", class_="button button-primary button-wide", data_action="manners-seal-reveal",
                       id="manners-seal-reveal"))
    url = exchange_model.link(state, exchange) if exchange_model.link_wanted(state, draft) else ""
    if url:
        parts += [h("button", "Share the link again", type="button", class_="button button-wide",
                    data_action="manners-seal-link"),
                  qr_markup(url, "QR code of this phone's sealed-card link"),
                  h("p", "Scan it with the other phone's camera (Session screen, Scan a code), or share the link.",
                    class_="hint hint-small qr-caption"),
                  h("label", h("span", "This phone's link for the other phone", class_="field-label"),
                    h("textarea", url, id="sealed-link-text", readonly=True, rows="3",
                      class_="field-input link-text", data_testid="sealed-link"),
                    class_="field", for_="sealed-link-text"),
                  h("p", size_words(url), class_="hint hint-small", data_testid="sealed-link-size")]
    if stage != exchange_model.DONE:
        parts.append(h("button", "New conflict", type="button", class_="button", data_action="manners-new",
                       aria_label="Leave this sealed conflict and start a new one"))
    return h("section", *parts, class_="card sealed-card", data_testid="sealed-exchange", aria_live="polite")
