"""Boot benchmark: the built app against a stock PyScript + Pyodide "hello" page.

The stock page is made from the same npm files (TOML config, the stdlib as
shipped, no service worker, no preloads) and served by the same local server
with netlify.toml's headers. In one run, in Debian's Chromium, each page is:
  - opened once in a fresh persistent profile (first visit: bytes on the wire),
  - booted RUNS more times warm, without and with a 4x CPU throttle,
  - opened PHONE_RUNS times, each in another fresh profile, under a phone
    profile (4x CPU, 150 ms round trip, 12 Mbit/s down).
Reported: medians of time to ready (html[data-app-state=ready]) and of the
longest main-thread task before it, bytes served (compressed), and ratios.
For the app also the time to the player's own table visible: after its first visit the
profile has played a little (Tension raised, the GM's dice rolled), so a warm start shows
that session's Tension and dice; the time is when the first frame that drew them was presented
(Element Timing; painted from the snapshot by static/regions.js, or drawn by Python at ready),
beside the page's first contentful paint (a floor: nothing can be seen sooner).
With --baseline FOLDER (another build, e.g. main's dist/), that build is measured in the
same runs, taking turns with the others, so before and after compare under the same load.

Then "Python ready" phase by phase in Chromium, WebKitGTK (Safari's engine, which keeps no
compiled wasm between launches) and Firefox ESR, through the browser tests' drivers
(tests/browser/engines.py), read from the page's own performance marks: page and PyScript load,
wasm fetch, compile, snapshot read, instantiate, interpreter start, PyScript set-up, our imports,
first render (bench/boot_phases.py). The app, the stock page (its PyScript steps marked the same
way) and a --baseline build take turns, RUNS warm starts each (a new tab on a visited profile);
medians, and the ratios WebKit/Chromium and Firefox/Chromium (goals: 2 and 1.5).
Then the app alone in WebKitGTK and Firefox ESR: ENGINE_RUNS first visits, each in a fresh
profile (bytes to ready and with the precache), and the own table of each build, warm. No CPU
throttle or network profile there.
Our code and packages are counted as served (goal: 400 KB); Python's memory snapshot apart.

Usage: .venv/bin/python bench/bench_boot.py [--dist FOLDER] [--baseline FOLDER]
(make bench-boot builds dist/ first)
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import boot_phases  # noqa: E402  (bench/, beside this script)
from boot_phases import round_order, settle  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from engines import EnginePage, RefusingProxy, VirtualDisplay, start_firefox, start_webkit  # noqa: E402
from serve import make_server  # noqa: E402
from served_size import OWN_CODE_BUDGET, own_code_bytes, snapshot_bytes  # noqa: E402
from startup_modules import startup_modules  # noqa: E402

DIST = ROOT / "dist"
STOCK = ROOT / "build" / "bench-stock"
RESULTS = ROOT / "bench" / "results" / "bench_boot.json"
RUNS = 5
ENGINE_RUNS = 3
PHONE_RUNS = 3  # a first visit on the phone profile varies by a second or more: take a median
THROTTLE = 4
PHONE_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 12e6 / 8,
                 "uploadThroughput": 4e6 / 8}
READY = "html[data-app-state=ready]"
TIMEOUT_MS = 180_000
GOALS = {"warm_throttled": 0.35, "phone_first_visit": 0.6, "own_code_kb": OWN_CODE_BUDGET / 1000, "table_throttled_s": 0.3}

# Runs before the page's own scripts: when it became ready, when the player's own table
# (the session's Tension and the conflict's dice) was first painted, and every long task.
# The paint is timed by Element Timing: the Tension number is marked the moment the table is in
# the page, before any frame, and the browser reports when the frame that drew it was presented
# (a task queued after that frame would also count whatever work the page queued first).
PROBE = """(() => {
  const bench = (window.__bench = { readyAt: null, tableAt: null, tasks: [] });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.identifier === "own-table" && bench.tableAt === null) bench.tableAt = entry.renderTime || entry.loadTime;
    }
  }).observe({ type: "element", buffered: true });
  let marked = false;
  new MutationObserver(() => {
    if (bench.readyAt === null && document.documentElement.dataset.appState === "ready") {
      bench.readyAt = performance.now();
    }
    const tension = document.querySelector("#app [data-testid=tension]");
    if (tension && document.querySelector("#app .tray .die") && !marked) {
      marked = true;
      tension.setAttribute("elementtiming", "own-table");
    }
  }).observe(document, { attributes: true, childList: true, subtree: true });
})();"""

PLAY = """() => {
  document.querySelector("[data-action=tension-step][data-step='1']").click();
  document.querySelector("[data-testid=side-gm] [data-action=tension-roll]").click();
}"""

WAIT_UNTIL_CONTROLLED = """async () => {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
}"""

STOCK_INDEX = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>hello</title>
  <link rel="stylesheet" href="./vendor/pyscript/core.css">
  <script src="./marks.js"></script>
  <script type="module" src="./vendor/pyscript/core.js"></script>
</head>
<body>
  <script type="py" config="./pyscript.toml">
from pyscript import document, window
document.body.append("Hello from Python")
document.documentElement.dataset.appState = "ready"
window.performance.mark("tableside-ready")
  </script>
</body>
</html>
"""


