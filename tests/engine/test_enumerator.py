"""The Numba enumerator against the brute-force references of tests/naive.py."""

from __future__ import annotations

from fractions import Fraction

import naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import AnalyzerError, Shoe, count_outcomes
from analyzer.game.fields import NO_THIRD

SLOW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def kernel_as_counter(shoe: Shoe, pair_detail: str = "suit") -> dict:
    """Nonzero kernel cells keyed like tests/naive.py."""
    oc = count_outcomes(shoe, pair_detail)
    out = {}
    for idx in zip(*np.nonzero(oc.counts), strict=True):
        s, ps, bs, pt, bt = (int(i) for i in idx)
        key = (
            s // 3,
            s % 3,
            ps,
            bs,
            None if pt == NO_THIRD else pt,
            None if bt == NO_THIRD else bt,
        )
        out[key] = int(oc.counts[idx])
    return out


def fold(counter: dict, *, suits: bool = True, pairs: bool = True) -> dict:
    """Merge reference keys down to what a coarser kernel mode tells apart."""
    out: dict = {}
    for (pp, bp, *rest), ways in counter.items():
        if not suits:
            pp, bp = min(pp, 1), min(bp, 1)
        if not pairs:
            pp = bp = 0
        key = (pp, bp, *rest)
        out[key] = out.get(key, 0) + ways
    return out


def shoe_from_suits(suit_counts: list[list[int]]) -> Shoe:
    arr = np.array(suit_counts, dtype=np.int64)
    return Shoe(arr.sum(axis=1), arr)


@pytest.mark.slow
@pytest.mark.parametrize("decks", [pytest.param(1, marks=pytest.mark.kernels), 2, 8])
def test_full_shoes_match_reference_exactly(decks: int) -> None:
    shoe = Shoe.standard(decks)
    reference = naive.reference_counts(shoe.suit_counts.tolist())
    assert sum(reference.values()) == shoe.rounds_denominator
    assert kernel_as_counter(shoe, "suit") == dict(reference)
    assert kernel_as_counter(shoe, "rank") == fold(reference, suits=False)
    assert kernel_as_counter(shoe, "none") == fold(reference, pairs=False)


def test_published_eight_deck_counts() -> None:
    # Wizard of Odds, "Baccarat" (wizardofodds.com/games/baccarat/), 8-deck combinations.
    oc = count_outcomes(Shoe.standard(8))
    grid = oc.counts.sum(axis=(0, 3, 4))
    player, banker = np.indices(grid.shape)
    assert oc.denominator == 4_998_398_275_503_360
    assert int(grid[banker > player].sum()) == 2_292_252_566_437_888
    assert int(grid[player > banker].sum()) == 2_230_518_282_592_256
    assert int(np.trace(grid)) == 475_627_426_473_216


@st.composite
def depleted_suit_counts(draw, max_decks: int = 2):
    """A random partly dealt shoe: some ranks (or single rank-suits) may be exhausted.

    The cards left are drawn as cards, from the whole shoe down to the 6 a round needs, so
    a failure shrinks towards a tiny shoe.
    """
    decks = draw(st.integers(1, max_decks))
    counts = [[0] * 4 for _ in range(13)]
    cells = [(r, s) for r in range(13) for s in range(4) for _ in range(decks)]
    left = draw(st.integers(6, 52 * decks))
    kept = st.lists(st.sampled_from(range(len(cells))), min_size=left, max_size=left, unique=True)
    for card in draw(kept):
        r, s = cells[card]
        counts[r][s] += 1
    for r in draw(st.lists(st.integers(0, 12), max_size=3)):  # exhaust whole ranks
        if sum(map(sum, counts)) - sum(counts[r]) >= 6:
            counts[r] = [0, 0, 0, 0]
    return counts


@pytest.mark.slow
@pytest.mark.kernels
@SLOW
@given(depleted_suit_counts())
def test_depleted_shoes_match_reference_exactly(suit_counts) -> None:
    shoe = shoe_from_suits(suit_counts)
    reference = naive.reference_counts(suit_counts)
    assert kernel_as_counter(shoe, "suit") == dict(reference)
    assert kernel_as_counter(shoe, "none") == fold(reference, pairs=False)


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3)), min_size=6, max_size=9))
def test_tiny_shoes_match_every_dealt_sequence(cards) -> None:
    counts = [[0] * 4 for _ in range(13)]
    for r, s in cards:
        counts[r][s] += 1
    physical = naive.physical_reference([(r + 1, s) for r, s in cards])
    reference = {(pp, bp, *rest): w for (pp, bp, *rest), w in physical.items()}
    assert kernel_as_counter(shoe_from_suits(counts), "suit") == reference


@pytest.mark.kernels
def test_rank_only_shoe_counts_pairs_without_suits() -> None:
    shoe = Shoe.standard(1)
    rank_only = Shoe(shoe.rank_counts)
    assert kernel_as_counter(rank_only, "rank") == kernel_as_counter(shoe, "rank")
    with pytest.raises(AnalyzerError, match="suits"):
        count_outcomes(rank_only, "suit")


