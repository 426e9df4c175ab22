"""The Session screen: a join prompt when a session link was opened, unreadable saved
data, sharing this session (link, share sheet, QR code), its settings, every session
on this device (open, rename, duplicate, delete), whether the browser keeps the data,
and the credits. Markup only.
"""
from __future__ import annotations

from session import SYSTEMS
from session.on_device import shown_key

from ui.core.library import LATEST, backup_due, backup_words, keeps_log, keeps_nothing, listing, logged, unreadable
from ui.core.role import changes_session, is_player, renames
from ui.core.state import AppState
from ui.kit.controls import button, scanner
from ui.kit.html import Markup, h, isolate
from ui.kit.qr import qr, qr_markup, size_words
from ui.screens.session.sharing import TOO_LARGE_TO_OPEN, VIDEO, session_url, setup_words, too_large_to_open

CREDITS = ("The Tension Engine is a CC BY 4.0 SRD (original design by Will Lentz and Brett Zeiler "
           "for Party First, published by Gamenomicon).")


def buttons(*items) -> Markup:
    return h("div", *items, class_="row row-wrap")


# --- A link was opened -------------------------------------------------------------------------------

def join_prompt(state: AppState) -> Markup:
    pending = state.pending
    if pending is None or pending.get("kind") != "join":
        return Markup("")
    incoming, mine = pending["session"], pending["mine"]
    names = [entry["name"] for entry in incoming["roster"]]
    roster = h("ul", *(h("li", isolate(name)) for name in names), class_="join-roster", aria_label="Roster in the link") \
        if names else h("p", "The roster is empty.", class_="hint")
    if mine is None:
        body = [h("p", "Someone shared the session ", h("strong", f"“{isolate(incoming['name'])}”"), " with you:"),
                h("p", setup_words(incoming), class_="join-setup"), roster,
                h("p", "Joining adds it as a new session on this phone; your sessions stay as they are.",
                  class_="hint"),
                h("div", button("Join as a new session", "join-new", primary=True),
                  button("Not now", "join-cancel", data_dismiss="true"), class_="row row-wrap dialog-actions")]
        title = "Join this session?"
    else:
        changes = pending.get("changes", [])
        body = [h("p", "This phone already has ", h("strong", f"“{isolate(mine['name'])}”"),
                  ". Updating it from the link changes:"),
                h("ul", *(h("li", change) for change in changes), class_="join-changes",
                  aria_label="What updating changes", data_testid="join-changes"),
                h("dl", h("dt", "After updating"), h("dd", setup_words(incoming)),
                  h("dt", "On this phone now"), h("dd", setup_words(mine)), class_="join-compare"),
                h("p", "Updating merges the link into this phone's session: what both phones changed counts, "
                       "and nothing this phone had is lost.", class_="hint"),
                h("div", button("Update mine from the link", "join-update", primary=True),
                  button("Not now", "join-cancel", data_dismiss="true"), class_="row row-wrap dialog-actions")]
        title = "Update this session?"
    return h("section", h("h2", title, class_="screen-title", id="join-title"), *body,
             class_="card dialog join-prompt", role="dialog", aria_modal="true", aria_labelledby="join-title",
             data_testid="join-prompt")


def unreadable_card(state: AppState) -> Markup:
    items = unreadable(state)
    if not items:
        return Markup("")
    rows = []
    for number, item in enumerate(items, start=1):
        confirm = Markup("")
        if state.view.get("forgetting") == item.key:
            confirm = h("div", h("p", "Delete this data for good? Download a copy first if it may matter."),
                        buttons(button("Yes, delete it", "unreadable-remove-confirmed", danger=True),
                                button("Keep it", "unreadable-remove-cancel")),
                        class_="confirm", role="alert")
        rows.append(h("li",
                      h("p", item.problem),
                      h("p", f"{len(item.raw):,} characters, saved as {isolate(shown_key(item.key))}.",
                        class_="hint hint-small"),
                      buttons(button("Download a copy", "unreadable-download", primary=True, data_key=item.key,
                                     aria_label=f"Download a copy of unreadable item {number}"),
                              button("Delete…", "unreadable-remove", danger=True, data_key=item.key,
                                     aria_label=f"Delete unreadable item {number}")),
                      confirm, class_="unreadable-item"))
    return h("section", h("h2", "Saved data that could not be read", class_="screen-title"),
             h("p", "Tableside left it exactly as it was and started without it. Download a copy to keep it "
                    "(someone handy with JSON may repair it, then Import it on the Log screen)."),
             h("ul", *rows, class_="plain-list"),
             class_="card card-warning", role="alert", data_testid="unreadable")


# --- A code or a link from another phone ---------------------------------------------------------------

