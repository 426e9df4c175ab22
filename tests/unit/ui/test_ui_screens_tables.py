"""ui.screens.tables under CPython: the Tables screen, registered in ui.router; both Manner Cards tables
drawn from rules, readable headers and a legend; the Tension Table edited, validated, restored
and rolled on."""
import re

import pytest

import rules
from session import check_session, new_session
from ui import router
from ui.core.state import AppState
from ui.screens.tables import actions as tables_actions  # noqa: F401  (registers the actions)
from ui.screens.tables import view as tables_view
from ui.systems.manners import words as manners_words

from tapping import tap


def table(system="manners") -> AppState:
    state = AppState(session=new_session(system=system))
    state.screen = "tables"
    return state


def region(state, region_id) -> str:
    return dict(tables_view.regions(state))[region_id]


def text_of(markup: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup)).strip()


def test_the_tables_screen_is_registered_and_puts_the_active_systems_table_first():
    assert router.load(router.SHARED_SCREENS["tables"]) is tables_view
    assert [name for name, _ in tables_view.regions(table("manners"))] == ["tables-manners", "tables-tension"]
    assert [name for name, _ in tables_view.regions(table("tension"))] == ["tables-tension", "tables-manners"]
    ids = [name for name, _ in router.page(table())]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("kind, rows, columns", [
    ("test", rules.TEST_TABLE, rules.COMPLICATIONS),
    ("confrontation", rules.CONFRONTATION_TABLE, rules.MANNERS),
])
def test_both_manner_tables_come_from_rules_cell_by_cell(kind, rows, columns):
    markup = region(table(), "tables-manners")
    found = re.search(rf'<table [^>]*data-testid="{kind}-table">(.*?)</table>', markup).group(1)
    for manner in rules.MANNERS:
        for column in columns:
            cell = re.search(rf'<td [^>]*data-row="{manner}" data-column="{column}"[^>]*>(.*?)</td>', found).group(1)
            assert rows[manner][column] in text_of(cell).split(), (manner, column)
    assert "aria-current" not in found  # nothing is decided on the reference tables
    assert "<caption>" in found
    assert found.count('scope="col"') == 6 and found.count('scope="row"') == 5


def test_headers_are_short_on_screen_and_full_for_screen_readers():
    markup = region(table(), "tables-manners")
    assert '<span class="name-short" aria-hidden="true">Det.</span><span class="name-full">Determination</span>' \
        in markup
    assert '<span class="name-short" aria-hidden="true">Cons.</span><span class="name-full">Consumption</span>' \
        in markup
    assert '<span class="name-short" aria-hidden="true">Part.</span><span class="name-full">Partial</span>' in markup


def test_the_legend_says_what_each_cell_means():
    markup = text_of(region(table(), "tables-manners"))
    for cell, meaning in manners_words.CELL_MEANINGS.items():
        assert f"{cell} {meaning}" in markup
    assert manners_words.TIES_RULE in markup and manners_words.NUMBERS_RULE in markup
    assert rules.READINGS["manners-test-partial"] in markup


# --- The Tension Table ---------------------------------------------------------------------------------------

def test_the_six_lines_are_read_from_the_session():
    state = table()
    markup = region(state, "tables-tension")
    assert markup.count('data-testid="tension-line"') == 6
    for line in rules.DEFAULT_TENSION_TABLE:
        assert line in text_of(markup)


def test_editing_a_line_saves_it_checked():
    state = table()
    tap(state, "tables-edit")
    markup = region(state, "tables-tension")
    assert markup.count('data-action="tables-line"') == 6 and 'maxlength="200"' in markup
    tap(state, "tables-line", index=2, value="  The bridge burns.  ")
    assert state.session["tension_table"][2] == rules.DEFAULT_TENSION_TABLE[2]  # not saved yet
    tap(state, "tables-save")
    assert state.session["tension_table"][2] == "The bridge burns."
    assert state.message.tone == "success"
    assert "The bridge burns." in text_of(region(state, "tables-tension"))
    assert 'data-action="tables-line"' not in region(state, "tables-tension")


def test_an_empty_line_is_refused_and_nothing_changes():
    state = table()
    tap(state, "tables-edit")
    tap(state, "tables-line", index=3, value="   ")
    tap(state, "tables-save")
    assert state.message.tone == "error" and state.message.text == "Line 4 of the Tension Table is empty."
    assert state.session["tension_table"] == list(rules.DEFAULT_TENSION_TABLE)
    assert 'data-action="tables-line"' in region(state, "tables-tension")  # still editing


def test_a_line_is_at_most_200_characters_and_cancel_keeps_the_old_lines():
    state = table()
    tap(state, "tables-edit")
    tap(state, "tables-line", index=0, value="x" * 250)
    assert len(tables_view.tables_screen(state)["editing"][0]) == 200
    assert rules.check_tension_table(tables_view.tables_screen(state)["editing"])[0] == "x" * 200
    tap(state, "tables-line", index=9, value="ignored")  # no seventh line
    tap(state, "tables-cancel")
    assert state.session["tension_table"] == list(rules.DEFAULT_TENSION_TABLE)


def test_restoring_the_examples_asks_first():
    state = table()
    state.session["tension_table"] = ["Mine"] * 6
    tap(state, "tables-restore")
    assert state.session["tension_table"] == ["Mine"] * 6
    assert "Your own lines will be lost." in region(state, "tables-tension")
    tap(state, "tables-restore-cancel")
    assert "Yes, restore the examples" not in region(state, "tables-tension")
    tap(state, "tables-restore")
    tap(state, "tables-restore-confirmed")
    assert state.session["tension_table"] == list(rules.DEFAULT_TENSION_TABLE)
    check_session(state.session)


def test_rolling_on_the_table_shows_and_announces_the_line(monkeypatch):
    monkeypatch.setattr(rules.dice, "DEFAULT_SOURCE", rules.FixedDice([4]))
    state = table("tension")
    tap(state, "tables-roll")
    line = rules.DEFAULT_TENSION_TABLE[3]
    assert state.announcement == f"Rolled 4 on the Tension Table: {line}"
    markup = region(state, "tables-tension")
    assert 'aria-label="A d6 showing 4"' in markup and f"Rolled 4: {line}" in text_of(markup)
    current = re.findall(r'<li class="tension-line rolled" aria-current="true"[^>]*>(.*?)</li>', markup)
    assert len(current) == 1 and line in current[0]


def test_lines_are_text_never_markup():
    state = table()
    state.session["tension_table"] = ['<script>alert("x")</script>'] * 6
    markup = "".join(markup for _, markup in router.page(state))
    assert "<script>" not in markup and "&lt;script&gt;" in markup
    tap(state, "tables-edit")
    assert "<script>" not in region(state, "tables-tension")
