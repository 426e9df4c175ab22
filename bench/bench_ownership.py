"""What the ownership rule costs where changes arrive (make bench-ownership), under CPython.

The largest session link the format accepts (tests/unit/crowded.py: 60 characters whose every count
was changed on 12 phones, 20 entries, undo marks filling the bytes a link unpacks to), arriving on a
phone with a GM on record and every character held by one of the 12 phones: session.ownership.judge
on it, against session.merging.merge_checked of the same link (the merge every arrival already ran),
in the same run. Medians of RUNS runs, and their ratio. Numbers only; the tests hold what must be true.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests" / "unit")]

from crowded import PHONES, largest_link_replica, roster, session_of  # noqa: E402
from session.merging import merge_checked  # noqa: E402
from session.ownership import grant, judge, record_gm  # noqa: E402
from session.replica import Replica  # noqa: E402
from timing import median_seconds  # noqa: E402

RUNS = 15
GM = "0fedcba9"


def main():
    incoming = largest_link_replica()
    mine = Replica.from_session(session_of(roster(("tension",))))
    record_gm(mine, GM)
    for number, entry_id in enumerate(sorted(mine.roster)):
        grant(mine, entry_id, PHONES[number % 12], GM)
    incoming.gm, incoming.holders = mine.gm, mine.holders
    incoming.clock = max(incoming.clock, mine.clock)
    merge = median_seconds(lambda: merge_checked(mine, incoming, {}), RUNS)
    rule = median_seconds(lambda: judge(mine, incoming, GM), RUNS)
    verdict = judge(mine, incoming, GM)
    print(f"largest link ({len(incoming.roster)} roster entries, {len(incoming.log)} entries, "
          f"{len(incoming.undone)} undo marks): merge_checked {merge * 1000:.1f} ms, judge {rule * 1000:.1f} ms "
          f"({rule / merge:.2f}x the merge); held {len(verdict.changes)} change lines")


if __name__ == "__main__":
    main()
