"""ui.systems.anomaly under CPython: the Anomaly screen (view, actions, draft), its words and its roster
sheet. Drafts become the right records, taps follow the rules' limits with clear messages, and
what the view shows is what rules.resolve and rules.odds say."""
import html
import re

import pytest

import rules
from session import check_roster_entry, new_session
from ui import router
from ui.core.state import AppState
from ui.kit.percent import percent
from ui.screens.roster import actions as roster_actions  # noqa: F401  (registers the roster actions)
from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401  (registers the actions)
from ui.systems.anomaly import draft as draft_model
from ui.systems.anomaly import sheet as roster_anomaly
from ui.systems.anomaly import view as anomaly_view
from ui.systems.anomaly import words as anomaly_words

from reading import pictures
from samples import seen
from tapping import tap

SWORD = {"name": "Sword", "kind": "Gear", "value": 2, "stacks": False}
STRONG = {"name": "Strong", "kind": "Attribute", "value": 1, "stacks": False}
LANTERN = {"name": "Lantern", "kind": "Gear", "value": 1, "stacks": False}


def chips_on(state, side="actor"):
    """The player taps every sheet modifier that applies (they all start off)."""
    for chip in draft_model.chips(state, draft_of(state)[side]):
        if not chip["on"]:
            tap(state, "anomaly-chip", side=side, chip=chip["key"])


def entry(name="Rook", kind="character", modifiers=(SWORD, STRONG)):
    return check_roster_entry({"system": "anomaly", "kind": kind, "name": name,
                                        "modifiers": [dict(modifier) for modifier in modifiers]})


def table(*entries, odds_ready=True) -> AppState:
    session = new_session(system="anomaly")
    session["roster"] = list(entries)
    return AppState(session=session, odds_ready={"anomaly"} if odds_ready else set())


def draft_of(state) -> dict:
    return state.draft(draft_model.new_draft)


def enter_real_dice(state, side, faces):
    """Real dice typed in, after the GM has set a difficulty (6 unless one is set: seed order)."""
    if draft_of(state)["kind"] == "check" and draft_of(state)["difficulty"] is None:
        tap(state, "anomaly-difficulty", value=6)
    tap(state, "anomaly-mode", side=side, value="real")
    for face in faces:
        tap(state, "anomaly-add-face", side=side, face=face)


def add_modifier(state, side, kind="Gear", value=1, stacks=False, other=""):
    if not draft_of(state)[side]["adding"]:
        tap(state, "anomaly-adding", side=side)
    tap(state, "anomaly-new-kind", side=side, value=kind)
    if other:
        tap(state, "anomaly-new-other", side=side, typed=other)
    start = draft_of(state)[side]["new"]["value"]
    for _ in range(abs(value - start)):
        tap(state, "anomaly-new-value", side=side, step=1 if value > start else -1)
    if stacks:
        tap(state, "anomaly-new-stacks", side=side, checked=True)
    tap(state, "anomaly-add-modifier", side=side)


def markup(state) -> str:
    return "".join(region for _, region in router.page(state))


def page_text(state) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", seen(markup(state)))))


def by_testid(state, testid) -> str:
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</', markup(state))
    assert found, testid
    return html.unescape(found.group(1))


# --- Draft -> record ---------------------------------------------------------------------------

def test_a_check_record_carries_the_sheet_modifiers_dice_and_difficulty():
    rook = entry()
    state = table(rook)
    tap(state, "anomaly-dice", side="actor", which="good", step=1)
    tap(state, "anomaly-dice", side="actor", which="good", step=1)
    tap(state, "anomaly-dice", side="actor", which="bad", step=1)
    tap(state, "anomaly-difficulty", value=9)
    chips_on(state)
    enter_real_dice(state, "actor", [3, 7])
    record = draft_model.to_record(state, draft_of(state))
    assert record == {"v": 1, "system": "anomaly", "kind": "check", "difficulty": 9,
                      "actor": {"name": "Rook", "dice_from": "typed", "id": rook["id"], "good": 2, "bad": 1,
                                "dice": [3, 7],
                                "modifiers": [SWORD, STRONG]}}
    result = rules.resolve(record)["result"]
    assert (result["actor"]["kept"], result["actor"]["total"], result["outcome"]) == (7, 10, "success")


