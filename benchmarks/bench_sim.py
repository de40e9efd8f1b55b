"""Simulation benchmark: dealt-and-settled rounds per second and counted shoes per second,
on one core and on local workers (processes, and a local Dask cluster on loopback).

Prints JSON lines; ``speedup`` is against the one-core run of the same work in this process.

    python benchmarks/bench_sim.py [--shoes 4000] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from analyzer import seed_paytable
from analyzer.paytables.model import restricted
from analyzer.runs.counting import CountJob, count_partition
from analyzer.runs.dealer import Procedure
from analyzer.runs.runner import run_partitions
from analyzer.runs.simulate import SimulationJob, simulate_partition

PARTITION = 250


def timed(task, job, sizes, **options) -> tuple[float, list]:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        results = run_partitions(task, job, sizes, Path(folder), {}, progress=False, **options)
        return time.perf_counter() - start, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    paytable = seed_paytable()
    n_parts = max(1, args.shoes // PARTITION)
    sizes = [PARTITION] * n_parts
    simulate_job = SimulationJob(paytable, Procedure(8, 14), 1)
    column = ("lucky_six", "commission")
    count_job = CountJob(restricted(paytable, [column]), (column,), Procedure(8, 14), 1)
    simulate_partition(simulate_job, 0, 2)  # warm the JIT caches
    count_partition(count_job, 0, 2)

    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=args.workers, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        for name, task, job, unit in (
            ("simulate", simulate_partition, simulate_job, "rounds"),
            ("count_perfect_play", count_partition, count_job, "shoes"),
        ):
            baseline = None
            for setting, options in (
                ("one_core", {"workers": 1}),
                (f"{args.workers}_processes", {"workers": args.workers}),
                (
                    f"dask_local_cluster_{args.workers}_workers",
                    {"scheduler": cluster.scheduler_address},
                ),
            ):
                seconds, results = timed(task, job, sizes, **options)
                amount = (
                    sum(int(r["rounds"].sum()) for r in results)
                    if unit == "rounds"
                    else n_parts * PARTITION
                )
                rate = amount / seconds
                baseline = baseline or rate
                print(
                    json.dumps(
                        {
                            "benchmark": f"{name}_{setting}",
                            "shoes": n_parts * PARTITION,
                            "seconds": seconds,
                            f"{unit}_per_second": rate,
                            "baseline": f"{name}_one_core",
                            "speedup": rate / baseline,
                        }
                    ),
                    flush=True,
                )


if __name__ == "__main__":
    main()
