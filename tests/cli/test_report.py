"""``report``: the main job, every format, with and without detail."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from helpers import run

from analyzer import analyze


def test_report_default_is_every_bet_both_modes_with_verdict(capsys) -> None:
    code, out, err = run(capsys, "report")
    assert code == 0 and err == ""
    for name in ("Player", "Banker", "Tie", "Perfect Pair", "Super Lucky Seven", "Banker Bonus"):
        assert name in out
    assert out.count("No Commission Baccarat") == 19  # 18 bets in that mode, and the title
    assert out.count("Baccarat (commission)") == 19
    assert "Claimed maximum RTP 98.94%" in out and "CONFIRMED" in out


def test_report_json_objects(capsys) -> None:
    code, out, _ = run(capsys, "report", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 36
    keys = {
        "bet",
        "mode",
        "house_edge",
        "rtp",
        "house_edge_percent",
        "rtp_percent",
        "hit_frequency",
        "std_dev",
        "max_round",
    }
    assert all(keys <= set(row) for row in rows)
    banker = next(r for r in rows if r["bet"] == "banker" and r["mode"] == "commission")
    exact = analyze(mode="commission", bets=["banker"]).result("banker").house_edge
    assert Fraction(banker["house_edge"]) == exact
    p, q = banker["rtp"].split("/")
    assert Fraction(int(p), int(q)) == 1 - exact and Fraction(banker["rtp"]).denominator == int(q)
    assert next(r for r in rows if r["bet"] == "tie")["max_round"] is None


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv", "json"])
def test_report_formats_with_detail(capsys, fmt) -> None:
    code, out, _ = run(
        capsys,
        "report",
        "--decks",
        "2",
        "--mode",
        "no_commission",
        "--bet",
        "banker",
        "--bet",
        "lucky_six",
        "--detail",
        "--format",
        fmt,
    )
    assert code == 0
    assert "lucky_six" in out or "Lucky Six" in out
    assert "winner == 'banker' and banker_score == 6" in out
