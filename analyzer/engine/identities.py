"""The identity walk: outcome counts split by the identity pattern of a bet's counted cards.

A multiplied bet pays by which card identities (rank and suit) its counted cards hold
(see :mod:`analyzer.paytables.multipliers`), so its exact figures need, for every outcome
cell, how the round's six-card sequences split by the *identity pattern* of those cards
(:mod:`analyzer.game.identities`). Cards of different point values never share an
identity, so given the point values a round deals, the ways to deal it factor by value:
for the ``k`` cards of value ``v``, of which ``c`` are counted, a table
``groups[v, k, c, pattern]`` gives the ordered ways to deal them from the shoe with that
pattern among the counted ones. Summed over patterns it is the falling factorial
``n_v (n_v - 1) ... (n_v - k + 1)`` the value walk multiplies, so the counts sum to the
same denominator. ``groups`` is worked out in Python from the shoe's count of each card
identity: the ways to give ``b`` labelled blocks of sizes ``s_1 .. s_b`` distinct
identities are the coefficient of a product over identities (one DP over the 4 or 16
identities of a value), and every set partition of the ``k`` cards is one such
assignment.

The walk does not combine those tables round by round. The counted cards take their
identities first, and each uncounted card of value ``v`` is then any of the ``n_v`` cards
left of that value, whatever the pattern: so a round's ways by pattern are the ways of the
*multiset of counted values* by pattern (at most 8,008 multisets of up to six values,
worked out once per shoe: :func:`multiset_patterns`) times a product over the uncounted
cards. The walk carries each hand's multiset id and the round's as it deals
(:func:`multisets`' ``grow``), and writes only the cells its tableau can end in
(:func:`tableau_cells`), by pattern among those of as many cards as the kind counts there.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
from numba import njit

from analyzer.engine.draw import banker_draws, player_draws
from analyzer.engine.mixture import mixed_counts
from analyzer.errors import AnalyzerError
from analyzer.game.cards import CARD_VALUES, N_VALUES
from analyzer.game.fields import NO_THIRD
from analyzer.game.identities import (
    IDENTITY_PATTERNS,
    N_PATTERNS,
    PATTERN_UNION,
    WALKED_KINDS,
    group_patterns,
)
from analyzer.game.rules import PLAYER_STOOD, Mixture, Tableau
from analyzer.game.shoe import ROUND_CARDS, Shoe

#: Where the patterns of each number of cards start in IDENTITY_PATTERNS (by size, so
#: those of ``n`` cards are ``SIZE_START[n]:SIZE_START[n + 1]``).
SIZE_START = np.searchsorted(
    np.array([sum(p) for p in IDENTITY_PATTERNS]), np.arange(ROUND_CARDS + 2)
).astype(np.int64)
#: What one identity walk costs (every kind at once, 8 decks: about 5 ms), in rounds of
#: the card walk taking as long, for a command to weigh walking one per composition.
WALK_COST = 3 * 10**5
#: The most patterns of one number of cards (of six): the kernel's last axis.
_MOST_PATTERNS = int(np.diff(SIZE_START).max())
#: The most patterns of one hand's cards (of three).
_HAND_PATTERNS = int(np.diff(SIZE_START)[:4].max())
#: The cells of the kernel's output, flat: (player score, banker score, third cards).
CELLS = (N_VALUES, N_VALUES, NO_THIRD + 1, NO_THIRD + 1)
#: Kind codes of the kernel (WALKED_KINDS order).
_PLAYER, _BANKER, _BOTH, _WINNER = range(4)
#: Multisets of point values of up to six cards (a hand's, or a whole round's), by size
#: and in combinatorial order within a size: id 0 is the empty one.
N_MULTISETS = math.comb(N_VALUES + ROUND_CARDS, ROUND_CARDS)
#: Where the multisets of ``s`` cards start among the ids.
_MULTISET_START = np.cumsum(
    [0] + [math.comb(N_VALUES - 1 + s, s) for s in range(ROUND_CARDS + 1)]
).astype(np.int64)
_BINOMIAL = np.array(
    [[math.comb(n, k) for k in range(ROUND_CARDS + 1)] for n in range(N_VALUES + ROUND_CARDS)],
    dtype=np.int64,
)


@njit(cache=True)
def _multiset_id_jit(values, size, start, binomial):
    """The id of the multiset of nondecreasing ``values[:size]``: as ``v_i + i`` they are
    a strictly increasing combination, whose combinatorial rank orders them."""
    rank = start[size]
    for i in range(size):
        rank += binomial[values[i] + i, i + 1]
    return rank


@njit(cache=True)
def _multisets_jit(start, binomial, grow, top, top_count, rest):
    """Per multiset id: ``grow[id, v]``, the id with one card of value ``v`` more (-1 at
    six cards); its largest value ``top``, how many of its cards have it, and the id of
    the ``rest`` without them."""
    values = np.zeros(ROUND_CARDS, dtype=np.int64)
    grown = np.zeros(ROUND_CARDS, dtype=np.int64)
    for size in range(ROUND_CARDS + 1):
        values[:] = 0
        while True:
            here = _multiset_id_jit(values, size, start, binomial)
            if size:
                largest = values[size - 1]
                same = 0
                for i in range(size):
                    if values[i] == largest:
                        same += 1
                top[here] = largest
                top_count[here] = same
                rest[here] = _multiset_id_jit(values, size - same, start, binomial)
            for v in range(N_VALUES):
                if size == ROUND_CARDS:
                    grow[here, v] = -1
                    continue
                j = 0
                for i in range(size):  # v inserted in order
                    if values[i] <= v:
                        grown[j] = values[i]
                        j += 1
                grown[j] = v
                j += 1
                for i in range(size):
                    if values[i] > v:
                        grown[j] = values[i]
                        j += 1
                grow[here, v] = _multiset_id_jit(grown, size + 1, start, binomial)
            i = size - 1  # the next nondecreasing sequence of this size
            while i >= 0 and values[i] == N_VALUES - 1:
                i -= 1
            if i < 0:
                break
            values[i] += 1
            for j in range(i + 1, size):
                values[j] = values[i]


@cache
def multisets() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``grow``, ``top``, ``top_count`` and ``rest`` of every multiset of up to six point
    values (see :func:`_multisets_jit`), the same for every shoe (read-only)."""
    grow = np.zeros((N_MULTISETS, N_VALUES), dtype=np.int64)
    top, top_count, rest = (np.zeros(N_MULTISETS, dtype=np.int64) for _ in range(3))
    _multisets_jit(_MULTISET_START, _BINOMIAL, grow, top, top_count, rest)
    for table in (grow, top, top_count, rest):
        table.setflags(write=False)
    return grow, top, top_count, rest


