"""The pair states in closed form (analyzer/engine/pairs.py) against the enumerator's
joint walk summed over the draw, and the analysis that prices bets on pairs alone by
them against the same bets settled on the joint counts."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import AnalyzerError, Shoe, analyze, count_outcomes
from analyzer.analysis.columns import evaluate_bets
from analyzer.engine.pairs import pair_state_counts, pair_ways
from analyzer.game.rules import STANDARD

SLOW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def joint_pairs(shoe: Shoe, detail: str) -> np.ndarray:
    """The enumerator's counts by pair state, every cell of the draw summed."""
    return count_outcomes(shoe, detail).counts.sum(axis=(1, 2, 3, 4))


@pytest.mark.kernels
@pytest.mark.parametrize("detail", ["rank", "suit"])
@pytest.mark.parametrize("decks", [1, 2, 8])
def test_full_shoes_match_the_joint_walk(decks: int, detail: str) -> None:
    shoe = Shoe.standard(decks)
    counts = pair_state_counts(shoe, detail)
    assert counts.dtype == np.int64
    assert int(counts.sum()) == shoe.rounds_denominator
    assert (counts == joint_pairs(shoe, detail)).all()


@pytest.mark.kernels
@SLOW
@given(
    st.lists(st.integers(0, 3), min_size=52, max_size=52).filter(lambda c: sum(c) >= 6),
    st.sampled_from(["rank", "suit"]),
)
def test_any_shoe_of_known_cards_matches_the_joint_walk(cards: list[int], detail: str) -> None:
    """Kinds with no card, one, several; pairs of one rank and of one card."""
    shoe = Shoe(np.array(cards).reshape(13, 4).sum(axis=1), np.array(cards).reshape(13, 4))
    assert (pair_state_counts(shoe, detail) == joint_pairs(shoe, detail)).all()


@pytest.mark.kernels
@pytest.mark.parametrize("detail", ["rank", "suit"])
def test_cards_dealt_with_replacement(detail: str) -> None:
    shoe = Shoe.infinite().in_lowest_terms(suits=detail == "suit")
    counts = pair_state_counts(shoe, detail)
    assert int(counts.sum()) == shoe.rounds_denominator
    assert (counts == joint_pairs(shoe, detail)).all()


def test_a_mixture_weighs_the_pairs_as_the_joint_counts() -> None:
    shoe = Shoe.standard(1)
    tableau = STANDARD.mixture()[0][1]
    mixture = ((Fraction(1, 3), tableau), (Fraction(2, 3), tableau))
    ways, denominator, scale = pair_ways(shoe, "suit", mixture)
    assert (denominator, scale) == (shoe.rounds_denominator * 3, 3)
    assert (ways == 3 * pair_state_counts(shoe, "suit")).all()


def test_refusals_are_one_line() -> None:
    with pytest.raises(AnalyzerError, match=r"^unknown pair detail 'none': use rank or suit$"):
        pair_state_counts(Shoe.standard(1), "none")
    unknown = Shoe(Shoe.standard(1).rank_counts, None)
    with pytest.raises(AnalyzerError, match="suited pairs cannot be counted"):
        pair_state_counts(unknown, "suit")


@pytest.mark.kernels
@pytest.mark.parametrize("bets", [None, ["player_pair", "perfect_pair", "tie"]])
def test_bets_on_pairs_alone_price_as_on_the_joint_counts(bets) -> None:
    """Every figure and line of the seed game's bets, as the joint counts settle them."""
    shoe = Shoe.standard(2)
    analysis = analyze(shoe=shoe, bets=bets)
    joint = count_outcomes(shoe, "suit")
    expected = evaluate_bets(joint, [(r.bet, r.mode) for r in analysis.results])
    for got, want in zip(analysis.results, expected, strict=True):
        assert got.expected_value == want.expected_value
        assert got.variance == want.variance
        assert [(line.ways, line.matched) for line in got.lines] == [
            (line.ways, line.matched) for line in want.lines
        ]
    # The joint counts, asked for, are the enumerator's.
    assert (analysis.counts.counts == joint.counts).all()


@pytest.mark.kernels
@SLOW
@given(
    st.lists(st.integers(0, 30), min_size=52, max_size=52).filter(lambda c: sum(c) >= 6),
    st.sampled_from([0, 1]),
)
def test_the_compiled_pair_states_are_the_python_ones(cards: list[int], take: int) -> None:
    """Numba's and Python's run of the one text agree (a store's counts read without
    Numba take the Python one), by kind and by rank."""
    from analyzer.engine import pairs

    kinds = np.array(cards, dtype=np.int64).reshape(13, 4)
    for shaped in (kinds, kinds.sum(axis=1, keepdims=True)):
        compiled = np.zeros((3, 3), dtype=np.int64)
        pairs._compiled_pair_states()(shaped, take, compiled)
        python = np.zeros((3, 3), dtype=np.int64)
        pairs.pair_states(shaped.astype(object), take, python)
        assert (compiled == python).all()
