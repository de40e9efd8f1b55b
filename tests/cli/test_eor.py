"""``eor``: effects of removal as JSON, and their chart."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from helpers import run


def test_eor_cli_json_and_plot(tmp_path, capsys) -> None:
    plot = tmp_path / "eor.png"
    code, out, _ = run(
        capsys,
        "eor",
        "--decks",
        "1",
        "--bet",
        "tie",
        "--mode",
        "commission",
        "--format",
        "json",
        "--plot",
        str(plot),
    )
    assert code == 0
    rows = json.loads(out)
    assert [r["rank"] for r in rows] == [
        "A",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
    ]
    assert all({"bet", "rank", "delta_ev", "delta_ev_exact", "tag"} <= set(r) for r in rows)
    assert all(abs(float(Fraction(r["delta_ev_exact"])) - r["delta_ev"]) < 1e-15 for r in rows)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("fmt", ["text", "csv", "markdown"])
def test_eor_of_bets_that_do_not_ask_for_suits_in_two_modes(capsys, fmt) -> None:
    """No bet asks for suits, so there is nothing by card: each bet is still shown once
    (the Tie is the same in both modes, the Banker is not)."""
    code, out, err = run(capsys, "eor", "--bet", "tie", "--bet", "banker", "--format", fmt)
    assert code == 0 and err == ""
    assert "tie (all)" in out or "tie,all" in out
    assert out.count("banker") >= 2


def test_mode_all_is_every_mode_as_both_is(capsys) -> None:
    outputs = {mode: run(capsys, "eor", "--bet", "tie", "--mode", mode) for mode in ("all", "both")}
    assert outputs["all"] == outputs["both"] and outputs["all"][0] == 0
    assert "tie (all)" in outputs["all"][1]  # one row for the Tie, the same in every mode
