"""The Manner Cards conflict screen: Test or Confrontation, cards face down, then the reveal.

Regions: setup (Test or Confrontation), the GM (Test) or the opponent
(Confrontation), each character side (who and numbers; the five Manner cards),
the odds for each Manner card, and the result with the resolution table. A
face-down card is only a card back here: its name stays in the draft until the
reveal. Markup only; outcomes come from rules (resolve, outcomes_for_*).
"""
from __future__ import annotations

import rules
from rules.words import in_text

from ui.core.role import is_player, own_side
from ui.core.state import AppState
from ui.kit.controls import segmented, select, settled_note, stepper, text_input
from ui.kit.html import Markup, classes, h, isolate
from ui.systems import conflict
from ui.systems.manners import cards as cards_view
from ui.systems.manners import draft as draft_model
from ui.systems.manners import exchange as exchange_model
from ui.systems.manners import exchange_view
from ui.systems.manners import words as manners_words

KINDS = ((draft_model.TEST, "Test"), (draft_model.CONFRONTATION, "Confrontation"))
GM_MODES = ((draft_model.HERE, "On this phone"), (draft_model.SAYS, "GM says"))
SIDE_TITLES = {"player": "The player", "opponent": "The opponent"}
OUTCOME_CLASS = {"success": "outcome-success", "partial": "outcome-partial", "failure": "outcome-failure",
                 "compromise": "outcome-compromise"}
OUTCOME_MARKS = {"success": "✔", "partial": "≈", "compromise": "=", "failure": "✘"}
OUTCOME_ORDER = ("success", "partial", "compromise", "failure")


# --- Setup ----------------------------------------------------------------------------------

def setup(state: AppState, draft: dict) -> Markup:
    title = h("h2", "Manner Cards conflict", class_="screen-title")
    if draft["revealed"] is not None:
        kind = dict(KINDS)[draft["kind"]]
        return h("section", title, h("p", f"{kind}: the cards are turned over.", class_="hint"), class_="card")
    if draft["kind"] == draft_model.TEST:
        intro = h("p", "A Test is against the world: the GM sets a difficulty and puts a Complication face "
                       "down; the player picks a Manner card.", class_="hint")
    else:
        intro = h("div",
                  h("p", "A Confrontation is against a character: each side locks a Manner card face down, "
                         "then both turn over.", class_="hint"),
                  h("p", "Instead of playing a card, a side may make a story move (the app does not resolve it):",
                    class_="hint hint-small"),
                  h("ul", *(h("li", move) for move in rules.STORY_MOVES), class_="story-moves"))
    return h("section", title, segmented("Conflict kind", KINDS, draft["kind"], "manners-kind", "manners-kind"), intro,
             class_="card")


# --- The GM (Test) -----------------------------------------------------------------------------

def gm_card(state: AppState, draft: dict) -> Markup:
    if draft["kind"] != draft_model.TEST or draft["revealed"] is not None:
        return Markup("")
    if draft.get("exchange") is not None:
        stage = exchange_model.stage(state, draft)
        header = h("header", h("h3", "The GM", class_="side-title"), class_="side-header")
        return h("section", header, *exchange_view.sealed_gm_body(state, draft, stage), class_="card side-card side-gm",
                 aria_label="The GM", data_testid="side-gm", id="manners-gm-card", tabindex="-1")
    gm = draft["gm"]
    player_locked = draft["player"]["locked"]
    header = h("header", h("h3", "The GM", class_="side-title"), class_="side-header")
    settled = draft_model.gm_settled(draft)
    players_phone = is_player(state)  # the GM's card is the GM's: this phone enters what the GM says
    if settled is not None:
        body = [h("p", f"Difficulty {gm['difficulty']}", class_="pool-line", data_testid="manners-difficulty"),
                settled_note(settled)]
    elif players_phone:
        body = [h("p", "Enter the difficulty the GM says; the GM keeps the Complication face down.",
                  class_="hint"), cards_view.difficulty_picker(gm["difficulty"])]
    else:
        body = [segmented("Where the GM's card is", GM_MODES, gm["mode"], "manners-gm-mode", "manners-gm-mode"),
                cards_view.difficulty_picker(gm["difficulty"])]
    if gm["mode"] == draft_model.HERE:
        if gm["complication"] is None:
            body += [h("p", "Put a Complication face down (only the GM looks):", class_="field-label"),
                     cards_view.complication_buttons("manners-complication"),
                     h("button", "Pick at random", type="button", class_="button button-wide",
                       data_action="manners-complication-random")]
        else:
            again = Markup("") if draft["player"]["manner"] is not None else h(
                "button", "Choose again", type="button", class_="button", data_action="manners-complication-again")
            body += [h("div", cards_view.card_back("The GM's Complication, face down"),
                       h("div", h("p", "The Complication is face down.", class_="face-down-words"),
                         h("p", "The player's card is down too: turn both over below." if player_locked else
                           "It turns over once the player locks a Manner.", class_="hint hint-small"), again),
                       class_="face-down")]
    elif not player_locked and players_phone:
        body += [h("p", "Lock your Manner, then enter the Complication the GM turns over.", class_="hint")]
    elif not player_locked:
        body += [h("p", "The GM keeps the Complication face down on their side of the table. "
                        "Enter it when it turns over.", class_="hint"), exchange_view.seal_offer()]
    else:
        body += [h("p", "The player's card is down. Which Complication did the GM turn over?", class_="field-label"),
                 cards_view.complication_buttons("manners-complication")]
    return h("section", header, *body, class_="card side-card side-gm", aria_label="The GM",
             data_testid="side-gm", id="manners-gm-card", tabindex="-1")


