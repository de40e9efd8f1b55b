"""Dealing and settling rounds on one core: ``simulate``'s partitions against the way they
were settled before, and against shuffling and dealing alone.

Issue 23 asks that ``simulate`` deal and settle at least twice as many rounds per second
per core as it did, for the 9 bets of the open-source peer and for all 36 (bet, mode)
columns of the seed game. Before, each shoe was dealt by its own kernel call and every
bet settled by evaluating its conditions on every dealt round (numpy); the rate of that
code is measured here in the same run (``before``, kept below as it was), with a check
that both give the same sums. ``floor`` is shuffling and dealing alone (no bet settled):
the most a simulator of this dealer can do.

Prints JSON lines per case: rounds per second now, before and at the floor, and the
ratios ``speedup`` (now over before) and ``of_floor`` (now over the floor).

    python benchmarks/bench_simulate.py [--shoes 250] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from bench_analysis import PEER_BETS
from timing import best_times

from analyzer import seed_paytable
from analyzer.paytables.model import restricted
from analyzer.paytables.settle import Settlement, settling_rule
from analyzer.runs.dealer import (
    Drawing,
    Procedure,
    deal_shoe,
    deal_shoes,
    join_rounds,
    round_columns,
    shuffled_shoe,
)
from analyzer.runs.runner import partition_rng
from analyzer.runs.simulate import SimulationJob, simulate_partition


def settled_before(job: SimulationJob, index: int, shoes: int) -> dict[str, np.ndarray]:
    """A partition as it was settled before (bets on the round's outcome only)."""
    rng = partition_rng(job.seed, index)
    offered = list(job.paytable.offered(job.paytable.modes))
    drawing = Drawing.of(job.paytable.rules, job.paytable.strategy)
    dealt = [
        deal_shoe(shuffled_shoe(rng, job.procedure.decks), job.procedure, drawing, rng)
        for _ in range(shoes)
    ]
    rounds = join_rounds(dealt)
    shoe_of_round = np.repeat(np.arange(shoes), [len(d) for d in dealt])
    columns = round_columns(rounds, drawing.naturals)
    totals = np.zeros((shoes, len(offered)))
    squares = np.zeros((shoes, len(offered)))
    counts = np.zeros((shoes, len(offered)))
    for b, (bet, _) in enumerate(offered):
        index = settling_rule(bet, columns, len(rounds))
        nets = Settlement(bet).paid_nets(index, columns["winner"], None)
        on_offer = rounds["round"] <= (bet.max_round or np.iinfo(np.int64).max)
        totals[:, b] = np.bincount(shoe_of_round, weights=nets * on_offer, minlength=shoes)
        squares[:, b] = np.bincount(shoe_of_round, weights=nets**2 * on_offer, minlength=shoes)
        counts[:, b] = np.bincount(shoe_of_round, weights=on_offer, minlength=shoes)
    rounds_per_shoe = np.array([len(d) for d in dealt], dtype=np.int64)
    return {"totals": totals, "counts": counts, "squares": squares, "rounds": rounds_per_shoe}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=250)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    paytable = seed_paytable()
    procedure = Procedure(8, 14)
    cases = {
        "the peer's 9 bets": restricted(paytable, [(bet, "commission") for bet in PEER_BETS]),
        "every seed bet, both modes": paytable,
    }
    for name, chosen in cases.items():
        job = SimulationJob(chosen, procedure, 1)
        now, before = simulate_partition(job, 0, args.shoes), settled_before(job, 0, args.shoes)
        for key, value in now.items():  # the same rounds, the same sums
            assert np.allclose(value, before[key], rtol=0, atol=1e-9), key
        rounds = int(now["rounds"].sum())
        times = best_times(
            {
                "now": lambda job=job: simulate_partition(job, 0, args.shoes),
                "before": lambda job=job: settled_before(job, 0, args.shoes),
                "floor": lambda: deal_shoes(partition_rng(1, 0), args.shoes, procedure),
            },
            args.repeat,
        )
        print(
            json.dumps(
                {
                    "benchmark": f"simulate, {name}",
                    "columns": job.n_columns,
                    "shoes": args.shoes,
                    "rounds": rounds,
                    "rounds_per_second": rounds / times["now"],
                    "before_rounds_per_second": rounds / times["before"],
                    "floor_rounds_per_second": rounds / times["floor"],
                    "speedup": times["before"] / times["now"],
                    "of_floor": times["floor"] / times["now"],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
