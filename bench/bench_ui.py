"""How fast the table answers a tap, measured in the page (make bench-ui).

Serves dist/ like Netlify, opens it in Debian's Chromium, and times in the
page, from a click to the DOM holding the answer (Python handler, render,
patch and a forced style/layout), 100 times each:
  - roll:   tap "Roll N dice" for the player once the GM has rolled (result shown);
  - odds:   tap the player's "Dice: one more / one less" (pool 2..15, odds recomputed);
  - no-op:  tap the screen already shown: the baseline cost of any tap (dispatch + full render diff);
  - page hidden right after the roll: the snapshot of the last table written at once (the cost of
    keeping it; otherwise it is written a second after the last change, never during a tap).
Every repeat starts a new conflict (the last one's dice go in the log as set aside) and the
GM rolls, untimed; then the three taps are timed in turn, so they share the session and the load.
Reports p50/p95 in ms and their ratios to the no-op's p50/p95, with and without a
4x CPU throttle (a mid-range phone), beside the goal. Then, in a separate pass (so the
wrappers it needs do not touch the figures above), where a roll's time goes: in
tableside.patch (morphdom, blur and focus), in focus() alone (it forces the style and layout of
the new DOM), the forced layout after the click, and the rest (Python: the handler, the render,
saving). Numbers only; nothing here is a test.
With --no-pictures, the app is also measured with its pictures left out (every <svg> taken out of
each patch before it reaches the page: the same Python, the same page, no SVG to style, lay out and
paint), in the same run, so the pictures' cost is a difference of medians from one run (issue 32).
Usage: .venv/bin/python bench/bench_ui.py [--dist FOLDER] [--baseline FOLDER] (e.g. main's dist/)
       [--no-pictures] [--throttles 4] [--repeats N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, READY  # noqa: E402
from serve import make_server  # noqa: E402

REPEATS = 100

TIME_CLICK = """(selector) => {
  const element = document.querySelector(selector);
  const start = performance.now();
  element.click();
  document.body.offsetHeight;  // style and layout of the new DOM
  return performance.now() - start;
}"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def click(page, selector):
    page.evaluate("(selector) => document.querySelector(selector).click()", selector)


def timed(page, selector) -> float:
    return page.evaluate(TIME_CLICK, selector)


NOOP = '[data-action=show-screen][data-screen=conflict]'  # the screen already shown
GM_ROLL = '[data-testid=side-gm] [data-action=tension-roll]'
PLAYER = '[data-testid=side-player]'


def next_conflict(page):
    """A fresh conflict with the GM's dice on the table (the player rolls next). The player's dice
    of the last one go in the log as set aside, as at a real table."""
    if page.locator('[data-action=tension-new]').count():
        click(page, '[data-action=tension-new]')
    click(page, GM_ROLL)


SNAPSHOT = "tableside.snapshot"
LEFT = "page hidden: snapshot"
# The page is left right after a tap: what the app does then (py/ui/shell/paint_keeper.py writes the
# last table's snapshot at once, as a change is pending), synchronously, as dispatched.
TIME_LEAVE = """() => {
  const start = performance.now();
  dispatchEvent(new Event("pagehide"));
  return performance.now() - start;
}"""


SPLIT_REPEATS = 30
# Wrappers for the breakdown pass: time spent in static/regions.js's patch and in focus().
SPLIT_SETUP = """() => {
  window.benchSplit = {patch: 0, focus: 0};
  const patch = window.tableside.patch;
  window.tableside.patch = (text) => {
    const start = performance.now();
    try { return patch(text); } finally { benchSplit.patch += performance.now() - start; }
  };
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (...options) {
    const start = performance.now();
    try { return focus.apply(this, options); } finally { benchSplit.focus += performance.now() - start; }
  };
}"""
TIME_SPLIT = """(selector) => {
  benchSplit.patch = benchSplit.focus = 0;
  const element = document.querySelector(selector);
  const start = performance.now();
  element.click();
  const clicked = performance.now();
  document.body.offsetHeight;
  const end = performance.now();
  return {total: end - start, patch: benchSplit.patch, focus: benchSplit.focus, layout: end - clicked};
}"""


def breakdown(page) -> dict:
    """Medians of where a roll's time goes (ms): Python, morph (patch without focus), focus, forced layout."""
    page.evaluate(SPLIT_SETUP)
    rows = []
    for _ in range(SPLIT_REPEATS):
        next_conflict(page)
        rows.append(page.evaluate(TIME_SPLIT, f'{PLAYER} [data-action=tension-roll]'))
    parts = {"python": [row["total"] - row["patch"] - row["layout"] for row in rows],
             "patch but focus": [row["patch"] - row["focus"] for row in rows],
             "focus()": [row["focus"] for row in rows], "layout after": [row["layout"] for row in rows]}
    return {name: statistics.median(values) for name, values in parts.items()}


