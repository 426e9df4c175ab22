"""ui.systems.manners under CPython: the Manner Cards screen (view, actions, draft), its words, cards and
roster sheet, and the exchange sealed across phones (exchange). Drafts become the right records,
face-down cards stay out of the markup, and the highlighted cell, the odds and the words are what
rules.resolve and rules.outcomes_for_* say. Sealed across two phones, the phones meet only through
the links they show; each step says whose turn it is; both end with one identical log entry; the
hidden card and its salt are in no markup, link or draft of the other phone before the reveal; a
reveal that fails its seal is caught and can't be logged."""
import copy
import json
import re

import pytest

import rules
from session import check_roster_entry, new_session
from session.links.v2 import sealed_message
from session.on_device import MemoryStore
from session.replica import Replica
from session.sealed import exchange as sealed_exchange
from ui import router
from ui.arrivals import links
from ui.core.state import AppState
from ui.keeping import first_paint
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers switch-system)
from ui.screens.roster import actions as roster_actions  # noqa: F401  (registers the roster actions)
from ui.systems.manners import actions as manners_actions  # noqa: F401  (registers the actions)
from ui.systems.manners import cards as cards_view
from ui.systems.manners import draft as draft_model
from ui.systems.manners import exchange as exchange_model
from ui.systems.manners import sheet as roster_manners
from ui.systems.manners import view as manners_view
from ui.systems.manners import words as manners_words

from samples import party, seen
from tapping import phone, reload, tap


def sheet(name="Wren", kind="character", manners=None, skills=(("Climb", 2),), descriptors=(("Strong", "Force"),)):
    return check_roster_entry({
        "system": "manners", "kind": kind, "name": name,
        "manners": {"Determination": 1, "Force": 3, "Speed": 2, "Precision": 2, "Imagination": 1, **(manners or {})},
        "skills": [{"name": skill, "rating": rating} for skill, rating in skills],
        "descriptors": [{"name": descriptor, "on": on} for descriptor, on in descriptors]})


def table(*entries) -> AppState:
    session = new_session(system="manners")
    session["roster"] = list(entries)
    return AppState(session=session)


def draft_of(state) -> dict:
    return state.draft(draft_model.new_draft)


def page(state) -> str:
    return "".join(markup for _, markup in router.page(state))


