"""The chance of each winner of a round of a game dealt once, on many shoes at once.

A game of :mod:`analyzer.game.games` whose hands take no card after the deal (Dragon
Tiger, Three Card Baccarat) decides its winner by which ranks each hand holds, whatever
their order or suits. So a round from a shoe of known rank counts is a pair of hands, each
a multiset of ranks, weighed by the orders within each hand times the ordered ways to take
those cards from the shoe (the falling product of each rank's count): the pairs
:func:`~analyzer.engine.deal_walk.dealt_outcomes` walks. The winner of every pair is
worked out once per game, by the game's own scoring
(:meth:`~analyzer.game.games.Game.columns`); then a kernel sums, per shoe, the ways of
each winner (floats: the shoe-aware test of ``audit`` prices every round of a log on the
cards left in its shoe, one composition a round).
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np
from numba import njit

from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS
from analyzer.game.games import Game

__all__ = ["winner_chances"]


@cache
def _hand_pairs(game: Game) -> tuple[np.ndarray, ...]:
    """Per hand, every multiset of ranks it may hold (its distinct ranks and how many of
    each, padded with -1 and 0, and its orders within the hand), and the winner of every
    pair of them by the game's own scoring (0 the first hand, 1 the second, 2 a tie)."""
    held = []
    for hand in game.hands:
        combos = list(itertools.combinations_with_replacement(range(N_RANKS), hand.cards))
        ranks = np.full((len(combos), hand.cards), -1, dtype=np.int64)
        times = np.zeros((len(combos), hand.cards), dtype=np.int64)
        orders = np.empty(len(combos), dtype=np.float64)
        for i, combo in enumerate(combos):
            counted = sorted(set(combo))
            ranks[i, : len(counted)] = counted
            times[i, : len(counted)] = [combo.count(r) for r in counted]
            orders[i] = math.factorial(hand.cards) / math.prod(
                math.factorial(combo.count(r)) for r in counted
            )
        held.append((np.array(combos, dtype=np.int64), ranks, times, orders))
    (first, *one), (second, *two) = held
    i = np.repeat(np.arange(len(first)), len(second))
    j = np.tile(np.arange(len(second)), len(first))
    # Each pair's ranks in the game's dealing order, as Game.columns reads a round.
    dealt = np.empty((len(i), game.cards), dtype=np.int64)
    hands = {0: first[i], 1: second[j]}
    for position, (h, number) in enumerate(game.positions):
        dealt[:, position] = hands[h][:, number - 1]
    winner, _ = game.columns(dealt, None, frozenset())["winner"]
    return (*one, *two, winner.reshape(len(first), len(second)).astype(np.int64))


@njit(cache=True)
def _winner_chances_jit(counts, ranks0, times0, orders0, ranks1, times1, orders1, winner, out):
    """Per shoe ``counts[k]`` (rank counts), the ways of each winner over every pair of
    hands (``out[k, w]``, floats; divided by their sum by the caller)."""
    for k in range(counts.shape[0]):
        left = counts[k].copy()
        for i in range(ranks0.shape[0]):
            ways0 = orders0[i]
            for c in range(ranks0.shape[1]):
                r = ranks0[i, c]
                if r < 0:
                    break
                for _ in range(times0[i, c]):
                    ways0 *= left[r]
                    left[r] -= 1
            if ways0 > 0:
                for j in range(ranks1.shape[0]):
                    ways = ways0 * orders1[j]
                    for c in range(ranks1.shape[1]):
                        r = ranks1[j, c]
                        if r < 0:
                            break
                        n = left[r]
                        for step in range(times1[j, c]):
                            ways *= max(n - step, 0)
                    out[k, winner[i, j]] += ways
            for c in range(ranks0.shape[1]):  # (the first hand's cards back)
                r = ranks0[i, c]
                if r < 0:
                    break
                left[r] += times0[i, c]


def winner_chances(game: Game, rank_counts: np.ndarray) -> np.ndarray:
    """The chance of each winner of a round of ``game`` dealt from each shoe.

    Parameters
    ----------
    game : Game
        A game of the family whose hands take no card after the deal.
    rank_counts : int array, shape (shoes, 13)
        Each shoe's cards of each rank (Ace to King), dealt without replacement; every
        shoe holds at least a round's cards.

    Returns
    -------
    float64 array, shape (shoes, 3)
        Per shoe, the chance that the first hand wins, that the second does, and of a tie
        (each within a few units in the last place of the exact fraction).

    Raises
    ------
    AnalyzerError
        A game whose hands take cards after the deal, or a shoe of fewer cards than a
        round deals.

    Examples
    --------
    >>> from analyzer.game.games import named_game
    >>> one_deck = np.full((1, 13), 4)
    >>> chances = winner_chances(named_game("dragon-tiger"), one_deck)
    >>> [round(float(p) * 51 * 52) for p in chances[0]]  # ordered pairs of the 2,652
    [1248, 1248, 156]
    """
    if game.by_values:
        raise AnalyzerError(
            f"{game.name}: its hands take cards after the deal: no chances of a round dealt once"
        )
    counts = np.ascontiguousarray(rank_counts, dtype=np.int64).reshape(-1, N_RANKS)
    if len(counts) and (counts.min() < 0 or counts.sum(axis=1).min() < game.cards):
        raise AnalyzerError(f"{game.name}: a shoe holds fewer cards than a round deals")
    ranks0, times0, orders0, ranks1, times1, orders1, winner = _hand_pairs(game)
    out = np.zeros((len(counts), 3))
    _winner_chances_jit(
        counts, ranks0, times0, orders0, ranks1, times1, orders1, winner, out
    )  # fmt: skip
    return out / out.sum(axis=1, keepdims=True)