@njit(cache=True)
def _multiset_patterns_jit(groups, union, top, top_count, rest, start, dense):
    """``dense[id, p]``: the ordered ways to deal the cards of multiset ``id`` (in any one
    order of their values) with identity pattern ``p``: the rest's ways combined with
    those of the largest value's cards, which share no identity with them."""
    dense[0, 0] = 1
    size = 0
    for here in range(1, dense.shape[0]):
        while here >= start[size + 1]:
            size += 1
        base = rest[here]
        v = top[here]
        k = top_count[here]
        below = size - k
        for p in range(SIZE_START[below], SIZE_START[below + 1]):
            w = dense[base, p]
            if w == 0:
                continue
            for q in range(SIZE_START[k], SIZE_START[k + 1]):
                g = groups[v, k, k, q]
                if g != 0:
                    dense[here, union[p, q]] += w * g


@dataclass(frozen=True, eq=False)
class MultisetPatterns:
    """Every multiset's ways by identity pattern: ``dense[id, i]`` for the ``i``-th of the
    ``width[id]`` patterns of as many cards as multiset ``id`` holds; ``total[id]`` sums
    them (the falling factorials of the shoe's values, 0 where it cannot deal them)."""

    dense: np.ndarray
    width: np.ndarray
    total: np.ndarray


def multiset_patterns(shoe: Shoe) -> MultisetPatterns:
    """:class:`MultisetPatterns` of the shoe (of known suits), shared by shoes of the
    same counts."""
    if not shoe.suits_known:
        value_groups(shoe)  # says why
    return _patterns(tuple(int(n) for n in shoe.suit_counts.reshape(-1)), shoe.take)


