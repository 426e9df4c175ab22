"""Exact chances (Fractions from rules.odds) as short percentages people read at a glance."""
from __future__ import annotations

from fractions import Fraction


def percent(chance: Fraction) -> str:
    """41 %; never rounds a possible outcome to 0 % or a doubtful one to 100 %."""
    if chance == 0:
        return "0 %"
    if chance == 1:
        return "100 %"
    value = round(chance * 100)
    if value == 0:
        return "<1 %"
    if value == 100:
        return ">99 %"
    return f"{value} %"
