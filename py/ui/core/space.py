"""Is this device's storage for Tableside nearly full? What the browser says, turned into a
calm notice given early (at start and after logging), never an error at the moment a roll
is logged.

Two places fill up: the log store (IndexedDB), whose room navigator.storage.estimate()
tells (usage against quota, shared with the app's offline copy), and localStorage, where
the heads live: about 5 million characters per site in every browser, and no browser says
how much is left, so what Tableside keeps there is counted.
"""
from __future__ import annotations

LOCAL_LIMIT = 5_000_000  # characters of keys and values localStorage holds for one site (Safari, Chrome)
NEARLY = 0.8  # from this share on, the player is told
AGAIN = 0.05  # a notice put away comes back once the storage has filled this much more


def room(usage: float | None, quota: float | None, local: int) -> dict:
    """{"share": the fuller of the two, 0..1, "where": "log" | "heads"}."""
    shares = [(local / LOCAL_LIMIT, "heads")]
    if usage is not None and quota:
        shares.append((usage / quota, "log"))
    share, where = max(shares)
    return {"share": min(share, 1.0), "where": where}


def note(state, measured: dict):
    """Keep what was measured on the state: a notice when storage is nearly full, unless the
    player put it away and it has not filled much more since."""
    previous = state.space or {}
    if measured["share"] < NEARLY:
        state.space = None
        return
    dismissed = previous.get("dismissed")
    if dismissed is not None and measured["share"] < dismissed + AGAIN:
        state.space = {**measured, "dismissed": dismissed}
        return
    state.space = measured


def shown(state) -> dict | None:
    """The notice to show, if any."""
    space = state.space
    return space if space is not None and space.get("dismissed") is None else None