# --- A character side ------------------------------------------------------------------------------

def who_select(state: AppState, role: str, side: dict) -> Markup:
    options = [("", "No sheet (type the numbers)")]
    characters = [(entry["id"], entry["name"]) for entry in state.roster("character")]
    adversaries = [(entry["id"], f"{entry['name']} (adversary)") for entry in state.roster("adversary")]
    options += adversaries + characters if role == "opponent" else characters + adversaries
    return select("Who", options, side["ref"] or "", "manners-who", f"manners-{role}-person", side=role)


def ratings_inputs(role: str, side: dict) -> Markup:
    high = rules.LIMITS["rating"]
    fields = [h("label",
                h("span", cards_view.name_label(manner), class_="field-label"),
                h("input", type="number", inputmode="numeric", id=f"manners-{role}-rating-{manner.lower()}",
                  value=str(side["ratings"][manner]), min="0", max=str(high), data_action="manners-rating",
                  data_side=role, data_manner=manner, class_="field-input rating-input"),
                class_="field rating-field", for_=f"manners-{role}-rating-{manner.lower()}")
              for manner in rules.MANNERS]
    return h("fieldset", h("legend", "Manner ratings"), h("div", *fields, class_="rating-grid"),
             class_="ratings")


def skill_controls(state: AppState, role: str, side: dict) -> Markup:
    entry = draft_model.sheet(state, side)
    if entry is None:
        return h("div",
                 text_input("Skill or Spell (optional)", f"manners-{role}-skill", side["skill"], "manners-skill-name",
                            placeholder="e.g. Climb", maxlength=60, side=role),
                 stepper("Skill or Spell rating", side["skill_rating"], "manners-skill-rating", 0,
                         rules.LIMITS["rating"], f"manners-{role}-skill-rating", side=role),
                 class_="skill-controls")
    options = [("", "None")] + [(item["name"], f"{item['name']} {item['rating']}") for item in entry["skills"]]
    current = side["skill"] if any(item["name"] == side["skill"] for item in entry["skills"]) else ""
    return select("Skill or Spell", options, current, "manners-skill", f"manners-{role}-skill", side=role)


def helpers_hint(state: AppState, side: dict) -> Markup:
    words = "Each helper adds 1 and needs a rating of at least 1 in this Skill or Spell. " \
            "Helpers share the consequences of failure."
    can, cannot = draft_model.helpers_on_roster(state, side)
    lines = [h("p", words, class_="hint hint-small")]
    if can:
        lines.append(h("p", f"Can help with {isolate(side['skill'])}: "
                       + ", ".join(f"{isolate(name)} ({rating})" for name, rating in can)
                       + ".", class_="hint hint-small", data_testid="can-help"))
    elif cannot:
        lines.append(h("p", f"Nobody else on the roster has {isolate(side['skill'])} at 1 or more.",
                       class_="hint hint-small"))
    return h("div", *lines)


