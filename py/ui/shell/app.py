"""Start-up and the event loop of the page: DOM event -> step -> commands -> regions.

One delegated listener per event type on #app turns a tap on a `data-action`
element into an `Input` for `ui.core.step.step`, which runs its handler and
queues what must be stored and sent; the commands are carried out (ui.shell.commands)
and only the regions that changed are patched. Anything that goes wrong in a handler
becomes a plain message; the table stays usable.
"""
from __future__ import annotations

import asyncio
import traceback

from session import SessionError
from ui import router
from ui.core import opening
from ui.core.actions import Input
from ui.core.commands import PERSIST, measure_space
from ui.core.state import AppState
from ui.core.step import after_change, step
from ui.keeping import runners
from ui.screens.frame import actions as frame_actions  # noqa: F401  (the frame's buttons: screens, systems, Tension)
from ui.shell import address, boot, commands, dom, offline, paint_keeper, storage
from ui.shell.background import later
from ui.shell.page_objects import create_proxy, window

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
        self.paint_keeper = paint_keeper.Keeper(lambda: self.state)

    def render(self, typing: bool = False):
        regions = router.page(self.state)
        self.page.patch(regions, typing=typing, focus=self.state.focus, announce=self.state.announcement)
        self.state.focus, self.state.announcement = None, ""
        self.paint_keeper.redrawn(regions)
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
        self.page.settle()
        if not step(self.state, data.get("action", ""), event_input):
            return
        commands.run(self.state, element, self.refresh)  # share sheet, downloads, saving: while the tap counts
        self.render(typing=kind == "input")

    def refresh(self, *_):
        """Show what changed after background work (a link, a page of the log, the storage
        answer), and carry out what it queued."""
        after_change(self.state)
        commands.run(self.state, None, self.refresh)
        self.render()

    def open_link(self, *_):
        """A session or roll link in the address bar (at start, or on hashchange). Whatever the
        link holds, the worst it can do is a message: the table and everything saved stay."""
        try:
            fragment = address.take_fragment()
            if fragment is not None:
                from ui.arrivals import links  # only a link needs this code at start-up

                links.open_link(self.state, fragment)
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
            later(self.state, self.render, self.load_odds(system),
                  "The odds could not be worked out in this browser; rolling and logging still work.")

    async def load_odds(self, system: str):
        await asyncio.sleep(0.05)  # let the browser paint the screen first
        import rules.odds

        ODDS_WARM_UP[system](rules.odds)
        self.state.odds_ready.add(system)
        self.render()

    async def preload(self):
        """Bring in the other screens, one module per turn, so later taps answer at once."""
        for modules in router.every_screen():
            await asyncio.sleep(0.02)
            router.load(modules)


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
        await runners.first_page(state)  # the newest log entries, the conflict in progress exactly
        state.safari_tab = storage.in_safari_tab()
        app = App(state)
        app.page.adopt(paint_keeper.painted())  # the last table, painted before Python was ready
        app.open_link()  # draws the table, and reads more of the log if the restored screen shows it
        app.listen()
        app.paint_keeper.start()
        boot.mark_ready()
    except Exception as error:
        boot.mark_failed(error)
        return
    APP = app
    if library.legacy:
        later(state, app.refresh, migrate(state, app.refresh),
              "Sessions saved by the previous version could not be moved; they stay saved as before.")
    later(state, app.render, app.preload(),
          "Part of the app could not be loaded. Reload the page to try again; nothing saved was changed.")
    later(state, app.refresh, storage.ask_to_persist(state, app.refresh), commands.TABLE[PERSIST].failure)
    if state.rejoin is not None:  # ways back to a live table this phone was on: rejoined with no scan
        router.load(router.SHARED_SCREENS["live"])
        step(state, "live-rejoin", Input())
        app.render()
    measure_space(state)
    commands.run(state, None, app.refresh)
    offline.start()


async def migrate(state, after):
    """Sessions saved by the previous version move to this version's storage, once."""
    await asyncio.sleep(0.05)  # the first screen first
    try:
        await state.library.migrate(state.replica)
    except SessionError as error:
        state.fail(str(error))
    after()
