"""ui.systems.handoff under CPython: a roll shown to the GM's phone; a player's roll is logged and shown
in one tap, as a QR code of its link; once put away, the next conflict is ready."""
from session.links import v2 as link_v2
from session.replica import Replica
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)
from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the actions)

from reading import markup, text
from samples import party_of_five
from tapping import open_link, phone, tap


def test_a_players_roll_is_logged_and_shown_to_the_gm_in_one_tap(monkeypatch):
    party = party_of_five()
    state = phone()
    open_link(state, link_v2.session_link(Replica.from_session(party)))
    tap(state, "role-pick", role=party["roster"][0]["id"])
    assert "Rolls with your dice" in text(state)  # the Tension Pool: no tap of its own on a player's phone
    tap(state, "tension-roll", side="player")
    assert state.drafts["tension"]["gm"]["dice"] and state.drafts["tension"]["player"]["dice"]
    assert "Log and show to the GM" in text(state)
    tap(state, "tension-log", then="show")
    entry = state.session["log"][0]
    assert state.showing == entry["id"] and "Show to the GM" in text(state)
    dialog = markup(state)
    assert 'data-testid="qr"' in dialog and "#R2." in dialog
    tap(state, "roll-show-done")
    assert state.showing is None and state.drafts["tension"]["logged"] is None  # the next conflict, no extra tap
    assert 'data-action="tension-roll"' in markup(state) and "Ready for the next roll" in text(state)
    tap(state, "show-screen", screen="log")
    assert 'data-action="log-share"' in markup(state)  # the Log shares it again
