"""Links at the limits never leave a session the next start refuses (issue 23, items 1, 2, 3):
crafted links of each failure class opened in the page, the page reloaded, and the session still
there with its data (never "New session", never "damaged"); a refused link said why."""
from __future__ import annotations

import copy
import itertools
import json

from session import check_roster_entry, log_conflict, new_session
from session.links import v2 as link_v2
from session.replica import EDIT_CLOCK, MAX_STEPS, Replica
from conftest import PHONE, READY, BOOT_TIMEOUT_MS
from test_sessions import message, not_now, party, stored

import rules

PHONES = [f"{number:08x}" for number in range(1, 66)]


def link(site: str, replica: Replica) -> str:
    return site + "#" + link_v2.session_link(replica)


LATER = itertools.count(1_000)  # each link's writes later than the one before


def changed(replica: Replica, **fields) -> Replica:
    """A copy of `replica` with these session fields written by another phone, after the last."""
    twin = Replica.from_dict(copy.deepcopy(replica.to_dict()))
    for key, value in fields.items():
        twin.clock = next(LATER)
        twin.fields[key] = [value, twin.clock, "ff"]
    return twin


def anomaly_sheet(entry: dict, clock: int) -> dict:
    """A roster entry sent again as an Anomaly sheet: valid in a link alone, but merged with the
    Tension Engine sheet this phone has, a sheet of both systems."""
    return {"added": entry["added"], "removed": None, "counts": {},
            "fields": {"name": [entry["fields"]["name"][0], clock, "ff"], "system": ["anomaly", clock, "ff"],
                       "kind": ["character", clock, "ff"], "modifiers": [[], clock, "ff"]}}


def reloaded(page, name: str):
    """Start again: the session loads with its data, and nothing says it was damaged."""
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    body = page.locator("body").inner_text()
    assert name in body and "New session" not in body, body[:400]
    assert "damaged" not in body and "could not be read" not in body, body[:400]


def this_phone(page) -> str:
    return stored(page)["tableside.device"]


def test_links_past_the_limits_are_refused_and_the_session_loads_after_a_restart(page, open_app, site):
    start = Replica.from_session(party("Limits night"))
    open_app(page, "#" + link_v2.session_link(start))
    assert "Joined “Limits night”" in message(page)
    not_now(page)
    page.get_by_role("button", name="Raise Tension by 1").tap()
    page.get_by_test_id("tension").filter(has_text="4").wait_for()
    device = this_phone(page)

    def update(replica: Replica, expect: str = "Nothing this phone had is lost"):
        page.goto(link(site, replica))
        button = page.get_by_role("button", name="Update mine from the link")
        button.or_(page.locator(".message p")).first.wait_for()
        if button.count():
            button.tap()
        page.locator(".message p").filter(has_text=expect).wait_for()
        if page.get_by_test_id("role-chooser").count():  # a link of the session asks again who holds it
            not_now(page)

    # Two links, each with 64 phones' counts: the second's union would have 65.
    first = changed(start, name="Crowded")
    # With "" and this phone's: 64. Each moved Tension (a count that adds up to nothing, of a phone this one does
    # not know, takes no room: session.inert); together they leave it as it was.
    first.tension.update({phone: [number % 2, 1 - number % 2] for number, phone in enumerate(PHONES[:62])})
    update(first)
    second = changed(start, name="Overflowing")
    second.tension.update({phone: [number % 2, 1 - number % 2] for number, phone in enumerate(PHONES[1:63])})
    update(second, "This link can't be merged: the session would have counts from more than 64 phones.")
    reloaded(page, "Crowded")

    # A character re-sent as another system's sheet.
    other = changed(start, name="Switched")
    ash = next(key for key, entry in other.roster.items() if entry["fields"]["name"][0] == "Ash")
    other.roster[ash] = anomaly_sheet(other.roster[ash], other.clock)  # valid alone
    update(other, "Tension Engine sheet into an Anomaly sheet.")
    reloaded(page, "Crowded")

    # A count at its cap (this phone's own raises, come back in a link), then an ordinary tap.
    full = changed(start, name="Capped")
    full.tension[device] = [MAX_STEPS, MAX_STEPS - 1]  # as many up as it may have: Tension stays 4
    update(full)
    page.get_by_role("button", name="Raise Tension by 1").tap()
    page.locator(".message p").filter(
        has_text="Tension can't be changed again on this phone in this session: its count is full.").wait_for()
    reloaded(page, "Capped")

    # A clock as far ahead as a link may be and leave this phone its edits, then an edit here: it wins, and
    # the session loads.
    ahead = changed(start)  # last: no later link of this session leaves room below its clock
    ahead.clock = EDIT_CLOCK
    ahead.fields["name"] = ["Far ahead", ahead.clock, "ffffffffffffffff"]
    update(ahead)
    page.get_by_role("button", name="Lower Tension by 1").tap()
    page.get_by_test_id("tension").filter(has_text="3").wait_for()
    reloaded(page, "Far ahead")
    assert page.get_by_test_id("tension").inner_text() == "3"
    head = json.loads(stored(page)[f"tableside.head.{start.id}"])
    assert head["tension"][device] == [MAX_STEPS, MAX_STEPS] and head["clock"] == EDIT_CLOCK


def test_a_session_with_more_than_a_hundred_undos_is_shared_and_loads_after_a_restart(page, open_app, site):
    session = new_session("Long haul", players=3)
    session["roster"] = [check_roster_entry({"system": "tension", "kind": "character", "name": "Ash", "ap": 3,
                                             "health": 10, "willpower": 10})]
    record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 3,
                            "gm": {"name": "The GM", "total": 4},
                            "player": {"name": "Ash", "pool": 2, "dice": [5, 4]}})
    for _ in range(130):
        session = log_conflict(session, record, by="Ash")
    replica = Replica.from_session(session)
    before = replica.session()
    replica.absorb(before, {**before, "log": before["log"][120:]}, "a1")  # 120 undone, one by one or at once
    assert len(replica.undone) == 120
    open_app(page, "#" + link_v2.session_link(replica))
    assert "Joined “Long haul”" in message(page)
    not_now(page)
    reloaded(page, "Long haul")
    head = json.loads(stored(page)[f"tableside.head.{replica.id}"])
    assert len(head["undone"]) == link_v2.MAX_MARKS and head["logged"]["conflict"] == 10