def text_of(markup: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", seen(markup)))


def region(state, region_id) -> str:
    return seen(dict(manners_view.regions(state))[region_id])


def add_helpers(state, count, skill="Climb"):
    """`count` characters who can help with `skill`, on the roster and ticked as helpers."""
    for number in range(count):
        helper = sheet(f"Helper {number + 1}", skills=((skill, 1),), descriptors=())
        state.session["roster"].append(helper)
        tap(state, "manners-helper", side="player", id=helper["id"])


def play_test(state, manner="Force", complication="Hostility", difficulty=5, helpers=0):
    tap(state, "manners-difficulty", value=difficulty)
    tap(state, "manners-complication", value=complication)
    tap(state, "manners-manner", side="player", value=manner)
    add_helpers(state, helpers)
    tap(state, "manners-lock", side="player")
    tap(state, "manners-reveal")
    return draft_of(state)["revealed"]


def play_confrontation(state, manner="Force", opposing="Speed"):
    tap(state, "manners-kind", value="confrontation")
    tap(state, "manners-manner", side="player", value=manner)
    tap(state, "manners-lock", side="player")
    tap(state, "manners-manner", side="opponent", value=opposing)
    tap(state, "manners-lock", side="opponent")
    tap(state, "manners-reveal")
    return draft_of(state)["revealed"]


# --- Draft -> record ------------------------------------------------------------------------------

def test_a_test_draft_becomes_a_test_record_with_the_sheet_numbers():
    state = table(sheet())
    draft = draft_of(state)
    draft["gm"].update(difficulty=6, complication="Time")
    draft["player"].update(manner="Force", descriptors=2)
    add_helpers(state, 1)
    record = draft_model.to_record(state, draft)
    assert record == {"v": 1, "system": "manners", "kind": "test", "difficulty": 6, "complication": "Time",
                      "player": {"name": "Wren", "id": draft["player"]["ref"], "manner": "Force", "manner_rating": 3,
                                 "skill": "Climb", "skill_rating": 2, "helpers": 1, "helper_names": ["Helper 1"],
                                 "descriptors": 2}}
    assert rules.resolve(record)["result"]["cell"] == "+2"


def test_a_confrontation_draft_becomes_a_confrontation_record():
    state = table(sheet(), sheet("Moth", kind="adversary", manners={"Speed": 4}, skills=(("Bite", 1),),
                                 descriptors=()))
    draft = draft_of(state)
    draft["kind"] = "confrontation"
    draft["player"]["manner"] = "Force"
    draft["opponent"]["manner"] = "Speed"
    record = draft_model.to_record(state, draft)
    assert "difficulty" not in record and "complication" not in record
    assert record["opponent"] == {"name": "Moth", "id": draft["opponent"]["ref"], "manner": "Speed",
                                  "manner_rating": 4, "skill": "Bite", "skill_rating": 1, "helpers": 0,
                                  "descriptors": 0}
    result = rules.resolve(record)["result"]
    assert (result["cell"], result["player_total"], result["other_total"]) == ("+2", 7, 5)


def test_a_no_sheet_side_uses_the_numbers_typed():
    state = table()
    tap(state, "manners-name", side="player", value="Ash")
    tap(state, "manners-rating", side="player", manner="Speed", value="4")
    tap(state, "manners-skill-name", side="player", value="Run")
    tap(state, "manners-skill-rating", side="player", step=1)
    draft = draft_of(state)
    draft["player"]["manner"] = "Speed"
    assert draft_model.record_side(state, draft["player"]) == {
        "name": "Ash", "manner": "Speed", "manner_rating": 4, "skill": "Run", "skill_rating": 1, "helpers": 0,
        "descriptors": 0}


def test_gm_says_gives_the_complication_and_difficulty_at_reveal_time():
    state = table(sheet())
    tap(state, "manners-gm-mode", value="says")
    tap(state, "manners-manner", side="player", value="Speed")
    tap(state, "manners-complication", value="Time")  # too early: the player's card is not down yet
    assert state.message.tone == "error" and draft_of(state)["gm"]["complication"] is None
    tap(state, "manners-difficulty", value=7)
    tap(state, "manners-lock", side="player")
    assert "Which Complication did the GM turn over?" in region(state, "manners-gm")
    tap(state, "manners-difficulty", value=2)  # settled once the player's card is down
    assert "difficulty stands" in state.message.text
    tap(state, "manners-complication", value="Time")
    record = draft_of(state)["revealed"]
    assert record["complication"] == "Time" and record["difficulty"] == 7
    assert record["result"]["outcome"] == "success" and record["result"]["cell"] == "Win"
    assert seen(state.announcement) == "Wren plays Speed against Time: Win. Success."


# --- Face down until the reveal ------------------------------------------------------------------------

def test_the_face_down_complication_is_nowhere_in_the_markup_before_the_reveal():
    state = table(sheet())
    tap(state, "manners-difficulty", value=5)
    assert "Hostility" in page(state)  # the GM's five choices
    tap(state, "manners-complication", value="Hostility")
    assert draft_of(state)["gm"]["complication"] == "Hostility"
    for step in (lambda: None,
                 lambda: tap(state, "manners-manner", side="player", value="Force"),
                 lambda: tap(state, "manners-helpers", side="player", step=1),
                 lambda: tap(state, "manners-lock", side="player")):
        step()
        markup = page(state)
        assert "Hostility" not in markup and "Hostility" not in state.announcement
        assert 'aria-label="The GM&#x27;s Complication, face down"' in markup
    tap(state, "manners-reveal")
    assert "Hostility" in page(state)


def test_the_player_picks_only_once_the_gm_card_is_down_and_locks_a_chosen_manner():
    state = table(sheet())
    assert "Waiting for the GM to put a Complication face down first." in region(state, "manners-player-cards")
    tap(state, "manners-manner", side="player", value="Force")
    assert draft_of(state)["player"]["manner"] is None and state.message.tone == "error"
    tap(state, "manners-complication", value="Time")
    tap(state, "manners-lock", side="player")
    assert not draft_of(state)["player"]["locked"] and state.message.text == "Pick a Manner card first."
    tap(state, "manners-manner", side="player", value="Force")
    assert 'aria-pressed="true" aria-label="Force, rating 3"' in region(state, "manners-player-cards")
    tap(state, "manners-lock", side="player")
    assert draft_of(state)["player"]["locked"]
    cards = region(state, "manners-player-cards")
    assert "Wren&#x27;s Manner card, face down" in cards and "aria-pressed" not in cards
    assert state.focus == "manners-reveal"


def test_pick_at_random_uses_the_rules_random_source(monkeypatch):
    monkeypatch.setattr(rules.dice, "DEFAULT_SOURCE", rules.FixedDice([4]))
    state = table(sheet())
    tap(state, "manners-complication-random")
    assert draft_of(state)["gm"]["complication"] == rules.COMPLICATIONS[3]
    assert rules.COMPLICATIONS[3] not in page(state)


def test_the_gm_may_choose_again_only_before_the_player_picks():
    state = table(sheet())
    tap(state, "manners-complication", value="Time")
    assert "Choose again" in region(state, "manners-gm")
    tap(state, "manners-complication-again")
    assert draft_of(state)["gm"]["complication"] is None
    tap(state, "manners-complication", value="Time")
    tap(state, "manners-manner", side="player", value="Force")
    assert "Choose again" not in region(state, "manners-gm")
    tap(state, "manners-complication-again")
    assert draft_of(state)["gm"]["complication"] == "Time"
    tap(state, "manners-complication", value="Hostility")  # a card already down stays down
    assert draft_of(state)["gm"]["complication"] == "Time"


def test_in_a_confrontation_the_second_side_never_sees_the_first_card():
    state = table(sheet(), sheet("Moth", kind="adversary", descriptors=()))
    tap(state, "manners-kind", value="confrontation")
    tap(state, "manners-manner", side="player", value="Force")
    # While the player's pick is on screen, the opponent waits.
    assert "Waiting for Wren to lock a Manner" in region(state, "manners-opponent-cards")
    tap(state, "manners-manner", side="opponent", value="Speed")
    assert draft_of(state)["opponent"]["manner"] is None
    tap(state, "manners-lock", side="player")
    markup = page(state)
    assert "Wren&#x27;s Manner card, face down" in markup
    assert 'aria-pressed="true"' not in region(state, "manners-player-cards")
    assert "Descriptors for a tie" not in region(state, "manners-player-who")  # it could hint at the Manner
    assert region(state, "manners-odds") == ""  # the player's odds would mark the chosen card
    assert state.focus == "manners-opponent-cards-card"
    tap(state, "manners-manner", side="opponent", value="Speed")
    # Taking the locked card back forgets the other side's open pick, so nobody sees it.
    tap(state, "manners-unlock", side="player")
    assert draft_of(state)["player"]["manner"] is None and draft_of(state)["opponent"]["manner"] is None
    tap(state, "manners-manner", side="player", value="Force")
    tap(state, "manners-lock", side="player")
    tap(state, "manners-manner", side="opponent", value="Speed")
    tap(state, "manners-lock", side="opponent")
    assert "Every card is face down." in region(state, "manners-result")
    tap(state, "manners-reveal")
    assert draft_of(state)["revealed"]["result"]["cell"] == "+2"
    assert state.focus == "manners-result-card"


def test_locked_sides_and_revealed_conflicts_ignore_changes():
    state = table(sheet())
    record = play_test(state)
    tap(state, "manners-manner", side="player", value="Speed")
    tap(state, "manners-helpers", side="player", step=1)
    tap(state, "manners-difficulty", value=2)
    assert draft_of(state)["revealed"] == record
    assert draft_of(state)["player"]["manner"] == "Force" and draft_of(state)["gm"]["difficulty"] == 5


# --- Descriptors and helpers ------------------------------------------------------------------------------

def test_descriptors_are_prefilled_from_the_sheet_for_the_manner_and_skill_and_stay_editable():
    entry = sheet(skills=(("Climb", 2), ("Sneak", 1)),
                  descriptors=(("Strong", "Force"), ("Rope expert", "Climb"), ("Quiet", "Sneak")))
    state = table(entry)
    assert draft_of(state)["player"]["descriptors"] == 1  # Climb, the first Skill: Rope expert
    tap(state, "manners-complication", value="Time")
    tap(state, "manners-manner", side="player", value="Force")
    assert draft_of(state)["player"]["descriptors"] == 2
    assert "From the sheet: Strong (Force), Rope expert (Climb)." in region(state, "manners-player-who")
    tap(state, "manners-skill", side="player", value="Sneak")
    assert draft_of(state)["player"]["descriptors"] == 2  # Strong, Quiet
    tap(state, "manners-manner", side="player", value="Speed")
    assert draft_of(state)["player"]["descriptors"] == 1
    tap(state, "manners-descriptors", side="player", step=1)
    tap(state, "manners-descriptors", side="player", step=1)
    assert draft_of(state)["player"]["descriptors"] == 3
    tap(state, "manners-descriptors", side="player", step=-1)
    assert draft_model.record_side(state, draft_of(state)["player"])["descriptors"] == 2


def test_helpers_add_one_each_and_the_roster_shows_who_can_help():
    helper = check_roster_entry({"system": "manners", "kind": "character", "name": "Ash",
                                          "manners": {}, "skills": [{"name": "climb", "rating": 1}]})
    no_help = check_roster_entry({"system": "manners", "kind": "character", "name": "Bo",
                                           "manners": {}, "skills": [{"name": "Climb", "rating": 0}]})
    state = table(sheet(), helper, no_help)
    who = region(state, "manners-player-who")
    assert "Helpers share the consequences of failure." in who
    assert "Can help with Climb: Ash (1)." in who and "Bo" not in text_of(who).split("Can help")[1]
    tap(state, "manners-helper", side="player", id=no_help["id"])  # Climb 0: can't help
    assert "Bo can't help" in seen(state.message.text) and draft_of(state)["player"]["helper_ids"] == []
    tap(state, "manners-helper", side="player", id=helper["id"])
    record = play_test(state, "Force", "Time", 5, helpers=1)
    assert record["player"]["helpers"] == 2 and record["result"]["player_total"] == 3 + 2 + 2 + 2
    assert record["player"]["helper_names"] == ["Ash", "Helper 1"]
    tap(state, "manners-new")
    assert draft_of(state)["player"]["helper_ids"] == []


def test_a_failure_with_helpers_says_they_share_it():
    state = table(sheet())
    record = play_test(state, "Force", "Hostility", 5, helpers=1)
    assert record["result"]["outcome"] == "failure"
    assert "Helper 1 shares the consequences of this failure." in region(state, "manners-result")


# --- The reveal: the table, the numbers, the words ------------------------------------------------------------

def decided(markup: str) -> tuple[str, str, str]:
    [cell] = re.findall(r'<td [^>]*data-testid="decided-cell"[^>]*>.*?</td>', markup)
    row = re.search(r'data-row="([^"]+)"', cell).group(1)
    column = re.search(r'data-column="([^"]+)"', cell).group(1)
    assert 'aria-current="true"' in cell and cards_view.MARK in cell
    return row, column, text_of(cell)


@pytest.mark.parametrize("manner", rules.MANNERS)
@pytest.mark.parametrize("complication", rules.COMPLICATIONS)
def test_the_highlighted_test_cell_is_the_rules_cell(manner, complication):
    state = table(sheet())
    record = play_test(state, manner, complication)
    markup = region(state, "manners-result")
    row, column, words = decided(markup)
    assert (row, column) == (manner, complication)
    assert record["result"]["cell"] in words.split()
    assert record["result"]["cell"] == rules.TEST_TABLE[manner][complication]
    assert f"{manner} against {complication}: {record['result']['cell']}." in text_of(markup)
    assert manners_words.outcome_word(record["result"]) in markup


@pytest.mark.parametrize("manner", rules.MANNERS)
@pytest.mark.parametrize("opposing", rules.MANNERS)
def test_the_highlighted_confrontation_cell_is_the_rules_cell(manner, opposing):
    state = table(sheet(), sheet("Moth", kind="adversary", descriptors=()))
    record = play_confrontation(state, manner, opposing)
    markup = region(state, "manners-result")
    row, column, words = decided(markup)
    assert (row, column) == (manner, opposing)
    assert record["result"]["cell"] in words.split()
    assert 'data-testid="confrontation-table"' in markup


def test_the_highlighted_row_and_column_are_marked_beyond_colour():
    state = table(sheet())
    play_test(state, "Speed", "Collateral")
    markup = region(state, "manners-result")
    assert re.search(r'<th scope="row" class="row-head is-row">.*?Speed', markup)
    assert re.search(r'<th scope="col" class="column-head is-column">.*?Collateral', markup)
    assert "◆ Speed against Collateral: +0." in text_of(markup)


def test_numbers_compared_and_partial_meaning():
    # Imagination against Time is "Partial": the Complication adds 2; 1 + 2 + 4 = 7 against 3 + 2 = 5.
    state = table(sheet())
    record = play_test(state, "Imagination", "Time", 3, helpers=4)
    result = record["result"]
    assert (result["cell"], result["outcome"], result["player_total"], result["other_total"]) == \
        ("Partial", "partial", 7, 5)
    markup = text_of(region(state, "manners-result"))
    assert "Wren: Imagination 1 + Climb 2 + 4 helpers = 7" in markup
    assert "Difficulty 3 + 2 (card) = 5" in markup
    assert "Partial success" in markup and manners_words.PARTIAL_MEANING["test"] in markup
    assert rules.READINGS["manners-test-partial"] in markup
    assert seen(state.announcement) == "Wren plays Imagination against Time: Partial, 7 against 5. Partial success."


def test_ties_broken_by_descriptors_and_compromises_in_words():
    state = table(sheet(), sheet("Moth", kind="adversary", descriptors=()))
    record = play_confrontation(state, "Force", "Force")  # +0, 5 against 5, Strong breaks the tie
    assert record["result"]["tie_broken_by"] == "descriptors" and record["result"]["outcome"] == "success"
    markup = text_of(region(state, "manners-result"))
    assert "A tie at 5: Wren has more descriptors (1 to 0)." in markup
    assert rules.READINGS["manners-descriptors"] in markup
    tap(state, "manners-new")
    tap(state, "manners-manner", side="player", value="Force")
    tap(state, "manners-descriptors", side="player", step=-1)
    tap(state, "manners-lock", side="player")
    tap(state, "manners-manner", side="opponent", value="Force")
    tap(state, "manners-lock", side="opponent")
    tap(state, "manners-reveal")
    record = draft_of(state)["revealed"]
    assert record["result"]["outcome"] == "compromise"
    markup = text_of(region(state, "manners-result"))
    assert "A tie at 5, and descriptors do not break it (0 each)." in markup
    assert manners_words.COMPROMISE_MEANING in markup
    assert seen(state.announcement) == "Wren plays Force against Moth's Force: +0, 5 against 5. Compromise."


@pytest.mark.parametrize("record, words", [
    ({"kind": "test", "player": {"name": "Wren", "manner": "Force"}, "complication": "Hostility",
      "result": {"cell": "Lose", "outcome": "failure"}}, "Wren plays Force against Hostility: Lose. Failure."),
    ({"kind": "confrontation", "player": {"name": "Wren", "manner": "Force"},
      "opponent": {"name": "Silas", "manner": "Speed"},
      "result": {"cell": "+2", "outcome": "success", "player_total": 7, "other_total": 6}},
     "Wren plays Force against Silas' Speed: +2, 7 against 6. Success."),
])
def test_the_sentence(record, words):
    assert seen(manners_words.sentence({"v": 1, "system": "manners", **record})) == words


# --- Log and the next conflict -----------------------------------------------------------------------------------

def test_logging_keeps_the_record_and_changes_no_tension_or_ap():
    state = table(sheet())
    tension = state.session["tension"]
    record = play_test(state)
    tap(state, "manners-log")
    assert state.session["log"][0]["record"] == record and state.session["log"][0]["by"] == "Wren"
    assert state.session["tension"] == tension
    assert seen(state.announcement) == "Wren plays Force against Hostility: Lose. Failure."
    assert "Failure</span> (Lose)" in region(state, "manners-bar")  # an outright Lose compares no numbers
    assert "Result (logged)" in region(state, "manners-result")
    assert state.focus == "manners-result-card" and 'id="manners-bar-action"' in region(state, "manners-bar")
    tap(state, "manners-log")  # a second tap does not log twice
    assert len(state.session["log"]) == 1
    tap(state, "manners-new")
    draft = draft_of(state)
    assert draft["revealed"] is None and draft["gm"]["complication"] is None
    assert draft["player"]["manner"] is None and not draft["player"]["locked"] and draft["player"]["helpers"] == 0
    assert draft["player"]["ref"] == state.session["roster"][0]["id"] and draft["gm"]["difficulty"] == 5


def test_a_rule_error_is_shown_not_raised():
    state = table()
    tap(state, "manners-rating", side="player", manner="Force", value="999")  # clamped to the rules' limit
    assert draft_of(state)["player"]["ratings"]["Force"] == rules.LIMITS["rating"]
    draft = draft_of(state)
    draft["player"]["ratings"]["Force"] = 999  # e.g. an old sheet
    draft["gm"]["complication"] = "Time"
    draft["player"].update(manner="Force", locked=True)
    tap(state, "manners-reveal")
    assert state.message.tone == "error" and draft["revealed"] is None
    assert "Force rating" in state.message.text


def test_a_new_roster_entry_fills_an_untouched_side():
    state = table()
    draft_of(state)
    entry = sheet("Kit")
    state.editing = {"entry": {**entry, "id": "kit"}, "is_new": True}
    tap(state, "roster-save")
    assert draft_of(state)["player"]["ref"] == "kit"


# --- Odds -------------------------------------------------------------------------------------------------------------

def test_odds_rows_give_card_counts_and_outcomes_for_each_manner():
    state = table()
    tap(state, "manners-rating", side="player", manner="Force", value="4")
    tap(state, "manners-skill-rating", side="player", step=1)
    tap(state, "manners-difficulty", value=5)
    rows = manners_view.odds_rows(state, draft_of(state))
    expected = rules.outcomes_for_test({"manner_ratings": {**{m: 2 for m in rules.MANNERS}, "Force": 4},
                                        "skill_rating": 1, "helpers": 0, "descriptors": 0}, 5)
    for manner in rules.MANNERS:
        assert rows[manner]["cards"] == {"win": 1, "lose": 1, "numbers": 3}
        assert rows[manner]["outcomes"] == expected[manner]["counts"]
    markup = region(state, "manners-odds")
    assert markup.count('data-testid="odds-row"') == 5
    assert "Of the five cards, every Manner has 1 win · 1 lose · 3 on numbers." in markup
    force = re.search(r'data-manner="Force">(.*?)</li>', markup).group(1)
    counts = expected["Force"]["counts"]
    words = ", ".join(f"{counts[key]} {manners_words.OUTCOME_WORDS[key].lower()}"
                      for key in ("success", "partial", "compromise", "failure") if counts[key])
    assert words in force


def test_confrontation_odds_use_each_manners_sheet_descriptors_not_the_pick():
    state = table(sheet(), sheet("Moth", kind="adversary", descriptors=(("Quick", "Speed"),)))
    tap(state, "manners-kind", value="confrontation")
    before = manners_view.odds_rows(state, draft_of(state))
    tap(state, "manners-manner", side="opponent", value="Speed")  # the opponent's pick changes nothing
    assert manners_view.odds_rows(state, draft_of(state)) == before
    # Force (3 + 2 = 5, Strong) against Force (3 + 2 = 5, no descriptor on Force): the tie is Wren's.
    assert sum(before["Force"]["outcomes"].values()) == 5
    player = draft_model.planner(state, draft_of(state)["player"], 1)
    opponent = draft_model.planner(state, draft_of(state)["opponent"], 0)
    assert rules.outcomes_for_confrontation(player, opponent)["Force"]["against"]["Force"]["outcome"] == "success"


def test_the_chosen_manner_is_marked_in_the_odds():
    state = table(sheet())
    tap(state, "manners-complication", value="Time")
    tap(state, "manners-manner", side="player", value="Speed")
    markup = region(state, "manners-odds")
    assert re.search(r'<li class="odds-row chosen" aria-current="true" data-testid="odds-row" data-manner="Speed">',
                     markup)


# --- Escaping and sheets ---------------------------------------------------------------------------------------------

def test_names_with_html_are_escaped_everywhere():
    evil = '<img src=x onerror="alert(1)">'
    state = table(sheet(evil, skills=((evil, 2),), descriptors=((evil, "Force"),)),
                  sheet("Moth", kind="adversary", descriptors=()))
    tap(state, "manners-complication", value="Time")
    tap(state, "manners-manner", side="player", value="Force")
    markup = page(state)
    assert "<img" not in markup and "&lt;img" in markup
    tap(state, "manners-lock", side="player")
    tap(state, "manners-reveal")
    markup = page(state)
    assert "<img" not in markup and "&lt;img" in markup
    state.screen = "roster"
    assert "<img" not in page(state)
    state.editing = {"entry": state.session["roster"][0], "is_new": False}
    assert "<img" not in page(state)


def test_a_blank_sheet_saves_and_summarises():
    entry = {"id": "x", "system": "manners", "kind": "character", "name": "Rook", **roster_manners.blank("character")}
    checked = check_roster_entry(entry)
    assert checked["manners"] == {manner: roster_manners.DEFAULT_RATING for manner in rules.MANNERS}
    assert dict(roster_manners.KINDS) == {"character": "Character", "adversary": "Adversary"}
    summary = text_of(roster_manners.summary(sheet()))
    assert "Determination 1 · Force 3 · Speed 2 · Precision 2 · Imagination 1" in summary
    assert "Skills and Spells: Climb 2" in summary and "Descriptors: Strong (Force)" in summary


def test_the_sheet_form_attaches_descriptors_to_a_manner_or_a_skill():
    entry = {**sheet(), "descriptors": [{"name": "Old", "on": "Juggle"}]}
    form = roster_manners.form(entry)
    for manner in rules.MANNERS:
        assert f'data-path="manners.{manner}"' in form
        assert f'<option value="{manner}"' in form
    assert '<option value="Climb">Climb</option>' in form
    assert "Juggle (no longer on the sheet)" in form
    assert 'data-template="descriptor"' in form and 'data-path="descriptors.0.on"' in form


def test_ids_on_the_page_are_unique_in_every_state():
    state = table(sheet(), sheet("Moth", kind="adversary", descriptors=()))
    seen = []

    def check():
        ids = re.findall(r' id="([^"]+)"', page(state))
        region_ids = [name for name, _ in router.page(state)]
        assert len(ids + region_ids) == len(set(ids + region_ids)), sorted(ids)
        seen.append(len(ids))

    check()
    tap(state, "manners-complication", value="Time")
    tap(state, "manners-manner", side="player", value="Force")
    check()
    tap(state, "manners-lock", side="player")
    check()
    tap(state, "manners-reveal")
    check()
    tap(state, "manners-new")
    tap(state, "manners-kind", value="confrontation")
    tap(state, "manners-who", side="player", value="")
    check()
    tap(state, "manners-manner", side="player", value="Force")
    tap(state, "manners-lock", side="player")
    check()


def test_a_skill_taken_off_the_sheet_is_not_played():
    state = table(sheet())
    draft = draft_of(state)
    state.session["roster"][0]["skills"] = []
    draft["player"]["manner"] = "Force"
    record_side = draft_model.record_side(state, draft["player"])
    assert "skill" not in record_side and record_side["skill_rating"] == 0


def test_cards_turned_over_and_not_logged_are_set_aside_by_a_new_conflict():
    state = table(sheet())
    play_test(state, "Force", "Time", 5)
    tap(state, "manners-new")
    [entry] = state.session["log"]
    assert entry["kind"] == "set-aside" and "result" not in entry["record"]
    assert entry["record"]["player"]["manner"] == "Force" and entry["record"]["complication"] == "Time"
    assert state.message.text == "The cards turned over are in the log, set aside."  # as dice are, in the others
    play_test(state, "Speed", "Time", 5)
    tap(state, "manners-log")
    tap(state, "manners-new")
    assert [item["kind"] for item in state.session["log"]] == ["conflict", "set-aside"]
    assert [seen(line) for line in manners_words.happened(state.session["log"][0]["record"])[:2]] == [
        "Cards: Wren played Speed; the GM's Complication was Time.", "Table cell [Speed][Time]: Win."]


# --- Sealed across phones (ui.systems.manners.exchange) -----------------------------------------------------------

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


def test_a_tampered_reveal_is_ignored_and_the_genuine_one_still_settles():
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
    forged = [sealed_exchange.check_message(message)
              for message in exchange_model.own_messages(gm, draft_of(gm)["exchange"])]
    forged[-1] = {**forged[-1], "card": "Consumption"}
    carry("x#" + sealed_message(gm.session["id"], "", forged), player)
    assert draft_of(player)["revealed"] is None  # opens no seal: nobody's word, and said in one sentence
    assert player.message.text == "A reveal that matches no seal was ignored." and 'role="alert"' in page(player)
    assert len(exchange_model.messages(player, conflict)) == 2  # the seal and the lock, nothing else: no room taken
    tap(player, "manners-log")
    assert conflict not in {entry["id"] for entry in player.session["log"]}
    carry(link_of(gm), player)
    assert draft_of(player)["revealed"]["complication"] == "Time"


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
    store = MemoryStore()
    state = phone(party(), store=store)
    tap(state, "switch-system", system="manners")
    tap(state, "manners-gm-mode", value="says")
    tap(state, "manners-seal-pick", value="Hostility")
    conflict = draft_of(state)["exchange"]["id"]
    tap(state, "manners-seal-share")
    key = f"tableside.secret.{state.session['id']}.{conflict}"
    salt = json.loads(store.get(key))["salt"]
    elsewhere = {name: value for name, value in store.items.items() if name != key}
    assert not [name for name, value in elsewhere.items() if salt in value or "Hostility" in value]
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