def test_largest_decks_still_exact() -> None:
    shoe = Shoe.standard(24)
    oc = count_outcomes(shoe)
    assert int(oc.counts.sum()) == shoe.rounds_denominator


@pytest.mark.kernels
@pytest.mark.parametrize("others", [0, 2], ids=["one rank", "mostly one rank"])
def test_the_largest_shoes_of_one_value_count_exactly(others: int) -> None:
    """The value walk works the third cards out of sums by scores (issue 45), whose
    products could pass int64 on the largest shoe where nearly every card is of one
    value (a cell then holds nearly the whole denominator): against Python integers."""
    from analyzer.game.shoe import MAX_CARDS

    ranks = np.array([others] * 12 + [MAX_CARDS - 12 * others], dtype=np.int64)
    shoe = Shoe(ranks)
    reference = naive.reference_value_counts(shoe.value_counts.tolist())
    assert sum(reference.values()) == shoe.rounds_denominator
    got = {key[2:]: ways for key, ways in kernel_as_counter(shoe, "none").items()}
    assert got == dict(reference)


@pytest.mark.kernels
def test_unknown_pair_detail_is_refused() -> None:
    with pytest.raises(AnalyzerError, match=r"^unknown pair detail 'card': use none, rank or suit"):
        count_outcomes(Shoe.standard(1), "card")


@pytest.mark.kernels
def test_a_broken_kernel_never_hands_out_a_count(monkeypatch) -> None:
    """The counts must add up to the denominator, or nothing is returned."""
    import analyzer.engine.enumerator as enumerator

    monkeypatch.setattr(
        enumerator, "_walk_jit", lambda value_counts, first_four, rule, take, out: None
    )
    with pytest.raises(AssertionError, match="outcome counts sum to 0, expected"):
        count_outcomes(Shoe.standard(1))


# -- Cards dealt with replacement: the infinite deck ------------------------------------------


@pytest.mark.slow
@pytest.mark.kernels
def test_the_infinite_deck_deals_each_value_with_its_probability() -> None:
    """Each point value 1/13, ten-values 4/13, put back after every card: against
    tests/naive.py dealing by value with replacement; counts over 13^6, as tables print
    them (over 52^6 where suits are told apart)."""
    shoe = Shoe.infinite()
    outcomes = count_outcomes(shoe, "none")
    assert outcomes.denominator == 13**6 == outcomes.counts.sum()
    assert count_outcomes(shoe, "suit").denominator == 52**6
    reference = naive.mixed_value_reference([16] + [4] * 9, replacement=True)
    counts = outcomes.counts[0]
    got = {}
    for ps, bs, pt, bt in zip(*np.nonzero(counts), strict=True):
        key = (int(ps), int(bs), None if pt == NO_THIRD else int(pt))
        key += (None if bt == NO_THIRD else int(bt),)
        got[key] = Fraction(int(counts[ps, bs, pt, bt]), outcomes.denominator)
    assert got == reference


@pytest.mark.kernels
@settings(max_examples=10, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3)), min_size=1, max_size=5))
def test_any_cards_dealt_with_replacement_match_every_sequence(cards) -> None:
    counts = np.zeros((13, 4), dtype=np.int64)
    for r, s in cards:
        counts[r, s] += 1
    shoe = Shoe(counts.sum(axis=1), counts, replacement=True)
    reference = naive.physical_reference_with_replacement([(r + 1, s) for r, s in cards])
    assert sum(reference.values()) == shoe.rounds_denominator
    for detail, expected in (("suit", reference), ("none", fold(reference, pairs=False))):
        denominator = count_outcomes(shoe, detail).denominator  # in lowest terms
        total = shoe.rounds_denominator
        got = {k: Fraction(w, denominator) for k, w in kernel_as_counter(shoe, detail).items()}
        assert got == {k: Fraction(w, total) for k, w in expected.items()}, detail


@pytest.mark.kernels
@pytest.mark.parametrize(
    "ranks",
    [
        [1, 1, 5, 10, 13, 9],  # (two aces, two cards worth 0)
        [7, 7, 7, 2, 12, 3],  # (three of a kind: a value dealt up to three times)
    ],
)
def test_first_four_values_are_every_ordered_four_cards(ranks) -> None:
    from itertools import permutations

    from analyzer.engine.enumerator import first_four_counts

    rank_counts = np.bincount(np.array(ranks) - 1, minlength=13)
    got = first_four_counts(Shoe(rank_counts), "none")
    expected = np.zeros_like(got)
    for dealt in permutations(range(len(ranks)), 4):  # (physical cards, so each copy counts)
        a, b, c, d = (naive.points(ranks[i]) for i in dealt)
        expected[a, b, c, d, 0] += 1
    assert (got == expected).all()
    assert got.sum() == len(ranks) * (len(ranks) - 1) * (len(ranks) - 2) * (len(ranks) - 3)