def test_modifiers_turned_off_stay_out_of_the_record_and_one_offs_go_in():
    state = table(entry())
    assert draft_model.to_record(state, draft_of(state))["actor"]["modifiers"] == []  # nothing applied unasked
    tap(state, "anomaly-chip", side="actor", chip="s0")  # the Sword applies to this roll
    add_modifier(state, "actor", kind="Gear", value=1)
    add_modifier(state, "actor", kind="", other="Cover", value=-2, stacks=True)
    modifiers = draft_model.to_record(state, draft_of(state))["actor"]["modifiers"]
    assert modifiers == [SWORD, {"kind": "Gear", "value": 1, "stacks": False},
                         {"kind": "Cover", "value": -2, "stacks": True}]
    tap(state, "anomaly-chip", side="actor", chip="s1")
    assert STRONG in draft_model.to_record(state, draft_of(state))["actor"]["modifiers"]


def test_an_opposed_record_has_a_rolling_defender():
    rook, vex = entry(), entry("Vex", "adversary", [LANTERN])
    state = table(rook, vex)
    tap(state, "anomaly-kind", value="opposed")
    chips_on(state)
    chips_on(state, "defender")
    enter_real_dice(state, "actor", [6])
    tap(state, "anomaly-dice", side="defender", which="bad", step=1)
    enter_real_dice(state, "defender", [9, 4])
    record = draft_model.to_record(state, draft_of(state))
    assert "difficulty" not in record
    assert record["defender"] == {"name": "Vex", "dice_from": "typed", "id": vex["id"], "good": 0, "bad": 1,
                                  "dice": [9, 4], "modifiers": [LANTERN]}
    result = rules.resolve(record)["result"]
    assert result["defender"]["total"] == 5 and result["actor"]["total"] == 9 and result["margin"] == 4


def test_an_opposed_record_with_a_defender_given_as_a_total():
    state = table(entry())
    tap(state, "anomaly-kind", value="opposed")
    tap(state, "anomaly-name", side="defender", typed="Guard")
    tap(state, "anomaly-dice", side="defender", which="good", step=1)  # ignored once only a total is given
    tap(state, "anomaly-mode", side="defender", value="total")
    tap(state, "anomaly-total", side="defender", typed="9")
    chips_on(state)
    enter_real_dice(state, "actor", [7])
    record = draft_model.to_record(state, draft_of(state))
    assert record["defender"] == {"name": "Guard", "dice_from": "total", "total": 9}
    result = rules.resolve(record)["result"]
    assert (result["outcome"], result["margin"]) == ("success", 1)
    assert "anomaly-given-total" in result["notes"]


def test_real_dice_not_all_entered_never_roll_they_ask_for_the_rest():
    state = table(entry())
    tap(state, "anomaly-difficulty", value=9)
    tap(state, "anomaly-dice", side="actor", which="good", step=1)
    enter_real_dice(state, "actor", [4])
    record = draft_model.to_record(state, draft_of(state))
    assert record["actor"]["dice"] == [4]
    with pytest.raises(rules.RuleError, match="2 dice, but 1 face was given"):
        rules.resolve(record)
    assert not draft_model.everyone_settled(state, draft_of(state))
    assert "Waiting for Rook's real dice." in page_text(state)


def test_quick_roll_without_a_sheet_uses_the_typed_name_or_a_default():
    state = table()
    draft = draft_of(state)
    assert draft_model.to_record(state, draft)["actor"]["name"] == "Player"
    tap(state, "anomaly-name", side="actor", typed="  Wren   the  Bold ")
    assert draft_model.to_record(state, draft)["actor"] == {
        "name": "Wren the Bold", "dice_from": "app", "good": 0, "bad": 0, "dice": None, "modifiers": []}


# --- Actions ------------------------------------------------------------------------------------

def test_steppers_stay_within_the_rules_limits():
    state = table()
    roller = draft_of(state)["actor"]
    tap(state, "anomaly-dice", side="actor", which="bad", step=-1)
    assert roller["bad"] == 0
    for _ in range(rules.LIMITS["conditional_dice"] + 3):
        tap(state, "anomaly-dice", side="actor", which="good", step=1)
    assert roller["good"] == rules.LIMITS["conditional_dice"]
    tap(state, "anomaly-adding", side="actor")
    for _ in range(rules.LIMITS["modifier_value"] + 5):
        tap(state, "anomaly-new-value", side="actor", step=-1)
    assert roller["new"]["value"] == -rules.LIMITS["modifier_value"]


