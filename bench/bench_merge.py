"""What merging costs (make bench-merge): the largest session link the format accepts, and a
campaign's whole life, under CPython.

The largest link (tests/unit/crowded.py): 60 Tension Engine characters whose every count was
changed on 12 phones, its 20 newest entries, and as many undo marks (8 phones each, 40 effects
each) as fit the bytes a link may unpack to (session.links.text.MAX_DECODED). In the same run:

  - read:   session.links.v2.read of the link (unpack, check, rules.resolve of its entries);
  - merge:  session.merging.merge_checked into a phone holding the same session without them
            (the join, and the check the next start runs on the result);
  - tap:    "Raise Tension by 1" / "Lower" on that phone, ui.core.step (handler, commit into
            the replica) alone and with the saving it queued (ui.keeping.runners, as
            tests/unit/tapping.py runs it: the head checked and rewritten whole, so its time
            follows the head's characters, printed too), before and
            after merging the link, and after merging it with the undo correction worked out as
            before issue 23 (every mark scanned for every count on each session()), for comparison;
  - the campaign: 20,000 entries, 2,000 undos, 12 phones, 60 characters across the systems:
            its head loaded (the start's check), its share link written, read and merged into a
            phone that saw it 1,000 entries ago (holding its head and newest page in memory).

Medians of RUNS runs, ratios to the tap before merging. Numbers only; nothing here is a test
(tests/unit/session/test_session_merging.py holds what must be true).
"""
from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests" / "unit")]

from crowded import as_held, campaign, largest_link_replica, roster, session_of, template_entry  # noqa: E402
from session import MemoryStore  # noqa: E402
from session.links.v2 import read, session_link  # noqa: E402
from session.merging import merge_checked  # noqa: E402
from session.on_device.heads import head_content, parse_head, stamped  # noqa: E402
from session.replica import Replica, effect_targets  # noqa: E402
from session.logbook import record  # noqa: E402
from timing import median_seconds  # noqa: E402
from tapping import keep, log_for, open_link, start, tap  # noqa: E402
from ui.core.actions import Input  # noqa: E402
from ui.core.step import step  # noqa: E402
from ui.keeping import runners  # noqa: E402
from ui.screens.frame import actions  # noqa: E402, F401  (the Tension buttons' handlers)

RUNS = 15


def median_ms(work, runs: int = RUNS) -> float:
    return median_seconds(work, runs) * 1000


def taps(phones: dict) -> dict:
    """Medians of one tap on each phone, the phones in turn round after round (so a busy machine
    weighs on each alike), up and down in turn (Tension stays within its range): the step alone
    (ui.core.step: handler, commit into the replica), and with the saving it queued."""
    times = {name: ([], []) for name in phones}
    for number in range(RUNS * 2):
        for name, state in phones.items():
            began = time.perf_counter()
            step(state, "tension-step", Input(data={"step": str(1 if number % 2 else -1)}))
            times[name][0].append(time.perf_counter() - began)
            asyncio.run(runners.settle(state))
            times[name][1].append(time.perf_counter() - began)
    figures = {}
    for name, (stepped, saved) in times.items():
        figures[f"tap {name}"] = statistics.median(stepped) * 1000
        figures[f"tap and save {name}"] = statistics.median(saved) * 1000
    return figures


def scanning_correction(self, target) -> int:
    """Replica.undo_correction as it was before issue 23: every mark, for every count asked."""
    correction = 0
    for mark in self.undone.values():
        extra = len(mark["by"]) - 1
        if extra:
            correction += extra * sum(delta for where, delta in effect_targets(mark["effects"]) if where == target)
    return correction


def phone_with_session(held=()):
    """A phone with the session, its log store holding entries of these ids (older than what it shows):
    an undo mark counts on a phone that holds its entry (session.inert leaves out those of no entry)."""
    store = MemoryStore()
    keep(store, session_of(roster(("tension",))))
    template = template_entry()
    asyncio.run(log_for(store).append([record("long-campaign", {**template, "id": entry_id, "clock": 0,
                                                                  "device": ""}) for entry_id in held]))
    return start(store)


def largest_link() -> dict:
    link = session_link(largest_link_replica())
    incoming = read(link).replica
    before = phone_with_session(incoming.undone)
    held = {entry_id: "conflict" for entry_id in incoming.undone}
    figures = {"link characters": len(link), "read the link": median_ms(lambda: read(link)),
               "merge the link": median_ms(lambda: merge_checked(before.replica, incoming, held))}
    after, old = phone_with_session(incoming.undone), phone_with_session(incoming.undone)
    for state in (after, old):
        open_link(state, link)
        tap(state, "join-update")
        assert len(state.replica.undone) == len(incoming.undone), state.message
    figures["head characters before merging"] = len(head_content(before.replica))
    figures["head characters after merging"] = len(head_content(after.replica))
    old.replica.undo_correction = types.MethodType(scanning_correction, old.replica)
    figures.update(taps({"before merging": before, "after merging": after,
                         "after merging, old undo correction": old}))
    return figures


def whole_campaign() -> dict:
    whole = campaign()
    head = stamped(head_content(whole), "")
    link = session_link(whole)
    older = as_held(campaign(19_000, 1_900))  # its head and newest page in memory, as a phone holds it
    incoming = read(link).replica
    return {"campaign head characters": len(head), "campaign link characters": len(link),
            "campaign head loaded": median_ms(lambda: parse_head(head, whole.id), 5),
            "campaign link written": median_ms(lambda: session_link(whole), 5),
            "campaign link read": median_ms(lambda: read(link), 5),
            "campaign link merged": median_ms(lambda: merge_checked(older, incoming, {}), 5)}


def main():
    print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores: above 2, every figure is inflated)")
    figures = {**largest_link(), **whole_campaign()}
    for name, value in figures.items():
        if "characters" in name:
            print(f"{name:48} {value:>10,}")
        else:
            before = figures["tap and save before merging" if "save" in name else "tap before merging"]
            ratio = f"  ({value / before:.2f}x before merging)" if name.startswith("tap") else ""
            print(f"{name:48} {value:>10.2f} ms{ratio}")


if __name__ == "__main__":
    main()
