"""A Manner Cards conflict sealed across phones (session.sealed), as the screen works with it.

The draft keeps only which exchange is on the table and which side this phone plays
(`draft["exchange"]`: {"id", "role", "last"}: whether this phone's newest step is one the other phone may not have yet); the public steps are in the session (`replica.sealed`),
so they merge, travel and survive reloads like any change; what this phone sealed and has not
revealed is in `state.secrets` (saved apart, ui.keeping.progress, under its own key), never in the draft.
`stage` says where the exchange stands for this phone, and so what the screen offers. Opening a
message from the other phone is `receive`. Pure Python.
"""
from __future__ import annotations

import rules
from session import SessionError
from session.links.text import share_url
from session.inert import useful_steps
from session.links.v2 import sealed_message
from session.replica import MAX_EXCHANGES
from session.sealed import exchange as sealed_exchange
from session.sealed.verdict import instead, verdict

from ui.core.library import is_here, stored_secret
from ui.core.live_table import carries_steps
from ui.core.persons import same_person
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.systems.manners import draft as draft_model

# Stages, for this phone.
PICK = "pick"  # choose a card (and for the GM: nothing sealed yet)
TO_SEAL = "to-seal"  # the GM's card is face down here: seal and share it
TO_SEND = "to-send"  # Test, the player: the Manner is locked here, send it to the GM
WAITING = "waiting"  # this phone's message is out: the other phone's turn
TO_REVEAL = "to-reveal"  # every card is sealed (or the player's Manner is here): reveal
DONE = "done"  # every card is turned over and checked
BROKEN = "broken"  # a reveal does not match its seal (or a side sent two cards): nothing is valid
LOST = "lost"  # this phone sealed a card but its secret is gone: it can't reveal
FULL = (f"This sealed conflict holds {sealed_exchange.MAX_MESSAGES} steps, as many as a session keeps: "
        "the new step was not added. Start a new conflict.")
TOO_MANY = (f"This session keeps {MAX_EXCHANGES:,} sealed conflicts, as many as it can: no other can be sealed "
            "in it. Play this one openly, or in a new session.")


def current(draft: dict) -> dict | None:
    return draft.get("exchange")


def messages(state: AppState, conflict_id: str) -> dict:
    return state.replica.sealed.get(conflict_id, {})


def standing(state: AppState, exchange: dict) -> sealed_exchange.Settled:
    return sealed_exchange.settle(messages(state, exchange["id"]), state.session["id"])


def whom(state: AppState, side: dict) -> str:
    """Whom a side of this phone's draft is, as seals and locks name it (sealed_exchange.identity)."""
    checked = sealed_exchange.check_side({**draft_model.record_side(state, side), "manner": rules.MANNERS[0]})
    return sealed_exchange.identity(checked)


def whose(state: AppState, identity: str) -> str:
    """A seal's `for` as a name to show: the roster entry's name, or the name it is."""
    entry = state.entry(identity)
    return entry["name"] if entry is not None else identity


def own_secret(state: AppState, exchange: dict) -> dict | None:
    """This phone's secret of the exchange, only if it was made for this session and conflict."""
    secret = state.secrets.get(exchange["id"])
    return secret if secret is not None and secret.get("s") == state.session["id"] else None


def flag(state: AppState, exchange: dict) -> str:
    """Why the result logged under this exchange's id (or its conflict left behind) is flagged, or ""."""
    entry = state.replica.log.get(exchange["id"])
    if entry is not None:
        return verdict(state.replica, entry).flag
    found = instead(state.replica, messages(state, exchange["id"]))
    return found[1] if found else ""


def counterpart(role: str, kind: str) -> str:
    """The side the other phone plays."""
    if kind == draft_model.TEST:
        return sealed_exchange.PLAYER if role == sealed_exchange.GM else sealed_exchange.GM
    return draft_model.other_role(role)


def stage(state: AppState, draft: dict) -> str:
    exchange = current(draft)
    if exchange is None:
        return PICK
    settled = standing(state, exchange)
    if settled.problems:
        return BROKEN
    if settled.record is not None:
        return DONE
    role, secret = exchange["role"], own_secret(state, exchange)
    mine_sealed = role in settled.sealed
    if draft["kind"] == draft_model.TEST and role == sealed_exchange.PLAYER:
        if settled.locked is not None:
            return WAITING
        return TO_SEND if draft["player"]["locked"] else PICK
    if draft["kind"] == draft_model.TEST:  # the GM
        if not mine_sealed:
            return TO_SEAL if secret else PICK
        if secret is None:
            return LOST
        return TO_REVEAL if settled.locked is not None else WAITING
    if not mine_sealed:
        return PICK
    if role in settled.revealed:
        return WAITING
    if secret is None:
        return LOST
    return TO_REVEAL if counterpart(role, draft["kind"]) in settled.sealed else WAITING


