"""The Anomaly conflict screen: a roll against a difficulty or an opposed roll.

Regions: setup (kind and difficulty), the actor's card, the defender's card
(opposed rolls), the result. A card holds who rolls, good and bad dice, the
modifier chips grouped by kind, the odds for what is on screen (`odds`), how the
dice arrive and the d10 tray. Markup only: kept dice, modifiers that count, totals
and outcomes come from rules (resolve, select_modifiers) via the draft; how dice
come in is ui.kit.dice_entry's, the result card and bar ui.systems.conflict's.
"""
from __future__ import annotations

import rules

from ui.core.role import own_side
from ui.core.state import AppState
from ui.kit.controls import segmented, select, settled_note, stepper, text_input
from ui.kit.dice import tray
from ui.kit.dice_entry import arrival, controls
from ui.kit.html import Markup, classes, h, isolate
from ui.systems import conflict, dice_entry
from ui.systems.anomaly import calls as anomaly_calls
from ui.systems.anomaly import draft as draft_model
from ui.systems.anomaly import odds
from ui.systems.anomaly import words

KINDS = ((draft_model.CHECK, "Against a difficulty"), (draft_model.OPPOSED, "Opposed roll"))
TITLES = {"check": {"actor": "Who rolls"}, "opposed": {"actor": "Attacker", "defender": "Defender"}}
EMPTY = Markup("")


# --- Setup: kind and difficulty ---------------------------------------------------------------

def difficulty_block(draft: dict) -> Markup:
    chosen = draft["difficulty"]
    settled = draft_model.difficulty_settled(draft)
    if settled is not None:
        return h("div", h("h3", "Difficulty ", h("span", str(chosen), class_="difficulty-value",
                                                 data_testid="difficulty"), class_="card-title"),
                 settled_note(settled), class_="difficulty")
    picks = h("div", *(h("button", str(value), type="button", class_="button difficulty-pick",
                         id=f"anomaly-difficulty-{value}", data_action="anomaly-difficulty", data_value=str(value),
                         aria_pressed="true" if chosen == value else "false", aria_label=f"Difficulty {value}")
                       for value in rules.SUGGESTED_DIFFICULTIES),
              class_="difficulty-picks")
    typed = text_input("Any number", "anomaly-difficulty-input", "" if chosen is None else str(chosen),
                       "anomaly-difficulty-type", placeholder="e.g. 10", input_type="number",
                       inputmode="numeric")
    shown = "not set yet" if chosen is None else str(chosen)
    return h("div",
             h("h3", "Difficulty ", h("span", shown, class_="difficulty-value", data_testid="difficulty"),
               class_="card-title", id="anomaly-difficulty-title"),
             h("p", "The GM sets it, most often a multiple of 3. Success needs a total above it.",
               class_="hint hint-small"),
             picks, typed,
             class_="difficulty", role="group", aria_labelledby="anomaly-difficulty-title")


def setup(state: AppState, draft: dict) -> Markup:
    title = h("h2", "Anomaly conflict", class_="screen-title")
    if draft["logged"] is not None:
        return h("section", title, h("p", "Logged. Start a new roll below to roll again.", class_="hint"),
                 class_="card")
    kind = segmented("Roll against", KINDS, draft["kind"], "anomaly-kind", "anomaly-kind")
    explain = ("The defender rolls the same way; the attacker must beat the defender's total."
               if draft["kind"] == draft_model.OPPOSED else Markup(""))
    called = draft.get("called")
    if called and called.get("first") == "here":  # a character's defense, rolled first on its own phone
        kind, explain = EMPTY, ("Your defense, called by the GM: you roll first, then the GM's phone rolls the "
                                "attack, which must beat your total.")
    elif called and called.get("first") == "there":
        kind, explain = EMPTY, "The defense rolls first on the defender's phone; then roll the attack here."
    elif called:  # the GM's phone rolled the defense: the kind is the call's
        kind, explain = EMPTY, "The GM's phone rolled the defense: your attack must beat its total."
    return h("section", title, kind,
             h("p", explain, class_="hint hint-small") if explain else EMPTY,
             difficulty_block(draft) if draft["kind"] == draft_model.CHECK else EMPTY,
             class_="card anomaly-setup")


