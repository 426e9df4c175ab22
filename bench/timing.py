"""How the CPython benches time a piece of work: the median of a few runs, in seconds."""
from __future__ import annotations

import statistics
import time


def median_seconds(work, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)
