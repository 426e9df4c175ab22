"""The Tension Engine conflict screen: who rolls, dice trays, odds and the result.

Regions: setup (environment or adversary), one per side card in rolling order,
the odds for what is on screen (`odds`), and the result. Markup only; the numbers
come from rules (resolve, tension_side, fewest_ap) via the draft; how dice come in
is ui.kit.dice_entry's, the result card and bar ui.systems.conflict's.
"""
from __future__ import annotations

import rules
from rules.words import capitalize, in_text

from ui.core.role import is_player, own_side
from ui.core.state import AppState
from ui.kit.controls import segmented, select, settled_note, stepper, text_input
from ui.kit.dice import tray
from ui.kit.dice_entry import arrival, controls, roll_button
from ui.kit.html import Markup, classes, h, isolate, join
from ui.systems import conflict, dice_entry
from ui.systems.tension import calls
from ui.systems.tension import draft as draft_model
from ui.systems.tension import odds
from ui.systems.tension import words as tension_words


# --- Setup -----------------------------------------------------------------------------

def setup(state: AppState, draft: dict) -> Markup:
    kind = segmented("Conflict against", (("environment", "The environment"), ("opposed", "An adversary")),
                     draft["kind"], "tension-kind")
    if is_player(state) and draft["kind"] == "environment":  # adversaries are the GM's, on the GM's phone
        kind = h("p", "Against the environment. Conflicts with adversaries are rolled on the GM's phone.",
                 class_="hint")
    combat = Markup("")
    called = draft.get("called")
    damage = ": combat, the difference is damage." if draft["combat"] else "."
    if called and called.get("first"):  # a character's attack, rolled first on its own phone
        attacker = in_text(draft_model.side_name(state, draft["initiators"][0]))
        kind = h("p", f"Your attack, called by the GM: you roll first, then the GM's phone rolls the defense{damage}"
                 if called["first"] == "here" else
                 f"{capitalize(attacker)}'s attack, rolled first on that phone: roll the defense here{damage}",
                 class_="hint")
    elif called:  # the GM's phone set up this call: its kind and Combat are the GM's
        kind = h("p", "Against the environment, called by the GM." if draft["kind"] == "environment" else
                 "An adversary's attack, sent by the GM's phone" + damage, class_="hint")
    elif draft["kind"] == "opposed":
        combat = h("label", h("input", type="checkbox", id="tension-combat", data_action="tension-combat",
                              checked=draft["combat"]),
                   " Combat: the initiator deals the difference as damage", class_="check", for_="tension-combat")
    return h("section", h("h2", "Tension Engine conflict", class_="screen-title"), kind, combat,
             retry_note(state, draft), pinned_tension(state, draft), same_character_warning(state, draft),
             class_="card")


def retry_note(state: AppState, draft: dict) -> Markup:
    if not draft["retry"]:
        return Markup("")
    if not draft.get("called"):
        return h("p", "Trying again: Tension +1 first, so the GM rolls one more die.", class_="note")
    rolled_with, now = draft_model.conflict_tension(state, draft), state.session["tension"]
    since = "" if rolled_with == now else f"; Tension is now {now}"
    return h("p", f"Trying again: the GM's phone rolled {draft_model.gm_pool(state, draft)} dice "
                  f"(Tension {rolled_with} + 1){since}.", class_="note")


def pinned_tension(state: AppState, draft: dict) -> Markup:
    """Tension changed by hand after the dice came out: the conflict keeps its own."""
    rolled_with = draft_model.conflict_tension(state, draft)
    now = state.session["tension"]
    if draft["tension"] is None or draft["logged"] is not None or rolled_with == now:
        return Markup("")
    if draft["retry"] and draft.get("called"):  # retry_note says it, shorter
        return Markup("")
    if draft.get("called"):
        return h("p", f"The GM's phone rolled this call at Tension {rolled_with}; the session's Tension is now {now} "
                      "(the GM's spending, or a change since). Your result changes it from there.",
                 class_="note", role="status", data_testid="pinned-tension")
    return h("p", f"This conflict was rolled with Tension {rolled_with} and keeps it. The session's Tension is "
                  f"now {now} (changed by hand); that change stays when this result is logged.",
             class_="note", role="status", data_testid="pinned-tension")


