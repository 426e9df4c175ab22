"""The Tables screen on a phone: both Manner Cards tables readable at 320 px, the
Tension Table rewritten by the GM (and kept on the screen), and a roll on it; on a player's
phone the lines only, the GM's controls on the GM's phone (issue 30)."""
from __future__ import annotations

import re

from session.links.v1 import encode_session

from test_manners_flows import DESKTOP, PHONE, assert_fits
from test_sessions import both_sizes, nav, party
from test_table_flow import opened


def test_reference_tables_and_the_tension_table(app, screenshot):
    page = app
    page.get_by_role("button", name="Tables").tap()
    tables = page.get_by_test_id("manner-tables")
    tables.wait_for()

    # Both Manner Cards tables, with full names for screen readers and a legend.
    test_table = page.get_by_role("table", name=re.compile("^Test table"))
    confrontation_table = page.get_by_role("table", name=re.compile("^Confrontation table"))
    assert test_table.get_by_role("columnheader", name="Hostility").is_visible()
    assert test_table.get_by_role("rowheader", name="Determination").is_visible()
    assert confrontation_table.get_by_role("columnheader", name="Imagination").is_visible()
    assert test_table.locator("td[data-row=Force][data-column=Hostility]").inner_text().strip() == "Lose"
    assert "Part." in test_table.locator("td[data-row=Force][data-column=Collateral]").inner_text()
    assert "a player who still wins gets a Partial Success" in tables.inner_text()
    screenshot(page, "tables-screen")
    assert_fits(page, 320)
    page.set_viewport_size({"width": 320, "height": 800})
    # At 320 px each table fits inside its card (no table scrolls sideways either).
    for table in (test_table, confrontation_table):
        box, card = table.bounding_box(), tables.bounding_box()
        assert box["x"] >= card["x"] and box["x"] + box["width"] <= card["x"] + card["width"]
    screenshot(page, "tables-screen")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "tables-screen")
    page.set_viewport_size(PHONE)

    # The GM rewrites line 3; it stays after going to another screen and back.
    tension = page.get_by_test_id("tension-table")
    tension.get_by_role("button", name="Edit the lines").tap()
    field = tension.get_by_label("Line 3 (the die shows 3)")
    field.fill("The bridge starts to burn.")
    screenshot(page, "tables-tension-editing")
    tension.get_by_role("button", name="Save the lines").tap()
    page.get_by_text("The Tension Table is saved.").wait_for()
    assert tension.get_by_test_id("tension-line").nth(2).inner_text().endswith("The bridge starts to burn.")
    page.get_by_role("button", name="Conflict").tap()
    page.get_by_role("button", name="Tables").tap()
    assert "The bridge starts to burn." in page.get_by_test_id("tension-line").nth(2).inner_text()

    # An empty line is refused with a message.
    tension.get_by_role("button", name="Edit the lines").tap()
    tension.get_by_label("Line 5 (the die shows 5)").fill("")
    tension.get_by_role("button", name="Save the lines").tap()
    assert page.get_by_role("alert").inner_text().startswith("Line 5 of the Tension Table is empty.")
    tension.get_by_role("button", name="Cancel").tap()

    # Roll on it: a d6 face with a text alternative, the line shown, marked and announced.
    tension.get_by_role("button", name="Roll on the Tension Table").tap()
    rolled = tension.get_by_test_id("tension-rolled")
    rolled.wait_for()
    face = int(rolled.get_by_role("img").get_attribute("aria-label").removeprefix("A d6 showing "))
    line = page.get_by_test_id("tension-line").nth(face - 1)
    assert line.get_attribute("aria-current") == "true"
    line_text = line.locator(".line-text").inner_text()
    assert line_text in rolled.inner_text()
    assert page.locator("#announcer").inner_text() == f"Rolled {face} on the Tension Table: {line_text}"
    screenshot(page, "tables-tension-rolled")
    assert_fits(page, 320)

    # Restore the examples, after a confirmation.
    tension.get_by_role("button", name="Restore the examples…").tap()
    tension.get_by_role("button", name="Yes, restore the examples").tap()
    assert "The bridge starts to burn." not in tension.inner_text()


GM_CONTROLS = ("Roll on the Tension Table", "Edit the lines", "Restore the examples…")


def test_a_players_phone_reads_the_tension_table_the_gms_rolls_and_writes_it(app, site, screenshot):
    page = opened(app, site + "#" + encode_session(party()))
    page.get_by_test_id("role-chooser").get_by_role("button", name="Ash").tap()
    nav(page, "Tables")
    tension = page.get_by_test_id("tension-table")
    tension.wait_for()
    assert tension.get_by_test_id("tension-line").count() == 6
    assert "the GM rolls a d6 on this table, on the GM's phone" in tension.inner_text()
    for name in GM_CONTROLS:
        assert page.get_by_role("button", name=name).count() == 0
    assert tension.get_by_role("button").count() == 0
    both_sizes(page, screenshot, "tables-tension-player", tension)

    page.get_by_role("button", name="Change who holds this phone").tap()
    page.get_by_test_id("role-chooser").get_by_role("button", name="The GM").tap()
    for name in GM_CONTROLS:
        page.get_by_role("button", name=name).wait_for()
    both_sizes(page, screenshot, "tables-tension-gm", tension)