def test_a_roll_here_settles_its_dice_difficulty_and_modifiers(monkeypatch):
    monkeypatch.setattr(rules.dice, "DEFAULT_SOURCE", rules.FixedDice([8, 2]))
    state = table(entry())
    tap(state, "anomaly-dice", side="actor", which="good", step=1)
    tap(state, "anomaly-roll", side="actor")
    assert draft_of(state)["actor"]["dice"] is None and "difficulty first" in state.message.text
    tap(state, "anomaly-difficulty", value=9)
    chips_on(state)
    tap(state, "anomaly-roll", side="actor")
    roller = draft_of(state)["actor"]
    assert roller["dice"] == [8, 2]
    assert seen(state.announcement) == ("Rook rolls 8 and 2, keeps 8: total 11. "
                                        "As it stands: Rook rolls 8 + 2 + 1 = 11 against 9. Success by 2.")
    assert state.focus == "anomaly-actor-sum" and 'id="anomaly-actor-sum" tabindex="-1"' in markup(state)
    for name, data in (("anomaly-dice", {"which": "bad", "step": 1}), ("anomaly-chip", {"chip": "s0"}),
                       ("anomaly-mode", {"value": "real"})):
        state.message = None
        tap(state, name, side="actor", **data)
        assert state.message.tone == "error" and "Settled" in state.message.text
    tap(state, "anomaly-difficulty", value=12)
    assert draft_of(state)["difficulty"] == 9 and "difficulty stands" in state.message.text
    assert roller["dice"] == [8, 2] and roller["bad"] == 0
    assert "Settled: rolled" in page_text(state)


def test_fewer_conditional_dice_keep_the_real_dice_that_still_fit():
    state = table()
    tap(state, "anomaly-dice", side="actor", which="good", step=2)
    enter_real_dice(state, "actor", [5, 9])  # two of three entered: not rolled yet
    tap(state, "anomaly-dice", side="actor", which="good", step=-2)
    assert draft_of(state)["actor"]["dice"] == [5]
    assert "kept the first 1" in state.message.text


def test_chips_toggle_and_the_same_kind_shows_which_is_left_out():
    state = table(entry(modifiers=[SWORD, LANTERN, STRONG]))
    chips_on(state)
    statuses = {chip["name"]: chip for chip in draft_model.chip_status(state, draft_of(state)["actor"])}
    assert statuses["Sword"]["status"] == "applied" and statuses["Strong"]["status"] == "applied"
    assert statuses["Lantern"]["status"] == "left_out" and statuses["Lantern"]["beside"]["name"] == "Sword"
    assert "left out: same kind as Gear +2" in page_text(state)
    tap(state, "anomaly-chip", side="actor", chip="s0")  # Sword off: the Lantern counts now
    statuses = {chip["name"]: chip["status"] for chip in draft_model.chip_status(state, draft_of(state)["actor"])}
    assert statuses == {"Sword": "off", "Lantern": "applied", "Strong": "applied"}
    assert "off for this roll" in page_text(state)
    assert by_testid(state, "modifier-total-actor") == "(+2)"


def test_a_chip_marked_stacks_counts_beside_the_largest():
    state = table()
    add_modifier(state, "actor", kind="Gear", value=2)
    add_modifier(state, "actor", kind="Gear", value=1, stacks=True)
    add_modifier(state, "actor", kind="Gear", value=1)
    statuses = [chip["status"] for chip in draft_model.chip_status(state, draft_of(state)["actor"])]
    assert statuses == ["applied", "applied", "left_out"]
    assert by_testid(state, "modifier-total-actor") == "(+3)"


def test_a_one_off_modifier_of_another_kind_needs_its_name_and_can_be_removed():
    state = table()
    add_modifier(state, "actor", kind="", other="   ")
    assert state.message.tone == "error" and "Name the kind" in state.message.text
    assert draft_of(state)["actor"]["extra"] == []
    add_modifier(state, "actor", kind="", other="Magic", value=3)
    assert draft_of(state)["actor"]["extra"] == [{"kind": "Magic", "value": 3, "stacks": False, "on": True,
                                                  "name": ""}]
    assert state.message is None and seen(state.announcement) == "Added Magic +3."
    tap(state, "anomaly-chip-remove", side="actor", index=0)
    assert draft_of(state)["actor"]["extra"] == []


def test_sheet_chips_follow_edits_made_to_the_sheet_after_it_was_picked():
    rook = entry()
    state = table(rook)
    tap(state, "anomaly-chip", side="actor", chip="s0")
    state.session["roster"][0] = entry(modifiers=[LANTERN])
    state.session["roster"][0]["id"] = rook["id"]
    chips = draft_model.chip_status(state, draft_of(state)["actor"])
    assert [(chip["name"], chip["status"]) for chip in chips] == [("Lantern", "off")]  # tapped again if it applies


def test_a_typed_face_of_11_gets_a_clear_message_and_changes_nothing():
    state = table()
    tap(state, "anomaly-difficulty", value=6)
    tap(state, "anomaly-mode", side="actor", value="real")
    tap(state, "anomaly-type-faces", side="actor", typed="11")
    assert state.message.tone == "error" and state.message.text == "A d10 shows 1 to 10, not 11."
    assert draft_of(state)["actor"]["dice"] == []
    tap(state, "anomaly-type-faces", side="actor", typed="10")
    assert draft_of(state)["actor"]["dice"] == [10] and state.message is None


