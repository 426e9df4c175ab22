"""The last table painted before Python is ready (static/regions.js, py/ui/keeping/first_paint.py).

A first phone plays a little and keeps its snapshot; its storage (not its service worker) is
opened in a second context where Python is held back, so what the shell paints on its own can
be looked at, tapped and scrolled before the live app takes the same DOM over."""
import json
import re
import time

import pytest

from conftest import BOOT_TIMEOUT_MS, PHONE, READY, at_desktop_size
from ui.keeping.first_paint import stamp

SNAPSHOT = "tableside.snapshot"
STARTING = "#app[inert]"


def local_storage(storage_state: dict) -> dict:
    [origin] = storage_state["origins"]
    return {item["name"]: item["value"] for item in origin["localStorage"]}


def with_local_storage(storage_state: dict, items: dict) -> dict:
    [origin] = storage_state["origins"]
    return {**storage_state, "origins": [{**origin, "localStorage": [
        {"name": name, "value": value} for name, value in items.items()]}]}


def paints(items: dict) -> bool:
    """The stored snapshot is one static/regions.js paints: each text it was drawn from is stored as
    it was then (its stamp)."""
    snapshot = json.loads(items.get(SNAPSHOT) or "null")
    return snapshot is not None and all(stamp(items.get(key)) == kept for key, kept in snapshot["stamps"])


def played(browser, site, watch) -> dict:
    """A phone that raised Tension to 4 and had the GM roll, then kept its snapshot: its storage."""
    context = browser.new_context(**PHONE)
    watch.attach(context)
    page = context.new_page()
    page.goto(site)
    page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)
    page.get_by_role("button", name="Raise Tension by 1").click()
    page.get_by_role("button", name="Roll 4 dice").click()
    page.get_by_test_id("side-gm").get_by_role("group", name="The GM's dice").wait_for()
    deadline = time.monotonic() + 30
    # Written a second after the last change (ui/shell/paint_keeper.py): one written between the two
    # taps (when the roll came more than a second after the raise) holds the table before the roll,
    # and is rightly not painted. So the storage is taken once it holds a snapshot that paints.
    while not paints(local_storage(storage := context.storage_state())):
        assert time.monotonic() < deadline, "no snapshot of the table as saved was written"
        page.wait_for_timeout(200)
    context.close()
    return storage


def starting(browser, site, storage: dict, watch, path: str = ""):
    """The next start on that phone, with Python held back until `go()` is called."""
    context = browser.new_context(**PHONE, storage_state=storage)
    watch.attach(context)
    page = context.new_page()
    held = []
    page.route("**/*.wasm", lambda route: held.append(route))

    def go():
        for route in held:
            route.continue_()
        page.locator(READY).wait_for(state="attached", timeout=BOOT_TIMEOUT_MS)

    page.goto(site + path)
    return context, page, go


def dice_faces(page, side: str) -> list[str]:
    tray = page.locator(f"[data-testid=side-{side}] [data-testid=tray] .die")
    return [tray.nth(index).get_attribute("aria-label") for index in range(tray.count())]


def test_the_last_table_is_painted_before_python_and_taken_over_in_place(browser, site, watch, screenshot):
    context, page, go = starting(browser, site, played(browser, site, watch), watch)
    page.locator(STARTING).wait_for(state="attached")
    assert page.locator("html").get_attribute("data-app-state") == "loading"
    assert page.get_by_role("status").filter(has_text="Starting…").is_visible()
    assert page.locator("[data-testid=tension]").inner_text() == "4"  # the session's Tension
    painted_dice = dice_faces(page, "gm")
    assert len(painted_dice) == 4 and page.locator("#app .die").first.is_visible()  # the conflict's dice
    assert page.locator("#boot-progress").count() == 0
    screenshot(page, "boot-starting", full_page=False)
    at_desktop_size(page, lambda: screenshot(page, "boot-starting", full_page=False))
    # Mark what was painted: the live app must keep these very elements.
    page.evaluate("""() => { window.paintedBar = document.getElementById('session-bar');
                            window.paintedTray = document.querySelector('[data-testid=side-gm] .tray'); }""")
    boxes = [page.locator(selector).bounding_box() for selector in ("[data-testid=tension]", "[data-testid=side-gm]")]
    go()
    assert page.locator(STARTING).count() == 0 and not page.locator("#boot-starting").is_visible()
    assert page.evaluate("""() => window.paintedBar === document.getElementById('session-bar')
                                  && window.paintedTray === document.querySelector('[data-testid=side-gm] .tray')""")
    assert [page.locator(selector).bounding_box() for selector in ("[data-testid=tension]", "[data-testid=side-gm]")] == boxes
    assert dice_faces(page, "gm") == painted_dice
    screenshot(page, "boot-live", full_page=False)
    at_desktop_size(page, lambda: screenshot(page, "boot-live", full_page=False))
    page.get_by_role("button", name="Raise Tension by 1").click()  # live now
    assert page.get_by_test_id("tension").inner_text() == "5"
    context.close()
    watch.check()


