"""Each bet's expected value summed over the rounds of dealt shoes, window by window.

The shoe as dealt (:mod:`analyzer.runs.as_dealt`) needs, per shoe, the sum over its
rounds of each bet's exact EV on the cards left as the round starts, in windows of rounds
(those a max round allows, and the rest). Pricing round after round
(:func:`analyzer.engine.batch.dealt_expected_values`) then summing does, per round, what
the batch engine does per composition: each compiled term's weight is spread over the
outcome classes its rounds end in (about four classes a term). A sum needs that once per
window, not once per round. For a round with ``n_v`` cards of point value ``v`` and
``N`` in all, a value-level bet's expected ``net + 1`` is

    sum_c plus_one[c] * sum_t R[c, t] * prod_v ff(n_v, k_tv) / ff(N, u_t)

(:mod:`analyzer.engine.terms`: term ``t`` uses ``k_tv`` cards of value ``v``, ``u_t`` in
all; ``R[c, t]``: its orders of cards that end in class ``c``). Summed over a window's
rounds, the inner sums swap: ``Z_t = sum_rounds prod_v ff(n_v, k_tv) / ff(N, u_t)`` is one
multiply-add a term and round (the last factor times the term's shared prefix, summed),
and ``R`` and ``plus_one`` are applied to ``Z`` once per window and shoe. The figures are
the batch engine's, summed in another order (floats: they agree to about 1e-13 over a
shoe's rounds).

Bets on pairs alone use the batch engine's closed form per round, summed; any other bet is
priced round by round by the batch engine and summed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.engine.batch import (
    dealt_expected_values,
    pair_state_nets,
    pair_state_sums,
    value_round_terms,
)
from analyzer.engine.pricing import pricing
from analyzer.game.cards import CARD_RANKS, CARD_VALUES, N_CARDS, N_RANKS, N_VALUES, RANK_VALUES
from analyzer.game.fields import fold_suited_pairs
from analyzer.game.rules import STANDARD, DrawingRules, Strategy, Tableau
from analyzer.paytables.model import Bet

__all__ = ["shoe_window_sums"]

#: Shoes priced side by side in the kernel (its lanes).
_LANES = 64
#: The most rounds of one window a lane takes at once.
_SPAN = 16


@njit(cache=True, fastmath=True)
def _value_window_sums_jit(
    compositions,
    value_of_type,
    n_rounds,
    order,
    window,
    factor_slot,
    factor_offset,
    factor_power,
    term_factor,
    term_shared,
    row_start,
    row_class,
    row_count,
    class_plus_one,
    out,
):
    """Per shoe and window of rounds, each compiled bet's expected ``net + 1`` summed over
    the window's rounds.

    Shoes are taken :data:`_LANES` at a time, side by side (fewest rounds first, so
    that shoes side by side deal about as many), and their rounds in spans of at most
    :data:`_SPAN` rounds of one window, laid out round after round with the shoes side
    by side (``q = j * _LANES + lane``). Per span, each distinct factor is tabled once:
    a value factor ``ff(n_v - offset, power)``, and each term's first factor
    ``1 / ff(N, u)`` (0 for a round the shoe did not deal, so those weigh nothing).
    Terms come in lexicographic order of their factors, so each reuses the partial
    products it shares with the one before; a term's last factor is multiplied into its
    prefix and summed over each shoe's rounds in one pass, into the term's sums per
    shoe. When a window's rounds are summed, each term's sums go into the outcome
    classes its rounds end in; after the last window, each bet's ``net + 1`` in each
    class weighs the classes' sums.

    Parameters
    ----------
    compositions : int64[S, J, n_types]
        Cards of each type left as round ``j`` of shoe ``s`` starts (read for
        ``j < n_rounds[s]``).
    value_of_type : int64[n_types]
        The point value (0-9) of each card type.
    n_rounds : int64[S]
        The rounds each shoe dealt.
    order : int64[S]
        The shoes in the order they are taken (by their rounds: shoes side by side then
        deal about as many rounds, and few lanes idle).
    window : int64[J]
        The window of each round (non-decreasing; ``out.shape[1]`` windows).
    factor_slot, factor_offset, factor_power : int64[F]
        The distinct factors: slot ``v < 10`` is ``ff(n_v - offset, power)``, slot 10 is
        ``1 / ff(N, offset)``.
    term_factor : int64[K, max_factors]
        Each term's factors (indices into the above, its ``1 / ff(N, u)`` first), padded
        with -1.
    term_shared : int64[K]
        How many leading factors each term shares with the one before.
    row_start, row_class, row_count : int64[K + 1], int64[nnz], float64[nnz]
        Rows of the terms (CSR by term): the term's orders of cards ending in a class.
    class_plus_one : float64[n_classes, n_bets]
        Each bet's net + 1 in each class.
    out : float64[S, n_windows, n_bets]
        On return ``out[s, w, b]``: the sum over shoe ``s``'s rounds in window ``w`` of
        bet ``b``'s expected net + 1 per unit staked.
    """
    n_shoes, _, n_types = compositions.shape
    n_windows = out.shape[1]
    n_factors = factor_slot.shape[0]
    n_terms, max_factors = term_factor.shape
    n_classes, n_bets = class_plus_one.shape
    size = _LANES * _SPAN
    # Round by round, the cards of each value and in all (a round's counts side by side).
    counts = np.zeros((size, N_VALUES + 1))
    table = np.zeros((n_factors, size))
    partial = np.ones((max_factors + 1, size))
    # Per term and shoe, its weights summed over the window's rounds so far.
    sums = np.zeros((n_terms, _LANES))
    acc = np.zeros((n_windows * n_classes, _LANES))
    # A term's last level is stored only when the next term extends it.
    n_used = np.zeros(n_terms, dtype=np.int64)
    for t in range(n_terms):
        for k in range(max_factors):
            if term_factor[t, k] >= 0:
                n_used[t] = k + 1
    keep = np.zeros(n_terms, dtype=np.bool_)
    for t in range(n_terms - 1):
        keep[t] = term_shared[t + 1] >= n_used[t]
    for first in range(0, n_shoes, _LANES):
        lanes = min(_LANES, n_shoes - first)
        steps = 0
        for lane in range(lanes):
            steps = max(steps, n_rounds[order[first + lane]])
        acc[:, :] = 0.0
        start = 0
        while start < steps:
            w = window[start]
            end = start
            while end < steps and window[end] == w:
                end += 1
            pieces = (end - start + _SPAN - 1) // _SPAN
            stop = start + (end - start + pieces - 1) // pieces
            m = stop - start
            used = _LANES * m
            # The counts of each value and in all, round by round.
            counts[:used, :] = 0.0
            for lane in range(lanes):
                s = order[first + lane]
                for j in range(m):
                    if start + j < n_rounds[s]:
                        q = j * _LANES + lane
                        for c in range(n_types):
                            counts[q, value_of_type[c]] += compositions[s, start + j, c]
            for j in range(used):
                total = 0.0
                for v in range(N_VALUES):
                    total += counts[j, v]
                counts[j, N_VALUES] = total
            for f in range(n_factors):
                slot = factor_slot[f]
                offset = factor_offset[f]
                row = table[f]
                line = counts[:, slot]
                if slot == N_VALUES:
                    for q in range(used):
                        x = 1.0
                        for j in range(offset):
                            x *= line[q] - j
                        # No round (no cards): weight 0.
                        row[q] = 1.0 / x if line[q] > 0.0 else 0.0
                else:
                    for q in range(used):
                        row[q] = 1.0
                    for j in range(factor_power[f]):
                        for q in range(used):
                            row[q] *= line[q] - (offset + j)
            base = w * n_classes
            for t in range(n_terms):
                last = n_used[t] - 1
                for k in range(term_shared[t], last):
                    a = partial[k]
                    b = table[term_factor[t, k]]
                    o = partial[k + 1]
                    for q in range(used):
                        o[q] = a[q] * b[q]
                a = partial[last]
                b = table[term_factor[t, last]]
                if keep[t]:
                    o = partial[last + 1]
                    for q in range(used):
                        o[q] = a[q] * b[q]
                summed = sums[t]
                for j in range(m):
                    at = j * _LANES
                    for lane in range(_LANES):
                        summed[lane] += a[at + lane] * b[at + lane]
            if stop == end:  # the window is summed: its terms go into their classes
                for t in range(n_terms):
                    summed = sums[t]
                    for r in range(row_start[t], row_start[t + 1]):
                        weight = row_count[r]
                        target = acc[base + row_class[r]]
                        for lane in range(_LANES):
                            target[lane] += weight * summed[lane]
                    summed[:] = 0.0
            start = stop
        for lane in range(lanes):
            for w in range(n_windows):
                for bet in range(n_bets):
                    total = 0.0
                    for c in range(n_classes):
                        p = class_plus_one[c, bet]
                        if p != 0.0:
                            total += p * acc[w * n_classes + c, lane]
                    out[order[first + lane], w, bet] = total


def _value_sums(
    bets: list[Bet],
    compositions: np.ndarray,
    n_rounds: np.ndarray,
    window: np.ndarray,
    n_windows: int,
    tableau: Tableau,
) -> np.ndarray:
    """Per shoe and window, each value-level bet's expected net + 1 per unit staked,
    summed over the rounds, (shoes, windows, bets)."""
    compiled = value_round_terms(bets, tableau)
    per_card = compositions.shape[2] == N_CARDS
    out = np.zeros((len(compositions), n_windows, len(bets)))
    _value_window_sums_jit(
        compositions, CARD_VALUES if per_card else RANK_VALUES, n_rounds,
        np.argsort(n_rounds, kind="stable").astype(np.int64), window,
        compiled.factor_slot, compiled.factor_offset, compiled.factor_power,
        compiled.term_factor, compiled.term_shared, compiled.row_start, compiled.row_class,
        compiled.row_count, compiled.class_plus_one, out,
    )  # fmt: skip
    return out


def shoe_window_sums(
    bets: list[Bet],
    compositions: np.ndarray,
    n_rounds: np.ndarray,
    window: np.ndarray,
    n_windows: int,
    rules: DrawingRules | None = None,
    strategy: Strategy | None = None,
) -> np.ndarray:
    """Per dealt shoe and window of its rounds, each bet's EV per unit paid summed over
    the window's rounds: the sums of :func:`~analyzer.engine.batch.dealt_expected_values`
    round by round, in another order (floats, to about 1e-13).

    Parameters
    ----------
    bets : list of Bet
        The bets priced.
    compositions : int64 array (shoes, rounds, 52) or (shoes, rounds, 13)
        Per shoe, the cards of each card (or rank, suits unknown: a bet on suits is NaN)
        left as each of its rounds starts; rows from ``n_rounds[s]`` on are not read.
        Each round read is a real shoe with at least a round's cards.
    n_rounds : int64 array (shoes,)
        The rounds each shoe dealt, at most ``compositions.shape[1]``.
    window : int64 array (rounds,)
        Each round's window (by its place in the shoe), non-decreasing, 0 to
        ``n_windows - 1``.
    n_windows : int
        The windows.
    rules, strategy : optional
        The drawing rules and strategy (default: the standard tableau); a mixed strategy
        is the weighted sum over its tableaus.

    Returns
    -------
    numpy.ndarray
        (shoes, n_windows, bets) float64: ``[s, w, b]`` the sum of bet ``b``'s EV per
        unit paid over shoe ``s``'s rounds in window ``w`` (0 where there are none).

    Raises
    ------
    ValueError
        Arrays of the wrong shape or type, or a window out of range.

    Examples
    --------
    >>> from analyzer import seed_paytable
    >>> banker = seed_paytable().bet("banker", "commission")
    >>> full = np.full((1, 2, 52), 8, dtype=np.int64)
    >>> sums = shoe_window_sums([banker], full, np.array([2]), np.array([0, 1]), 2)
    >>> round(float(sums[0, 0, 0]), 6), round(float(sums[0, 1, 0]), 6)
    (-0.010579, -0.010579)
    """
    n_rounds = np.asarray(n_rounds)
    window = np.asarray(window)
    if (
        compositions.dtype != np.int64
        or compositions.ndim != 3
        or compositions.shape[2] not in (N_CARDS, N_RANKS)
    ):
        raise ValueError(
            f"compositions are (shoes, rounds, 52) or (..., 13) int64, got {compositions.shape}"
        )
    shoes, steps = compositions.shape[:2]
    if n_rounds.shape != (shoes,) or n_rounds.dtype != np.int64:
        raise ValueError(f"n_rounds must be int64 of shape ({shoes},), got {n_rounds.shape}")
    if window.shape != (steps,) or window.dtype != np.int64:
        raise ValueError(f"window must be int64 of shape ({steps},), got {window.shape}")
    if len(n_rounds) and not 0 <= n_rounds.min() <= n_rounds.max() <= steps:
        raise ValueError(f"n_rounds must be 0 to {steps}")
    if steps and (window.min() < 0 or window.max() >= n_windows or (np.diff(window) < 0).any()):
        raise ValueError(f"window must be non-decreasing, 0 to {n_windows - 1}")
    compositions = np.ascontiguousarray(compositions)
    per_suit = compositions.shape[2] == N_CARDS
    # Rounds in each window: window w holds rounds low[w] to high[w] - 1.
    low = np.searchsorted(window, np.arange(n_windows), "left")
    high = np.searchsorted(window, np.arange(n_windows), "right")
    rounds = np.clip(n_rounds[:, None] - low, 0, high - low)
    out = np.full((shoes, n_windows, len(bets)), np.nan)
    # Bets that settle alike pay alike: each settlement is priced once (and hashed once:
    # it holds Fractions, slow to hash). same[i]: the first bet settling as bet i does.
    first: dict[tuple, int] = {}
    same = [first.setdefault(bet.settlement, i) for i, bet in enumerate(bets)]
    plans = {i: pricing(bets[i]) for i in first.values()}
    engine = [plans[same[i]].engine for i in range(len(bets))]
    priced = [i for i in range(len(bets)) if not plans[same[i]].unavailable(per_suit)]

    value_bets = [i for i in priced if engine[i] == "values"]
    if value_bets:
        distinct = sorted({same[i] for i in value_bets})
        mixture = (STANDARD if rules is None else rules).mixture(strategy)
        plus_one = sum(
            float(weight)
            * _value_sums(
                [bets[i] for i in distinct], compositions, n_rounds, window, n_windows, tableau
            )
            for weight, tableau in mixture
        )
        for i in value_bets:
            out[:, :, i] = plus_one[:, :, distinct.index(same[i])] - rounds

    pair_bets = [i for i in priced if engine[i] == "pairs"]
    if pair_bets:
        ranks = CARD_RANKS if per_suit else np.arange(N_RANKS, dtype=np.int64)
        summed = pair_state_sums(compositions, ranks, n_rounds, window, n_windows)
        if not per_suit:  # with ranks as types, "same type" is "same rank": fold
            fold_suited_pairs(summed)
        flat = summed.reshape(shoes, n_windows, -1)
        nets = {j: pair_state_nets(bets[j]) for j in {same[i] for i in pair_bets}}
        for i in pair_bets:
            out[:, :, i] = flat @ nets[same[i]]

    for i in value_bets + pair_bets:  # per unit staked so far: the fee on every round
        fee = bets[i].fee
        if fee:
            out[:, :, i] = (out[:, :, i] - float(fee) * rounds) / float(1 + fee)

    rest = [i for i in priced if i not in value_bets and i not in pair_bets]
    if rest:
        dealt = np.arange(steps) < n_rounds[:, None]
        shoe_of, step_of = np.nonzero(dealt)
        segment = shoe_of * n_windows + window[step_of]
        for i in rest:
            out[:, :, i] = 0.0
        if len(segment):
            ev = dealt_expected_values(
                [bets[i] for i in rest], compositions[dealt], rules, strategy
            )
            for k, i in enumerate(rest):
                out[:, :, i] = np.bincount(
                    segment, weights=ev[:, k], minlength=shoes * n_windows
                ).reshape(shoes, n_windows)
    return out
