"""What taps do on the Manner Cards screen: set up a Test or a Confrontation, put cards
face down, lock, reveal, then log the result. Each handler changes the AppState only.
"""
from __future__ import annotations

import rules
from session import log_conflict
from session.sealed import exchange as sealed_exchange

from ui.core import commands
from ui.core.actions import Input, action
from ui.core.clock import now_text
from ui.core.events import when_role_changed
from ui.core.library import numbering
from ui.core.role import is_player
from ui.core.state import AppState
from ui.kit.html import isolate
from ui.systems import conflict
from ui.systems.manners import across
from ui.systems.manners import draft as draft_model
from ui.systems.manners import exchange as exchange_model
from ui.systems.manners import words as manners_words

ROLES = ("player", "opponent")
RESULT_ID = "manners-result-card"


def current(state: AppState) -> dict:
    return state.draft(draft_model.new_draft)


def open_side(state: AppState, event: Input) -> dict | None:
    """The side this tap is for, if it may still change (not locked, cards not turned over)."""
    draft = current(state)
    role = event.text("side")
    if role not in ROLES or draft["revealed"] is not None:
        return None
    side = draft[role]
    if draft.get("exchange") is not None and exchange_model.stage(state, draft) not in (
            exchange_model.PICK, exchange_model.TO_SEND):
        return None  # sealed (or sent) with the card: it can't change now
    return None if side["locked"] else side


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


@action("manners-kind")
def choose_kind(state: AppState, event: Input):
    draft = current(state)
    kind = event.text("value")
    if draft.get("exchange") is not None:
        state.fail("This conflict is sealed across phones: start a new conflict to change it.")
        return
    if kind in (draft_model.TEST, draft_model.CONFRONTATION) and draft["revealed"] is None and kind != draft["kind"]:
        # Cards already down belong to the other kind of conflict: pick again.
        for role in ROLES:
            draft[role].update(manner=None, locked=False)
        draft["gm"]["complication"] = None
        draft["kind"] = kind


# --- The GM ----------------------------------------------------------------------------------

@action("manners-gm-mode")
def choose_gm_mode(state: AppState, event: Input):
    draft = current(state)
    mode = event.text("value")
    if draft.get("exchange") is not None:
        state.fail("This conflict is sealed across phones: start a new conflict to change it.")
        return
    if draft_model.gm_settled(draft):
        state.fail(draft_model.gm_settled(draft))
        return
    if mode in (draft_model.HERE, draft_model.SAYS) and draft["revealed"] is None and mode != draft["gm"]["mode"]:
        draft["gm"].update(mode=mode, complication=None)
        if mode == draft_model.HERE and not draft["player"]["locked"]:
            draft["player"]["manner"] = None  # the GM's card goes down before the player picks


@action("manners-difficulty")
def choose_difficulty(state: AppState, event: Input):
    draft = current(state)
    difficulty = event.number("value")
    if draft_model.gm_settled(draft):
        state.fail(draft_model.gm_settled(draft))
        return
    exchange = exchange_model.current(draft)
    if exchange is not None and (exchange["role"] != "gm" or exchange_model.stage(state, draft) != exchange_model.TO_SEAL):
        state.fail("The difficulty is sealed with the GM's card.")
        return
    if draft["revealed"] is None and difficulty is not None:
        draft["gm"]["difficulty"] = clamp(difficulty, 1, rules.LIMITS["manners_difficulty"])


def reveal(state: AppState, draft: dict):
    """Turn every card over: resolve the record (rules decides) and keep it."""
    try:
        record = rules.resolve(draft_model.to_record(state, draft))
    except rules.RuleError as error:
        state.fail(str(error))
        return
    draft.update(revealed=record, flip=True, logged=False)
    state.message = None
    state.announcement = manners_words.sentence(record)
    state.focus = RESULT_ID  # the controls are gone: keyboard users land on the result


@action("manners-complication")
def choose_complication(state: AppState, event: Input):
    """On this phone: the GM's card goes face down. "GM says": the card the GM turned over."""
    draft = current(state)
    complication = event.text("value")
    gm = draft["gm"]
    if complication not in rules.COMPLICATIONS or draft["revealed"] is not None:
        return
    if gm["mode"] == draft_model.HERE:
        if gm["complication"] is None:
            gm["complication"] = complication
            state.announcement = "The Complication is face down."
            state.focus = "manners-gm-card"
        return
    if not draft["player"]["locked"]:
        state.fail("Enter the GM's Complication once the player has locked a Manner.")
        return
    gm["complication"] = complication
    reveal(state, draft)
    if draft["revealed"] is None:
        gm["complication"] = None


