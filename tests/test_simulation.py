"""Dealing shoes, the Monte Carlo cross-check, counting, resuming and Dask."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import run

from analyzer import deal_round, seed_paytable
from analyzer.game.cards import Card
from analyzer.runs.dealer import Procedure, deal_shoe, first_round_start, shuffled_shoe
from analyzer.runs.runner import Interrupted, partition_rng, run_folder, run_partitions
from analyzer.runs.simulate import SimulationJob, simulate_partition, simulation_summary

CLI = [sys.executable, "-m", "analyzer"]


def test_dealing_follows_the_procedure() -> None:
    procedure = Procedure()
    for seed in range(20):
        cards = shuffled_shoe(np.random.default_rng(seed), 8)
        assert np.array_equal(cards, shuffled_shoe(np.random.default_rng(seed), 8))
        rounds = deal_shoe(cards, procedure)
        shown_value = [10, 1, 2, 3, 4, 5, 6, 7, 8, 9][Card(int(cards[0]) // 4).value]
        assert rounds["start"][0] == first_round_start(cards, procedure) == 1 + shown_value
        assert list(rounds["round"]) == list(range(1, len(rounds) + 1))
        ends = rounds["start"] + rounds["cards"]
        assert np.array_equal(rounds["start"][1:], ends[:-1])  # rounds follow one another
        cut = procedure.cards - procedure.cut_card
        assert ends[-1] > cut and (ends[:-1] <= cut).all()  # the cut card closes the shoe
        for record in rounds[::7]:
            start, used = record["start"], record["cards"]
            dealt = deal_round([Card(int(c) // 4, int(c) % 4) for c in cards[start : start + used]])
            assert (dealt.player_score, dealt.banker_score) == (
                record["player_score"],
                record["banker_score"],
            )
            thirds = [
                c[2].value if len(c) > 2 else -1 for c in (dealt.player_cards, dealt.banker_cards)
            ]
            assert thirds == [record["player_third"], record["banker_third"]]


def test_procedure_checks_the_cut_card() -> None:
    with pytest.raises(Exception, match="cut card"):
        Procedure(8, 3)


def test_simulation_agrees_with_every_exact_edge() -> None:
    """A statistical test with a fixed seed: every bet within 4 standard errors."""
    paytable = seed_paytable()
    procedure = Procedure()
    job = SimulationJob(paytable, procedure, 2026)
    results = [simulate_partition(job, i, 1500) for i in range(2)]
    summary = simulation_summary(paytable, procedure, results)
    assert len(summary) == 36 and (summary["rounds_bet"] > 0).all()
    assert (summary["z"].abs() < 4).all(), summary[summary["z"].abs() >= 4]
    assert (summary["std_error"] < 0.05).all()


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


def test_count_json_and_outputs(tmp_path, capsys) -> None:
    out, plot = tmp_path / "rounds.csv", tmp_path / "ev.png"
    code, text, _ = run(
        capsys,
        "count",
        "--bet",
        "lucky_six",
        "--shoes",
        "300",
        "--perfect",
        "--format",
        "json",
        "--no-progress",
        "--work-dir",
        str(tmp_path / "w"),
        "--out",
        str(out),
        "--plot",
        str(plot),
        "--workers",
        "1",
    )
    assert code == 0
    result = json.loads(text)
    for key in (
        "shoes",
        "rounds_per_shoe",
        "bet_frequency",
        "edge_when_bet",
        "units_per_shoe",
        "units_per_100_rounds",
        "bet_frequency_se",
        "units_per_shoe_se",
    ):
        assert key in result
    assert result["shoes"] == 300 and result["max_round"] == 50
    with_limit, without = result["with_limit"], result["without_limit"]
    assert with_limit["bet_frequency"] <= without["bet_frequency"]
    assert without["edge_when_bet"] > 0  # perfect play only bets positive EVs
    rounds = np.genfromtxt(out, delimiter=",", names=True)
    assert rounds["round"][0] == 1 and rounds["shoes"][0] == 300
    assert plot.read_bytes()[:4] == b"\x89PNG"
    parquet = tmp_path / "rounds.parquet"
    code, again, _ = run(
        capsys,
        "count",
        "--bet",
        "lucky_six",
        "--shoes",
        "300",
        "--perfect",
        "--format",
        "json",
        "--no-progress",
        "--work-dir",
        str(tmp_path / "w"),
        "--out",
        str(parquet),
        "--workers",
        "1",
        "--resume",
    )
    assert code == 0 and json.loads(again) == result  # resumed from the saved partitions
    table = pd.read_parquet(parquet)
    assert np.allclose(table["mean_ev"], rounds["mean_ev"])
    assert (table["positive_ev_share"] <= table["bet_share_without_limit"] + 1e-12).all()


def test_linear_count_with_given_tags(tmp_path, capsys) -> None:
    code, text, _ = run(
        capsys,
        "count",
        "--bet",
        "tie",
        "--shoes",
        "200",
        "--tags",
        "6=-4,7=-4,8=2,9=2,10=2,J=2,Q=2,K=2,2=-1,3=-1,4=-1,5=-1",
        "--threshold",
        "5",
        "--format",
        "json",
        "--no-progress",
        "--work-dir",
        str(tmp_path),
        "--workers",
        "1",
    )
    assert code == 0
    result = json.loads(text)
    assert "bet at true count >= 5.0" in result["strategy"]
    assert result["headline"] == "without_limit"  # the Tie has no max round


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


def test_dask_cluster_gives_the_same_result(tmp_path) -> None:
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False")
    scheduler_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = subprocess.Popen(
        [
            *dask,
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(scheduler_file),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    worker = None
    try:
        deadline = time.time() + 60
        while not scheduler_file.exists() and time.time() < deadline:
            time.sleep(0.1)
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                "--scheduler-file",
                str(scheduler_file),
                "--nworkers",
                "2",
                "--nthreads",
                "1",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        args = ["--shoes", "600", "--partition-size", "100", "--seed", "4"]
        on_dask = _count(*args, "--scheduler", address, work=tmp_path / "dask")
        local = _count(*args, work=tmp_path / "local")
        assert on_dask == local
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count", "--bet", "tie", "--shoes", "10", "--cut-card", "3"], "cut card must leave"),
        (["count", "--bet", "nope", "--shoes", "10"], "unknown bet 'nope'"),
        (["count", "--bet", "tie", "--shoes", "10", "--perfect", "--tags", "A=1"], "--perfect"),
        (["count", "--bet", "tie", "--shoes", "10", "--tags", "A=x"], "bad tag"),
        (["count", "--bet", "tie", "--shoes", "10", "--out", "r.xlsx"], ".csv or .parquet"),
        (["count", "--bet", "tie", "--shoes", "0"], "at least 1"),
        (["count", "--bet", "player_pair", "--shoes", "10"], "no linear count"),
        (["simulate"], "--shoes"),
        (
            ["simulate", "--shoes", "5", "--scheduler", "tcp://127.0.0.1:9", "--work-dir", "{tmp}"],
            "cannot reach the Dask scheduler",
        ),
    ],
)
def test_bad_run_options(tmp_path, capsys, argv, message) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if "--work-dir" not in argv:
        argv += ["--work-dir", str(tmp_path)]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