def join_card(state: AppState) -> Markup:
    scanning = state.view.get("scanning", False)
    return h("section",
             h("h2", "Join from another phone", class_="screen-title"),
             h("p", "Open a session or a roll that another phone shows, or join its live table: scan its QR code "
                    "here, or paste its link or code. (On an iPhone the Camera app would open it in Safari, not in "
                    "this app.)",
               class_="hint"),
             button("Scanning…" if scanning else "Scan a code", "scan-start", primary=True, wide=True,
                    disabled=scanning),
             h("label", h("span", "Or paste a link or code", class_="field-label"),
               h("input", type="url", id="pasted-link", value=state.view.get("pasted", ""), autocomplete="off",
                 autocapitalize="off", spellcheck="false", data_action="link-paste-text",
                 class_="field-input"),
               class_="field", for_="pasted-link"),
             button("Open", "link-paste-open"),
             class_="card join-card")


def scanner_card(state: AppState) -> Markup:
    """The camera's picture while scanning. Its own region, so nothing else redraws it: the camera
    stops once this <video> leaves the page (static/scan.js)."""
    if not state.view.get("scanning"):
        return Markup("")
    return scanner("scanner", "Scan a code", VIDEO, "Point the camera at the QR code on the other phone.",
                   "scan-cancel")


# --- This session -------------------------------------------------------------------------------------

def live_card(state: AppState) -> Markup:
    """The way to a live table (ui.screens.live, reached by its action's name)."""
    player = is_player(state)
    words = ("When the GM's phone shows a live table code, scan it with “Scan a code” above: this phone then "
             "stays in step by itself." if player else
             "Phones on the same Wi-Fi stay in step by themselves: each roll reaches this phone as it is logged and "
             "every change here reaches every phone. Two scans per player, once per evening.")
    label = "Live table" if state.live is not None or player else "Make this table live"
    return h("section", h("h2", "Live table", class_="screen-title"), h("p", words, class_="hint"),
             button(label, "live-open", primary=not player, wide=True, id="live-open"), class_="card")


TOO_LONG_TO_SCAN = ("This session's link is too long for a QR code. Send it with “Share link”, copy it below, "
                    "or export the session to a file (“Export this session to a file”, below).")


def share_card(state: AppState, url: str, too_large: bool) -> Markup:
    """This session's link (`url`) to share; when it is `too_large` for phones of this version to open, the
    file instead: the screen's one "Export this session to a file" button then sits here, with why."""
    if too_large:
        return too_large_card(state, url)
    return h("section",
             h("h2", "Share this session", class_="screen-title"),
             h("p", "Other phones that open this link get the roster, Tension, AP, the Tension Table and the "
                    f"newest {LATEST} log entries; a phone that has this session already merges them in. The whole "
                    "log travels in a file (Export on the Log screen).", class_="hint"),
             button("Share link", "session-share", primary=True, wide=True),
             qr_markup(url, f"QR code of the link to {state.session['name']}", too_long=TOO_LONG_TO_SCAN),
             h("p", "Scan it with another phone's camera.", class_="hint hint-small qr-caption")
             if qr(url) else Markup(""),
             h("label", h("span", "Session link", class_="field-label"),
               h("textarea", url, id="session-link-text", readonly=True, rows="3", class_="field-input link-text",
                 data_testid="session-link"),
               class_="field", for_="session-link-text"),
             h("p", size_words(url), class_="hint hint-small", data_testid="link-size"),
             class_="card share-card")


def too_large_card(state: AppState, url: str) -> Markup:
    """The share card of a session whose link phones of this version would not open: why, and the file
    instead (the link stays below, for a phone with a newer Tableside)."""
    return h("section",
             h("h2", "Share this session", class_="screen-title"),
             h("p", TOO_LARGE_TO_OPEN, class_="side-problem", data_testid="link-too-large"),
             button("Export this session to a file", "log-export", primary=True, wide=True),
             h("label", h("span", "Session link", class_="field-label"),
               h("textarea", url, id="session-link-text", readonly=True, rows="3", class_="field-input link-text",
                 data_testid="session-link"),
               class_="field", for_="session-link-text"),
             h("p", size_words(url), class_="hint hint-small", data_testid="link-size"),
             class_="card share-card")


def check(label: str, setting: str, checked: bool) -> Markup:
    field_id = f"setting-{setting}"
    return h("label", h("input", type="checkbox", id=field_id, checked=checked, data_action="session-setting",
                        data_setting=setting), f" {label}", class_="check", for_=field_id)


