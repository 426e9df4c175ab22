"""ui.screens.roster under CPython: the sheet editor checks a sheet on Save (session.check_roster_entry):
one that breaks a rule is refused with a message and stays open to correct; once right, it is
saved and the editor closes. Each system's sheet (its form, summary and what its conflict screen
does with a new entry) is tested with its system; what a player's phone may edit is in
test_ui_frame.py."""
from session import check_roster_entry, new_session
from session.on_device import MemoryStore
from ui.core.state import AppState
from ui.screens.roster import actions as roster_actions  # noqa: F401  (registers the actions)

from reading import text
from samples import seen
from tapping import phone, reload, tap


def table(system: str) -> AppState:
    """An empty table of this system."""
    return AppState(session=new_session(system=system))


def test_a_sheet_with_an_empty_kind_is_refused_with_a_message():
    state = table("anomaly")
    tap(state, "roster-add", kind="adversary")
    tap(state, "sheet-set", path="name", typed="Vex")
    tap(state, "sheet-add", path="modifiers", template="modifier")
    tap(state, "sheet-set", path="modifiers.0.kind", typed="")
    tap(state, "roster-save")
    assert state.session["roster"] == [] and "modifier kind of Vex is empty" in seen(state.message.text)


def test_a_descriptor_needs_something_to_be_attached_to():
    state = table("manners")
    tap(state, "roster-add", kind="character")
    tap(state, "sheet-set", path="name", value="Rook")
    tap(state, "sheet-add", path="descriptors", template="descriptor")
    tap(state, "sheet-set", path="descriptors.0.name", value="Stubborn")
    tap(state, "roster-save")
    assert state.message.tone == "error" and state.editing is not None
    tap(state, "sheet-set", path="descriptors.0.on", value="Determination")
    tap(state, "sheet-set", path="manners.Force", value="4", type="int")
    tap(state, "roster-save")
    assert state.editing is None
    assert state.session["roster"][0]["descriptors"] == [{"name": "Stubborn", "on": "Determination"}]
    assert state.session["roster"][0]["manners"]["Force"] == 4


# --- A person, typed once (issue 30, item 1) ------------------------------------------------------------

def add(state, kind: str, name: str):
    tap(state, "roster-add", kind=kind)
    tap(state, "sheet-set", path="name", typed=name)
    tap(state, "roster-save")


def test_a_party_typed_once_is_at_the_table_in_every_rule_system():
    from session import check_session
    from ui.core.people import count_words, people
    from ui.screens.frame import actions as frame_actions  # noqa: F401

    state = table("manners")
    for name in ("Élodie", "Bo", "Cass"):
        add(state, "character", name)
    add(state, "adversary", "Ghoul")
    assert count_words(state.session["roster"]) == "3 characters and 1 adversary"
    for system in ("tension", "anomaly", "manners"):
        tap(state, "switch-system", system=system)
        assert [entry["name"] for entry in state.roster("character")] == ["Élodie", "Bo", "Cass"]
        assert [entry["name"] for entry in state.roster("adversary")] == ["Ghoul"]
    tap(state, "switch-system", system="tension")
    assert [entry["ap"] for entry in state.roster("character")] == [3, 3, 3]  # the Tension Engine's numbers, filled
    assert all(len(person.ids) == 3 for person in people(state.session["roster"]))
    check_session(state.session)


def test_a_new_name_renames_the_person_in_every_system_and_deleting_deletes_them_everywhere():
    from ui.core.people import people

    state = table("tension")
    state.screen = "roster"
    add(state, "character", "Bo")
    add(state, "character", "Élodie")
    bo = state.roster("character")[0]
    tap(state, "roster-edit", id=bo["id"])
    tap(state, "sheet-set", path="name", typed="Bo Lind")
    tap(state, "roster-save")
    assert [person.name for person in people(state.session["roster"])] == ["Bo Lind", "Élodie"]
    assert sorted(entry["name"] for entry in state.session["roster"]) == ["Bo Lind"] * 3 + ["Élodie"] * 3
    tap(state, "roster-edit", id=bo["id"])
    tap(state, "roster-delete")
    assert "from every rule system" in seen(text(state))
    tap(state, "roster-delete-confirmed")
    assert [entry["name"] for entry in state.session["roster"]] == ["Élodie"] * 3


def test_a_sixty_first_roster_entry_is_refused_before_it_is_made_and_the_sheet_stays_open():
    """Issue 30, item 4: a tap that would pass a limit is refused before it is made (before, the 61st entry
    showed on screen and was never saved: gone at the next start)."""
    session = new_session("Crowded", system="anomaly")
    session["roster"] = [check_roster_entry({"system": "anomaly", "kind": "character", "name": f"Hero {number}",
                                             "modifiers": []}) for number in range(60)]
    store = MemoryStore()
    state = phone(session, store=store)
    tap(state, "roster-add", kind="character")
    state.editing["entry"]["name"] = "One more"
    tap(state, "roster-save")
    assert state.message.tone == "error" and "can't be added" in state.message.text
    assert len(state.session["roster"]) == 60 and state.editing["entry"]["name"] == "One more"  # nothing lost
    assert len(reload(store).session["roster"]) == 60
