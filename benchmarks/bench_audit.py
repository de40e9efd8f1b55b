"""Auditing a log: rounds per second, with the fit to the exact odds, and the time a
10-million-round log takes on this machine (issue 22 asks for at most 10 minutes).

A log of ``--rounds`` rounds (whole 8-deck shoes, seeded) is dealt by ``simulate``'s
logger, with the payouts of the Player, Banker and Tie (commission mode) as a table logs
them, then audited in one process: every check, and the fit (its shoe-aware test prices
every round on the cards left in its shoe). Prints JSON lines, one per log format:
``seconds`` (the audit), ``baseline_seconds`` (reading the same file with the standard
library's ``csv`` module, or pyarrow for Parquet: the rows alone, in the same process),
``ratio`` = seconds / baseline, ``rounds_per_second``, ``ten_million_seconds``, the
time 10 million rounds take at that rate (the audit streams: its time grows with the
rows, its memory does not), and ``peak_rss_mib``, the process's peak memory. Absolute
times on shared machines are noisy.

    python benchmarks/bench_audit.py [--rounds 200000] [--formats csv,parquet]
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import tempfile
import time
from pathlib import Path

from analyzer.paytables.model import paytable_from_dict
from analyzer.runs.audit_log import audit_log
from analyzer.runs.dealer import Procedure
from analyzer.runs.round_log import simulate_logged
from analyzer.runs.simulate import SimulationJob

#: About how many rounds an 8-deck shoe deals (cut card 14 from the end).
ROUNDS_PER_SHOE = 80

MAIN_BETS = {
    "name": "main bets",
    "decks": 8,
    "bet": [
        {"id": "player", "rule": [{"when": "winner == 'player'", "pays": "1:1"},
                                  {"when": "winner == 'tie'", "pays": "push"}]},
        {"id": "banker", "rule": [{"when": "winner == 'banker'", "pays": "19:20"},
                                  {"when": "winner == 'tie'", "pays": "push"}]},
        {"id": "tie", "rule": [{"when": "winner == 'tie'", "pays": "8:1"}]},
    ],
}  # fmt: skip


def dealt_log(folder: Path, rounds: int, fmt: str) -> Path:
    paytable = paytable_from_dict(MAIN_BETS)
    job = SimulationJob(paytable, Procedure(decks=8), seed=22, logged=True)
    shoes = -(-rounds // ROUNDS_PER_SHOE)
    sizes = [min(1000, shoes - start) for start in range(0, shoes, 1000)]
    path = folder / f"log.{fmt}"
    simulate_logged(job, sizes, path, fmt, progress=False)
    return path


def read_only(path: Path) -> int:
    """The rows of the log, read and dropped: the floor any reader of it pays."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        rows = 0
        for batch in pq.ParquetFile(path).iter_batches(batch_size=20_000):
            for column in batch.columns:
                column.to_pylist()
            rows += batch.num_rows
        return rows
    with path.open(newline="", encoding="utf-8") as stream:
        return sum(1 for _ in csv.reader(stream)) - 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--formats", default="csv,parquet")
    args = parser.parse_args()
    paytable = paytable_from_dict(MAIN_BETS)
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.formats.split(","):
            path = dealt_log(Path(folder), args.rounds, fmt)
            start = time.perf_counter()
            rows = read_only(path)
            baseline = time.perf_counter() - start
            start = time.perf_counter()
            result = audit_log(path, paytable, fit=True)
            seconds = time.perf_counter() - start
            assert result.rounds == rows and result.total == 0, "a clean log has no findings"
            assert not result.fit.failed, "a clean log passes every test"
            print(
                json.dumps(
                    {
                        "benchmark": f"audit with the fit, {fmt}",
                        "rounds": result.rounds,
                        "bytes": path.stat().st_size,
                        "seconds": seconds,
                        "baseline_seconds": baseline,
                        "ratio": seconds / baseline,
                        "rounds_per_second": result.rounds / seconds,
                        "ten_million_seconds": 1e7 * seconds / result.rounds,
                        # (of the whole process so far: the dealing of the log too)
                        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