@action("manners-complication-random")
def random_complication(state: AppState, event: Input):
    draft = current(state)
    gm = draft["gm"]
    if gm["mode"] == draft_model.HERE and gm["complication"] is None and draft["revealed"] is None:
        [face] = rules.roll(1, len(rules.COMPLICATIONS))
        gm["complication"] = rules.COMPLICATIONS[face - 1]
        state.announcement = "A Complication was picked at random and put face down."
        state.focus = "manners-gm-card"


@action("manners-complication-again")
def complication_again(state: AppState, event: Input):
    draft = current(state)
    if draft["revealed"] is None and draft["player"]["manner"] is None:
        draft["gm"]["complication"] = None


# --- A character side ---------------------------------------------------------------------------

@action("manners-who")
def choose_who(state: AppState, event: Input):
    side = open_side(state, event)
    if side is None:
        return
    entry = state.entry(event.value) if event.value else None
    draft_model.pick_entry(side, entry if entry is not None and entry.get("system") == "manners" else None)


@action("manners-name")
def type_name(state: AppState, event: Input):
    side = open_side(state, event)
    if side is not None:
        side["name"] = (event.value or "")[:60]


@action("manners-rating")
def type_rating(state: AppState, event: Input):
    side = open_side(state, event)
    manner = event.text("manner")
    rating = event.number(None)
    if side is None or manner not in rules.MANNERS or rating is None:
        return
    side["ratings"][manner] = clamp(rating, 0, rules.LIMITS["rating"])


@action("manners-skill")
def choose_skill(state: AppState, event: Input):
    side = open_side(state, event)
    if side is not None:
        side["skill"] = event.value or ""
        draft_model.prefill_descriptors(state, side)
        draft_model.drop_unable_helpers(state, side)


@action("manners-skill-name")
def type_skill(state: AppState, event: Input):
    side = open_side(state, event)
    if side is not None:
        side["skill"] = (event.value or "")[:60]
        draft_model.drop_unable_helpers(state, side)


@action("manners-skill-rating")
def step_skill_rating(state: AppState, event: Input):
    side = open_side(state, event)
    if side is not None:
        side["skill_rating"] = clamp(side["skill_rating"] + event.number("step", 0), 0, rules.LIMITS["rating"])


@action("manners-helpers")
def step_helpers(state: AppState, event: Input):
    side = open_side(state, event)
    if side is not None:
        side["helpers"] = clamp(side["helpers"] + event.number("step", 0), 0, rules.LIMITS["helpers"])


@action("manners-helper")
def toggle_helper(state: AppState, event: Input):
    """A roster character helps (or stops helping): only one who can help with the Skill."""
    side = open_side(state, event)
    if side is None:
        return
    entry = state.entry(event.text("id"))
    if entry is None:
        return
    if entry["id"] in side["helper_ids"]:
        side["helper_ids"] = [entry_id for entry_id in side["helper_ids"] if entry_id != entry["id"]]
        return
    able = {name for name, _ in draft_model.helpers_on_roster(state, side)[0]}
    if entry["name"] not in able:
        skill = isolate(side["skill"].strip()) if side["skill"].strip() else "a Skill or Spell"
        state.fail(f"{isolate(entry['name'])} can't help: a helper needs a rating of at least 1 in {skill}.")
        return
    if len(side["helper_ids"]) >= rules.LIMITS["helpers"]:
        state.fail(f"At most {rules.LIMITS['helpers']} helpers.")
        return
    side["helper_ids"] = side["helper_ids"] + [entry["id"]]


@action("manners-descriptors")
def step_descriptors(state: AppState, event: Input):
    side = open_side(state, event)
    if side is not None:
        side["descriptors"] = clamp(side["descriptors"] + event.number("step", 0), 0, rules.LIMITS["descriptors"])


