"""A logged conflict drawn for reading: when, outcome, sentence, dice and what Tension
did. Used by the Log and by shared roll links.
Markup only; records are read, never judged (stored and shared data is not trusted).
"""
from __future__ import annotations

from ui.core.clock import short_text
from ui.core.state import AppState
from ui.kit.dice import tray
from ui.kit.html import Markup, classes, h, isolate
from ui.systems.anomaly import words as anomaly_words
from ui.systems.manners import words as manners_words
from ui.systems.summaries import sentence
from ui.systems.tension import words as tension_words

OUTCOME_WORDS = {"success": "Success", "failure": "Failure", "tie": "Tie", "partial": "Partial success",
                 "compromise": "Compromise"}
PROVENANCE = {"app": "rolled in the app", "typed": "entered by hand", "total": "total only"}
EFFECT_WORDS = {"tension": "Tension", "ap": "AP", "health": "Health"}


def when(at: str) -> Markup:
    """“1 Jun, 20:14” in a <time> element; the raw text if it is not a time."""
    shown = short_text(at)
    if shown is None:
        return h("span", at) if at else Markup("")
    return h("time", shown, datetime=at)


def named_sides(record: dict) -> list[tuple[str, dict, dict]]:
    """(key, record side, result detail) for every side of a record, in rolling order."""
    result = record.get("result") or {}
    if record.get("system") == "tension":
        if record.get("kind") == "environment":
            return [("gm", record["gm"], result.get("gm", {})), ("player", record["player"], result.get("player", {}))]
        initiators = result.get("initiators", [])
        return [*((f"initiator-{index}", side, initiators[index] if index < len(initiators) else {})
                  for index, side in enumerate(record["initiators"])),
                ("defender", record["defender"], result.get("defender", {}))]
    if record.get("system") == "anomaly":
        sides = [("actor", record["actor"], result.get("actor", {}))]
        if record.get("kind") == "opposed":
            sides.append(("defender", record["defender"], result.get("defender", {})))
        return sides
    return []


def kept_indices(record: dict, side: dict, detail: dict) -> list[int]:
    if record.get("system") == "tension":
        keep = side.get("keep") or detail.get("keep") or []
        return [index for index in keep if isinstance(index, int)]
    faces = side.get("dice") or []
    kept = detail.get("kept")
    return [faces.index(kept)] if kept in faces else []


def dice_block(record: dict) -> Markup:
    sides = 6 if record.get("system") == "tension" else 10
    rows = []
    for _, side, detail in named_sides(record):
        name = side.get("name") or detail.get("name") or "Someone"
        faces = side.get("dice")
        if isinstance(faces, list) and faces:
            content = tray(faces, sides, kept_indices(record, side, detail), f"{name}'s dice")
        elif side.get("total") is not None:
            content = h("span", f"total {side['total']}, announced", class_="hint-small")
        else:
            continue
        origin = PROVENANCE.get(side.get("dice_from"))
        mark = h("span", f" ({origin})", class_="hint-small log-provenance", data_testid="provenance") if origin else ""
        rows.append(h("li", h("span", isolate(name), class_="log-side-name"), mark, content, class_="log-side"))
    return h("ul", *rows, class_="log-dice") if rows else Markup("")


def outcome_chip(record: dict) -> Markup:
    outcome = (record.get("result") or {}).get("outcome")
    if outcome not in OUTCOME_WORDS:
        return Markup("")
    return h("p", OUTCOME_WORDS[outcome], class_=classes("outcome", f"outcome-{outcome}", "log-outcome"))


def happened_lines(record: dict, table_lines=()) -> list[str]:
    """Everything the conflict did, one line each (each system's words write them)."""
    system = record.get("system")
    if system == "tension":
        return tension_words.happened(record, table_lines)
    if system == "anomaly":
        return anomaly_words.happened(record)
    if system == "manners":
        return manners_words.happened(record)
    return []


def effect_words(state: AppState | None, effects: list) -> str:
    """"Tension +4 · Ash Varga AP −1 · Ghoul Health −2": what logging changed in the session."""
    names = {item["id"]: item["name"] for item in state.session["roster"]} if state is not None else {}
    parts = []
    for effect in effects:
        who = names.get(effect.get("id"), "") if effect.get("id") else ""
        delta = effect.get("delta", 0)
        sign = "+" if delta > 0 else "−"
        parts.append(f"{isolate(who) + ' ' if who else ''}{EFFECT_WORDS.get(effect.get('field'), '?')} {sign}{abs(delta)}")
    return " · ".join(parts)


def set_aside_words(record: dict, entry: dict) -> Markup | str:
    """Why a roll was set aside: the GM's side of a call (resolved on the called phones), or dice left
    on the table when another conflict started."""
    if entry.get("call"):
        what = "Tension Pool" if record.get("kind") == "environment" else "The adversary's attack"
        return Markup(f"{what} for the call: ") + isolate(entry["call"]) + ". Each called phone rolls against its total."
    return "Rolled and not resolved: a new conflict (or another kind) started with these on the table."


def record_details(record: dict, entry: dict | None = None, state: AppState | None = None) -> list[Markup]:
    """Outcome, sentence, dice, Tension change and what happened, of a resolved record (log and
    roll links); a roll set aside shows its dice and says it was never resolved."""
    try:
        if entry is not None and entry.get("kind") == "set-aside":
            return [h("p", "Set aside", class_="outcome log-outcome outcome-set-aside"),
                    h("p", set_aside_words(record, entry), class_="log-sentence"), dice_block(record)]
        details = [outcome_chip(record), h("p", sentence(record), class_="log-sentence"), dice_block(record)]
        if record.get("system") == "tension":
            details.append(h("p", tension_words.tension_change_words(record["result"]), class_="log-tension"))
        if entry is not None and entry.get("effects"):
            details.append(h("p", "Changed: ", effect_words(state, entry["effects"]), class_="hint-small log-effects",
                             data_testid="log-effects"))
        lines = happened_lines(record, (entry or {}).get("table_lines", ()))
        if lines:
            details.append(h("details", h("summary", "What happened"),
                             h("ul", *(h("li", line) for line in lines), class_="log-happened"),
                             class_="log-details"))
        return details
    except Exception:  # stored or shared data is not trusted to have every field
        return [h("p", "This conflict's record could not be read.", class_="side-problem")]

