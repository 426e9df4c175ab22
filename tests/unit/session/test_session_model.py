"""Roster sheets as the session keeps them: checked once, with messages for players."""
import pytest

from session import check_roster_entry, check_session, new_session, SessionError
from samples import seen


def sheet(**changes):
    entry = {"system": "tension", "kind": "character", "name": "Ash", "ap": 3, "health": 10, "willpower": 10,
             "attributes": [{"name": "Agility", "rating": 3}], "skills": [{"name": "Climb", "rating": 2}]}
    entry.update(changes)
    return entry


def test_a_sheet_is_cleaned_and_given_an_id():
    entry = check_roster_entry(sheet(name="  Ash   the  Bold "))
    assert entry["name"] == "Ash the Bold" and entry["id"]


def test_two_attributes_with_one_name_are_refused_because_pools_are_built_by_name():
    with pytest.raises(SessionError) as refused:
        check_roster_entry(sheet(attributes=[{"name": "Agility", "rating": 3},
                                                      {"name": "agility", "rating": 1}]))
    assert seen(str(refused.value)).startswith('Ash\'s Attributes has "Agility" twice')


@pytest.mark.parametrize("changes, message", [
    ({"ap": -1}, "AP must be from 0"),
    ({"name": ""}, "name is empty"),
    ({"kind": "wizard"}, "character or an adversary"),
    ({"skills": [{"name": "Climb", "rating": "two"}]}, "whole number"),
])
def test_broken_sheets_say_what_is_wrong(changes, message):
    with pytest.raises(SessionError, match=message):
        check_roster_entry(sheet(**changes))


INVISIBLE_NAMES = ["\u200b", "\u202e", "\u2067\u2069", "\u3164", "\u2800 \u115f", "\u0301\u0302", "\ufeff\u200d",
                   "\u00ad", "\u180e"]


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_a_name_made_only_of_invisible_characters_is_refused(name):
    with pytest.raises(SessionError, match="A character's name has no visible characters"):
        check_roster_entry(sheet(name=name))
    with pytest.raises(SessionError, match="no visible characters"):
        check_roster_entry(sheet(skills=[{"name": name, "rating": 1}]))
    with pytest.raises(SessionError, match="The session name has no visible characters"):
        check_session({**new_session(), "name": name})


@pytest.mark.parametrize("name", ["אש", "\u202eAsh", "Zoë", "e\u0301", "李", "🐉", "\u200bAsh"])
def test_names_that_show_something_are_kept_as_written(name):
    assert check_roster_entry(sheet(name=name))["name"] == name


def test_optional_text_that_shows_nothing_stands_for_nothing():
    entry = check_roster_entry({"system": "anomaly", "name": "Rook",
                                         "modifiers": [{"name": "\u200b", "kind": "Gear", "value": 1}]})
    assert entry["modifiers"][0]["name"] == ""


def test_a_lone_surrogate_in_a_typed_name_is_refused():
    with pytest.raises(SessionError, match="broken character"):
        check_roster_entry(sheet(name="Ash\ud800"))
