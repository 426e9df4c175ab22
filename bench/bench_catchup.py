"""What catching up costs on a live table (make bench-catchup): the log entries a phone reads from
its log store, and the time, for each message of the walk (session.live.catchup, driven by
ui.arrivals.catchup), under CPython, against a GM's phone holding 1,000 and 20,000 entries.

The log store is tests/unit/counting_log.py: sorted keys, so a page costs the records it returns,
as IndexedDB's cursor does; `reads` counts every record read and every id looked up. Each figure
starts from a GM's phone just started on its storage (the newest page in memory, as the page
holds it), the live table open:

  - hello:        a player's phone that keeps the newest 20 entries says hello (its log differs);
                  the GM's phone compares prints and sends its first page
  - hostile have: then that phone sends a `have` of about 100 bytes naming one key, the GM's
                  oldest: "this is all I hold down to there"
  - want:         or it asks (`want`) for 200 ids the GM's phone does not hold
  - join:         a new phone joins by the two scans (tests/unit/live_table.py), then a second
                  one (the GM's phone has walked once already); entries read on both phones
  - rejoin:       the first phone, away while the GM logged 10 rolls and it logged 5, joins again

Before and after in the same run: the same scenarios, in a subprocess each, with the code of the
base (`BASE`, default `main`, taken with `git archive` into a scratch folder) and of this tree.
Numbers only; tests/unit/ui/test_ui_arrivals_catchup.py holds what must be true.
"""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZES = (1_000, 20_000)
SCENARIOS = ("hello", "hostile have", "want", "join", "second join", "rejoin")
RUNS = 3


# --- Measuring, inside one version of the code (a subprocess) ------------------------------------------

