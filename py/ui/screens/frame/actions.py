"""Taps on the frame: switching screens and systems, the GM's Tension buttons, messages,
who holds this phone, and a roll shown to the GM."""
from __future__ import annotations

from session import SYSTEMS

from ui.core import commands, events, holding, role
from ui.core.actions import Input, action, dispatch
from ui.core.live_table import sends_to_gm
from ui.core.state import SCREENS, AppState
from ui.kit.html import isolate
from ui.systems.handoff import roll_url, shown_entry

MAX_TENSION = 99
TENSION_FLOOR = 2  # the rules never spend Tension below 2; lowering it by hand stops there too


@action("show-screen")
def show_screen(state: AppState, event: Input):
    screen = event.text("screen")
    if screen in SCREENS:
        state.screen = screen
        state.message = None


@action("switch-system")
def switch_system(state: AppState, event: Input):
    system = event.text("system")
    if system in SYSTEMS and system != state.system:
        role.show_system(state, system)  # this phone's own: no other phone moves
        state.message = None
        state.editing = None


@action("tension-step")
def step_tension(state: AppState, event: Input):
    now = state.session["tension"]
    tension = max(min(TENSION_FLOOR, now), min(MAX_TENSION, now + event.number("step", 0)))
    state.session = {**state.session, "tension": tension}
    state.announcement = f"Tension is {state.session['tension']}."


@action("dismiss-message")
def dismiss_message(state: AppState, event: Input):
    state.message = None


@action("space-open")
def open_archive(state: AppState, event: Input):
    """From the storage notice to the Log, where Export and archiving are."""
    state.screen = "log"
    state.message = None
    state.view = {**state.view, "archive": True}


@action("space-dismiss")
def put_away_notice(state: AppState, event: Input):
    if state.space is not None:
        state.space = {**state.space, "dismissed": state.space["share"]}


# --- Who holds this phone ------------------------------------------------------------------------------

@action("role-choose")
def choose_role(state: AppState, event: Input):
    state.view = {**state.view, "choose_role": True}


@action("role-later")
def choose_later(state: AppState, event: Input):
    state.view.pop("choose_role", None)


@action("role-pick")
def pick_role(state: AppState, event: Input):
    picked = event.text("role")
    entry = state.entry(picked)
    if picked != role.GM and (entry is None or entry["kind"] != "character"):
        return
    refusal = holding.say_who(state, picked)  # the GM on record, or this player's claim (session.ownership)
    if refusal:
        state.fail(refusal)
        return
    state.role = picked
    state.view.pop("choose_role", None)
    events.role_changed(state)
    if entry is not None:  # a player's phone opens on their character's conflict (this phone's own choice)
        state.shown = entry["system"]
        state.screen = "conflict"
        button = "Log and send to the GM" if sends_to_gm(state) else "Log and show to the GM"  # as it reads
        state.say(f"This phone is {isolate(entry['name'])}'s. Roll, then “{button}”.", "success")
    else:
        state.say("This phone is the GM's: every control is here.", "success")


# --- A roll shown to the GM ----------------------------------------------------------------------------

@action("roll-show")
def show_roll(state: AppState, event: Input):
    entry_id = event.text("id")
    if any(entry["id"] == entry_id for entry in state.session["log"]):
        state.showing = entry_id
        state.next_after_showing = None  # shown again: the conflict on screen stays
        state.focus = "handoff-done"


@action("roll-show-share")
def share_shown(state: AppState, event: Input):
    entry = shown_entry(state)
    if entry is not None:
        commands.share(state, title=f"A roll at {isolate(state.session['name'])}", url=roll_url(state, entry),
                      shared="Roll sent.", copied="Roll link copied: paste it on the GM's phone.",
                      manual="Couldn't copy here: select the link under the code and copy it.")


@action("roll-show-done")
def close_shown(state: AppState, event: Input):
    """Put the roll away; after "Log and show to the GM", the next conflict is ready on screen."""
    state.showing, following = None, state.next_after_showing
    state.next_after_showing = None
    if following:
        dispatch(state, following, Input())
        state.say("Logged and shown to the GM. Ready for the next roll (the Log has this one).", "success",
                  passing=True)