@lru_cache(maxsize=64)
def _patterns(identity_counts: tuple[int, ...], take: int) -> MultisetPatterns:
    _, top, top_count, rest = multisets()
    dense = np.zeros((N_MULTISETS, N_PATTERNS), dtype=np.int64)
    groups = _groups(identity_counts, take)
    _multiset_patterns_jit(groups, PATTERN_UNION, top, top_count, rest, _MULTISET_START, dense)
    sizes = np.searchsorted(_MULTISET_START, np.arange(N_MULTISETS), side="right") - 1
    within = np.zeros((N_MULTISETS, _MOST_PATTERNS), dtype=np.int64)
    for size in range(ROUND_CARDS + 1):  # each multiset's patterns: those of its size
        ids = slice(_MULTISET_START[size], _MULTISET_START[size + 1])
        first, last = SIZE_START[size], SIZE_START[size + 1]
        within[ids, : last - first] = dense[ids, first:last]
    width = np.diff(SIZE_START)[sizes].astype(np.int64)
    tables = (within, width, dense.sum(axis=1))
    for table in tables:
        table.setflags(write=False)
    return MultisetPatterns(*tables)


@njit(cache=True, inline="always")
def _flat_cell(player_score, banker_score, player_third, banker_third):
    """A cell's index in the flat :data:`CELLS`."""
    across = NO_THIRD + 1
    return ((player_score * N_VALUES + banker_score) * across + player_third) * across + (
        banker_third
    )


@njit(cache=True, inline="always")
def _leaf_jit(out, kinds, cell, ids, patterns, rows, weight, rest_player, rest_banker):
    """Add a round's ways to ``out[m, cell..., pattern]`` for each kind ``kinds[m]``, split
    by the identity pattern of the cards that kind counts.

    ``ids`` are the multiset ids of the Player's cards, the Banker's and all of them;
    ``weight`` multiplies (the swapped deals and the cards after the round). A kind
    counting one hand's cards multiplies by the ways to deal the other's once they have
    taken their identities (each is then any card of its value left, whatever the
    pattern): ``rest_player`` where the Player's count, ``rest_banker`` where the
    Banker's. ``patterns`` is :class:`MultisetPatterns`' arrays; ``rows`` the row of
    ``out`` of each flat cell.
    """
    dense, _, total = patterns
    everything = ids[2]
    at = rows[
        ((cell[0] * N_VALUES + cell[1]) * (NO_THIRD + 1) + cell[2]) * (NO_THIRD + 1) + cell[3]
    ]
    if total[everything] == 0:  # the shoe cannot deal these cards
        return
    for m in range(kinds.shape[0]):
        kind = kinds[m]
        side = kind  # _PLAYER 0, _BANKER 1, _BOTH 2; 3: no card counts
        if kind == _WINNER:
            side = _PLAYER if cell[0] > cell[1] else _BANKER if cell[1] > cell[0] else _WINNER
        if side == _WINNER:  # a tie: every card is dealt uncounted
            out[m, at, 0] += weight * total[everything]
            continue
        counted = everything
        rest_ways = weight
        if side == _PLAYER:
            counted = ids[0]
            rest_ways *= rest_player
        elif side == _BANKER:
            counted = ids[1]
            rest_ways *= rest_banker
        # Every slot of the size's patterns and past them (zeros there): a fixed trip
        # count the compiler unrolls, measured faster than stopping at the width. One
        # hand's cards (three at most) have at most three patterns.
        if side == _BOTH:
            for e in range(_MOST_PATTERNS):
                out[m, at, e] += dense[counted, e] * rest_ways
        else:
            for e in range(_HAND_PATTERNS):
                out[m, at, e] += dense[counted, e] * rest_ways


