"""The checkpoint of one deck's ``dealt --exact`` pass: the seconds to write it (a
temporary file flushed to disk, then renamed) and to read it back (every byte's CRC-32
checked), and what it costs the pass at the default interval.

The pass is not run (it takes 11-45 minutes of one core): its arrays are made at their
exact shape, filled with residues (an uncompressed file's cost does not depend on them).
A read straight after the write finds the file in the page cache; ``--cold`` asks the
kernel to drop its caches first (root only), as after a machine restart.

    python benchmarks/bench_dealt_checkpoint.py [--repeat 3] [--dir DIR] [--cold]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from analyzer import seed_paytable
from analyzer.engine.dealt_exact import PassState, rows
from analyzer.runs import as_dealt
from analyzer.runs.as_dealt import DealRule, DealtJob, PassCheckpoint, exact_plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where to write (default: a temporary folder)")
    parser.add_argument("--cold", action="store_true", help="drop the page cache before a read")
    args = parser.parse_args()
    paytable = seed_paytable()
    job = DealtJob(paytable, (("banker", "commission"),), (1,) * 52, DealRule(14), 1)
    plan, _, _ = exact_plan(job)
    group = plan.primes()[: as_dealt.PRIMES_PER_PASS]
    shape = (plan.shoe.states, len(group) * plan.buckets)
    rng = np.random.default_rng(0)
    a = rng.integers(0, group[-1], size=shape, dtype=np.int64)
    state = PassState(a, np.zeros((1, len(group)), dtype=np.int64), rows(plan.shoe) // 2)
    interval = as_dealt.CHECKPOINT_SECONDS
    as_dealt.CHECKPOINT_SECONDS = 0  # every keep writes
    writes, reads = [], []
    with tempfile.TemporaryDirectory(dir=args.dir) as base:
        folder = Path(base) / "dealt-exact-0123456789abcdef"
        folder.mkdir()
        checkpoint = PassCheckpoint(folder, group, rows(plan.shoe))
        for _ in range(args.repeat):
            state.row -= 1  # a new row reached: written again
            start = time.perf_counter()
            checkpoint.keep(state, False)
            writes.append(time.perf_counter() - start)
            size = checkpoint.path.stat().st_size
            if args.cold:
                subprocess.run(["sh", "-c", "sync; echo 3 > /proc/sys/vm/drop_caches"], check=False)
            start = time.perf_counter()
            back = PassCheckpoint(folder, group, rows(plan.shoe)).load(plan, 1)
            reads.append(time.perf_counter() - start)
            assert back is not None and back.row == state.row and (back.a == a).all()
            del back
    write = max(writes)  # the slowest write: the overhead's bound
    print(
        json.dumps(
            {
                "states": plan.shoe.states,
                "shape": list(shape),
                "bytes": size,
                "write_s": [round(x, 2) for x in writes],
                "read_s": [round(x, 2) for x in reads],
                "cold_reads": args.cold,
                "interval_s": interval,
                "overhead_at_interval": round(write / (interval + write), 4),
                "cpus": os.cpu_count(),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
