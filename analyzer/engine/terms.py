"""The draw walk compiled once into falling-factorial terms.

Every round is an ordered sequence of 4 to 6 point values. Its weight as an ordered
six-card sequence depends only on how many cards of each value it uses (``k``) and how
many cards it uses in all (``u``)::

    weight(n) = prod_v ff(n_v, k_v) * ff(N - u, 6 - u)       (ff: falling factorial)

so the count of any outcome cell is ``sum_t c[t, cell] * weight_t(n)`` over the distinct
``(k, u)`` terms ``t`` (6,958 of them) with integer coefficients ``c``: the number of
value sequences of that shape that end in that cell. The symbolic expressions
(:mod:`analyzer.engine.symbolic`) and the batch engine (:mod:`analyzer.engine.batch`) evaluate these
terms instead of walking the shoe again.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from analyzer.engine.draw import banker_draws, player_draws
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_VALUES
from analyzer.game.fields import (
    FIELD,
    NO_THIRD,
    derived_columns,
    pair_detail_needed,
    third_card_field,
)
from analyzer.game.rules import PLAYER_STOOD, STANDARD_TABLEAU, Tableau
from analyzer.paytables.model import Bet
from analyzer.paytables.settle import Settlement, settling_rule

_MAX_LEAVES = N_VALUES**6


@njit(cache=True)
def _leaves_jit(third_card, sequences, cells):
    """List every sequence of point values a round can deal, and where it ends.

    Parameters
    ----------
    third_card : bool[10, 10, 12]
        The third-card rule, a :attr:`analyzer.game.rules.Tableau.third_card`.
    sequences : int8[max_leaves, 6]
        Filled with one round per row: the values dealt P1, B1, P2, B2, then third cards,
        padded with -1.
    cells : int8[max_leaves, 4]
        Filled with each round's outcome cell: player score, banker score, player third
        (value or NO_THIRD), banker third (value or NO_THIRD).

    Returns
    -------
    int
        The number of rows filled.
    """
    n = 0
    for a in range(N_VALUES):
        for b in range(N_VALUES):
            for c in range(N_VALUES):
                for d in range(N_VALUES):
                    player2 = (a + c) % 10
                    banker2 = (b + d) % 10
                    if player_draws(third_card, player2, banker2):
                        for x in range(N_VALUES):
                            if banker_draws(third_card, player2, banker2, x):
                                for y in range(N_VALUES):
                                    sequences[n, 0:6] = (a, b, c, d, x, y)
                                    cells[n, 0:4] = ((player2 + x) % 10, (banker2 + y) % 10, x, y)
                                    n += 1
                            else:
                                sequences[n, 0:6] = (a, b, c, d, x, -1)
                                cells[n, 0:4] = ((player2 + x) % 10, banker2, x, NO_THIRD)
                                n += 1
                    elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                        for y in range(N_VALUES):
                            sequences[n, 0:6] = (a, b, c, d, y, -1)
                            cells[n, 0:4] = (player2, (banker2 + y) % 10, NO_THIRD, y)
                            n += 1
                    else:  # a natural, or both hands stand
                        sequences[n, 0:6] = (a, b, c, d, -1, -1)
                        cells[n, 0:4] = (player2, banker2, NO_THIRD, NO_THIRD)
                        n += 1
    return n


def walk_leaves(tableau: Tableau = STANDARD_TABLEAU) -> tuple[np.ndarray, np.ndarray]:
    """Every sequence of point values a round can deal under ``tableau`` (int64 rows P1,
    B1, P2, B2, then third cards, padded with -1) and its outcome cell (player score,
    banker score, player third, banker third: a value or NO_THIRD)."""
    sequences = np.empty((_MAX_LEAVES, 6), dtype=np.int8)
    cells = np.empty((_MAX_LEAVES, 4), dtype=np.int8)
    n = _leaves_jit(tableau.third_card, sequences, cells)
    return sequences[:n].astype(np.int64), cells[:n].astype(np.int64)


@dataclass(frozen=True, eq=False)
class WalkTerms:
    """``k[t]``: cards of each value term ``t`` uses; ``used[t]`` their number;
    ``cells``: rows (player_score, banker_score, player_third, banker_third) of every
    reachable outcome; ``coef[t, cell]``: value sequences of shape ``t`` ending in ``cell``
    (a sparse triple ``term_index, cell_index, count``)."""

    k: np.ndarray
    used: np.ndarray
    cells: np.ndarray
    term_index: np.ndarray
    cell_index: np.ndarray
    count: np.ndarray


class WalkLeaves(NamedTuple):
    """Every leaf of a tableau's walk (:func:`walk_leaves`' ``sequences``) with its term
    (a row of ``terms``) and its outcome cell (a row of ``cells``): the order
    :func:`walk_terms` gives its terms and cells."""

    sequences: np.ndarray
    terms: np.ndarray
    term_of_leaf: np.ndarray
    cells: np.ndarray
    cell_of_leaf: np.ndarray


def leaf_terms(tableau: Tableau = STANDARD_TABLEAU) -> WalkLeaves:
    """The walk's leaves, each with its term and cell (:class:`WalkLeaves`)."""
    sequences, cells = walk_leaves(tableau)
    n = len(sequences)
    k = np.zeros((n, N_VALUES), dtype=np.int64)
    for position in range(6):
        dealt = sequences[:, position] >= 0
        np.add.at(k, (np.nonzero(dealt)[0], sequences[dealt, position]), 1)
    # Unique rows through integer codes: np.unique on 1-D keys is far faster than axis=0.
    _, term_first, term_of_leaf = np.unique(
        k @ (7 ** np.arange(N_VALUES, dtype=np.int64)), return_index=True, return_inverse=True
    )
    _, cell_first, cell_of_leaf = np.unique(
        cells @ np.array([1, 16, 256, 4096], dtype=np.int64),
        return_index=True,
        return_inverse=True,
    )
    return WalkLeaves(
        sequences, k[term_first], term_of_leaf.ravel(), cells[cell_first], cell_of_leaf.ravel()
    )


