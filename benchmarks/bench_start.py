"""How fast the command line starts: ``play`` settling a round, ``--help``,
``report --bet tie`` and the whole ``report`` (every seed bet, both modes, the claim; its
counts in the store, as a user's second run finds them), each against
``python -c "import numpy"`` timed in the same run (issue 21 asks for at most 1.5x and
2.5x, issue 45 the whole report at most 1.5x).

Prints JSON lines: best wall-clock seconds of each over ``--repeat`` fresh processes (the
commands and the baseline run in turn), ``baseline_seconds`` (the numpy import) and
``ratio``. Absolute times on shared machines are noisy; compare the ratios. The processes
write and read compiled bytecode as a user's install does (``PYTHONDONTWRITEBYTECODE`` is
dropped: with it, every start compiles the modules' source again, some 60 ms here).

    python benchmarks/bench_start.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

COMMANDS = {
    "play": ["play", "2S", "3H", "2D", "KC", "8H"],
    "--help": ["--help"],
    "report --bet tie": ["report", "--bet", "tie"],
    "report": ["report"],
}


#: The environment of the timed processes: bytecode cached, as in a user's install.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def best_runs(argvs: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """The best wall-clock seconds of each command over ``repeat`` rounds, a round running
    each once in turn, so that a slow spell of the machine slows all of them alike."""
    for argv in argvs.values():  # writes bytecode
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, env=ENV)
    best = dict.fromkeys(argvs, float("inf"))
    for _ in range(repeat):
        for name, argv in argvs.items():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, env=ENV)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for warm in ("report --bet tie", "report"):  # the store of counts, the Numba cache
        subprocess.run([sys.executable, "-m", "analyzer", *COMMANDS[warm]],
                       stdout=subprocess.DEVNULL, check=True, env=ENV)  # fmt: skip
    argvs = {"numpy": [sys.executable, "-c", "import numpy"]}
    argvs |= {name: [sys.executable, "-m", "analyzer", *argv] for name, argv in COMMANDS.items()}
    best = best_runs(argvs, args.repeat)
    baseline = best.pop("numpy")
    for name, seconds in best.items():
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
