"""Where "Python ready" goes, phase by phase, in Chromium, WebKitGTK and Firefox ESR, read from the
page's own performance marks (bench/bench_boot.py prints it).

The marks: static/boot.js marks each of PyScript's py:progress steps ("py:Loading interpreter",
"py:Loaded interpreter", ...); static/python.mjs marks the wasm's compile and instantiation and the
snapshot's read; py/ui/main.py marks its start, its imports and py/ui/shell/boot.py the moment the
table is live ("tableside-ready"). The stock page marks the same PyScript steps and its end.
Resource Timing gives the wasm's download. Each mark is one performance.mark call.

Each build (the app, the stock page, a --baseline build) is served on an origin of its own and
visited once in one fresh profile per engine (the app's service worker takes over); then RUNS
rounds of warm starts, every build in every engine in each round (so the machine's load falls
on all alike): each a new tab on that profile, as a phone opens the app again. The builds take
turns at going first (the first start of a round measured 200-260 ms slower in Chromium, whichever
build it was), and each start waits for the machine to be idle (an engine's background compiles
from the start before it otherwise land on the next). A reload in the same tab is not used: WebKit then still compiles the last page's wasm in
the background, and the next page's first synchronous WebAssembly.Module waits up to a second for it.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

from engines import EnginePage, PlaywrightDriver, start_firefox, start_webkit

RUNS = 5
# (label, start, end): the time between two marks ("navigation" is 0: the page's timeOrigin).
# Fetch, compile and the snapshot overlap (all three run at once); the other phases follow one another.
# The indented ones split the one above them in a start from the snapshot (static/python.mjs marks them).
PHASES = (
    ("page + PyScript load", "navigation", "py:Loading interpreter"),
    ("wasm fetch", "wasm:start", "wasm:end"),
    ("wasm compile", "tableside-wasm-compiling", "tableside-wasm-compiled"),
    ("snapshot read + inflate", "tableside-snapshot-reading", "tableside-snapshot-read"),
    ("instantiate", "ready-to-instantiate", "tableside-wasm-instantiated"),
    ("interpreter start", "tableside-wasm-instantiated", "py:Loaded interpreter"),
    ("  runtime set-up (linking)", "tableside-wasm-instantiated", "tableside-runtime-ready"),
    ("  memory restored + Pyodide API", "tableside-runtime-ready", "tableside-memory-restored"),
    ("  fresh randomness, files back", "tableside-memory-restored", "tableside-snapshot-restored"),
    ("interpreter (stock: all of it)", "py:Loading interpreter", "py:Loaded interpreter"),
    ("PyScript set-up", "py:Loaded interpreter", "tableside-main"),
    ("our imports (+ unpack)", "tableside-main", "tableside-imported"),
    ("first render", "tableside-imported", "tableside-ready"),
    ("Python ready", "navigation", "tableside-ready"),
)

# In the page, once Python is ready: every mark, and the wasm's download from Resource Timing.
COLLECT = """const deadline = performance.now() + 120000;
while (!performance.getEntriesByName("tableside-ready").length) {
  if (performance.now() > deadline) return null;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const at = { navigation: 0 };
for (const mark of performance.getEntriesByType("mark")) at[mark.name] ??= mark.startTime;
const [wasm] = performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith(".wasm"));
if (wasm) Object.assign(at, { "wasm:start": wasm.startTime, "wasm:end": wasm.responseEnd });
const compiled = at["tableside-wasm-compiled"], read = at["tableside-snapshot-read"];
if (compiled !== undefined) at["ready-to-instantiate"] = Math.max(compiled, read ?? 0);
return at;"""

WAIT_UNTIL_CONTROLLED = """await navigator.serviceWorker.ready;
if (!navigator.serviceWorker.controller) {
  await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
}"""


def durations(marks: dict) -> dict:
    """Milliseconds of each phase whose marks the page set."""
    return {label: marks[end] - marks[start] for label, start, end in PHASES if start in marks and end in marks}


def first_visits(page: EnginePage, builds: dict) -> None:
    """builds: name -> (url, has a service worker): each visited once, its worker in control."""
    for url, has_worker in builds.values():
        page.goto(url)
        page.wait_for("performance.getEntriesByName('tableside-ready').length", 120)
        if has_worker:
            page.evaluate(WAIT_UNTIL_CONTROLLED)
            time.sleep(1)  # the worker's first fetches settle


IDLE_SHARE, IDLE_WAIT = 0.15, 15.0  # the busy share of the CPUs a start waits below, and for how long at most


def busy_share(interval: float = 0.5) -> float:
    """The share of all CPUs' time spent busy over the next interval seconds (from /proc/stat)."""
    def times() -> list[int]:
        return [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    before = times()
    time.sleep(interval)
    spent = [now - then for now, then in zip(times(), before)]
    idle = spent[3] + spent[4]  # idle and iowait
    return 1 - idle / max(1, sum(spent))


def settle() -> None:
    """Wait (up to IDLE_WAIT s) until the machine is idle, so that no earlier start's work lands on the next."""
    deadline = time.monotonic() + IDLE_WAIT
    while busy_share() > IDLE_SHARE and time.monotonic() < deadline:
        pass


def round_order(names: list[str], round_index: int) -> list[str]:
    """The builds in the order round round_index starts them: each goes first in turn."""
    shift = round_index % len(names)
    return names[shift:] + names[:shift]


def warm_start(page: EnginePage, name: str, url: str) -> dict:
    """One start in a new tab: the durations of its phases, and its marks."""
    page.new_tab()
    settle()
    page.goto(url)
    marks = page.evaluate(COLLECT)
    if marks is None:
        raise AssertionError(f"{page.engine}: {name} was not ready within 120 s")
    return {**durations(marks), "marks": marks}


def measure(playwright, chromium_args: dict, display: str, proxy, builds: dict, screenshots) -> dict:
    """engine -> {"version", build -> {phase: median ms, "runs": [...]}} in the three engines.
    The engines are open side by side and take turns, each start of each build in each engine
    in every round, so that the machine's load weighs on all of them alike (the ratios between
    engines are the point)."""
    starters = {
        "chromium": lambda: PlaywrightDriver(playwright.chromium.launch(**chromium_args)),
        "webkit": lambda: start_webkit(display),
        "firefox": start_firefox,
    }
    drivers, pages, runs = {}, {}, {}
    print(f"  a first visit of each build in each engine, then {RUNS} rounds of warm starts in new tabs",
          flush=True)
    try:
        for engine, start in starters.items():
            try:
                drivers[engine] = start()
                pages[engine] = EnginePage(engine, drivers[engine], proxy, screenshots)
                first_visits(pages[engine], builds)
                runs[engine] = {name: [] for name in builds}
            except Exception as error:  # one engine failing does not lose the others' figures
                print(f"  {engine}: {error}", flush=True)
        for round_index in range(RUNS):
            for engine in list(runs):
                try:
                    for name in round_order(list(builds), round_index):
                        runs[engine][name].append(warm_start(pages[engine], name, builds[name][0]))
                except Exception as error:
                    print(f"  {engine}: {error}", flush=True)
                    del runs[engine]
    finally:
        for driver in drivers.values():
            try:
                driver.call("close_page")
            finally:
                driver.close()
    return {engine: {"version": drivers[engine].version, **{
        build: {**{label: statistics.median(run[label] for run in mine)
                   for label, _, _ in PHASES if all(label in run for run in mine)}, "runs": mine}
        for build, mine in by_build.items()}} for engine, by_build in runs.items()}


def report(results: dict) -> None:
    """One table per engine: the phases of each build (median ms), then Python ready's ratios."""
    for engine, result in results.items():
        builds = [name for name in result if name != "version"]
        print(f"\n{result['version']}: Python ready by phase, median of {RUNS} warm starts (ms)")
        print(f"{'':34}" + "".join(f" {build:>10}" for build in builds))
        for label, _, _ in PHASES:
            cells = [result[build].get(label) for build in builds]
            if any(cell is not None for cell in cells):
                print(f"{label:34}" + "".join(f" {cell:10.0f}" if cell is not None else f" {'-':>10}"
                                                for cell in cells))
    ready = {engine: {build: values["Python ready"] for build, values in result.items() if build != "version"}
             for engine, result in results.items()}
    if "chromium" not in ready:
        return
    print(f"\n{'Python ready / Chromium (same build)':34}" + "".join(f" {build:>10}" for build in ready["chromium"]))
    for engine in ("webkit", "firefox"):
        if engine in ready:
            print(f"{engine:34}" + "".join(f" {ready[engine][build] / ready['chromium'][build]:10.2f}"
                                           for build in ready["chromium"] if build in ready[engine]))
    print(f"{'goal':34} webkit <= 2.0, firefox <= 1.5 (the app)")
