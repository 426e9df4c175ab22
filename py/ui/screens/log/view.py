"""The Log screen: every resolved conflict of the open session, newest first, with who,
when, one sentence (ui.systems.summaries), the outcome, the dice and what Tension did; Undo
for the newest, a roll link for any entry, whose rolls to show, Export, Import and
archiving. The newest entries are drawn first and older ones are read from the log store
as the player asks (ui.core.library.wanted); every count comes from the log's tally, not
from what is in memory. An opened roll link shows above the log (roll_link). Markup only;
records are read, never judged.
"""
from __future__ import annotations

from session import SYSTEMS
from session.history import entry_label
from session.sealed.verdict import Verdict, left_behind, verdict

from ui.core.library import backup_due, backup_words, involves, logged, sheets_of
from ui.core.people import people
from ui.core.role import may_undo
from ui.core.state import AppState
from ui.kit.html import Markup, classes, h, isolate
from ui.screens.log import roll_link, tension_line
from ui.screens.log.limits import KEEP, PAGE
from ui.screens.log.record import effect_words, record_details, when
from ui.systems.handoff import roll_url
from ui.systems.summaries import entry_sentence


# --- The screen ----------------------------------------------------------------------------------------

def undo_words(state: AppState, entry: dict) -> str:
    if entry.get("kind") == "set-aside":
        return "It only leaves the log: no numbers change."
    if "effects" in entry:
        if not entry["effects"]:
            return "Nothing else changes."
        return "Reversed: " + effect_words(state, [{**effect, "delta": -effect["delta"]}
                                                   for effect in entry["effects"]]) + "."
    before = entry.get("before", {})
    words = []
    if entry["record"].get("system") == "tension":
        words.append(f"Tension goes back to {before.get('tension')}")
    names = {item["id"]: item["name"] for item in state.session["roster"]}
    ap = [f"{isolate(names[key])} {value} AP" for key, value in before.get("ap", {}).items() if key in names]
    if ap:
        words.append("AP back to " + ", ".join(ap))
    return "; ".join(words) + "." if words else "Nothing else changes."