def make_stock_page() -> None:
    """The stock page: PyScript and Pyodide copied as npm ships them."""
    shutil.rmtree(STOCK, ignore_errors=True)
    pyodide, pyscript = STOCK / "vendor" / "pyodide", STOCK / "vendor" / "pyscript"
    shutil.copytree(ROOT / "node_modules" / "@pyscript" / "core" / "dist", pyscript,
                    ignore=shutil.ignore_patterns("*.map"))
    pyodide.mkdir(parents=True)
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"):
        shutil.copy2(ROOT / "node_modules" / "pyodide" / name, pyodide / name)
    (STOCK / "index.html").write_text(STOCK_INDEX)
    # PyScript's steps marked as static/boot.js marks them in the app, for bench/boot_phases.py.
    (STOCK / "marks.js").write_text('addEventListener("py:progress", ({ detail }) => performance.mark(`py:${detail}`));\n')
    (STOCK / "pyscript.toml").write_text('interpreter = "./vendor/pyodide/pyodide.mjs"\n')


class ByteCounter:
    """Bytes a server writes (headers and compressed bodies): what went over the wire."""

    def __init__(self):
        self.total = 0
        self.lock = threading.Lock()

    def add(self, count: int):
        with self.lock:
            self.total += count


def counting_server(root: Path, counter: ByteCounter):
    server = make_server(root, 0)
    base = server.RequestHandlerClass

    class Writer:
        def __init__(self, raw):
            self.raw = raw

        def write(self, data):
            counter.add(len(data))
            return self.raw.write(data)

        def __getattr__(self, name):  # flush, closed, …
            return getattr(self.raw, name)

    class Counting(base):
        def setup(self):
            super().setup()
            self.wfile = Writer(self.wfile)

    server.RequestHandlerClass = Counting
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://localhost:{server.server_address[1]}/"


def boot(context, url: str, throttle: float = 1, network: dict | None = None, counter=None):
    """Open url in a new tab: seconds to ready, the longest task (ms) before it, and
    the bytes served until then when given the server's counter."""
    page = context.new_page()
    devtools = context.new_cdp_session(page)
    devtools.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    if network:
        devtools.send("Network.enable")
        devtools.send("Network.emulateNetworkConditions", network)
    page.goto(url, timeout=TIMEOUT_MS)
    page.locator(READY).wait_for(state="attached", timeout=TIMEOUT_MS)
    served = counter.total if counter else None
    page.wait_for_timeout(300)  # long-task entries arrive after their task ends
    probe = page.evaluate("window.__bench")
    fcp_ms = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    tasks = [duration for start, duration in probe["tasks"] if start < probe["readyAt"]]
    result = {"ready_s": probe["readyAt"] / 1000, "longest_task_ms": max(tasks, default=0.0),
              "bytes": served, "table_s": None if probe["tableAt"] is None else probe["tableAt"] / 1000,
              "fcp_s": None if fcp_ms is None else fcp_ms / 1000}
    devtools.detach()
    return result, page


