"""The first call of a card paytable in a new process, its compiled code cached, against
the import of Numba itself.

Issue 23 asks that the first exact analysis of each shipped card paytable in a fresh
process (compiled kernels loaded from Numba's cache) add at most the time ``import numba``
takes. Each paytable is run in fresh interpreters: ``import analyzer`` (lazy: nothing
heavy yet), then the first ``analyze`` of every bet on its full shoe, then a second one
(warm); the excess is the first less the second. The baseline is ``import numba`` timed
in a fresh interpreter of its own, the runs taken in turn. The cache is warmed first.

Prints JSON lines: per paytable the best excess over ``--repeat`` processes
(``seconds``), the best ``import numba`` (``baseline_seconds``) and ``ratio`` (the issue
asks at most 1); and Numba's own floor, ``floor_seconds``: ``import numba`` and the first
call of a trivial kernel cached on disk (a loop summing an array) in a fresh interpreter,
which is what any first call of cached compiled code costs where Numba is not yet
imported (its first dispatch loads its typing and lowering registries), and
``ratio_to_floor``.

    python benchmarks/bench_first_call.py [--repeat 5] [name ...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Timed in the child: the first analysis and a warm one, in seconds, as JSON.
FIRST_CALL = """
import json, sys, time
from analyzer import analyze, load_paytable
paytable = load_paytable(sys.argv[1])
start = time.perf_counter()
analyze(paytable=paytable)
first = time.perf_counter() - start
start = time.perf_counter()
analyze(paytable=paytable)
print(json.dumps({"first": first, "warm": time.perf_counter() - start}))
"""
IMPORT_NUMBA = """
import json, time
start = time.perf_counter()
import numba
print(json.dumps({"import": time.perf_counter() - start}))
"""
#: Numba's floor: a trivial kernel cached on disk (``TRIVIAL_MODULE``, in a folder of its
#: own), imported with Numba and called once.
TRIVIAL_MODULE = """
from numba import njit


@njit(cache=True)
def total(values):
    s = 0
    for x in values:
        s += x
    return s
"""
TRIVIAL = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
start = time.perf_counter()
import numpy
import numba
import trivial_kernel
trivial_kernel.total(numpy.arange(3))
print(json.dumps({"first": time.perf_counter() - start}))
"""
#: The children count, as a user's process does: the store of counts is off (it would
#: answer the second call from disk), bytecode is cached.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
ENV["BACCARAT_ODDS_CACHE"] = "off"


def _child(code: str, *args: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, env=ENV
    )
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("names", nargs="*", help="paytables (default: every card paytable)")
    args = parser.parse_args()
    names = args.names
    if not names:
        from analyzer import load_paytable
        from analyzer.engine.pricing import pricing
        from analyzer.paytables.library import library_names

        names = [
            name
            for name in library_names()
            if any(pricing(bet).engine == "cards" for bet in load_paytable(name).bets)
        ]
    for name in names:  # compiles or loads every kernel once, into the cache
        _child(FIRST_CALL, name)
    folder = tempfile.mkdtemp(prefix="bench-first-call-")
    try:
        Path(folder, "trivial_kernel.py").write_text(TRIVIAL_MODULE)
        _child(TRIVIAL, folder)
        best = dict.fromkeys(names, float("inf"))
        baseline = floor = float("inf")
        for _ in range(args.repeat):
            baseline = min(baseline, _child(IMPORT_NUMBA)["import"])
            floor = min(floor, _child(TRIVIAL, folder)["first"])
            for name in names:
                times = _child(FIRST_CALL, name)
                best[name] = min(best[name], times["first"] - times["warm"])
        for name in names:
            print(
                json.dumps(
                    {
                        "benchmark": f"first call over a warm one, {name}",
                        "seconds": best[name],
                        "baseline": "import numba, a fresh interpreter",
                        "baseline_seconds": baseline,
                        "ratio": best[name] / baseline,
                        "floor": "import numba and a trivial cached kernel's first call",
                        "floor_seconds": floor,
                        "ratio_to_floor": best[name] / floor,
                    }
                ),
                flush=True,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