def helper_picker(state: AppState, role: str, side: dict) -> Markup:
    """Helpers picked from the roster, each checked against the Skill (rules.can_help); a side
    with no sheet may also count helpers who are not on the roster."""
    skill = side["skill"].strip()
    others = [entry for entry in state.roster("character") if entry["id"] != side["ref"]]
    picked = {entry["id"] for entry in draft_model.helpers(state, side)}
    boxes = []
    for entry in others:
        rating = next((item["rating"] for item in entry.get("skills", [])
                       if item["name"].strip().casefold() == skill.casefold()), 0) if skill else 0
        able = bool(skill) and rules.can_help(rating)
        box_id = f"manners-{role}-helper-{entry['id']}"
        shown = isolate(skill)
        reason = f"{shown} {rating}" if able else (f"{shown} {rating}: can't help" if skill else "pick a Skill first")
        boxes.append(h("label", h("input", type="checkbox", id=box_id, data_action="manners-helper",
                                  data_side=role, data_id=entry["id"], checked=entry["id"] in picked,
                                  disabled=not able and entry["id"] not in picked),
                       " ", isolate(entry["name"]), " ", h("span", f"({reason})", class_="hint-small"),
                       class_="check", for_=box_id))
    parts = []
    if boxes:
        parts.append(h("fieldset", h("legend", "Helpers from the roster"), *boxes, class_="helper-picker"))
    if draft_model.sheet(state, side) is None:
        parts.append(stepper("Helpers not on the roster" if boxes else "Helpers", side["helpers"], "manners-helpers",
                             0, rules.LIMITS["helpers"], f"manners-{role}-helpers", side=role))
    return h("div", *parts, class_="helpers")


def descriptors_hint(state: AppState, side: dict) -> Markup:
    entry = draft_model.sheet(state, side)
    if entry is None:
        return h("p", "Traits and Specialities that apply; more descriptors win a tie.", class_="hint hint-small")
    found = draft_model.sheet_descriptors(entry, side["manner"], side["skill"])
    if not found:
        return h("p", "The sheet has none on this Manner or Skill; add any the table agrees apply.",
                 class_="hint hint-small")
    listed = ", ".join(f"{isolate(item['name'])} ({isolate(item['on'])})" for item in found)
    return h("p", f"From the sheet: {listed}. Change the count if the table rules otherwise.",
             class_="hint hint-small", data_testid="descriptor-hint")


def elsewhere(draft: dict, role: str) -> bool:
    """In an exchange across phones: this side is played on the other phone."""
    exchange = draft.get("exchange")
    if exchange is None:
        return False
    if draft["kind"] == draft_model.TEST:
        return exchange["role"] == "gm"
    return exchange["role"] != role


def played_elsewhere(state: AppState, draft: dict, role: str) -> Markup:
    settled = exchange_model.standing(state, draft["exchange"])
    title = SIDE_TITLES[role]
    if draft["kind"] == draft_model.TEST and settled.locked is not None:
        side = settled.locked  # sent in plain once the GM's card was sealed
        words = f"{isolate(side['name'])} locked {side['manner']} ({side['manner_rating']}) on their phone."
    elif role in settled.revealed:
        words = "Its card is revealed and checked."
    elif role in settled.sealed:
        words = "Its Manner is sealed on the other phone."
    else:
        words = "Played on the other phone: waiting for it."
    return h("section", h("header", h("h3", title, class_="side-title"), class_="side-header"),
             h("p", words, class_="hint", data_testid=f"elsewhere-{role}"),
             class_="card side-card side-locked", aria_label=f"{title}: on the other phone", data_testid=f"side-{role}")


