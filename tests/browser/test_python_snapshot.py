"""Python restored from the build's memory snapshot (tools/snapshot.mjs, static/python.mjs).

A first visit starts Python plainly and never downloads the snapshot before it is ready; once
the service worker has it cached (inflated, by sw.js), a start restores it. Two starts from it
roll different dice. A damaged snapshot, or one of another build, in the worker's cache is set
aside: Python starts plainly and the table works. A start from the snapshot that fails later
leaves the next starts plain."""
import json
import re

from conftest import DIST
from offline_helpers import wait_until_controlled, wait_until_ready

RESTORED = "performance.getEntriesByName('tableside-snapshot-restored').length"
ROLL = re.compile(r"^Roll \d+ dic?e")
GM_DICE = "[...document.querySelectorAll('[data-testid=side-gm] [aria-label^=\"Die \"]')].map((die) => die.ariaLabel)"
FELL_BACK = "Python could not start from its snapshot"
# Change what the worker's cache holds for a URL (relative to the page): change(bytes) -> bytes.
CHANGE_CACHED = """async ([url, change]) => {
  const [name] = (await caches.keys()).filter((key) => key.startsWith("tableside-"));
  const cache = await caches.open(name);
  const href = new URL(url, document.baseURI).href;
  const bytes = new Uint8Array(await (await cache.match(href)).arrayBuffer());
  await cache.put(href, new Response(new Function("bytes", change)(bytes)));
}"""
MAIN = "./py/ui/main.py"
SNAPSHOT_URL = "document.querySelector('script[data-snapshot]').dataset.snapshot"


def visited(page, site):
    page.goto(site)
    wait_until_ready(page)
    wait_until_controlled(page)


def restarted(page) -> int:
    """Start again (a reload, answered by the worker); how many times Python was restored."""
    page.reload()
    wait_until_ready(page)
    return page.evaluate(RESTORED)


def roll(page):
    page.get_by_test_id("side-gm").get_by_role("button", name=ROLL).tap()
    page.wait_for_function(f"{GM_DICE}.length > 0")


def test_a_first_visit_starts_python_plainly_then_the_next_start_restores_it(page, site):
    snapshot_requests = []
    page.on("request", lambda request: ".snapshot." in request.url and snapshot_requests.append(request.url))
    page.goto(site)
    wait_until_ready(page)
    assert page.evaluate(RESTORED) == 0 and snapshot_requests == []
    wait_until_controlled(page)
    assert restarted(page) == 1
    roll(page)


def test_two_starts_from_the_same_snapshot_roll_different_dice(page, site):
    visited(page, site)
    for _ in range(7):  # the GM rolls the Tension: 10 dice, 6^10 outcomes
        page.get_by_role("button", name="Raise Tension by 1").tap()
    rolls = []
    for _ in range(2):
        assert restarted(page) == 1
        page.get_by_test_id("side-gm").get_by_role("button", name="Roll 10 dice").tap()
        page.wait_for_function(f"{GM_DICE}.length === 10")
        rolls.append(page.evaluate(GM_DICE))
        page.get_by_role("button", name="New conflict").tap()
        page.get_by_test_id("side-gm").get_by_role("button", name="Roll 10 dice").wait_for()
    assert rolls[0] != rolls[1]


def falls_back_with(page, site, change: str):
    """With the worker's snapshot changed so (JavaScript: bytes -> bytes), Python starts plainly
    and a roll works."""
    visited(page, site)
    page.evaluate(CHANGE_CACHED, [page.evaluate(SNAPSHOT_URL), change])
    warnings = []
    page.on("console", lambda message: message.type == "warning" and warnings.append(message.text))
    assert restarted(page) == 0
    roll(page)
    return warnings


def test_a_damaged_snapshot_falls_back_to_a_plain_start(page, site):
    falls_back_with(page, site, "return bytes.subarray(0, bytes.length - 65536);")  # cut short


def test_a_snapshot_of_another_build_falls_back_to_a_plain_start(page, site):
    # Pyodide's build id follows its magic number and two lengths, on the first page kept (after
    # tools/build.py's header and page numbers): Pyodide refuses the snapshot.
    first = "12 + 4 * new Uint32Array(bytes.buffer, 8, 1)[0]"
    warnings = falls_back_with(page, site, f"bytes.fill(0, {first} + 16, {first} + 48); return bytes;")
    assert any(FELL_BACK in text and "build id" in text for text in warnings), warnings


def test_a_start_from_the_snapshot_that_fails_leaves_the_next_starts_plain(page, site, watch):
    watch.expected_errors += ["simulated failure", "Tableside failed to start"]
    visited(page, site)
    failing = "from ui.shell.boot import mark_failed; mark_failed(RuntimeError('simulated failure'))"
    page.evaluate(CHANGE_CACHED, [MAIN, f"return new TextEncoder().encode({json.dumps(failing)});"])
    page.reload()
    page.locator("html[data-app-state=error]").wait_for(state="attached")
    assert page.evaluate(RESTORED) == 1
    built = (DIST / MAIN).read_text()
    page.evaluate(CHANGE_CACHED, [MAIN, f"return new TextEncoder().encode({json.dumps(built)});"])
    for _ in range(2):
        assert restarted(page) == 0
    roll(page)
