"""``count``: card counting against one bet, its outputs, and a resumed run."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from helpers import run


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