def same_character_warning(state: AppState, draft: dict) -> Markup:
    if draft["kind"] != "opposed" or draft["defender"]["ref"] is None:
        return Markup("")
    if all(side["ref"] != draft["defender"]["ref"] for side in draft["initiators"]):
        return Markup("")
    name = isolate(draft_model.side_name(state, draft["defender"]))
    return h("p", f"{name} is both an initiator and the defender: pick someone else for one side.",
             class_="warning-note", role="alert", data_testid="same-character")


# --- A side ------------------------------------------------------------------------------

def who_select(state: AppState, key: str, side: dict) -> Markup:
    options = [("", "No sheet (quick roll)")]
    options += [(entry["id"], entry["name"]) for entry in state.roster("character")]
    options += [(entry["id"], f"{entry['name']} (adversary)") for entry in state.roster("adversary")]
    return select("Who", options, side["ref"] or "", "tension-who", f"tension-{key}-who", side=key)


def pool_controls(state: AppState, draft: dict, key: str, side: dict) -> Markup:
    entry = state.entry(side["ref"])
    if side["role"] == "gm":
        return h("p", f"Rolls the Tension: {draft_model.gm_pool(state, draft)} dice.", class_="pool-line")
    if draft_model.pool_settled(state, draft, key):
        return pool_summary(state, draft, side)
    if entry is None:
        return h("div",
                 text_input("Name", f"tension-{key}-name", side["name"], "tension-name",
                            placeholder=draft_model.DEFAULT_NAMES[side["role"]], maxlength=60, side=key),
                 segmented("Rolls as", (("character", "Character"), ("adversary", "Adversary")), side["role"],
                           "tension-role", side=key),
                 stepper("Dice", side["pool"], "tension-pool", 0, rules.LIMITS["pool"], f"tension-{key}-pool", side=key),
                 class_="pool-controls")
    if entry["kind"] == "character":
        attributes = [(item["name"], f"{item['name']} {item['rating']}") for item in entry["attributes"]]
        skills = [(item["name"], f"{item['name']} {item['rating']}") for item in entry["skills"]]
        return h("div",
                 select("Attribute", attributes or [("", "none")], side["attribute"], "tension-rating",
                        f"tension-{key}-attribute", side=key, field="attribute"),
                 select("Skill", skills or [("", "none")], side["skill"], "tension-rating", f"tension-{key}-skill",
                        side=key, field="skill"),
                 h("p", f"Pool: {draft_model.pool(state, draft, side)} dice.", class_="pool-line"),
                 class_="pool-controls pool-pair")
    traits = [("Power", f"Power {entry['power']}")] + [(item["name"], f"{item['name']} {item['rating']}")
                                                      for item in entry["traits"]]
    return h("div", select("Rolls", traits, side["trait"], "tension-rating", f"tension-{key}-trait", side=key,
                        field="trait"),
             h("p", f"Pool: {draft_model.pool(state, draft, side)} dice.", class_="pool-line"),
             class_="pool-controls")


def pool_summary(state: AppState, draft: dict, side: dict) -> Markup:
    """The pool as it was settled: ratings and dice, no controls."""
    entry = state.entry(side["ref"])
    dice = draft_model.pool(state, draft, side)
    if side["mode"] == draft_model.TOTAL:
        words = "Total announced"
    elif entry is not None and entry["kind"] == "character":
        attribute = isolate(side["attribute"]) if side["attribute"] else "No Attribute"
        words = f"{attribute} + {isolate(side['skill']) if side['skill'] else 'no Skill'}: {dice} dice"
    elif entry is not None:
        words = f"{isolate(side['trait'])}: {dice} dice"
    else:
        words = f"{dice} dice"
    how = dice_entry.arrival_words(side)
    return h("p", f"{words} · {how}.", class_="pool-line pool-summary")


def health_line(state: AppState, draft: dict, key: str) -> Markup:
    if key != "defender" or draft["kind"] != "opposed":
        return Markup("")
    health = draft_model.defender_health(state, draft)
    return Markup("") if health is None else h("p", f"Health {health}", class_="pool-line",
                                                   data_testid="defender-health")


