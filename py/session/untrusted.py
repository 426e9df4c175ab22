"""JSON text from outside the app (share links, saved data, imported files), parsed safely.

Python's json.loads recurses once per level of nesting. In Pyodide a text nested
deep enough (measured in this app in Chromium: about 3,000 objects or 5,500
arrays) overflows the WebAssembly stack: a fatal error that no `except
RecursionError` ever sees, and the interpreter is gone. So `parse` measures the
nesting first, without recursion, and refuses anything deeper than MAX_DEPTH:
far below where Pyodide breaks (phones have smaller stacks), and deep enough for
any Tableside data (an export holding a record as deep as `rules` accepts).
Whatever `parse` returns nests at most MAX_DEPTH deep, so every later walk of it
(checks, copies, str()) is bounded too.

Storage and future formats call `parse` (or `parse_repairing`) and turn a
BadJSON's `reason` into their own sentence for players.
"""
from __future__ import annotations

import json
import re
from itertools import accumulate

MAX_DEPTH = 32
NOT_JSON, TOO_DEEP, BROKEN_TEXT = "not JSON", "too deep", "broken text"

# Escaped characters go first (outside a string a backslash is broken JSON anyway), then
# strings, each to its closing quote or to the end of the text: one linear pass each.
ESCAPE = re.compile(r"\\.", re.DOTALL)
STRING = re.compile(r'"[^"]*+(?:"|\Z)')
NOT_BRACKETS = re.compile(r"[^\[\]{}]++")
STEPS = {"[": 1, "{": 1, "]": -1, "}": -1}
# Half of a UTF-16 pair on its own: not text anyone typed, and it cannot be written as UTF-8.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


class BadJSON(ValueError):
    """Text that `parse` refuses; `reason` is NOT_JSON, TOO_DEEP or BROKEN_TEXT."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON text, counted without recursion, strings
    skipped. Exact for valid JSON; for broken text never less than json.loads would reach."""
    brackets = NOT_BRACKETS.sub("", STRING.sub("", ESCAPE.sub("", text)))
    return max(accumulate(map(STEPS.__getitem__, brackets)), default=0)


def refuse_constant(name: str):
    raise ValueError(f"{name} is not a number")


def parse(text, parse_int=None):
    """The value of JSON text, or BadJSON: not JSON (NaN and Infinity included), nested
    deeper than MAX_DEPTH, or holding a lone surrogate."""
    value, broken = parse_repairing(text, parse_int)
    if broken:
        raise BadJSON(BROKEN_TEXT)
    return value


def parse_repairing(text, parse_int=None) -> tuple[object, int]:
    """Like `parse`, but every lone surrogate becomes U+FFFD (�): the value, and how many
    were replaced. For data of our own that must load, broken or not (saved sessions)."""
    if not isinstance(text, str):
        raise BadJSON(NOT_JSON)
    if nesting(text) > MAX_DEPTH:
        raise BadJSON(TOO_DEEP)
    try:
        value = json.loads(text, parse_constant=refuse_constant, parse_int=parse_int)
    except ValueError:
        raise BadJSON(NOT_JSON) from None
    if MAYBE_SURROGATE.search(text) is None:
        return value, 0
    written = json.dumps(value, ensure_ascii=False)
    broken = len(LONE_SURROGATE.findall(written))
    return (json.loads(LONE_SURROGATE.sub(REPLACEMENT, written)) if broken else value), broken