def open_profile(playwright, folder: Path):
    context = playwright.chromium.launch_persistent_context(
        folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE)
    context.add_init_script(script=PROBE)
    return context


def first_visit(playwright, folder: Path, url: str, counter: ByteCounter, has_worker: bool):
    """A fresh profile's first visit: bytes served until ready, then until precached; the app
    then plays a little, so later starts open to a table of its own."""
    context = open_profile(playwright, folder)
    counter.total = 0
    run, page = boot(context, url, counter=counter)
    if has_worker:
        page.evaluate(WAIT_UNTIL_CONTROLLED)
        page.evaluate(PLAY)
        time.sleep(1.5)  # the snapshot is written a moment after the last change
    page.close()
    return context, {"first_visit_bytes": run["bytes"], "first_visit_bytes_with_precache": counter.total}


def measure(playwright, targets: dict, counter: ByteCounter) -> dict:
    """targets: name -> (url, has a service worker). The pages take turns at every
    boot, each going first in turn and each after the machine is idle, so a change in
    the machine's load hits all alike."""
    results, contexts = {}, {}
    with tempfile.TemporaryDirectory() as profiles:
        for name, (url, has_worker) in targets.items():
            contexts[name], results[name] = first_visit(playwright, Path(profiles) / name, url, counter,
                                                        has_worker)
        for key, throttle in (("warm", 1), ("warm_throttled", THROTTLE)):
            print(f"  {RUNS} warm boots of each page at {throttle:g}x CPU", flush=True)
            runs = {name: [] for name in targets}
            for round_index in range(RUNS):
                for name in round_order(list(targets), round_index):
                    settle()
                    run, page = boot(contexts[name], targets[name][0], throttle)
                    page.close()
                    runs[name].append(run)
            for name, mine in runs.items():
                results[name][key] = {"ready_s": statistics.median(r["ready_s"] for r in mine),
                                      "longest_task_ms": statistics.median(r["longest_task_ms"] for r in mine),
                                      "runs": mine}
                for field in ("table_s", "fcp_s"):
                    if all(r[field] is not None for r in mine):
                        results[name][key][field] = statistics.median(r[field] for r in mine)
        for context in contexts.values():
            context.close()
        print(f"  {PHONE_RUNS} first visits of each page on the phone profile", flush=True)
        runs = {name: [] for name in targets}
        for attempt in range(PHONE_RUNS):
            for name in round_order(list(targets), attempt):
                url = targets[name][0]
                settle()
                context = open_profile(playwright, Path(profiles) / f"{name}-phone-{attempt}")
                run, _ = boot(context, url, THROTTLE, PHONE_NETWORK)
                runs[name].append(run)
                context.close()
        for name, mine in runs.items():
            results[name]["phone_first_visit"] = {
                "ready_s": statistics.median(r["ready_s"] for r in mine),
                "longest_task_ms": statistics.median(r["longest_task_ms"] for r in mine), "runs": mine}
    return results


# Resolves with performance.now() when the page turns ready (the drivers have no
# script that runs before the page's own, so the bench waits from the moment it is asked).
WHEN_READY = """return await new Promise((resolve) => {
  const ready = () => document.documentElement.dataset.appState === "ready";
  if (ready()) return resolve(performance.now());
  new MutationObserver((_, observer) => {
    if (ready()) { observer.disconnect(); resolve(performance.now()); }
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-app-state"] });
});"""