@cache
def walk_terms(tableau: Tableau = STANDARD_TABLEAU) -> WalkTerms:
    """Compile the walk of one tableau (a few hundred milliseconds, once per process)."""
    _, terms, term_of_leaf, cell_rows, cell_of_leaf = leaf_terms(tableau)
    n_cells = len(cell_rows)
    pair_codes, count = np.unique(term_of_leaf * n_cells + cell_of_leaf, return_counts=True)
    pairs = np.stack(np.divmod(pair_codes, n_cells), axis=1)
    for array in (terms, cell_rows, pairs, count):
        array.setflags(write=False)
    return WalkTerms(terms, terms.sum(axis=1), cell_rows, pairs[:, 0], pairs[:, 1], count)


def is_value_level(bet: Bet) -> bool:
    """Does the bet depend on point values only (no pair fields, no single cards)?"""
    return not bet.card_level and pair_detail_needed(bet.fields) == "none"


def beyond_values(bet: Bet) -> str:
    """What a bet looks at beyond point values, for a message: ``pairs (player_pair)``,
    ``the cards themselves (player_card1_colour, ...)``."""
    pairs = sorted(name for name in bet.fields if FIELD[name].detail != "none")
    cards = sorted(name for name in bet.fields if FIELD[name].card_level)
    parts = [
        f"{what} ({', '.join(names[:4])}{', ...' if len(names) > 4 else ''})"
        for what, names in (("pairs", pairs), ("the cards themselves", cards))
        if names
    ]
    return " and ".join(parts)


@cache
def cell_columns(tableau: Tableau = STANDARD_TABLEAU) -> dict[str, np.ndarray]:
    """The value-level fields of every reachable (player_score, banker_score,
    player_third, banker_third) cell of the walk."""
    cells = walk_terms(tableau).cells
    third = third_card_field(cells[:, 2:])
    return derived_columns(cells[:, 0], cells[:, 1], third[:, 0], third[:, 1], tableau.naturals)


def cell_nets(bet: Bet, tableau: Tableau = STANDARD_TABLEAU) -> list[Fraction]:
    """Net result per unit of ``bet`` in each cell of :func:`cell_columns`."""
    if not is_value_level(bet):
        raise AnalyzerError(
            f"bet {bet.id!r} looks at {beyond_values(bet)}, not only at point values: "
            "it is not a value-level bet"
        )
    cells = cell_columns(tableau)
    nets = Settlement(bet).nets()
    n_cells = len(cells["player_score"])
    return [nets[i] for i in settling_rule(bet, cells, n_cells).tolist()]


def term_coefficients(bet: Bet, tableau: Tableau = STANDARD_TABLEAU) -> list[Fraction]:
    """Exact ``C_t``: the bet's net payout summed over the value sequences of shape ``t``.

    A bet has few distinct payouts, so each contributes an exact integer count of
    sequences per term (a ``bincount``) times that payout.
    """
    terms = walk_terms(tableau)
    nets = cell_nets(bet, tableau)
    distinct = sorted(set(nets))
    code = np.array([distinct.index(net) for net in nets])[terms.cell_index]
    coefficients = [Fraction(0)] * len(terms.k)
    for j, net in enumerate(distinct):
        chosen = code == j
        # Counts are far below 2**53: the float bincount is exact.
        per_term = np.bincount(
            terms.term_index[chosen], weights=terms.count[chosen], minlength=len(terms.k)
        ).astype(np.int64)
        for t in np.nonzero(per_term)[0].tolist():
            coefficients[t] += int(per_term[t]) * net
    return coefficients
