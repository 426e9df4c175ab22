"""A campaign-sized session: what a tap costs as the log grows (make bench-campaign).

Serves dist/ like Netlify and opens it in Debian's Chromium (390x844). For each size
(0, 20, 300, 1,000, 5,000 and 20,000 logged conflicts) a fresh browser profile gets a
Tension Engine session (five characters) whose log holds that many resolved conflicts,
written by the app itself: a script added to the page (it shares the app's
interpreter) makes the session file with the app's own rules and session code and
imports it through the app's Import action, so it is stored in whatever format this
build stores sessions. Then, with the CPU at 1x and at 4x (CDP
Emulation.setCPUThrottlingRate), it times in the page, from a click to the DOM holding
the answer (handler, render, patch and a forced style/layout):

  - tension: tap "Raise Tension by 1";
  - roll:    tap the player's Roll once the GM has rolled;
  - log:     tap "Log this result";
  - open log: tap "Log" in the bottom navigation;
  - start-up: reload, from navigation start to html[data-app-state=ready];

medians of RUNS runs (STARTS for start-up), each with its ratio to the same measure at 0
entries in the same run (opening the Log: to 20 entries, its first page, when measured: at 0
it draws no entry at all), and the bytes stored (localStorage: characters of keys and
values; IndexedDB: navigator.storage.estimate()'s usageDetails). A size the browser
cannot store is reported as such. Every size has its page open at once, the rounds go round
the sizes in turn, only the page being measured is throttled, and every size rolls the same
dice, so a size measured late does not meet a busier machine, or other outcomes, than the
0-entry baseline it is divided by. The same script measured main before issue 15 and
the app after it. Numbers only; nothing here is a test.

Usage: bench/bench_campaign.py [sizes...] (default: all six)
"""
from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "browser")]
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, READY  # noqa: E402
from serve import make_server  # noqa: E402
from bench_ui import click, timed  # noqa: E402  (a tap timed the same way in both benches)

SIZES = (0, 20, 300, 1_000, 5_000, 20_000)
ONE_PAGE = "20"  # the Log's first page: opening the Log draws as much as at any longer log
THROTTLES = (1, 4)
RUNS = 20
STARTS = 5
TENSION = 6  # brought back here before each roll, so the GM rolls as many dice at every size
SEED_TIMEOUT_MS = 900_000
RESULTS = ROOT / "bench" / "results" / "bench_campaign.json"

# Runs before the page's own scripts: when the app became ready.
READY_PROBE = """(() => {
  window.__readyAt = null;
  new MutationObserver(() => {
    if (window.__readyAt === null && document.documentElement.dataset.appState === "ready") {
      window.__readyAt = performance.now();
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-app-state"] });
})();"""

