"""Checking stored JSON against the shape the app writes: for the table in progress,
which is read back after a reload and is not trusted.

A shape is a validator: a function from a JSON value to a clean value that raises
ShapeError when the value is not what the app would have written. `fields(spec)`
checks a group of fields, every key present and no other; the small builders
below (`whole`, `text`, `choice`, ...) make the rest. Pure Python.
"""
from __future__ import annotations

import copy

import rules


class ShapeError(ValueError):
    """Stored data that is not in the shape the app writes."""


def need(condition: bool, what: str):
    if not condition:
        raise ShapeError(what)


def fields(spec: dict, what: str = "a group of fields"):
    def check(value):
        need(isinstance(value, dict) and set(value) == set(spec), f"{what} has other fields than expected")
        return {key: validator(value[key]) for key, validator in spec.items()}
    return check


def whole(low: int, high: int):
    def check(value):
        need(isinstance(value, int) and not isinstance(value, bool) and low <= value <= high,
             f"a number outside {low}..{high}")
        return value
    return check


def text(limit: int = 200):
    def check(value):
        need(isinstance(value, str) and len(value) <= limit, "a text too long or not a text")
        return value
    return check


def choice(*options):
    def check(value):
        need(value in options, "an unknown choice")
        return value
    return check


def flag(value):
    need(isinstance(value, bool), "not true or false")
    return value


def never(_value):
    """A transient flag (an animation): always False after a reload."""
    return False


def optional(validator):
    def check(value):
        return None if value is None else validator(value)
    return check


def listing(validator, limit: int):
    def check(value):
        need(isinstance(value, list) and len(value) <= limit, "a list too long or not a list")
        return [validator(item) for item in value]
    return check


def faces(sides: int, limit: int):
    return listing(whole(1, sides), limit)


def record(system: str):
    """A resolved conflict record of `system` that holds together (rules.verify)."""
    def check(value):
        need(isinstance(value, dict) and value.get("system") == system, "a record of another system")
        problems = rules.verify(value)
        need(not problems, problems[0] if problems else "")
        return copy.deepcopy(value)
    return check
