"""JSON nobody vouches for: nesting measured without recursion and refused past MAX_DEPTH
before json.loads runs (in Pyodide a deep text kills the interpreter), lone surrogates
refused or repaired, and every parse of untrusted JSON in the app going through here."""
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from session.links.files import export_text
from samples import json_values, logged_party
from session import untrusted
from session.replica import Replica
from session.untrusted import MAX_DEPTH, BadJSON, nesting, parse, parse_repairing

PY = Path(__file__).resolve().parents[3] / "py"


def depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


def nested(levels: int, kinds: str = "[{") -> str:
    opening = "".join('{"k":' if kinds[level % len(kinds)] == "{" else "[" for level in range(levels))
    closing = "".join("}" if kinds[level % len(kinds)] == "{" else "]" for level in reversed(range(levels)))
    return opening + "0" + closing


@given(json_values)
def test_nesting_is_exact_for_any_json(value):
    assert nesting(json.dumps(value)) == depth(value)
    assert nesting(json.dumps(value, ensure_ascii=False, indent=1)) == depth(value)


def test_brackets_inside_strings_and_escapes_do_not_count():
    assert nesting(json.dumps(["[[[{", '"]]', "\\", '\\"[', {"[": "}"}])) == 2
    assert nesting('"[[[[') == 0  # an unterminated string runs to the end
    assert nesting("]]]][") < 1


@pytest.mark.parametrize("kinds", ["[", "{", "[{"])
def test_deeper_than_the_limit_is_refused_before_json_loads_runs(kinds, monkeypatch):
    assert parse(nested(MAX_DEPTH, kinds)) is not None

    def no_parsing(*arguments, **keywords):
        raise AssertionError("json.loads ran on text nested too deep")

    monkeypatch.setattr(untrusted.json, "loads", no_parsing)
    for levels in (MAX_DEPTH + 1, 10_000, 100_000):
        with pytest.raises(BadJSON) as refused:
            parse(nested(levels, kinds))
        assert refused.value.reason == untrusted.TOO_DEEP


def test_the_scan_stays_linear_on_hostile_strings():
    # Millions of escaped quotes in one unterminated string: one pass, no backtracking.
    assert nesting('["' + '\\"' * 2_000_000) == 1
    assert nesting('["' * 500_000) == 250_000  # [ then the string "[", again and again


def test_not_json_numbers_that_are_not_numbers_and_non_text_are_refused():
    for text in ("{", "NaN", "[Infinity]", '{"a": -Infinity}', "", "1" * 5000):
        with pytest.raises(BadJSON) as refused:
            parse(text)
        assert refused.value.reason == untrusted.NOT_JSON
    with pytest.raises(BadJSON):
        parse(b"[]")
    with pytest.raises(BadJSON):
        parse(None)


def test_lone_surrogates_are_refused_or_repaired_and_real_pairs_are_kept():
    text = '{"name": "Ash\\ud800", "\\udfff": ["\\ud83d\\ude00", "\\\\ud800"]}'
    with pytest.raises(BadJSON) as refused:
        parse(text)
    assert refused.value.reason == untrusted.BROKEN_TEXT
    value, repaired = parse_repairing(text)
    assert repaired == 2
    assert value == {"name": "Ash\ufffd", "\ufffd": ["\U0001F600", "\\ud800"]}
    assert parse_repairing("[\"raw \ud800\"]") == (["raw \ufffd"], 1)
    assert parse_repairing('["\\ud83d\\ude00"]') == (["\U0001F600"], 0)


def deepest_record() -> dict:
    """A logged record nested as deep as rules.plain_copy (what rules reads) accepts."""
    record = logged_party()["log"][0]["record"]
    inner, deepest = {}, None
    while True:
        candidate = {**record, "extra": inner}
        try:
            rules.plain_copy(candidate)
        except rules.RuleError:
            return deepest
        deepest, inner = candidate, {"x": inner}


def test_the_limit_holds_any_record_rules_accepts_inside_an_export():
    record = deepest_record()
    assert depth(record) > 20
    party = logged_party()
    party["log"][0]["record"] = record
    text = export_text(Replica.from_session(party))
    assert nesting(text) <= MAX_DEPTH
    assert parse(text)["replica"]["log"][0]["record"] == record


def test_every_json_parse_of_the_app_goes_through_untrusted():
    calls = {path.relative_to(PY).as_posix() for path in PY.rglob("*.py")
             if re.search(r"\bjson\.loads?\(|\bloads\(", path.read_text())}
    assert calls == {"session/untrusted.py"}
