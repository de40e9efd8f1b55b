"""A decision played the user's way (``--decisions``): each information set's action as a
file gives it, against plain-Python deals of every card played the same way."""

from __future__ import annotations

import csv
import itertools
import json
import random
import subprocess
from fractions import Fraction

import pytest

from analyzer import analyze
from analyzer.errors import AnalyzerError
from analyzer.paytables.library import load_paytable
from analyzer.paytables.model import paytable_from_dict
from analyzer.paytables.played import read_decisions, with_decisions
from tests import naive_family as family
from tests.analysis.test_decisions import TINY, _lucky_draw_nets, _seen
from tests.analysis.test_peek import FOUR, STAKES, _base_net, _winner, peek_table
from tests.engine.test_deal_walk import shoe_of


def _rows(analysis, bet: str, choose) -> list[dict]:
    """A row per information set of ``bet``, its action ``choose(choice)``."""
    decision = analysis.paytable.decision
    return [
        {
            "bet": bet,
            "mode": "standard",
            **{
                card: ("" if v is None else str(v))
                for card, v in choice.values_of(decision.sees).items()
            },
            "best": choose(choice),
        }
        for choice in analysis.choices[(bet, "standard")]
    ]


@pytest.mark.parametrize("cards", TINY[:2])
def test_lucky_draw_played_as_given_equals_every_deal(cards):
    shoe = shoe_of(cards)
    best = analyze(paytable="lucky-draw-baccarat-1", shoe=shoe)
    chooser = random.Random(len(cards))
    rows = _rows(best, "enter", lambda choice: chooser.choice(["stand", "draw"]))
    played = {
        tuple(int(r[c]) for c in ("player_card1", "player_card2", "dealer_card1")): r["best"]
        for r in rows
    }
    paytable = with_decisions(load_paytable("lucky-draw-baccarat-1"), rows, "mine.csv")
    result = analyze(paytable=paytable, shoe=shoe).result("enter")
    nets = _lucky_draw_nets(Fraction(2))
    deals = list(family.every_deal(cards, 6))
    expected = sum(nets[played[_seen(dealt)]](dealt) for dealt in deals) / len(deals)
    assert result.expected_value == expected
    # Its best play, given as a file, is the best play's figures.
    again = with_decisions(
        load_paytable("lucky-draw-baccarat-1"), _rows(best, "enter", lambda c: c.best), "b.csv"
    )
    assert (
        analyze(paytable=again, shoe=shoe).result("enter").expected_value
        == best.result("enter").expected_value
    )


def test_peek_played_as_given_equals_every_deal():
    cards = ["AS", "2H", "5D", "9C", "KS", "7H", "3D"]
    shoe = shoe_of(cards)
    base = paytable_from_dict(peek_table({"1": "1/2", "2": "1/2"}))
    best = analyze(paytable=base, shoe=shoe)
    chooser = random.Random(3)
    rows = _rows(best, "player", lambda choice: chooser.choice(list(STAKES)))
    played = {}
    for row in rows:
        shown = tuple((card, int(row[card])) for card in FOUR if row[card] != "")
        played[shown] = row["best"]
    result = analyze(paytable=with_decisions(base, rows, "p.csv"), shoe=shoe).result("player")
    deals = list(family.every_deal(cards, 6))
    total = Fraction(0)
    for k in (1, 2):
        sets = list(itertools.combinations(range(4), k))
        for kept in sets:
            for dealt in deals:
                shown = tuple((FOUR[i], family.value(dealt[i])) for i in kept)
                stake = STAKES[played[shown]]
                total += Fraction(1, 2) / len(sets) * stake * _base_net("player", _winner(dealt))
    fee = Fraction(1, 5)
    assert result.expected_value == (total / len(deals) - fee) / (1 + fee)


def test_a_set_the_file_leaves_out_is_one_line():
    shoe = shoe_of(TINY[0])
    best = analyze(paytable="lucky-draw-baccarat-1", shoe=shoe)
    rows = _rows(best, "enter", lambda choice: choice.best)[1:]
    paytable = with_decisions(load_paytable("lucky-draw-baccarat-1"), rows, "short.csv")
    with pytest.raises(AnalyzerError, match="has no action for the set player_card1=") as error:
        analyze(paytable=paytable, shoe=shoe)
    assert "\n" not in str(error.value)


BAD_ROWS = [
    ({"bet": "nope"}, "is not a bet the decision is for"),
    ({"mode": "other"}, "is not a mode of the paytable"),
    ({"best": "fold"}, "is not one of the decision's"),
    ({"player_card1": "12"}, "must be a point value 0-9"),
    ({"player_card1": ""}, "every card the decision sees needs its value"),
]


