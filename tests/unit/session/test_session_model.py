"""Roster sheets as the session keeps them: checked once, with messages for players."""
import pytest

import session as sessions


def sheet(**changes):
    entry = {"system": "tension", "kind": "character", "name": "Ash", "ap": 3, "health": 10, "willpower": 10,
             "attributes": [{"name": "Agility", "rating": 3}], "skills": [{"name": "Climb", "rating": 2}]}
    entry.update(changes)
    return entry


def test_a_sheet_is_cleaned_and_given_an_id():
    entry = sessions.check_roster_entry(sheet(name="  Ash   the  Bold "))
    assert entry["name"] == "Ash the Bold" and entry["id"]


def test_two_attributes_with_one_name_are_refused_because_pools_are_built_by_name():
    with pytest.raises(sessions.SessionError, match='Ash.s Attributes has "Agility" twice'):
        sessions.check_roster_entry(sheet(attributes=[{"name": "Agility", "rating": 3},
                                                      {"name": "agility", "rating": 1}]))


@pytest.mark.parametrize("changes, message", [
    ({"ap": -1}, "AP must be from 0"),
    ({"name": ""}, "name is empty"),
    ({"kind": "wizard"}, "character or an adversary"),
    ({"skills": [{"name": "Climb", "rating": "two"}]}, "whole number"),
])
def test_broken_sheets_say_what_is_wrong(changes, message):
    with pytest.raises(sessions.SessionError, match=message):
        sessions.check_roster_entry(sheet(**changes))
