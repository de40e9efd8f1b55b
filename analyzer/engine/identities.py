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
same denominator.

``groups`` is worked out in Python from the shoe's count of each card identity: the ways
to give ``b`` labelled blocks of sizes ``s_1 .. s_b`` distinct identities are the
coefficient of a product over identities (one DP over the 4 or 16 identities of a value),
and every set partition of the ``k`` cards is one such assignment.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

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
    PATTERN_INDEX,
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
#: What one identity walk costs (every kind at once, 8 decks: about 6 ms), in rounds of
#: the card walk taking as long, for a command to weigh walking one per composition.
WALK_COST = 4 * 10**5
#: Kind codes of the kernel (WALKED_KINDS order).
_PLAYER, _BANKER, _BOTH, _WINNER = range(4)
#: ``_SINGLES[p, s]``: pattern ``p`` with ``s`` more cards of identities of their own.
_SINGLES = np.full((N_PATTERNS, ROUND_CARDS + 1), -1, dtype=np.int64)
for _p, _pattern in enumerate(IDENTITY_PATTERNS):
    for _s in range(ROUND_CARDS + 1 - sum(_pattern)):
        _SINGLES[_p, _s] = PATTERN_INDEX[tuple(sorted(_pattern + (1,) * _s, reverse=True))]


@njit(cache=True, inline="always")
def _leaf_jit(out, kinds, cell, values, n_dealt, held, groups, union, singles, ways, work):
    """Add a round's ways to ``out[m, cell..., pattern]`` for each kind ``kinds[m]``, split
    by the identity pattern of the cards that kind counts.

    ``values[:n_dealt]`` are the round's point values; ``held[h, v]`` how many cards of
    value ``v`` hand ``h`` (0 Player, 1 Banker) holds; ``cell`` the outcome cell (scores,
    then third-card values); ``ways`` multiplies (the swapped deals and the cards after
    the round). ``work`` is scratch: int64[5, n_patterns + 10] (two pattern vectors, the
    repeated values and their sizes, the round's distinct values).
    """
    # The round's distinct values (at most six), found once for every kind.
    distinct = work[4]
    n_distinct = 0
    for i in range(n_dealt):
        v = values[i]
        new = True
        for j in range(n_distinct):
            if distinct[j] == v:
                new = False
                break
        if new:
            distinct[n_distinct] = v
            n_distinct += 1
    for m in range(kinds.shape[0]):
        kind = kinds[m]
        side = kind  # _PLAYER 0, _BANKER 1, _BOTH 2; 3: no card counts
        if kind == _WINNER:
            side = _PLAYER if cell[0] > cell[1] else _BANKER if cell[1] > cell[0] else _WINNER
        # Per value: cards dealt and counted. Values with at most one counted card add a
        # scalar and singles; only a value with two counted cards or more can hold two
        # copies of one identity.
        scalar = ways
        single = 0
        repeated = 0
        for i in range(n_distinct):
            v = distinct[i]
            k = held[0, v] + held[1, v]
            if side == _BOTH:
                c = k
            elif side == _WINNER:
                c = 0
            else:
                c = held[side, v]
            if c <= 1:
                scalar *= groups[v, k, c, c]  # pattern index of () is 0, of (1,) is 1
                single += c
            else:  # kept for the convolution below
                work[2, repeated] = v
                work[3, repeated] = k * 8 + c
                repeated += 1
        if scalar == 0:  # a falling factorial of the shoe is 0: the same for every kind
            return
        if repeated == 0:
            out[m, cell[0], cell[1], cell[2], cell[3], singles[0, single]] += scalar
            continue
        if repeated == 1:  # one value's patterns as they are: no convolution
            v = work[2, 0]
            k = work[3, 0] // 8
            c = work[3, 0] % 8
            for q in range(SIZE_START[c], SIZE_START[c + 1]):
                g = groups[v, k, c, q]
                if g != 0:
                    out[m, cell[0], cell[1], cell[2], cell[3], singles[q, single]] += g * scalar
            continue
        current = work[0]
        current[0] = 1
        size = 0  # cards in the patterns of ``current`` (those of one size are contiguous)
        for r in range(repeated):
            v = work[2, r]
            k = work[3, r] // 8
            c = work[3, r] % 8
            following = work[1]
            for p in range(SIZE_START[size + c], SIZE_START[size + c + 1]):
                following[p] = 0
            for p in range(SIZE_START[size], SIZE_START[size + 1]):
                if current[p] == 0:
                    continue
                for q in range(SIZE_START[c], SIZE_START[c + 1]):
                    g = groups[v, k, c, q]
                    if g != 0:
                        following[union[p, q]] += current[p] * g
            size += c
            for p in range(SIZE_START[size], SIZE_START[size + 1]):
                current[p] = following[p]
        for p in range(SIZE_START[size], SIZE_START[size + 1]):
            if current[p] != 0:
                out[m, cell[0], cell[1], cell[2], cell[3], singles[p, single]] += (
                    current[p] * scalar
                )


