"""The command table's rows that need no browser (COMMANDS): storage work carried out on the
session Library, background work, and a live table's inbox merged.

Pure Python: the shell runs these rows (ui.shell.commands.TABLE holds them) on the browser's
stores (localStorage, IndexedDB), the unit tests on memory ones (`settle`), with the same
functions. Each runner takes the state and the command's data. Most finish at once; those that
wait (on the log store, a merge) return a coroutine, which the shell runs in the background
(redrawing when it ends) and `settle` awaits. A refusal (storage full, unreadable data)
becomes the message on screen, never an error.
"""
from __future__ import annotations

from session import SessionError

from ui.core import commands
from ui.core.commands import Runner
from ui.core.library import read_older as read_older_page
from ui.core.library import wanted
from ui.core.state import AppState
from ui.core.step import after_change
from ui.keeping import progress


async def first_page(state: AppState):
    """At start, before the first screen is drawn: the newest page of the open session's log,
    then the table in progress it had on this phone; entries kept aside while storage was full
    are tried again."""
    await read_older_page(state, wanted(state))
    progress.load(state)
    if state.library is not None and state.library.outbox:
        commands.flush(state)


def save(state: AppState, _data):
    """Store what changed: the open session's head (its new log entries queued for the log
    store), its table in progress and sealed secrets, and the backups record."""
    library = state.library
    if library is None:
        acknowledge(state)
        return
    try:
        if library.is_pristine(state.replica) and progress.in_play(state):
            library.keep_new_session(state.replica)  # a roll on a new session must survive a reload
        library.save(state.replica)
        progress.save(state)
        library.save_backups(state.backups)  # written only when its text changed
    except SessionError as error:
        state.fail(str(error))
    if library.outbox and not library.flushing and not library.stalled:
        commands.flush(state)
    elif not library.outbox:
        acknowledge(state)


def acknowledge(state: AppState) -> bool:
    """On the GM's phone of a live table, the players' rolls now stored, said to their phones; True
    when something is to be sent."""
    if state.live is None:
        return False
    from ui.core import outgoing  # a live table's code: loaded once this phone is live

    return outgoing.acknowledge(state)


def open_table(state: AppState, _data):
    """Another session was opened (ui.core.library.switch_to): its table in progress."""
    progress.load(state)


def flush(state: AppState, _data):
    async def write():
        try:
            await state.library.flush()
        except SessionError as error:
            state.fail(str(error))
            return True
        return acknowledge(state)  # False: nothing on screen changed; True: acks to send, once shown

    return write()


def read_older(state: AppState, _data):
    """Read the older log entries the screen wants, one read at a time."""
    count = wanted(state)
    if state.reading or not count:
        return None

    async def read():
        state.reading = True
        try:
            await read_older_page(state, count)
        finally:
            state.reading = False

    return read()


def job(state: AppState, data):
    return data["work"](state)


def merge_messages(state: AppState, _data):
    from ui.arrivals import messages  # a live table's code: loaded once this phone is live

    return messages.drain(state)


def add_session(state: AppState, data):
    try:
        state.library.add(data["replica"])
    except SessionError as error:
        state.fail(f"{data['failure']} {error}".strip())


def save_session(state: AppState, data):
    try:
        state.library.save(data["replica"], make_active=False)
    except SessionError as error:
        state.fail(str(error))


def remove_session(state: AppState, data):
    state.library.remove(data["id"])


def forget(state: AppState, data):
    if state.library.forget(data["key"]):
        state.say("The unreadable data was deleted.")


COMMANDS = {  # these rows of the command table (ui.shell.commands.TABLE), beside their runners
    commands.SAVE: Runner(save),
    commands.OPEN_TABLE: Runner(open_table),
    commands.FLUSH: Runner(flush, "Saving the log did not work in this browser. Export the session to keep it."),
    commands.READ_OLDER: Runner(read_older, "The older entries of the log could not be read."),
    commands.JOB: Runner(job),  # each job says its own failure
    commands.MERGE_MESSAGES: Runner(merge_messages,
                                    "A message from another phone could not be used. Nothing was changed."),
    commands.ADD_SESSION: Runner(add_session),
    commands.SAVE_SESSION: Runner(save_session),
    commands.REMOVE_SESSION: Runner(remove_session),
    commands.FORGET: Runner(forget),
}
NEED_A_LIBRARY = {commands.SAVE, commands.OPEN_TABLE, commands.FLUSH, commands.READ_OLDER, commands.ADD_SESSION,
                  commands.SAVE_SESSION, commands.REMOVE_SESSION, commands.FORGET}


def run(state: AppState, kind: str, data):
    """Carry out one of these commands: None when it is done, or the coroutine still to await."""
    if state.library is None and kind in NEED_A_LIBRARY:
        return None  # nothing is saved here (a state made in a test, or drawn for a snapshot)
    return COMMANDS[kind].run(state, data)


async def settle(state: AppState):
    """Run every queued command of these rows, and what each one leads to, until nothing is left
    to do: what the page does in the background after a tap, in order, awaited (tests, benches).
    Commands for the browser stay queued."""
    for _ in range(1000):
        waited = False
        others = []
        while state.commands:
            kind, data = state.commands.pop(0)
            if kind not in COMMANDS:
                others.append((kind, data))
                continue
            work = run(state, kind, data)
            if work is not None:
                waited = True
                await work
                after_change(state)
        state.commands = others + state.commands
        if not waited:
            return
    raise RuntimeError("the commands kept queueing more work")
