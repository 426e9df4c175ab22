"""One tap, from input to what must be stored and sent: the update half of the page's loop, pure.

The shell turns a DOM event into an action name and an `Input`, calls `step`, carries out the
commands it left on the state (ui.shell.commands: the table of every kind) and patches the
page with what the screens draw. The unit tests drive the same
function (tests/unit/tapping.py), so what a tap does under CPython is what it does in
the page.
"""
from __future__ import annotations

import traceback

from session.errors import Refused

from ui.core import commands, holding
from ui.core.actions import Input, dispatch
from ui.core.library import commit, wanted
from ui.core.role import fill_player_sheet
from ui.core.state import AppState

SOMETHING_WRONG = "Something went wrong with that. Please try again."
NOT_SENT = "What changed could not be sent to the live phones. Links and QR codes still work."


def step(state: AppState, name: str, event_input: Input, failure: str = SOMETHING_WRONG) -> bool:
    """Run the handler for action `name`, then everything that follows a change (`after_change`),
    and after a roll was logged, a look at how full storage is. False when no handler has
    that name (nothing happened). A handler that fails leaves the message `failure`: the table
    stays usable, and what the handler did before failing is kept like any change."""
    logged = state.replica.logged()
    try:
        if not dispatch(state, name, event_input):
            return False
    except Exception as error:  # a bug must not take the table down with it
        traceback.print_exception(error)
        state.fail(failure)
    after_change(state)
    if state.replica.logged() > logged:
        commands.measure_space(state)  # a calm notice after logging if storage runs low, never an error now
    return True


def after_change(state: AppState):
    """After any change (a tap, a link opened, background work finished): what it did to the
    open session becomes this phone's edit in the replica, once, and the saving is queued,
    with the older log entries the screen now wants; on a live table, what changed is queued
    for the other phones."""
    try:
        fill_player_sheet(state)  # a player's person gets a sheet where this phone now plays them
        refusal = holding.refused_here(state)  # a player's phone makes only what the GM's phone takes
        if refusal:
            raise Refused(refusal)
        commit(state)
    except Refused as error:  # a count or the clock is full: the change is not made, and why is said
        state.session = state.committed
        state.fail(str(error))
        state.announcement = str(error)
    except Exception as error:
        traceback.print_exception(error)
        state.fail(SOMETHING_WRONG)
    commands.save(state)
    if state.live is not None:
        send_to_live_phones(state)
    if wanted(state):
        commands.read_older(state)


def send_to_live_phones(state: AppState):
    """What changed, queued for the other phones of a live table (ui.core.outgoing)."""
    from ui.core import outgoing  # the links' code: loaded once this phone is live, never at start-up

    try:
        outgoing.send_changes(state)
    except Exception as error:  # the change itself stands: only its sending failed
        traceback.print_exception(error)
        state.fail(NOT_SENT)