def side_who(state: AppState, draft: dict, role: str) -> Markup:
    """Who plays this side, and the numbers that go with the card (not the card itself)."""
    if role not in draft_model.character_sides(draft) or draft["revealed"] is not None:
        return Markup("")
    if elsewhere(draft, role):
        return played_elsewhere(state, draft, role)
    if draft.get("exchange") is not None and exchange_model.stage(state, draft) not in (
            exchange_model.PICK, exchange_model.TO_SEND):
        name = isolate(draft_model.side_name(state, draft[role]))
        return h("section", h("header", h("h3", SIDE_TITLES[role], class_="side-title"),
                              h("span", name, class_="side-name"), class_="side-header"),
                 h("p", "Sealed with the card: the Skill, helpers and descriptors can't change now.",
                   class_="hint hint-small"),
                 class_="card side-card side-locked", aria_label=f"{SIDE_TITLES[role]}: {name}",
                 data_testid=f"side-{role}")
    side = draft[role]
    name = isolate(draft_model.side_name(state, side))
    header = h("header", h("h3", SIDE_TITLES[role], class_="side-title"), h("span", name, class_="side-name"),
               class_="side-header")
    if side["locked"]:
        skill = draft_model.skill_name(state, side)
        rating = draft_model.skill_rating(state, side)
        words = [f"{isolate(skill) if skill else 'Skill'} {rating}" if skill or rating else "No Skill or Spell"]
        helped = manners_words.helped_by(draft_model.record_side(state, side))
        if helped:
            words.append(helped)
        return h("section", header, h("p", " · ".join(words), class_="pool-line"),
                 class_="card side-card side-locked", aria_label=f"{SIDE_TITLES[role]}: {name}",
                 data_testid=f"side-{role}")
    body = [] if own_side(state, side) else [who_select(state, role, side)]
    if draft_model.sheet(state, side) is None:
        body += [text_input("Name", f"manners-{role}-name", side["name"], "manners-name",
                            placeholder=draft_model.DEFAULT_NAMES[role], maxlength=60, side=role),
                 ratings_inputs(role, side)]
    body.append(skill_controls(state, role, side))
    body += [helper_picker(state, role, side),
             helpers_hint(state, side),
             stepper("Descriptors for a tie", side["descriptors"], "manners-descriptors", 0,
                     rules.LIMITS["descriptors"], f"manners-{role}-descriptors", side=role),
             descriptors_hint(state, side)]
    return h("section", header, *body, class_=classes("card", "side-card", f"side-{role}"),
             aria_label=f"{SIDE_TITLES[role]}: {name}", data_testid=f"side-{role}")


def side_cards(state: AppState, draft: dict, role: str) -> Markup:
    """The five Manner cards to pick from, or the locked card face down."""
    if role not in draft_model.character_sides(draft) or draft["revealed"] is not None or elsewhere(draft, role):
        return Markup("")
    side = draft[role]
    name = isolate(draft_model.side_name(state, side))
    stage = exchange_model.stage(state, draft)
    if draft.get("exchange") is not None and stage not in (exchange_model.PICK, exchange_model.TO_SEND):
        words = {exchange_model.WAITING: "It is on its way to the other phone: it can't change now.",
                 exchange_model.TO_REVEAL: "Both cards are sealed: reveal yours."}.get(stage, "")
        locked = "locked" if draft["kind"] == draft_model.TEST else "sealed on this phone"  # "sent" once stored there
        return h("section",
                 h("div", cards_view.card_back(f"{name}'s Manner card, {locked}"),
                   h("div", h("p", f"{name}'s Manner is {locked}.", class_="face-down-words"),
                     h("p", words, class_="hint hint-small")), class_="face-down"),
                 class_="card cards-card", aria_label=f"{name}'s card", data_testid=f"cards-{role}",
                 id=f"manners-{role}-cards-card", tabindex="-1")
    if side["locked"] and stage == exchange_model.TO_SEND:
        return h("section",
                 h("div", cards_view.card_back(f"{name}'s Manner card, locked"),
                   h("div", h("p", f"{name}'s Manner is locked.", class_="face-down-words"),
                     h("p", "Send it to the GM's phone: the GM's card is sealed already.", class_="hint hint-small"),
                     h("button", "Pick again", type="button", class_="button", data_action="manners-unlock",
                       data_side=role, aria_label=f"Pick again for {name}")),
                   class_="face-down"),
                 h("button", "Send my Manner to the GM", type="button", class_="button button-primary button-wide",
                   data_action="manners-seal-send", id="manners-seal-send"),
                 class_="card cards-card", aria_label=f"{name}'s card", data_testid=f"cards-{role}",
                 id=f"manners-{role}-cards-card", tabindex="-1")
    if side["locked"]:
        return h("section",
                 h("div", cards_view.card_back(f"{name}'s Manner card, face down"),
                   h("div", h("p", f"{name}'s Manner is locked, face down.", class_="face-down-words"),
                     h("button", "Pick again", type="button", class_="button", data_action="manners-unlock",
                       data_side=role, aria_label=f"Pick again for {name}")),
                   class_="face-down"),
                 class_="card cards-card", aria_label=f"{name}'s card", data_testid=f"cards-{role}",
                 id=f"manners-{role}-cards-card", tabindex="-1")
    wait = draft_model.why_wait(state, draft, role)
    if wait is not None:
        return h("section", h("p", wait, class_="hint"), class_="card cards-card", aria_label=f"{name}'s cards",
                 data_testid=f"cards-{role}")
    ratings = draft_model.ratings(state, side)
    cards = [cards_view.manner_card(manner, ratings[manner], "manners-manner", side["manner"] == manner, side=role)
             for manner in rules.MANNERS]
    problem = draft_model.why_not_lock(draft, role)
    number = Markup("")
    if side["manner"] is not None:
        total = draft_model.number_before_cards(state, side, side["manner"])
        number = h("p", f"With {side['manner']}: {total} before the cards are compared.", class_="pool-line")
    return h("section",
             h("p", f"{name}: pick a Manner card", class_="field-label", id=f"manners-{role}-cards-label"),
             h("div", *cards, class_="manner-cards", role="group", aria_labelledby=f"manners-{role}-cards-label"),
             number,
             h("p", problem, class_="hint hint-small") if problem else Markup(""),
             lock_buttons(draft, role, name, problem),
             class_="card cards-card", aria_label=f"{name}'s cards", data_testid=f"cards-{role}",
             id=f"manners-{role}-cards-card", tabindex="-1")