def roll_controls(state: AppState, draft: dict, key: str, side: dict, name: str, dice_needed: int) -> Markup:
    """How this side's dice come in (ui.kit.dice_entry); no dice to roll, or the Tension Pool
    rolling with the player's dice, said instead of a Roll button."""
    instead = None
    if dice_needed == 0 and side["mode"] != draft_model.TOTAL:
        why = ("With Tension 0 the GM has no dice: raise Tension (+ above) to roll." if side["role"] == "gm"
               else f"{name}'s pool has no dice: choose ratings above 0.")
        instead = h("p", why, class_="hint", data_testid="no-dice")
    elif side["mode"] == draft_model.ROLL and draft_model.pool_rolls_along(state, draft):
        if key == "gm":
            instead = h("p", "Rolls with your dice: one tap, below.", class_="hint", data_testid="rolls-along")
        elif key == "player":
            note = h("p", f"The Tension Pool's {draft_model.gm_pool(state, draft)} dice roll first.",
                     class_="hint hint-small", id="tension-player-roll-along")
            instead = join([roll_button("tension", key, dice_needed, "tension-player-roll-along"), note])
    return controls("tension", key, name, side["mode"], side["dice"], side["total"], draft_model.SIDES, dice_needed, draft_model.TOTALS,
                    wait=draft_model.must_wait(state, draft, key), instead=instead)


def spending_controls(state: AppState, draft: dict, key: str, side: dict, preview: dict | None,
                      dice_needed: int) -> Markup:
    if preview is None or side["mode"] == draft_model.TOTAL or dice_needed <= 2:
        if side["role"] == "gm" and preview is not None and side["mode"] != draft_model.TOTAL:
            return gm_boost(state, draft, key, side)
        return Markup("")
    paid = draft_model.paid_dice(side)
    if side["role"] == "character":
        have = draft_model.available_ap(state, side)
        high = dice_needed - 2 if have is None else min(have, dice_needed - 2)
        owned = "" if have is None else f" (has {have})"
        return h("div", stepper(f"AP spent{owned}", paid, "tension-spend", 0, high, f"tension-{key}-spend", side=key),
                 class_="spending")
    return gm_boost(state, draft, key, side)


def gm_boost(state: AppState, draft: dict, key: str, side: dict) -> Markup:
    if is_player(state):
        return h("p", "The GM's options (Boost, extra dice) are on the GM's phone.", class_="hint hint-small")
    tension = draft_model.conflict_tension(state, draft) + (1 if draft["retry"] and side["role"] == "gm" else 0)
    dice_needed = draft_model.pool(state, draft, side)
    paid = draft_model.paid_dice(side)
    most = min(max(0, tension - 2), max(0, dice_needed - 2))
    boost_bonus = tension - 1
    can_boost = tension >= 3
    boost = h("button", f"Boost +{boost_bonus} (costs 1 Tension)" if can_boost else "Boost needs 3 Tension",
              type="button", class_="button toggle", data_action="tension-boost", data_side=key,
              aria_pressed="true" if side["boost"] else "false", disabled=not can_boost or paid > 0)
    extra = stepper("Extra dice kept (1 Tension each)", paid, "tension-spend", 0, most, f"tension-{key}-spend",
                    side=key)
    return h("div", h("p", "The GM may use one option on this roll:", class_="hint"), boost,
             extra if not side["boost"] else Markup(""), class_="spending")


def total_line(preview: dict | None, problem: str | None) -> Markup:
    if problem:
        return h("p", problem, class_="side-problem", role="status")
    if preview is None:
        return Markup("")
    if preview["given_total"]:
        return h("p", h("strong", str(preview["total"])), " announced", class_="side-total")
    sum_words = " + ".join(str(face) for face in preview["kept"])
    boost = f" + {preview['boost']} boost" if preview["boost"] else ""
    return h("p", "Total ", h("strong", str(preview["total"]), data_testid="side-total"),
             f" ({sum_words}{boost})", class_="side-total")


