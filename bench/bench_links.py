"""How large a session's share link is, and how long it takes to read (make bench-links), under CPython.

The sessions of issue 30 (tests/unit/linksize.py): a full roster (60 characters, each with a sheet in every
rule system) whose Tension and every AP, Health and Willpower differ from phone to phone (each up to 200 steps) on 32 and on 63 phones, each
vouched for by the GM; the caps' worst case (every roster entry the replica keeps, removed ones included,
each count at random up to MAX_STEPS on 64 phones and vouched for); and the same at its widest numbers
(with holders and undo marks: the most bytes a link unpacks to). For each: link characters, bytes it
unpacks to, median time to write it and to read it (session.links.v2.read: unpack, expand, check). Reading
runs with the limits lifted, so a link past them is timed too; "fits" says whether phones open it.

    python bench/bench_links.py [code root]   # another checkout's py/ whose caps count people (session.headcount);
                                              # for one from before, run that checkout's own bench
Numbers only; nothing here is a test (tests/unit/session/test_session_link_size.py holds what must be true).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
sys.path[:0] = [str(CODE / "py"), str(ROOT / "tests" / "unit")]

import session.replica_check as replica_check  # noqa: E402

import linksize  # noqa: E402
from session.links import text  # noqa: E402
from session.links import v2  # noqa: E402
from timing import median_seconds  # noqa: E402

RUNS = 5
LIMITS = text.MAX_FRAGMENT, text.MAX_DECODED


def timed(action) -> float:
    return median_seconds(action, RUNS)


def main():
    print(f"code: {CODE}  MAX_FRAGMENT {LIMITS[0]:,}  MAX_DECODED {LIMITS[1]:,}  ({RUNS} runs, medians)")
    cases = [("32 phones, counts up to 200", lambda: linksize.campaign(32)),
             ("63 phones, counts up to 200", lambda: linksize.campaign(63)),
             ("caps, random up to MAX_STEPS", linksize.caps_worst_case),
             ("caps, widest numbers", linksize.widest_worst_case)]
    print(f"{'session':32} {'characters':>11} {'bytes':>11} {'write s':>8} {'read s':>8}  fits")
    for name, build in cases:
        replica = replica_check.check_replica(build().to_dict())
        fragment = v2.session_link(replica)
        size = linksize.unpacked_size(fragment)
        write = timed(lambda: v2.session_link(replica))
        text.MAX_FRAGMENT, text.MAX_DECODED = 10 ** 8, 10 ** 9
        read = timed(lambda: v2.read(fragment))
        text.MAX_FRAGMENT, text.MAX_DECODED = LIMITS
        fits = len(fragment) <= LIMITS[0] and size <= LIMITS[1]
        print(f"{name:32} {len(fragment):>11,} {size:>11,} {write:>8.2f} {read:>8.2f}  {'yes' if fits else 'no'}")


if __name__ == "__main__":
    main()
