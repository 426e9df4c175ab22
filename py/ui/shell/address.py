"""The address bar: the app's own address, and a Tableside link arriving in its fragment."""
from __future__ import annotations

from urllib.parse import unquote

from session import looks_like_link
from ui.shell.page_objects import window


def page_address() -> str:
    return str(window.location.href).split("#")[0]


def take_fragment() -> str | None:
    """A Tableside link in the address bar's fragment, removed from the address bar (so a
    reload doesn't open it again); None when the fragment is not a link (e.g. #app)."""
    fragment = unquote(str(window.location.hash or "")[1:])
    if not looks_like_link(fragment):
        return None
    location = window.location
    window.history.replaceState(window.history.state, "", f"{location.pathname}{location.search}")
    return fragment
