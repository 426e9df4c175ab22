"""When each session was last backed up (session.on_device.backups): a small per-device key that
any stored value, however broken or hostile, reads as "never backed up"."""
import json

from hypothesis import given
from hypothesis import strategies as st

from session import log_conflict, undo_last
from session.on_device.backups import backups_text, exported, linked, only_here, read_backups

from samples import AT, json_values, logged_party


def test_an_export_notes_the_time_and_the_log_it_held():
    party = logged_party()
    backups = exported({}, party, AT)
    assert backups == {party["id"]: {"file": AT, "file_log": 1}}
    assert only_here(backups, party) == 0
    more = log_conflict(party, party["log"][0]["record"], at=AT, by="Kim")
    assert only_here(backups, more) == 1
    assert read_backups(backups_text(backups)) == backups


def test_a_link_notes_its_time_and_backs_up_no_log():
    party = logged_party()
    backups = linked({}, party, AT)
    assert backups == {party["id"]: {"link": AT}}
    assert only_here(backups, party) == 1  # a link carries only the newest entries: nothing counts as backed up
    both = exported(backups, party, "2025-06-02T10:00:00+02:00")
    assert both[party["id"]] == {"link": AT, "file": "2025-06-02T10:00:00+02:00", "file_log": 1}


def test_undo_below_the_export_counts_nothing_as_only_here():
    party = logged_party()
    backups = exported({}, party, AT)
    assert only_here(backups, undo_last(party)) == 0


def test_odd_or_hostile_data_reads_as_never_backed_up():
    deep = "[" * 10_000 + "]" * 10_000
    for raw in (None, 7, "", "{broken", "[]", '"text"', deep, '{"a": ' * 5_000 + "1" + "}" * 5_000,
                "x" * 100_000, '{"id": {"file": 3, "file_log": 1}}', '{"id": {"file": "t"}}',
                '{"id": {"file": "t", "file_log": -1}}', '{"id": {"file": "t", "file_log": true}}', '{"id": []}'):
        assert read_backups(raw) == {}, raw
    assert read_backups('{"id": {"link": "t", "other": [1]}}') == {"id": {"link": "t"}}
    assert read_backups('{"id": {"link": "\\ud800"}}') == {}  # a lone surrogate


@given(json_values)
def test_any_json_reads_without_raising(value):
    read_backups(json.dumps(value))


@given(st.text())
def test_any_text_reads_without_raising(raw):
    read_backups(raw)