# The session, made in the page with the app's own code and imported as a player would import
# a file. Its conflicts are real records (rules.resolve, seeded dice), 40 different ones repeated;
# re-checking them on import (rules.verify, about 3 ms each in the page) is skipped: they were
# resolved a moment ago by the same rules.
SEED = """
import asyncio, json
from datetime import datetime, timedelta
from pyscript import document
import rules
from session import check_roster_entry, log_conflict, new_session
try:  # registers the Import action (screens load their actions on first use)
    import ui.screens.log.actions
except ImportError:  # a build from before py/ui was grouped into screens/ and systems/
    import ui.log.actions
from ui.core.actions import Input, dispatch
from ui.shell import app as shell

def campaign(size):
    party = new_session("Campaign", players=5)
    party["tension"] = %(tension)d
    for number, name in enumerate(["Ash Varga", "Brin Olsen", "Cato Reyes", "Dell Marsh", "Eve Kowal"]):
        party["roster"].append(check_roster_entry({
            "system": "tension", "kind": "character", "name": name, "ap": 0, "health": 10, "willpower": 8,
            "attributes": [{"name": attribute, "rating": 2 + (number + offset) %% 3}
                           for offset, attribute in enumerate(["Might", "Agility", "Wits"])],
            "skills": [{"name": skill, "rating": 1 + offset %% 3}
                       for offset, skill in enumerate(["Climb", "Stealth", "Persuade", "Brawl", "Medicine"])]}))
    entries = []
    for number in range(40):
        hero = party["roster"][number %% 5]
        record = rules.resolve({"v": 1, "system": "tension", "kind": "environment", "tension": 5 + number %% 20,
                                "gm": {"name": "The GM"},
                                "player": {"name": hero["name"], "id": hero["id"], "side": "character",
                                           "pool": 3 + number %% 4, "ap": 0}},
                               source=rules.SeededSource(number))
        entries.append(log_conflict({**party, "log": []}, record, by=hero["name"])["log"][0])
    start = datetime(2025, 1, 3, 19, 0).astimezone()
    party["log"] = [{**entries[number %% 40], "id": "%%012x" %% (number + 1),
                     "at": (start + timedelta(minutes=10 * number)).isoformat(timespec="seconds")}
                    for number in reversed(range(size))]
    return party

async def seed(size):
    state = shell.APP.state
    # At 0 entries too: the same party, so the ratios compare log lengths, not rosters.
    checks = rules.verify, rules.verify_dice
    rules.verify = rules.verify_dice = lambda record: []
    try:
        # A version-1 export file (what main's Export writes): every build since imports it.
        text = json.dumps({"format": "tableside-session", "v": 1, "exported": "", "session": campaign(size)})
        assert dispatch(state, "log-import-text", Input(data={"name": "campaign.json"}, value=text))
    finally:
        rules.verify, rules.verify_dice = checks
    shell.APP.refresh()
    settled = getattr(__import__("ui.shell.storage", fromlist=["settled"]), "settled", None)
    if settled is not None:  # a build that writes the log in the background: wait for it
        await settled(state)
    message = state.message.text if state.message else ""
    document.documentElement.dataset.seeded = json.dumps({"message": message, "logged": len(state.session["log"])})

async def seed_or_say(size):
    try:
        await seed(size)
    except Exception as error:  # said in the report, not waited for
        document.documentElement.dataset.seeded = json.dumps({"message": f"seeding failed: {error!r}", "logged": 0})

asyncio.ensure_future(seed_or_say(%(size)d))
"""
# The same dice at every size (the outcome shapes the result drawn, and so a roll's time):
# the app's dice source, replaced in the page by one seeded alike for every size.
SAME_DICE = """
import random
import rules.dice
from pyscript import document

dice = random.Random(%(seed)d)
rules.dice.SecretsSource.randint = lambda self, low, high: dice.randint(low, high)
document.documentElement.dataset.sameDice = "%(seed)d"
"""
ADD_SCRIPT = """(code) => {
    const script = document.createElement("script");
    script.type = "py";
    script.textContent = code;
    document.body.append(script);
}"""

STORED = """async () => {
  let local = 0;
  for (let index = 0; index < localStorage.length; index++) {
    const key = localStorage.key(index);
    local += key.length + localStorage.getItem(key).length;
  }
  const estimate = navigator.storage && navigator.storage.estimate ? await navigator.storage.estimate() : {};
  return { local, indexedDB: (estimate.usageDetails || {}).indexedDB || 0 };
}"""

GM_ROLL = "[data-testid=side-gm] [data-action=tension-roll]"
PLAYER_ROLL = "[data-testid=side-player] [data-action=tension-roll]"
LOG = "[data-action=tension-log]"
NEW = "[data-action=tension-new]"
RAISE = '[data-action=tension-step][data-step="1"]'
LOWER = '[data-action=tension-step][data-step="-1"]'
OPEN_LOG = "[data-action=show-screen][data-screen=log]"
CONFLICT = "[data-action=show-screen][data-screen=conflict]"


def tension(page) -> int:
    return int(page.locator("[data-testid=tension]").inner_text())


def settle_tension(page):
    while tension(page) > TENSION:
        click(page, LOWER)
    while tension(page) < TENSION:
        click(page, RAISE)


def seed(page, size: int) -> dict:
    page.evaluate(ADD_SCRIPT, SEED % {"size": size, "tension": TENSION})
    page.locator("html[data-seeded]").wait_for(state="attached", timeout=SEED_TIMEOUT_MS)
    return json.loads(page.evaluate("document.documentElement.dataset.seeded"))


def start_up(page) -> float:
    page.reload()
    page.locator(READY).wait_for(state="attached", timeout=120_000)
    return page.evaluate("window.__readyAt")


