"""How fast the command line starts: ``play`` settling a round, ``--help``, and
``report --bet tie`` (warm Numba cache), each against ``python -c "import numpy"`` timed in
the same run (issue 21 asks for at most 1.5x and 2.5x).

Prints JSON lines: best wall-clock seconds of each over ``--repeat`` fresh processes,
``baseline_seconds`` (the numpy import) and ``ratio``. Absolute times on shared machines
are noisy; compare the ratios.

    python benchmarks/bench_start.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

COMMANDS = {
    "play": ["play", "2S", "3H", "2D", "KC", "8H"],
    "--help": ["--help"],
    "report --bet tie": ["report", "--bet", "tie"],
}


def best_run(argv: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "analyzer", *COMMANDS["report --bet tie"]],
                   stdout=subprocess.DEVNULL, check=True)  # fmt: skip  # warms the cache
    baseline = best_run([sys.executable, "-c", "import numpy"], args.repeat)
    for name, argv in COMMANDS.items():
        seconds = best_run([sys.executable, "-m", "analyzer", *argv], args.repeat)
        print(
            json.dumps(
                {
                    "benchmark": f"start-up: {name}",
                    "seconds": seconds,
                    "baseline_seconds": baseline,
                    "ratio": seconds / baseline,
                }
            )
        )


if __name__ == "__main__":
    main()
