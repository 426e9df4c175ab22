"""Start-up and the event loop of the page: DOM event -> action -> state -> regions.

One delegated listener per event type on #app turns a tap on a `data-action`
element into an `Input` for `ui.core.actions.dispatch`; the state is then rendered
and only changed regions are patched. Anything that goes wrong in a handler
becomes a plain message; the table stays usable.
"""
from __future__ import annotations

import asyncio
import traceback

from pyscript import window
from pyscript.ffi import create_proxy

from session import SessionError
from ui import progress
from ui.core import effects as core_effects
from ui.core import opening
from ui.core.actions import Input, dispatch
from ui.core.library import commit, read_older, wanted
from ui.core.state import AppState
from ui.frame import actions as frame_actions  # noqa: F401  (registers the frame's buttons: screens, systems, Tension)
from ui.frame import screens
from ui.shell import address, boot, dom, effects, offline, paint_keeper, storage

BUTTON_EVENTS = ("click",)
# What to compute once per system to load (and warm) its odds; Anomaly's import icepool.
ODDS_WARM_UP = {
    "tension": lambda odds: odds.tension_total_distribution(2, 2),
    "anomaly": lambda odds: odds.anomaly_check(0, 0, [], 5),
}
APP = None  # the running App; keeps its event proxies alive for the page's lifetime
FIELD_EVENTS = ("change", "input")


class App:
    def __init__(self, state: AppState):
        self.state = state
        self.page = dom.Page()
        self.loading: set[str] = set()  # systems whose odds are being loaded
        self.shown_session = state.session["id"]  # whose table in progress is on screen
        self.reading = False  # a page of the log is being read from the log store
        self.paint_keeper = paint_keeper.Keeper(lambda: self.state)

    def render(self, typing: bool = False):
        self.shown_session = self.state.session["id"]
        self.page.patch(screens.page(self.state), typing=typing, focus=self.state.focus,
                        announce=self.state.announcement)
        self.state.focus, self.state.announcement = None, ""
        self.paint_keeper.changed()
        self.want_odds()

    def handle(self, event, element):
        tag = element.tagName
        kind = event.type
        if kind == "click" and tag != "BUTTON":
            return
        if kind in FIELD_EVENTS and tag not in ("INPUT", "SELECT", "TEXTAREA"):
            return
        if kind == "input" and tag == "SELECT":
            return
        # Text fields act on every keystroke ("input"), except those marked data-commit="change"
        # (typed dice), which act once the field is done with, so the region around them is drawn.
        on_change = element.getAttribute("data-commit") == "change"
        if kind == "change" and tag == "INPUT" and element.type not in ("checkbox", "radio") and not on_change:
            return
        if kind == "input" and on_change:
            return
        data = dict(window.Object.entries(element.dataset).to_py())
        event_input = Input(data=data, value=getattr(element, "value", None),
                            checked=bool(element.checked) if tag == "INPUT" else None)
        name = data.get("action", "")
        session_id = self.state.session["id"]
        logged = self.state.replica.logged()
        self.page.settle()
        try:
            if not dispatch(self.state, name, event_input):
                return
            commit(self.state)  # what the tap changed, into this phone's replica
            progress.follow(self.state, session_id)  # another session opened: its table in progress
        except Exception as error:  # a bug must not take the table down with it
            traceback.print_exception(error)
            self.state.fail("Something went wrong with that. Please try again.")
        effects.run(self.state, element, self.refresh)  # share sheet, downloads, files: while the tap counts
        self.save()
        self.render(typing=kind == "input")
        if self.state.replica.logged() > logged:
            self.measure_space()  # a calm notice after logging if storage runs low, never an error now

    def save(self):
        """Save what changed; the log entries it queued go to the log store in the background,
        and older log pages the screen now wants are read."""
        if storage.save(self.state):
            effects.later(self.state, self.render, storage.flush(self.state, self.render),
                          "Saving the log did not work in this browser. Export the session to keep it.")
        self.read_older()

    def refresh(self, *_):
        """Save and show what changed (after an asynchronous effect, a link, the storage answer)."""
        progress.follow(self.state, self.shown_session)
        self.save()
        self.render()

    def read_older(self):
        if self.reading or not wanted(self.state):
            return
        self.reading = True

        async def read():
            try:
                await read_older(self.state, wanted(self.state))
            finally:
                self.reading = False
            self.refresh()

        effects.later(self.state, self.render, read(), "The older entries of the log could not be read.")

    def measure_space(self):
        effects.later(self.state, self.render, storage.measure_space(self.state, self.render),
                      "The browser did not say how much room it has left.")

    def open_link(self, *_):
        """A session or roll link in the address bar (at start, or on hashchange). Whatever the
        link holds, the worst it can do is a message: the table and everything saved stay."""
        try:
            fragment = address.take_fragment()
            if fragment is None:
                return
            from ui.session_screen import links  # only a link needs this code at start-up

            links.open_link(self.state, fragment)
            effects.run(self.state, None, self.refresh)  # comparing with a session here reads its log first
        except Exception as error:
            traceback.print_exception(error)
            self.state.fail("That link could not be opened. Nothing was changed.")
        self.refresh()

    def listen(self):
        for kind in BUTTON_EVENTS + FIELD_EVENTS:
            self.page.delegate(kind, self.handle)
        self.page.listeners.append(create_proxy(self.open_link))
        window.addEventListener("hashchange", self.page.listeners[-1])

    def want_odds(self):
        """Odds need rules.odds (and icepool for Anomaly): load them after the screen is up."""
        system = self.state.system
        if system in ODDS_WARM_UP and system not in self.state.odds_ready and system not in self.loading:
            self.loading.add(system)
            effects.later(self.state, self.render, self.load_odds(system),
                          "The odds could not be worked out in this browser; rolling and logging still work.")

    async def load_odds(self, system: str):
        await asyncio.sleep(0.05)  # let the browser paint the screen first
        import rules.odds

        ODDS_WARM_UP[system](rules.odds)
        self.state.odds_ready.add(system)
        self.render()

    async def preload(self):
        """Bring in the other screens, one module per turn, so later taps answer at once."""
        for modules in screens.every_screen():
            await asyncio.sleep(0.02)
            screens.load(modules)


