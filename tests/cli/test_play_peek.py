"""``play`` and ``simulate`` of a punto banco paytable with a player's decision (Peek
Baccarat): hand-picked rounds settled by hand (the drawing rules of tests/naive.py, the
stake of the action, the fee on the base stake), the default action against the exact
strategy the strategy command lists, --action and --decisions, and bad inputs through
the installed command (one line, exit 2)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import naive
import naive_family as nf
import pandas as pd
import pytest
from helpers import run

from analyzer import analyze, load_paytable

PEEK = ("--paytable", "peek-baccarat", "--unknowns", "s1=1/8,s2=3/4,s3=1/16")
POINT = {"s1": Fraction(1, 8), "s2": Fraction(3, 4), "s3": Fraction(1, 16)}
FOUR = ("player_card1", "banker_card1", "player_card2", "banker_card2")
STAKES = {"keep": 1, "double": 2, "triple": 3}
FEE = Fraction(1, 5)

#: (cards in deal order: P B P B, then third cards; the places --shown names; what it shows)
ROUNDS = [
    (["4S", "3H", "2D", "2C", "8H"], "1,3", "the Player stands on 6, the Banker draws: 6 to 3"),
    (["2S", "9H", "3D", "KC"], "2", "a Banker natural"),
    (["4S", "9H", "3D", "8C"], "1,2,3,4", "a tie on two 7s: each bet pushes, the fee paid"),
    (["3S", "2H", "2D", "2C", "4H", "3D"], "4,1,2", "both draw: 9 to 7"),
    (["KS", "KH", "QD", "5C", "5H", "JD"], "3", "both draw on 0 and 5: 5 to 5, a tie"),
]


def _round_by_hand(cards: list[str]) -> str:
    """The winner of the round dealt from ``cards`` (naive drawing rules)."""
    first = [nf.value(card) for card in cards[:4]]
    player, banker, *_ = naive.play(first, [nf.value(card) for card in cards[4:]])
    return "player" if player > banker else "banker" if banker > player else "tie"


def _base_net(bet: str, winner: str) -> Fraction:
    if winner == "tie":
        return Fraction(0)
    if winner != bet:
        return Fraction(-1)
    return Fraction(1) if bet == "player" else Fraction(19, 20)


@cache
def _strategy(bet: str) -> dict[tuple, dict]:
    """The bet's exact strategy table on a full shoe of eight decks, as the strategy
    command lists it: (value of each of the four cards, None where not shown) -> row."""
    paytable = load_paytable("peek-baccarat").with_unknowns(POINT)
    frame = analyze(paytable=paytable, decks=8).strategy(bet)
    out = {}
    for row in frame.to_dict("records"):
        key = tuple(None if pd.isna(row[card]) else int(row[card]) for card in FOUR)
        out[key] = row
    return out


def _seen(cards: list[str], places: str) -> tuple:
    shown = {int(p) - 1 for p in places.split(",")}
    return tuple(nf.value(cards[i]) if i in shown else None for i in range(4))


def _play(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "play", *argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize(("cards", "places", "what"), ROUNDS, ids=[r[2] for r in ROUNDS])
def test_each_bet_takes_its_strategys_best_action_and_is_settled_by_hand(
    capsys, cards, places, what
):
    document = _play(capsys, *cards, *PEEK, "--shown", places)
    winner = _round_by_hand(cards)
    assert document["round"]["winner"] == winner
    seen = _seen(cards, places)
    decision = document["decision"]
    shown = [FOUR[i] for i in range(4) if seen[i] is not None]
    assert [(s["card"], s["value"]) for s in decision["seen"]] == [
        (card, seen[FOUR.index(card)]) for card in shown
    ]
    assert decision["hidden"] == [card for card in FOUR if card not in shown]
    assert document["options"]["shown"] == shown
    assert decision["chosen_by"] == "strategy" and document["options"]["action"] is None
    rows = {row["bet"]: row for row in document["bets"]}
    strategies = {s["bet"]: s for s in decision["strategies"]}
    assert list(strategies) == ["player", "banker"]
    for bet in ("player", "banker"):
        table = _strategy(bet)[seen]
        best = table["best"]
        strategy = strategies[bet]
        assert (strategy["best"], strategy["action"], strategy["stake"]) == (
            best,
            best,
            STAKES[best],
        )
        assert {a: Fraction(v) for a, v in strategy["ev"].items()} == {
            a: Fraction(table[f"ev_{a}"]) for a in STAKES
        }
        row = rows[bet]
        assert (row["stake"], row["fee"]) == (STAKES[best], "1/5")
        assert Fraction(row["net_exact"]) == STAKES[best] * _base_net(bet, winner) - FEE
        base = _base_net(bet, winner)
        assert row["result"] == ("win" if base > 0 else "push" if base == 0 else "lose")
    actions = {strategies[bet]["action"] for bet in strategies}
    assert decision["action"] == (actions.pop() if len(actions) == 1 else None)
    # The bets the decision is not for are played as dealt, at one stake, no fee.
    tie = rows["tie"]
    assert (tie["stake"], tie["fee"]) == (1, None)
    assert Fraction(tie["net_exact"]) == (8 if winner == "tie" else -1)
    pairs = {"player_pair": (0, 2), "banker_pair": (1, 3)}
    for bet, (a, b) in pairs.items():
        pair = nf.rank(cards[a]) == nf.rank(cards[b])
        assert Fraction(rows[bet]["net_exact"]) == (11 if pair else -1)


def test_the_hand_picked_rounds_cover_what_they_claim():
    """Both actions by default (keep and triple), each winner, and a natural."""
    winners = {_round_by_hand(cards) for cards, _, _ in ROUNDS}
    assert winners == {"player", "banker", "tie"}
    best = {
        _strategy(bet)[_seen(cards, places)]["best"]
        for cards, places, _ in ROUNDS
        for bet in ("player", "banker")
    }
    assert best == {"keep", "triple"}


def test_the_text_says_the_cards_shown_the_evs_and_each_bets_action(capsys):
    cards, places = ROUNDS[0][:2]
    code, out, err = run(capsys, "play", *cards, *PEEK, "--shown", places)
    assert code == 0, err
    seen = _seen(cards, places)
    assert "Shown:  Player card 1 4, Player card 2 2 (point values: the information set)" in out
    assert "Hidden: Banker card 1, Banker card 2" in out
    for bet, name in (("player", "Player"), ("banker", "Banker")):
        row = _strategy(bet)[seen]
        evs = ", ".join(f"{a} {float(Fraction(row[f'ev_{a}'])):+.6f}" for a in STAKES)
        assert f"  {name}: EV {evs}; best {row['best']}" in out
    assert "Action: each bet's best in its exact strategy on a full shoe of 8 decks" in out
    assert "Fee:    0.2 per base stake on Player and Banker (a raise pays none)" in out
    table = out.split("\n\n")[-1].splitlines()
    assert table[0].split() == ["Bet", "Result", "Action", "Stake", "Fee", "Per", "unit"]
    assert table[1].split() == ["Player", "win", "triple", "3", "0.2", "+2.8"]
    assert table[2].split() == ["Banker", "lose", "keep", "1", "0.2", "-1.2"]
    assert table[3].split() == ["Tie", "lose", "-", "1", "-", "-1"]


def test_an_action_given_raises_every_bet_of_the_decision(capsys):
    cards = ["4S", "3H", "2D", "2C", "8H"]
    document = _play(capsys, *cards, *PEEK, "--shown", "2", "--action", "double")
    decision = document["decision"]
    assert (decision["action"], decision["stake"], decision["chosen_by"]) == ("double", 2, "option")
    assert document["options"]["action"] == "double"
    rows = {row["bet"]: row for row in document["bets"]}
    assert Fraction(rows["player"]["net_exact"]) == 2 - FEE
    assert Fraction(rows["banker"]["net_exact"]) == -2 - FEE
    assert [(s["action"], s["stake"]) for s in decision["strategies"]] == [("double", 2)] * 2
    assert rows["tie"]["stake"] == 1


def test_the_cards_shown_may_be_named_in_any_order(capsys):
    cards = ["3S", "2H", "2D", "2C", "4H", "3D"]
    by_place = _play(capsys, *cards, *PEEK, "--shown", "4,1,2")
    by_name = _play(capsys, *cards, *PEEK, "--shown", "banker_card1, player_card1,banker_card2")
    assert by_place == by_name
    assert by_place["options"]["shown"] == ["player_card1", "banker_card1", "banker_card2"]


def _keep_file(tmp_path: Path) -> Path:
    """A strategy table of Peek Baccarat (one deck: it has every set eight decks deal)
    that keeps in every set."""
    table = tmp_path / "peek.csv"
    strategy = ["baccarat-odds", "strategy", *PEEK, "--decks", "1", "--format", "csv"]
    subprocess.run([*strategy, "--out", str(table)], check=True)
    with table.open(newline="") as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        row["best"] = "keep"
    edited = tmp_path / "keep.csv"
    with edited.open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return edited


def test_play_and_simulate_take_the_play_a_file_gives(capsys, tmp_path):
    kept = _keep_file(tmp_path)
    cards = ["4S", "3H", "2D", "2C", "8H"]  # (the Player's two cards shown: best triple)
    document = _play(capsys, *cards, *PEEK, "--shown", "1,3", "--decisions", str(kept))
    strategies = {s["bet"]: s for s in document["decision"]["strategies"]}
    assert strategies["player"]["best"] == "triple"
    assert strategies["player"]["action"] == "keep"
    assert document["decision"]["action"] == "keep"
    assert Fraction(document["bets"][0]["net_exact"]) == 1 - FEE
    code, out, _ = run(capsys, "play", *cards, *PEEK, "--shown", "1,3", "--decisions", str(kept))
    assert "Action: each bet's as keep.csv plays these cards" in out
    # Kept in every set: the figures of the Player bet with its fee, never raised.
    code, out, err = run(
        capsys, "simulate", *PEEK, "--decks", "1", "--shoes", "20", "--decisions", str(kept),
        "--no-progress", "--workers", "1", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    rows = {row["bet"]: row for row in json.loads(out)["bets"]}
    plain = analyze(paytable="seed-game", decks=1, mode="commission").result("player")
    assert rows["player"]["exact_ev"] == float((plain.expected_value - FEE) / (1 + FEE))


def test_simulate_prints_the_decided_bets_beside_their_exact_evs(capsys):
    code, out, err = run(
        capsys, "simulate", *PEEK, "--decks", "1", "--shoes", "30", "--seed", "1",
        "--no-progress", "--workers", "1", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    document = json.loads(out)
    paytable = load_paytable("peek-baccarat").with_unknowns(POINT)
    exact = analyze(paytable=paytable, decks=1)
    for row in document["bets"]:
        assert row["exact_ev"] == float(exact.result(row["bet"]).expected_value)
        assert row["rounds_bet"] == document["rounds"] > 0


# -- Bad inputs, through the installed command: one line, exit 2, nothing written ----------


def _installed(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    command = Path(sys.executable).with_name("baccarat-odds")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    return subprocess.run(
        [str(command), *argv], capture_output=True, text=True, cwd=tmp_path, env=env, check=False
    )


ROUND = ("play", "4S", "3H", "2D", "2C", "8H")
LUCKY = ("play", "KS", "QH", "JD", "2C", "9D", "9C", "--paytable", "lucky-draw-baccarat-1")
NO_ONE = ("--paytable", "peek-baccarat", "--unknowns", "s1=0,s2=3/4,s3=1/8")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([*ROUND, *PEEK], "--shown: peek-baccarat shows some of the first four cards at random"),
        ([*ROUND, *PEEK, "--shown", "5"], "--shown: '5' is not one of the first four cards"),
        ([*ROUND, *PEEK, "--shown", "0"], "--shown: '0' is not one of the first four cards"),
        ([*ROUND, *PEEK, "--shown", "1,,2"], "--shown: '' is not one of the first four cards"),
        ([*ROUND, *PEEK, "--shown", "1,3,1"], "--shown: Player card 1 is given twice"),
        (
            [*ROUND, *PEEK, "--shown", "player_card1,1"],
            "--shown: Player card 1 is given twice",
        ),
        (
            [*ROUND, *PEEK, "--shown", "none"],
            "--shown: 0 cards given, but a round of peek-baccarat shows 1, 2, 3 or 4",
        ),
        (
            [*ROUND, *NO_ONE, "--shown", "2"],
            "--shown: 1 card given, but a round of peek-baccarat shows 2, 3 or 4",
        ),
        ([*ROUND, *PEEK, "--shown", "1", "--action", "quadruple"], "has no action 'quadruple'"),
        (
            [*ROUND, "--paytable", "peek-baccarat", "--shown", "1"],
            "unknowns (s1, s2, s3): give them values with --unknowns NAME=VALUE (unknowns= in "
            "Python)",
        ),
        ([*ROUND, "--shown", "1"], "--shown: seed-game shows no card at random"),
        (
            [*LUCKY, "--shown", "1"],
            "--shown: lucky-draw-baccarat-1 shows no card at random",
        ),
        (["play", "4S", "3H", "2D", *PEEK, "--shown", "1"], "too few cards"),
        (
            ["simulate", "--paytable", "peek-baccarat", "--shoes", "2", "--no-progress"],
            "the chances of the decision's cards shown have unknowns (s1, s2, s3)",
        ),
        (
            ["count", *PEEK, "--shoes", "300", "--bet", "player", "--no-progress"],
            "count solves each round's best play on its cards (about 40 ms a round): up to "
            "30,600 rounds",
        ),
    ],
)
def test_a_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, argv, message):
    done = _installed(tmp_path, *argv)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("baccarat-odds: error: "), done.stderr
    assert message in lines[0]
    assert not list(tmp_path.iterdir())


def test_a_peek_log_names_the_cards_shown_and_each_bets_action_and_audits_clean(
    tmp_path, capsys
) -> None:
    """simulate --log writes Peek's rounds with the cards each showed (shown) and each
    bet of the decision's action (action:player, action:banker), its payout at that
    stake less the fee on the base stake; audit reads them back, and finds a payout
    logged at another stake."""
    import csv

    from helpers import run

    log = tmp_path / "peek.csv"
    argv = ["simulate", *PEEK, "--shoes", "3", "--seed", "2", "--no-progress", "--log", str(log)]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    with log.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert {"shown", "action:player", "action:banker"} <= set(rows[0])
    stakes = {"keep": 1, "double": 2, "triple": 3}
    for row in rows:
        assert 1 <= len(row["shown"].split()) <= 4
        if row["winner"] == "player":
            assert float(row["pay:player"]) == stakes[row["action:player"]] - 0.2
        if row["winner"] == "banker":
            assert float(row["pay:player"]) == -stakes[row["action:player"]] - 0.2
    code, out, _ = run(capsys, "audit", *PEEK, str(log))
    assert code == 0 and "No findings." in out
    wrong = next(i for i, row in enumerate(rows) if row["action:player"] != "keep")
    rows[wrong]["action:player"] = "keep"
    with log.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    code, out, _ = run(capsys, "audit", *PEEK, str(log))
    assert f"row {wrong + 1}," in out and "payout: pay:player logged" in out