@action("manners-manner")
def choose_manner(state: AppState, event: Input):
    draft = current(state)
    side = open_side(state, event)
    manner = event.text("value")
    if side is None or manner not in rules.MANNERS:
        return
    wait = draft_model.why_wait(state, draft, event.text("side"))
    if wait is not None:
        state.fail(wait)
        return
    side["manner"] = manner
    draft_model.prefill_descriptors(state, side)


@action("manners-lock")
def lock(state: AppState, event: Input):
    draft = current(state)
    side = open_side(state, event)
    if side is None:
        return
    problem = draft_model.why_not_lock(draft, event.text("side"))
    if problem:
        state.fail(problem)
        return
    side["locked"] = True
    state.message = None
    state.announcement = f"{isolate(draft_model.side_name(state, side))}'s Manner is locked, face down."
    if draft_model.ready_to_reveal(draft):
        state.focus = "manners-reveal"
    elif draft["kind"] == draft_model.CONFRONTATION:
        state.focus = f"manners-{draft_model.other_role(event.text('side'))}-cards-card"
    else:
        state.focus = "manners-gm-card"  # "GM says": the GM enters the Complication there


@action("manners-unlock")
def unlock(state: AppState, event: Input):
    draft = current(state)
    role = event.text("side")
    if exchange_model.stage(state, draft) not in (exchange_model.PICK, exchange_model.TO_SEND):
        state.fail("Your Manner is on its way to the other phone: it can't be taken back.")
        return
    if role in ROLES and draft["revealed"] is None and draft[role]["locked"]:
        draft_model.unlock(draft, role)


@action("manners-reveal")
def reveal_cards(state: AppState, event: Input):
    draft = current(state)
    if not draft_model.ready_to_reveal(draft):
        state.fail(draft_model.waiting_words(state, draft) or "The cards are already turned over.")
        return
    reveal(state, draft)


# --- After the reveal --------------------------------------------------------------------------------

@action("manners-log")
def log_result(state: AppState, event: Input):
    draft = current(state)
    record = draft["revealed"]
    if record is None or draft["logged"]:
        return
    exchange = exchange_model.current(draft)
    if exchange is not None and exchange_model.stage(state, draft) != exchange_model.DONE:
        state.fail("This conflict's sealed cards don't check out: it can't be logged as valid.")
        return
    if exchange is not None and exchange["id"] in state.replica.log:  # the other phone's entry arrived first
        draft.update(logged=True, flip=False)
        state.announcement = manners_words.sentence(record)
        return
    # Manner Cards has no Tension and no AP: logging keeps the record, nothing else changes. An
    # exchange across phones is logged under its own id on both: the two entries merge to one.
    # A sealed exchange's entry is made the same on both phones (it merges to one): no number of its own.
    state.session = log_conflict(state.session, record, at=now_text(), by=manners_words.player_name(record),
                                 same_as=exchange["id"] if exchange is not None else "",
                                 **(numbering(state) if exchange is None else {}))
    if exchange is not None:  # what it follows from, so every phone checks it against the seal
        state.session["log"][0]["sealed"] = exchange_model.standing(state, exchange).proof
    draft.update(logged=True, flip=False)
    conflict.logged(state, "manners", record, manners_words.sentence(record), event)


conflict.opens_on_the_player("manners", draft_model.in_play)


@when_role_changed
def leave_the_card_to_the_gm(state: AppState):
    """A phone that became a player's enters what the GM says: the GM's card is the GM's phone's
    (unless one already lies face down here)."""
    draft = state.drafts.get("manners")
    if draft is not None and is_player(state) and draft["gm"]["mode"] == draft_model.HERE \
            and draft["gm"]["complication"] is None and draft.get("exchange") is None:
        draft["gm"]["mode"] = draft_model.SAYS


@action("manners-new")
def new_conflict(state: AppState, event: Input):
    """The next conflict; cards turned over and not logged go in the log as set aside."""
    draft = current(state)
    exchange = exchange_model.current(draft)
    if exchange is not None and exchange["role"] == sealed_exchange.GM and \
            exchange_model.stage(state, draft) == exchange_model.TO_REVEAL:
        leave_revealed(state, draft)
    if exchange is not None:
        state.secrets[exchange["id"]] = None  # a card sealed and never revealed: forgotten with the conflict
    if draft["revealed"] is not None and not draft["logged"] and exchange is None:
        record = draft["revealed"]
        conflict.set_aside(state, record, manners_words.player_name(record), "The cards turned over")
    state.drafts["manners"] = draft_model.fresh_draft_like(draft)


