"""A decision's fold, end to end: played, simulated, logged and audited, on a one-card game
whose surrender loses half the stake, and on Peek Baccarat with a surrender."""

from __future__ import annotations

import csv
import json
from fractions import Fraction

import pytest
from helpers import run

from analyzer import load_paytable
from analyzer.game.cards import parse_cards
from analyzer.game.shoe import Shoe
from analyzer.runs.decided import decided_tables, play_decided

FOLD_GAME = """\
name = "One card with a surrender"

[game]
name = "One card war"
hands = [{ name = "player", cards = 1 }, { name = "dealer", cards = 1 }]
score = "points"

[game.decision]
sees = ["player_card1"]
actions = [
    { name = "keep" },
    { name = "double", stake = 2 },
    { name = "surrender", pays = "lose 1/2" },
]

[[bet]]
id = "hand"
name = "Hand"
[[bet.rule]]
when = "winner == 'player'"
pays = "1:1"
[[bet.rule]]
when = "winner == 'tie'"
pays = "push"
"""


@pytest.fixture
def fold_game(tmp_path):
    path = tmp_path / "fold.toml"
    path.write_text(FOLD_GAME, encoding="utf-8")
    return path


def _play(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "play", *argv, "--format", "json")
    assert (code, err) == (0, "")
    return json.loads(out)


def test_play_settles_a_surrender_at_half_the_stake_whatever_the_cards(capsys, fold_game):
    # The player's 2 beats nothing the dealer's 9 does not: keep loses 1, surrender 1/2.
    kept = _play(capsys, "--paytable", str(fold_game), "2S", "9H", "--action", "keep")
    folded = _play(capsys, "--paytable", str(fold_game), "2S", "9H", "--action", "surrender")
    assert kept["bets"][0]["net_exact"] == "-1/1"
    assert folded["bets"][0]["net_exact"] == "-1/2"
    won = _play(capsys, "--paytable", str(fold_game), "9S", "2H", "--action", "surrender")
    assert won["bets"][0]["net_exact"] == "-1/2" and won["decision"]["action"] == "surrender"


def test_play_folds_where_the_exact_strategy_does(capsys, fold_game):
    # A 0 (a picture) loses or ties against every card: the best play surrenders.
    document = _play(capsys, "--paytable", str(fold_game), "KS", "5H")
    assert document["decision"]["action"] == "surrender"
    assert document["bets"][0]["net_exact"] == "-1/2"
    code, out, _ = run(capsys, "play", "--paytable", str(fold_game), "KS", "5H")
    assert code == 0 and "surrender, folds: lose 1/2 of the base stake" in out


def test_the_strategy_json_names_the_folds_payout(capsys, fold_game):
    code, out, _ = run(capsys, "strategy", "--paytable", str(fold_game), "--format", "json")
    assert code == 0
    actions = json.loads(out)["decision"]["actions"]
    assert [a["pays"] for a in actions] == [None, None, "lose 1/2"]


def test_a_simulated_log_of_folds_audits_clean_and_a_wrong_fold_payout_is_found(
    capsys, fold_game, tmp_path
):
    log = tmp_path / "log.csv"
    code, _, err = run(
        capsys, "simulate", "--paytable", str(fold_game), "--shoes", "6", "--seed", "3",
        "--log", str(log), "--no-progress",
    )  # fmt: skip
    assert code == 0, err
    with log.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    folds = [row for row in rows if row["action"] == "surrender"]
    assert folds and {row["pay:hand"] for row in folds} == {"-0.5"}
    assert {row["action"] for row in rows} == {"keep", "double", "surrender"}
    code, out, _ = run(capsys, "audit", "--paytable", str(fold_game), str(log))
    assert code == 0 and "No findings." in out
    folds[0]["pay:hand"] = "-1"
    with log.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    code, out, _ = run(capsys, "audit", "--paytable", str(fold_game), str(log))
    assert "payout: pay:hand logged -1: the paytable settles it -0.5" in out


def test_a_peek_surrender_is_played_at_half_the_base_stake_and_the_fee(tmp_path):
    from analyzer.files import shipped_folder

    path = shipped_folder("analyzer.paytables", "shipped", "paytables") / "peek-baccarat.toml"
    text = path.read_text(encoding="utf-8").replace(
        '    { name = "triple", stake = 3,',
        '    { name = "surrender", pays = "lose 1/2" },\n    { name = "triple", stake = 3,',
    )
    mine = tmp_path / "peek.toml"
    mine.write_text(text, encoding="utf-8")
    paytable = load_paytable(str(mine)).with_unknowns(
        {"s1": Fraction(1, 4), "s2": Fraction(35, 64), "s3": Fraction(1, 8)}
    )
    tables = decided_tables(paytable, Shoe.standard(8))
    cards = parse_cards("2S 3H 2D KC 8H")
    names = [a.name for a in paytable.decision.actions]
    surrender = paytable.decision.actions[names.index("surrender")]
    plays = play_decided(paytable, cards, 0, tables, surrender)
    assert {play.net for play in plays.values()} == {Fraction(-1, 2) - Fraction(1, 5)}