def settings_card(state: AppState) -> Markup:
    session = state.session
    players = session["players"]
    tension_hint = ("Tension starts at the number of players." if not any(logged(state).values()) else
                    f"Tension is {session['tension']} now; it started at the number of players.")
    summary = h("p", h("strong", isolate(session["name"])), " · ", setup_words(session), class_="session-summary")
    if not changes_session(state):  # a player's phone reads them: the session's name and settings are the GM's
        return h("section", h("h2", "This session", class_="screen-title"), summary,
                 h("p", f"{players} player{'s' * (players != 1)}. {tension_hint}", class_="hint hint-small",
                   data_testid="players-read"),
                 h("p", "Tension Engine: ", settings_words(session["settings"]), class_="hint hint-small",
                   data_testid="settings-read"),
                 h("p", "The GM changes these on the GM's phone.", class_="hint hint-small"),
                 class_="card")
    return h("section",
             h("h2", "This session", class_="screen-title"),
             rename_form(state, session["id"], session["name"]) if state.view.get("renaming") == session["id"] else
             h("div", summary,
               button("Rename", "session-rename", data_id=session["id"],
                      aria_label=f"Rename {isolate(session['name'])}"),
               class_="row row-wrap session-name-row"),
             h("div",
               h("span", "Players", class_="stepper-label", id="players-label"),
               h("button", "−", type="button", class_="button button-round", data_action="session-players",
                 data_step="-1", aria_label="One player fewer", disabled=players <= 1),
               h("output", str(players), class_="stepper-value", aria_labelledby="players-label",
                 data_testid="players"),
               h("button", "+", type="button", class_="button button-round", data_action="session-players",
                 data_step="1", aria_label="One more player", disabled=players >= 20),
               class_="stepper"),
             h("p", tension_hint, class_="hint hint-small"),
             h("fieldset",
               h("legend", "Tension Engine: the Tension Pool"),
               check("1s feed Tension", "ones_feed_tension", session["settings"]["ones_feed_tension"]),
               check("Tension explodes", "tension_explodes", session["settings"]["tension_explodes"]),
               h("p", TENSION_POOL_WORDS, class_="hint hint-small"),
               class_="settings-group"),
             class_="card")


TENSION_POOL_WORDS = ("Every 1 a character rolls adds 1 Tension; at each multiple of 10 the GM rolls on the "
                      "Tension Table.")


def settings_words(settings: dict) -> str:
    """The Tension Pool's settings in a sentence, for a phone that reads them."""
    ones = "every 1 a character rolls adds 1 Tension" if settings["ones_feed_tension"] else "1s do not feed Tension"
    explodes = ("at each multiple of 10 the GM rolls on the Tension Table" if settings["tension_explodes"]
                else "Tension does not explode")
    return f"{ones}; {explodes}."


# --- Every session on this device ---------------------------------------------------------------------

def rename_form(state: AppState, session_id: str, current: str) -> Markup:
    field_id = f"rename-{session_id}"
    return h("div",
             h("label", h("span", f"New name for “{isolate(current)}”", class_="field-label"),
               h("input", type="text", id=field_id, value=state.view.get("rename_text", current), maxlength="80",
                 autocomplete="off", data_action="session-rename-text", class_="field-input"),
               class_="field", for_=field_id),
             buttons(button("Save name", "session-rename-save", primary=True),
                     button("Cancel", "session-rename-cancel")),
             class_="rename-form")


def session_row(state: AppState, entry: dict) -> Markup:
    is_open = entry["id"] == state.session["id"]
    name = isolate(entry["name"])
    details = f"{SYSTEMS.get(entry['system'], '')} · {entry['roster']} in the roster · {entry['log']} logged"
    if state.view.get("renaming") == entry["id"] and not is_open:  # the open one is renamed beside its name
        return h("li", rename_form(state, entry["id"], entry["name"]), class_="session-row",
                 data_testid="session-row")
    confirm = Markup("")
    if state.view.get("deleting") == entry["id"]:
        confirm = h("div",
                    h("p", f"Delete “{name}” and its log from this phone? This cannot be undone; "
                           "export it first if it may matter."),
                    buttons(button("Yes, delete", "session-delete-confirmed", danger=True),
                            button("Keep it", "session-delete-cancel")),
                    class_="confirm", role="alert")
    open_button = h("span", "Open now", class_="badge badge-open") if is_open else \
        button("Open", "session-open", primary=True, data_id=entry["id"], aria_label=f"Open {name}")
    # The open session's Rename is beside its name, above; on a player's phone the name is the GM's to change.
    rename = Markup("") if is_open or not renames(state, entry["id"], entry.get("gm")) else \
        button("Rename", "session-rename", data_id=entry["id"], aria_label=f"Rename {name}")
    return h("li",
             h("div", h("h3", name, class_="session-row-name"), open_button, class_="session-row-head"),
             h("p", details, class_="hint hint-small"),
             buttons(rename,
                     button("Duplicate", "session-duplicate", data_id=entry["id"], aria_label=f"Duplicate {name}"),
                     button("Delete…", "session-delete", danger=True, data_id=entry["id"],
                            aria_label=f"Delete {name}")),
             confirm,
             class_="session-row", data_testid="session-row", aria_current="true" if is_open else None)


