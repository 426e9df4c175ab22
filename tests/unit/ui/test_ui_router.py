"""ui.router under CPython: names arriving in a link are text, never markup, on every screen."""
from session import new_session
from session.links.v1 import encode_session
from ui.arrivals import links  # noqa: F401  (registers the join taps)

from reading import markup
from samples import party_of_five
from tapping import open_link, phone, tap

HOSTILE = '<img src=x onerror="window.hacked=1">'


def test_names_with_html_are_shown_as_text_everywhere():
    party = party_of_five()
    party["name"] = HOSTILE
    party["roster"][0]["name"] = HOSTILE
    state = phone(new_session("Mine"))
    open_link(state, encode_session(party))
    assert state.screen == "session" and "&lt;img" in markup(state) and "<img" not in markup(state)
    tap(state, "join-new")
    for screen in ("session", "roster", "log", "conflict"):
        state.screen = screen
        assert "<img" not in markup(state) and "&lt;img" in markup(state)
