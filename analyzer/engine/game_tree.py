"""The game tree of a coup as a two-person game: every decision of each side, counted.

To solve the game between Player and Banker (:mod:`analyzer.analysis.solve`) each side's
choices are left open: the Player's in every two-card total, the Banker's in every cell
(Banker two-card total, and the Player's third-card value or "the Player stood"). A coup
that is not a natural passes exactly one Player cell and exactly one Banker cell, so the
Banker's expected result is a sum over cells of what happens in each, and one walk of the
shoe gives everything: for every Player total and action, and every Banker cell and
action, how many coups the Banker wins, ties and loses.

The walk deals point values as the enumerator does (:mod:`analyzer.engine.enumerator`),
every coup weighted as an ordered six-card sequence: the cards it uses times the ways to
deal the rest of the six. From a finite shoe the cards are dealt without replacement, so
every count shares the denominator N(N-1)...(N-5). With replacement (the infinite deck)
the weights never change: each point value has weight 1 and the ten-values 4, out of 13,
so every count shares the denominator 13^6.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import perm

import numpy as np
from numba import njit

from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_VALUES
from analyzer.game.rules import NATURAL_SCORES, PLAYER_STOOD
from analyzer.game.shoe import MAX_CARDS, ROUND_CARDS, Shoe

#: Weights of the point values 0-9 in the infinite deck: 10, J, Q, K count 0.
INFINITE_DECK = np.array([4, 1, 1, 1, 1, 1, 1, 1, 1, 1], dtype=np.int64)
#: The actions, as indices of the table: stand or draw.
STAND, DRAW = 0, 1
#: The outcomes, as indices of the table, from the Banker's side.
BANKER_WINS, TIE, BANKER_LOSES = 0, 1, 2
#: The table's columns: the Player's third-card value 0-9, or PLAYER_STOOD.
N_COLUMNS = PLAYER_STOOD + 1
_INT64_MAX = 2**63 - 1


@njit(cache=True)
def _outcome(player, banker):
    """BANKER_WINS, TIE or BANKER_LOSES for final scores ``player`` and ``banker``."""
    if banker > player:
        return 0
    if banker == player:
        return 1
    return 2


@njit(cache=True)
def _coup_jit(left, step, player2, banker2, weight, rest4, rest5, cells):
    """Add every way one coup that is not a natural can go on to ``cells``.

    Parameters
    ----------
    left : int64[10]
        Weights of the point values left after the first four cards (updated and
        restored).
    step : int
        1 when a dealt card leaves the shoe, 0 with replacement.
    player2, banker2 : int
        The two-card totals.
    weight : int
        Ordered ways to deal the first four cards.
    rest4, rest5 : int
        Ways to deal the rest of the six cards after a coup of four and of five cards.
    cells : int64[10, 2, 10, 11, 2, 3]
        Updated in place: see ``_game_table_jit``.
    """
    # The Player stands: the Banker's cell is (banker2, PLAYER_STOOD).
    stood = cells[player2, 0, banker2, PLAYER_STOOD]
    stood[0, _outcome(player2, banker2)] += weight * rest4
    for y in range(N_VALUES):
        wy = weight * left[y]
        if wy != 0:
            stood[1, _outcome(player2, (banker2 + y) % 10)] += wy * rest5
    # The Player draws x: the Banker's cell is (banker2, x).
    for x in range(N_VALUES):
        wx = weight * left[x]
        if wx == 0:
            continue
        player3 = (player2 + x) % 10
        drew = cells[player2, 1, banker2, x]
        drew[0, _outcome(player3, banker2)] += wx * rest5
        left[x] -= step
        for y in range(N_VALUES):
            wy = wx * left[y]
            if wy != 0:
                drew[1, _outcome(player3, (banker2 + y) % 10)] += wy
        left[x] += step


@njit(cache=True)
def _game_table_jit(weights, step, natural, cells, first_two):
    """Walk every coup of a shoe with each side's every action; count the outcomes.

    Parameters
    ----------
    weights : int64[10]
        Weights of the point values 0-9: the cards of each value in a finite shoe, or
        their weights with replacement (:data:`INFINITE_DECK`).
    step : int
        1 to deal without replacement (each card dealt leaves the shoe), 0 with.
    natural : bool[10]
        ``natural[t]``: a two-card total ``t`` is a natural and ends the coup.
    cells : int64[10, 2, 10, 11, 2, 3]
        Zeroed by the caller; on return ``cells[p, d, b, x, a, o]`` counts the coups
        (ordered six-card sequences) that are not naturals with Player two-card total
        ``p`` and Banker ``b`` where the Player takes action ``d`` (STAND, DRAW), the Banker
        is then in column ``x`` (the Player's third-card value, or PLAYER_STOOD when
        ``d`` is STAND) and takes action ``a``, with outcome ``o`` (BANKER_WINS, TIE,
        BANKER_LOSES). For each ``p, b`` not natural, each ``d`` and each Banker action
        ``a`` the counts over ``x`` and ``o`` sum to ``first_two[p, b]``.
    first_two : int64[10, 10]
        Zeroed by the caller; on return ``first_two[p, b]`` counts every coup (naturals
        too) with two-card totals ``p`` and ``b``; the whole array sums to the
        denominator (N(N-1)...(N-5), or the total weight to the sixth power).
    """
    left = weights.copy()
    total = left.sum()
    rest5 = total - 5 * step
    rest4 = (total - 4 * step) * rest5
    for a in range(N_VALUES):
        wa = left[a]
        if wa == 0:
            continue
        left[a] -= step
        for b in range(N_VALUES):
            wb = wa * left[b]
            if wb == 0:
                continue
            left[b] -= step
            for c in range(N_VALUES):
                wc = wb * left[c]
                if wc == 0:
                    continue
                left[c] -= step
                player2 = (a + c) % 10
                for d in range(N_VALUES):
                    wd = wc * left[d]
                    if wd == 0:
                        continue
                    banker2 = (b + d) % 10
                    first_two[player2, banker2] += wd * rest4
                    if natural[player2] or natural[banker2]:
                        continue
                    left[d] -= step
                    _coup_jit(left, step, player2, banker2, wd, rest4, rest5, cells)
                    left[d] += step
                left[c] += step
            left[b] += step
        left[a] += step


@dataclass(frozen=True, eq=False)
class GameTable:
    """Every coup of a shoe, by each side's cell and action (see ``_game_table_jit``).

    ``cells[p, d, b, x, a, o]`` and ``first_two[p, b]`` are counts of ordered six-card
    sequences, out of ``denominator``; ``naturals`` are the totals that end the coup;
    ``with_replacement`` says whether cards were dealt with replacement.
    """

    cells: np.ndarray
    first_two: np.ndarray
    denominator: int
    naturals: tuple[int, ...]
    with_replacement: bool

    def signed(self) -> np.ndarray:
        """``cells`` as the Banker's net result: wins less losses, int64[10, 2, 10, 11, 2]."""
        return self.cells[..., BANKER_WINS] - self.cells[..., BANKER_LOSES]

    def natural_net(self) -> int:
        """The Banker's wins less losses over the naturals (exact, a Python int)."""
        net = 0
        for p in range(N_VALUES):
            for b in range(N_VALUES):
                if p in self.naturals or b in self.naturals:
                    sign = (b > p) - (b < p)
                    net += sign * int(self.first_two[p, b])
        return net


