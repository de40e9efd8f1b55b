"""Batch engine benchmark: compositions per second against the per-composition enumerator.

Both run on the same random compositions (full to nearly exhausted 8-deck shoes), every
bet of the seed paytable in both modes, one core, in one process. Prints JSON lines with
``compositions_per_second`` and, for the batch engine, ``speedup`` over the exact
per-composition analysis and the largest absolute difference from it.

Then the same for shipped card-level paytables (the card walk's compiled terms against
the exact card walk of each composition), with the one-off time to compile the terms.

    python benchmarks/bench_batch.py [--compositions 50000] [--exact-sample 60]
        [--card-compositions 5000] [--card-exact-sample 3] [--card-paytables monkey ...]
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

from analyzer import Shoe, analyze, load_paytable, seed_paytable
from analyzer.engine.batch import batch_expected_values

#: Card paytables benchmarked by default: colour, rank, rank-and-suit and poker bets.
CARD_PAYTABLES = ["monkey", "super-tie", "majestic-match", "lucky-nines", "jackpot-baccarat"]


def random_compositions(rng: np.random.Generator, n: int, decks: int = 8) -> np.ndarray:
    """Per-card compositions of shoes with 6 to 52 * decks cards left."""
    full = 52 * decks
    rows = np.full((n, 52), decks, dtype=np.int64)
    for row, left in zip(rows, rng.integers(6, full + 1, n), strict=True):
        np.subtract.at(row, rng.choice(full, full - left, replace=False) // decks, 1)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compositions", type=int, default=50_000)
    parser.add_argument("--exact-sample", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--card-compositions", type=int, default=5_000)
    parser.add_argument("--card-exact-sample", type=int, default=3)
    parser.add_argument("--card-paytables", nargs="*", default=CARD_PAYTABLES)
    args = parser.parse_args()
    paytable = seed_paytable()
    compositions = random_compositions(np.random.default_rng(args.seed), args.compositions)
    batch_expected_values(paytable, compositions[:10])  # warm: JIT and compiled terms

    start = time.perf_counter()
    batch = batch_expected_values(paytable, compositions)
    batch_seconds = time.perf_counter() - start
    batch_rate = len(compositions) / batch_seconds

    sample = compositions[: args.exact_sample]
    analyze(paytable=paytable)  # warm
    worst = 0.0
    start = time.perf_counter()
    exact = []
    for comp in sample:
        suits = comp.reshape(13, 4)
        exact.append(analyze(paytable=paytable, shoe=Shoe(suits.sum(axis=1), suits)))
    exact_seconds = time.perf_counter() - start
    exact_rate = len(sample) / exact_seconds
    for row, analysis in enumerate(exact):
        for result in analysis.results:
            error = abs(batch.loc[row, (result.bet.id, result.mode)] - result.expected_value)
            worst = max(worst, float(error))

    bets = batch.shape[1]
    print(
        json.dumps(
            {
                "benchmark": "exact_per_composition",
                "compositions": len(sample),
                "bets": bets,
                "seconds": exact_seconds,
                "compositions_per_second": exact_rate,
            }
        )
    )
    print(
        json.dumps(
            {
                "benchmark": "batch_engine",
                "compositions": len(compositions),
                "bets": bets,
                "seconds": batch_seconds,
                "compositions_per_second": batch_rate,
                "baseline": "exact_per_composition",
                "speedup": batch_rate / exact_rate,
                "max_abs_error_vs_exact": worst,
            }
        )
    )

    rng = np.random.default_rng(args.seed + 1)
    for name in args.card_paytables:
        card_benchmark(name, random_compositions(rng, args.card_compositions), args)


def card_benchmark(name: str, compositions: np.ndarray, args: argparse.Namespace) -> None:
    """One card paytable: compile once, then compositions per second against the exact
    card walk of each composition."""
    paytable = load_paytable(name)
    start = time.perf_counter()
    batch_expected_values(paytable, compositions[:10])  # compiles the terms (and the JIT)
    compile_seconds = time.perf_counter() - start
    start = time.perf_counter()
    batch = batch_expected_values(paytable, compositions)
    batch_seconds = time.perf_counter() - start
    sample = compositions[: args.card_exact_sample]
    start = time.perf_counter()
    worst = 0.0
    for row, comp in enumerate(sample):
        suits = comp.reshape(13, 4)
        for result in analyze(paytable=paytable, shoe=Shoe(suits.sum(axis=1), suits)).results:
            error = abs(batch.loc[row, (result.bet.id, result.mode)] - result.expected_value)
            worst = max(worst, float(error))
    exact_rate = len(sample) / (time.perf_counter() - start)
    batch_rate = len(compositions) / batch_seconds
    print(
        json.dumps(
            {
                "benchmark": "batch_card_bets",
                "paytable": name,
                "bets": batch.shape[1],
                "compositions": len(compositions),
                "compile_seconds": compile_seconds,
                "compositions_per_second": batch_rate,
                "baseline": "exact card walk per composition",
                "baseline_compositions_per_second": exact_rate,
                "speedup": batch_rate / exact_rate,
                "max_abs_error_vs_exact": worst,
            }
        )
    )


if __name__ == "__main__":
    main()
