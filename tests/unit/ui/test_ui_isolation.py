"""Cross-cutting, every screen of every system (drawn through ui.router) and ui.kit.html's
isolates: text people wrote never reorders the app's own words. Every name, kind, skill,
descriptor, table line and file name on every screen of every system is drawn inside a
<bdi> of its own (ui.kit.html, from rules.words.isolate); where no element can go (labels,
<option> text, the announcer) its direction controls are dropped. Checked by playing a
conflict in each system with every user-written field starting with a right-to-left
override, then reading all the markup."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from session import check_roster_entry, Library, MemoryLog, MemoryStore, new_session
from session.links.files import export_text
from session.links.v1 import encode_roll, encode_session
from session.replica import Replica
from ui import router
from ui.arrivals import links
from ui.core.library import listing
from ui.core.state import AppState
from ui.kit.html import flat, h, isolate, text
from ui.screens.frame import actions as frame_actions  # noqa: F401
from ui.screens.log import actions as log_actions  # noqa: F401
from ui.screens.roster import actions as roster_actions  # noqa: F401
from ui.screens.session import actions as sessions_actions  # noqa: F401
from ui.screens.tables import actions as tables_actions  # noqa: F401
from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401  (importing registers actions)
from ui.systems.manners import actions as manners_actions  # noqa: F401
from ui.systems.tension import actions as tension_actions  # noqa: F401

from tapping import tap

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: everything after it, to the end of its paragraph, reversed
LABELS = {"aria-label", "title", "alt", "placeholder"}
VOID = {"area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"}


WRITTEN: set[str] = set()  # every string "someone wrote" in these tests


def evil(word: str) -> str:
    WRITTEN.add(RLO + word)
    return RLO + word


class Reader(HTMLParser):
    """Every way text carrying an override can escape its isolation in one page of markup."""

    def __init__(self, written: set[str]):
        super().__init__(convert_charrefs=True)
        self.written = written
        self.stack: list[str] = []
        self.isolates: list[list[str]] = []  # the text of each open <bdi>
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in LABELS and value and RLO in value:
                self.problems.append(f"{name} of <{tag}> keeps an override: {value!r}")
        if tag in VOID:
            return
        if tag == "tspan" and dict(attrs).get("class") == "isolate":
            tag = "bdi"  # SVG text holds no <bdi>: ui.kit.charts isolates a name in a tspan (unicode-bidi: isolate)
        self.stack.append(tag)
        if tag == "bdi":
            self.isolates.append([])

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag == "tspan" and self.stack and self.stack[-1] == "bdi":
            tag = "bdi"
        if tag in VOID or tag not in self.stack:
            return
        while self.stack:
            closed = self.stack.pop()
            if closed == "bdi":
                content = "".join(self.isolates.pop())
                if RLO in content and content not in self.written:
                    self.problems.append(f"a <bdi> holds the app's words with a name: {content!r}")
            if closed == tag:
                break

    def handle_data(self, data):
        for isolate_text in self.isolates:
            isolate_text.append(data)
        if RLO not in data:
            return
        if "option" in self.stack or "textarea" in self.stack:
            self.problems.append(f"<{self.stack[-1]}> text keeps an override: {data!r}")
        elif "bdi" not in self.stack:
            self.problems.append(f"text outside any <bdi>: {data!r} in <{'><'.join(self.stack[-3:])}>")


def problems(markup: str, written: set[str] = WRITTEN) -> list[str]:
    reader = Reader(written)
    reader.feed(markup)
    reader.close()
    return reader.problems


def page(state: AppState) -> str:
    return "".join(markup for _, markup in router.page(state))


def roster() -> list[dict]:
    entries = [
        {"system": "tension", "kind": "character", "name": evil("Ash"), "ap": 3, "health": 10, "willpower": 10,
         "attributes": [{"name": evil("Agility"), "rating": 3}], "skills": [{"name": evil("Climb"), "rating": 2}]},
        {"system": "tension", "kind": "adversary", "name": evil("Ghoul"), "power": 4, "health": 8,
         "traits": [{"name": evil("Claws"), "rating": 2}]},
        {"system": "anomaly", "kind": "character", "name": evil("Rook"),
         "modifiers": [{"name": evil("Sword"), "kind": evil("Blades"), "value": 2, "stacks": False}]},
        {"system": "anomaly", "kind": "adversary", "name": evil("Vex"), "modifiers": []},
        {"system": "manners", "kind": "character", "name": evil("Wren"),
         "manners": {"Determination": 1, "Force": 3, "Speed": 2, "Precision": 2, "Imagination": 1},
         "skills": [{"name": evil("Rope"), "rating": 2}], "descriptors": [{"name": evil("Strong"), "on": "Force"}]},
        {"system": "manners", "kind": "character", "name": evil("Bo"),
         "manners": {"Force": 1}, "skills": [{"name": evil("Rope"), "rating": 1}], "descriptors": []},
        {"system": "manners", "kind": "adversary", "name": evil("Moth"), "manners": {"Force": 2}, "skills": [],
         "descriptors": []},
    ]
    return [check_roster_entry(entry) for entry in entries]


def hostile_table() -> AppState:
    session = new_session(evil("Friday"))
    session["roster"] = roster()
    session["tension_table"] = [evil(f"Line {number}") for number in range(1, 7)]
    library = Library(MemoryStore(), MemoryLog(), clock=lambda: "2025-06-01T20:14:05+02:00")
    replica = Replica.from_session(session)
    library.save(replica)
    return AppState(session=replica.session(), replica=replica, device="d1", library=library,
                    base_url="http://localhost/", odds_ready={"tension", "anomaly", "manners"})


def every_screen(state: AppState) -> list[str]:
    pages = []
    for screen in ("conflict", "roster", "log", "tables", "session"):
        state.screen = screen
        pages.append(page(state))
    state.screen = "conflict"
    return pages


def entry_id(state: AppState, name: str) -> str:
    return next(entry["id"] for entry in state.session["roster"] if entry["name"] == evil(name))


def play_tension(state: AppState) -> list[str]:
    pages = every_screen(state)
    tap(state, "tension-who", side="player", value=entry_id(state, "Ash"))
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-kind", value="opposed")  # dice on the table: set aside in the log
    pages += every_screen(state)
    tap(state, "tension-kind", value="environment")
    for side, faces in (("gm", [6, 4, 2]), ("player", [6, 5, 3, 1, 1])):
        tap(state, "tension-mode", side=side, value="real")
        for face in faces:
            tap(state, "tension-add-face", side=side, face=face)
    pages.append(page(state))
    tap(state, "tension-add-face", side="player", face=2)  # one too many: a message naming Ash
    pages.append(page(state))
    tap(state, "tension-log")
    pages += every_screen(state)
    tap(state, "tension-new")
    tap(state, "tension-kind", value="opposed")
    tap(state, "tension-combat", checked=True)
    tap(state, "tension-who", side="initiator-0", value=entry_id(state, "Ghoul"))
    tap(state, "tension-who", side="defender", value=entry_id(state, "Ash"))
    tap(state, "tension-roll", side="initiator-0")
    pages.append(page(state))
    tap(state, "tension-roll", side="defender")
    pages.append(page(state))
    tap(state, "tension-log")
    pages += every_screen(state)
    tap(state, "tension-new")
    tap(state, "tension-mode", side="defender", value="total")
    tap(state, "tension-total", side="defender", value=9)  # too soon: a message naming the initiator
    pages.append(page(state))
    tap(state, "tension-roll", side="initiator-0")
    tap(state, "tension-total", side="defender", value=9)
    pages.append(page(state))
    tap(state, "tension-log")
    return pages + every_screen(state)


def play_anomaly(state: AppState) -> list[str]:
    tap(state, "switch-system", system="anomaly")
    pages = every_screen(state)
    tap(state, "anomaly-who", side="actor", value=entry_id(state, "Rook"))
    tap(state, "anomaly-difficulty", value=9)
    tap(state, "anomaly-roll", side="actor")
    tap(state, "anomaly-kind", value="opposed")  # dice on the table: set aside in the log
    tap(state, "anomaly-who", side="defender", value=entry_id(state, "Vex"))
    tap(state, "anomaly-adding", side="actor")
    tap(state, "anomaly-new-kind", side="actor", value="")  # another kind: typed
    tap(state, "anomaly-new-other", side="actor", value=evil("Blades"))
    tap(state, "anomaly-new-name", side="actor", value=evil("Dagger"))
    tap(state, "anomaly-new-value", side="actor", step=1)
    tap(state, "anomaly-add-modifier", side="actor")  # the same kind as the Sword: one is left out
    pages.append(page(state))
    for side in ("actor", "defender"):
        tap(state, "anomaly-roll", side=side)
    pages.append(page(state))
    tap(state, "anomaly-log")
    return pages + every_screen(state)


def play_manners(state: AppState) -> list[str]:
    tap(state, "switch-system", system="manners")
    pages = every_screen(state)
    tap(state, "manners-kind", value="confrontation")
    tap(state, "manners-who", side="player", value=entry_id(state, "Wren"))
    tap(state, "manners-who", side="opponent", value=entry_id(state, "Moth"))
    tap(state, "manners-skill", side="player", value=evil("Rope"))
    tap(state, "manners-helper", side="player", id=entry_id(state, "Bo"))
    pages.append(page(state))
    tap(state, "manners-manner", side="player", value="Imagination")
    tap(state, "manners-lock", side="player")
    pages.append(page(state))
    tap(state, "manners-manner", side="opponent", value="Force")
    tap(state, "manners-lock", side="opponent")
    tap(state, "manners-reveal")
    pages.append(page(state))
    tap(state, "manners-log")
    return pages + every_screen(state)


def the_rest(state: AppState) -> list[str]:
    """Screens and messages around sessions: editing a sheet, undo, a shared roll, the session
    list, a join prompt, renaming, an import."""
    pages = []
    state.screen = "roster"
    tap(state, "roster-edit", id=entry_id(state, "Ash"))
    tap(state, "roster-delete")
    pages.append(page(state))
    tap(state, "roster-save")
    pages.append(page(state))
    state.screen = "log"
    tap(state, "log-undo")
    pages.append(page(state))
    tap(state, "log-undo-confirmed")
    pages.append(page(state))
    tap(state, "log-share", id=state.session["log"][0]["id"])
    pages.append(page(state))
    fragment = encode_roll(state.session["log"][0]["record"], by=evil("Ash"), session_name=evil("Friday"))
    links.open_link(state, fragment)
    pages.append(page(state))
    tap(state, "roll-close")
    state.screen = "session"
    tap(state, "session-duplicate", id=state.session["id"])
    pages.append(page(state))
    tap(state, "session-delete", id=state.session["id"])
    pages.append(page(state))
    tap(state, "session-delete-cancel")
    tap(state, "session-rename", id=state.session["id"])
    pages.append(page(state))
    tap(state, "session-rename-save")
    pages.append(page(state))
    other = {**new_session(evil("Saturday")), "roster": roster()[:1]}
    links.open_link(state, encode_session(other))  # a join prompt
    pages.append(page(state))
    text_of_file = export_text(state.replica)
    tap(state, "log-import-text", value=text_of_file, name=evil("friday.json"))
    pages.append(page(state))
    tap(state, "log-import-text", value="{", name=evil("broken.json"))
    pages.append(page(state))
    return pages


@pytest.mark.parametrize("play", [play_tension, play_anomaly, play_manners, the_rest])
def test_every_user_written_string_is_isolated_wherever_it_is_drawn(play):
    state = hostile_table()
    if play is the_rest:
        for warm_up in (play_tension, play_anomaly, play_manners):
            warm_up(state)
    pages = play(state)
    assert all(RLO in markup for markup in pages)
    names = WRITTEN | {entry["name"] for entry in listing(state)}  # with "(copy)", "(imported)" added
    found = [problem for markup in pages for problem in problems(markup, names)]
    assert found == []
    assert state.message is None or RLO not in flat(state.message.text)


def test_the_reader_catches_a_name_left_bare():
    name = evil("Ash")
    assert problems(h("p", f"{name} saved.")) != []
    assert problems(h("p", isolate(f"{name} saved."))) != []  # the app's words inside the isolate
    assert problems(h("button", "Edit", aria_label=f"Edit {name}")) == []  # labels lose the override
    assert problems(h("p", f"{isolate(name)} saved.")) == []


def test_isolates_become_bdi_and_stray_marks_never_break_the_markup():
    assert text(f"Opened “{isolate('Ash')}”.") == "Opened “<bdi>Ash</bdi>”."
    assert text(isolate("a\u2069<b>\u2068")) == "<bdi>a&lt;b&gt;</bdi>"  # its own marks are dropped
    assert text("\u2069x\u2068y") == "x<bdi>y</bdi>"  # a stray end mark goes, an open one is closed
    assert h("option", f"{evil('Ghoul')} (adversary)", value="1") == '<option value="1">Ghoul (adversary)</option>'
    assert flat(f"{isolate(evil('Ash'))} rolls") == "Ash rolls"