# When static/regions.js painted the last table (the frame that showed it), or null.
PAINTED_AT = """const [mark] = performance.getEntriesByName("tableside-painted");
return mark ? mark.startTime : null;"""


def engine_boot(page: EnginePage, counter: ByteCounter) -> tuple[float, int]:
    """Seconds from navigation to ready, and the bytes served until then."""
    ready_ms = page.evaluate(WHEN_READY)
    return ready_ms / 1000, counter.total


# Polls in the page for a bounded time: the page that answers may still be the one left behind
# (WebKit swaps processes across origins), so the question is asked again, as EnginePage.wait_for does.
POLL_READY = """const deadline = performance.now() + 2000;
while (document.documentElement.dataset.appState !== "ready") {
  if (performance.now() > deadline) return null;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
return performance.now();"""


def engine_ready(page: EnginePage, timeout_s: float = 120) -> float:
    """Seconds from navigation to ready, within the 20 ms the page is polled at."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            ready_ms = page.evaluate(POLL_READY)
        except Exception:  # the page was replaced while it was asked
            time.sleep(0.1)
            continue
        if ready_ms is not None:
            return ready_ms / 1000
    raise AssertionError(f"{page.engine}: not ready after {timeout_s} s")


def engine_table(page: EnginePage, url: str) -> dict:
    """A warm start of url: seconds to ready and to the player's own table visible (the
    snapshot painted, or else Python's first render, drawn at ready)."""
    page.goto(url)
    ready_s = engine_ready(page)
    painted_ms = page.evaluate(PAINTED_AT)
    return {"ready_s": ready_s, "table_s": ready_s if painted_ms is None else min(ready_s, painted_ms / 1000)}


def measure_engine(name: str, driver, proxy, urls: dict, counter: ByteCounter) -> dict:
    """First visits of the app; then the own table of each build in urls, warm, taking turns in
    one profile (each build on its own origin, played a little first). (Warm starts: boot_phases.)"""
    first_visits = []
    for _ in range(ENGINE_RUNS):
        page = EnginePage(name, driver, proxy, RESULTS.parent)
        counter.total = 0
        page.goto(urls["app"])
        ready_s, served = engine_boot(page, counter)
        page.evaluate(f"await ({WAIT_UNTIL_CONTROLLED})();")
        time.sleep(0.5)
        first_visits.append({"ready_s": ready_s, "bytes": served, "bytes_with_precache": counter.total})
    for url in urls.values():  # every build plays a little, so its next start opens to that table
        page.goto(url)
        engine_ready(page)
        page.evaluate(f"await ({WAIT_UNTIL_CONTROLLED})();")
        page.evaluate(f"({PLAY})();")
        time.sleep(1.5)  # the snapshot is written a moment after the last change
    tables = {build: [] for build in urls}
    for _ in range(RUNS):
        for build, url in urls.items():
            tables[build].append(engine_table(page, url))
    driver.call("close_page")
    return {"first_visit_ready_s": statistics.median(r["ready_s"] for r in first_visits),
            "first_visit_bytes": statistics.median(r["bytes"] for r in first_visits),
            "first_visit_bytes_with_precache": statistics.median(r["bytes_with_precache"] for r in first_visits),
            "first_visits": first_visits,
            "tables": {build: {"table_s": statistics.median(r["table_s"] for r in runs),
                               "ready_s": statistics.median(r["ready_s"] for r in runs), "runs": runs}
                       for build, runs in tables.items()}}


def measure_engines(dist: Path, baseline: Path | None) -> dict:
    """WebKitGTK and Firefox ESR boot the app: first visits, warm boots, the own table."""
    counter = ByteCounter()
    servers = [counting_server(dist, counter)]
    if baseline:
        servers.append(counting_server(baseline, counter))
    urls = dict(zip(("app", "baseline"), (url for _, url in servers)))
    display, proxy = VirtualDisplay(), RefusingProxy()
    results = {}
    try:
        for name, start in (("webkit", lambda: start_webkit(display.name)), ("firefox", start_firefox)):
            print(f"  {ENGINE_RUNS} first visits in {name}, then {RUNS} own-table starts of each build", flush=True)
            driver = start()
            try:
                results[name] = {"version": driver.version,
                                 **measure_engine(name, driver, proxy, urls, counter)}
            except Exception as error:  # one engine failing does not lose the other's figures
                print(f"  {name}: {error}", flush=True)
            finally:
                driver.close()
    finally:
        for server, _ in servers:
            server.shutdown()
        proxy.close()
        display.close()
    return results


