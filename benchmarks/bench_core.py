"""Core benchmark: warm Numba kernels and full analysis against the pure-Python reference.

Prints one JSON line per measurement: ``seconds`` (best of the repeats, warm JIT),
``baseline_seconds`` (the tests' brute-force reference doing the same work, same process)
and ``speedup`` = baseline / seconds. Absolute times on shared machines are noisy; the
ratio is what to compare between runs.

    python benchmarks/bench_core.py [--decks 8] [--repeat 200]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import naive
from timing import best_time

from analyzer import Shoe, analyze, count_outcomes
from analyzer.engine.enumerator import (
    _walk_jit,
    first_four_counts,
)
from analyzer.game.rules import THIRD_CARD


def emit(name: str, seconds: float, baseline: float | None = None, **extra) -> None:
    record = {"benchmark": name, "seconds": seconds, **extra}
    if baseline is not None:
        record["baseline"] = "tests/naive.py (pure Python)"
        record["baseline_seconds"] = baseline
        record["speedup"] = baseline / seconds
    print(json.dumps(record), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    shoe = Shoe.standard(args.decks)
    values = shoe.value_counts
    suits = shoe.suit_counts.tolist()

    first_four = first_four_counts(shoe, "none")
    out = np.zeros((1, 10, 10, 11, 11), dtype=np.int64)

    def walk_only() -> None:
        out[:] = 0
        _walk_jit(values, first_four, THIRD_CARD, 1, out)

    value_baseline = best_time(lambda: naive.reference_value_counts(values.tolist()), 1)
    emit("walk_kernel_values", best_time(walk_only, args.repeat), value_baseline, decks=args.decks)
    emit(
        "count_outcomes_values",
        best_time(lambda: count_outcomes(shoe, "none"), args.repeat),
        value_baseline,
        decks=args.decks,
    )
    suit_baseline = best_time(lambda: naive.reference_counts(suits), 1)
    emit(
        "count_outcomes_suits",
        best_time(lambda: count_outcomes(shoe, "suit"), args.repeat),
        suit_baseline,
        decks=args.decks,
    )

    def full_reference() -> None:
        counts = naive.reference_counts(suits)
        for result in analysis.results:
            naive.expected_value(counts, result.bet.id, result.mode)

    analysis = analyze(decks=args.decks)
    emit(
        "full_analysis",
        best_time(lambda: analyze(decks=args.decks).summary, max(5, args.repeat // 10)),
        best_time(full_reference, 1),
        decks=args.decks,
        bets=len(analysis.results),
    )


if __name__ == "__main__":
    main()