@pytest.mark.parametrize(("change", "message"), BAD_ROWS)
def test_a_bad_row_is_one_line(change, message):
    row = {"bet": "enter", "mode": "standard", "player_card1": "1", "player_card2": "2"}
    row |= {"dealer_card1": "3", "best": "draw"} | change
    with pytest.raises(AnalyzerError, match=message):
        with_decisions(load_paytable("lucky-draw-baccarat-1"), [row], "bad.csv")


def test_two_rows_playing_one_set_differently_are_refused():
    row = {"bet": "enter", "mode": "standard", "player_card1": "1", "player_card2": "2"}
    row |= {"dealer_card1": "3", "best": "draw"}
    with pytest.raises(AnalyzerError, match="played 'draw' on an earlier row"):
        with_decisions(load_paytable("lucky-draw-baccarat-1"), [row, row | {"best": "stand"}], "x")


def test_a_paytable_without_a_decision_takes_no_decisions(tmp_path):
    with pytest.raises(AnalyzerError, match="has no decision to play"):
        with_decisions(load_paytable("dragon-tiger"), [{}], "x.csv")
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"rows": []}))
    with pytest.raises(AnalyzerError, match="has no 'sets'"):
        read_decisions(load_paytable("lucky-draw-baccarat-1"), path)


def _stand_file(tmp_path):
    """A strategy table of Lucky Draw (one deck) that stands in every set."""
    table = tmp_path / "ld.csv"
    run = ["baccarat-odds", "strategy", "--paytable", "lucky-draw-baccarat-1", "--decks", "1"]
    subprocess.run([*run, "--format", "csv", "--out", str(table)], check=True)
    with table.open(newline="") as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        row["best"] = "stand"
    edited = tmp_path / "stand.csv"
    with edited.open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return edited, rows


def test_report_plays_the_strategy_commands_own_output(tmp_path):
    """The CLI as a user runs it: strategy's CSV (edited) and JSON, read back by report."""
    edited, rows = _stand_file(tmp_path)
    run = ["baccarat-odds", "strategy", "--paytable", "lucky-draw-baccarat-1", "--decks", "1"]
    report = ["baccarat-odds", "report", "--paytable", "lucky-draw-baccarat-1", "--decks", "1"]
    done = subprocess.run(
        [*report, "--decisions", str(edited), "--format", "json"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    (bet,) = json.loads(done.stdout)["bets"]
    paytable = with_decisions(load_paytable("lucky-draw-baccarat-1"), rows, "stand.csv")
    exact = analyze(paytable=paytable, decks=1).result("enter")
    assert Fraction(bet["rtp"]) == exact.rtp
    as_json = tmp_path / "ld.json"
    subprocess.run([*run, "--format", "json", "--out", str(as_json)], check=True)
    best = subprocess.run([*report, "--decisions", str(as_json)], capture_output=True, text=True)
    plain = subprocess.run(report, capture_output=True, text=True)
    assert best.stdout.splitlines()[3:] == plain.stdout.splitlines()[3:]
    missing = subprocess.run(
        [*report, "--decisions", str(tmp_path / "none.csv")], capture_output=True, text=True
    )
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1


def test_play_and_simulate_take_the_play_a_file_gives(tmp_path):
    edited, _ = _stand_file(tmp_path)
    play = ["baccarat-odds", "play", "--paytable", "lucky-draw-baccarat-1"]
    # Four tens and a 2: the best play draws, the file stands (the dealer then draws on 2).
    best = subprocess.run(
        [*play, "KS", "QH", "JD", "2C", "9D", "9C"], capture_output=True, text=True
    )
    assert "Action: draw, 2 base stakes (the best" in best.stdout
    done = subprocess.run(
        [*play, "KS", "QH", "JD", "2C", "9C", "--decisions", str(edited)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "Action: stand (as stand.csv plays these cards)" in done.stdout
    simulate = ["baccarat-odds", "simulate", "--paytable", "lucky-draw-baccarat-1", "--shoes", "3"]
    simulate += ["--seed", "1", "--workers", "1", "--format", "json"]
    done = subprocess.run([*simulate, "--decisions", str(edited)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (bet,) = json.loads(done.stdout)["bets"]
    paytable = read_decisions(load_paytable("lucky-draw-baccarat-1"), edited)
    exact = analyze(paytable=paytable).result("enter").expected_value
    assert bet["exact_ev"] == float(exact)  # (the float of the exact EV of that play)
