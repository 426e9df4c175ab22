"""ui.systems.dice_entry (and ui.kit.dice_entry, ui.systems.conflict) under CPython: the same
dice entry behaves the same in every system that rolls. Each test runs in the Tension Engine and
in Anomaly through the real ui.core.step (tests/unit/tapping.py): a face tapped, Remove last,
faces typed (bad input: a clear message and nothing lost), a total announced, Clear, a roll here
set aside by a new conflict, and the same controls (words, ids, actions) drawn for both."""
import re
from dataclasses import dataclass

import pytest

import rules
from session import new_session
from ui import router
from ui.core.state import AppState
from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401  (registers the actions)
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the actions)

from reading import markup, text
from samples import seen
from tapping import tap


@dataclass(frozen=True)
class Table:
    """One system's table, set up so that `side` may put down `needed` real dice of `faces` faces;
    `total_side` may be given as a total, from `low` to `high`."""
    system: str
    side: str
    name: str
    faces: int
    needed: int
    total_side: str
    low: int
    high: int
    landing: str  # where focus lands once the side's dice are down

    def state(self) -> AppState:
        session = new_session(system=self.system)
        session["tension"] = self.needed  # the GM rolls the Tension
        state = AppState(session=session, odds_ready={self.system})
        if self.system == "anomaly":
            tap(state, "anomaly-difficulty", value=9)  # the GM sets it first (seed order)
            tap(state, "anomaly-dice", side="actor", which="good", step=self.needed - 1)
        return state

    def tap(self, state, verb: str, side: str | None = None, **data):
        tap(state, f"{self.system}-{verb}", side=side or self.side, **data)

    def side_of(self, state, side: str | None = None) -> dict:
        return state.drafts[self.system][side or self.side]

    def opposed(self, state):
        """A conflict in which `total_side` is on the table."""
        if self.system == "anomaly":
            tap(state, "anomaly-kind", value="opposed")


TENSION = Table("tension", "gm", "The GM", 6, 3, "gm", 0, rules.LIMITS["tension_total"], "tension-gm-die-0")
ANOMALY = Table("anomaly", "actor", "Player", 10, 3, "defender", -rules.LIMITS["anomaly_total"],
                rules.LIMITS["anomaly_total"], "anomaly-actor-sum")
TABLES = pytest.mark.parametrize("table", [TENSION, ANOMALY], ids=["tension", "anomaly"])


def region_of(state, system: str, side: str) -> str:
    """The region holding `side`'s card."""
    regions = dict(router.screen_regions(state))
    return regions[f"tension-side-{side}"] if system == "tension" else regions[f"anomaly-{side}"]


def real_dice_block(state, table: Table) -> str:
    found = re.search(r'<div class="real-dice">.*?</div></div>', region_of(state, table.system, table.side))
    assert found, "no real-dice entry on screen"
    return found.group(0)


@TABLES
def test_a_tapped_face_enters_a_die_and_the_last_one_says_the_roll_and_folds_the_picker(table):
    state = table.state()
    table.tap(state, "mode", value="real")
    assert f"Tap the faces of the {table.needed} dice rolled (0 of {table.needed} entered)." in text(state)
    assert f'aria-label="Enter a d{table.faces} for {table.name}"' in seen(markup(state))
    for count, face in enumerate([2, 5, 1], start=1):
        table.tap(state, "add-face", face=face)
        assert table.side_of(state)["dice"] == [2, 5, 1][:count]
    assert seen(state.announcement).startswith(f"{table.name} rolls ")
    assert state.focus == table.landing  # the picker folds away: keyboard users land past it
    card = region_of(state, table.system, table.side)
    assert "face-picker" not in card
    if table.system == "tension":  # the dice may still be corrected, until the player rolls
        block = real_dice_block(state, table)
        assert f"All {table.needed} dice entered." in block
        assert 'id="tension-gm-remove-last"' in block and 'id="tension-gm-clear"' in block
    else:  # an Anomaly roll is made, and settled, with its last die
        assert "Settled: rolled" in seen(card)
    table.tap(state, "add-face", face=4)  # one too many: refused, what is entered stays
    assert table.side_of(state)["dice"] == [2, 5, 1] and state.message.tone == "error"


