"""How many people a session keeps (issue 30, item 1), through the taps and links a table makes: the
limit counts people (session.headcount.MAX_PEOPLE), each with a sheet in every rule system, so a party
typed once in three systems fills it to the last person with no sheet left out; the next person is
refused at Save, before anything is made, in a sentence; a link whose session would pass it is refused
in a sentence and the session on the phone stays as it was."""
from session import MemoryStore, check_roster_entry, new_session
from session.headcount import MAX_PEOPLE
from session.model import SYSTEMS
from session.replica_check import ROSTER_RECORDS
from session.links.v2 import session_link
from ui.core.people import everywhere, people
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers switch-system)
from ui.screens.roster import actions as roster_actions  # noqa: F401  (registers the roster's taps)

from tapping import open_link, phone, reload, tap

FULL = (f"This session keeps {MAX_PEOPLE} characters and adversaries, each with a sheet in every rule system: "
        "\u2068One more\u2069 can't be added. Remove someone first, or start a new session.")


def typed(state, name: str, kind: str = "character"):
    tap(state, "roster-add", kind=kind)
    state.editing["entry"]["name"] = name
    tap(state, "roster-save")


def every_person_has_every_sheet(roster: list[dict]) -> bool:
    return all(sorted(person.systems) == sorted(SYSTEMS) for person in people(roster))


def full_party(count: int = MAX_PEOPLE) -> dict:
    """A session of `count` people, each typed once (so with a sheet in every rule system)."""
    session = new_session("Crowded", system="tension")
    for number in range(count):
        entry = check_roster_entry({"system": "anomaly", "kind": "character" if number % 4 else "adversary",
                                    "name": f"Hero {number}", "modifiers": []})
        session["roster"] = everywhere(session["roster"] + [entry], entry)
    return session


def test_a_party_typed_once_in_three_systems_fills_the_limit_with_every_sheet_and_the_next_is_refused_at_save():
    store = MemoryStore()
    state = phone(new_session("Campaign", system="tension"), store=store)
    systems = list(SYSTEMS)
    for number in range(MAX_PEOPLE):  # typed on whichever system the phone shows
        tap(state, "switch-system", system=systems[number % len(systems)])
        typed(state, f"Person {number}", "adversary" if number % 5 == 0 else "character")
        assert state.message.tone == "success", state.message.text
    roster = state.session["roster"]
    assert len(people(roster)) == MAX_PEOPLE and len(roster) == MAX_PEOPLE * len(SYSTEMS)
    assert every_person_has_every_sheet(roster)
    typed(state, "One more")
    assert state.message.tone == "error" and state.message.text == FULL
    assert state.editing["entry"]["name"] == "One more"  # the sheet stays open: nothing typed is lost
    assert state.session["roster"] == roster
    again = reload(store).session["roster"]
    assert len(people(again)) == MAX_PEOPLE and every_person_has_every_sheet(again)


def test_an_older_session_of_sixty_sheets_in_one_system_still_opens_and_its_people_get_every_sheet():
    """Before, the cap was 60 roster entries of any systems: such a session is 60 people at most."""
    session = new_session("Old", system="anomaly")
    session["roster"] = [check_roster_entry({"system": "anomaly", "kind": "character", "name": f"Hero {number}",
                                             "modifiers": []}) for number in range(60)]
    state = phone(session)
    assert len(people(state.session["roster"])) == 60
    tap(state, "roster-add", kind="character")
    state.editing["entry"]["name"] = "One more"
    tap(state, "roster-save")
    assert state.message.text == FULL and len(state.session["roster"]) == 60


def test_a_link_whose_session_would_pass_the_limit_is_refused_in_a_sentence_and_the_phone_keeps_its_session():
    """Two phones of a table of 59 each add a person: each session is 60 people alone, 61 merged."""
    store = MemoryStore()
    state = phone(full_party(MAX_PEOPLE - 1), store=store)
    theirs = state.replica.copy()
    was = theirs.session()
    newcomer = check_roster_entry({"system": "manners", "kind": "character", "name": "Their newcomer",
                                   "manners": {}, "skills": [], "descriptors": []})
    theirs.absorb(was, {**was, "roster": everywhere(was["roster"] + [newcomer], newcomer)}, "ff00")
    typed(state, "Mine")
    assert state.message.tone == "success"
    kept = state.session
    open_link(state, session_link(theirs))
    assert state.message.text == ("This link can't be merged: the session would have more than "
                                  f"{MAX_PEOPLE} characters and adversaries.")
    assert state.session == kept and len(people(kept["roster"])) == MAX_PEOPLE
    assert reload(store).session["roster"] == kept["roster"]


def test_past_the_sheets_a_session_keeps_with_those_removed_a_person_is_refused_with_why():
    """Removed sheets stay in the session for good (so every phone learns of the removal): once it has kept
    ROSTER_RECORDS, removing someone makes no room, and the sentence says to start a new session."""
    state = phone(full_party(3))
    for number in range(ROSTER_RECORDS - 9 - 2):  # room for two more sheets, not a person's three
        state.replica.roster[f"gone{number}"] = {"added": [1, "a1"], "removed": [2, "a1"], "fields": {}, "counts": {}}
    typed(state, "One more")
    assert state.message.text == (f"This session has kept {ROSTER_RECORDS:,} sheets, those of people removed "
                                  "included: \u2068One more\u2069 can't be added. Start a new session for more people.")
    assert len(people(state.session["roster"])) == 3
