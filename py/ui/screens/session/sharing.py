"""What the Session screen's view, actions and scanner share: this session as a link to other
phones, its setup in a few words, and the <video> the camera shows in while scanning a code."""
from __future__ import annotations

from session import SYSTEMS, share_url

from ui.core.people import count_words

# Said where the link would be when phones of this version would not open it (too_large_to_open).
TOO_LARGE_TO_OPEN = ("This session's link is now larger than this version of Tableside opens, so other phones "
                     "would not open it: share the session as a file instead (“Export this session to a file”), "
                     "and nothing is lost.")
VIDEO = "scan-video"  # the <video> the camera shows in while scanning a code


def setup_words(session: dict) -> str:
    return " · ".join([SYSTEMS[session["system"]], count_words(session["roster"]), f"Tension {session['tension']}"])


def session_url(state) -> str:
    """The link that carries this session (and its newest log entries) to other phones, where it
    merges (session.links.v2: version 2)."""
    from session.links.v2 import session_link  # links' code: loaded when a session is shared

    return share_url(state.base_url, session_link(state.replica))


def too_large_to_open(url: str) -> bool:
    """True when phones of this version would not open the link `url` for its size (a long campaign's
    session may outgrow it): then the session travels as a file."""
    from session.links.size import too_large

    return too_large(url.partition("#")[2])
