"""Dice as people know them: d6 faces with pips, d10 faces with numbers, in trays
(entering real dice: `dice_entry`).

A die in a tray is a toggle button (`aria-pressed`) when its side may choose
what to keep; kept dice are raised, outlined and labelled "Kept", so keeping
never depends on colour alone. Every face has a text alternative.
"""
from __future__ import annotations

import functools

from ui.kit.html import Markup, classes, h, join

# Pip centres on a 3x3 grid (0..2) for each face of a d6.
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


@functools.cache
def d6_face(face: int) -> Markup:
    pips = join(h("circle", cx=str(14 + 16 * x), cy=str(14 + 16 * y), r="5.2", class_="pip")
                for x, y in PIPS[face])
    return h("svg", h("rect", x="2", y="2", width="56", height="56", rx="11", class_="die-body"), pips,
             viewBox="0 0 60 60", aria_hidden="true", focusable="false", class_="die-face")


@functools.cache
def d10_face(face: int) -> Markup:
    return h("svg", h("path", d="M30 3 L57 24 L47 57 L13 57 L3 24 Z", class_="die-body"),
             h("text", str(face), x="30", y="40", text_anchor="middle", class_="die-number"),
             viewBox="0 0 60 60", aria_hidden="true", focusable="false", class_="die-face")


FACES = {6: d6_face, 10: d10_face}


def die(face: int, sides: int, position: int, kept: bool, action: str | None = None,
        fresh: bool = False, id_prefix: str | None = None, **data) -> Markup:
    """One die; a toggle button when `action` is given, else a picture."""
    label = f"Die {position + 1}: {face}" + (", kept" if kept else "")
    content = (FACES[sides](face), h("span", "Kept" if kept else "", class_="die-tag", aria_hidden="true"))
    css = classes("die", f"d{sides}", kept=kept, fresh=fresh)
    if action is None:
        return h("span", *content, class_=css, role="img", aria_label=label)
    return h("button", *content, type="button", class_=css, aria_pressed="true" if kept else "false",
             id=f"{id_prefix}-{position}" if id_prefix else None,
             aria_label=label, data_action=action, data_index=str(position),
             **{f"data_{key}": value for key, value in data.items()})


def tray(faces: list[int], sides: int, kept: list[int], label: str, action: str | None = None,
         fresh: bool = False, id_prefix: str | None = None, **data) -> Markup:
    """A row of dice; `kept` holds the indices of kept dice; buttons get ids `<id_prefix>-<index>`."""
    return drawn_tray(tuple(faces), sides, frozenset(kept), label, action, fresh, id_prefix, tuple(data.items()))


# A tray is a pure function of its dice: a tap elsewhere on the screen (the other side's pool) draws
# the dice on the table again as they were, from here.
@functools.lru_cache(maxsize=128)
def drawn_tray(faces: tuple, sides: int, kept: frozenset, label: str, action: str | None, fresh: bool,
               id_prefix: str | None, data: tuple) -> Markup:
    return h("div", *(die(face, sides, index, index in kept, action, fresh, id_prefix, **dict(data))
                      for index, face in enumerate(faces)),
             class_="tray", role="group", aria_label=label, data_testid="tray")
