"""Sessions and values the unit tests share: hypothesis strategies for random sessions
and JSON, and a fixed party of five with one logged conflict."""
import re

from hypothesis import strategies as st

import rules
from session import check_roster_entry, check_session, log_conflict, new_session, SCHEMA_VERSION, SYSTEMS
from session.model import visible


def normalized(text: str) -> str:
    return " ".join(text.split())


def names(limit: int = 60, allow_empty: bool = False):
    """Text as a check keeps it: spaces normalised; a required name shows something, an
    optional one shows something or is empty."""
    text = st.text(st.characters(codec="utf-8"), max_size=limit).map(normalized)
    return text.filter(lambda name: visible(name) or (allow_empty and name == ""))


ids = st.text("0123456789abcdef", min_size=12, max_size=12)
ratings = st.integers(0, 40)
points = st.integers(0, 99)
# A sheet names each Attribute, Skill or Trait once (check_session refuses repeats).
rated = st.lists(st.fixed_dictionaries({"name": names(), "rating": ratings}), max_size=8,
                 unique_by=lambda item: item["name"].casefold())


def tension_entry(kind):
    if kind == "character":
        return st.fixed_dictionaries({"attributes": rated, "skills": rated, "ap": points, "health": points,
                                      "willpower": points})
    return st.fixed_dictionaries({"power": ratings, "traits": rated, "health": points})


def anomaly_entry(kind):
    modifier = st.fixed_dictionaries({"name": names(allow_empty=True), "kind": names(30), "value": st.integers(-99, 99),
                                      "stacks": st.booleans()})
    return st.fixed_dictionaries({"modifiers": st.lists(modifier, max_size=6)})


def manners_entry(kind):
    descriptor = st.fixed_dictionaries({"name": names(), "on": names()})
    return st.fixed_dictionaries({"manners": st.fixed_dictionaries({manner: ratings for manner in rules.MANNERS}),
                                  "skills": rated, "descriptors": st.lists(descriptor, max_size=5)})


SHEETS = {"tension": tension_entry, "anomaly": anomaly_entry, "manners": manners_entry}


@st.composite
def roster_entries(draw):
    system = draw(st.sampled_from(sorted(SHEETS)))
    kind = draw(st.sampled_from(["character", "adversary"]))
    sheet = draw(SHEETS[system](kind))
    return check_roster_entry({"id": draw(ids), "system": system, "kind": kind, "name": draw(names()),
                                        **sheet})


table_lines = st.text(st.characters(codec="utf-8"), min_size=1, max_size=200).map(str.strip).filter(bool)


@st.composite
def random_sessions(draw, max_roster: int = 8):
    players = draw(st.integers(1, 20))
    data = {
        "v": SCHEMA_VERSION, "id": draw(ids), "name": draw(names(80)),
        "system": draw(st.sampled_from(sorted(SYSTEMS))), "players": players,
        "tension": draw(st.integers(0, 99)),
        "settings": {"ones_feed_tension": draw(st.booleans()), "tension_explodes": draw(st.booleans())},
        "tension_table": draw(st.one_of(st.just(list(rules.DEFAULT_TENSION_TABLE)),
                                        st.lists(table_lines, min_size=6, max_size=6))),
        "roster": draw(st.lists(roster_entries(), max_size=max_roster, unique_by=lambda entry: entry["id"])),
        "log": [],
    }
    return check_session(data)


def party_of_five() -> dict:
    """Five Tension Engine characters with full sheets: three Attributes, five Skills each,
    AP, Health and Willpower; a GM-written Tension Table is measured separately."""
    session = new_session("Friday at Kim's", players=5)
    party = [("Ash Varga", ["Climb", "Stealth", "Lockpicking", "Athletics", "Survival"]),
             ("Brin Olsen", ["Persuade", "Deceive", "Insight", "Etiquette", "Streetwise"]),
             ("Cato Reyes", ["Firearms", "Brawl", "Intimidate", "Drive", "Tactics"]),
             ("Dell Marsh", ["Medicine", "Science", "Investigate", "Computers", "Occult"]),
             ("Eve Kowal", ["Melee", "Perception", "Animal Handling", "Navigate", "Repair"])]
    for number, (name, skills) in enumerate(party):
        session["roster"].append(check_roster_entry({
            "system": "tension", "kind": "character", "name": name, "ap": 3, "health": 10, "willpower": 8 + number,
            "attributes": [{"name": attribute, "rating": 2 + (number + offset) % 3}
                           for offset, attribute in enumerate(["Might", "Agility", "Wits"])],
            "skills": [{"name": skill, "rating": 1 + (number + offset) % 3} for offset, skill in enumerate(skills)]}))
    return session


def party() -> dict:
    """A Tension Engine session with sheets of every system on its roster: Ash (character) and a
    Ghoul (adversary) in the Tension Engine, Rook in Anomaly, Wren and Bryn in Manner Cards."""
    session = new_session("Friday", system="tension")
    session["roster"] = [
        check_roster_entry({"system": "tension", "kind": "character", "name": "Ash", "ap": 3, "health": 10,
                            "attributes": [{"name": "Agility", "rating": 3}],
                            "skills": [{"name": "Climb", "rating": 2}]}),
        check_roster_entry({"system": "tension", "kind": "adversary", "name": "Ghoul", "power": 5,
                            "health": 10, "traits": []}),
        check_roster_entry({"system": "anomaly", "kind": "character", "name": "Rook",
                            "modifiers": [{"name": "Sword", "kind": "Gear", "value": 2}]}),
        check_roster_entry({"system": "manners", "kind": "character", "name": "Wren",
                            "manners": {"Force": 3}, "skills": [{"name": "Climb", "rating": 2}]}),
        check_roster_entry({"system": "manners", "kind": "character", "name": "Bryn",
                            "manners": {}, "skills": [{"name": "Climb", "rating": 1}]}),
    ]
    return session


def campaign(count: int) -> dict:
    """The party of five with `count` quick conflicts logged: a campaign-sized session."""
    session = party_of_five()
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 3,
                            "gm": {"name": "The GM", "total": 4}, "player": {"name": "Quick", "pool": 2, "dice": [5, 4]}})
    for _ in range(count):
        session = log_conflict(session, record, by="Quick")
    return session


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=8) | st.dictionaries(st.text(max_size=5), children, max_size=8),
    max_leaves=40)


AT = "2025-06-01T20:14:05+02:00"


def logged_party(**numbered) -> dict:
    """The party of five with Ash's roll logged; `numbered`: its number and phone (log_conflict)."""
    party = party_of_five()
    ash = party["roster"][0]
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 5,
                            "gm": {"name": "The GM", "dice": [6, 5, 2, 1, 1]},
                            "player": {"name": ash["name"], "id": ash["id"], "side": "character", "pool": 5,
                                       "dice": [6, 4, 3, 1, 1], "keep": [0, 1, 2], "ap": 1}})
    return log_conflict(party, record, at=AT, by=ash["name"], **numbered)


def seen(text: str) -> str:
    """Text or markup as a player reads it: names stand apart from the app's words (isolates,
    <bdi>), which this leaves out so that tests can compare the words."""
    return re.sub("</?bdi>|[\u2068\u2069]", "", text)


def plain(session: dict) -> dict:
    """A session without the stamps a replica adds to log entries (clock, device)."""
    return {**session, "log": [{key: value for key, value in entry.items() if key not in ("clock", "device")}
                               for entry in session["log"]]}


def replica_of(session: dict):
    """A version-1 session as this version keeps it."""
    from session.replica import Replica

    return Replica.from_session(session)