def round_of_taps(page, times: dict):
    """GM rolls, player rolls (timed), log (timed), new conflict, Tension +1 (timed), open the
    Log (timed) and back."""
    settle_tension(page)
    if page.locator(NEW).count():
        click(page, NEW)
    click(page, GM_ROLL)
    times["roll"].append(timed(page, PLAYER_ROLL))
    times["log"].append(timed(page, LOG))
    assert page.locator("[data-testid=result]").inner_text().startswith("Result (logged)")
    click(page, NEW)
    times["tension"].append(timed(page, RAISE))
    times["open log"].append(timed(page, OPEN_LOG))
    assert page.locator("[data-testid=log-entry]").count() > 0
    click(page, CONFLICT)
    page.wait_for_timeout(50)  # background saving, as between real taps


def seeded_page(browser, url: str, size: int):
    """A page of its own profile holding a session of `size` entries, started once since
    (that first start, with the service worker taking control, is not counted)."""
    context = browser.new_context(**PHONE)
    context.add_init_script(script=READY_PROBE)
    page = context.new_page()
    page.goto(url)
    page.locator(READY).wait_for(state="attached", timeout=120_000)
    started = time.monotonic()
    seeded = seed(page, size)
    result = {"seed_s": round(time.monotonic() - started, 1), "seeded": seeded}
    if seeded["message"] and "Imported" not in seeded["message"]:
        result["refused"] = seeded["message"]
        context.close()
        return None, result
    start_up(page)
    return page, result


def measure(pages: dict, results: dict):
    """Every measure at each throttle, round-robin over the sizes. Only the page being measured
    is throttled: a throttled page costs CPU even when idle, and would load the others."""
    devtools = {size: page.context.new_cdp_session(page) for size, page in pages.items()}

    def throttled(size, throttle, work):
        devtools[size].send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        try:
            return work()
        finally:
            devtools[size].send("Emulation.setCPUThrottlingRate", {"rate": 1})

    for throttle in THROTTLES:
        times = {size: {"start-up": [], "tension": [], "roll": [], "log": [], "open log": []} for size in pages}
        for _ in range(STARTS):
            for size, page in pages.items():
                times[size]["start-up"].append(throttled(size, throttle, lambda: start_up(page)))
        for size, page in pages.items():
            page.evaluate(ADD_SCRIPT, SAME_DICE % {"seed": throttle})
            page.locator(f"html[data-same-dice='{throttle}']").wait_for(state="attached")
            click(page, CONFLICT)
        for _ in range(RUNS):
            for size, page in pages.items():
                throttled(size, throttle, lambda: round_of_taps(page, times[size]))
        for size in pages:
            results[size][f"{throttle}x"] = times[size]
        print(f"measured at {throttle}x", flush=True)
    for size, page in pages.items():
        results[size]["stored"] = page.evaluate(STORED)


def report(results: dict):
    measures = ("tension", "roll", "log", "open log", "start-up")
    print(f"\n{'logged':>7} {'stored MB':>18}  " + "  ".join(f"{name + ' ' + cpu:>17}" for cpu in ("1x", "4x")
                                                    for name in measures))
    base = results.get("0", {})
    for size, result in results.items():
        if "refused" in result:
            print(f"{int(size):>7,}  not stored: {result['refused']}")
            continue
        stored = result["stored"]
        cells = []
        for cpu in ("1x", "4x"):
            for name in measures:
                median = statistics.median(result[cpu][name])
                against = results.get(ONE_PAGE, base) if name == "open log" and size != ONE_PAGE else base
                zero = statistics.median(against[cpu][name]) if cpu in against else None
                ratio = f" ({median / zero:.2f}x)" if zero else ""
                cells.append(f"{median:>8.1f} ms{ratio:>8}")
        print(f"{int(size):>7,} {stored['local'] / 1e6:>7.2f} LS {stored['indexedDB'] / 1e6:>6.2f} IDB  "
              + "  ".join(cells))
    if ONE_PAGE in results:
        print(f"(open log: ratios to {ONE_PAGE} entries, the Log's first page; the rest to 0 entries)")


def main():
    sizes = [int(size) for size in sys.argv[1:]] or list(SIZES)
    if 0 not in sizes:
        sizes.insert(0, 0)  # the ratios need the empty session of the same run
    server = make_server(ROOT / "dist", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://localhost:{server.server_address[1]}/"
    results, pages = {}, {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size in sizes:
            page, results[str(size)] = seeded_page(browser, url, size)
            if page is not None:
                pages[str(size)] = page
            print(f"{size:,} logged: seeded in {results[str(size)]['seed_s']} s", flush=True)
        measure(pages, results)
        browser.close()
    server.shutdown()
    report(results)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
