"""The command line: the main job, play, and every bad input as one line with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
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


def test_play_json(capsys) -> None:
    code, out, _ = run(capsys, "play", "2S", "3H", "2D", "KC", "8H", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["player_cards"] == ["2S", "2D", "8H"]
    assert result["banker_cards"] == ["3H", "KC"]
    assert (result["player_score"], result["banker_score"]) == (2, 3)
    assert result["winner"] == "banker" and result["natural"] is False
    assert result["bets"]["banker"] == 0.95 and result["bets"]["player_pair"] == 11
    assert result["bets_by_mode"]["no_commission"]["banker"] == 1


def test_play_text_says_why(capsys) -> None:
    code, out, _ = run(capsys, "play", "KS", "5H", "6D", "AC", "--format", "text")
    assert code == 0
    # Player K + 6 = 6 stands; Banker 5 + A = 6 stands too (Player stood, Banker on 6).
    assert "Player has 6 (6-7): stands" in out
    assert "Player stood and Banker has 6 (6-7): stands" in out
    assert "Winner: Tie" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "--decks", "0"], "decks"),
        (["report", "--decks", "many"], "decks"),
        (["report", "--decks", "40"], "too large"),
        (["report", "--bet", "nope"], "unknown bet 'nope'"),
        (["report", "--mode", "nope"], "unknown mode 'nope'"),
        (["report", "--format", "xml"], "format"),
        (["play", "2S", "3H", "2D"], "too few cards"),
        (["play", "2S", "3H", "2D", "ZZ"], "unknown card 'ZZ'"),
        (["play", "2S", "3H", "2D", "KC", "8H", "9D"], "too many cards"),
        (["play", "2S", "3H", "2D", "KC", "8H", "--mode", "x"], "unknown mode"),
        ([], "COMMAND"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_module_entry_point_exit_status() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "play", "AS"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "baccarat-odds: error: too few cards: a round starts with 4 "
        "(Player, Banker, Player, Banker), got 1"
    ]