def leave_revealed(state: AppState, draft: dict):
    """The GM leaves a sealed Test once the player's Manner is here: the card is revealed all the same, and
    the leaving is said with this phone's stamp, so an open Test it logs instead is flagged on every phone."""
    exchange = draft["exchange"]
    if refused(state, exchange["id"], steps=2):
        return
    exchange_model.send(state, sealed_exchange.reveal_of(state.secrets[exchange["id"]]))
    exchange_model.send(state, sealed_exchange.left_test(exchange["id"], state.replica.clock, state.device))
    state.say("The player's Manner was in, so your sealed card is revealed to the player's phone: share the link.")
    share_link(state, draft, "The player's Manner was in, so your sealed card is revealed")


# --- Sealed across phones (session.sealed) --------------------------------------------------------------

def share_link(state: AppState, draft: dict, what: str):
    """This phone just took a step: its link (all its steps) is what the other phone waits for."""
    draft["exchange"]["last"] = True
    if exchange_model.travels(state, draft):
        across.waiting(state, draft["exchange"], what)  # on a live table (ui.core.outgoing): said once stored there
        return
    commands.share(state, title=f"{what} — Tableside", url=exchange_model.link(state, draft["exchange"]),
                  shared=f"{what}: shared.", copied=f"{what}: link copied. Send it to the other phone.",
                  manual="Couldn't copy here: select the link in the box below and copy it.")


def refused(state: AppState, conflict_id: str, steps: int = 1) -> bool:
    """The step would pass a limit of the session: refused before it is made, with the sentence why."""
    why = exchange_model.no_room(state, conflict_id, steps)
    if why:
        state.fail(why)
    return bool(why)


def take_step(state: AppState, draft: dict, message: dict, what: str):
    """This phone's next message: into the session, shared to the other phone, and whose turn it is now."""
    exchange_model.send(state, message)
    share_link(state, draft, what)
    state.announcement = exchange_model.turn_words(state, draft)


@action("manners-seal-pick")
def seal_pick(state: AppState, event: Input):
    """The GM's phone: a Complication face down here, to seal for the player's phone."""
    draft = current(state)
    complication = event.text("value")
    if draft["kind"] != draft_model.TEST or draft["revealed"] is not None or draft["player"]["locked"]:
        return
    if exchange_model.stage(state, draft) != exchange_model.PICK or draft.get("exchange") is not None:
        return
    if complication == "random":
        [face] = rules.roll(1, len(rules.COMPLICATIONS))
        complication = rules.COMPLICATIONS[face - 1]
    if complication not in rules.COMPLICATIONS:
        return
    conflict_id = sealed_exchange.new_conflict_id()
    if refused(state, conflict_id):
        return
    draft["gm"].update(mode=draft_model.SAYS, complication=None)
    draft["exchange"] = {"id": conflict_id, "role": sealed_exchange.GM, "last": False}
    state.secrets[conflict_id] = sealed_exchange.new_secret(state.session["id"], conflict_id, sealed_exchange.TEST,
                                                            sealed_exchange.GM, complication, draft["gm"]["difficulty"],
                                                            exchange_model.whom(state, draft["player"]))
    state.announcement = "The Complication is face down on this phone. Seal it and share it with the player's phone."
    state.focus = "manners-gm-card"


@action("manners-seal-again")
def seal_again(state: AppState, event: Input):
    draft = current(state)
    if exchange_model.stage(state, draft) == exchange_model.TO_SEAL:
        state.secrets[draft["exchange"]["id"]] = None
        draft["exchange"] = None


@action("manners-seal-share")
def seal_share(state: AppState, event: Input):
    """The GM's phone seals its card: the commitment goes into the session and to the player's phone."""
    draft = current(state)
    if exchange_model.stage(state, draft) != exchange_model.TO_SEAL:
        return
    exchange = draft["exchange"]
    if refused(state, exchange["id"]):
        return
    secret = {**state.secrets[exchange["id"]], "d": draft["gm"]["difficulty"]}
    state.secrets[exchange["id"]] = secret
    take_step(state, draft, sealed_exchange.seal_of(secret), "The GM's sealed card")