def ap_hint(state: AppState, draft: dict, key: str, side: dict, other_total: int | None) -> Markup:
    """"Spend 1 AP to win (you have 3)" once the other total is known."""
    if other_total is None or side["role"] != "character" or side["mode"] == draft_model.TOTAL or not side["dice"]:
        return Markup("")
    if len(side["dice"]) != draft_model.pool(state, draft, side):
        return Markup("")
    have = draft_model.available_ap(state, side)
    to_win = rules.fewest_ap(side["dice"], other_total, "win")
    to_tie = rules.fewest_ap(side["dice"], other_total, "tie")
    owned = "" if have is None else f" (you have {have})"
    if to_win == 0:
        return h("p", "Your best two dice already win.", class_="hint hint-good")
    if to_win is not None and (have is None or to_win <= have):
        words = f"Spend {to_win} AP to win{owned}"
        return h("button", words, type="button", class_="button hint-button", data_action="tension-spend-to",
                 data_side=key, data_ap=str(to_win))
    if to_win is not None:
        return h("p", f"Winning needs {to_win} AP{owned}.", class_="hint")
    if to_tie is not None and to_tie > 0 and (have is None or to_tie <= have):
        return h("p", f"No AP can win this roll; {to_tie} AP would tie{owned}.", class_="hint")
    return h("p", "No AP can win this roll.", class_="hint")


def side_card(state: AppState, draft: dict, key: str, side: dict, title: str, other_total: int | None) -> Markup:
    name = isolate(draft_model.side_name(state, side))
    dice_needed = draft_model.pool(state, draft, side)
    problem = None
    try:
        preview = draft_model.side_preview(state, draft, side)
    except rules.RuleError as error:
        preview, problem = None, str(error)
    named = side["ref"] is not None or side["name"].strip()
    header = h("header", h("h3", title, class_="side-title"),
               h("span", name, class_="side-name") if named else Markup(""), class_="side-header")
    logged = draft["logged"] is not None
    settled = draft_model.settled_by(state, draft, key)  # shown, not editable: the other side has rolled
    body = []
    if settled is None:
        if side["role"] != "gm" and not draft_model.pool_settled(state, draft, key) and not own_side(state, side):
            body.append(who_select(state, key, side))
        body.append(pool_controls(state, draft, key, side))
        if not draft_model.pool_settled(state, draft, key):
            body.append(arrival("tension", key, name, draft_model.MODES, side["mode"]))
        body.append(roll_controls(state, draft, key, side, name, dice_needed))
    elif not logged:
        body.append(pool_summary(state, draft, side) if side["role"] != "gm" else
                    pool_controls(state, draft, key, side))
    body.append(health_line(state, draft, key))
    if side["mode"] != draft_model.TOTAL and side["dice"]:
        kept = side["keep"] if side["keep"] is not None else rules.best_keep(side["dice"], min(2, len(side["dice"])))
        action = None if settled or len(side["dice"]) != dice_needed else "tension-keep"
        body.append(tray(side["dice"], 6, kept, f"{name}'s dice", action, fresh=side["fresh"],
                         id_prefix=f"tension-{key}-die", side=key))
        if action:
            body.append(h("p", "Tap a die to keep or release it.", class_="hint hint-small"))
    if settled is None:
        body.append(spending_controls(state, draft, key, side, preview, dice_needed))
    body.append(total_line(preview, problem))
    if settled is None:
        body.append(ap_hint(state, draft, key, side, other_total))
    elif not logged:
        body.append(settled_note(settled))
    return h("section", header, *body,
             class_=classes("card", "side-card", f"side-{side['role']}", side_settled=settled is not None),
             aria_label=f"{title}: {name}", data_testid=f"side-{key}")


def gm_title(state: AppState, draft: dict) -> str:
    if draft.get("called"):
        return "The Tension Pool, rolled on the GM's phone"
    return "The Tension Pool, rolled on this phone" if is_player(state) else "The GM rolls for the environment"


def side_regions(state: AppState, draft: dict) -> list[tuple[str, Markup]]:
    """One region per side card (and one for the initiator buttons): a tap on one side (its pool,
    its dice) sends the page that card alone, not every card again."""
    if draft["kind"] == "environment":
        gm_total = draft_model.settled_total(state, draft, draft["gm"])
        return [("tension-side-gm", side_card(state, draft, "gm", draft["gm"], gm_title(state, draft), None)),
                ("tension-side-player", side_card(state, draft, "player", draft["player"], "The player", gm_total))]
    regions = []
    count = len(draft["initiators"])
    for index, side in enumerate(draft["initiators"]):
        title = "Initiator" if count == 1 else f"Initiator {index + 1}"
        regions.append((f"tension-side-initiator-{index}",
                        side_card(state, draft, f"initiator-{index}", side, title, None)))
    locked = draft["logged"] is not None or dice_entry.has_dice(draft["defender"]) or bool(draft.get("called"))
    buttons = Markup("")
    if not locked:
        buttons = [h("button", "Add an initiator (same action)", type="button", class_="button",
                     data_action="tension-add-initiator")]
        if count > 1:
            buttons.append(h("button", "Remove the last initiator", type="button", class_="button",
                             data_action="tension-remove-initiator"))
        buttons = h("div", *buttons, class_="row row-wrap")
    initiator_totals = [draft_model.settled_total(state, draft, side) for side in draft["initiators"]]
    target = max((total for total in initiator_totals if total is not None), default=None)
    return [*regions, ("tension-initiator-buttons", buttons),
            ("tension-side-defender",
             side_card(state, draft, "defender", draft["defender"], "Defender (rolls once for all)", target))]


