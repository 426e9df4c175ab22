"""What the Session screen's view, actions and scanner share: this session as a link to other
phones, its setup in a few words, and the <video> the camera shows in while scanning a code."""
from __future__ import annotations

from session import SYSTEMS, share_url

from ui.core.people import count_words

VIDEO = "scan-video"  # the <video> the camera shows in while scanning a code


def setup_words(session: dict) -> str:
    return " · ".join([SYSTEMS[session["system"]], count_words(session["roster"]), f"Tension {session['tension']}"])


def session_url(state) -> str:
    """The link that carries this session (and its newest log entries) to other phones, where it
    merges (session.links.v2: version 2)."""
    from session.links.v2 import session_link  # links' code: loaded when a session is shared

    return share_url(state.base_url, session_link(state.replica))