def test_a_tap_before_ready_is_answered_with_starting_and_not_carried_out(browser, site, watch, screenshot):
    context, page, go = starting(browser, site, played(browser, site, watch), watch)
    page.locator(STARTING).wait_for(state="attached")
    raise_tension = page.locator("[data-action=tension-step][data-step='1']").bounding_box()
    page.touchscreen.tap(raise_tension["x"] + raise_tension["width"] / 2, raise_tension["y"] + raise_tension["height"] / 2)
    note = page.locator("#boot-starting")
    assert note.is_visible() and "tap again in a moment" in note.inner_text()
    screenshot(page, "boot-tap-before-ready", full_page=False)
    go()
    page.wait_for_timeout(300)  # anything held back would have happened by now
    assert page.get_by_test_id("tension").inner_text() == "4"  # the early tap did nothing, now or later
    page.get_by_role("button", name="Raise Tension by 1").tap()
    assert page.get_by_test_id("tension").inner_text() == "5"  # once, when tapped on the live table
    context.close()
    watch.check()


def test_the_takeover_keeps_the_scroll_position_and_the_focus(browser, site, watch):
    context, page, go = starting(browser, site, played(browser, site, watch), watch)
    page.locator(STARTING).wait_for(state="attached")
    page.keyboard.press("Tab")  # the skip link: the only thing focusable while the table is inert
    page.mouse.move(195, 500)
    page.mouse.wheel(0, 300)
    page.wait_for_function("scrollY > 100")  # a wheel scrolls a moment later
    page.wait_for_timeout(200)  # and may go on scrolling a little
    scrolled = page.evaluate("scrollY")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    where = page.locator("[data-testid=side-player]").bounding_box()
    go()
    assert page.evaluate("scrollY") == scrolled
    assert page.locator("[data-testid=side-player]").bounding_box() == where
    assert page.evaluate("document.activeElement.className") == "skip-link"
    context.close()
    watch.check()


def test_a_snapshot_older_than_the_saved_session_is_not_painted(browser, site, watch):
    storage = played(browser, site, watch)
    items = local_storage(storage)
    [key] = [name for name in items if name.startswith("tableside.head.")]
    # Saved after the snapshot (another tab, or a crash before the snapshot caught up).
    items[key] = re.sub(r'"saved":"[^"]*"', '"saved":"2099-01-01T00:00:00Z"', items[key], count=1)
    context, page, go = starting(browser, site, with_local_storage(storage, items), watch)
    page.locator("#boot-progress").wait_for()
    assert page.locator(STARTING).count() == 0 and page.get_by_test_id("tension").count() == 0
    go()
    assert page.get_by_test_id("tension").inner_text() == "4"  # what is saved, drawn by Python
    context.close()
    watch.check()


@pytest.mark.parametrize("case", ["another version", "another session", "a link in the address bar"])
def test_a_snapshot_of_another_version_or_session_or_under_a_link_is_not_painted(browser, site, watch, case):
    storage = played(browser, site, watch)
    items = local_storage(storage)
    snapshot = json.loads(items[SNAPSHOT])
    path = ""
    if case == "another version":
        snapshot["version"] = "000000000000"
    elif case == "another session":
        snapshot["session"] = "someone-else"
    else:
        path = "#s1.not-a-real-session"
    items[SNAPSHOT] = json.dumps(snapshot)
    context, page, go = starting(browser, site, with_local_storage(storage, items), watch, path)
    page.locator("#boot-progress").wait_for()
    assert page.locator(STARTING).count() == 0 and page.get_by_test_id("tension").count() == 0
    go()
    context.close()
    watch.check()