def sessions_card(state: AppState) -> Markup:
    entries = listing(state)
    return h("section",
             h("h2", "Sessions on this phone", class_="screen-title"),
             h("ul", *(session_row(state, entry) for entry in entries), class_="plain-list session-list"),
             buttons(button("Start a new session", "session-new"),
                     h("label", "Import a file",
                       h("input", type="file", id="session-import-file", accept=".json,application/json",
                         class_="visually-hidden", data_action="log-import",
                         aria_label="Import a session file as a new session"),
                       class_="button file-button", for_="session-import-file")),
             class_="card")


# Never "safe": a browser can lose what it keeps (site data cleared, Safari's 7 days,
# a lost phone). Only an exported file is a copy the player holds.
PERSISTENCE_WORDS = {
    "kept": "The browser agreed not to clear Tableside's data when space runs low. Clearing the "
            "browser's site data still deletes it: export a file to keep a copy.",
    "not-kept": "The browser has not agreed to keep this data: it may clear it when space runs low{safari}. "
                "Export a file to keep a copy.",
    "unsupported": "This browser does not say whether it keeps this data. Export a file to keep a copy.",
    "unknown": "Asking the browser whether it will keep the data…",
}
SAFARI_WORDS = ", and Safari clears it after 7 days without a visit unless Tableside is on the Home Screen"
SAFARI_TAB_WORDS = ("Safari deletes a site's data after 7 days without a visit. To keep your sessions, add "
                    "Tableside to the Home Screen (Share, then “Add to Home Screen”) and open it from there.")


# Where the storage card's export button would be when the share card holds it (a link too large to open).
EXPORT_ABOVE = "To keep a copy, use “Export this session to a file” under “Share this session”, above."


def storage_card(state: AppState, exports: bool = True) -> Markup:
    """What this phone keeps; with the export button unless the share card shows it (`exports` False)."""
    if keeps_nothing(state):
        status = h("p", "This browser is not letting Tableside save: sessions last until this page closes. "
                        "Export them to a file to keep them.", class_="side-problem")
    else:
        words = PERSISTENCE_WORDS.get(state.persistence, PERSISTENCE_WORDS["unknown"])
        status = h("p", words.format(safari="" if state.safari_tab else SAFARI_WORDS), data_testid="persistence")
    again = button("Ask the browser again", "storage-persist") if state.persistence == "not-kept" else Markup("")
    safari = h("p", SAFARI_TAB_WORDS, class_="side-problem", data_testid="home-screen") if state.safari_tab \
        else Markup("")
    log_status = Markup("") if keeps_log(state) else h("p", "This browser does not let Tableside keep the log (no "
                                                    "IndexedDB): logged conflicts last until this page closes. "
                                                    "Export the session to keep them.", class_="side-problem")
    backup = h("p", " ".join(backup_words(state)), class_="hint", data_testid="backup")
    export = buttons(button("Export this session to a file", "log-export", primary=backup_due(state))) if exports \
        else h("p", EXPORT_ABOVE, class_="hint hint-small", data_testid="export-above")
    return h("section", h("h2", "Saved on this phone", class_="screen-title"),
             h("p", "Every change is saved in this browser at once; nothing is sent anywhere.", class_="hint"),
             safari, status, log_status, again, backup, export, class_="card")


def about_card() -> Markup:
    return h("section", h("h2", "About", class_="screen-title"),
             h("p", CREDITS, class_="credits"),
             h("p", "Tableside keeps everything on this device. A share link carries a session after the # of "
                    "the address, a part browsers never send to a server.", class_="hint hint-small"),
             class_="card")


def regions(state: AppState) -> list[tuple[str, Markup]]:
    prompt = join_prompt(state)
    if prompt:  # one question at a time: this session's QR code below it would be mistaken for the link's
        return [("session-prompt", prompt), *((region, Markup("")) for region in REST)]
    url = session_url(state)
    too_large = too_large_to_open(url)  # then the share card holds the one export button, with why
    return [
        ("session-prompt", prompt),
        ("session-unreadable", unreadable_card(state)),
        ("session-join", join_card(state)),
        ("session-scanner", scanner_card(state)),
        ("session-live", live_card(state)),
        ("session-share", share_card(state, url, too_large)),
        ("session-settings", settings_card(state)),
        ("session-list", sessions_card(state)),
        ("session-storage", storage_card(state, exports=not too_large)),
        ("session-about", about_card()),
    ]


REST = ("session-unreadable", "session-join", "session-scanner", "session-live", "session-share", "session-settings", "session-list", "session-storage", "session-about")
