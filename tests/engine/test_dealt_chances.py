"""The chance of each winner of a game dealt once, per shoe: the deal walk's exact counts,
and for Dragon Tiger plain counting."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analyzer.engine.deal_walk import dealt_outcomes
from analyzer.engine.dealt_chances import winner_chances
from analyzer.errors import AnalyzerError
from analyzer.game.games import named_game
from analyzer.game.shoe import Shoe

#: Every test here runs the kernels (CI reruns them with the JIT off, for coverage).
pytestmark = pytest.mark.kernels


def test_dragon_tiger_on_any_shoe_is_plain_counting() -> None:
    rng = np.random.default_rng(3)
    shoes = rng.integers(0, 9, size=(50, 13))
    shoes[0] = 0
    shoes[0, [0, 12]] = (1, 1)  # an Ace and a King: the Dragon wins half the deals
    chances = winner_chances(named_game("dragon-tiger"), shoes)
    for counts, (dragon, tiger, tie) in zip(shoes.tolist(), chances, strict=True):
        n = sum(counts)
        deals = n * (n - 1)
        ties = sum(c * (c - 1) for c in counts)
        higher = sum(counts[r] * counts[s] for r in range(13) for s in range(r))
        assert tie == pytest.approx(ties / deals, abs=1e-15)
        assert dragon == pytest.approx(higher / deals, abs=1e-15)
        assert tiger == pytest.approx(higher / deals, abs=1e-15)
    assert chances[0].tolist() == [0.5, 0.5, 0.0]


@pytest.mark.parametrize("name", ["dragon-tiger", "three-card-baccarat"])
def test_each_shoes_chances_are_the_deal_walks(name) -> None:
    game = named_game(name)
    rng = np.random.default_rng(5)
    shoes = np.full((4, 13), 4) - rng.integers(0, 4, size=(4, 13))
    chances = winner_chances(game, shoes)
    for counts, found in zip(shoes, chances, strict=True):
        table = dealt_outcomes(game, Shoe(counts), frozenset({"winner"}))
        for k, winner in enumerate(game.winners):
            ways = int(table.ways[table.columns["winner"] == winner].sum())
            assert found[k] == pytest.approx(float(Fraction(ways, table.denominator)), rel=1e-13)


def test_a_game_that_draws_or_a_shoe_too_small_is_refused() -> None:
    with pytest.raises(AnalyzerError, match="take cards after the deal"):
        winner_chances(named_game("lucky-draw-baccarat"), np.full((1, 13), 4))
    with pytest.raises(AnalyzerError, match="fewer cards than a round deals"):
        winner_chances(named_game("three-card-baccarat"), np.eye(1, 13, dtype=np.int64) * 5)
