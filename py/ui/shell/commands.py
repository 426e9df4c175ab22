"""The command table (Elm's Cmd): every kind of work a change queues (ui.core.commands), with
what carries it out and the sentence said on screen when that fails, and `run`, which carries
out what a change queued.

`run` is called by ui.shell.app right after the event, while the tap still counts as a user
gesture (the share sheet and the clipboard need one); `after()` shows what changed once
asynchronous work has finished. The rows that need no browser (storage, background work, a
live table's inbox) are written beside their runners in ui.keeping.runners, where the unit
tests run the same rows; the others are written here.
"""
from __future__ import annotations

import traceback

from ui.core import commands
from ui.core.commands import Runner
from ui.keeping import runners
from ui.shell import browser, channels
from ui.shell.background import later

TABLE = {
    **runners.COMMANDS,
    # Only a browser can (ui.shell.browser):
    commands.SHARE: Runner(browser.share, "Sharing did not work here: copy the link from the box instead."),
    commands.DOWNLOAD: Runner(browser.download, "This browser did not save the file."),
    commands.READ_FILE: Runner(browser.read_file, "That file could not be read."),
    commands.PERSIST: Runner(browser.persist, "The browser did not answer about keeping data."),
    commands.MEASURE_SPACE: Runner(browser.measure_space, "The browser did not say how much room it has left."),
    commands.SCAN: Runner(browser.scan, "The camera could not be started here. Paste the link instead."),
    commands.STOP_SCAN: Runner(browser.stop_scan, "The camera did not stop; reload the page to turn it off."),
    # A live table's channels and the Screen Wake Lock (ui.shell.channels, static/live.js):
    commands.LIVE_OFFER: Runner(channels.describe("offer"), channels.FAILURE),
    commands.LIVE_ANSWER: Runner(channels.describe("answer"), channels.FAILURE),
    commands.LIVE_ACCEPT: Runner(channels.accept, channels.FAILURE),
    commands.LIVE_SEND: Runner(channels.send, channels.FAILURE),
    commands.LIVE_CLOSE: Runner(channels.close, channels.FAILURE),
    commands.LIVE_WAIT: Runner(channels.wait, channels.FAILURE),
    commands.WAKE_LOCK: Runner(channels.wake_lock, channels.FAILURE),
    commands.LIVE_PROBE: Runner(channels.probe, channels.FAILURE),
    commands.LIVE_STANDBY: Runner(channels.standby, channels.FAILURE),
    commands.LIVE_EXPECT: Runner(channels.expect, channels.FAILURE),
    commands.LIVE_DROP: Runner(channels.drop, channels.FAILURE),
    commands.LIVE_REJOIN: Runner(channels.rejoin, channels.FAILURE),
}
FAILED = "That did not work in this browser."  # a row with no sentence, whose command named none


def run(state, element, after):
    """Carry out the commands queued, in order, and those they queue in turn; `after()` shows
    what changed once an asynchronous one (share sheet, clipboard, file read, the log store)
    has finished."""
    while state.commands:
        kind, data = state.commands.pop(0)
        failure = TABLE[kind].failure or data.get("failure") or FAILED
        try:
            if kind in runners.COMMANDS:
                work = runners.run(state, kind, data)
                if work is not None:
                    later(state, after, finished(work, after), failure)
            else:
                TABLE[kind].run(state, data, element, after, failure)
        except Exception as error:  # the browser said no in a way we did not expect: say so, keep going
            traceback.print_exception(error)
            state.fail(failure)


async def finished(work, after):
    """Work waited on: show what it changed (unless it says nothing on screen did)."""
    if await work is not False:
        after()
