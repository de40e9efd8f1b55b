"""Timing shared by the benchmarks: the best of several warm runs (the least disturbed by
the other work of a shared machine)."""

from __future__ import annotations

import os
import time

# The benchmarks that time analyses time the counting itself, not the store of counts a
# later process reads (analyzer/engine/counts.py; bench_start.py times that one).
os.environ.setdefault("BACCARAT_ODDS_CACHE", "off")
from collections.abc import Callable


def best_time(fn: Callable[[], object], repeat: int, warm: bool = True) -> float:
    """The shortest of ``repeat`` runs of ``fn``, in seconds, after one untimed run when
    ``warm`` (JIT compile or cache load)."""
    if warm:
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def best_times(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """The shortest of ``repeat`` runs of each of ``fns``, by name, the runs taken in turn
    (one of each, then again), so that a slow spell of the machine slows all of them
    alike rather than the one timed during it. Each is run once untimed first."""
    for fn in fns.values():
        fn()
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return best