@TABLES
def test_remove_last_takes_back_the_last_face_only(table):
    state = table.state()
    table.tap(state, "mode", value="real")
    assert 'data-action="{}-remove-face" data-side="{}" disabled'.format(table.system, table.side) in markup(state)
    table.tap(state, "add-face", face=3)
    table.tap(state, "add-face", face=4)
    table.tap(state, "remove-face")
    assert table.side_of(state)["dice"] == [3]
    assert f"(1 of {table.needed} entered)" in text(state)
    table.tap(state, "remove-face")
    table.tap(state, "remove-face")  # nothing left to remove: nothing happens
    assert table.side_of(state)["dice"] == [] and state.message is None


@TABLES
def test_typed_faces_with_bad_input_get_a_clear_message_and_lose_nothing(table):
    state = table.state()
    table.tap(state, "mode", value="real")
    table.tap(state, "add-face", face=2)
    for typed, said in (("2 x", f"Type the faces as numbers from 1 to {table.faces}, separated by spaces."),
                        (f"2 {table.faces + 1}", f"A d{table.faces} shows 1 to {table.faces}, not {table.faces + 1}."),
                        ("2 2 2 2", f"{table.name} rolls {table.needed} dice")):
        table.tap(state, "type-faces", value=typed)
        assert state.message.tone == "error" and seen(state.message.text).startswith(said), typed
        assert table.side_of(state)["dice"] == [2], typed
    table.tap(state, "type-faces", value="2, 6 1")
    assert table.side_of(state)["dice"] == [2, 6, 1] and state.message is None  # the mistake's message goes
    assert state.focus == table.landing and seen(state.announcement).startswith(f"{table.name} rolls ")


@TABLES
def test_typed_faces_draw_what_tapped_faces_draw(table):
    tapped, typed = table.state(), table.state()
    for state in (tapped, typed):
        table.tap(state, "mode", value="real")
    for face in (1, 2):
        table.tap(tapped, "add-face", face=face)
    table.tap(typed, "type-faces", value="1 2")
    assert region_of(typed, table.system, table.side) == region_of(tapped, table.system, table.side)


@TABLES
def test_a_total_announced_stands_for_the_dice_and_a_bad_one_says_why(table):
    state = table.state()
    table.opposed(state)
    table.tap(state, "mode", side=table.total_side, value="total")
    assert f'id="{table.system}-{table.total_side}-total"' in markup(state)
    assert "Rolled on another phone or at the table: type the total it came to." in text(state)
    table.tap(state, "total", side=table.total_side, value="12")
    assert table.side_of(state, table.total_side)["total"] == 12
    for bad in (str(table.high + 1), "twelve"):
        table.tap(state, "total", side=table.total_side, value=bad)
        low = f"−{-table.low}" if table.low < 0 else str(table.low)
        assert state.message.text == f"A total is a whole number from {low} to {table.high}."
        assert table.side_of(state, table.total_side)["total"] is None
    table.tap(state, "total", side=table.total_side, value="9")
    assert table.side_of(state, table.total_side)["total"] == 9 and state.message is None
    table.tap(state, "total", side=table.total_side, value="")  # emptied: taken back, no message
    assert table.side_of(state, table.total_side)["total"] is None and state.message is None


@TABLES
def test_clear_takes_every_real_die_back(table):
    state = table.state()
    table.tap(state, "mode", value="real")
    table.tap(state, "add-face", face=5)
    table.tap(state, "add-face", face=6)
    table.tap(state, "clear")
    assert table.side_of(state)["dice"] == []
    assert f"(0 of {table.needed} entered)" in text(state)