@njit(cache=True)
def _identity_walk_jit(value_counts, grow, patterns, third_card, kinds, take, rows, out):
    """Walk every round of point values; add its ways to ``out`` by counted pattern.

    Parameters
    ----------
    value_counts : int64[10]
        Cards of each point value in the shoe (N in all).
    grow : int64[n_multisets, 10]
        The multiset ids one card more makes (:func:`multisets`).
    patterns : tuple of int64 arrays
        :class:`MultisetPatterns` of the shoe: each multiset's ways by identity pattern.
    third_card : bool[10, 10, 12]
        The third-card rule of one pure tableau.
    kinds : int64[m]
        Whose cards count, per block of ``out``: 0 Player, 1 Banker, 2 both, 3 the winner
        (none on a tie). One walk serves them all.
    take : int
        1, or 0 when cards are dealt with replacement.
    rows : int64[10 * 10 * 11 * 11]
        The row of ``out`` of each flat cell ``((player_score * 10 + banker_score) * 11
        + player_third) * 11 + banker_third`` the tableau can deal (:func:`tableau_cells`).
    out : int64[m, rows, 11]
        Zeroed by the caller; on return ``out[m, row, pattern]``, the pattern's
        index among those of the cards the kind counts there (as many as the cell
        tells: :func:`counted_cards`), holds ordered six-card sequences, each
        block summing to N (N-1) ... (N-5).
    """
    n = value_counts.sum()
    stand_tail = (n - 4 * take) * (n - 5 * take)
    five_tail = n - 5 * take
    total = patterns[2]
    held = np.zeros((2, N_VALUES), dtype=np.int64)
    cell = np.zeros(4, dtype=np.int64)
    ids = np.zeros(3, dtype=np.int64)
    for a in range(N_VALUES):
        for c in range(a, N_VALUES):
            player2 = (a + c) % 10
            player_id = grow[grow[0, a], c]
            held[0, a] += 1
            held[0, c] += 1
            for b in range(N_VALUES):
                for d in range(b, N_VALUES):
                    four_id = grow[grow[player_id, b], d]
                    if total[four_id] == 0:  # the shoe cannot deal the first four
                        continue
                    mult = (1 if a == c else 2) * (1 if b == d else 2)
                    banker2 = (b + d) % 10
                    banker_id = grow[grow[0, b], d]
                    held[1, b] += 1
                    held[1, d] += 1
                    # The rests (see _leaf_jit): the Player's first two cards once the
                    # Banker's have taken their identities, and the other way round.
                    player_rest = (value_counts[a] - take * held[1, a]) * (
                        value_counts[c] - take * (held[1, c] + (1 if c == a else 0))
                    )
                    if player_draws(third_card, player2, banker2):
                        for x in range(N_VALUES):
                            held[0, x] += 1
                            ids[0] = grow[player_id, x]
                            five_id = grow[four_id, x]
                            cell[0] = (player2 + x) % 10
                            cell[2] = x
                            rest_player = (value_counts[b] - take * held[0, b]) * (
                                value_counts[d] - take * (held[0, d] + (1 if d == b else 0))
                            )
                            third_left = value_counts[x] - take * (
                                held[1, x] + (1 if x == a else 0) + (1 if x == c else 0)
                            )
                            rest_banker = player_rest * third_left
                            if banker_draws(third_card, player2, banker2, x):
                                for y in range(N_VALUES):
                                    # Uncounted, y is any card of its value left of the
                                    # five; counted, it takes an identity first, so only
                                    # the Player's cards of its value have fewer left.
                                    y_left = value_counts[y] - take * (held[0, y] + held[1, y])
                                    held[1, y] += 1
                                    y_rest = rest_banker
                                    if held[0, y] != 0:
                                        y_rest = (
                                            (value_counts[a] - take * held[1, a])
                                            * (
                                                value_counts[c]
                                                - take * (held[1, c] + (1 if c == a else 0))
                                            )
                                            * (
                                                value_counts[x]
                                                - take
                                                * (
                                                    held[1, x]
                                                    + (1 if x == a else 0)
                                                    + (1 if x == c else 0)
                                                )
                                            )
                                        )
                                    ids[1] = grow[banker_id, y]
                                    ids[2] = grow[five_id, y]
                                    cell[1] = (banker2 + y) % 10
                                    cell[3] = y
                                    _leaf_jit(
                                        out, kinds, cell, ids, patterns, rows, mult,
                                        rest_player * y_left, y_rest,
                                    )  # fmt: skip
                                    held[1, y] -= 1
                            else:
                                ids[1] = banker_id
                                ids[2] = five_id
                                cell[1] = banker2
                                cell[3] = NO_THIRD
                                _leaf_jit(
                                    out, kinds, cell, ids, patterns, rows, mult * five_tail,
                                    rest_player, rest_banker,
                                )  # fmt: skip
                            held[0, x] -= 1
                    elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                        ids[0] = player_id
                        cell[0] = player2
                        cell[2] = NO_THIRD
                        rest_player = (value_counts[b] - take * held[0, b]) * (
                            value_counts[d] - take * (held[0, d] + (1 if d == b else 0))
                        )
                        for y in range(N_VALUES):
                            y_left = value_counts[y] - take * (held[0, y] + held[1, y])
                            held[1, y] += 1
                            y_rest = player_rest
                            if held[0, y] != 0:
                                y_rest = (value_counts[a] - take * held[1, a]) * (
                                    value_counts[c] - take * (held[1, c] + (1 if c == a else 0))
                                )
                            ids[1] = grow[banker_id, y]
                            ids[2] = grow[four_id, y]
                            cell[1] = (banker2 + y) % 10
                            cell[3] = y
                            _leaf_jit(
                                out, kinds, cell, ids, patterns, rows, mult * five_tail,
                                rest_player * y_left, y_rest,
                            )  # fmt: skip
                            held[1, y] -= 1
                    else:  # a natural, or both hands stand
                        ids[0] = player_id
                        ids[1] = banker_id
                        ids[2] = four_id
                        cell[0] = player2
                        cell[1] = banker2
                        cell[2] = NO_THIRD
                        cell[3] = NO_THIRD
                        rest_player = (value_counts[b] - take * held[0, b]) * (
                            value_counts[d] - take * (held[0, d] + (1 if d == b else 0))
                        )
                        _leaf_jit(
                            out, kinds, cell, ids, patterns, rows, mult * stand_tail,
                            rest_player, player_rest,
                        )  # fmt: skip
                    held[1, b] -= 1
                    held[1, d] -= 1
            held[0, a] -= 1
            held[0, c] -= 1