def turn_words(state: AppState, draft: dict) -> str:
    """Whose turn it is and what the other phone waits for, in one sentence."""
    exchange = current(draft)
    kind = draft["kind"]
    now = stage(state, draft)
    if exchange is None:
        return ""
    live = travels(state, draft)
    opened = "" if live else " Open the link it shares."
    sharing = "seal it" if live else "seal and share it"
    if now == DONE:
        if exchange["last"]:
            return "Every card is turned over and checked." + ("" if live else
                                                              " The other phone waits for this link to see it too.")
        return "Every card is turned over and checked on both phones."
    settled = standing(state, exchange)
    role = exchange["role"]
    if now == BROKEN:
        return "Stop: this conflict's sealed cards don't check out, so nothing in it can be logged as valid."
    if now == LOST:
        return ("This phone sealed a card but no longer holds it (its storage was cleared), so it can't reveal. "
                "Start a new conflict.")
    if kind == draft_model.TEST and role == sealed_exchange.GM:
        if now == TO_SEAL:
            return f"Your turn: seal the card{'' if live else ' and share it'}. The player's phone waits for it."
        if now == WAITING:
            return "The player's turn: their phone opens your sealed card, locks a Manner and sends it back." + opened
        return "Your turn: the player's Manner is here. Reveal your card to the player's phone."
    if kind == draft_model.TEST:
        aimed = settled.sealed[sealed_exchange.GM].get("for") if sealed_exchange.GM in settled.sealed else None
        if now == PICK and aimed and aimed != whom(state, draft["player"]):
            return f"The GM's card is sealed for {isolate(whose(state, aimed))}: their phone picks the Manner."
        if now == PICK:
            return "Your turn: the GM's card is sealed. Pick and lock a Manner, then send it to the GM's phone."
        if now == TO_SEND:
            return "Your turn: send your locked Manner to the GM's phone, which waits for it to reveal."
        return "The GM's turn: their phone reveals the sealed card." + opened
    other = "the other phone"
    if now == PICK:
        if sealed_exchange.PLAYER in settled.sealed or sealed_exchange.OPPONENT in settled.sealed:
            return f"Your turn: {other}'s card is sealed. Pick a Manner, then {sharing}."
        return f"Pick a Manner, then {sharing}."
    if now == TO_REVEAL and exchange["last"]:
        return (f"Both cards are sealed. Share your seal with {other}, which waits for it; reveal yours once "
                "it has it.")
    if now == TO_REVEAL:
        return f"Your turn: both cards are sealed. Reveal yours to {other}."
    if role in settled.revealed:
        return f"{other.capitalize()}'s turn: it reveals its card." + opened
    return f"{other.capitalize()}'s turn: it seals its Manner." + opened


def own_messages(state: AppState, exchange: dict) -> list[dict]:
    """What this phone sent in the exchange, oldest step first: a link carries all of it, so the
    newest link alone brings the other phone up to date."""
    order = {sealed_exchange.SEAL: 0, sealed_exchange.LOCK: 1, sealed_exchange.REVEAL: 2, sealed_exchange.LEFT: 3}
    mine = [message for message in messages(state, exchange["id"]).values() if message["by"] == exchange["role"]]
    return sorted(mine, key=lambda message: order[message["t"]])


def link(state: AppState, exchange: dict) -> str:
    """The link to share now ("" before this phone sent anything)."""
    mine = own_messages(state, exchange)
    if not mine:
        return ""
    return share_url(state.base_url, sealed_message(state.session["id"], state.session["name"], mine))


def link_wanted(state: AppState, draft: dict) -> bool:
    """This phone's newest link holds what the other phone waits for: show it (only then; once a
    link from the other phone arrives, it has answered)."""
    return draft["exchange"]["last"] and stage(state, draft) != BROKEN and not travels(state, draft)


def travels(state: AppState, draft: dict) -> bool:
    """A live table carries this exchange's steps to the other phone by themselves: no link to share."""
    return carries_steps(state, {draft["player"].get("ref"), draft["opponent"].get("ref")})


def no_room(state: AppState, conflict_id: str, steps: int = 1) -> str:
    """Why `steps` more messages of this conflict would pass a limit the session holds, or ""."""
    kept = messages(state, conflict_id)
    if len(kept) + steps > sealed_exchange.MAX_MESSAGES:
        return FULL
    if not kept and len(state.replica.sealed) >= MAX_EXCHANGES:
        return TOO_MANY
    return ""


def send(state: AppState, message: dict):
    """This phone's own step into the session (its tap checked `no_room` first)."""
    state.replica.add_sealed(sealed_exchange.check_message(message))


def settle_draft(state: AppState, draft: dict) -> bool:
    """Every card is turned over and checked: the draft shows the result. True when it just did."""
    exchange = current(draft)
    if exchange is None or draft["revealed"] is not None:
        return False
    settled = standing(state, exchange)
    if settled.record is None or settled.problems:
        return False
    draft.update(revealed=settled.record, flip=True, logged=exchange["id"] in state.replica.log)
    return True


# --- A message from the other phone ------------------------------------------------------------------