def measure(page, repeats: int = REPEATS) -> dict:
    """Each measure in turn at every repeat, so the no-op baseline sees the same session (its log
    grows by one set-aside entry per repeat) and the same machine load as the taps it is compared to."""
    times = {"no-op (baseline)": [], "roll -> result": [], "pool -> odds": [], LEFT: []}
    step = "1"
    for _ in range(repeats):
        next_conflict(page)
        pool = int(page.locator('[id$="player-pool"]').inner_text())  # tension-player-pool (player-pool before)
        step = "-1" if pool >= 15 else "1" if pool <= 2 else step
        times["pool -> odds"].append(timed(page, f'{PLAYER} [data-action=tension-pool][data-step="{step}"]'))
        assert page.locator("[data-testid=odds]").count() == 1
        times["no-op (baseline)"].append(timed(page, NOOP))
        times["roll -> result"].append(timed(page, f'{PLAYER} [data-action=tension-roll]'))
        assert page.locator("[data-testid=result] [data-testid=outcome]").count() == 1
        times[LEFT].append(page.evaluate(TIME_LEAVE))
    if page.evaluate(f"localStorage.getItem('{SNAPSHOT}')") is None:  # a build without the snapshot
        del times[LEFT]
    return times


# The page without its pictures: each patch's markup loses its <svg>s (an SVG holds no other svg)
# before morphdom sees it. A regular expression over the request's text, so the page does no more
# work than that to leave them out.
NO_PICTURES = r"""() => {
  const patch = window.tableside.patch;
  window.tableside.patch = (text) => patch(text.replace(/<svg\b[\s\S]*?<\/svg>/g, ""));
  window.tableside.patch(JSON.stringify({order: null, changed: [...document.querySelectorAll("#app > .region")]
    .map((region) => [region.id, region.innerHTML])}));
}"""


def run(browser, url, throttle: float, pictures: bool = True, repeats: int = REPEATS) -> dict:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(url)
    page.locator(READY).wait_for(state="attached", timeout=60_000)
    page.get_by_test_id("odds").wait_for(timeout=60_000)  # icepool loaded
    if not pictures:
        page.evaluate(NO_PICTURES)
        assert page.locator("#app svg.chart").count() == 0
    if throttle > 1:
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    results = measure(page, repeats)
    results["snapshot_chars"] = page.evaluate(f"(localStorage.getItem('{SNAPSHOT}') || '').length")
    results["breakdown"] = breakdown(page)
    context.close()
    return results


GOAL = 2.0  # roll -> result and pool -> odds within 2x the no-op tap at 4x CPU, p50 and p95 (issue 14)


def print_rows(build: str, throttle: int, results: dict):
    chars = results.pop("snapshot_chars")
    parts = results.pop("breakdown")
    base50 = statistics.median(results["no-op (baseline)"])
    base95 = percentile(results["no-op (baseline)"], 0.95)
    for name, times in results.items():
        p50, p95 = statistics.median(times), percentile(times, 0.95)
        goal = ""
        if throttle == 4 and name in ("roll -> result", "pool -> odds"):
            met = p50 / base50 <= GOAL and p95 / base95 <= GOAL
            goal = f"<= {GOAL:g}x: {'met' if met else 'NOT met'}"
        print(f"{build:<9}{name:<22}{throttle:>4}x{p50:>9.1f}{p95:>9.1f}{p50 / base50:>11.2f}{p95 / base95:>11.2f}  {goal}",
              flush=True)
    if chars:
        print(f"{build:<9}{'snapshot size':<22}{'':>5}{chars / 1000:>8.1f}K chars (UTF-16 in localStorage)", flush=True)
    print(f"{build:<9}{'roll, p50 of parts':<22}{throttle:>4}x  " + ", ".join(f"{name} {ms:.1f}" for name, ms in parts.items()),
          flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="the built app (default: dist/)")
    parser.add_argument("--baseline", type=Path, help="another build, measured in the same run after each throttle")
    parser.add_argument("--no-pictures", action="store_true",
                        help="also measure the app with its SVG pictures left out, in the same run")
    parser.add_argument("--throttles", default="1,4", help="CPU throttles, in order (default 1,4)")
    parser.add_argument("--repeats", type=int, default=REPEATS, help=f"taps of each kind (default {REPEATS})")
    arguments = parser.parse_args()
    builds = {"app": arguments.dist, **({"baseline": arguments.baseline} if arguments.baseline else {})}
    servers = {}
    for name, folder in builds.items():
        servers[name] = make_server(folder, 0)
        threading.Thread(target=servers[name].serve_forever, daemon=True).start()
    runs = [(name, name, True) for name in servers]
    if arguments.no_pictures:
        runs.insert(1, ("no pics", "app", False))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"{'build':<9}{'measure':<22}{'CPU':>5}{'p50 ms':>9}{'p95 ms':>9}{'p50/no-op':>11}{'p95/no-op':>11}  goal")
        for throttle in (float(value) for value in arguments.throttles.split(",")):
            for name, served, pictures in runs:
                url = f"http://localhost:{servers[served].server_address[1]}/"
                print_rows(name, int(throttle), run(browser, url, throttle, pictures, arguments.repeats))
        browser.close()
    for server in servers.values():
        server.shutdown()


if __name__ == "__main__":
    main()