def _falling(count: int, k: int, take: int) -> int:
    return math.perm(count, k) if take else count**k


def value_groups(shoe: Shoe) -> np.ndarray:
    """``groups[v, k, c, pattern]`` of the shoe (see the module docstring), exact (a
    read-only array shared by shoes of the same counts)."""
    if not shoe.suits_known:
        raise AnalyzerError(
            "the suits of some cards are unknown: the identities a multiplier pays by "
            "cannot be counted"
        )
    return _groups(tuple(int(n) for n in shoe.suit_counts.reshape(-1)), shoe.take)


@lru_cache(maxsize=64)
def _groups(identity_counts: tuple[int, ...], take: int) -> np.ndarray:
    identity_counts = np.array(identity_counts, dtype=object)
    groups = np.zeros((N_VALUES, ROUND_CARDS + 1, ROUND_CARDS + 1, N_PATTERNS), dtype=np.int64)
    for v in range(N_VALUES):
        counts = [int(n) for n in identity_counts[np.equal(CARD_VALUES, v)]]
        blocks = _labelled_blocks(counts, take)
        for k in range(ROUND_CARDS + 1):
            for c in range(k + 1):
                cell: Counter[int] = Counter()
                for full, shown, ways in group_patterns(k, c):
                    cell[shown] += ways * blocks.get(IDENTITY_PATTERNS[full], 0)
                total = sum(cell.values())
                if total != _falling(sum(counts), k, take):  # the walk's own weight
                    raise AssertionError(f"identity groups of value {v} do not add up")
                for shown, ways in cell.items():
                    groups[v, k, c, shown] = ways
    groups.setflags(write=False)
    return groups