def test_too_many_dice_get_a_message_that_says_how_many():
    state = table()
    tap(state, "anomaly-dice", side="actor", which="good", step=2)
    tap(state, "anomaly-dice", side="actor", which="bad", step=1)
    tap(state, "anomaly-difficulty", value=6)
    tap(state, "anomaly-mode", side="actor", value="real")
    tap(state, "anomaly-type-faces", side="actor", typed="4, 8 9")
    assert seen(state.message.text) == "Player rolls 2 dice (2 good − 1 bad = roll 2, keep highest), not 3."
    tap(state, "anomaly-type-faces", side="actor", typed="x")
    assert "numbers from 1 to 10" in state.message.text
    tap(state, "anomaly-type-faces", side="actor", typed="4")
    tap(state, "anomaly-remove-face", side="actor")
    assert draft_of(state)["actor"]["dice"] == []
    tap(state, "anomaly-type-faces", side="actor", typed="4 8")
    tap(state, "anomaly-clear", side="actor")  # every die entered: the roll is made
    tap(state, "anomaly-add-face", side="actor", face=3)
    assert "Settled" in state.message.text
    assert draft_of(state)["actor"]["dice"] == [4, 8]


def test_a_tapped_face_outside_a_d10_is_refused():
    state = table()
    tap(state, "anomaly-difficulty", value=6)
    tap(state, "anomaly-mode", side="actor", value="real")
    tap(state, "anomaly-add-face", side="actor", face=0)
    assert state.message.text == "A d10 shows 1 to 10, not 0."


def test_difficulty_quick_picks_and_any_number():
    state = table()
    for value in rules.SUGGESTED_DIFFICULTIES:
        tap(state, "anomaly-difficulty", value=value)
        assert draft_of(state)["difficulty"] == value
        assert f'id="anomaly-difficulty-{value}" data-action="anomaly-difficulty" data-value="{value}" ' \
               f'aria-pressed="true"' in markup(state)
    tap(state, "anomaly-difficulty-type", typed="10")
    assert draft_of(state)["difficulty"] == 10
    tap(state, "anomaly-difficulty-type", typed="100")
    assert draft_of(state)["difficulty"] == 10 and "from 0 to 99" in state.message.text
    tap(state, "anomaly-difficulty-type", typed="")
    assert draft_of(state)["difficulty"] is None
    assert "The GM sets the difficulty first, then the roll." in page_text(state)  # seed order
    tap(state, "anomaly-mode", side="actor", value="real")
    tap(state, "anomaly-add-face", side="actor", face=5)
    assert draft_of(state)["actor"]["dice"] == [] and "difficulty first" in state.message.text


def test_only_a_defender_may_be_given_as_a_total():
    state = table()
    tap(state, "anomaly-kind", value="opposed")
    tap(state, "anomaly-mode", side="actor", value="total")
    assert draft_of(state)["actor"]["mode"] == "roll"
    tap(state, "anomaly-mode", side="defender", value="total")
    tap(state, "anomaly-total", side="defender", typed="-3")
    assert draft_of(state)["defender"]["total"] == -3
    tap(state, "anomaly-total", side="defender", typed="1000")
    assert draft_of(state)["defender"]["total"] is None and state.message.tone == "error"


def test_logging_appends_to_the_session_log_and_announces_one_sentence():
    state = table(entry(modifiers=[SWORD]))
    tap(state, "anomaly-difficulty", value=9)
    chips_on(state)
    enter_real_dice(state, "actor", [7])
    tap(state, "anomaly-log")
    assert seen(state.announcement) == "Rook rolls 7 + 2 = 9 against 9. Failure: equal is not enough."
    [logged] = state.session["log"]
    assert logged["by"] == "Rook" and logged["record"]["result"]["outcome"] == "failure"
    assert logged["record"] == draft_of(state)["logged"]
    assert state.session["tension"] == new_session()["tension"]  # no Tension in Anomaly
    text = page_text(state)
    assert "Result (logged)" in text and "New roll" in text and "Log this result" not in text
    assert state.focus == "anomaly-result-card"  # the bar's button changed: keyboard users land on the result
    assert 'id="anomaly-result-card" tabindex="-1"' in markup(state) and 'id="anomaly-bar-action"' in markup(state)
    tap(state, "anomaly-difficulty", value=12)  # a logged result is final
    assert draft_of(state)["difficulty"] == 9 and state.message.tone == "error"
    tap(state, "anomaly-new")
    draft = draft_of(state)
    assert draft["logged"] is None and draft["actor"]["dice"] == [] and draft["difficulty"] == 9
    assert draft_model.to_record(state, draft)["actor"]["modifiers"] == [SWORD]


