"""History is immutable and verified (issue 23, item 4), in the page: a session link that rewrites
a logged conflict (other dice) or says it changed what its dice did not is refused with a sentence
and changes nothing, the session reloads as it was with its own entry in the Log; a roll link that
carries more than its roll is refused; Undo after that reverses what this phone logged."""
from __future__ import annotations

import copy

import rules
from session.links import v2 as link_v2
from session.links.text import split, unpack
from session.links.v1 import encode_session
from session.log import effects_of
from session.replica_check import check_replica
from conftest import READY, BOOT_TIMEOUT_MS
from test_sessions import glance, log_a_success_with_ap, message, nav, not_now, party, stored_data, stored_head


def session_link_with(head: dict, entry: dict) -> str:
    """A session link of this phone's session (its stored head) whose log holds `entry`."""
    replica = check_replica({key: value for key, value in head.items() if key not in ("logged", "saved", "recount")})
    replica.log = {entry["id"]: entry}
    return link_v2.session_link(replica)


def unpacked(fragment: str) -> dict:
    _, version, data = split(fragment)
    return unpack(data, version, link_v2.PRESET)


def logged_entry(page) -> tuple[dict, str]:
    """The one logged entry, as its "Share roll" link carries it, and that link's fragment."""
    nav(page, "Log")
    page.get_by_role("button", name="Share roll Phone 1").tap()
    fragment = page.get_by_test_id("roll-link").input_value().split("#")[1]
    return link_v2.read(fragment).roll, fragment


def refused(page, site, fragment: str, words: str):
    page.goto(site + "#" + fragment)
    page.locator(".message p", has_text=words).wait_for()


def test_links_that_rewrite_history_change_nothing_even_after_a_reload(page, open_app, site):
    open_app(page, "#" + encode_session(party()))
    not_now(page)
    log_a_success_with_ap(page)
    assert glance(page) == ("5", "Ash 1 AP Brin 3 AP")
    entry, roll_fragment = logged_entry(page)
    session_id = link_v2.read(roll_fragment).replica.id
    head = stored_head(page, session_id)
    before = stored_data(page)

    other_dice = copy.deepcopy(entry)  # the same conflict id, a failure the table never rolled
    record = {key: value for key, value in other_dice["record"].items() if key != "result"}
    record["player"] = {**record["player"], "dice": [2, 2, 2, 1, 1]}
    other_dice["record"] = rules.resolve(record)
    other_dice["effects"] = effects_of(other_dice["record"])
    refused(page, site, session_link_with(head, other_dice),
            "This link changes conflict Phone 1 that is already logged: nothing was changed.")
    assert glance(page) == ("5", "Ash 1 AP Brin 3 AP") and stored_data(page) == before

    brin = next(entry_id for entry_id, item in head["roster"].items() if item["fields"]["name"][0] == "Brin")
    forged_effects = {**copy.deepcopy(entry), "effects": [{"field": "health", "id": brin, "delta": -10}]}
    refused(page, site, session_link_with(head, forged_effects), "is not what its dice did")
    assert glance(page) == ("5", "Ash 1 AP Brin 3 AP") and stored_data(page) == before

    more = unpacked(roll_fragment)  # a roll that also renames the session and removes Brin
    more["p"]["fields"] = {"name": ["Renamed", 99, "a1b2c3d4"]}
    more["p"]["roster"][brin] = {"removed": [99, "a1b2c3d4"]}
    refused(page, site, f"R2.{link_v2.pack(more)}", "a roll link carries its roll and nothing else")
    assert glance(page) == ("5", "Ash 1 AP Brin 3 AP") and stored_data(page) == before

    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    assert glance(page) == ("5", "Ash 1 AP Brin 3 AP")
    nav(page, "Log")
    logged = page.get_by_test_id("log-entry")
    assert logged.count() == 1
    assert "Ash keeps 6, 4 and 3 (1 AP spent): 13 against the GM's 11." in logged.inner_text()

    page.get_by_role("button", name="Undo last").tap()
    page.get_by_role("button", name="Yes, undo it").tap()
    assert glance(page) == ("3", "Ash 2 AP Brin 3 AP")  # this phone's effects reversed, nothing forged
    assert "Brin" in page.locator(".glance-ap").inner_text() and "Tension is back to 3" in message(page)


def test_an_entry_only_in_the_log_store_cannot_be_rewritten(page, open_app, site):
    from session import log_conflict
    from session.links.files import export_text
    from session.replica import Replica

    session = party()  # 30 quick conflicts: more than the page in memory, so after a reload the oldest
    quick = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 3,  # are in IndexedDB only
                           "gm": {"name": "The GM", "total": 4}, "player": {"name": "Quick", "pool": 2, "dice": [5, 4]}})
    for _ in range(30):
        session = log_conflict(session, quick, by="Quick")
    open_app(page)
    nav(page, "Log")
    page.get_by_label("Import a session file (becomes a new session)").set_input_files(files=[{
        "name": "campaign.json", "mimeType": "application/json",
        "buffer": export_text(Replica.from_session(copy.deepcopy(session))).encode()}])
    page.get_by_text("Imported “").wait_for()
    stored_head(page, session["id"])
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    before = stored_data(page)

    theirs = Replica.from_session(copy.deepcopy(session))
    oldest = theirs.log[session["log"][-1]["id"]]
    oldest["record"]["player"]["name"] = "Mallory"  # another roller
    refused(page, site, link_v2.session_link(theirs, entries=[oldest]), "that is already logged: nothing was changed")
    assert stored_data(page) == before