def lock_buttons(draft: dict, role: str, name: str, problem: str | None) -> Markup:
    """Lock here; in a Confrontation, or seal the card for the other side's phone instead."""
    lock = h("button", "Lock Manner", type="button", class_="button button-primary button-wide",
             data_action="manners-lock", data_side=role, disabled=problem is not None,
             aria_label=f"Lock Manner for {name}")
    if draft["kind"] != draft_model.CONFRONTATION:
        return lock
    seal = h("button", "Seal and share", type="button", class_="button button-wide", data_action="manners-seal-side",
             data_side=role, disabled=draft[role]["manner"] is None, aria_label=f"Seal and share {name}'s Manner",
             aria_describedby=f"manners-{role}-seal-hint")
    hint = h("p", "Seal and share: the other side plays on another phone; neither can change its card after "
                  "seeing the other's.", class_="hint hint-small", id=f"manners-{role}-seal-hint")
    if draft.get("exchange") is not None:
        return h("div", seal, hint)
    return h("div", lock, seal, hint)


# --- Odds -----------------------------------------------------------------------------------------------

def card_counts(kind: str, manner: str) -> dict:
    """How many of the five cards the other side could play win, lose, or go to numbers (the table's row)."""
    row = (rules.TEST_TABLE if kind == draft_model.TEST else rules.CONFRONTATION_TABLE)[manner].values()
    wins = sum(1 for cell in row if cell == "Win")
    losses = sum(1 for cell in row if cell == "Lose")
    return {"win": wins, "lose": losses, "numbers": len(row) - wins - losses}


def odds_rows(state: AppState, draft: dict) -> dict:
    """For each Manner the player could pick: {"cards": counts, "outcomes": {outcome: count}}.
    Raises RuleError when the numbers on screen break a rule."""
    player = draft["player"]
    rows = {}
    if draft["kind"] == draft_model.TEST:
        for manner in rules.MANNERS:
            table = rules.outcomes_for_test(
                draft_model.planner(state, player, draft_model.descriptors_for(state, player, manner)),
                draft["gm"]["difficulty"])
            rows[manner] = {"cards": card_counts(draft["kind"], manner), "outcomes": table[manner]["counts"]}
        return rows
    opponent = draft["opponent"]
    cache = {}
    for manner in rules.MANNERS:
        counts = {"success": 0, "partial": 0, "failure": 0, "compromise": 0}
        mine = draft_model.descriptors_for(state, player, manner)
        for opposing in rules.MANNERS:
            theirs = draft_model.descriptors_for(state, opponent, opposing)
            if (mine, theirs) not in cache:
                cache[mine, theirs] = rules.outcomes_for_confrontation(
                    draft_model.planner(state, player, mine), draft_model.planner(state, opponent, theirs))
            counts[cache[mine, theirs][manner]["against"][opposing]["outcome"]] += 1
        rows[manner] = {"cards": card_counts(draft["kind"], manner), "outcomes": counts}
    return rows


