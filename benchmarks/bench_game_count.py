"""Counting a game dealt once: its batch engine against the exact analysis, and count's
shoes a second.

1. Every bet of each paytable (Dragon Tiger as the Wizard of Odds and Pragmatic Play deal
   it, Three Card Baccarat) on partly dealt shoes: compositions a second through the
   batch engine (:mod:`analyzer.engine.game_batch`) against the exact analysis of each
   composition, and the largest gap between them (both in the same process).
2. ``count_partition`` of every bet by perfect play: shoes a second on one core.

    python benchmarks/bench_game_count.py [--compositions 20000] [--shoes 500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

from analyzer import Shoe, analyze
from analyzer.engine.game_batch import game_batch
from analyzer.paytables.library import as_paytable
from analyzer.paytables.model import restricted
from analyzer.runs.counting import CountJob, count_partition
from analyzer.runs.dealer import Procedure

PAYTABLES = ("dragon-tiger", "dragon-tiger-pragmatic", "three-card-baccarat")


def _compositions(decks: int, n: int, seed: int = 1) -> np.ndarray:
    """``n`` shoes of ``decks`` decks dealt down to 20-100% of their cards."""
    rng = np.random.default_rng(seed)
    cards = np.repeat(np.arange(52), decks)
    rows = []
    for _ in range(n):
        left = int(rng.integers(len(cards) // 5, len(cards) + 1))
        rows.append(np.bincount(rng.choice(cards, left, replace=False), minlength=52))
    return np.array(rows)


def _best(repeat: int, work) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compositions", type=int, default=20_000)
    parser.add_argument("--exact", type=int, default=20, help="compositions analysed exactly")
    parser.add_argument("--shoes", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name in PAYTABLES:
        paytable = as_paytable(name)
        offered = list(paytable.offered(paytable.modes))
        bets = [bet for bet, _ in offered]
        batch = game_batch(paytable.game, bets)
        compositions = _compositions(paytable.decks, args.compositions)
        batch.expected_values(compositions[:10])  # warm: JIT
        batch_seconds = _best(args.repeat, lambda b=batch, c=compositions: b.expected_values(c))
        few = compositions[: args.exact]
        shoes = [Shoe(c.reshape(13, 4).sum(axis=1), c.reshape(13, 4)) for c in few]
        analyze(paytable=paytable, shoe=shoes[0])  # warm
        start = time.perf_counter()
        exact = [analyze(paytable=paytable, shoe=shoe) for shoe in shoes]
        exact_seconds = (time.perf_counter() - start) / len(shoes)
        floats = batch.expected_values(few)
        gap = max(
            abs(floats[i, b] - float(analysis.result(bet.id, mode).expected_value))
            for i, analysis in enumerate(exact)
            for b, (bet, mode) in enumerate(offered)
        )
        columns = tuple((bet.id, mode) for bet, mode in offered)
        job = CountJob(restricted(paytable, columns), columns, Procedure(paytable.decks, 14), 1)
        count_partition(job, 0, 5)  # warm
        count_seconds = _best(args.repeat, lambda job=job: count_partition(job, 0, args.shoes))
        per_second = args.compositions / batch_seconds
        print(
            json.dumps(
                {
                    "benchmark": "game_batch",
                    "paytable": name,
                    "decks": paytable.decks,
                    "bets": len(bets),
                    "terms_a_round": batch.terms,
                    "compositions_a_second": round(per_second),
                    "baseline": "the exact analysis of each composition",
                    "exact_compositions_a_second": round(1 / exact_seconds),
                    "speedup": round(per_second * exact_seconds),
                    "largest_gap_from_exact": gap,
                    "count_shoes_a_second_one_core": round(args.shoes / count_seconds),
                }
            )
        )


if __name__ == "__main__":
    main()