def test_logging_waits_until_everyone_has_rolled():
    state = table()
    tap(state, "anomaly-difficulty", value=9)
    tap(state, "anomaly-log")
    assert state.session["log"] == [] and state.message.text == "Not everyone has rolled yet."


# --- Words --------------------------------------------------------------------------------------

@pytest.mark.parametrize("good, bad, words", [
    (0, 0, "no conditional dice: roll 1"),
    (2, 1, "2 good − 1 bad = roll 2, keep highest"),
    (1, 0, "1 good: roll 2, keep highest"),
    (0, 1, "1 bad: roll 2, keep lowest"),
    (1, 3, "1 good − 3 bad = roll 3, keep lowest"),
    (1, 1, "1 good − 1 bad = roll 1 (they cancel)"),
])
def test_net_dice_in_words(good, bad, words):
    assert anomaly_words.net_words(good, bad) == words


def test_seed_examples_in_words():
    # Two daggers against one: one good die. High ground: one bad die. Both: none.
    assert anomaly_words.net_words(1, 0) == "1 good: roll 2, keep highest"
    assert anomaly_words.net_words(0, 1) == "1 bad: roll 2, keep lowest"
    assert anomaly_words.net_words(1, 1).startswith("1 good − 1 bad = roll 1")


@pytest.mark.parametrize("kind, dice, modifiers, difficulty, defender, expected", [
    ("check", [7], [{"kind": "Gear", "value": 2}], 9, None,
     "Rook rolls 7 + 2 = 9 against 9. Failure: equal is not enough."),
    ("check", [8], [{"kind": "Size", "value": -1}], 3, None, "Rook rolls 8 − 1 = 7 against 3. Success by 4."),
    ("check", [2], [], 6, None, "Rook rolls 2 against 6. Failure by 4."),
    ("opposed", [9], [], None, {"name": "Vex", "total": 8}, "Rook rolls 9 against Vex's 8 (given). Success by 1."),
    ("opposed", [4], [], None, {"name": "Vex", "dice": [6], "modifiers": [{"kind": "Skill", "value": 1}]},
     "Rook rolls 4 against Vex's 6 + 1 = 7. Failure by 3."),
])
def test_the_sentence_announced_and_logged(kind, dice, modifiers, difficulty, defender, expected):
    record = {"v": 1, "system": "anomaly", "kind": kind,
              "actor": {"name": "Rook", "dice": dice, "modifiers": modifiers}}
    if kind == "check":
        record["difficulty"] = difficulty
    else:
        record["defender"] = defender
    assert seen(anomaly_words.sentence(rules.resolve(record))) == expected


# --- The view -----------------------------------------------------------------------------------

def states_to_render():
    """(label, state) for every state the screen can be in."""
    made = []
    made.append(("empty, odds loading", table(odds_ready=False)))
    made.append(("empty", table()))
    state = table(entry(), entry("Vex", "adversary", [LANTERN]))
    tap(state, "anomaly-difficulty", value=9)
    add_modifier(state, "actor", kind="Gear", value=1)
    made.append(("set up with sheet and form open", state))
    state = table(entry())
    tap(state, "anomaly-difficulty", value=9)
    enter_real_dice(state, "actor", [7])
    made.append(("rolled", state))
    state = table(entry())
    tap(state, "anomaly-difficulty", value=9)
    tap(state, "anomaly-dice", side="actor", which="bad", step=1)
    enter_real_dice(state, "actor", [3])
    made.append(("half entered", state))
    state = table(entry())
    tap(state, "anomaly-difficulty", value=12)
    enter_real_dice(state, "actor", [10])
    tap(state, "anomaly-log")
    made.append(("logged", state))
    for mode in ("roll", "real", "total"):
        state = table(entry(), entry("Vex", "adversary"))
        tap(state, "anomaly-kind", value="opposed")
        tap(state, "anomaly-mode", side="defender", value=mode)
        made.append((f"opposed, defender {mode}, nobody rolled", state))
    state = table(entry(), entry("Vex", "adversary"))
    tap(state, "anomaly-kind", value="opposed")
    enter_real_dice(state, "actor", [6])
    made.append(("opposed, attacker rolled", state))
    state = table(entry(), entry("Vex", "adversary"))
    tap(state, "anomaly-kind", value="opposed")
    enter_real_dice(state, "defender", [5])
    made.append(("opposed, defender rolled", state))
    state = table(entry())
    tap(state, "anomaly-kind", value="opposed")
    tap(state, "anomaly-mode", side="defender", value="total")
    tap(state, "anomaly-total", side="defender", typed="8")
    enter_real_dice(state, "actor", [6])
    tap(state, "anomaly-log")
    made.append(("opposed, given total, logged", state))
    return made