def measure_phases(playwright, builds: dict) -> dict:
    """builds: name -> (folder, has a service worker): each on a server of its own (an origin)."""
    servers = {name: counting_server(folder, ByteCounter()) for name, (folder, _) in builds.items()}
    display, proxy = VirtualDisplay(), RefusingProxy()
    try:
        return boot_phases.measure(playwright, {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}, display.name,
                                   proxy, {name: (servers[name][1], worker) for name, (_, worker) in builds.items()},
                                   RESULTS.parent)
    finally:
        for server, _ in servers.values():
            server.shutdown()
        proxy.close()
        display.close()


def report_engines(engines: dict, app: dict, phases: dict) -> None:
    """warm: Python ready in boot_phases' warm starts (a new tab each)."""
    def warm(engine):
        return phases.get(engine, {}).get("app", {}).get("Python ready", float("nan")) / 1000

    print(f"\n{'the app in each engine (no throttle)':42} {'first':>9} {'warm':>9} {'MB ready':>9} {'MB +cache':>9}")
    rows = [("chromium", warm("chromium"), app["first_visit_bytes"], app["first_visit_bytes_with_precache"], None)]
    rows += [(name, warm(name), result["first_visit_bytes"], result["first_visit_bytes_with_precache"],
              result["first_visit_ready_s"]) for name, result in engines.items()]
    for name, warm, served, with_cache, first in rows:
        first_text = f"{first:9.2f}" if first is not None else f"{'':>9}"
        print(f"{name + ' boot (s), served (MB)':42} {first_text} {warm:9.2f} {served / 1e6:9.2f} {with_cache / 1e6:9.2f}")
    builds = list(next(iter(engines.values()))["tables"]) if engines else []
    print(f"\n{'the own table, warm, no throttle':42}" + "".join(f" {build:>9}" for build in builds))
    for name, result in engines.items():
        for label, field in (("own table visible", "table_s"), ("ready", "ready_s")):
            cells = "".join(f" {result['tables'][build][field]:9.2f}" for build in builds)
            print(f"{name + ' ' + label + ', median (s)':42}{cells}")


def verdict(value: float, goal: float) -> str:
    return f"<= {goal:g}: {'met' if value <= goal else 'NOT met'}"