@TABLES
def test_a_new_conflict_sets_the_dice_on_the_table_aside_in_the_log(table, monkeypatch):
    monkeypatch.setattr(rules.dice, "DEFAULT_SOURCE", rules.FixedDice([4, 3, 2]))
    state = table.state()
    table.tap(state, "roll")
    assert table.side_of(state)["dice"] == [4, 3, 2] and table.side_of(state)["fresh"]
    assert state.focus == table.landing and seen(state.announcement).startswith(f"{table.name} rolls 4")
    table.tap(state, "roll")  # rolled here once: never again
    assert table.side_of(state)["dice"] == [4, 3, 2]
    tap(state, f"{table.system}-new")
    entry = state.session["log"][0]
    assert entry["kind"] == "set-aside"
    logged_side = entry["record"]["gm" if table.system == "tension" else "actor"]
    assert logged_side["dice"] == [4, 3, 2] and logged_side["dice_from"] == "app"
    assert state.message.text == "The dice on the table are in the log, set aside."
    assert table.side_of(state)["dice"] is None


@TABLES
def test_how_the_dice_arrive_is_one_choice_with_the_same_words_and_ids(table):
    state = table.state()
    page = seen(markup(state))
    assert f'aria-label="How {table.name}&#x27;s dice arrive"' in page
    for mode, words in (("roll", "Roll here"), ("real", "Real dice")):
        assert (f'id="{table.system}-{table.side}-mode-{mode}" data-action="{table.system}-mode" '
                f'data-value="{mode}"') in page and words in page
    assert f'id="{table.system}-{table.side}-roll"' in page and f"Roll {table.needed} dice" in page


def test_the_real_dice_entry_is_the_same_markup_in_both_systems():
    blocks = []
    for table in (TENSION, ANOMALY):
        state = table.state()
        table.tap(state, "mode", value="real")
        table.tap(state, "add-face", face=1)
        block = seen(real_dice_block(state, table))
        block = re.sub(r'<div class="face-picker.*?</div>', "PICKER", block)
        block = block.replace(table.system, "SYSTEM").replace(f'"{table.side}', '"SIDE').replace(f"-{table.side}", "-SIDE")
        block = block.replace(table.name, "NAME").replace('placeholder="e.g. 6 4 4 2 1"', "EXAMPLE")
        blocks.append(block.replace('placeholder="e.g. 7 3"', "EXAMPLE"))
    assert blocks[0] == blocks[1]


def test_the_tension_engines_typed_dice_may_be_corrected_until_the_other_side_rolls():
    """All real dice in: the GM's pool stands, and Remove last still corrects a typo (its kept
    dice are chosen again); in Anomaly the last die makes the roll, which settles it."""
    state = TENSION.state()
    TENSION.tap(state, "mode", value="real")
    TENSION.tap(state, "type-faces", value="6 5 4")
    tap(state, "tension-keep", side="gm", index=2)
    assert TENSION.side_of(state)["keep"] == [0, 1, 2]
    TENSION.tap(state, "remove-face")
    assert TENSION.side_of(state)["dice"] == [6, 5] and TENSION.side_of(state)["keep"] is None
    state = ANOMALY.state()
    ANOMALY.tap(state, "mode", value="real")
    ANOMALY.tap(state, "type-faces", value="6 5 4")
    ANOMALY.tap(state, "remove-face")
    assert ANOMALY.side_of(state)["dice"] == [6, 5, 4] and "Settled: rolled" in state.message.text


@pytest.mark.parametrize("system", ["tension", "anomaly", "manners"])
def test_every_system_names_its_regions_and_result_the_same_way(system):
    session = new_session(system=system)
    state = AppState(session=session)
    regions = [region for region, _ in router.screen_regions(state)]
    assert all(region.startswith(f"{system}-") for region in regions), regions
    assert regions[0] == f"{system}-setup" and regions[-2:] == [f"{system}-result", f"{system}-bar"]