# --- A roller's controls ------------------------------------------------------------------------

def who_controls(state: AppState, role: str, roller: dict) -> Markup:
    entries = state.roster()
    parts = []
    if entries and not own_side(state, roller):
        options = [("", "No sheet (quick roll)")]
        options += [(entry["id"], entry["name"]) for entry in state.roster("character")]
        options += [(entry["id"], f"{entry['name']} (adversary)") for entry in state.roster("adversary")]
        parts.append(select("Who", options, roller["ref"] or "", "anomaly-who", f"anomaly-{role}-who", side=role))
    if not roller["ref"]:
        parts.append(text_input("Name", f"anomaly-{role}-name", roller["name"], "anomaly-name",
                                placeholder=draft_model.DEFAULT_NAMES[role], maxlength=60, side=role))
        if not entries and role == "actor":
            parts.append(h("p", "Sheets added on the Roster screen bring their usual modifiers here.",
                           class_="hint hint-small"))
    return h("div", *parts, class_="who")


def dice_controls(role: str, roller: dict) -> Markup:
    high = rules.LIMITS["conditional_dice"]
    net = words.net_words(roller["good"], roller["bad"])
    return h("fieldset",
             h("legend", "Conditional dice"),
             h("div",
               stepper("Good dice", roller["good"], "anomaly-dice", 0, high, f"anomaly-{role}-good",
                       side=role, which="good"),
               stepper("Bad dice", roller["bad"], "anomaly-dice", 0, high, f"anomaly-{role}-bad",
                       side=role, which="bad"),
               class_="dice-steppers"),
             h("p", net[:1].upper() + net[1:] + ".", class_="net-words", data_testid=f"net-{role}"),
             class_="sheet-group anomaly-group")


def chip_button(role: str, chip: dict, locked: bool) -> Markup:
    value = words.signed(chip["value"])
    if chip["status"] == "left_out":
        beside = chip["beside"]
        why = f"left out: same kind as {isolate(chip['kind'].strip())} {words.signed(beside['value'])}" if beside else \
            "left out: same kind"
    elif chip["status"] == "off":
        why = "off for this roll: tap if it applies"
    else:
        why = "counts, stacks" if chip["stacks"] else "counts"
    content = [h("span", h("strong", value, class_="mod-value"),
                 h("span", " ", isolate(chip["name"]), class_="mod-name") if chip["name"] else EMPTY,
                 h("span", " · stacks", class_="mod-stacks") if chip["stacks"] else EMPTY,
                 class_="mod-main"),
               h("span", why, class_="mod-status")]
    css = classes("mod-chip", f"mod-{chip['status'].replace('_', '-')}", one_off=chip["one_off"])
    if locked:
        return h("span", *content, class_=css, data_testid="chip")
    return h("button", *content, type="button", class_=css, id=f"anomaly-{role}-chip-{chip['key']}",
             data_action="anomaly-chip", data_side=role, data_chip=chip["key"],
             aria_pressed="true" if chip["on"] else "false", data_testid="chip")


def chip_groups(role: str, listed: list[dict], locked: bool) -> Markup:
    groups = []
    for kind, members in draft_model.kind_groups(listed):
        items = []
        for chip in members:
            remove = EMPTY
            if chip["one_off"] and not locked:
                index = int(chip["key"][1:])
                remove = h("button", "×", type="button", class_="button button-quiet chip-remove",
                           id=f"anomaly-{role}-remove-{chip['key']}", data_action="anomaly-chip-remove",
                           data_side=role, data_index=str(index),
                           aria_label=f"Remove {chip['kind'].strip()} {words.signed(chip['value'])}")
            items.append(h("li", chip_button(role, chip, locked), remove, class_="chip-item"))
        groups.append(h("div", h("h4", isolate(kind), class_="chip-kind", id=f"anomaly-{role}-kind-{len(groups)}"),
                        h("ul", *items, class_="chip-list",
                          aria_labelledby=f"anomaly-{role}-kind-{len(groups)}"),
                        class_="chip-group"))
    return h("div", *groups, class_="chip-groups")


