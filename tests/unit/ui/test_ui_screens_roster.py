"""ui.screens.roster under CPython: the sheet editor checks a sheet on Save (session.check_roster_entry):
one that breaks a rule is refused with a message and stays open to correct; once right, it is
saved and the editor closes. Each system's sheet (its form, summary and what its conflict screen
does with a new entry) is tested with its system; what a player's phone may edit is in
test_ui_frame.py."""
from session import new_session
from ui.core.state import AppState
from ui.screens.roster import actions as roster_actions  # noqa: F401  (registers the actions)

from samples import seen
from tapping import tap


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
