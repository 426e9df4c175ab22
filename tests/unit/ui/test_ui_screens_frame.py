"""ui.screens.frame under CPython: who holds this phone (ui.core.role), asked after joining a session and
changed from the bar; a player's phone keeps the GM's controls away on every screen and keeps
its role over a reload."""
from session.links import v2 as link_v2
from session.replica import Replica
from ui.keeping import progress
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)

from reading import markup, text
from samples import party_of_five
from tapping import open_link, phone, tap


def test_joining_asks_who_holds_the_phone_and_a_players_phone_keeps_the_gms_controls_away():
    party = party_of_five()
    state = phone()
    open_link(state, link_v2.session_link(Replica.from_session(party)))
    assert "Who are you at this table?" in text(state)
    ash = party["roster"][0]
    tap(state, "role-pick", role=ash["id"])
    page = markup(state)
    assert state.role == ash["id"] and state.screen == "conflict" and "You: Ash Varga" in text(state)
    assert 'data-action="tension-step"' not in page  # Tension is shown, not offered
    assert "Conflicts with adversaries are rolled on the GM's phone" in text(state)
    assert 'id="tension-player-who"' not in page  # the player's side is theirs
    state.screen = "roster"
    page = markup(state)
    assert "Add an adversary" not in page and page.count('data-action="roster-edit"') == 1
    again = progress.reopened(state)  # kept with the table in progress: a reload keeps it
    assert again.role == ash["id"]
    tap(state, "role-choose")
    tap(state, "role-pick", role="gm")
    assert 'data-action="tension-step"' in markup(state) and "You: the GM" in text(state)


def test_the_top_chips_show_each_characters_health_beside_their_ap():
    party = party_of_five()
    party["roster"][0]["health"] = 7
    state = phone(party)
    ash = party["roster"][0]
    assert f"{ash['name']} {ash['ap']} AP, 7 Health" in text(state)
    assert 'aria-label="Adventure Points and Health"' in markup(state)
