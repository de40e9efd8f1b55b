"""The cards left as each round of many dealt shoes starts, and the windows of rounds a
max round cuts a shoe into: what :func:`analyzer.runs.as_dealt.dealt_partition` prices
(:func:`analyzer.engine.round_sums.shoe_window_sums`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

__all__ = ["round_compositions", "round_windows"]


@njit(cache=True)
def _round_compositions_jit(cards, type_of_card, starts, n_rounds, counts, out):
    """``out[s, j]``: the cards of each type left in shoe ``s`` (``cards[s]`` in dealing
    order, ``counts`` of each type when full) before card ``starts[s, j]`` is dealt, for
    its rounds ``j < n_rounds[s]`` (starts ascending); later rows are left as they are."""
    left = np.empty(counts.shape[0], dtype=np.int64)
    for s in range(cards.shape[0]):
        left[:] = counts
        dealt = 0
        for j in range(n_rounds[s]):
            while dealt < starts[s, j]:
                left[type_of_card[cards[s, dealt]]] -= 1
                dealt += 1
            out[s, j, :] = left


def round_compositions(
    cards: np.ndarray,
    type_of_card: np.ndarray,
    starts: np.ndarray,
    n_rounds: np.ndarray,
    counts: np.ndarray,
) -> np.ndarray:
    """The cards of each type left as each round of each shoe starts.

    Parameters
    ----------
    cards : int array (shoes, size)
        Each shoe's card indices (0-51) in dealing order.
    type_of_card : int array (52,)
        The type (column of ``counts``) of each card index.
    starts : int array (shoes, rounds)
        Where each round starts (ascending in a shoe, at most ``size``).
    n_rounds : int array (shoes,)
        The rounds each shoe dealt (at most ``rounds``).
    counts : int array (types,)
        The full shoe's cards of each type (the cards of each shoe).

    Returns
    -------
    numpy.ndarray
        (shoes, rounds, types) int64: ``[s, j]`` the cards left as round ``j`` of shoe
        ``s`` starts, zeros from ``n_rounds[s]`` on.

    Raises
    ------
    ValueError
        Shapes that do not fit, or a round starting outside its shoe.

    Examples
    --------
    >>> cards = np.array([[0, 4, 1, 5, 2, 6, 3, 7]])  # four aces and four 2s, by card
    >>> by_rank = np.arange(52) // 4
    >>> full = np.zeros(13, dtype=np.int64)
    >>> full[:2] = 4
    >>> left = round_compositions(cards, by_rank, np.array([[0, 4]]), np.array([2]), full)
    >>> left[0, :, :2].tolist()
    [[4, 4], [2, 2]]
    """
    cards = np.ascontiguousarray(cards, dtype=np.int64)
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    n_rounds = np.ascontiguousarray(n_rounds, dtype=np.int64)
    counts = np.ascontiguousarray(counts, dtype=np.int64)
    type_of_card = np.ascontiguousarray(type_of_card, dtype=np.int64)
    shoes, size = cards.shape
    if starts.ndim != 2 or len(starts) != shoes or n_rounds.shape != (shoes,):
        raise ValueError(f"starts {starts.shape} and n_rounds {n_rounds.shape} do not fit cards")
    if type_of_card.shape != (52,) or not (type_of_card >= 0).all():
        raise ValueError("type_of_card gives a type to each of the 52 cards")
    if type_of_card.max() >= len(counts):
        raise ValueError(f"types run 0 to {len(counts) - 1}")
    if shoes and not 0 <= n_rounds.min() <= n_rounds.max() <= starts.shape[1]:
        raise ValueError(f"n_rounds must be 0 to {starts.shape[1]}")
    dealt = np.arange(starts.shape[1]) < n_rounds[:, None]
    if ((starts < 0) | (starts > size))[dealt].any():
        raise ValueError(f"a round starts outside its shoe of {size} cards")
    out = np.zeros((shoes, starts.shape[1], len(counts)), dtype=np.int64)
    _round_compositions_jit(cards, type_of_card, starts, n_rounds, counts, out)
    return out


def round_windows(
    max_rounds: Sequence[int | None], rounds: int
) -> tuple[np.ndarray, list[int | None]]:
    """The windows a shoe's rounds fall into when bets end at ``max_rounds``: round ``j``
    (the ``j + 1``-th) is in window ``w`` when ``w`` of the distinct max rounds are
    below ``j + 1``, so a bet with max round ``m`` is offered in the windows up to the
    place of ``m`` among them, and every round of those.

    Parameters
    ----------
    max_rounds : sequence of int or None
        Each column's max round (None: none).
    rounds : int
        The most rounds a shoe can deal.

    Returns
    -------
    tuple
        ``window``, int64 (rounds,): each round's window; and per column the last window
        it is offered in (None: every window). There are ``len(set of max rounds) + 1``
        windows.

    Examples
    --------
    >>> window, last = round_windows([40, None, 50, 40], 6)
    >>> window.tolist(), last
    ([0, 0, 0, 0, 0, 0], [0, None, 1, 0])
    """
    cuts = sorted({m for m in max_rounds if m is not None})
    window = np.searchsorted(np.array(cuts, dtype=np.int64), np.arange(1, rounds + 1), "left")
    last = [None if m is None else cuts.index(m) for m in max_rounds]
    return window.astype(np.int64), last
