"""Settling a bet: the first rule whose condition holds settles the round."""

from __future__ import annotations

from fractions import Fraction

import naive
import numpy as np
import pytest
from helpers import HEAD, reference_ev, write_paytable

from analyzer import analyze
from analyzer.paytables.library import load_paytable
from analyzer.paytables.model import paytable_from_dict
from analyzer.paytables.settle import (
    Settlement,
    first_holding,
    rule_masks,
    settled_ways,
    settling_rule,
)


@pytest.mark.slow
def test_joint_pair_and_result_bet_from_a_file(tmp_path, reference_8_decks) -> None:
    path = write_paytable(
        tmp_path,
        HEAD
        + """
[[bet]]
id = "pair_and_win"
name = "Player pair and Player wins"
[[bet.rule]]
when = "player_pair and winner == 'player' and not player_suited_pair"
pays = "30:1"
[[bet.rule]]
when = "player_suited_pair and winner == 'player'"
pays = "100:1"
""",
    )
    result = analyze(paytable=load_paytable(path)).result("pair_and_win")

    def settle(k):
        if k[2] > k[3] and k[0] == 1:
            return 30
        return 100 if k[2] > k[3] and k[0] == 2 else -1

    assert result.expected_value == reference_ev(reference_8_decks, settle)


# -- The settlement functions on rows written by hand ---------------------------------------


def _bet():
    """Tie pays 8:1; otherwise a Player 9 pushes; otherwise the stake is lost."""
    return paytable_from_dict(
        {
            "name": "T",
            "modes": ["m"],
            "bet": [
                {
                    "id": "b",
                    "rule": [
                        {"when": "winner == 'tie'", "pays": "8:1"},
                        {"when": "player_score == 9", "pays": "push"},
                    ],
                }
            ],
        }
    ).bets[0]


#: (player score, banker score, player third, banker third) -> the rule that settles it.
ROWS = [
    ((9, 9, -1, -1), 0),  # a tie, and a Player 9: the first rule holding settles it
    ((9, 3, 4, 5), 1),
    ((2, 3, 0, -1), 2),  # no rule: lost
    ((0, 0, 5, 5), 0),
    ((7, 6, -1, -1), 2),
]


def _columns():
    rows = [naive.condition_row(*key) for key, _ in ROWS]
    return {
        name: np.array([row[name] for row in rows], dtype=object if name == "winner" else None)
        for name in rows[0]
    }


def test_first_holding() -> None:
    masks = [np.array([False, True, False, True]), np.array([True, True, False, False])]
    assert first_holding(masks, 4).tolist() == [1, 0, 2, 0]
    assert first_holding([], 3).tolist() == [0, 0, 0]


def test_the_first_rule_that_holds_settles_each_row() -> None:
    bet = _bet()
    assert settling_rule(bet, _columns(), len(ROWS)).tolist() == [rule for _, rule in ROWS]
    assert [m.tolist() for m in rule_masks(bet, _columns(), len(ROWS))] == [
        [True, False, False, True, False],
        [True, True, False, False, False],
    ]
    assert Settlement(bet).nets() == [8, 0, -1]


def test_settled_ways_and_the_exact_expected_value() -> None:
    bet = _bet()
    ways = np.array([3, 5, 7, 11, 13], dtype=np.int64)
    settled, matched = settled_ways(bet, _columns(), ways)
    assert settled == [3 + 11, 5, 7 + 13]  # tie, push, lost
    assert matched == [3 + 11, 3 + 5]  # the push's condition also holds on the 9-9 tie
    denominator = int(ways.sum())
    ev = Settlement(bet).expected_value(_columns(), ways, denominator)
    assert ev == Fraction(8 * 14 + 0 * 5 - 1 * 20, denominator)
    assert isinstance(ev, Fraction)


@pytest.mark.slow
def test_a_bet_of_many_rules_holds_one_mask_at_a_time(monkeypatch) -> None:
    """The rules' masks are made and dropped one by one (681 rules over a card table of
    millions of rows once held 5.5 GB), and the result is the same as rule by rule."""
    import gc
    import weakref

    from analyzer.paytables.conditions import Condition

    rules = [
        {"when": f"player_score + banker_score == {n}", "pays": f"{n + 1}:1"} for n in range(19)
    ]
    paytable = paytable_from_dict(
        {"name": "T", "modes": ["m"], "bet": [{"id": "sum", "name": "Sum", "rule": rules}]}
    )
    bet = paytable.bets[0]
    table = analyze(paytable=paytable).outcomes
    alive: list[weakref.ref] = []
    most = [0]
    real_mask = Condition.mask

    def tracked(self, columns, n_rows):
        gc.collect()
        most[0] = max(most[0], sum(ref() is not None for ref in alive) + 1)
        mask = real_mask(self, columns, n_rows)
        alive.append(weakref.ref(mask))
        return mask

    monkeypatch.setattr(Condition, "mask", tracked)
    settled, matched = settled_ways(bet, table.columns, table.ways)
    monkeypatch.undo()
    assert most[0] <= 2  # the mask in hand and the one being made
    totals = table.columns["player_score"] + table.columns["banker_score"]
    assert matched == [int(table.ways[totals == n].sum()) for n in range(19)]
    assert settled == [*matched, 0] and sum(settled) == table.denominator


def test_a_bet_multiplied_by_the_winner_cannot_pay_it_on_a_tie(tmp_path, capsys) -> None:
    """A tie has no winner, so no cards to count: refused in one line by the exact
    analysis, by play on a tied round, and by simulate."""
    from helpers import run

    text = """
name = "T"
[multipliers]
cards = 1
values = { 2 = "1" }
[[bet]]
id = "tie"
multiply = "winner"
rule = [{ when = "winner == 'tie'", pays = "5 * multiplier" }]
"""
    path = str(write_paytable(tmp_path, text))
    message = "rule 1 pays by the multiplier on a tie, where multiply = 'winner' counts no cards"
    for argv in (
        ["report", "--paytable", path],
        ["play", "6S", "6H", "KD", "KC", "--paytable", path],
        ["simulate", "--paytable", path, "--shoes", "2", "--no-progress",
         "--work-dir", str(tmp_path / "w")],
    ):  # fmt: skip
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, ""), argv
        assert message in err and len(err.strip().splitlines()) == 1, argv
    assert not (tmp_path / "w").exists()  # refused before any work: no run started
    # A round the bet loses is settled (no tie, nothing to count).
    code, out, _ = run(capsys, "play", "7S", "3H", "2D", "KC", "--paytable", path)
    assert code == 0 and "lose" in out
