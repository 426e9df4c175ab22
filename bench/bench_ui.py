"""How fast the table answers a tap, measured in the page (make bench-ui).

Serves dist/ like Netlify, opens it in Debian's Chromium, and times in the
page, from a click to the DOM holding the answer (Python handler, render,
patch and a forced style/layout), 100 times each:
  - roll:   tap "Roll 5 dice" for the player once the GM has rolled (result shown);
  - odds:   tap the player's "Dice: one more / one less" (pool 2..15, odds recomputed);
  - no-op:  tap the screen already shown: the baseline cost of any tap (dispatch + full render diff).
Reports p50/p95 in ms and the ratio to the no-op baseline, with and without a
4x CPU throttle (a mid-range phone). Numbers only; nothing here is a test.
"""
from __future__ import annotations

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


def measure_roll(page) -> list[float]:
    click(page, '[data-testid=side-gm] [data-action=tension-roll]')
    times = []
    for _ in range(REPEATS):
        click(page, '[data-testid=side-player] [data-action=tension-mode][data-value=roll]')  # clears the dice
        times.append(timed(page, '[data-testid=side-player] [data-action=tension-roll]'))
        assert page.locator("[data-testid=result] [data-testid=outcome]").count() == 1
    return times


def measure_odds(page) -> list[float]:
    times, step = [], "1"
    click(page, '[data-testid=side-player] [data-action=tension-mode][data-value=roll]')
    for _ in range(REPEATS):
        pool = int(page.locator("#player-pool").inner_text())
        if pool >= 15:
            step = "-1"
        elif pool <= 2:
            step = "1"
        times.append(timed(page, f'[data-testid=side-player] [data-action=tension-pool][data-step="{step}"]'))
    return times


def measure_noop(page) -> list[float]:
    """Tapping the screen already shown: dispatch and a full render that changes nothing."""
    return [timed(page, '[data-action=show-screen][data-screen=conflict]') for _ in range(REPEATS)]


def run(browser, url, throttle: float) -> dict:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(url)
    page.locator(READY).wait_for(state="attached", timeout=60_000)
    page.get_by_test_id("odds").wait_for(timeout=60_000)  # icepool loaded
    if throttle > 1:
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    results = {"no-op (baseline)": measure_noop(page), "roll -> result": measure_roll(page),
               "pool -> odds": measure_odds(page)}
    context.close()
    return results


def main():
    server = make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://localhost:{server.server_address[1]}/"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"{'measure':<22}{'CPU':>5}{'p50 ms':>9}{'p95 ms':>9}{'p50 / no-op':>13}")
        for throttle in (1, 4):
            results = run(browser, url, throttle)
            baseline = statistics.median(results["no-op (baseline)"])
            for name, times in results.items():
                p50, p95 = statistics.median(times), percentile(times, 0.95)
                print(f"{name:<22}{throttle:>4}x{p50:>9.1f}{p95:>9.1f}{p50 / baseline:>13.2f}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