def outcome_pips(outcomes: dict) -> Markup:
    pips = [h("span", OUTCOME_MARKS[outcome], class_=classes("pip-outcome", f"pip-{outcome}"))
            for outcome in OUTCOME_ORDER for _ in range(outcomes.get(outcome, 0))]
    words = ", ".join(f"{outcomes[outcome]} {manners_words.OUTCOME_WORDS[outcome].lower()}"
                      for outcome in OUTCOME_ORDER if outcomes.get(outcome))
    return h("span", h("span", *pips, class_="pips", aria_hidden="true"),
             h("span", words, class_="odds-words"), class_="odds-outcomes")


def odds_panel(state: AppState, draft: dict) -> Markup:
    player = draft["player"]
    if draft["revealed"] is not None or player["locked"] or elsewhere(draft, "player"):
        return Markup("")
    if draft.get("exchange") is not None and draft["kind"] == draft_model.CONFRONTATION:
        return Markup("")  # the other side's numbers are on the other phone
    try:
        rows = odds_rows(state, draft)
    except rules.RuleError as error:
        return h("section", h("h3", "Odds", class_="card-title"), h("p", str(error), class_="side-problem"),
                 class_="card odds", data_testid="odds")
    ratings = draft_model.ratings(state, player)
    if draft["kind"] == draft_model.TEST:
        title = f"Each Manner card against the five Complications, difficulty {draft['gm']['difficulty']}:"
    else:
        opponent = in_text(draft_model.side_name(state, draft["opponent"]))
        title = f"Each Manner card against the five Manners {opponent} could play:"
    counts = [rows[manner]["cards"] for manner in rules.MANNERS]
    same_cards = all(count == counts[0] for count in counts)
    items = []
    for manner in rules.MANNERS:
        row = rows[manner]
        chosen = player["manner"] == manner
        items.append(h("li",
                       h("span", h("span", cards_view.MARK + " ", aria_hidden="true") if chosen else Markup(""),
                         f"{manner} {ratings[manner]}", class_="odds-manner"),
                       h("span", cards_words(row["cards"]), class_=classes("odds-cards", visually_hidden=same_cards)),
                       outcome_pips(row["outcomes"]),
                       class_=classes("odds-row", chosen=chosen), aria_current="true" if chosen else None,
                       data_testid="odds-row", data_manner=manner))
    every = h("p", f"Of the five cards, every Manner has {cards_words(counts[0])}.", class_="hint hint-small",
              data_testid="odds-cards-all") if same_cards else Markup("")
    key = h("ul", *(h("li", h("span", OUTCOME_MARKS[outcome], class_=classes("pip-outcome", f"pip-{outcome}"),
                              aria_hidden="true"), manners_words.OUTCOME_WORDS[outcome])
                    for outcome in OUTCOME_ORDER),
            class_="odds-key", aria_hidden="true")
    return h("section", h("h3", "Odds", class_="card-title"), h("p", title, class_="odds-title"),
             every, h("ul", *items, class_="manner-odds"), key,
             h("p", "How the five would end with the numbers on screen; ties count each Manner's descriptors "
                    "from the sheet.", class_="hint hint-small"),
             class_="card odds", data_testid="odds")


def cards_words(cards: dict) -> str:
    return f"{cards['win']} win · {cards['lose']} lose · {cards['numbers']} on numbers"


# --- Result --------------------------------------------------------------------------------------------

def played_cards(record: dict, flip: bool) -> Markup:
    player = record["player"]
    mine = cards_view.face_up(isolate(manners_words.player_name(record)), player["manner"],
                              f"rating {player.get('manner_rating', 0)}", flip, "played-player")
    if record["kind"] == "test":
        theirs = cards_view.face_up("The GM", record["complication"], f"difficulty {record['difficulty']}", flip,
                                    "played-gm")
    else:
        opponent = record["opponent"]
        theirs = cards_view.face_up(isolate(manners_words.opponent_name(record)), opponent["manner"],
                                    f"rating {opponent.get('manner_rating', 0)}", flip, "played-opponent")
    return h("div", mine, h("span", "vs", class_="played-versus"), theirs, class_="played-pair")


