"""The pair states of a round in closed form, without walking the draw.

Whether a hand's first two cards are a pair (same rank) or a suited pair (same card)
depends on those two cards only, never on the draw: every deal of the first four cards
goes on to ``(N-4)(N-5)`` ordered ways to deal cards 5 and 6 (``N^2`` with replacement),
whatever the hands then draw. So a bet that reads only the pair fields is priced by
the counts of the nine pair states (Player's state by Banker's), summed over the draw:

    ways(p, q) = sum over the Player's two cards (t1, t3) of a state p
                 of n_t1 (n_t3 - [t1 = t3]) * (the Banker's ways to a state q from
                 what is left) * (N-4)(N-5)

where the Banker's ways from counts ``m`` are ``S = sum_t m_t (m_t - 1)`` for the same
card, ``R - S`` for the same rank and another card (``R`` the same sum over ranks), and
``M (M - 1) - R`` for no pair. Each is read off the shoe's sums, corrected for the two
cards the Player holds: sums over the 52 cards and 13 ranks (compiled where Numba is
loaded, else in Python: a report whose counts are stored needs no Numba). A
bet that joins a pair with the round's result still needs the enumerator's joint walk
(:mod:`analyzer.engine.enumerator`).

Every count is a number of ordered sequences of at most six cards, at most the shoe's
denominator, which :class:`~analyzer.game.shoe.Shoe` keeps below 2**63: int64 is exact.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from analyzer.engine.counts import kernels_loaded
from analyzer.engine.mixture import mixed_counts
from analyzer.errors import AnalyzerError
from analyzer.game.fields import (
    N_PAIR_STATES,
    NO_PAIR,
    RANK_PAIR,
    SUITED_PAIR,
    PairDetail,
    fold_suited_pairs,
)
from analyzer.game.rules import Mixture
from analyzer.game.shoe import Shoe


def pair_states(kinds: np.ndarray, take: int, out: np.ndarray) -> None:
    """The ordered ways to deal the first four cards by the two hands' pair states.

    Parameters
    ----------
    kinds : int64[13, n_kinds]
        Cards of each kind (a rank's suits, or the rank itself: ``n_kinds`` 1) left.
    take : int
        What dealing a card takes from its count: 1, or 0 with replacement.
    out : int64[3, 3]
        Zeroed by the caller; on return ``out[p, q]`` the ordered ways (P1, B1, P2, B2)
        with the Player's pair state ``p`` and the Banker's ``q`` (same kind: SUITED_PAIR).

    Plain loops, so that Numba compiles the same text (:func:`_compiled_pair_states`).
    """
    n_ranks, n_kinds = kinds.shape
    n = 0
    suited = 0  # sum over kinds of c (c - take): ordered ways to two of one kind
    ranked = 0  # the same over ranks
    others = 0  # a hand of one rank, two kinds (sum over ranks of r^2 - sum c^2)
    squares = 0  # sum over ranks of r^2
    for r in range(n_ranks):
        in_rank = 0
        kind_squares = 0
        for k in range(n_kinds):
            c = kinds[r, k]
            in_rank += c
            kind_squares += c * c
            suited += c * (c - take)
        n += in_rank
        ranked += in_rank * (in_rank - take)
        others += in_rank * in_rank - kind_squares
        squares += in_rank * in_rank
    # Per Player state: the Player's ways (a), and those ways times the Banker's sums
    # over what is left, same kind (b) and same rank (c). Dealing one card of a kind of
    # x cards takes 2 take (x - take) from that kind's x (x - take).
    b_suited = 0  # the same kind twice: the kind loses two cards, its rank two
    c_suited = 0
    b_rank = 0  # one rank, two kinds: each kind loses one, the rank two
    c_rank = 0
    b_none = 0  # two ranks: each kind and each rank loses one
    c_none = 0
    for r in range(n_ranks):
        in_rank = 0
        for k in range(n_kinds):
            in_rank += kinds[r, k]
        rank_two = ranked - in_rank * (in_rank - take) + (in_rank - 2 * take) * (in_rank - 3 * take)
        kind_squares = 0
        for k in range(n_kinds):
            c = kinds[r, k]
            kind_squares += c * c
            ways = c * (c - take)
            b_suited += ways * (suited - ways + (c - 2 * take) * (c - 3 * take))
            c_suited += ways * rank_two
            one = c * 2 * take * (c - take)
            b_rank += one * (in_rank - c)
            b_none += one * (n - in_rank)
        c_rank += (in_rank * in_rank - kind_squares) * rank_two
        c_none += in_rank * 2 * take * (in_rank - take) * (n - in_rank)
    a_none = n * n - squares
    b_rank = suited * others - 2 * b_rank
    b_none = suited * a_none - 2 * b_none
    c_none = ranked * a_none - 2 * c_none
    left = (n - 2 * take) * (n - 3 * take)
    # The Banker: no pair, a pair of two kinds, the same kind twice.
    out[NO_PAIR, NO_PAIR] = left * a_none - c_none
    out[NO_PAIR, RANK_PAIR] = c_none - b_none
    out[NO_PAIR, SUITED_PAIR] = b_none
    out[RANK_PAIR, NO_PAIR] = left * others - c_rank
    out[RANK_PAIR, RANK_PAIR] = c_rank - b_rank
    out[RANK_PAIR, SUITED_PAIR] = b_rank
    out[SUITED_PAIR, NO_PAIR] = left * suited - c_suited
    out[SUITED_PAIR, RANK_PAIR] = c_suited - b_suited
    out[SUITED_PAIR, SUITED_PAIR] = b_suited


@cache
def _compiled_pair_states() -> Callable[[np.ndarray, int, np.ndarray], None]:
    """:func:`pair_states` compiled by Numba (asked for only where Numba is loaded)."""
    from numba import njit

    return njit(cache=True)(pair_states)


def pair_state_counts(shoe: Shoe, pair_detail: PairDetail = "suit") -> np.ndarray:
    """Ordered six-card sequences of ``shoe`` by pair state, summed over the draw.

    Parameters
    ----------
    shoe : Shoe
        The shoe (cards dealt with or without replacement).
    pair_detail : {"rank", "suit"}
        ``"suit"`` tells a suited pair (the same card) from another pair (needs known
        suits); ``"rank"`` counts every pair of a rank as RANK_PAIR.

    Returns
    -------
    numpy.ndarray
        int64[9]: ``out[3 * p + q]`` the sequences whose Player's first two cards are in
        pair state ``p`` and Banker's in ``q`` (NO_PAIR, RANK_PAIR, SUITED_PAIR); they sum
        to ``shoe.rounds_denominator``.

    Raises
    ------
    AnalyzerError
        An unknown detail, or ``"suit"`` on a shoe whose suits are unknown.

    Examples
    --------
    >>> from analyzer import Shoe
    >>> counts = pair_state_counts(Shoe.standard(1), "rank")
    >>> int(counts.sum()) == Shoe.standard(1).rounds_denominator
    True
    """
    if pair_detail == "suit":
        if not shoe.suits_known:
            raise AnalyzerError("suits of some cards are unknown: suited pairs cannot be counted")
        kinds = shoe.suit_counts.astype(np.int64)  # [rank, suit]
    elif pair_detail == "rank":
        kinds = shoe.rank_counts.astype(np.int64)[:, None]
    else:
        raise AnalyzerError(f"unknown pair detail {pair_detail!r}: use rank or suit")
    states = np.zeros((N_PAIR_STATES, N_PAIR_STATES), dtype=np.int64)
    if kernels_loaded():  # compiled, where Numba is loaded anyway (a few microseconds)
        _compiled_pair_states()(kinds, shoe.take, states)
    else:  # (a store's counts read without Numba: in Python integers)
        pair_states(kinds.astype(object), shoe.take, states)
    n = shoe.size  # (the cards of every kind)
    take = shoe.take
    if pair_detail == "rank":  # the same kind is only the same rank
        fold_suited_pairs(states)
    tail = (n - 4 * take) * (n - 5 * take)
    # (nine numbers: in Python integers, then one array, not four numpy calls)
    ways = [count * tail for count in states.reshape(-1).tolist()]
    total = sum(ways)
    if total != shoe.rounds_denominator:  # never a wrong number handed out
        raise AssertionError(f"pair counts sum to {total}, expected {shoe.rounds_denominator}")
    return np.array(ways, dtype=np.int64)


def pair_ways(shoe: Shoe, pair_detail: PairDetail, mixture: Mixture) -> tuple[np.ndarray, int, int]:
    """The pair states' counts (:func:`pair_state_counts`, every state, 0 where none) over
    the denominator and scale of the enumerator's counts of ``shoe`` under ``mixture``:
    a bet that reads only pairs settles on them as on the joint counts, to the same
    figures. Returns the counts (int64, or Python integers for a huge mixture), their
    denominator and the mixture's scale."""
    counts = pair_state_counts(shoe, pair_detail)
    # (Whatever the tableau, the pairs are the same: each part of a mixture weighs them.)
    return mixed_counts([(weight, counts) for weight, _ in mixture], shoe.rounds_denominator)