def _naturals(naturals: Sequence[int]) -> tuple[int, ...]:
    if isinstance(naturals, (str, bytes)) or not isinstance(naturals, Sequence):
        raise AnalyzerError(f"naturals must be a list of totals 0-9, got {naturals!r:.60}")
    out = []
    for total in naturals:
        if isinstance(total, bool) or not isinstance(total, (int, np.integer)):
            raise AnalyzerError(f"naturals must be totals 0-9, got {total!r:.40}")
        if not 0 <= total <= 9:
            raise AnalyzerError(f"naturals must be totals 0-9, got {total}")
        out.append(int(total))
    return tuple(sorted(set(out)))


def game_table(
    weights: Sequence[int] | np.ndarray,
    *,
    with_replacement: bool = False,
    naturals: Sequence[int] = NATURAL_SCORES,
) -> GameTable:
    """Count every coup dealt from point-value ``weights`` (int64[10]) by each side's
    cell and action; ``with_replacement`` for a shoe that never changes (the infinite
    deck: :data:`INFINITE_DECK`). Every count is exact: a shoe whose counts could
    overflow 64-bit integers is refused."""
    values = np.asarray(weights)
    if values.shape != (N_VALUES,) or not (
        np.issubdtype(values.dtype, np.integer) or values.dtype == object
    ):
        raise AnalyzerError(
            f"weights must be {N_VALUES} whole numbers, one per point value 0-9, got "
            f"{np.asarray(weights).tolist()!r:.80}"
        )
    counts = [int(v) for v in values.tolist()]
    if any(v < 0 for v in counts):
        raise AnalyzerError(f"weights must not be negative, got {counts}")
    total = sum(counts)
    if with_replacement:
        if total == 0:
            raise AnalyzerError("weights are all zero: no card can be dealt")
        denominator = total**ROUND_CARDS
    else:
        if total < ROUND_CARDS:
            raise AnalyzerError(
                f"impossible shoe: {total} cards left, a round may need {ROUND_CARDS}"
            )
        if total > MAX_CARDS:
            raise AnalyzerError(
                f"shoe of {total:,} cards is too large to count exactly in 64-bit integers "
                f"(at most {MAX_CARDS:,} cards)"
            )
        denominator = perm(total, ROUND_CARDS)
    if denominator > _INT64_MAX:
        raise AnalyzerError(
            f"weights totalling {total:,} are too large: {total:,}^{ROUND_CARDS} does not fit "
            "in 64-bit integers"
        )
    natural_totals = _naturals(naturals)
    natural = np.zeros(N_VALUES, dtype=np.bool_)
    natural[list(natural_totals)] = True
    cells = np.zeros((N_VALUES, 2, N_VALUES, N_COLUMNS, 2, 3), dtype=np.int64)
    first_two = np.zeros((N_VALUES, N_VALUES), dtype=np.int64)
    step = 0 if with_replacement else 1
    _game_table_jit(np.array(counts, dtype=np.int64), step, natural, cells, first_two)
    cells.setflags(write=False)
    first_two.setflags(write=False)
    return GameTable(cells, first_two, denominator, natural_totals, bool(with_replacement))


def shoe_game_table(shoe: Shoe | None, naturals: Sequence[int] = NATURAL_SCORES) -> GameTable:
    """:func:`game_table` of a shoe, dealt as it deals (with replacement for the
    infinite deck, :meth:`Shoe.infinite`); ``None``: the infinite deck."""
    if shoe is None:
        return game_table(INFINITE_DECK, with_replacement=True, naturals=naturals)
    if not isinstance(shoe, Shoe):
        raise AnalyzerError(f"shoe must be a Shoe or None (the infinite deck), got {shoe!r:.60}")
    return game_table(shoe.value_counts, with_replacement=shoe.replacement, naturals=naturals)