def result_block(record: dict, flip: bool) -> list[Markup]:
    result = record["result"]
    column = record["complication"] if record["kind"] == "test" else record["opponent"]["manner"]
    numbers = manners_words.numbers_lines(record)
    meaning = manners_words.meaning(record)
    notes = manners_words.notes(result)
    return [
        played_cards(record, flip),
        h("p", manners_words.outcome_word(result), class_=classes("outcome", OUTCOME_CLASS[result["outcome"]]),
          data_testid="outcome"),
        h("p", manners_words.decision_words(record), class_="result-numbers", data_testid="decision"),
        h("ul", *(h("li", line) for line in numbers), class_="numbers-list", aria_label="Numbers compared")
        if numbers else Markup(""),
        h("p", meaning, class_="note", data_testid="meaning") if meaning else Markup(""),
        helpers_line(record),
        h("ul", *(h("li", note) for note in notes), class_="notes", aria_label="How the rules were read")
        if notes else Markup(""),
        cards_view.resolution_table(record["kind"], record["player"]["manner"], column),
    ]


def helpers_line(record: dict) -> Markup:
    words = manners_words.helpers_words(record)
    return h("p", words, class_="note", data_testid="helpers-share") if words else Markup("")


def result_panel(state: AppState, draft: dict) -> Markup:
    record = draft["revealed"]
    if record is None and draft.get("exchange") is not None:
        return Markup("")  # the exchange panel says whose turn it is
    if record is None:
        if draft_model.ready_to_reveal(draft):
            return h("section", h("p", "Every card is face down.", class_="hint"),
                     h("button", "Reveal the cards", type="button", class_="button button-primary button-wide",
                       data_action="manners-reveal", id="manners-reveal"),
                     class_="card result-waiting")
        return h("section", h("p", draft_model.waiting_words(state, draft), class_="hint"),
                 class_="card result-waiting")
    if draft["logged"]:
        actions = h("p", "Logged.", class_="hint")
    else:
        actions = conflict.new_row("manners", "New conflict",
                                   "Cards turned over and not logged go in the log as set aside.")
    title = "Result (logged)" if draft["logged"] else "The cards turn over"
    return conflict.result_card("manners", title, [*result_block(record, draft["flip"]), actions])


def bar(state: AppState, draft: dict) -> Markup:
    """Once the cards are turned over: the outcome and the next step, always in reach."""
    record = draft["revealed"]
    if record is None:
        return Markup("")
    outcome = record["result"]["outcome"]
    numbers = (f" {record['result']['player_total']} vs {record['result']['other_total']}"
               if manners_words.compares_numbers(record["result"]) else f" ({record['result']['cell']})")
    summary = h("span", h("span", manners_words.outcome_word(record["result"]),
                          class_=classes("outcome", OUTCOME_CLASS[outcome])), numbers)
    sealed = draft.get("exchange") is not None  # both phones log it: the GM's has it already
    return conflict.bar(state, "manners", summary, record, draft["logged"], gm_has_it=sealed)


def regions(state: AppState) -> list[tuple[str, Markup]]:
    draft = state.draft(draft_model.new_draft)
    if draft["kind"] == draft_model.TEST:
        return [
            ("manners-setup", setup(state, draft)),
            ("manners-exchange", exchange_view.exchange_panel(state, draft)),
            ("manners-gm", gm_card(state, draft)),
            ("manners-player-who", side_who(state, draft, "player")),
            ("manners-player-cards", side_cards(state, draft, "player")),
            ("manners-odds", odds_panel(state, draft)),
            ("manners-result", result_panel(state, draft)),
            ("manners-bar", bar(state, draft)),
        ]
    return [
        ("manners-setup", setup(state, draft)),
        ("manners-exchange", exchange_view.exchange_panel(state, draft)),
        ("manners-player-who", side_who(state, draft, "player")),
        ("manners-player-cards", side_cards(state, draft, "player")),
        ("manners-odds", odds_panel(state, draft)),
        ("manners-opponent-who", side_who(state, draft, "opponent")),
        ("manners-opponent-cards", side_cards(state, draft, "opponent")),
        ("manners-result", result_panel(state, draft)),
        ("manners-bar", bar(state, draft)),
    ]
