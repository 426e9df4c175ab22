"""The last table drawn, kept so the next start paints it before Python is ready.

What is stored (`tableside.snapshot`, one key for the whole device) is the page's
regions as a reload would draw them now (no message, no open confirmation, dice and cards
still): the regions just drawn when nothing else differs (`calm`), else drawn again from
`ui.keeping.progress.reopened`; with a validity stamp: the build's version, the session
it shows and a CRC-32 of each stored text it was drawn from (the index, the session,
its table in progress). static/regions.js paints it only when all of them still match,
so a snapshot older than the saved session, or of another session or version, is never
shown. None is kept while a card lies face down (the regions never draw one, but its
table is sealed), while a link waits to be opened, or when nothing is saved here.
Pure Python: the shell (ui/shell/paint_keeper.py) reads the stored texts and writes the key.
"""
from __future__ import annotations

import zlib

from session.on_device import INDEX_KEY, head_key, table_key

from ui import router
from ui.core.state import AppState
from ui.keeping import progress

KEY = "tableside.snapshot"
FORMAT = 1  # static/regions.js paints only this format
MAX_CHARS = 200_000  # a conflict screen is about 10 KB; a long list is not worth painting twice
LEFT_BLANK = ("message", "live-line")  # a message was about a moment that has passed; a reload ends live channels


def stamp(text: str | None) -> int | None:
    """CRC-32 of a stored text's UTF-8 bytes (None: nothing stored); regions.js computes the same."""
    return None if text is None else zlib.crc32(text.encode("utf-8", "surrogatepass"))


def stamped_keys(session_id: str) -> list[str]:
    """The stored texts a snapshot of this session is drawn from."""
    return [INDEX_KEY, head_key(session_id), table_key(session_id)]


def sealed(state: AppState) -> bool:
    """A face-down choice exists in any system's conflict in progress."""
    return any(router.module(router.FACE_DOWN[system]).face_down(draft)
               for system, draft in state.drafts.items() if system in router.FACE_DOWN)


def may_keep(state: AppState) -> bool:
    library = state.library
    saved = library is not None and not library.in_memory and not library.is_pristine(state.replica)
    return saved and state.pending is None and not sealed(state)


def calm(state: AppState) -> bool:
    """Nothing on screen that a reload would not draw again: no open confirmation or other view
    state of the Log and Session screens, no roll shown to the GM. (A message is left blank, and
    dice or cards drawn mid-animation are painted still: static/css keeps them so while loading.)"""
    return not state.view and state.showing is None


def content(state: AppState, version: str, stored, drawn=None) -> dict | None:
    """What to store under KEY now, or None when no snapshot may be kept.
    `stored(key)`: the text stored under key (None when absent). `drawn`: the regions on screen
    now, reused when the state is calm, so keeping the snapshot costs no second drawing of the
    page; otherwise the page is drawn as a reload would draw it (ui.keeping.progress.reopened)."""
    if not may_keep(state):
        return None
    if drawn is None or not calm(state):
        drawn = router.page(progress.reopened(state))
    regions = [[region_id, "" if region_id in LEFT_BLANK else str(markup)] for region_id, markup in drawn]
    if sum(len(markup) for _, markup in regions) > MAX_CHARS:
        return None
    session_id = state.session["id"]
    return {"v": FORMAT, "version": version, "session": session_id,
            "stamps": [[key, stamp(stored(key))] for key in stamped_keys(session_id)], "regions": regions}