@action("manners-seal-send")
def seal_send(state: AppState, event: Input):
    """The player's phone: the locked Manner goes to the GM's phone (in plain: the GM is bound already)."""
    draft = current(state)
    if exchange_model.stage(state, draft) != exchange_model.TO_SEND:
        return
    side = sealed_exchange.check_side(draft_model.record_side(state, draft["player"]))
    seal = exchange_model.standing(state, draft["exchange"]).sealed[sealed_exchange.GM]
    if seal.get("for", sealed_exchange.identity(side)) != sealed_exchange.identity(side):
        state.fail(f"The GM sealed this card for {isolate(exchange_model.whose(state, seal['for']))}, not for "
                   f"{isolate(side['name'])}: their phone answers it.")
        return
    if refused(state, draft["exchange"]["id"]):
        return
    take_step(state, draft, sealed_exchange.lock_test(draft["exchange"]["id"], side, seal["h"]), "The player's Manner")


@action("manners-seal-side")
def seal_side(state: AppState, event: Input):
    """A Confrontation: this phone's side seals its Manner (and the numbers with it) for the other phone."""
    draft = current(state)
    role = event.text("side")
    if draft["kind"] != draft_model.CONFRONTATION or role not in ROLES or draft["revealed"] is not None:
        return
    exchange = draft.get("exchange")
    if exchange is not None and (exchange["role"] != role or exchange_model.stage(state, draft) != exchange_model.PICK):
        return
    side = draft[role]
    if side["manner"] is None:
        state.fail("Pick a Manner card first.")
        return
    conflict_id = exchange["id"] if exchange is not None else sealed_exchange.new_conflict_id()
    if refused(state, conflict_id):
        return
    if exchange is None:
        exchange = draft["exchange"] = {"id": conflict_id, "role": role, "last": False}
    secret = sealed_exchange.new_secret(state.session["id"], exchange["id"], sealed_exchange.CONFRONTATION, role,
                                        sealed_exchange.check_side(draft_model.record_side(state, side)),
                                        for_=exchange_model.whom(state, draft["player"]))
    state.secrets[exchange["id"]] = secret
    side.update(manner=None, locked=False)  # the card lives in the secret now, not on the table
    take_step(state, draft, sealed_exchange.seal_of(secret, exchange_model.whom(state, draft["opponent"])),
              "A sealed Manner")


@action("manners-seal-reveal")
def seal_reveal(state: AppState, event: Input):
    """Every card this phone waits on is sealed: reveal this phone's card (the secret is then spent)."""
    draft = current(state)
    if exchange_model.stage(state, draft) != exchange_model.TO_REVEAL:
        return
    exchange = draft["exchange"]
    if refused(state, exchange["id"]):
        return  # the secret stays: the card can still be revealed by link once there is room
    exchange_model.send(state, sealed_exchange.reveal_of(state.secrets[exchange["id"]]))
    state.secrets[exchange["id"]] = None
    share_link(state, draft, "A revealed card")
    if exchange_model.settle_draft(state, draft):
        state.announcement = manners_words.sentence(draft["revealed"])
        state.focus = RESULT_ID
    else:
        state.announcement = exchange_model.turn_words(state, draft)


@action("manners-seal-show")
def seal_show(state: AppState, event: Input):
    """Every card was turned over in what a session link brought: the result, checked, on the table."""
    draft = current(state)
    if exchange_model.settle_draft(state, draft):
        state.announcement = manners_words.sentence(draft["revealed"])
        state.focus = RESULT_ID


@action("manners-seal-link")
def seal_link_again(state: AppState, event: Input):
    draft = current(state)
    if draft.get("exchange") is not None and exchange_model.link(state, draft["exchange"]):
        share_link(state, draft, "Sealed cards")


@conflict.when_added_to("manners")
def fill_untouched_sides(state: AppState, entry: dict, draft: dict):
    """A new character takes the player's side, a new adversary the opponent's, if nobody set it up yet."""
    role = "player" if entry["kind"] == "character" else "opponent"
    side = draft[role]
    untouched = side["ref"] is None and not side["name"].strip() and side["manner"] is None and not side["locked"]
    if untouched and draft["revealed"] is None:
        draft_model.pick_entry(side, entry)