def count_words(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def tools(state: AppState) -> Markup:
    log = state.session["log"]
    tally = logged(state)
    aside, count = tally.get("set-aside", 0), tally.get("conflict", 0)
    name = isolate(state.session["name"])
    if aside:  # one count (entries, as the backup line and archiving count them), then what they are
        intro = (f"{count_words(count + aside, 'entry', 'entries')} logged in “{name}”, newest first: "
                 f"{count_words(count, 'conflict', 'conflicts')} and {count_words(aside, 'roll', 'rolls')} set aside.")
    elif count:
        intro = f"{count_words(count, 'conflict', 'conflicts')} logged in “{name}”, newest first."
    else:
        intro = f"Nothing logged yet in “{name}”. Resolved conflicts appear here."
    due = backup_due(state)
    backup = h("p", " ".join(backup_words(state)), class_="hint hint-small", data_testid="backup")
    if due:
        backup = h("p", h("strong", "Back up this session: "), "export it to a file, so these conflicts survive "
                   "if this browser loses its data. ", " ".join(backup_words(state)),
                   class_="backup-offer", data_testid="backup")
    undoable = not log or may_undo(state, log[0])  # a player's phone undoes only its own rolls
    buttons = h("div",
                h("button", "Undo last", type="button", class_="button", data_action="log-undo", disabled=not log)
                if undoable else Markup(""),
                h("button", "Export", type="button", class_=classes("button", button_primary=due),
                  data_action="log-export", aria_label="Export this session to a file"),
                h("label", "Import",
                  h("input", type="file", id="log-import-file", accept=".json,application/json",
                    class_="visually-hidden", data_action="log-import",
                    aria_label="Import a session file (becomes a new session)"),
                  class_="button file-button", for_="log-import-file"),
                h("button", "Archive old entries…", type="button", class_="button", data_action="log-archive",
                  disabled=count + aside <= min(KEEP)),
                class_="row row-wrap log-buttons")
    confirm = Markup("")
    if state.view.get("undo") and log and undoable:
        newest = log[0]
        confirm = h("div",
                    h("p", h("strong", "Undo the newest result? "), entry_sentence(newest), " ",
                      undo_words(state, newest)),
                    h("div", h("button", "Yes, undo it", type="button", class_="button button-danger",
                               data_action="log-undo-confirmed"),
                      h("button", "Keep it", type="button", class_="button", data_action="log-undo-cancel"),
                      class_="row row-wrap"),
                    class_="confirm", role="alert")
    not_yours = Markup("") if undoable else h(
        "p", "The newest roll is not this phone's: only the GM's phone undoes it.", class_="hint hint-small",
        data_testid="undo-not-yours")
    return h("section", h("h2", "Log", class_="screen-title"), h("p", intro, class_="hint", data_testid="log-count"),
             tension_line.picture(state), backup, buttons, not_yours, confirm, archive_card(state, count + aside),
             who_filter(state), class_="card")


def archive_card(state: AppState, total: int) -> Markup:
    """Export, then keep only the newest entries on this phone: room for a long campaign."""
    if not state.view.get("archive"):
        return Markup("")
    if total <= min(KEEP):
        return h("div",
                 h("p", h("strong", "Nothing to archive here. "),
                   f"This session has {count_words(total, 'entry', 'entries')} on this phone; archiving keeps at "
                   f"least the newest {min(KEEP)}. To make room, export the sessions you no longer play "
                   "(Export, here, in each) and delete them on the Session screen."),
                 h("div", h("button", "Cancel", type="button", class_="button", data_action="log-archive-cancel"),
                   class_="row row-wrap"),
                 class_="confirm", role="alert", data_testid="archive")
    keep = state.view.get("archive_keep", KEEP[1])
    options = [h("option", f"the newest {number:,}", value=str(number), selected=number == keep) for number in KEEP]
    return h("div",
             h("p", h("strong", "Archive old entries? "),
               f"Tableside first exports all {total:,} entries of this session to a file (keep it safe: it can be "
               "imported again), then removes the older ones from this phone. Tension, AP and the roster "
               "do not change."),
             h("label", h("span", "Keep on this phone", class_="field-label"),
               h("select", *options, id="archive-keep", class_="field-input", data_action="log-archive-keep"),
               class_="field", for_="archive-keep"),
             h("div", h("button", "Export and archive", type="button", class_="button button-danger",
                        data_action="log-archive-confirmed"),
               h("button", "Cancel", type="button", class_="button", data_action="log-archive-cancel"),
               class_="row row-wrap"),
             class_="confirm", role="alert", data_testid="archive")


def who_filter(state: AppState) -> Markup:
    """Show one character's (or adversary's) rolls only."""
    roster = state.session["roster"]
    if not roster:
        return Markup("")
    who = state.view.get("log_who", "")
    options = [h("option", "Everyone", value="", selected=not who)]
    options += [h("option", person.name, value=person.ids[0], selected=who in person.ids)
                for person in people(roster)]
    return h("label", h("span", "Whose rolls", class_="field-label"),
             h("select", *options, id="log-who", class_="field-input", data_action="log-who"),
             class_="field", for_="log-who")


def shared_link(state: AppState, entry: dict) -> Markup:
    field_id = f"roll-link-{entry['id']}"
    return h("label", h("span", "Link to this roll", class_="field-label"),
             h("textarea", roll_url(state, entry, named=True), id=field_id, readonly=True, rows="3",
               class_="field-input link-text", data_testid="roll-link"),
             class_="field", for_=field_id)


def label(entry: dict, position: int) -> str:
    """How the Log numbers an entry: the phone that logged it and its count there ("Ash 3", "GM 12",
    "Phone 7" from a phone nobody said who holds); entries from before numbers were kept, by position
    ("#7": they carry no number of their own)."""
    return entry_label(entry) or f"#{position}"


def seal_line(judged: Verdict) -> Markup:
    """A sealed result checked against its seal, or why it is flagged: short, to fit 320px."""
    if judged.flag:
        return h("p", h("strong", "Flagged: "), judged.flag, class_="log-flag", data_testid="log-flag")
    if judged.sealed:
        return h("p", "Sealed and checked", class_="log-sealed", data_testid="log-sealed")
    return Markup("")


def entry_card(state: AppState, entry: dict, number: str, left: dict | None = None) -> Markup:
    record = entry["record"] if isinstance(entry.get("record"), dict) else {}
    judged = verdict(state.replica, entry, left)
    meta = [h("span", isolate(number), class_="log-number")]
    # "Ash 3", not "Ash 3 · Ash"; a roll set aside is filed under nobody (its player may never have rolled)
    if entry.get("by") and entry.get("by") != entry.get("phone") and entry.get("kind") != "set-aside":
        meta += [" · ", h("span", isolate(entry["by"]), class_="log-by")]
    if entry.get("at"):
        meta += [" · ", when(entry["at"])]
    if record.get("system") not in (None, state.system):
        meta += [" · ", h("span", SYSTEMS.get(record.get("system"), ""), class_="badge")]
    shared = shared_link(state, entry) if state.view.get("shared") == entry["id"] else Markup("")
    share = Markup("")
    if entry.get("kind") != "set-aside":  # nothing was resolved, so there is no result to share
        share = h("div", h("button", "Share roll", type="button", class_="button", data_action="log-share",
                           data_id=entry["id"], aria_label=f"Share roll {number}"), class_="row")
    return h("li",
             h("p", *meta, class_="log-meta"),
             seal_line(judged),
             *record_details(record, entry, state),
             share,
             shared,
             class_=classes("card", "log-entry", log_set_aside=entry.get("kind") == "set-aside",
                            log_flagged=bool(judged.flag)),
             data_testid="log-entry")


def entries(state: AppState) -> Markup:
    who = state.view.get("log_who")
    if who:
        return found(state, who)
    log = state.session["log"]
    total = state.replica.logged()
    shown = state.view.get("log_shown", PAGE)
    if not log:
        return Markup("") if not total else h("p", "Reading the log…", class_="hint", role="status")
    left = left_behind(state.replica)
    items = [entry_card(state, entry, label(entry, total - index), left) for index, entry in enumerate(log[:shown])]
    more = Markup("")
    if total > shown:
        waiting = len(log) <= shown
        more = h("button", "Reading older entries…" if waiting else f"Show older entries ({total - shown:,} more)",
                 type="button", class_="button button-wide", data_action="log-more", disabled=waiting,
                 data_testid="log-more")
    return h("div", h("ol", *items, class_="log-list", aria_label="Logged conflicts, newest first"), more)


def found(state: AppState, who: str) -> Markup:
    """One character's rolls among the entries read so far, and a way to look further back."""
    entry = state.entry(who)
    name = isolate(entry["name"]) if entry else "them"
    log = state.session["log"]
    sheets = sheets_of(state, who)
    matches = [(index, item) for index, item in enumerate(log) if involves(item, sheets)]
    shown = state.view.get("log_shown", PAGE)
    total = state.replica.logged()
    left = left_behind(state.replica)
    items = [entry_card(state, item, label(item, total - index), left) for index, item in matches[:shown]]
    searched = f"the newest {len(log):,} of {total:,} entries" if not state.replica.complete else "every entry"
    more = Markup("")
    if len(matches) > shown:
        more = h("button", f"Show more of {name}'s rolls", type="button", class_="button button-wide",
                 data_action="log-more")
    elif not state.replica.complete:
        busy = bool(state.view.get("log_search"))
        more = h("button", "Looking further back…" if busy else "Look further back", type="button",
                 class_="button button-wide", data_action="log-search-further", disabled=busy)
    summary = h("p", f"{len(matches):,} {'roll' if len(matches) == 1 else 'rolls'} with {name} in {searched}.",
                class_="hint", role="status", data_testid="log-found")
    listing = h("ol", *items, class_="log-list", aria_label=f"Logged conflicts with {entry['name'] if entry else ''}")
    return h("div", summary, listing if items else Markup(""), more)


def regions(state: AppState) -> list[tuple[str, Markup]]:
    return [
        ("log-roll", roll_link.panel(state)),
        ("log-tools", tools(state)),
        ("log-entries", entries(state)),
    ]