def start():
    asyncio.ensure_future(begin())


async def begin():
    """Open the library (the heads, then the newest page of the open session's log), draw the
    table, then in the background: move sessions saved by version 1, load the other screens,
    ask to keep the data, and see how full storage is."""
    global APP
    try:
        library = await storage.open_library()
        state = opening.starting_state(library, address.page_address())
        if library.recounting and state.replica.id in library.recounting:
            await library.recount(state.replica)
        await read_older(state, wanted(state))
        progress.load(state)  # the conflict in progress before the reload, exactly
        storage.load_backups(state)
        state.safari_tab = storage.in_safari_tab()
        app = App(state)
        app.page.adopt(paint_keeper.painted())  # the last table, painted before Python was ready
        app.open_link()
        app.render()
        app.listen()
        app.paint_keeper.start()
        boot.mark_ready()
        app.read_older()  # the screen restored may show more of the log
    except Exception as error:
        boot.mark_failed(error)
        return
    APP = app
    if library.legacy:
        effects.later(state, app.refresh, migrate(state, app.refresh),
                      "Sessions saved by the previous version could not be moved; they stay saved as before.")
    effects.later(state, app.render, app.preload(),
                  "Part of the app could not be loaded. Reload the page to try again; nothing saved was changed.")
    effects.later(state, app.refresh, storage.ask_to_persist(state, app.refresh),
                  effects.FAILURES[core_effects.PERSIST])
    app.measure_space()
    offline.start()


async def migrate(state, after):
    """Sessions saved by the previous version move to this version's storage, once."""
    await asyncio.sleep(0.05)  # the first screen first
    try:
        await state.library.migrate(state.replica)
    except SessionError as error:
        state.fail(str(error))
    after()