def add_modifier_form(role: str, roller: dict) -> Markup:
    form = roller["new"]
    kinds = [(kind, kind) for kind in rules.COMMON_KINDS] + [(draft_model.OTHER_KIND, "Other…")]
    other = EMPTY
    if form["kind"] == draft_model.OTHER_KIND:
        other = text_input("Kind name", f"anomaly-{role}-new-other", form["other"], "anomaly-new-other",
                           placeholder="e.g. Magic", maxlength=rules.anomaly.MAX_KIND, side=role)
    high = rules.LIMITS["modifier_value"]
    return h("div",
             select("Kind", kinds, form["kind"], "anomaly-new-kind", f"anomaly-{role}-new-kind", side=role),
             other,
             text_input("Name (optional)", f"anomaly-{role}-new-name", form.get("name", ""), "anomaly-new-name",
                        placeholder="e.g. High ground", maxlength=60, side=role),
             stepper("Value", form["value"], "anomaly-new-value", -high, high, f"anomaly-{role}-new-value",
                     shown=words.signed(form["value"]), side=role),
             h("label", h("input", type="checkbox", id=f"anomaly-{role}-new-stacks", data_action="anomaly-new-stacks",
                          data_side=role, checked=form["stacks"]),
               " Stacks with others of its kind", class_="check", for_=f"anomaly-{role}-new-stacks"),
             h("button", "Add", type="button", class_="button button-primary", id=f"anomaly-{role}-add",
               data_action="anomaly-add-modifier", data_side=role,
               aria_label=f"Add this modifier ({form['kind'] or 'other kind'} {words.signed(form['value'])})"),
             class_="add-modifier", id=f"anomaly-{role}-add-form")


def modifier_controls(state: AppState, role: str, roller: dict) -> Markup:
    listed = draft_model.chip_status(state, roller)
    body = [chip_groups(role, listed, False) if listed else
            h("p", "No modifiers. Add the ones that fit this roll.", class_="hint hint-small")]
    if listed:
        body.insert(0, h("p", "Tap a modifier to turn it off or on for this roll. Within a kind only the "
                              "largest counts, unless it stacks.", class_="hint hint-small"))
    body.append(h("button", "Add a modifier", type="button", class_="button disclosure",
                  id=f"anomaly-{role}-adding", data_action="anomaly-adding", data_side=role,
                  aria_expanded="true" if roller["adding"] else "false",
                  aria_controls=f"anomaly-{role}-add-form" if roller["adding"] else None))
    if roller["adding"]:
        body.append(add_modifier_form(role, roller))
    total = sum(chip["value"] for chip in listed if chip["status"] == "applied")
    legend = h("legend", "Modifiers ", h("span", f"({words.signed(total)})", class_="legend-total",
                                          data_testid=f"modifier-total-{role}"))
    return h("fieldset", legend, *body, class_="sheet-group anomaly-group")


# --- Dice -------------------------------------------------------------------------------------------

def roll_controls(draft: dict, role: str, roller: dict, name: str) -> Markup:
    """How this side's dice come in (ui.kit.dice_entry)."""
    return controls("anomaly", role, name, roller["mode"], roller["dice"], roller["total"], draft_model.SIDES,
                    draft_model.dice_needed(roller), draft_model.TOTALS, wait=draft_model.must_wait(draft, role))


def dice_tray(roller: dict, name: str, preview: dict | None, locked: bool) -> Markup:
    """Every d10 on the table; the rules' kept die is marked "Kept", the others dimmed."""
    faces = preview["rolled"] if preview is not None and not preview["given_total"] else roller["dice"]
    if roller["mode"] == draft_model.TOTAL or not faces:
        return EMPTY
    kept = [preview["keep"]] if preview is not None else []
    parts = [tray(faces, 10, kept, f"{name}'s dice", None, fresh=roller["fresh"] and not locked)]
    if preview is not None:
        parts.append(h("p", words.keep_words(preview), class_="hint hint-small"))
    return h("div", *parts, class_="anomaly-tray")


