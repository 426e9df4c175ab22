"""Everything the screen shows, in one object: the session plus what is on the table now.

`session` is the open session as the screens read it (a plain dict, py/session/model.py),
derived from `replica` (session.replica: the session as this phone keeps it, merging with
other phones'); after every change ui.core.step commits what an action changed in
`session` into the replica. `drafts` holds the conflict being built for each system (form
choices and dice on the table); the rest is navigation (the screen and rule system shown are
this phone's own, never the session's) and transient messages. Pure
Python, so views and actions are tested under CPython.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from session.replica import Replica

SCREENS = ("conflict", "roster", "log", "tables", "session", "live")


@dataclass
class Message:
    text: str
    tone: str = "info"  # "info" | "error" | "success"
    passing: bool = False  # it tells what was just done ("Logged…"): the next roll takes it away


@dataclass
class AppState:
    session: dict
    screen: str = "conflict"
    drafts: dict = field(default_factory=dict)
    message: Message | None = None
    editing: dict | None = None  # the roster sheet open for editing, a copy
    announcement: str = ""  # one sentence for the aria-live region after this change
    focus: str | None = None  # id of the element to focus after this change (keyboard users)
    odds_ready: set = field(default_factory=set)  # systems whose odds have loaded (after the first paint)
    # Sessions on this device, links and files (ui.screens.session, ui.arrivals, ui.shell.storage):
    library: object | None = None  # session.Library: every session saved here (None: nothing is saved)
    pending: dict | None = None  # an opened link waiting on screen: {"kind": "join" | "roll", ...}
    commands: list = field(default_factory=list)  # work a change queued: saving, share, download (ui.core.commands)
    persistence: str = "unknown"  # navigator.storage.persist(): "kept" | "not-kept" | "unsupported" | "unknown"
    safari_tab: bool = False  # iOS Safari, not a Home Screen app: it deletes the data after 7 days unvisited
    backups: dict = field(default_factory=dict)  # session.on_device.backups: when each session was last exported or shared
    base_url: str = ""  # the app's address without fragment; share links add theirs
    view: dict = field(default_factory=dict)  # open confirmations and fields of the log and session screens
    replica: Replica | None = None  # the open session as this phone keeps it; None: made from `session`
    device: str = ""  # this phone's id in the stamps it writes (kept in storage)
    committed: dict | None = None  # `session` as the replica last recorded it (ui.core.library.commit)
    # What this phone sealed in a Manner Cards exchange across phones (session.sealed), by conflict id,
    # until it reveals; None marks one to delete. Saved apart from everything else (ui.keeping.progress).
    secrets: dict = field(default_factory=dict)
    space: dict | None = None  # storage nearly full: {"share", "where"} (ui.core.space); None: enough room
    # Who holds this phone at the table (ui.core.role): "gm", a character's roster id, or None (not asked:
    # one phone for the whole table, every control shown). This phone's own, kept with its table in progress.
    role: str | None = None
    showing: str | None = None  # the log entry id of a roll on screen for the GM's phone (ui.systems.handoff)
    next_after_showing: str | None = None  # the action that readies the next conflict once it is put away
    reading: bool = False  # older log entries are being read from the log store (ui.keeping.runners)
    numbered: int = 0  # the last number this phone gave an entry it logged (ui.core.library.numbering)
    live: object | None = None  # a live table's channels to other phones (ui.core.live_table); None: not live here
    add_rolls: str = "at-once"  # on the GM's phone of a live table, a player's checked roll: "at-once" | "wait"
    # The rule system this phone shows: its own, kept with its table in progress (ui.keeping.progress), never
    # merged nor sent; None until the session's table is loaded: the session's default (the GM's system).
    shown: str | None = None
    # On a player's phone of a live table: the ids of the rolls it logged that the GM's phone has not said
    # it stored (ui.core.outgoing), oldest first; sent again on every new channel. Kept with the table in progress.
    unconfirmed: list = field(default_factory=list)
    # The ways back to a live table this phone keeps (session.live.standby.Ways; ui.core.standbys), kept with
    # the table in progress: after a reload the phone rejoins through them with no scan. None: none kept.
    rejoin: object | None = None

    def __post_init__(self):
        if self.replica is None:
            self.replica = Replica.from_session(self.session)
        if self.committed is None:
            self.committed = self.session

    @property
    def system(self) -> str:
        """The rule system this phone shows (`shown`), else the one a phone opening the session starts on."""
        return self.shown or self.session["system"]

    def draft(self, make) -> dict:
        """This system's draft, made with `make(state)` the first time."""
        if self.system not in self.drafts:
            self.drafts[self.system] = make(self)
        return self.drafts[self.system]

    def roster(self, kind: str | None = None) -> list[dict]:
        return [entry for entry in self.session["roster"]
                if entry["system"] == self.system and (kind is None or entry["kind"] == kind)]

    def entry(self, entry_id) -> dict | None:
        return next((entry for entry in self.session["roster"] if entry["id"] == entry_id), None)

    def say(self, text: str, tone: str = "info", passing: bool = False):
        self.message = Message(text, tone, passing)

    def fail(self, text: str):
        self.message = Message(text, "error")
