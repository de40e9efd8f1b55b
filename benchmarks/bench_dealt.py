"""The shoe as dealt: every seed bet's round-average RTP over 8-deck shoes, per second, on
one core and on a local Dask cluster, and the time 10^6 shoes would take (extrapolated).

The issue's target is 10^6 8-deck shoes, every bet and mode of the seed game, in at most
10 minutes with Dask's local cluster. A run of that size is linear in the shoes (each
partition is independent, its cost the shoes it deals and the rounds it prices), so a
smaller run measures the rate and the full run's time is extrapolated from it: said so in
the output (``extrapolated: true``). One core's figure is given at the wall clock and in
the process's own CPU time (on a shared machine the two differ by the load).

    python benchmarks/bench_dealt.py [--shoes 2000] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from analyzer import seed_paytable
from analyzer.runs.as_dealt import DealRule, DealtJob, dealt_partition
from analyzer.runs.runner import run_partitions

PARTITION = 250
TARGET_SHOES = 10**6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    paytable = seed_paytable()
    columns = tuple((bet.id, mode) for bet, mode in paytable.offered(paytable.modes))
    job = DealtJob(paytable, columns, (8,) * 52, DealRule(14), 1)
    dealt_partition(job, 0, 4)  # warm: JIT and compiled terms
    start, cpu = time.perf_counter(), time.process_time()
    dealt_partition(job, 1, PARTITION)
    one_core = (time.perf_counter() - start) / PARTITION
    # The process's own CPU time: on a machine shared with other work, the wall clock
    # counts the others' turns too.
    one_core_cpu = (time.process_time() - cpu) / PARTITION
    sizes = [PARTITION] * max(1, args.shoes // PARTITION)

    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=args.workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        Client(cluster),
        tempfile.TemporaryDirectory() as folder,
    ):
        # One partition per worker first: each worker compiles the bets' terms once.
        run_partitions(
            dealt_partition, job, [4] * args.workers, Path(folder, "warm"), {"warm": 1},
            scheduler=cluster.scheduler_address, progress=False,
        )  # fmt: skip
        start = time.perf_counter()
        run_partitions(
            dealt_partition, job, sizes, Path(folder, "run"), {"run": 1},
            scheduler=cluster.scheduler_address, progress=False,
        )  # fmt: skip
        seconds = time.perf_counter() - start
    shoes = sum(sizes)
    print(
        json.dumps(
            {
                "benchmark": "dealt_every_seed_bet_8_decks",
                "columns": len(columns),
                "seconds_per_shoe_one_core": one_core,
                "cpu_seconds_per_shoe_one_core": one_core_cpu,
                "dask_workers": args.workers,
                "shoes": shoes,
                "seconds": seconds,
                "shoes_per_second": shoes / seconds,
                "target_shoes": TARGET_SHOES,
                "target_seconds_extrapolated": seconds * TARGET_SHOES / shoes,
                "workers_for_10_minutes_extrapolated": one_core * TARGET_SHOES / 600,
                "extrapolated": shoes < TARGET_SHOES,
            }
        )
    )


if __name__ == "__main__":
    main()