def total_line(role: str, preview: dict | None, problem: str | None) -> Markup:
    """The side's total so far; focusable (tabindex -1) so keyboard users land here after Roll."""
    if problem:
        return h("p", problem, class_="side-problem", role="status")
    if preview is None:
        return EMPTY
    if preview["given_total"]:
        return h("p", "Total ", h("strong", str(preview["total"]), data_testid="side-total"), " (announced)",
                 class_="side-total", id=f"anomaly-{role}-sum", tabindex="-1")
    shown = words.sum_words(preview)
    sum_part = f" ({shown.split(' = ')[0]})" if " = " in shown else " (the kept die)"
    return h("p", "Total ", h("strong", str(preview["total"]), data_testid="side-total"), sum_part,
             class_="side-total", id=f"anomaly-{role}-sum", tabindex="-1")


def roller_card(state: AppState, draft: dict, role: str) -> Markup:
    roller = draft[role]
    name = isolate(draft_model.roller_name(state, roller, role))
    title = TITLES[draft["kind"]][role]
    locked = draft["logged"] is not None
    problem = None
    if locked:  # what was logged, whatever happened to the sheets since
        preview = draft["logged"]["result"][role]
        name = isolate(preview["name"])
    else:
        try:
            preview = draft_model.side_preview(state, roller, role)
        except rules.RuleError as error:
            preview, problem = None, str(error)
    header = h("header", h("h3", title, class_="side-title"), h("span", name, class_="side-name"),
               class_="side-header")
    body = []
    settled = draft_model.settled_by(draft, role) if not locked else None
    if locked:
        listed = draft_model.logged_chips(preview)
        if listed:
            body.append(chip_groups(role, listed, True))
    elif settled is not None and roller["mode"] == draft_model.TOTAL:  # a total from another phone: no dice here
        body.append(h("p", "Total only, announced.", class_="pool-line"))
    elif settled is not None:
        body.append(h("p", words.net_words(roller["good"], roller["bad"]).capitalize() + " · " +
                      dice_entry.arrival_words(roller) + ".", class_="pool-line"))
        listed = draft_model.chip_status(state, roller)
        if listed:
            body.append(chip_groups(role, listed, True))
    else:
        body.append(who_controls(state, role, roller))
        if roller["mode"] != draft_model.TOTAL:
            body.append(dice_controls(role, roller))
            body.append(modifier_controls(state, role, roller))
        body.append(odds.block(state, draft, role, roller))
        body.append(arrival("anomaly", role, name, draft_model.modes(role), roller["mode"]))
        body.append(roll_controls(draft, role, roller, name))
    body.append(dice_tray(roller, name, preview, locked))
    body.append(total_line(role, preview, problem))
    if settled is not None:
        body.append(settled_note(settled))
    return h("section", header, *body, class_=classes("card", "side-card", "anomaly-roller", f"anomaly-{role}",
                                                      side_settled=settled is not None),
             aria_label=f"{title}: {name}", data_testid=f"side-{role}")


# --- Result ----------------------------------------------------------------------------------------

