"""The exact analysis against a compiled double-precision engine doing the same walk.

Issue 23 asks that ``analyze`` of every seed bet in both modes (36 (bet, mode) columns),
exact Fractions, cost at most 2x a plain compiled float engine over the same value-level
rounds, and the 9 bets of the open-source peer (Player, Banker, Tie, both pairs, either
pair, perfect pair, both naturals) at most 1.2x that engine restricted to them.

The float engine is built here, outside the timing, the way a float engine is compiled for
a paytable: the enumerator's own kernels specialised by Numba to float64 arrays (the same
loops, the same leaves, in doubles), and per bet and mode a table of its net per unit paid
in every outcome cell a round can reach (its paytable "compiled"). Timed, it deals the
first four cards by pair state, walks every round, and takes the 36 (or 9) expected values
as one matrix product of the cells' weights with that table: the fastest a float engine
of this algorithm is. Each figure of the exact analysis is checked against it (1e-12).

The exact analysis is timed with every column's expected value read (a result makes its
Fractions when they are read: what the float engine gives is what is read).

Prints JSON lines: ``seconds`` (the exact analysis, warm, the store of counts off),
``baseline_seconds`` (the float engine, timed in turn with it) and ``ratio``.
Absolute times on shared machines are noisy; compare the ratios.

    python benchmarks/bench_analysis.py [--decks 8] [--repeat 100]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

import numpy as np
from numba import njit
from timing import best_times

from analyzer import Shoe, analyze
from analyzer.analysis.exact import table_detail
from analyzer.engine import enumerator
from analyzer.engine.outcomes import outcome_table
from analyzer.engine.pricing import pricing
from analyzer.game.cards import N_RANKS, N_SUITS, RANK_VALUES
from analyzer.game.fields import N_PAIR_STATES, fold_suited_pairs
from analyzer.paytables.library import seed_paytable
from analyzer.paytables.settle import Settlement, settling_rule

#: The peer's 9 bets, as the seed game names them (the Banker with its commission).
PEER_BETS = (
    "player",
    "banker",
    "tie",
    "player_pair",
    "banker_pair",
    "any_pair",
    "perfect_pair",
    "player_natural",
    "banker_natural",
)

# The enumerator's kernels, compiled again for float64 counts: the same loops in doubles.
_float_first_four = njit(enumerator._first_four_pairs_jit.py_func)
_float_walk = njit(enumerator._walk_jit.py_func)


def float_engine(shoe: Shoe, bets: tuple[str, ...] | None, mode: str) -> Callable[[], np.ndarray]:
    """A float engine for the seed game's ``bets`` in ``mode`` on ``shoe``: a function
    returning each (bet, mode) column's expected value per unit paid, in offered order."""
    paytable = seed_paytable()
    analysis = analyze(paytable=paytable, shoe=shoe, bets=bets, mode=mode)
    detail = table_detail([pricing(r.bet) for r in analysis.results], shoe.suits_known)
    if detail == "none":
        raise SystemExit("the float engine here walks pair states: a bet on pairs is needed")
    counts = enumerator.mixture_outcomes(shoe, detail, paytable.mixture)
    # The cells a round can reach and each column's net per unit paid there (floats).
    reached = np.flatnonzero(counts.counts.reshape(-1))
    table = outcome_table(counts)
    nets = np.zeros((len(reached), len(analysis.results)))
    for j, result in enumerate(analysis.results):
        settlement = Settlement(result.bet)
        net = np.array([float(n) for n in settlement.nets()])
        nets[:, j] = settlement.per_paid(net[settling_rule(result.bet, table.columns, len(table))])
    if detail == "suit":
        type_counts = shoe.suit_counts.reshape(-1)
        type_ranks = np.repeat(np.arange(N_RANKS, dtype=np.int64), N_SUITS)
    else:
        type_counts = shoe.rank_counts
        type_ranks = np.arange(N_RANKS, dtype=np.int64)
    type_counts = type_counts.astype(np.float64)
    type_values = RANK_VALUES[type_ranks].astype(np.int64)
    rank_start = np.searchsorted(type_ranks, np.arange(N_RANKS + 1)).astype(np.int64)
    values = shoe.value_counts.astype(np.float64)
    third_card = paytable.mixture[0][1].third_card
    denominator = float(shoe.rounds_denominator)
    grouped = detail == "suit"

    def run() -> np.ndarray:
        first_four = np.zeros((10,) * 4 + (N_PAIR_STATES**2,))
        _float_first_four(
            type_counts, type_values, type_ranks, rank_start, grouped, shoe.take, first_four
        )
        if not grouped:
            fold_suited_pairs(first_four.reshape((*first_four.shape[:4], 3, 3)))
        walked = np.zeros((N_PAIR_STATES**2, 10, 10, 11, 11))
        _float_walk(values, first_four, third_card, shoe.take, walked)
        return walked.reshape(-1)[reached] @ nets / denominator

    expected = run()
    for j, result in enumerate(analysis.results):  # the engine is right, or no timing
        assert abs(expected[j] - float(result.expected_value)) < 1e-12, (result.bet.id, result.mode)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    shoe = Shoe.standard(args.decks)
    paytable = seed_paytable()
    cases = {
        "every seed bet, both modes": (None, "both"),
        "the peer's 9 bets": (PEER_BETS, "commission"),
    }
    for name, (bets, mode) in cases.items():
        engine = float_engine(shoe, bets, mode)
        columns = len(analyze(paytable=paytable, shoe=shoe, bets=bets, mode=mode).results)
        times = best_times(
            {
                "float": engine,
                "exact": lambda bets=bets, mode=mode: [
                    result.expected_value  # what the float engine gives, as Fractions
                    for result in analyze(
                        paytable=paytable, shoe=shoe, bets=bets, mode=mode
                    ).results
                ],
            },
            args.repeat,
        )
        print(
            json.dumps(
                {
                    "benchmark": f"exact analysis, {name}",
                    "decks": args.decks,
                    "columns": columns,
                    "seconds": times["exact"],
                    "baseline": "the enumerator's kernels in float64 and a matrix product",
                    "baseline_seconds": times["float"],
                    "ratio": times["exact"] / times["float"],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