def _labelled_blocks(counts: list[int], take: int) -> dict[tuple[int, ...], int]:
    """Ways to give labelled blocks of cards (by sizes, a pattern) distinct identities of
    these counts, each block's cards dealt in order from its identity's copies."""
    # Unlabelled first: which identities hold a block of which size (a product of
    # 1 + sum_m y_m ff(count, m) over identities), then the a_m! labellings.
    ways: dict[tuple[int, ...], int] = {(): 1}
    for count in counts:
        step = dict(ways)
        for pattern, w in ways.items():
            for size in range(1, ROUND_CARDS + 1 - sum(pattern)):
                f = _falling(count, size, take)
                if f:
                    key = tuple(sorted((*pattern, size), reverse=True))
                    step[key] = step.get(key, 0) + w * f
        ways = step
    return {
        pattern: w * math.prod(math.factorial(n) for n in Counter(pattern).values())
        for pattern, w in ways.items()
    }


@dataclass(frozen=True, eq=False)
class IdentityCounts:
    """Ordered six-card sequences (weighted under a mixed strategy, see ``scale``) by
    outcome cell and by the identity pattern of the cards a bet multiplied by ``kind``
    counts; they sum to ``denominator``. ``cells`` are the round's possible cells, flat
    in :data:`CELLS` (player score, banker score, player third, banker third; the same
    for every kind), and ``ways[i, pattern]`` the sequences of cell ``cells[i]``."""

    cells: np.ndarray
    ways: np.ndarray
    kind: str
    denominator: int
    shoe: Shoe
    naturals: tuple[int, ...]
    scale: int = 1

    @property
    def counts(self) -> np.ndarray:
        """``counts[player_score, banker_score, player_third, banker_third, pattern]``:
        the same counts, dense."""
        dense = np.zeros((math.prod(CELLS), N_PATTERNS), dtype=self.ways.dtype)
        dense[self.cells] = self.ways
        return dense.reshape(*CELLS, N_PATTERNS)


def counted_cards(kind: str, cells: np.ndarray) -> np.ndarray:
    """How many cards a bet multiplied by ``kind`` counts in each of ``cells`` (flat, as
    :class:`IdentityCounts` holds them): its hands' two cards and their third ones."""
    player_score, banker_score, player_third, banker_third = np.unravel_index(cells, CELLS)
    player = 2 + (player_third != NO_THIRD)
    banker = 2 + (banker_third != NO_THIRD)
    if kind == "player":
        return player
    if kind == "banker":
        return banker
    if kind == "both":
        return player + banker
    winner = np.where(player_score > banker_score, player, banker)
    return np.where(player_score == banker_score, 0, winner)


@njit(cache=True)
def _spread_jit(within, first, out):
    """``out[i, first[i] + e] = within[i, e]``: each row's ways from its size's patterns
    to all the patterns."""
    for i in range(within.shape[0]):
        for e in range(within.shape[1]):
            if within[i, e] != 0:
                out[i, first[i] + e] = within[i, e]


def _by_pattern(kind: str, cells: np.ndarray, within: np.ndarray) -> np.ndarray:
    """The kernel's ways of ``cells`` by pattern index among the counted cards' patterns,
    as ways by pattern index. (A row's entries past its size's patterns are 0.)"""
    first = SIZE_START[counted_cards(kind, cells)]
    ways = np.zeros((len(cells), N_PATTERNS), dtype=within.dtype)
    if within.dtype == np.int64:
        _spread_jit(within, first, ways)
    else:  # Python integers, of a large mixed strategy
        columns = first[:, None] + np.arange(_MOST_PATTERNS)
        np.put_along_axis(ways, columns, within, axis=1)
    return ways


def identity_outcomes(shoe: Shoe, kind: str, mixture: Mixture) -> IdentityCounts:
    """Exact counts by counted identity pattern of one round from ``shoe`` under the
    weighted pure tableaus ``mixture`` (see :func:`analyzer.engine.enumerator.
    mixture_outcomes`), for bets multiplied by ``kind`` (one of WALKED_KINDS)."""
    return identity_outcomes_of(shoe, (kind,), mixture)[kind]