def receive(state: AppState, session_id: str, session_name: str, incoming: list[dict], live: bool = False):
    """Merge the messages of a sealed-card link into its session and put its conflict on the table.
    `live`: it came over a live table by itself, so this phone keeps the system it shows (the conflict
    waits in Manner Cards) and says nothing of steps a head brought first."""
    if session_id != state.session["id"]:
        # Not switched to here: the other session's own table in progress would replace this conflict.
        there = is_here(state, session_id)
        state.fail(f"This sealed card belongs to the session “{isolate(session_name)}”, which is "
                   + ("not the one open: open it (Session screen), then this link again." if there else
                      "not on this phone. Open that session's link first, then this one."))
        return
    conflicts = {message["c"] for message in incoming}
    if len(conflicts) != 1:
        state.fail("This sealed-card link is damaged: it mixes two conflicts.")
        return
    [conflict_id] = conflicts
    held = messages(state, conflict_id)
    kept, ignored = useful_steps(session_id, held, {sealed_exchange.digest(message): message for message in incoming})
    fresh = [message for key, message in kept.items() if key not in held]
    new = sum(state.replica.add_sealed(message) for message in fresh)
    if not kept or not messages(state, conflict_id):  # nothing anyone can act on, or no room: no conflict to open
        state.fail(" ".join(ignored) if not kept else TOO_MANY)
        return
    if live and not fresh and not ignored and over_here(state, conflict_id):
        return  # sent again (steps travel until acknowledged, after a reload too): screen and table stay
    shown, showing = state.shown, state.system
    state.shown = "manners"  # this phone's own screen: the session's system stays as it is
    draft = state.draft(draft_model.new_draft)
    exchange = current(draft)
    kind = incoming[0]["k"]
    if exchange is None or exchange["id"] != conflict_id:
        role = counterpart(incoming[0]["by"], kind)  # a link carries the steps of one side
        secret = own_secret(state, {"id": conflict_id}) or kept_secret(state, conflict_id)
        if secret is not None:  # this phone sealed in it (and started another conflict since)
            state.secrets[conflict_id] = secret
            role = secret["by"]
        draft = join_draft(state, draft, kind, conflict_id, role)
    if new or live:
        current(draft)["last"] = False  # the other phone answered: it has this phone's steps
    settled = standing(state, current(draft))
    if settled.difficulty is not None:
        draft["gm"]["difficulty"] = settled.difficulty
    turned = not settled.problems and settle_draft(state, draft)
    state.message = None
    if live and showing != "manners":  # a step that travelled by itself switches no phone's system
        state.say(f"A sealed card came in for you in Manner Cards. {turn_words(state, draft)}")
        state.shown = shown
        return
    state.screen = "conflict"
    if settled.problems:
        state.fail(settled.problems[0])
    elif new < len(fresh):
        state.fail(FULL)
    elif turned:
        state.announcement = "Every card is turned over and checked."
    elif ignored:
        state.fail(" ".join(ignored))
    elif not new and not live:
        state.say("This phone had every step in this link already.")
    else:
        state.announcement = turn_words(state, draft)


def over_here(state: AppState, conflict_id: str) -> bool:
    """That exchange is logged on this phone, and its table does not wait to turn its cards over."""
    draft = state.drafts.get("manners")
    turning = draft is not None and (current(draft) or {}).get("id") == conflict_id and draft["revealed"] is None
    return conflict_id in state.replica.log and not turning


def kept_secret(state: AppState, conflict_id: str) -> dict | None:
    """What this phone sealed in that exchange of the open session, if it keeps it (checked)."""
    try:
        return sealed_exchange.check_secret(stored_secret(state, conflict_id), state.session["id"], conflict_id)
    except SessionError:
        return None


def join_draft(state: AppState, draft: dict, kind: str, conflict_id: str, role: str) -> dict:
    """The draft for an exchange another phone started: the same people on this phone's side."""
    fresh = draft_model.fresh_draft_like(draft)
    fresh["kind"] = kind
    fresh["gm"] = {**fresh["gm"], "mode": draft_model.SAYS, "complication": None}
    fresh["exchange"] = {"id": conflict_id, "role": role, "last": False}
    seals = [message for message in messages(state, conflict_id).values() if message["t"] == sealed_exchange.SEAL]
    mine = role if role in (sealed_exchange.PLAYER, sealed_exchange.OPPONENT) else None  # the side this phone plays
    for side, key in (("player", "for"), ("opponent", "vs")):
        named = next((seal[key] for seal in sorted(seals, key=sealed_exchange.canonical) if seal.get(key)), "")
        if not named or (kind == draft_model.TEST and side == "opponent"):
            continue
        if side != mine or fresh[side]["ref"] is None or same_person(state, state.role or "", named):
            put_on(state, fresh[side], named)  # whom its seals name, unless this phone's side is someone else
    state.drafts["manners"] = fresh
    return fresh


def put_on(state: AppState, side: dict, identity: str):
    """The side becomes whom a seal names: the Manner Cards sheet of that id, else a side of that name."""
    entry = state.entry(identity)
    if entry is not None and entry.get("system") == "manners":
        draft_model.pick_entry(side, entry)
    elif entry is None and side.get("ref") is None:
        draft_model.pick_entry(side, None)
        side["name"] = identity
