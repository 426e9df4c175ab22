"""Export files carry the whole session; import reads them back equal, and refuses
anything else with a clear message (ImportFileError, nothing else)."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session import check_session
from session import ImportFileError
from session.links.files import export_text, file_name, read_export
from samples import AT, json_values, logged_party, plain, random_sessions, replica_of

def test_export_then_import_gives_an_equal_session():
    session = logged_party()
    text = export_text(replica_of(session), AT)
    assert json.loads(text)["format"] == "tableside-session" and json.loads(text)["v"] == 2
    assert plain(read_export(text).session()) == session


def test_a_version_one_export_still_imports():
    session = logged_party()
    text = json.dumps({"format": "tableside-session", "v": 1, "exported": AT, "session": session})
    assert plain(read_export(text).session()) == session


@settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(random_sessions())
def test_every_session_survives_export_and_import(session):
    assert plain(read_export(export_text(replica_of(session))).session()) == session


def test_a_bare_session_object_is_accepted_too():
    session = logged_party()
    assert plain(read_export(json.dumps(session)).session()) == session


def test_the_file_name_is_tidy():
    assert file_name({"name": "Friday at Kim's <3"}, AT) == "tableside-friday-at-kims-3-2025-06-01.json"
    assert file_name({"name": "Friday at Zoë’s"}, AT) == "tableside-friday-at-zoes-2025-06-01.json"  # folded, kept
    assert file_name({"name": "Пятница у Зои"}) == "tableside-пятница-у-зои.json"  # letters kept, not dropped
    assert file_name({"name": "«»!"}) == "tableside-session.json"
    assert file_name({"name": "!!!"}, "") == "tableside-session.json"


def test_a_logged_result_that_disagrees_with_its_dice_is_refused():
    data = json.loads(export_text(replica_of(logged_party())))
    data["replica"]["log"][0]["record"]["result"]["outcome"] = "failure"
    with pytest.raises(ImportFileError, match="does not hold together"):
        read_export(json.dumps(data))


@pytest.mark.parametrize("text, words", [
    ("", "not readable JSON"), ("{", "not readable JSON"), ("[]", "not a Tableside session file"),
    ('{"format": "something-else"}', "not a Tableside session file"),
    ('{"format": "tableside-session", "v": 3, "session": {}}', "another version"),
    ('{"format": "tableside-session", "v": 2, "replica": {}}', "can't be imported"),
    ('{"format": "tableside-session", "v": 1, "session": {"v": 7, "system": "tension", "roster": []}}',
     "another version"),
    ('{"v": 1, "system": "tension", "roster": [], "players": 1e999}', "whole number"),
    ('{"v": 1, "system": "tension", "roster": [], "players": NaN}', "not readable JSON"),
    ('{"v": 1, "system": "tension", "roster": [], "name": "' + "x" * 500 + '"}', "too long"),
    ('{"v": 1, "system": ["tension"], "roster": []}', "unknown rule system"),
    # Nesting that kills Pyodide's json.loads (or str()) is refused before either runs.
    ("[" * 10_000, "nests far deeper"),
    ('{"format": "tableside-session", "v": ' + "[" * 4500 + "]" * 4500 + ', "session": {}}', "nests far deeper"),
    ('{"format": "tableside-session", "v": [[[1]]], "session": {}}', r"file version a list\)"),
    ('{"v": 1, "system": "tension", "roster": [], "name": "Ash\\ud800"}', "broken character"),
    ('{"v": 1, "system": "tension", "roster": [], "name": "\\u200b\\u2067 \\u3164"}', "no visible characters"),
])
def test_bad_files_get_a_clear_message(text, words):
    with pytest.raises(ImportFileError, match=words):
        read_export(text)


@settings(deadline=None, max_examples=300)
@given(st.one_of(st.text(max_size=300), json_values.map(json.dumps),
                 json_values.map(lambda value: json.dumps({"format": "tableside-session", "v": 1, "session": value}))))
def test_any_text_raises_only_import_errors(text):
    try:
        replica = read_export(text)
    except ImportFileError as error:
        assert str(error)
    else:
        assert check_session(replica.session())


def test_a_log_record_nested_2000_deep_is_refused_with_a_reason():
    data = json.loads(export_text(replica_of(logged_party())))
    text = json.dumps(data).replace('"outcome"', '"extra": ' + "[" * 2000 + "]" * 2000 + ', "outcome"', 1)
    with pytest.raises(ImportFileError, match="nests far deeper"):
        read_export(text)