@pytest.mark.parametrize("label, state", states_to_render(), ids=lambda value: value if isinstance(value, str) else "")
def test_the_view_renders_every_state(label, state):
    regions = anomaly_view.regions(state)
    assert [region_id for region_id, _ in regions] == ["anomaly-setup", "anomaly-actor", "anomaly-defender",
                                                       "anomaly-result", "anomaly-bar"]
    page = markup(state)
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "ids must be unique"
    screen = "".join(region for _, region in regions)
    for attributes, content in re.findall(r"<button\b([^>]*)>(.*?)</button>", screen):
        assert 'aria-label="' in attributes or re.sub(r"<[^>]+>", "", content).strip(), attributes
    for control in re.findall(r"<(?:input|select)\b[^>]*>", screen):
        field_id = re.search(r' id="([^"]+)"', control).group(1)
        assert f'for="{field_id}"' in screen, control
    if "anomaly" not in state.odds_ready:
        assert "Working out the odds…" in page_text(state)


def test_names_and_kinds_with_html_are_only_text():
    evil = '<img src=x onerror="alert(1)">'
    state = table(entry(name=evil, modifiers=[{"name": evil, "kind": evil[:30], "value": 1, "stacks": False}]))
    tap(state, "anomaly-kind", value="opposed")
    tap(state, "anomaly-name", side="defender", typed=evil)
    add_modifier(state, "defender", kind="", other="<b>bold</b>")
    enter_real_dice(state, "actor", [5])
    enter_real_dice(state, "defender", [5])
    tap(state, "anomaly-log")
    page = markup(state)
    assert "<img" not in page and "<b>" not in page
    assert "&lt;img" in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert evil in state.announcement  # the announcer is set as text by dom.announce
    sheet = roster_anomaly.summary(state.session["roster"][0]) + roster_anomaly.form(state.session["roster"][0])
    assert "<img" not in sheet


@pytest.mark.parametrize("good, bad, dice, modifiers, difficulty", [
    (0, 0, [7], [SWORD], 9),
    (0, 0, [8], [SWORD], 9),
    (2, 1, [3, 7], [SWORD, LANTERN], 9),
    (0, 2, [9, 2, 6], [STRONG], 2),
    (1, 1, [10], [], 10),
    (3, 0, [1, 1, 4, 1], [{"name": "", "kind": "Size", "value": -2, "stacks": False}], 1),
])
def test_the_shown_outcome_is_what_the_rules_resolve(good, bad, dice, modifiers, difficulty):
    state = table(entry(modifiers=modifiers))
    for which, count in (("good", good), ("bad", bad)):
        for _ in range(count):
            tap(state, "anomaly-dice", side="actor", which=which, step=1)
    tap(state, "anomaly-difficulty-type", typed=str(difficulty))
    enter_real_dice(state, "actor", dice)
    expected = rules.resolve(draft_model.to_record(state, draft_of(state)))["result"]
    assert by_testid(state, "outcome") == {"success": "Success", "failure": "Failure"}[expected["outcome"]]
    assert by_testid(state, "total").endswith(str(expected["actor"]["total"]))
    assert by_testid(state, "side-total") == str(expected["actor"]["total"])
    assert by_testid(state, "margin") == anomaly_words.margin_words(expected["margin"])
    kept = expected["actor"]["keep"]
    assert re.findall(r'aria-label="Die (\d+): \d+, kept"', markup(state)) == [str(kept + 1)]
    for note in expected["notes"]:
        assert rules.READINGS[note] in page_text(state)
    assert ("Equal is not enough" in page_text(state)) == (expected["margin"] == 0)


def test_dice_in_the_tray_are_pictures_with_text_not_buttons():
    state = table()
    tap(state, "anomaly-dice", side="actor", which="bad", step=2)
    enter_real_dice(state, "actor", [6, 2, 9])
    tray = re.search(r'<div class="tray".*?</div>', markup(state)).group(0)
    assert "<button" not in tray
    assert re.findall(r'aria-label="([^"]+)"', tray) == ["Player&#x27;s dice", "Die 1: 6", "Die 2: 2, kept", "Die 3: 9"]
    assert "Kept the lowest (bad dice)." in page_text(state)