def report(app: dict, stock: dict, own: int, snapshot: int, baseline: dict | None = None) -> None:
    rows = [
        ("warm boot, median (s)", app["warm"]["ready_s"], stock["warm"]["ready_s"], None),
        (f"warm boot {THROTTLE}x CPU, median (s)", app["warm_throttled"]["ready_s"],
         stock["warm_throttled"]["ready_s"], GOALS["warm_throttled"]),
        ("longest task, median (ms)", app["warm"]["longest_task_ms"],
         stock["warm"]["longest_task_ms"], None),
        (f"longest task {THROTTLE}x CPU, median (ms)", app["warm_throttled"]["longest_task_ms"],
         stock["warm_throttled"]["longest_task_ms"], None),
        ("first visit, bytes to ready (MB)", app["first_visit_bytes"] / 1e6,
         stock["first_visit_bytes"] / 1e6, None),
        ("phone profile first visit, median (s)", app["phone_first_visit"]["ready_s"],
         stock["phone_first_visit"]["ready_s"], GOALS["phone_first_visit"]),
        ("longest task, phone first visit (ms)", app["phone_first_visit"]["longest_task_ms"],
         stock["phone_first_visit"]["longest_task_ms"], None),
    ]
    print(f"\n{'':42} {'app':>9} {'stock':>9} {'app/stock':>10}  goal")
    for label, mine, theirs, goal in rows:
        ratio = mine / theirs if theirs else float("nan")
        print(f"{label:42} {mine:9.2f} {theirs:9.2f} {ratio:10.2f}  {verdict(ratio, goal) if goal else ''}")
    print(f"{'first visit incl. precache (MB)':42} {app['first_visit_bytes_with_precache'] / 1e6:9.2f}")
    print(f"{'Python memory snapshot (KB, served; apart)':42} {snapshot / 1000:9.1f}")
    print(f"{'our code + Python packages (KB, served)':42} {own / 1000:9.1f} {'':9} {'':10}  "
          f"{verdict(own / 1000, GOALS['own_code_kb'])}")
    print(f"{'our modules imported at start-up':42} {len(startup_modules()):9d}")
    title = "the player's own table, warm"
    print(f"\n{title:42} {'app':>9} {'baseline' if baseline else '':>9}")
    for key, cpu in (("warm", "1x"), ("warm_throttled", f"{THROTTLE}x")):
        builds = [app, baseline] if baseline else [app]
        for label, field in ((f"own table visible, {cpu} CPU, median (s)", "table_s"),
                             (f"first contentful paint, {cpu} CPU (s)", "fcp_s"),
                             (f"ready, {cpu} CPU, median (s)", "ready_s")):
            cells = "".join(f" {build[key].get(field, float('nan')):9.2f}" for build in builds)
            goal = ""
            if field == "table_s" and key == "warm_throttled":
                goal = f"  < {GOALS['table_throttled_s']:g} s: " + ("met" if app[key].get("table_s", 99) < GOALS["table_throttled_s"] else "NOT met")
            print(f"{label:42}{cells}{goal}")
    if baseline:
        print(f"{'baseline: warm boot ' + str(THROTTLE) + 'x CPU / stock':42} "
              f"{baseline['warm_throttled']['ready_s'] / stock['warm_throttled']['ready_s']:9.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=DIST, help="the built app (default: dist/)")
    parser.add_argument("--baseline", type=Path, help="another build of the app, measured in the same runs")
    arguments = parser.parse_args()
    dist = arguments.dist
    if not (dist / "sw.js").is_file():
        raise SystemExit(f"bench-boot: {dist} has no build; run `make bench-boot` (it builds first).")
    make_stock_page()
    counter = ByteCounter()
    servers = [counting_server(dist, counter), counting_server(STOCK, counter)]
    targets = {"app": (servers[0][1], True), "stock": (servers[1][1], False)}
    if arguments.baseline:
        servers.append(counting_server(arguments.baseline, counter))
        targets["baseline"] = (servers[2][1], True)
    started, load = time.monotonic(), os.getloadavg()[0]
    builds = {"app": (dist, True), "stock": (STOCK, False)}
    if arguments.baseline:
        builds["baseline"] = (arguments.baseline, True)
    try:
        with sync_playwright() as playwright:
            results = measure(playwright, targets, counter)
            phases = measure_phases(playwright, builds)
    finally:
        for server, _ in servers:
            server.shutdown()
    own = own_code_bytes(dist)
    report(results["app"], results["stock"], own, snapshot_bytes(dist), results.get("baseline"))
    boot_phases.report(phases)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({**results, "phases": phases, "own_code_bytes": own}, indent=1))
    engines = measure_engines(dist, arguments.baseline)
    report_engines(engines, results["app"], phases)
    print(f"\n({time.monotonic() - started:.0f} s; the machine's load {load:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end; details in {RESULTS.relative_to(ROOT)})")
    RESULTS.write_text(json.dumps({**results, "phases": phases, "engines": engines, "own_code_bytes": own}, indent=1))


if __name__ == "__main__":
    main()
