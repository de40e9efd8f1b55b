"""Auditing by group: a log audited with its dealer, table and studio columns (and its
stakes) against the same rounds audited as one stream (issue 44 asks for at most twice).

A log of ``--rounds`` rounds (whole 8-deck shoes, seeded, the main bets' payouts logged)
is dealt as :mod:`bench_audit` deals it, then written twice: as it is, and with each
shoe's ``dealer`` (one of ``--dealers``), ``table`` (one of 6) and ``studio`` (one of 2),
and ``stake:player``, ``stake:banker`` columns. Both are audited with the fit, in one
process, after a small audit that compiles the kernels; the better of ``--repeat`` runs
of each is kept. Prints one JSON line: ``seconds`` (grouped), ``baseline_seconds`` (one
stream), ``ratio`` = seconds / baseline, the groups and the tests run. Absolute times on
shared machines are noisy; the ratio less so.

    python benchmarks/bench_audit_groups.py [--rounds 50000] [--dealers 20] [--repeat 2]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_audit import MAIN_BETS, dealt_log

from analyzer.paytables.model import paytable_from_dict
from analyzer.runs.audit_log import audit_log


def grouped_copy(path: Path, target: Path, dealers: int) -> Path:
    """The log with each shoe's dealer, table and studio, and stakes on two bets."""
    with (
        path.open(newline="", encoding="utf-8") as source,
        target.open("w", newline="", encoding="utf-8") as out,
    ):
        reader = csv.DictReader(source)
        names = [*reader.fieldnames, "dealer", "table", "studio", "stake:player", "stake:banker"]
        writer = csv.DictWriter(out, names)
        writer.writeheader()
        for i, row in enumerate(reader):
            shoe = int(row["shoe"])
            row["dealer"] = f"D{shoe % dealers}"
            row["table"] = f"T{shoe % 6}"
            row["studio"] = f"S{shoe % 2}"
            row["stake:player"] = str(5 + i % 7)
            row["stake:banker"] = str(10 * (1 + i % 3))
            writer.writerow(row)
    return target


def timed(path: Path, paytable, repeat: int):
    best, result = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = audit_log(path, paytable, fit=True)
        seconds = time.perf_counter() - start
        best = seconds if best is None else min(best, seconds)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50_000)
    parser.add_argument("--dealers", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    paytable = paytable_from_dict(MAIN_BETS)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        warm = dealt_log(folder, 2000, "csv")
        audit_log(grouped_copy(warm, folder / "warm.csv", args.dealers), paytable, fit=True)
        plain = dealt_log(folder, args.rounds, "csv")
        grouped = grouped_copy(plain, folder / "grouped.csv", args.dealers)
        baseline, one = timed(plain, paytable, args.repeat)
        seconds, result = timed(grouped, paytable, args.repeat)
        assert result.rounds == one.rounds and result.total == 0, "a clean log has no findings"
        tested = [g for g in result.groups.groups if g.tested]
        print(
            json.dumps(
                {
                    "benchmark": "audit by dealer, table and studio, with stakes, csv",
                    "rounds": result.rounds,
                    "groups": len(result.groups.groups),
                    "groups_tested": len(tested),
                    "tests_run": sum(len(g.fit.run) for g in tested),
                    "seconds": seconds,
                    "baseline_seconds": baseline,
                    "ratio": seconds / baseline,
                    "target_ratio": 2.0,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