@njit(cache=True)
def _identity_walk_jit(value_counts, groups, union, singles, third_card, kinds, take, out):
    """Walk every round of point values; add its ways to ``out`` by counted pattern.

    Parameters
    ----------
    value_counts : int64[10]
        Cards of each point value in the shoe (N in all).
    groups : int64[10, 7, 7, n_patterns]
        ``groups[v, k, c, p]``: ordered ways to deal ``k`` cards of value ``v`` whose
        ``c`` counted ones show identity pattern ``p`` (see the module docstring).
    union, singles : int64 tables
        :data:`analyzer.game.identities.PATTERN_UNION` and this module's ``_SINGLES``.
    third_card : bool[10, 10, 12]
        The third-card rule of one pure tableau.
    kinds : int64[m]
        Whose cards count, per block of ``out``: 0 Player, 1 Banker, 2 both, 3 the winner
        (none on a tie). One walk serves them all.
    take : int
        1, or 0 when cards are dealt with replacement.
    out : int64[m, 10, 10, 11, 11, n_patterns]
        Zeroed by the caller; on return ``out[m, player_score, banker_score,
        player_third, banker_third, pattern]`` holds ordered six-card sequences, each
        block summing to N (N-1) ... (N-5).
    """
    n = value_counts.sum()
    stand_tail = (n - 4 * take) * (n - 5 * take)
    five_tail = n - 5 * take
    values = np.zeros(6, dtype=np.int64)
    held = np.zeros((2, N_VALUES), dtype=np.int64)
    cell = np.zeros(4, dtype=np.int64)
    work = np.zeros((5, N_PATTERNS + N_VALUES), dtype=np.int64)
    for a in range(N_VALUES):
        for c in range(a, N_VALUES):
            player2 = (a + c) % 10
            held[0, a] += 1
            held[0, c] += 1
            for b in range(N_VALUES):
                for d in range(b, N_VALUES):
                    mult = (1 if a == c else 2) * (1 if b == d else 2)
                    banker2 = (b + d) % 10
                    values[0] = a
                    values[1] = b
                    values[2] = c
                    values[3] = d
                    held[1, b] += 1
                    held[1, d] += 1
                    if player_draws(third_card, player2, banker2):
                        for x in range(N_VALUES):
                            values[4] = x
                            held[0, x] += 1
                            cell[0] = (player2 + x) % 10
                            cell[2] = x
                            if banker_draws(third_card, player2, banker2, x):
                                for y in range(N_VALUES):
                                    values[5] = y
                                    held[1, y] += 1
                                    cell[1] = (banker2 + y) % 10
                                    cell[3] = y
                                    _leaf_jit(
                                        out, kinds, cell, values, 6, held, groups, union,
                                        singles, mult, work,
                                    )  # fmt: skip
                                    held[1, y] -= 1
                            else:
                                cell[1] = banker2
                                cell[3] = NO_THIRD
                                _leaf_jit(
                                    out, kinds, cell, values, 5, held, groups, union, singles,
                                    mult * five_tail, work,
                                )  # fmt: skip
                            held[0, x] -= 1
                    elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                        cell[0] = player2
                        cell[2] = NO_THIRD
                        for y in range(N_VALUES):
                            values[4] = y
                            held[1, y] += 1
                            cell[1] = (banker2 + y) % 10
                            cell[3] = y
                            _leaf_jit(
                                out, kinds, cell, values, 5, held, groups, union, singles,
                                mult * five_tail, work,
                            )  # fmt: skip
                            held[1, y] -= 1
                    else:  # a natural, or both hands stand
                        cell[0] = player2
                        cell[1] = banker2
                        cell[2] = NO_THIRD
                        cell[3] = NO_THIRD
                        _leaf_jit(
                            out, kinds, cell, values, 4, held, groups, union, singles,
                            mult * stand_tail, work,
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
    """``counts[player_score, banker_score, player_third, banker_third, pattern]``: ordered
    six-card sequences (weighted under a mixed strategy, see ``scale``) by the identity
    pattern of the cards a bet multiplied by ``kind`` counts; they sum to ``denominator``."""

    counts: np.ndarray
    kind: str
    denominator: int
    shoe: Shoe
    naturals: tuple[int, ...]
    scale: int = 1


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
    groups = value_groups(dealt)
    codes = np.array([WALKED_KINDS.index(kind) for kind in kinds], dtype=np.int64)
    walks = [(weight, _walk(dealt, groups, tableau, codes)) for weight, tableau in mixture]
    out = {}
    for m, kind in enumerate(kinds):
        parts = [(weight, counts[m]) for weight, counts in walks]
        counts, denominator, scale = mixed_counts(parts, dealt.rounds_denominator)
        out[kind] = IdentityCounts(counts, kind, denominator, shoe, mixture[0][1].naturals, scale)
    return out


def _walk(shoe: Shoe, groups: np.ndarray, tableau: Tableau, kinds: np.ndarray) -> np.ndarray:
    shape = (len(kinds), N_VALUES, N_VALUES, NO_THIRD + 1, NO_THIRD + 1, N_PATTERNS)
    out = np.zeros(shape, dtype=np.int64)
    _identity_walk_jit(
        shoe.value_counts, groups, PATTERN_UNION, _SINGLES, tableau.third_card, kinds,
        shoe.take, out,
    )  # fmt: skip
    for block in out:  # a broken kernel must never hand out a number
        total = int(block.sum(dtype=np.int64))
        if total != shoe.rounds_denominator:
            raise AssertionError(
                f"identity counts sum to {total}, expected {shoe.rounds_denominator}"
            )
    return out
