"""Manner Cards as people see them: card faces, card backs, the two resolution tables, and the
GM's pickers (difficulty, Complication).

Tables are drawn from rules.TEST_TABLE and rules.CONFRONTATION_TABLE (never
retyped), short enough for a 320 px phone: headers are abbreviated on screen
with the full names kept for screen readers, and a highlighted cell is marked
by an outline, a "◆" and aria-current, not by colour alone.
"""
from __future__ import annotations

import rules

from ui.kit.html import Markup, classes, h

SHORT_NAMES = {
    "Determination": "Det.", "Force": "Force", "Speed": "Spd.", "Precision": "Prec.", "Imagination": "Imag.",
    "Time": "Time", "Confusion": "Conf.", "Collateral": "Coll.", "Hostility": "Host.", "Consumption": "Cons.",
}
SHORT_CELLS = {"Win": "Win", "Lose": "Lose", "+2": "+2", "+0": "+0", "Partial": "Part."}
CELL_CLASSES = {"Win": "cell-win", "Lose": "cell-lose", "+2": "cell-plus", "+0": "cell-even", "Partial": "cell-partial"}
MARK = "◆"


def name_label(name: str) -> Markup:
    """A name short on narrow screens, full on wide ones; screen readers always get the full name."""
    short = SHORT_NAMES.get(name, name)
    if short == name:
        return h("span", name)
    return h("span", h("span", short, class_="name-short", aria_hidden="true"),
             h("span", name, class_="name-full"))


def cell_label(cell: str) -> Markup:
    short = SHORT_CELLS[cell]
    if short == cell:
        return h("span", cell)
    return h("span", h("span", short, class_="name-short", aria_hidden="true"), h("span", cell, class_="name-full"))


# --- Cards ------------------------------------------------------------------------------------

def manner_card(manner: str, rating: int | None, action: str | None = None, chosen: bool = False,
                **data) -> Markup:
    """A Manner card face: a toggle button when `action` is given, else a picture of the card."""
    rating_part = Markup("") if rating is None else h("span", str(rating), class_="manner-card-rating")
    content = (h("span", manner, class_="manner-card-name"),
               h("span", ", rating", class_="visually-hidden") if rating is not None else Markup(""),
               rating_part,
               h("span", "Chosen" if chosen else "", class_="manner-card-tag", aria_hidden="true"))
    css = classes("manner-card", f"manner-{manner.lower()}", chosen=chosen)
    if action is None:
        return h("span", *content, class_=css)
    label = manner if rating is None else f"{manner}, rating {rating}"
    return h("button", *content, type="button", class_=css, data_action=action, data_value=manner,
             id=f"{action}-{data.get('side', 'card')}-{manner.lower()}",
             aria_pressed="true" if chosen else "false", aria_label=label,
             **{f"data_{key}": value for key, value in data.items()})


def card_back(label: str, caption: str = "Face down") -> Markup:
    """A face-down card: nothing about its face is in the page, only that it is down."""
    return h("span", h("span", "?", class_="card-back-mark", aria_hidden="true"),
             h("span", caption, class_="card-back-caption", aria_hidden="true"),
             class_="manner-card card-back", role="img", aria_label=label, data_testid="card-back")


def face_up(title: str, name: str, detail: str, flip: bool, testid: str) -> Markup:
    """A card turned over, with who played it: e.g. "Wren" / "Force" / "rating 3"."""
    return h("figure",
             h("figcaption", title, class_="played-title"),
             h("span", h("span", name, class_="manner-card-name"), h("span", detail, class_="played-detail"),
               class_=classes("manner-card", "face-up", flip=flip)),
             class_="played", data_testid=testid)


# --- Resolution tables ---------------------------------------------------------------------------

def resolution_table(kind: str, row: str | None = None, column: str | None = None) -> Markup:
    """The Test or Confrontation table; with `row` and `column` given, that cell is the deciding one."""
    table = rules.TEST_TABLE if kind == "test" else rules.CONFRONTATION_TABLE
    columns = rules.COMPLICATIONS if kind == "test" else rules.MANNERS
    column_title = "the GM's Complication" if kind == "test" else "the opponent's Manner"
    title = "Test table" if kind == "test" else "Confrontation table"
    highlighted = row is not None and column is not None
    caption = [h("strong", title), f": the player's Manner (rows) against {column_title} (columns)."]
    if highlighted:
        caption += [" ", h("span", f"{MARK} {row} against {column}: {table[row][column]}.",
                           class_="table-decided", data_testid="decided-caption")]
    head = h("tr",
             h("th", h("span", "Player's Manner", class_="visually-hidden"),
               h("span", f"Player ↓ {'Complication' if kind == 'test' else 'Opponent'} →", class_="corner-text",
                 aria_hidden="true"),
               scope="col", class_="corner"),
             *(h("th", name_label(name), scope="col",
                 class_=classes("column-head", is_column=name == column)) for name in columns))
    body = []
    for manner in rules.MANNERS:
        cells = []
        for name in columns:
            cell = table[manner][name]
            decided = highlighted and manner == row and name == column
            cells.append(h("td",
                           h("span", MARK, class_="cell-mark", aria_hidden="true") if decided else Markup(""),
                           cell_label(cell),
                           class_=classes("cell", CELL_CLASSES[cell], is_decided=decided,
                                          in_line=highlighted and not decided and (manner == row or name == column)),
                           data_row=manner, data_column=name, aria_current="true" if decided else None,
                           data_testid="decided-cell" if decided else None))
        body.append(h("tr", h("th", name_label(manner), scope="row", class_=classes("row-head", is_row=manner == row)),
                      *cells, class_=classes(is_row=manner == row) or None))
    return h("div",
             h("table", h("caption", *caption), h("thead", head), h("tbody", *body),
               class_=classes("manner-table", f"manner-table-{kind}", highlighted=highlighted),
               data_testid=f"{kind}-table"),
             class_="table-wrap")


def legend(meanings: dict, extra: list[str]) -> Markup:
    """What each cell means (RULES.md), then the numbers and ties rules."""
    items = [h("div", h("dt", cell_label(cell), class_=classes("cell", CELL_CLASSES[cell])), h("dd", words),
               class_="legend-item")
             for cell, words in meanings.items()]
    return h("div", h("dl", *items, class_="cell-legend"), *(h("p", line, class_="hint hint-small") for line in extra),
             class_="legend")


# --- The GM's side: its difficulty and its Complication ------------------------------------------

def difficulty_picker(difficulty: int) -> Markup:
    low, high = 1, rules.LIMITS["manners_difficulty"]
    buttons = [h("button", str(number), type="button", class_="button difficulty-button",
                 data_action="manners-difficulty", data_value=str(number), id=f"manners-difficulty-{number}",
                 aria_pressed="true" if number == difficulty else "false",
                 aria_label=f"Difficulty {number}")
               for number in range(low, high + 1)]
    return h("div",
             h("p", h("span", "Difficulty", class_="field-label", id="manners-difficulty-label"), " ",
               h("span", f"{low} easy … {high} very hard", class_="hint-small field-label")),
             h("div", *buttons, class_="difficulty-picker", role="group", aria_labelledby="manners-difficulty-label"),
             class_="difficulty")


def complication_buttons(action: str) -> Markup:
    return h("div", *(h("button", name, type="button", class_="button complication-button", data_action=action,
                        data_value=name) for name in rules.COMPLICATIONS),
             class_="complication-picker", role="group", aria_label="Complications")
