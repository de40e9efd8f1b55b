"""EVs summed over the rounds of dealt shoes, window by window
(:func:`analyzer.engine.round_sums.shoe_window_sums`), against pricing every round with the
batch engine (:func:`analyzer.engine.batch.dealt_expected_values`) and summing: on random
compositions, full and depleted (values gone, a handful of cards), by card and by rank."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from analyzer.engine.batch import dealt_expected_values
from analyzer.engine.pricing import pricing
from analyzer.engine.round_sums import shoe_window_sums
from analyzer.game.shoe import ROUND_CARDS
from analyzer.paytables.library import as_paytable


def _random_shoes(
    rng: np.random.Generator, shoes: int, rounds: int, width: int
) -> tuple[np.ndarray, np.ndarray]:
    """Random compositions (rows need not come from one deal: any shoe of at least a
    round's cards), a third of them depleted to a handful of cards, some of them with
    whole values or ranks gone; and each shoe's rounds (some none)."""
    out = np.zeros((shoes, rounds, width), dtype=np.int64)
    for s in range(shoes):
        for j in range(rounds):
            kind = rng.integers(3)
            if kind == 0:  # a full-ish shoe of several decks
                row = rng.integers(0, 9, size=width) * (4 if width == 13 else 1)
            elif kind == 1:  # a few cards, many types gone
                row = np.zeros(width, dtype=np.int64)
                row[rng.choice(width, size=rng.integers(2, 5), replace=False)] = rng.integers(
                    1, 4, size=1
                )
            else:  # a mid shoe with whole types gone
                row = rng.integers(0, 5, size=width) * (rng.random(width) < 0.6)
            while row.sum() < ROUND_CARDS:
                row[rng.integers(width)] += 1
            out[s, j] = row
    n_rounds = rng.integers(0, rounds + 1, size=shoes).astype(np.int64)
    n_rounds[0] = rounds
    return out, n_rounds


def _summed(bets, compositions, n_rounds, window, n_windows, rules=None, strategy=None):
    """The old way: every round priced by the batch engine, then summed per window."""
    shoes = len(compositions)
    out = np.zeros((shoes, n_windows, len(bets)))
    for s in range(shoes):
        n = int(n_rounds[s])
        if not n:
            continue
        ev = dealt_expected_values(bets, compositions[s, :n], rules, strategy)
        for j in range(n):
            out[s, window[j]] += ev[j]
    return out


def _bets(name: str, per_card: bool = True):
    paytable = as_paytable(name)
    bets = [bet for bet, _ in paytable.offered(paytable.modes)]
    if not per_card:
        bets = [bet for bet in bets if not pricing(bet).unavailable(False)]
    return paytable, bets


@pytest.mark.kernels
@pytest.mark.parametrize("width", [52, 13])
def test_sums_equal_every_round_priced_and_summed(width) -> None:
    rng = np.random.default_rng(44)
    _, bets = _bets("seed-game", per_card=width == 52)
    compositions, n_rounds = _random_shoes(rng, 3, 5, width)
    window = np.array([0, 0, 1, 2, 2], dtype=np.int64)
    got = shoe_window_sums(bets, compositions, n_rounds, window, 3)
    want = _summed(bets, compositions, n_rounds, window, 3)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    # A shoe with no round sums to nothing; so does a window past its last round.
    empty = n_rounds == 0
    assert (got[empty] == 0).all()


@pytest.mark.kernels
def test_the_lanes_fill_and_spill() -> None:
    """More shoes than the kernel's lanes, and windows longer than its spans: each shoe's
    sums land in its own row whatever the order it is priced in."""
    rng = np.random.default_rng(7)
    paytable = as_paytable("seed-game")
    bets = [paytable.bet("banker", "commission"), paytable.bet("lucky_six", "no_commission")]
    compositions, _ = _random_shoes(rng, 66, 18, 52)
    # 65 shoes of a round or two fill a block of lanes; the last shoe spills into a second
    # block, its first window longer than a span.
    n_rounds = np.array([1, 2] * 32 + [0, 18], dtype=np.int64)
    window = np.array([0] * 17 + [1], dtype=np.int64)
    got = shoe_window_sums(bets, compositions, n_rounds, window, 2)
    want = _summed(bets, compositions, n_rounds, window, 2)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.kernels
@pytest.mark.parametrize(
    "name",
    [
        "chemin-de-fer",  # a mixed strategy: the weighted sum over its tableaus
        "colour-match",  # a bet on the cards: priced round by round, summed
        "perfect-pairs-both",  # pairs alone, by their closed form
    ],
)
def test_other_paytables_sum_alike(name) -> None:
    rng = np.random.default_rng(3)
    paytable, bets = _bets(name)
    compositions, n_rounds = _random_shoes(rng, 2, 3, 52)
    window = np.array([0, 1, 1], dtype=np.int64)
    got = shoe_window_sums(
        bets, compositions, n_rounds, window, 2, paytable.rules, paytable.strategy
    )
    want = _summed(bets, compositions, n_rounds, window, 2, paytable.rules, paytable.strategy)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.kernels
def test_a_fee_is_paid_on_every_round() -> None:
    """A value-level bet with a fee: its sums per unit paid, round by round."""
    paytable = as_paytable("seed-game")
    banker = dataclasses.replace(paytable.bet("banker", "no_commission"), fee=Fraction(1, 20))
    assert pricing(banker).engine == "values"
    rng = np.random.default_rng(5)
    compositions, n_rounds = _random_shoes(rng, 2, 3, 13)
    window = np.zeros(3, dtype=np.int64)
    got = shoe_window_sums([banker], compositions, n_rounds, window, 1)
    want = _summed([banker], compositions, n_rounds, window, 1)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_a_bet_on_suits_is_nan_by_rank() -> None:
    paytable = as_paytable("seed-game")
    perfect = paytable.bet("perfect_pair", "commission")
    full = np.full((1, 1, 13), 32, dtype=np.int64)
    got = shoe_window_sums([perfect], full, np.array([1]), np.array([0]), 1)
    assert np.isnan(got).all()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"compositions": np.zeros((1, 2, 12), dtype=np.int64)}, "compositions are"),
        ({"compositions": np.zeros((1, 2, 52))}, "compositions are"),
        ({"n_rounds": np.array([3])}, "n_rounds must be 0 to 2"),
        ({"n_rounds": np.array([1, 1])}, "n_rounds must be int64 of shape"),
        ({"window": np.array([1, 0])}, "non-decreasing"),
        ({"window": np.array([0, 2])}, "non-decreasing, 0 to 1"),
        ({"window": np.array([0])}, "window must be int64 of shape"),
    ],
)
def test_bad_arrays_are_refused(change, message) -> None:
    args = {
        "compositions": np.full((1, 2, 52), 8, dtype=np.int64),
        "n_rounds": np.array([2]),
        "window": np.array([0, 1]),
    }
    args |= change
    bets = [as_paytable("seed-game").bet("tie", "commission")]
    with pytest.raises(ValueError, match=message):
        shoe_window_sums(bets, args["compositions"], args["n_rounds"], args["window"], 2)