# --- Result -----------------------------------------------------------------------------------

OUTCOME_CLASS = {"success": "outcome-success", "failure": "outcome-failure", "tie": "outcome-tie",
                 "initiator": "outcome-success", "defender": "outcome-failure"}


def outcome_block(record: dict) -> Markup:
    result = record["result"]
    if record["kind"] == "environment":
        word = tension_words.OUTCOME_WORDS[result["outcome"]]
        numbers = h("p", h("span", f"{capitalize(in_text(result['player']['name']))} {result['player_total']}"),
                    " vs ", h("span", f"{in_text(result['gm']['name'])} {result['gm_total']}"), class_="result-numbers")
        return h("div", h("p", word, class_=classes("outcome", OUTCOME_CLASS[result["outcome"]]),
                          data_testid="outcome"), numbers)
    rows = []
    for initiator in result["initiators"]:
        word = {"initiator": "succeeds", "defender": "misses", "tie": "ties"}[initiator["outcome"]]
        defender = isolate(result["defender"]["name"])
        after = {"initiator": "", "defender": f", {defender} holds", "tie": f", {defender} holds"}[initiator["outcome"]]
        damage = f" · {initiator['damage']} damage" if record.get("combat") and initiator["damage"] else ""
        rows.append(h("li", h("span", f"{isolate(initiator['name'])} {word}",
                              class_=classes("outcome", OUTCOME_CLASS[initiator["outcome"]])),
                      h("span", f": {initiator['total']} vs {result['defender_total']}{after}{damage}",
                        class_="result-numbers")))
    return h("ul", *rows, class_="outcome-list", data_testid="outcome")


def explosions_block(state: AppState, result: dict, provisional: bool) -> Markup:
    if not result["explosions"]:
        return Markup("")
    if provisional:
        reached = ", ".join(str(at) for at in result["explosions"])
        return h("p", f"Tension will explode at {reached}: the Tension Table is rolled when you log this.",
                 class_="explosion")
    table = state.session["tension_table"]
    items = [h("li", h("strong", f"Tension reached {at}: rolled {roll} on the Tension Table."), " ",
                   isolate(table[roll - 1]))
             for at, roll in zip(result["explosions"], result["table_rolls"])]
    return h("div", h("h4", "Tension explodes!"), h("ul", *items), class_="explosion", role="status")


def result_details(state: AppState, record: dict, provisional: bool = False) -> list[Markup]:
    result = record["result"]
    changes = tension_words.tension_change_lines(result)
    notes = tension_words.notes(result)
    return [
        h("p", tension_words.tension_change_words(result), class_="tension-change", data_testid="tension-change"),
        h("ul", *(h("li", line) for line in changes), class_="change-list") if changes else Markup(""),
        explosions_block(state, result, provisional),
        h("ul", *(h("li", note) for note in notes), class_="notes", aria_label="How the rules were read")
        if notes else Markup(""),
    ]


def damage_line(state: AppState, draft: dict, record: dict, logged: bool) -> Markup:
    """Combat damage and the defender's Health: what logging applies, or what it applied."""
    if record["kind"] != "opposed" or not record["result"].get("combat"):
        return Markup("")
    damage = sum(initiator["damage"] for initiator in record["result"]["initiators"])
    name = isolate(record["result"]["defender"]["name"])
    if not damage:
        return h("p", f"No damage to {name}.", class_="note", data_testid="damage")
    health = draft_model.defender_health(state, draft)
    if health is None:
        words = f"{name} takes {damage} damage (no sheet on the roster to take it from)."
    elif logged:
        words = f"{name} took {damage} damage: Health is now {health}. Undo on the Log gives it back."
    else:
        words = f"{name} takes {damage} damage: Health {health} → {max(0, health - damage)} when you log this."
    return h("p", words, class_="note", data_testid="damage")


