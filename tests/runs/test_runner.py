"""Partitioned runs: independent streams, resuming after a kill or Ctrl-C, and Dask."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from helpers import dask_cluster

from analyzer.runs.runner import Interrupted, partition_rng, run_folder, run_partitions

CLI = [sys.executable, "-m", "analyzer"]


def test_partition_streams_are_independent_and_reproducible() -> None:
    a, b = partition_rng(1, 0).random(4), partition_rng(1, 1).random(4)
    assert not np.allclose(a, b)
    assert np.array_equal(a, partition_rng(1, 0).random(4))


def _count(*extra: str, work: Path) -> dict:
    done = subprocess.run(
        [
            *CLI,
            "count",
            "--bet",
            "lucky_six",
            "--perfect",
            "--format",
            "json",
            "--no-progress",
            "--work-dir",
            str(work),
            *extra,
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(done.stdout)


@pytest.mark.slow
def test_killed_run_resumes_to_the_same_result(tmp_path) -> None:
    args = ["--shoes", "3000", "--partition-size", "200", "--seed", "9"]
    reference = _count(*args, "--workers", "1", work=tmp_path / "whole")
    work = tmp_path / "killed"
    process = subprocess.Popen(
        [
            *CLI,
            "count",
            "--bet",
            "lucky_six",
            "--perfect",
            "--no-progress",
            "--format",
            "json",
            "--work-dir",
            str(work),
            *args,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 120
    while time.time() < deadline and len(list(work.glob("*/part-*.npz"))) < 3:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    saved = {p: p.stat().st_mtime_ns for p in work.glob("*/part-*.npz")}
    assert 3 <= len(saved) < 15, "the run must be killed halfway"
    resumed = _count(*args, "--resume", work=work)
    assert resumed == reference
    for path, mtime in saved.items():
        assert path.stat().st_mtime_ns == mtime  # saved partitions were not run again


@pytest.mark.slow
def test_ctrl_c_saves_and_says_how_to_resume(tmp_path) -> None:
    work = tmp_path / "w"
    process = subprocess.Popen(
        [
            *CLI,
            "count",
            "--bet",
            "lucky_six",
            "--perfect",
            "--no-progress",
            "--workers",
            "1",
            "--shoes",
            "20000",
            "--partition-size",
            "100",
            "--work-dir",
            str(work),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline and len(list(work.glob("*/part-*.npz"))) < 2:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and out == ""
    assert "partitions are saved" in err and "--resume" in err and "Traceback" not in err


def test_runner_resume_matches_uninterrupted(tmp_path) -> None:
    def task(seed: int, index: int, size: int) -> dict:
        return {"x": partition_rng(seed, index).random(size)}

    sizes = [3] * 6
    whole = run_partitions(task, 5, sizes, tmp_path / "a", {}, workers=1, progress=False)
    calls = []

    def flaky(seed: int, index: int, size: int) -> dict:
        calls.append(index)
        if index == 3 and len(calls) < 5:
            raise KeyboardInterrupt
        return task(seed, index, size)

    with pytest.raises(Interrupted, match="3 of 6 partitions are saved"):
        run_partitions(flaky, 5, sizes, tmp_path / "b", {}, workers=1, progress=False)
    resumed = run_partitions(
        flaky, 5, sizes, tmp_path / "b", {}, resume=True, workers=1, progress=False
    )
    assert calls == [0, 1, 2, 3, 3, 4, 5]
    assert all(np.array_equal(x["x"], y["x"]) for x, y in zip(whole, resumed, strict=True))
    assert run_folder(tmp_path, {"a": 1}) != run_folder(tmp_path, {"a": 2})


@pytest.mark.slow
def test_dask_cluster_gives_the_same_result(tmp_path) -> None:
    with dask_cluster(tmp_path) as (address, _):
        args = ["--shoes", "600", "--partition-size", "100", "--seed", "4"]
        on_dask = _count(*args, "--scheduler", address, work=tmp_path / "dask")
        local = _count(*args, work=tmp_path / "local")
        assert on_dask == local
