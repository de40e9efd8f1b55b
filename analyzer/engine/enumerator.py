"""The exact enumerator: every card-removal path of a shoe under the drawing rules.

Two stages, each a small Numba kernel on plain int64 arrays with the output allocated by
the caller (the QuantEcon pattern):

1. *First four cards* (P1, B1, P2, B2). ``first_four[a, b, c, d, s]`` counts the ordered
   ways to deal point values ``a, b, c, d`` in that order, split by pair state ``s``
   (Player's and Banker's first two cards: different rank / same rank other suit / same
   rank and suit). Without pair detail there is one state and the count is a falling
   product of value counts; with it the kernel walks card types (rank, or rank and suit).
2. *The draw walk*. It deals each hand's first two cards as an unordered pair of point
   values (Player ``i <= j``, Banker ``k <= m``, a pair of two values counted twice),
   carries the weight down as a falling product of what is left, looks up who draws in
   the third-card table, and weights each round as an ordered six-card sequence: the
   cards it uses times the ways to deal the rest of the six from what remains. So every
   count shares the denominator N(N-1)(N-2)(N-3)(N-4)(N-5), below 2**63 for every shoe
   :class:`~analyzer.game.shoe.Shoe` accepts (int64 is exact). Without pair states the
   first stage is not needed at all: the walk's own weights are its counts, and the third
   cards are not walked either: each deal of the first four cards adds into sums by the
   two hands' scores, from which every round's count follows in closed form
   (:func:`_value_walk_jit`).

A bet that reads only the pair fields needs none of this: the pair states' counts summed
over the draw are in closed form (:mod:`analyzer.engine.pairs`).

The result ``counts[s, player_score, banker_score, player_third, banker_third]`` (third
card point value 0..9, or ``NO_THIRD``) holds everything a bet can ask about a round.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.engine import compiling
from analyzer.engine.counts import OutcomeCounts
from analyzer.engine.draw import banker_draws, player_draws
from analyzer.engine.mixture import mixed_counts
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS, N_SUITS, N_VALUES, RANK_VALUES
from analyzer.game.fields import (
    N_PAIR_STATES,
    NO_PAIR,
    NO_THIRD,
    RANK_PAIR,
    SUITED_PAIR,
    PairDetail,
    fold_suited_pairs,
)
from analyzer.game.rules import (
    PLAYER_STOOD,
    STANDARD,
    DrawingRules,
    Mixture,
    Strategy,
    Tableau,
)
from analyzer.game.shoe import Shoe
from analyzer.schema import argument


@njit(cache=True)
def _first_four_values_jit(value_counts, take, out):
    """Count the ordered ways to deal each tuple of point values as the first four cards.

    Parameters
    ----------
    value_counts : int64[10]
        Cards of each point value 0-9 in the shoe.
    take : int
        What dealing a card takes from its count: 1, or 0 when cards are dealt with
        replacement (an infinite deck).
    out : int64[10, 10, 10, 10, 1]
        Zeroed by the caller; on return ``out[a, b, c, d, 0]`` is the number of ordered
        ways to deal values ``a, b, c, d`` as Player 1, Banker 1, Player 2, Banker 2:
        the falling product ``n_a (n_b - [b=a]) ...`` (with replacement, ``n_a n_b ...``).
    """
    left = value_counts.copy()
    for a in range(N_VALUES):
        wa = left[a]
        if wa == 0:
            continue
        left[a] -= take
        for b in range(N_VALUES):
            wb = wa * left[b]
            if wb == 0:
                continue
            left[b] -= take
            for c in range(N_VALUES):
                wc = wb * left[c]
                if wc == 0:
                    continue
                left[c] -= take
                for d in range(N_VALUES):
                    out[a, b, c, d, 0] = wc * left[d]
                left[c] += take
            left[b] += take
        left[a] += take


@njit(cache=True, inline="always")
def _interchangeable_jit(left, type_ranks, rank_start, t, first, second):
    """How many card types are interchangeable with type ``t`` at this point of the walk
    (``t`` included), or 0 when one of them comes before ``t`` (it stands for them all).

    Two types are interchangeable when they have the same rank and as many cards left
    and neither is a card already dealt (``first``, ``second``; -1 for none), which later
    cards are compared with: swapping them maps the rest of the walk onto itself, so one
    walks for all (the four suits of a rank in a full shoe are walked once, not four
    times)."""
    if t == first or t == second:  # noqa: SIM109 (as Numba compiles it best)
        return 1
    size = 0
    for u in range(rank_start[type_ranks[t]], rank_start[type_ranks[t] + 1]):
        if u == first or u == second or left[u] != left[t]:  # noqa: SIM109
            continue
        if u < t:
            return 0
        size += 1
    return size


@njit(cache=True)
def _first_four_pairs_jit(type_counts, type_values, type_ranks, rank_start, grouped, take, out):
    """Count the first four cards by point values and by each hand's pair state.

    A card type is a rank (suits unknown) or a rank and suit. Cards 1-3 are walked type by
    type, interchangeable types once (:func:`_interchangeable_jit`); the fourth (Banker's
    second) is summed in closed form per value, since its pair state against card 2 only
    asks "same type", "same rank, other type" or neither.

    Parameters
    ----------
    type_counts : int64[n_types]
        Cards of each type left in the shoe.
    type_values : int64[n_types]
        Point value 0-9 of each type.
    type_ranks : int64[n_types]
        Rank index 0-12 of each type, nondecreasing.
    rank_start : int64[14]
        Where each rank's types start (those of rank ``r`` are ``rank_start[r]`` to
        ``rank_start[r + 1]``).
    grouped : bool
        Whether some rank has several types (suits): only then can types be
        interchangeable.
    take : int
        What dealing a card takes from its count: 1, or 0 with replacement.
    out : int64[10, 10, 10, 10, 9]
        Zeroed by the caller; on return ``out[a, b, c, d, 3 * p + q]`` counts the ordered
        ways to deal values ``a, b, c, d`` (P1, B1, P2, B2) with the Player's pair state
        ``p`` and the Banker's ``q`` (NO_PAIR, RANK_PAIR, SUITED_PAIR). With ranks as types,
        "same type" counts as SUITED_PAIR; the caller folds it into RANK_PAIR.
    """
    n_types = type_counts.shape[0]
    left = type_counts.copy()
    left_value = np.zeros(N_VALUES, dtype=np.int64)
    left_rank = np.zeros(N_RANKS, dtype=np.int64)
    for t in range(n_types):
        left_value[type_values[t]] += left[t]
        left_rank[type_ranks[t]] += left[t]
    for t1 in range(n_types):
        w1 = left[t1]
        if grouped:
            w1 *= _interchangeable_jit(left, type_ranks, rank_start, t1, -1, -1)
        if w1 == 0:
            continue
        v1 = type_values[t1]
        left[t1] -= take
        left_value[v1] -= take
        left_rank[type_ranks[t1]] -= take
        for t2 in range(n_types):
            w2 = w1 * left[t2]
            if w2 == 0:
                continue
            if grouped:
                w2 *= _interchangeable_jit(left, type_ranks, rank_start, t2, t1, -1)
                if w2 == 0:
                    continue
            v2 = type_values[t2]
            left[t2] -= take
            left_value[v2] -= take
            left_rank[type_ranks[t2]] -= take
            for t3 in range(n_types):
                w3 = w2 * left[t3]
                if w3 == 0:
                    continue
                if grouped:
                    w3 *= _interchangeable_jit(left, type_ranks, rank_start, t3, t1, t2)
                    if w3 == 0:
                        continue
                v3 = type_values[t3]
                if t3 == t1:
                    player_state = SUITED_PAIR
                elif type_ranks[t3] == type_ranks[t1]:
                    player_state = RANK_PAIR
                else:
                    player_state = NO_PAIR
                base = N_PAIR_STATES * player_state
                left[t3] -= take
                left_value[v3] -= take
                left_rank[type_ranks[t3]] -= take
                same_type = left[t2]
                same_rank = left_rank[type_ranks[t2]] - same_type
                for d in range(N_VALUES):
                    total = left_value[d]
                    if total == 0:
                        continue
                    if d == v2:
                        out[v1, v2, v3, d, base + SUITED_PAIR] += w3 * same_type
                        out[v1, v2, v3, d, base + RANK_PAIR] += w3 * same_rank
                        out[v1, v2, v3, d, base + NO_PAIR] += w3 * (total - same_type - same_rank)
                    else:
                        out[v1, v2, v3, d, base + NO_PAIR] += w3 * total
                left[t3] += take
                left_value[v3] += take
                left_rank[type_ranks[t3]] += take
            left[t2] += take
            left_value[v2] += take
            left_rank[type_ranks[t2]] += take
        left[t1] += take
        left_value[v1] += take
        left_rank[type_ranks[t1]] += take


@njit(cache=True, inline="always")
def _mod10(total):
    """``total % 10`` for a total of two point values (0-18): a compare and a subtraction,
    not Python's signed remainder (the walk's innermost loops, 10% of its time)."""
    return total - 10 if total >= 10 else total


@njit(cache=True, inline="always")
def _add_leaf(
    out, states, weights, n_live, player_score, banker_score, player_third, banker_third, ways
):
    """Add ``weights[i] * ways`` to the cell of each live pair state ``states[i]``.

    Parameters
    ----------
    out : int64[n_states, 10, 10, 11, 11]
        The walk's counts (see ``_walk_jit``), updated in place.
    states, weights : int64[n_states]
        The pair states with a nonzero first-four count, and those counts (doubled for
        the swapped deals), in their first ``n_live`` entries.
    n_live : int
        How many entries of ``states`` and ``weights`` are live.
    player_score, banker_score : int
        Final scores 0-9.
    player_third, banker_third : int
        Third card's point value, or NO_THIRD.
    ways : int
        Ordered ways to deal the round's cards that ``weights`` leave out.
    """
    for i in range(n_live):
        out[states[i], player_score, banker_score, player_third, banker_third] += weights[i] * ways


@njit(cache=True)
def _walk_jit(value_counts, first_four, third_card, take, out):
    """Play every deal of the first four cards by the third-card rule; add the weights to
    ``out``.

    Each hand's first two cards are walked as an unordered pair of point values (the
    Player's ``i <= j``, then the Banker's ``k <= m``): swapping a hand's two cards deals
    the same multiset of cards, so it has the same weight, pair state and scores, and the
    pair counts twice when its values differ. The weight is carried down the walk as a
    falling product of what is left (each card dealt multiplies it by the count of its
    value still in the shoe), and every round is weighted as an ordered six-card
    sequence: the cards it uses times the ways to deal the rest of the six from what
    remains. Every weight is a count of ordered sequences of at most six cards, at most
    the shoe's ``N (N-1) ... (N-5)``, which :class:`~analyzer.game.shoe.Shoe` keeps below
    2**63 (``MAX_CARDS``): int64 cannot overflow.

    Parameters
    ----------
    value_counts : int64[10]
        Cards of each point value 0-9 in the shoe (N in all).
    first_four : int64[10, 10, 10, 10, n_states]
        With pair states (``n_states`` 9): the ordered ways to deal each first-four value
        tuple (P1, B1, P2, B2) per pair state (from ``_first_four_pairs_jit``). With one
        state it is not read (the weights carried down are the counts), and may be empty.
    third_card : bool[10, 10, 12]
        The third-card rule, a :attr:`analyzer.game.rules.Tableau.third_card`.
    take : int
        What dealing a card takes from its count: 1, or 0 with replacement (then every
        round weighs the product of its cards' counts times N for each card short of six).
    out : int64[n_states, 10, 10, 11, 11]
        Zeroed by the caller; on return ``out[s, player_score, banker_score,
        player_third, banker_third]`` (third card value, or NO_THIRD) holds ordered six-card
        sequences; the whole array sums to N (N-1) ... (N-5).
    """
    if out.shape[0] == 1:
        _value_walk_jit(value_counts, third_card, take, out[0])
    else:
        _pairs_walk_jit(value_counts, first_four, third_card, take, out)


@njit(cache=True)
def _value_walk_jit(value_counts, third_card, take, out):
    """:func:`_walk_jit` without pair states: ``out[player_score, banker_score,
    player_third, banker_third]`` (int64[10, 10, 11, 11], zeroed by the caller).

    The first four cards are walked as in :func:`_pairs_walk_jit` (value pairs, the
    weight ``w`` carried down), but the third cards are not: who draws depends only on
    the two-card scores, and what a third card weighs depends on the first four cards
    only through how many of its value they took. So each deal adds into sums by
    two-card scores ``(p, b)``: ``W0 = sum w``, ``W1[v] = sum w r_v`` and
    ``W2[u, v] = sum w r_u r_v`` (``r_v``: the first four cards of value ``v``; 21
    additions, no product), and the rounds are worked out once per pair of scores from
    those sums. A Player's third card ``x`` weighs ``sum w (n_x - r_x) = n_x W0 - W1[x]``,
    and ``x`` then the Banker's ``y``

        sum w (n_x - r_x)(n_y - r_y - [y = x])
            = n_x n_y W0 - n_x W1[y] - n_y W1[x] + W2[x, y] - [y = x] (n_x W0 - W1[x])

    (the ``r`` terms times ``take``: none with replacement). The same counts as walking
    every third card, at well under half the time. Every product stays in int64 (whose
    overflow Numba leaves undefined): with ``w_x = n_x W0 - W1[x]`` (at most the shoe's
    five-card sequences) and ``B = n_x W1[y] - W2[x, y] = sum w (n_x - r_x) r_y``, between
    0 and ``4 w_x``, the count is taken as ``(n_y - [y = x] - 4) w_x + (4 w_x - B)``:
    the first term lies between the count less ``4 w_x`` and the count, the second
    between 0 and ``4 w_x`` (``n_y w_x`` itself can pass 2**63 on the largest shoes)."""
    n = value_counts.sum()
    five_tail = n - 5 * take
    stand_tail = (n - 4 * take) * five_tail
    # The first four cards' sums by two-card scores (Player's, Banker's).
    w0 = np.zeros((N_VALUES, N_VALUES), dtype=np.int64)
    w1 = np.zeros((N_VALUES, N_VALUES, N_VALUES), dtype=np.int64)
    w2 = np.zeros((N_VALUES, N_VALUES, N_VALUES, N_VALUES), dtype=np.int64)
    left = value_counts.copy()
    for i in range(N_VALUES):  # the Player's first two cards: values i <= j
        w_i = left[i]
        if w_i == 0:
            continue
        left[i] -= take
        for j in range(i, N_VALUES):
            player = w_i * left[j]
            if player == 0:
                continue
            if i != j:
                player *= 2
            left[j] -= take
            player2 = _mod10(i + j)
            for k in range(N_VALUES):  # the Banker's: values k <= m
                w_k = player * left[k]
                if w_k == 0:
                    continue
                left[k] -= take
                for m in range(k, N_VALUES):
                    w = w_k * left[m]
                    if w == 0:
                        continue
                    if k != m:
                        w *= 2
                    banker2 = _mod10(k + m)
                    w0[player2, banker2] += w
                    if take:  # (with replacement no card changes what is left)
                        w1[player2, banker2, i] += w
                        w1[player2, banker2, j] += w
                        w1[player2, banker2, k] += w
                        w1[player2, banker2, m] += w
                        for u in (i, j, k, m):
                            w2[player2, banker2, u, i] += w
                            w2[player2, banker2, u, j] += w
                            w2[player2, banker2, u, k] += w
                            w2[player2, banker2, u, m] += w
                left[k] += take
            left[j] += take
        left[i] += take
    for player2 in range(N_VALUES):  # the rounds, by two-card scores
        for banker2 in range(N_VALUES):
            w = w0[player2, banker2]
            if w == 0:
                continue
            if player_draws(third_card, player2, banker2):
                for x in range(N_VALUES):
                    n_x = value_counts[x]
                    w_x = n_x * w - take * w1[player2, banker2, x]  # sum w (n_x - r_x)
                    if w_x == 0:
                        continue
                    player3 = _mod10(player2 + x)
                    if banker_draws(third_card, player2, banker2, x):
                        for y in range(N_VALUES):
                            # sum w (n_x - r_x) r_y, between 0 and 4 w_x
                            taken = n_x * w1[player2, banker2, y] - w2[player2, banker2, x, y]
                            seen = 5 if y == x else 4
                            out[player3, _mod10(banker2 + y), x, y] += (
                                value_counts[y] - take * seen
                            ) * w_x + take * (4 * w_x - taken)
                    else:
                        out[player3, banker2, x, NO_THIRD] += w_x * five_tail
            elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                for y in range(N_VALUES):
                    w_y = value_counts[y] * w - take * w1[player2, banker2, y]
                    out[player2, _mod10(banker2 + y), NO_THIRD, y] += w_y * five_tail
            else:  # a natural, or both hands stand
                out[player2, banker2, NO_THIRD, NO_THIRD] += w * stand_tail


@njit(cache=True)
def _pairs_walk_jit(value_counts, first_four, third_card, take, out):
    """:func:`_walk_jit` by pair state: the first four cards' ways per pair state are
    read from ``first_four`` for each deal of their values, the rest carried down.

    Parameters
    ----------
    value_counts : int64[10]
        Cards of each point value 0-9 in the shoe (N in all).
    first_four : int64[10, 10, 10, 10, n_states]
        With pair states (``n_states`` 9): the ordered ways to deal each first-four value
        tuple (P1, B1, P2, B2) per pair state (from ``_first_four_pairs_jit``). With one
        state it is not read (the weights carried down are the counts), and may be empty.
    third_card : bool[10, 10, 12]
        The third-card rule, a :attr:`analyzer.game.rules.Tableau.third_card`.
    take : int
        What dealing a card takes from its count: 1, or 0 with replacement (then every
        round weighs the product of its cards' counts times N for each card short of six).
    out : int64[n_states, 10, 10, 11, 11]
        Zeroed by the caller; on return ``out[s, player_score, banker_score,
        player_third, banker_third]`` (third card value, or NO_THIRD) holds ordered six-card
        sequences; the whole array sums to N (N-1) ... (N-5).
    """
    n_states = out.shape[0]
    n = value_counts.sum()
    # Ways to deal card 6 after a 5-card round, and cards 5 and 6 after a 4-card round.
    five_tail = n - 5 * take
    stand_tail = (n - 4 * take) * five_tail
    left = value_counts.copy()
    states = np.zeros(n_states, dtype=np.int64)
    weights = np.zeros(n_states, dtype=first_four.dtype)
    for i in range(N_VALUES):  # the Player's first two cards: values i <= j
        w_i = left[i]
        if w_i == 0:
            continue
        left[i] -= take
        for j in range(i, N_VALUES):
            player = w_i * left[j]
            if player == 0:
                continue
            if i != j:
                player *= 2
            left[j] -= take
            player2 = _mod10(i + j)
            for k in range(N_VALUES):  # the Banker's: values k <= m
                w_k = player * left[k]
                if w_k == 0:
                    continue
                left[k] -= take
                for m in range(k, N_VALUES):
                    w = w_k * left[m]
                    if w == 0:
                        continue
                    if k != m:
                        w *= 2
                    # The first four's ways by pair state; the rest carried from 1.
                    mult = (1 if i == j else 2) * (1 if k == m else 2)
                    n_live = 0
                    for s in range(n_states):
                        ways = first_four[i, k, j, m, s]
                        if ways != 0:
                            states[n_live] = s
                            weights[n_live] = ways * mult
                            n_live += 1
                    w = 1
                    left[m] -= take
                    banker2 = _mod10(k + m)
                    if player_draws(third_card, player2, banker2):
                        for x in range(N_VALUES):
                            w_x = w * left[x]
                            if w_x == 0:
                                continue
                            player3 = _mod10(player2 + x)
                            if banker_draws(third_card, player2, banker2, x):
                                left[x] -= take
                                for y in range(N_VALUES):
                                    w_y = w_x * left[y]
                                    if w_y != 0:
                                        _add_leaf(
                                            out, states, weights, n_live,
                                            player3, _mod10(banker2 + y), x, y, w_y,
                                        )  # fmt: skip
                                left[x] += take
                            else:
                                _add_leaf(
                                    out, states, weights, n_live,
                                    player3, banker2, x, NO_THIRD, w_x * five_tail,
                                )  # fmt: skip
                    elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                        for y in range(N_VALUES):
                            w_y = w * left[y]
                            if w_y != 0:
                                _add_leaf(
                                    out, states, weights, n_live,
                                    player2, _mod10(banker2 + y), NO_THIRD, y, w_y * five_tail,
                                )  # fmt: skip
                    else:  # a natural, or both hands stand
                        _add_leaf(
                            out, states, weights, n_live,
                            player2, banker2, NO_THIRD, NO_THIRD, w * stand_tail,
                        )  # fmt: skip
                    left[m] += take
                left[k] += take
            left[j] += take
        left[i] += take


def _card_types(per_rank: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card types the pair kernel tells apart, ``per_rank`` to a rank (a rank's
    suits, or the rank): each one's rank and value, and where each rank's types start.
    (Writable, as the kernels were compiled for: they only read them.)"""
    type_ranks = np.repeat(np.arange(N_RANKS, dtype=np.int64), per_rank)
    type_values = RANK_VALUES[type_ranks].astype(np.int64)
    rank_start = np.searchsorted(type_ranks, np.arange(N_RANKS + 1)).astype(np.int64)
    return type_ranks, type_values, rank_start


_CARD_TYPES = {"suit": _card_types(N_SUITS), "rank": _card_types(1)}


def first_four_counts(shoe: Shoe, pair_detail: PairDetail = "none") -> np.ndarray:
    """Ordered ways to deal each first-four value tuple, split by pair state if asked."""
    if pair_detail == "none":
        out = np.zeros((N_VALUES,) * 4 + (1,), dtype=np.int64)
        _first_four_values_jit(shoe.value_counts, shoe.take, out)
        return out
    if pair_detail == "suit":
        if not shoe.suits_known:
            raise AnalyzerError("suits of some cards are unknown: suited pairs cannot be counted")
        type_counts = shoe.suit_counts.reshape(-1)
    elif pair_detail == "rank":
        type_counts = shoe.rank_counts
    else:
        raise AnalyzerError(f"unknown pair detail {pair_detail!r}: use none, rank or suit")
    type_ranks, type_values, rank_start = _CARD_TYPES[pair_detail]
    out = np.zeros((N_VALUES,) * 4 + (N_PAIR_STATES**2,), dtype=np.int64)
    _first_four_pairs_jit(
        np.ascontiguousarray(type_counts, dtype=np.int64), type_values, type_ranks, rank_start,
        pair_detail == "suit", shoe.take, out,
    )  # fmt: skip
    if pair_detail == "rank":
        fold_suited_pairs(out.reshape((*out.shape[:4], N_PAIR_STATES, N_PAIR_STATES)))
    return out


def count_outcomes(
    shoe: Shoe,
    pair_detail: PairDetail = "none",
    rules: DrawingRules | None = None,
    strategy: Strategy | None = None,
) -> OutcomeCounts:
    """Exact outcome counts of one round dealt from ``shoe`` under ``rules`` (default: the
    standard tableau) played by ``strategy`` (pure or mixed).

    ``pair_detail`` says how far the first two cards of each hand are told apart:
    ``"none"`` (point values only; fastest), ``"rank"`` (pairs) or ``"suit"`` (pairs and
    suited pairs; needs a shoe with known suits).
    """
    argument(shoe, Shoe, "shoe", " (e.g. Shoe.standard(8))")
    argument(pair_detail, str, "pair detail", " (none, rank or suit)")
    rules = STANDARD if rules is None else argument(rules, DrawingRules, "rules")
    return mixture_outcomes(shoe, pair_detail, rules.mixture(strategy))


def mixture_outcomes(shoe: Shoe, pair_detail: PairDetail, mixture: Mixture) -> OutcomeCounts:
    """The outcome counts of the weighted sum of pure tableaus (one of weight 1: a pure
    strategy), as :meth:`~analyzer.game.rules.DrawingRules.mixture` gives them. Cards
    dealt with replacement are counted over the smallest denominator that tells apart
    what ``pair_detail`` asks (:meth:`~analyzer.game.shoe.Shoe.in_lowest_terms`)."""
    dealt = shoe.in_lowest_terms(suits=pair_detail == "suit")
    if compiling.walk_prepared():  # (no context to enter: most walks of a process)
        parts = _walked_parts(dealt, pair_detail, mixture)
    else:
        # Without pair states the walk carries the first four cards' weights itself.
        kernels = (_walk_jit,) if pair_detail == "none" else (_first_four_pairs_jit, _walk_jit)
        with compiling.preparing_walk(kernels):  # the first of a process may compile them
            parts = _walked_parts(dealt, pair_detail, mixture)
    counts, denominator, scale = mixed_counts(parts, dealt.rounds_denominator)
    return OutcomeCounts(counts, pair_detail, denominator, shoe, mixture[0][1].naturals, scale)


def _walked_parts(
    shoe: Shoe, pair_detail: PairDetail, mixture: Mixture
) -> list[tuple[object, np.ndarray]]:
    """Each pure tableau's weight and counts (``shoe`` in its lowest terms)."""
    first_four = _VALUES_ONLY if pair_detail == "none" else first_four_counts(shoe, pair_detail)
    return [(weight, walk_counts(shoe, first_four, tableau)) for weight, tableau in mixture]


#: The first four cards' counts the walk without pair states is given: none (it carries
#: their weights down itself), in the shape that says one state.
_VALUES_ONLY = np.zeros((0, 0, 0, 0, 1), dtype=np.int64)


def walk_counts(shoe: Shoe, first_four: np.ndarray, tableau: Tableau) -> np.ndarray:
    """The draw walk of one pure tableau from the first four cards' counts (by pair
    state; with one state they are not read)."""
    out = np.zeros((first_four.shape[4], 10, 10, 11, 11), dtype=np.int64)
    _walk_jit(shoe.value_counts, first_four, tableau.third_card, shoe.take, out)
    denominator = shoe.rounds_denominator
    total = int(out.sum(dtype=np.int64))
    if total != denominator:  # a broken kernel must never hand out a wrong number
        raise AssertionError(f"outcome counts sum to {total}, expected {denominator}")
    return out
