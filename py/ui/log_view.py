"""The Log screen: every resolved conflict of the open session, newest first, with who,
when, one sentence (ui.summaries), the outcome, the dice and what Tension did; Undo
for the newest, a roll link for any entry, Export and Import. An opened roll link
shows above the log (roll_link_view). Markup only; records are read, never judged.
"""
from __future__ import annotations

from datetime import datetime

from session import SYSTEMS, encode_roll

from ui import roll_link_view, share, tension_words
from ui.dice_view import tray
from ui.html import Markup, classes, h
from ui.state import AppState
from ui.summaries import sentence

PAGE = 20  # entries shown at first, and added by "Show older entries"
OUTCOME_WORDS = {"success": "Success", "failure": "Failure", "tie": "Tie", "partial": "Partial success",
                 "compromise": "Compromise"}
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def safe_sentence(record) -> str:
    """One sentence for a record; one too broken to describe says so (stored data is not trusted)."""
    try:
        return sentence(record)
    except Exception:
        return "A conflict whose record could not be read."


def when(at: str) -> Markup:
    """“1 Jun, 20:14” in a <time> element; the raw text if it is not a time."""
    try:
        moment = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return h("span", at) if at else Markup("")
    return h("time", f"{moment.day} {MONTHS[moment.month - 1]}, {moment:%H:%M}", datetime=at)


# --- A record's dice and outcome ---------------------------------------------------------------------

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
        rows.append(h("li", h("span", name, class_="log-side-name"), content, class_="log-side"))
    return h("ul", *rows, class_="log-dice") if rows else Markup("")


def outcome_chip(record: dict) -> Markup:
    outcome = (record.get("result") or {}).get("outcome")
    if outcome not in OUTCOME_WORDS:
        return Markup("")
    return h("p", OUTCOME_WORDS[outcome], class_=classes("outcome", f"outcome-{outcome}", "log-outcome"))


def record_details(record: dict) -> list[Markup]:
    """Outcome, sentence, dice and Tension change of a resolved record (log and roll links)."""
    try:
        details = [outcome_chip(record), h("p", sentence(record), class_="log-sentence"), dice_block(record)]
        if record.get("system") == "tension":
            details.append(h("p", tension_words.tension_change_words(record["result"]), class_="log-tension"))
        return details
    except Exception:  # stored or shared data is not trusted to have every field
        return [h("p", "This conflict's record could not be read.", class_="side-problem")]


# --- The screen ----------------------------------------------------------------------------------------

def undo_words(state: AppState, entry: dict) -> str:
    before = entry.get("before", {})
    words = []
    if entry["record"].get("system") == "tension":
        words.append(f"Tension goes back to {before.get('tension')}")
    names = {item["id"]: item["name"] for item in state.session["roster"]}
    ap = [f"{names[key]} {value} AP" for key, value in before.get("ap", {}).items() if key in names]
    if ap:
        words.append("AP back to " + ", ".join(ap))
    return "; ".join(words) + "." if words else "Nothing else changes."


def tools(state: AppState) -> Markup:
    log = state.session["log"]
    count = len(log)
    intro = (f"{count} conflict{'s' * (count != 1)} logged in “{state.session['name']}”, newest first."
             if count else f"Nothing logged yet in “{state.session['name']}”. Resolved conflicts appear here.")
    buttons = h("div",
                h("button", "Undo last", type="button", class_="button", data_action="log-undo", disabled=not log),
                h("button", "Export", type="button", class_="button", data_action="log-export",
                  aria_label="Export this session to a file"),
                h("label", "Import",
                  h("input", type="file", id="log-import-file", accept=".json,application/json",
                    class_="visually-hidden", data_action="log-import",
                    aria_label="Import a session file (becomes a new session)"),
                  class_="button file-button", for_="log-import-file"),
                class_="row row-wrap log-buttons")
    confirm = Markup("")
    if state.view.get("undo") and log:
        newest = log[0]
        confirm = h("div",
                    h("p", h("strong", "Undo the newest result? "), safe_sentence(newest["record"]), " ",
                      undo_words(state, newest)),
                    h("div", h("button", "Yes, undo it", type="button", class_="button button-danger",
                               data_action="log-undo-confirmed"),
                      h("button", "Keep it", type="button", class_="button", data_action="log-undo-cancel"),
                      class_="row row-wrap"),
                    class_="confirm", role="alert")
    return h("section", h("h2", "Log", class_="screen-title"), h("p", intro, class_="hint"), buttons, confirm,
             class_="card")


def roll_url(state: AppState, entry: dict) -> str:
    fragment = encode_roll(entry["record"], at=entry["at"], by=entry["by"], session_name=state.session["name"])
    return share.link(state.base_url, fragment)


def shared_link(state: AppState, entry: dict) -> Markup:
    field_id = f"roll-link-{entry['id']}"
    return h("label", h("span", "Link to this roll", class_="field-label"),
             h("textarea", roll_url(state, entry), id=field_id, readonly=True, rows="3",
               class_="field-input link-text", data_testid="roll-link"),
             class_="field", for_=field_id)


def entry_card(state: AppState, entry: dict, number: int) -> Markup:
    record = entry["record"] if isinstance(entry.get("record"), dict) else {}
    meta = [h("span", f"#{number}", class_="log-number")]
    if entry.get("by"):
        meta += [" · ", h("span", entry["by"], class_="log-by")]
    if entry.get("at"):
        meta += [" · ", when(entry["at"])]
    if record.get("system") not in (None, state.system):
        meta += [" · ", h("span", SYSTEMS.get(record.get("system"), ""), class_="badge")]
    shared = shared_link(state, entry) if state.view.get("shared") == entry["id"] else Markup("")
    return h("li",
             h("p", *meta, class_="log-meta"),
             *record_details(record),
             h("div", h("button", "Share roll", type="button", class_="button", data_action="log-share",
                        data_id=entry["id"], aria_label=f"Share a link to roll #{number}"),
               class_="row"),
             shared,
             class_="card log-entry", data_testid="log-entry")


def entries(state: AppState) -> Markup:
    log = state.session["log"]
    if not log:
        return Markup("")
    shown = state.view.get("log_shown", PAGE)
    items = [entry_card(state, entry, len(log) - index) for index, entry in enumerate(log[:shown])]
    more = Markup("")
    if len(log) > shown:
        more = h("button", f"Show older entries ({len(log) - shown} more)", type="button",
                 class_="button button-wide", data_action="log-more")
    return h("div", h("ol", *items, class_="log-list", aria_label="Logged conflicts, newest first"), more)


def regions(state: AppState) -> list[tuple[str, Markup]]:
    return [
        ("log-roll", roll_link_view.panel(state)),
        ("log-tools", tools(state)),
        ("log-entries", entries(state)),
    ]