def outcome_block(record: dict) -> Markup:
    result = record["result"]
    actor = result["actor"]
    outcome = result["outcome"]
    equal = result["margin"] == 0
    rows = [h("div", h("dt", f"{isolate(actor['name'])}'s total"), h("dd", words.sum_words(actor), data_testid="total"))]
    if record["kind"] == draft_model.OPPOSED:
        defender = result["defender"]
        rows.append(h("div", h("dt", f"{isolate(defender['name'])}'s total"),
                      h("dd", words.sum_words(defender), data_testid="defender-total")))
    else:
        rows.append(h("div", h("dt", "Difficulty"), h("dd", str(result["difficulty"]))))
    rows.append(h("div", h("dt", "Margin"), h("dd", words.margin_words(result["margin"]), data_testid="margin")))
    left_out = [words.modifier_words(modifier) for side in ("actor", "defender")
                for modifier in result.get(side, {}).get("left_out", [])]
    notes = words.notes(result)
    return h("div",
             h("p", words.OUTCOME_WORDS[outcome], class_=classes("outcome", f"outcome-{outcome}"),
               data_testid="outcome"),
             h("p", words.margin_sentence(record), class_="outcome-detail",
               data_testid="equal-note" if equal else "outcome-words"),
             h("dl", *rows, class_="anomaly-sums"),
             h("p", "Left out: " + ", ".join(left_out) + ".", class_="hint hint-small") if left_out else EMPTY,
             h("ul", *(h("li", note) for note in notes), class_="notes", aria_label="How the rules were read")
             if notes else EMPTY,
             class_="anomaly-outcome")


def waiting_words(state: AppState, draft: dict) -> str:
    called = draft.get("called")
    if called and called.get("first") == "here":
        attacker = isolate(draft_model.roller_name(state, draft["actor"], "actor"))
        if called["words"]:
            return (f"Sent to the GM's phone: it rolls {attacker}'s attack against your {called['words']}, and the "
                    "result shows here once it is logged.")
        return f"Roll your defense, then send it to the GM: the GM's phone rolls {attacker}'s attack against it."
    if called and called.get("first") == "there" and not called["words"]:
        return "Waiting for the defense from the defender's phone: then roll the attack here."
    for role, roller in draft_model.rollers(draft):
        if not draft_model.has_rolled(roller):
            name = isolate(draft_model.roller_name(state, roller, role))
            if own_side(state, roller):
                return "Your roll."
            if roller["mode"] == draft_model.TOTAL:
                return f"Waiting for {name}'s total."
            if roller["mode"] == draft_model.REAL:
                return f"Waiting for {name}'s real dice."
            return f"Waiting for {name} to roll."
    if draft["kind"] == draft_model.CHECK and draft["difficulty"] is None:
        return "Waiting for the GM to set a difficulty."
    return ""


def result_panel(state: AppState, draft: dict) -> Markup:
    return conflict.result_panel("anomaly", draft["logged"], lambda: draft_model.standing(state, draft),
                                 lambda record, logged: [outcome_block(record)], lambda: waiting_words(state, draft),
                                 draft_model.dice_on_table(draft), "New roll",
                                 conflict.side_on_its_way(state, draft, *anomaly_calls.on_its_way(state, draft)))


def bar(state: AppState, draft: dict) -> Markup:
    """Once a result stands: it and its main action, always in reach. A called defense rolled here
    first: once rolled, sending it to the GM's phone."""
    called = draft.get("called")
    if called and called.get("first") == "here" and draft["logged"] is None:
        defender = draft["defender"]
        try:
            preview = draft_model.side_preview(state, defender, "defender")
        except rules.RuleError:
            preview = None
        total = None if preview is None or defender["mode"] == draft_model.TOTAL else preview["total"]
        return conflict.send_bar(state, "anomaly", draft, total, "defense", "attack")
    return conflict.standing_bar(state, "anomaly", draft["logged"], lambda: draft_model.standing(state, draft),
                                 bar_summary, "New roll")


def bar_summary(record: dict) -> Markup:
    result = record["result"]
    outcome = result["outcome"]
    return h("span", h("span", words.OUTCOME_WORDS[outcome], class_=classes("outcome", f"outcome-{outcome}")),
             f" {result['actor']['total']} vs {result['difficulty']}")


def regions(state: AppState) -> list[tuple[str, Markup]]:
    draft = state.draft(draft_model.new_draft)
    return [
        ("anomaly-setup", setup(state, draft)),
        ("anomaly-actor", roller_card(state, draft, "actor")),
        ("anomaly-defender", roller_card(state, draft, "defender") if draft["kind"] == draft_model.OPPOSED else EMPTY),
        ("anomaly-result", result_panel(state, draft)),
        ("anomaly-bar", bar(state, draft)),
    ]