def bar_summary(record: dict) -> Markup:
    result = record["result"]
    if record["kind"] == "environment":
        outcome = result["outcome"]
        return h("span", h("span", tension_words.OUTCOME_WORDS[outcome],
                           class_=classes("outcome", OUTCOME_CLASS[outcome])),
                 f" {result['player_total']} vs {result['gm_total']}")
    parts = []
    for initiator in result["initiators"]:
        outcome = initiator["outcome"]
        word = {"initiator": "succeeds", "defender": "misses", "tie": "ties"}[outcome]
        parts.append(f"{isolate(initiator['name'])} {word} {initiator['total']} vs {result['defender_total']}")
    return h("span", "; ".join(parts))


def result_body(state: AppState, draft: dict, record: dict, logged: bool) -> list[Markup]:
    retry = Markup("")
    if logged and record["kind"] == "environment" and record["result"]["outcome"] != "success":
        retry = h("div", h("button", "Try again (+1 Tension)", type="button", class_="button",
                           data_action="tension-retry"), class_="row row-wrap")
        if calls.waiting_again(state, draft):
            retry = h("p", "Trying again: waiting for the GM's phone to roll the Tension Pool (Tension +1 first). "
                           "Your roll opens here when its new total comes.", class_="note", role="status",
                      data_testid="waiting-again")
    return [outcome_block(record), damage_line(state, draft, record, logged),
            *result_details(state, record, provisional=not logged), retry]


def result_panel(state: AppState, draft: dict) -> Markup:
    return conflict.result_panel("tension", draft["logged"], lambda: draft_model.standing(state, draft),
                                 lambda record, logged: result_body(state, draft, record, logged),
                                 lambda: waiting_words(state, draft), draft_model.dice_on_table(draft),
                                 on_its_way=conflict.side_on_its_way(state, draft,
                                                                     *calls.on_its_way(state, draft)))


def bar(state: AppState, draft: dict) -> Markup:
    """Once a result stands: it and its main action, always in reach (Log it; then New conflict).
    A called attack rolled here first: once rolled, sending it to the GM's phone."""
    called = draft.get("called")
    if called and called.get("first") == "here" and draft["logged"] is None:
        attacker = draft["initiators"][0]
        total = None if attacker["mode"] == draft_model.TOTAL else draft_model.settled_total(state, draft, attacker)
        return conflict.send_bar(state, "tension", draft, total, "attack", "defense")
    return conflict.standing_bar(state, "tension", draft["logged"], lambda: draft_model.standing(state, draft),
                                 bar_summary)


def waiting_words(state: AppState, draft: dict) -> str:
    called = draft.get("called")
    if called and called.get("first") == "here":
        defender = in_text(draft_model.side_name(state, draft["defender"]))
        if called["words"]:
            return (f"Sent to the GM's phone: it rolls {defender}'s defense against your {called['words']}, and "
                    "the result shows here once it is logged.")
        return f"Roll your attack, then send it to the GM: the GM's phone rolls {defender}'s defense against it."
    if called and called.get("first") == "there" and not called["words"]:
        attacker = in_text(draft_model.side_name(state, draft["initiators"][0]))
        return f"Waiting for {attacker}'s attack from that phone: then roll the defense here."
    if draft_model.pool_rolls_along(state, draft):
        return "Roll your dice: the Tension Pool rolls first, with the same tap."
    for key, side in draft_model.sides(draft):
        if not dice_entry.complete(side, draft_model.pool(state, draft, side)):
            if is_player(state) and (own_side(state, side) or (key == "gm" and draft["kind"] == "environment")):
                return "Roll the Tension Pool, then your dice." if key == "gm" else "Your roll."
            return f"Waiting for {in_text(draft_model.side_name(state, side))} to roll."
    return ""


def regions(state: AppState) -> list[tuple[str, Markup]]:
    draft = state.draft(draft_model.new_draft)
    return [
        ("tension-setup", setup(state, draft)),
        *side_regions(state, draft),
        ("tension-odds", odds.panel(state, draft)),
        ("tension-result", result_panel(state, draft)),
        ("tension-bar", bar(state, draft)),
    ]