def identity_outcomes_of(
    shoe: Shoe, kinds: tuple[str, ...], mixture: Mixture
) -> dict[str, IdentityCounts]:
    """:func:`identity_outcomes` of several kinds at once, by kind: one walk serves them
    all (the rounds are the same; only the cards each kind counts differ)."""
    for kind in kinds:
        if kind not in WALKED_KINDS:
            raise AnalyzerError(f"the identity walk counts {', '.join(WALKED_KINDS)}, not {kind!r}")
    kinds = tuple(dict.fromkeys(kinds))
    dealt = shoe.in_lowest_terms(suits=True)
    codes = np.array([WALKED_KINDS.index(kind) for kind in kinds], dtype=np.int64)
    walks = [_walk(dealt, tableau, codes) for _, tableau in mixture]
    # Every kind's ways of a cell sum to the round's: the cells are the same for all.
    cells = walks[0][0] if len(walks) == 1 else np.unique(np.concatenate([c for c, _ in walks]))
    by_cell = []
    for walk_cells, counts in walks:
        if len(walks) > 1:  # each tableau's cells among every tableau's
            spread = np.zeros((len(kinds), len(cells), _MOST_PATTERNS), dtype=np.int64)
            spread[:, np.searchsorted(cells, walk_cells)] = counts
            counts = spread
        by_cell.append(counts)
    dealt_cells = np.logical_or.reduce([counts[0].any(axis=1) for counts in by_cell])
    if not dealt_cells.all():  # a depleted shoe: some cells no round reaches
        cells = cells[dealt_cells]
        by_cell = [counts[:, dealt_cells] for counts in by_cell]
    out = {}
    for m, kind in enumerate(kinds):
        parts = [(weight, counts[m]) for (weight, _), counts in zip(mixture, by_cell, strict=True)]
        within, denominator, scale = mixed_counts(parts, dealt.rounds_denominator)
        ways = _by_pattern(kind, cells, within)
        naturals = mixture[0][1].naturals
        out[kind] = IdentityCounts(cells, ways, kind, denominator, shoe, naturals, scale)
    return out


@njit(cache=True)
def _dealt_cells_jit(third_card, out):
    """Mark in ``out`` (bool, by flat cell) every cell a round under ``third_card`` can
    end in, whatever the shoe."""
    for player2 in range(N_VALUES):
        for banker2 in range(N_VALUES):
            if player_draws(third_card, player2, banker2):
                for x in range(N_VALUES):
                    player = (player2 + x) % 10
                    if banker_draws(third_card, player2, banker2, x):
                        for y in range(N_VALUES):
                            banker = (banker2 + y) % 10
                            out[_flat_cell(player, banker, x, y)] = True
                    else:
                        out[_flat_cell(player, banker2, x, NO_THIRD)] = True
            elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                for y in range(N_VALUES):
                    banker = (banker2 + y) % 10
                    out[_flat_cell(player2, banker, NO_THIRD, y)] = True
            else:
                out[_flat_cell(player2, banker2, NO_THIRD, NO_THIRD)] = True


@lru_cache(maxsize=64)
def tableau_cells(tableau: Tableau) -> tuple[np.ndarray, np.ndarray]:
    """The flat cells a round under ``tableau`` can end in, and each flat cell's index
    among them (-1: none), so that the walk's output holds those cells only."""
    dealt = np.zeros(math.prod(CELLS), dtype=np.bool_)
    _dealt_cells_jit(tableau.third_card, dealt)
    cells = np.flatnonzero(dealt)
    rows = np.full(len(dealt), -1, dtype=np.int64)
    rows[cells] = np.arange(len(cells))
    for table in (cells, rows):
        table.setflags(write=False)
    return cells, rows


def _walk(shoe: Shoe, tableau: Tableau, kinds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The flat cells ``tableau`` can deal and the kernel's counts of them."""
    cells, rows = tableau_cells(tableau)
    out = np.zeros((len(kinds), len(cells), _MOST_PATTERNS), dtype=np.int64)
    patterns = multiset_patterns(shoe)
    arrays = (patterns.dense, patterns.width, patterns.total)
    grow = multisets()[0]
    third_card = tableau.third_card
    _identity_walk_jit(shoe.value_counts, grow, arrays, third_card, kinds, shoe.take, rows, out)
    for block in out:  # a broken kernel must never hand out a number
        total = int(block.sum(dtype=np.int64))
        if total != shoe.rounds_denominator:
            raise AssertionError(
                f"identity counts sum to {total}, expected {shoe.rounds_denominator}"
            )
    return cells, out
