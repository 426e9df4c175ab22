"""Exact chances (Fractions from rules.odds) as short percentages people read at a glance."""
from __future__ import annotations

from fractions import Fraction


def percent(chance: Fraction) -> str:
    """41 %; never rounds a possible outcome to 0 % or a doubtful one to 100 %."""
    if chance == 0:
        return "0 %"
    if chance == 1:
        return "100 %"
    # round(chance * 100) in whole numbers (half to even, as round does): Fraction arithmetic made
    # this a tenth of redrawing the odds' bars.
    numerator, denominator = chance.numerator, chance.denominator
    whole, left = divmod(100 * numerator, denominator)
    value = whole + (2 * left > denominator or (2 * left == denominator and whole % 2 == 1))
    if value == 0:
        return "<1 %"
    if value == 100:
        return ">99 %"
    return f"{value} %"