def test_odds_before_the_roll_are_the_rules_odds_with_one_more_good_or_bad_die():
    state = table(entry(modifiers=[SWORD]))
    assert "Pick a difficulty to see the chance of success." in page_text(state)
    tap(state, "anomaly-difficulty", value=9)
    tap(state, "anomaly-dice", side="actor", which="good", step=1)
    chips_on(state)
    modifiers = [{"kind": "Gear", "value": 2, "stacks": False, "name": "Sword"}]
    now = rules.odds.anomaly_check(1, 0, modifiers, 9)["success"]
    assert by_testid(state, "chance-actor") == percent(now)
    bars, totals = pictures(state)
    assert bars == (f"Chance of success against 9, and with one more conditional die. As it stands: {percent(now)}; "
                    f"With 1 more good die: {percent(rules.odds.anomaly_check(2, 0, modifiers, 9)['success'])}; "
                    f"With 1 more bad die: {percent(rules.odds.anomaly_check(1, 1, modifiers, 9)['success'])}")
    assert totals.startswith("Rook's total: 3 to 12") and totals.endswith(f"; {percent(now)} beat 9")
    tap(state, "anomaly-chip", side="actor", chip="s0")
    assert by_testid(state, "chance-actor") == percent(rules.odds.anomaly_check(1, 0, [], 9)["success"])


def test_opposed_odds_for_both_sides_and_against_a_settled_total():
    state = table(entry(modifiers=[SWORD]), entry("Vex", "adversary", [STRONG]))
    tap(state, "anomaly-kind", value="opposed")
    chips_on(state)
    chips_on(state, "defender")
    actor = {"good": 0, "bad": 0, "modifiers": [SWORD]}
    defender = {"good": 0, "bad": 0, "modifiers": [STRONG]}
    chances = rules.odds.anomaly_opposed(actor, defender)
    assert by_testid(state, "chance-actor") == percent(chances["success"])
    assert by_testid(state, "chance-defender") == percent(chances["failure"])
    enter_real_dice(state, "defender", [4])  # Vex: 4 + 1 = 5
    assert by_testid(state, "chance-actor") == percent(rules.odds.anomaly_opposed(actor, {"total": 5})["success"])
    assert 'data-testid="chance-defender"' not in markup(state)
    tap(state, "anomaly-mode", side="defender", value="total")  # settled: the roll is made
    assert "Settled" in state.message.text
    state = table(entry(modifiers=[SWORD]))
    tap(state, "anomaly-kind", value="opposed")
    tap(state, "anomaly-mode", side="defender", value="total")
    assert "once the defender's total is in" in page_text(state)


# --- Sheets -------------------------------------------------------------------------------------

def test_a_sheet_is_built_with_the_editor_and_checked_by_the_session():
    state = table()
    tap(state, "roster-add", kind="character")
    assert state.editing["entry"]["modifiers"] == []
    tap(state, "sheet-set", path="name", typed="Rook")
    tap(state, "sheet-add", path="modifiers", template="modifier")
    tap(state, "sheet-add", path="modifiers", template="modifier")
    tap(state, "sheet-set", path="modifiers.0.name", typed="Sword")
    tap(state, "sheet-set", path="modifiers.0.value", type="int", typed="2")
    tap(state, "sheet-set", path="modifiers.1.kind", typed="")  # "Other…"
    form = roster_anomaly.form(state.editing["entry"])
    assert 'id="sheet-modifiers-1-kind"' in form and 'id="sheet-modifiers-1-kind-select"' in form
    tap(state, "sheet-set", path="modifiers.1.kind", typed="Magic")
    tap(state, "sheet-set", path="modifiers.1.value", type="int", typed="-1")
    tap(state, "sheet-set", path="modifiers.1.stacks", type="bool", checked=True)
    tap(state, "roster-save")
    [rook] = state.roster()
    assert rook["modifiers"] == [SWORD, {"name": "", "kind": "Magic", "value": -1, "stacks": True}]
    assert "Gear +2 (Sword) · Magic −1, stacks" in html.unescape(seen(roster_anomaly.summary(rook)))
    state.screen = "conflict"
    chips = draft_model.chip_status(state, draft_of(state)["actor"])
    assert [(chip["kind"], chip["value"], chip["on"]) for chip in chips] == [("Gear", 2, False), ("Magic", -1, False)]


def test_sheet_kinds_blank_and_summary():
    assert roster_anomaly.KINDS == (("character", "Character"), ("adversary", "Adversary"))
    assert roster_anomaly.blank("adversary") == {"modifiers": []}
    assert "No usual modifiers yet." in roster_anomaly.summary(entry(modifiers=[]))
    form = roster_anomaly.form(entry(modifiers=[SWORD]))
    for kind in rules.COMMON_KINDS:
        assert f'<option value="{kind}"' in form
    assert 'data-template="modifier"' in form and 'aria-label="Remove Sword"' in form


