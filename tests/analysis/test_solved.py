"""Each round priced by the best play solved on its cards (:mod:`analyzer.analysis.solved`):
a composition's EV against a plain-Python deal of every order of its cards under the best
action of each information set; compositions by card and by rank; the budget of a run."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analyzer.analysis.solved import (
    MAX_SOLVED_ROUNDS,
    check_solved_work,
    solve_round,
    solved_per_round,
    solved_values,
)
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_CARDS
from analyzer.paytables.library import as_paytable
from tests import naive_family as naive

ENTER = (("enter", "standard"),)


def _counts(cards: list[int]) -> np.ndarray:
    return np.bincount(np.asarray(cards, dtype=np.int64), minlength=N_CARDS)


def _seen(dealt):  # the player's two cards and the dealer's first, by point value
    return (naive.value(dealt[0]), naive.value(dealt[2]), naive.value(dealt[1]))


def _nets(seven: Fraction):
    def net(draw: bool):
        return lambda dealt: naive.lucky_draw_round(list(dealt), draw, seven)["net"]

    return {"stand": net(False), "draw": net(True)}


@pytest.mark.parametrize(
    "cards",
    [["AS", "2H", "5D", "9C", "KS", "7H", "3D", "8C"], ["4S", "4H", "6D", "6C", "QS", "2D"]],
)
def test_a_composition_is_priced_by_its_own_best_play(cards) -> None:
    """The EV of a composition (52 counts per card) is the best play's on its cards, as
    a plain-Python deal of every order takes it."""
    table = as_paytable("lucky-draw-baccarat-1")
    indices = [
        naive.RANK_ORDER.index(naive.rank(c)) * 4 + "SHDC".index(naive.suit(c)) for c in cards
    ]
    solved = solve_round(table, ENTER, _counts(indices))
    expected = naive.best_decision_ev(cards, 6, _seen, _nets(Fraction(2)))
    assert solved.ev[0] == pytest.approx(float(expected), abs=1e-15)
    assert solved.played is not None and (solved.played >= -1).all()


def test_compositions_by_rank_and_by_card_agree() -> None:
    table = as_paytable("lucky-draw-baccarat-2")
    by_card = np.zeros((2, N_CARDS), dtype=np.int64)
    by_card[0, ::4], by_card[1] = 2, 1  # two of each rank at suit 0; one deck
    by_rank = np.stack([np.full(13, 2), np.full(13, 4)])
    got = solved_values(table, ENTER, by_card)
    assert np.array_equal(got, solved_values(table, ENTER, by_rank))
    assert got[0, 0] != got[1, 0]
    with pytest.raises(AnalyzerError, match="compositions are"):
        solved_values(table, ENTER, np.ones((1, 7), dtype=np.int64))


def test_which_paytables_are_solved_per_round() -> None:
    assert solved_per_round(as_paytable("lucky-draw-baccarat-1"))
    assert solved_per_round(as_paytable("peek-baccarat"))
    assert not solved_per_round(as_paytable("dragon-tiger"))
    assert not solved_per_round(as_paytable("seed-game"))


def test_the_budget_is_one_line_with_its_estimate() -> None:
    check_solved_work(MAX_SOLVED_ROUNDS, "count", "shrink it")  # at the budget: taken
    with pytest.raises(AnalyzerError) as caught:
        check_solved_work(60_000, "count", "deal fewer shoes")
    text = str(caught.value)
    assert "\n" not in text and "up to 60,000 rounds, some 40 minutes" in text
    assert text.endswith("deal fewer shoes")
