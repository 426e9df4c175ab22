"""A session too large to travel on a live table (issue 30): the GM's phone, whose session grew past what
phones of this version open, says so when a phone joins, sends no session and keeps it as it is, and the
joining phone is told why nothing comes; a message too large for this version (as a newer Tableside might
send) is said as too large on the phone that gets it, naming the phone that sent it once, never as
"damaged". The sizes come from the limits themselves (session.links.text, test_backups.too_large_to_share),
never copied. Run only inside a private network namespace, by test_live_table.py."""
from __future__ import annotations

import json

import netns

netns.require_isolated()  # before anything opens a page: outside, Chromium would reach the real network

from inside_live_table import AGREE_MS, join, live_message, playwright_instance, table  # noqa: E402,F401
from session.links.files import export_text  # noqa: E402
from session.links.text import MAX_FRAGMENT  # noqa: E402
from session.live import protocol as live_protocol  # noqa: E402
from test_backups import too_large_to_share  # noqa: E402
from test_sessions import both_sizes, nav  # noqa: E402
from ui.core.live_table import GMS_SESSION_TOO_LARGE, TOO_LARGE_TO_SEND  # noqa: E402


def test_a_message_too_large_for_this_phone_is_said_as_too_large(table, screenshot):
    gm, (ash,) = table(names=("Ash",))
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    join(gm, ash)
    oversized = json.dumps({"live": live_protocol.VERSION, "k": "link", "link": "S2." + "A" * MAX_FRAGMENT})
    assert len(oversized) <= live_protocol.MAX_MESSAGE  # what live.js carries, past what a link may be
    assert ash.page.evaluate("(text) => tableside.live.send('gm', text)", oversized)
    said = live_protocol.naming(live_protocol.TOO_LARGE, "Ash's phone")  # the sender named once, in the sentence
    assert said.startswith("A message from Ash's phone is larger than this version of Tableside opens")
    live_message(gm, said)
    shown = gm.page.locator(".message").inner_text()
    assert "damaged" not in shown and "other phone" not in shown and shown.count("Ash") == 1
    both_sizes(gm.page, screenshot, "live-message-too-large", gm.page.locator(".message"))


def test_a_session_too_large_to_send_is_said_on_the_gms_phone_and_kept(table, screenshot):
    gm, (ash,) = table(names=("Ash",))
    nav(gm.page, "Log")
    gm.page.get_by_label("Import a session file (becomes a new session)").set_input_files(files=[{
        "name": "campaign.json", "mimeType": "application/json", "buffer": export_text(too_large_to_share()).encode()}])
    gm.page.get_by_text("Imported “A long campaign").wait_for(timeout=AGREE_MS)
    nav(gm.page, "Session")
    gm.button("Make this table live", "setup")
    gm.tap(gm.page.locator("#live-connect"), "setup")
    ash.browser.show(gm.code("live-offer"))
    nav(ash.page, "Session")
    ash.button("Scan a code", "setup")
    gm.browser.show(ash.code("live-player"))
    gm.tap(gm.page.locator("#live-scan"), "setup")
    live_message(gm, TOO_LARGE_TO_SEND)
    both_sizes(gm.page, screenshot, "live-too-large-to-send", gm.page.locator(".message"))
    live_message(ash, GMS_SESSION_TOO_LARGE)  # Ash's phone is told, not left waiting in silence
    both_sizes(ash.page, screenshot, "live-gms-session-too-large", ash.page.locator(".message"))
    ash.page.locator(".message").get_by_role("button", name="Dismiss").tap()
    kept = ash.page.get_by_test_id("live-unsent")  # dismissed, still said on the Live table screen
    assert kept.inner_text() == GMS_SESSION_TOO_LARGE and ash.page.locator(".message").count() == 0
    both_sizes(ash.page, screenshot, "live-gms-session-too-large-card", ash.page.get_by_test_id("live-player"))
    assert ash.page.get_by_test_id("role-chooser").count() == 0  # nothing half-joined on Ash's phone
    assert "damaged" not in ash.page.locator("body").inner_text()
    nav(gm.page, "Session")
    assert "A long campaign · Tension Engine · 60 characters" in gm.page.locator("body").inner_text()