def test_picking_who_rolls_fills_the_chips_and_a_quick_roll_has_none():
    rook, vex = entry(), entry("Vex", "adversary", [LANTERN])
    state = table(rook, vex)
    draft = draft_of(state)
    assert draft["actor"]["ref"] == rook["id"] and draft["defender"]["ref"] == vex["id"]
    tap(state, "anomaly-who", side="actor", value=vex["id"])
    assert draft_model.on_modifiers(state, draft["actor"]) == []  # offered, off until tapped
    chips_on(state)
    assert draft_model.on_modifiers(state, draft["actor"]) == [LANTERN]
    tap(state, "anomaly-who", side="actor", value="")
    assert draft_model.on_modifiers(state, draft["actor"]) == []
    assert 'id="anomaly-actor-name"' in markup(state)


def test_a_new_sheet_takes_an_untouched_side_but_never_one_already_set_up():
    state = table()
    draft_of(state)
    tap(state, "anomaly-name", side="defender", typed="Guard")
    for kind, name in (("character", "Rook"), ("adversary", "Vex")):
        tap(state, "roster-add", kind=kind)
        tap(state, "sheet-set", path="name", typed=name)
        tap(state, "sheet-add", path="modifiers", template="modifier")
        tap(state, "roster-save")
    rook = state.session["roster"][0]
    draft = draft_of(state)
    assert draft["actor"]["ref"] == rook["id"]
    assert [chip["kind"] for chip in draft_model.chips(state, draft["actor"])] == ["Gear"]
    assert draft["defender"]["ref"] is None and draft["defender"]["name"] == "Guard"


def test_a_logged_roll_shows_what_was_logged_even_if_the_sheet_changes_later():
    rook = entry(modifiers=[SWORD, LANTERN])
    state = table(rook)
    tap(state, "anomaly-difficulty", value=9)
    chips_on(state)
    enter_real_dice(state, "actor", [8])
    tap(state, "anomaly-log")
    before = anomaly_view.regions(state)
    changed = entry(name="Rook the Second", modifiers=[STRONG])
    changed["id"] = rook["id"]
    state.session["roster"][0] = changed
    assert anomaly_view.regions(state) == before
    text = page_text(state)
    assert "+2 Sword counts" in text and "left out: same kind as Gear +2" in text and "Strong" not in text


def test_dice_on_the_table_are_set_aside_by_a_new_roll_or_another_kind(monkeypatch):
    monkeypatch.setattr(rules.dice, "DEFAULT_SOURCE", rules.FixedDice([8, 2, 5, 5]))
    state = table(entry())
    tap(state, "anomaly-difficulty", value=9)
    tap(state, "anomaly-roll", side="actor")
    tap(state, "anomaly-new")
    [entry_] = state.session["log"]
    assert entry_["kind"] == "set-aside" and entry_["record"]["actor"]["dice"] == [8]
    assert entry_["record"]["actor"]["dice_from"] == "app" and rules.verify_dice(entry_["record"]) == []
    assert draft_of(state)["actor"]["dice"] is None and draft_of(state)["difficulty"] == 9
    tap(state, "anomaly-roll", side="actor")
    tap(state, "anomaly-kind", value="opposed")
    assert [item["kind"] for item in state.session["log"]] == ["set-aside", "set-aside"]
    assert draft_of(state)["kind"] == "opposed" and draft_of(state)["actor"]["dice"] is None


def test_a_one_off_modifier_can_be_named_and_the_log_lists_what_counted(monkeypatch):
    state = table(entry(modifiers=[SWORD, LANTERN]))
    tap(state, "anomaly-difficulty", value=6)
    chips_on(state)
    tap(state, "anomaly-adding", side="actor")
    tap(state, "anomaly-new-name", side="actor", typed="High ground")
    add_modifier(state, "actor", kind="Size", value=1)
    assert {"kind": "Size", "value": 1, "stacks": False, "name": "High ground"} in \
        draft_model.to_record(state, draft_of(state))["actor"]["modifiers"]
    enter_real_dice(state, "actor", [5])
    tap(state, "anomaly-log")
    lines = [seen(line) for line in anomaly_words.happened(state.session["log"][0]["record"])]
    assert lines == ["Rook rolled 5 (no conditional dice: roll 1), kept 5; Gear +2 (Sword), Size +1 (High ground) = 8; "
                     "left out: Gear +1 (Lantern); real dice entered by hand."]