def measure(size: int) -> dict:
    from counting_log import CountingLog
    from crowded import campaign
    from live_table import Table
    from session import MemoryStore
    from session.links.v2 import session_link
    from session.live import protocol
    from session.live.catchup import log_print
    from session.replica import entry_key, new_device
    from tapping import LOGS, library, phone, settle, start, tap
    from ui.arrivals import messages
    from ui.core import live_table as model
    from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers who holds this phone)
    from ui.screens.live import actions as live_actions  # noqa: F401  (registers the live table's actions)
    from ui.systems.tension import actions as tension_actions  # noqa: F401  (registers the Tension Engine's)

    store, log = MemoryStore(), CountingLog()
    LOGS[store] = log
    logs = {"gm": log}
    whole = campaign(size, size // 10)
    shelf = library(store)
    shelf.save(whole)
    asyncio.run(shelf.flush())
    newest = sorted(whole.log.values(), key=entry_key)[-20:]
    oldest = min(whole.log.values(), key=entry_key)

    def gm_phone():
        state = start(store, "http://localhost:8000/")
        tap(state, "role-pick", role="gm")
        return state

    def counted(state, work) -> dict:
        began, reads, keys = time.perf_counter(), log.reads, log.read_by["keys"]
        work()
        sent = [data["text"] for kind, data in state.commands if kind == "live-send"]
        state.commands = [item for item in state.commands if item[0] != "live-send"]
        return {"reads": log.reads - reads, "keys": log.read_by["keys"] - keys,
                "ms": (time.perf_counter() - began) * 1000, "sent": len(sent)}

    def with_player():
        """The GM's phone live, with a player's phone that keeps the newest 20 entries; its hello."""
        state = gm_phone()
        state.live = model.LiveTable(hub=True, session_id=whole.id)
        state.live.peers["p1"] = model.Peer("p1", state=model.OPEN)
        head = session_link(state.replica, entries=[])
        hello = protocol.hello(new_device(), "", "", head, len(newest), log_print(entry["id"] for entry in newest),
                               min(newest, key=entry_key)["id"])
        return state, hello

    def deliver(state, text):
        messages.receive(state, "p1", text)
        settle(state)

    figures = {}
    state, hello = with_player()
    figures["hello"] = counted(state, lambda: deliver(state, hello))
    have = json.dumps({"live": 1, "k": "have", "to": None, "keys": [list(entry_key(oldest))], "more": False,
                       "rest": "0" * 16}, separators=(",", ":"))
    figures["hostile have"] = counted(state, lambda: deliver(state, have))
    state, hello = with_player()
    deliver(state, hello)
    state.commands = []
    want = protocol.write(protocol.WANT, ids=[f"x{number}" for number in range(protocol.PAGE)])
    figures["want"] = counted(state, lambda: deliver(state, want))

    table = Table(gm=gm_phone())
    for name in ("ash", "brin"):
        player_store = MemoryStore()
        LOGS[player_store] = logs[name] = CountingLog()
        table.add(name, phone(store=player_store))
    figures["join"] = joining(table, logs, "ash", role="ten0")
    figures["second join"] = joining(table, logs, "brin")
    gm, ash = table.phones["gm"], table.phones["ash"]
    table.lose("ash")
    for _ in range(10):
        roll(gm)
    for _ in range(5):
        roll(ash)
    table.run()
    lost = next(peer.id for peer in gm.live.peers.values() if peer.state == model.LOST)
    figures["rejoin"] = joining(table, logs, "ash", peer=lost)
    return figures


def roll(state):
    """A Tension roll logged, as the result bar's buttons do it (a new conflict after the last)."""
    from tapping import tap
    if (state.drafts.get("tension") or {}).get("logged") is not None:
        tap(state, "tension-new")
    tap(state, "tension-roll", side="gm")
    tap(state, "tension-roll", side="player")
    tap(state, "tension-log", then="show")


def joining(table, logs: dict, name: str, **how) -> dict:
    """A phone joins by the two scans: entries read on every phone, time, messages sent."""
    began, sent = time.perf_counter(), len(table.sent)
    reads, keys = sum(log.reads for log in logs.values()), sum(log.read_by["keys"] for log in logs.values())
    table.join("gm", name, **how)
    return {"reads": sum(log.reads for log in logs.values()) - reads,
            "keys": sum(log.read_by["keys"] for log in logs.values()) - keys,
            "ms": (time.perf_counter() - began) * 1000, "sent": len(table.sent) - sent}


def measured(root: Path) -> dict:
    """Every scenario at every size with the code under `root` (in this process): medians of RUNS
    runs, or of those that fit in a minute (main's hostile have at 20,000 takes minutes)."""
    sys.path[:0] = [str(root / "py"), str(root / "tests" / "unit"), str(ROOT / "tests" / "unit")]
    figures = {}
    for size in SIZES:
        runs, began = [], time.perf_counter()
        while len(runs) < RUNS and (not runs or time.perf_counter() - began < 60):
            runs.append(measure(size))
        figures[size] = {name: {figure: statistics.median(run[name][figure] for run in runs) for figure in runs[0][name]}
                         for name in runs[0]}
        figures[size]["runs"] = len(runs)
    return figures


# --- Before and after ----------------------------------------------------------------------------------

def run_version(root: Path) -> dict:
    done = subprocess.run([sys.executable, __file__, "--measure", str(root)], capture_output=True, text=True,
                          check=False)
    if done.returncode:
        sys.exit(f"measuring {root} failed:\n{done.stderr[-4000:]}")
    return {int(size): figures for size, figures in json.loads(done.stdout.splitlines()[-1]).items()}


def base_copy(folder: str) -> Path:
    """The base's code (py/ and tests/unit/) in a scratch folder, as `git archive` gives it."""
    base = os.environ.get("BASE", "main")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", base, "py", "tests/unit"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    return Path(folder)


def main():
    print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores: above 2, every time is inflated)")
    with tempfile.TemporaryDirectory() as folder:
        before = run_version(base_copy(folder))
    after = run_version(ROOT)
    print(f"\n{'':29}{'entries read':>24}{'of them keys':>14}{'ms':>20}{'messages sent':>18}")
    print(f"{'':29}{'before':>12}{'after':>12}{'after':>14}{'before':>10}{'after':>10}{'before':>9}{'after':>9}")
    for size in SIZES:
        for name in SCENARIOS:
            old, new = before[size][name], after[size][name]
            print(f"{size:>6,} {name:22}{old['reads']:>12,.0f}{new['reads']:>12,.0f}{new['keys']:>14,.0f}"
                  f"{old['ms']:>10,.0f}{new['ms']:>10,.0f}{old['sent']:>9,.0f}{new['sent']:>9,.0f}")
    print("\nruns (medians of):", {f"{size:,}": (before[size]["runs"], after[size]["runs"]) for size in SIZES})
    print("keys: the log's keys alone (IndexedDB getAllKeys, no entry read), once a page's life for its print")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measured(Path(sys.argv[2]))))
    else:
        main()
