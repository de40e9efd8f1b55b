"""The card-level walk: every round of a shoe with the cards themselves, exactly.

Bets on ranks, suits and colours of single cards need more than the value walk gives. The
walk here deals each of the six cards (Player 1, Banker 1, Player 2, Banker 2, Player 3,
Banker 3) at the coarsest detail the bets need, decided per card from the fields they use
(:func:`plan`):

* a card a bet asks nothing of (beyond the round's outcome) is dealt by point value (10
  classes), and so is one whose point value is all it asks;
* the others are dealt as *fine types*: the coarsest card types that tell apart every
  attribute any card needs (point value or rank, times nothing, colour or suit).

Every round is still weighted as an ordered six-card sequence over the common denominator
N(N-1)...(N-5). A round's weight is the number of ordered ways to deal physical cards that
match it, which does not depend on the order of dealing: deal the fine-typed cards first
(``n_t - k`` for the k-th card of type ``t``), then the value-dealt ones from what is left
of their value (``N_v - K_v - j`` for the j-th of value ``v``, ``K_v`` the fine-typed
cards of that value), then the rest of the six from what remains.

The counts land in a dense array indexed by what the fields need: the round's outcome as
far as the fields ask (one code per distinct tuple of outcome fields), each card's
attributes, and the highest card value where asked. A text attribute that the bets only
ever compare with constants (``banker_card3_rank in ('J', 'Q', 'K')``) tells those
constants apart and lumps the rest together, and fine types are only as fine as that, so
a bet pays for the distinctions it makes and no more. Its nonzero cells become an
:class:`~analyzer.engine.outcomes.OutcomeTable`, so bets settle exactly as on any table.

When the fields ask nothing of the round beyond some of the first four cards (most bets
on the first two or four cards), only those cards are dealt: every way to go on from them
completes an ordered six-card sequence, (N - u)(N - u - 1)... ways in all whatever the
draw. Otherwise, when no third card needs more than its value, the walk is split: the
draw of the third cards depends only on the first four cards' values, so it is worked out
once per tuple of values and combined with every way to deal those values as fine types.

Suits that the bets compare only with each other (:attr:`CardPlan.suit_pattern`) matter
only in which cards share one, so those cards are dealt without their suits and each
round is counted once per suit pattern (the cards' blocks, at most four, numbered in order
of first appearance): its ways are the sum, over every way to give the blocks distinct
suits, of the ways to deal each block's cards in its suit, which on a shoe whose suits are
alike is 4 (4 - 1) ... times one suit's. Six cards have 187 patterns, where the walk would
otherwise deal 4^6 tuples of suits.

The walk also compiles into terms (:func:`card_terms`): polynomials in the counts of the
card types, so that the batch engine evaluates a card-level bet on any composition without
walking it again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from math import prod

import numpy as np
from numba import int64, njit
from numba.typed import Dict as NumbaDict

from analyzer.engine.draw import banker_draws, player_draws
from analyzer.engine.mixture import mixed_counts
from analyzer.engine.outcomes import OutcomeTable
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS, N_SUITS, N_VALUES, RANK_VALUES, RANKS, SUITS
from analyzer.game.fields import (
    CARDS,
    COLOURS,
    FIELD,
    NO_THIRD,
    NO_THIRD_CARD,
    NOT_DEALT,
    PATTERNS,
    SUITED_PAIR_FIELDS,
    WALK_FIELDS,
    derived_columns,
    third_card_field,
)
from analyzer.game.rules import (
    PLAYER_STOOD,
    STANDARD,
    STANDARD_MIXTURE,
    STANDARD_TABLEAU,
    DrawingRules,
    Mixture,
    Strategy,
    Tableau,
)
from analyzer.game.shoe import ROUND_CARDS, Shoe

N_PATTERNS = len(PATTERNS)
#: The PATTERNS index of four cards of four ranks (what a straight needs).
FOUR_DISTINCT = PATTERNS.index("1+1+1+1")
#: The most cells the walk may count into (8 bytes each): beyond it a paytable asks for
#: too many things at once to count them exactly in one table.
MAX_CELLS = 2**24
#: The most rounds the walk visits for one table (about a minute on this machine's core):
#: beyond it a paytable asks for more detail of more cards than can be counted here.
MAX_VISITS = 3 * 10**9
#: Colour labels of the fine types: the index into _COLOUR_NAMES.
_BLACK, _RED = 0, 1
_COLOUR_NAMES = ("black", "red")
_IS_RED = np.array([COLOURS[suit] == "red" for suit in range(N_SUITS)])
#: An empty array, for the walk's arguments that are not in use.
_NOTHING = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class CardPlan:
    """What the walk must tell apart for a set of fields.

    ``needs[c]`` maps each attribute card ``c`` must show (``rank``, ``suit``,
    ``colour``, ``value``) to the only values it must tell apart from the rest, or None
    for all of them; ``outcome`` lists the round-level fields asked for.
    """

    fields: frozenset[str]
    needs: tuple[dict[str, frozenset[str] | None], ...]
    outcome: tuple[str, ...]
    #: The fields worked out from several cards at once, in WALK_FIELDS order, and what
    #: each card must show the walk (not the table) for them.
    walk: tuple[str, ...] = ()
    walk_needs: tuple[frozenset[str], ...] = (frozenset(),) * len(CARDS)
    #: The cards whose suits are told apart only by which of them share a suit (every
    #: suit asked only compared with other suits, no colour asked): the walk counts their
    #: suit patterns, up to relabelling the four suits, in place of their suits.
    suit_pattern: tuple[int, ...] = ()

    @cached_property  # asked for at every card of a layout
    def fine(self) -> tuple[bool, ...]:
        """Which cards are dealt as fine types (the others by point value)."""
        return tuple(
            bool((set(need) | walk) - {"value"})
            for need, walk in zip(self.needs, self.walk_needs, strict=True)
        )

    @cached_property
    def dealt_alone(self) -> tuple[int, ...]:
        """The cards to deal, when the fields ask nothing of the round beyond some of the
        first four cards; () when the whole round must be dealt.

        The rest of a round then only completes an ordered six-card sequence: every way to
        do so adds up to (N - u)(N - u - 1)... over the u cards dealt, whatever the draw.
        """
        if self.outcome or set(self.walk) - set(_WALK_CARDS_FIRST_FOUR):
            return ()
        asked = [bool(need or walk) for need, walk in zip(self.needs, self.walk_needs, strict=True)]
        if any(asked[4:]) or not any(asked):
            return ()
        return tuple(card for card in range(4) if asked[card])

    @cached_property
    def needs_suits(self) -> bool:
        """Does the walk need the shoe's suits?"""
        return any(
            {"suit", "colour"} & (set(need) | walk)
            for need, walk in zip(self.needs, self.walk_needs, strict=True)
        )


def plan(
    fields: frozenset[str] | set[str],
    literals: Mapping[str, frozenset[str]] | None = None,
    relational: frozenset[str] | set[str] | None = None,
) -> CardPlan:
    """The least the walk must tell apart to give ``fields``; ``literals`` names the text
    fields only ever compared with constants, and those constants (see
    :attr:`analyzer.paytables.model.Bet.literals`), ``relational`` those only ever
    compared with other fields (:attr:`analyzer.paytables.model.Bet.relational`)."""
    literals = literals or {}
    needs: list[dict[str, frozenset[str] | None]] = [{} for _ in CARDS]
    outcome = []
    for name in sorted(fields):
        spec = FIELD[name]
        for card, attribute in spec.cards:
            values = literals.get(name) if spec.card_level else None
            need = needs[card]
            if attribute in need and (need[attribute] is None or values is None):
                need[attribute] = None
            else:
                need[attribute] = frozenset(need.get(attribute) or ()) | (values or frozenset())
                if values is None:
                    need[attribute] = None
        if not spec.cards and not spec.card_level:
            outcome.append(name)
    walk = tuple(name for name in WALK_FIELDS if name in fields)
    walk_needs: list[set[str]] = [set() for _ in CARDS]
    for name in walk:
        for card in _WALK_CARDS.get(name, ()):
            walk_needs[card] |= _WALK_ATTRIBUTES[name]
    return CardPlan(
        frozenset(fields),
        tuple(needs),
        tuple(outcome),
        walk,
        tuple(frozenset(need) for need in walk_needs),
        _suit_pattern(frozenset(fields), frozenset(relational or ()), needs, walk_needs),
    )


def _suit_pattern(
    fields: frozenset[str],
    relational: frozenset[str],
    needs: list[dict[str, frozenset[str] | None]],
    walk_needs: list[set[str]],
) -> tuple[int, ...]:
    """The cards whose suits matter only in which of them are equal (see
    :attr:`CardPlan.suit_pattern`), or () where some suit or colour matters itself.

    Relabelling the four suits leaves a round's fields unchanged when every suit field
    asked is compared only with other fields (a suit never equals a rank or a colour, and
    a third card not dealt shows no suit, whatever the labels), the suited pairs compare
    two suits, and neither a colour nor a walk field reads a suit."""
    asked = [card for card, need in enumerate(needs) if "suit" in need]
    by_suit = [
        name for name in fields if any(attribute == "suit" for _, attribute in FIELD[name].cards)
    ]
    if not asked or any({"suit", "colour"} & walk for walk in walk_needs):
        return ()
    if any("colour" in need for need in needs):
        return ()
    if not all(name in relational or name in SUITED_PAIR_FIELDS for name in by_suit):
        return ()
    return tuple(asked)


#: Which cards, and which of their attributes, the walk reads for each field it works out
#: (max_card_value reads the point values every card has anyway).
_WALK_CARDS = {
    "first_four_pattern": range(4),
    "first_four_flush": range(4),
    "first_four_straight": range(4),
    "cards_pattern": range(len(CARDS)),
}
#: The walk fields that read only the first four cards.
_WALK_CARDS_FIRST_FOUR = tuple(name for name, cards in _WALK_CARDS.items() if max(cards) < 4)
_WALK_ATTRIBUTES = {
    "first_four_pattern": {"rank"},
    "first_four_flush": {"suit"},
    "first_four_straight": {"rank"},
    "cards_pattern": {"rank"},
}
#: How many values each walk field takes (its key digit's radix).
_WALK_RADIX = {
    "max_card_value": N_VALUES,
    "first_four_pattern": len(PATTERNS),
    "first_four_flush": 2,
    "first_four_straight": 2,
    "cards_pattern": len(PATTERNS),
}


def _pattern_index() -> np.ndarray:
    """PATTERNS index of each rank pattern, by its code: counts largest first, as the
    digits of a base-7 number (6 digits)."""
    table = np.full(7**6, -1, dtype=np.int64)
    for index, pattern in enumerate(PATTERNS):
        counts = [int(c) for c in pattern.split("+")] + [0] * 6
        table[sum(c * 7 ** (5 - i) for i, c in enumerate(counts[:6]))] = index
    return table


_PATTERN_INDEX = _pattern_index()


#: A text attribute's value in a class that none of the bets' constants name.
_OTHER = "*"
#: A card's digit in a suit pattern's code when it is not dealt (0-3: its block).
_NO_BLOCK = N_SUITS


@dataclass(frozen=True)
class _SuitPatterns:
    """Every suit pattern of the cards of :attr:`CardPlan.suit_pattern`: which of them
    share a suit, as blocks numbered in order of first appearance (at most four), a third
    card perhaps not dealt. A pattern's code has one base-5 digit per card, its block or
    :data:`_NO_BLOCK`; ``index[code]`` numbers the patterns (-1: no pattern) and
    ``suits[i]`` shows pattern ``i``'s cards with the suits named in that order, S H D C."""

    index: np.ndarray
    suits: np.ndarray

    @classmethod
    def of(cls, cards: tuple[int, ...]) -> _SuitPatterns:
        index = np.full(max(1, (N_SUITS + 1) ** len(cards)), -1, dtype=np.int64)
        rows: list[tuple[int, ...]] = []
        for row in _block_rows(cards):
            code = 0
            for digit in row:
                code = code * (N_SUITS + 1) + digit
            index[code] = len(rows)
            rows.append(row)
        names = np.array([*SUITS, NOT_DEALT])
        suits = names[np.array(rows, dtype=np.int64).reshape(len(rows), len(cards))]
        return cls(index, suits)


def _block_rows(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every block digit row of ``cards`` (see :class:`_SuitPatterns`): each card dealt
    joins a block already open or opens the next (at most four), a third card may be
    missing."""
    rows: list[tuple[int, ...]] = [()]
    for card in cards:
        grown = []
        for row in rows:
            opened = max((d + 1 for d in row if d != _NO_BLOCK), default=0)
            grown += [(*row, d) for d in range(min(opened + 1, N_SUITS))]
            if card >= 4:  # a third card
                grown.append((*row, _NO_BLOCK))
        rows = grown
    return rows


def _n_partitions(cards: int) -> int:
    """Ways ``cards`` cards, all dealt, share at most four suits (1, 1, 2, 5, 15, 51, 187)."""
    return len(_block_rows((0,) * cards))


def _attribute(attribute: str, rank: int, suit: int, values: frozenset[str] | None) -> object:
    """The class of a physical card (rank, suit) for one attribute of one card."""
    if attribute == "value":
        return int(RANK_VALUES[rank])
    if attribute == "colour":
        return COLOURS[suit]
    name = RANKS[rank] if attribute == "rank" else SUITS[suit]
    return name if values is None or name in values else _OTHER


@dataclass(frozen=True)
class _FineTypes:
    """The fine types of a plan on a shoe: the classes of physical cards that every card
    dealt as a fine type must tell apart, with their counts and point values, and the
    (rank, suit) of a card standing for each (suit -1 when suits play no part)."""

    counts: np.ndarray
    values: np.ndarray
    examples: list[tuple[int, int]]
    ranks: np.ndarray
    suits: np.ndarray
    #: The type of each rank (13) or, when suits play a part, each card (52, rank major);
    #: -1 for those the shoe has none of.
    members: np.ndarray
    #: With suit patterns (:attr:`CardPlan.suit_pattern`, the types then without suits):
    #: the cards of each type in each suit, (T, 4); or (T, 1), a quarter of each type's
    #: cards, when every type is alike in every suit (a full shoe). Else (T, 0).
    suit_counts: np.ndarray


def _shown(card_plan: CardPlan, card: int) -> list[str]:
    """The attributes a card dealt as a fine type shows through its type: all it needs,
    less its suit where suit patterns stand for the suits."""
    need = card_plan.needs[card]
    return sorted(a for a in need if not (a == "suit" and card_plan.suit_pattern))


def _fine_types(card_plan: CardPlan, shoe: Shoe) -> _FineTypes:
    by_suit = card_plan.needs_suits and not card_plan.suit_pattern
    kinds = [(r, s) for r in range(N_RANKS) for s in (range(N_SUITS) if by_suit else (-1,))]
    keys = []
    for rank, suit in kinds:
        key = [int(RANK_VALUES[rank])]
        for card, fine in enumerate(card_plan.fine):
            if fine:
                need = card_plan.needs[card]
                key += [_attribute(a, rank, suit, need[a]) for a in _shown(card_plan, card)]
                walk = card_plan.walk_needs[card]
                key += [_attribute(a, rank, suit, None) for a in sorted(walk)]
        keys.append(tuple(key))
    distinct = list(dict.fromkeys(keys))
    index = [distinct.index(key) for key in keys]
    counts = np.zeros(len(distinct), dtype=np.int64)
    for (rank, suit), t in zip(kinds, index, strict=True):
        counts[t] += shoe.suit_counts[rank, suit] if by_suit else shoe.rank_counts[rank]
    # Types the shoe has none of are never dealt: the walk leaves them out.
    present = [t for t in range(len(distinct)) if counts[t] > 0]
    counts = counts[present]
    distinct = [distinct[t] for t in present]
    examples = [kinds[index.index(t)] for t in present]
    values = np.array([key[0] for key in distinct], dtype=np.int64)
    # The walk reads a type's rank and suit only where a walk field needs them, and then
    # the type tells them apart.
    ranks = np.array([rank for rank, _ in examples], dtype=np.int64)
    suits = np.array([suit for _, suit in examples], dtype=np.int64)
    members = np.array([present.index(t) if t in present else -1 for t in index], np.int64)
    suit_counts = np.zeros((len(present), 0), dtype=np.int64)
    if card_plan.suit_pattern:
        suit_counts = np.zeros((len(present), N_SUITS), dtype=np.int64)
        for rank in range(N_RANKS):
            if members[rank] >= 0:
                suit_counts[members[rank]] += shoe.suit_counts[rank]
        if (suit_counts == suit_counts[:, :1]).all():
            suit_counts = suit_counts[:, :1].copy()
    return _FineTypes(counts, values, examples, ranks, suits, members, suit_counts)


def _codes(card_plan: CardPlan, card: int, types: _FineTypes):
    """The key codes of the classes a card is dealt as, and what each code shows.

    Returns (code of each class, the attribute values of each code as a list of dicts,
    number of codes). A third card gets one more code: not dealt.
    """
    need = card_plan.needs[card]
    if card_plan.fine[card]:
        shown = [
            {a: _attribute(a, rank, max(suit, 0), need[a]) for a in _shown(card_plan, card)}
            for rank, suit in types.examples
        ]
    else:  # dealt by value: all it can show is the value
        shown = [{"value": v} if "value" in need else {} for v in range(N_VALUES)]
    distinct = list(dict.fromkeys(tuple(sorted(row.items())) for row in shown))
    codes = np.array([distinct.index(tuple(sorted(row.items()))) for row in shown], np.int64)
    return codes, [dict(row) for row in distinct], len(distinct)


@njit(cache=True)
def _pattern(ranks, first, last, rank_count, pattern_index):
    """PATTERNS index of how the cards ``first`` to ``last - 1`` share ranks (-1: none).

    ``rank_count`` is scratch space. The cards are compared pairwise (at most six): far
    fewer steps than counting all 13 ranks, on the walk's hottest path."""
    n = 0
    for k in range(first, last):
        if ranks[k] < 0:
            continue
        seen_before = False
        for j in range(first, k):
            if ranks[j] == ranks[k]:
                seen_before = True
                break
        if seen_before:
            continue
        same = 1
        for j in range(k + 1, last):
            if ranks[j] == ranks[k]:
                same += 1
        # Insert, keeping the multiplicities largest first.
        i = n
        while i > 0 and rank_count[i - 1] < same:
            rank_count[i] = rank_count[i - 1]
            i -= 1
        rank_count[i] = same
        n += 1
    code = 0
    place = 7**5
    for i in range(n):
        code += rank_count[i] * place
        place //= 7
    return pattern_index[code]


@njit(cache=True)
def _walk_digits(key, walk, highest, ranks, suits, rank_count, pattern_index):
    """The key's last digits: the fields worked out from several cards (WALK_FIELDS order;
    ``walk[i]`` says whether field ``i`` is asked). ``ranks``/``suits`` hold each card's
    rank and suit index where the walk reads them, -1 for a card not dealt."""
    if walk[0]:
        key = key * N_VALUES + highest
    four = _pattern(ranks, 0, 4, rank_count, pattern_index) if walk[1] or walk[3] else -1
    if walk[1]:
        key = key * N_PATTERNS + four
    if walk[2]:
        flush = suits[0] == suits[1] == suits[2] == suits[3]
        key = key * 2 + (1 if flush else 0)
    if walk[3]:
        straight = four == FOUR_DISTINCT
        if straight:
            low = min(min(ranks[0], ranks[1]), min(ranks[2], ranks[3]))
            high = max(max(ranks[0], ranks[1]), max(ranks[2], ranks[3]))
            # An ace (rank 0) plays low (A-2-3-4) or high (J-Q-K-A: 10, 11, 12 and 13).
            ace_high_low = 13
            for k in range(4):
                if ranks[k] != 0:
                    ace_high_low = min(ace_high_low, ranks[k])
            straight = high - low == 3 or (low == 0 and ace_high_low == 10)
        key = key * 2 + (1 if straight else 0)
    if walk[4]:
        key = key * N_PATTERNS + _pattern(ranks, 0, ROUND_CARDS, rank_count, pattern_index)
    return key


#: Bits per symbol of a packed signature: symbols are fine types (at most 52) then the
#: 10 point values, stored plus one so that 0 marks an empty place.
_SYMBOL_BITS = 6


@njit(cache=True)
def _signature(symbols, n):
    """A round's term: the multiset of the first ``n`` symbols (sorted in place), packed
    ``_SYMBOL_BITS`` bits a symbol, smallest first."""
    for i in range(1, n):  # insertion sort: at most six symbols
        s = symbols[i]
        j = i - 1
        while j >= 0 and symbols[j] > s:
            symbols[j + 1] = symbols[j]
            j -= 1
        symbols[j + 1] = s
    packed = 0
    for i in range(n):
        packed |= (symbols[i] + 1) << (_SYMBOL_BITS * i)
    return packed


@njit(cache=True)
def _card_walk_jit(
    type_counts,
    type_values,
    value_counts,
    fine,
    fine_codes,
    value_codes,
    radix,
    not_dealt,
    outcome_code,
    third_card,
    walk,
    type_ranks,
    type_suits,
    pattern_index,
    suit_cards,
    suit_code_index,
    type_suit_counts,
    order,
    prefix,
    out,
    cell_class,
    tally,
    max_terms,
):
    """Deal every round card by card, at each card's detail; count into ``out`` by key.

    Parameters
    ----------
    type_counts : int64[T]
        Cards of each fine type in the shoe.
    type_values : int64[T]
        Point value of each fine type.
    value_counts : int64[10]
        Cards of each point value in the shoe (N in all).
    fine : bool[6]
        Which cards (P1, B1, P2, B2, P3, B3) are dealt as fine types; the others by value.
    fine_codes : int64[6, T]
        The key code of each fine type at each card dealt as fine types.
    value_codes : int64[6, 10]
        The key code of each point value at each card dealt by value.
    radix : int64[6]
        How many codes each card's key digit has (1 for a card nothing is asked of).
    not_dealt : int64[6]
        The code of a third card that is not dealt.
    outcome_code : int64[10, 10, 11, 11]
        The key's leading digit for each (player score, banker score, player third,
        banker third) cell, third cards as values or NO_THIRD.
    third_card : bool[10, 10, 12]
        The third-card rule, a :attr:`analyzer.game.rules.Tableau.third_card`.
    walk : bool[5]
        Which fields of WALK_FIELDS the key ends with (see ``_walk_digits``).
    type_ranks, type_suits : int64[T]
        Rank and suit index of each fine type, where the walk fields read them.
    pattern_index : int64[7**6]
        The PATTERNS index of each rank pattern code (see ``_pattern``).
    suit_cards : int64[p]
        The cards counted by suit pattern (:attr:`CardPlan.suit_pattern`; empty: none).
        Each round is then counted once per pattern of their suits, the key's last digit
        (``suit_code_index`` of the pattern's code, :class:`_SuitPatterns`), and those
        cards' ways are the pattern's (``_suit_pattern_ways``) from ``type_suit_counts``
        (:attr:`_FineTypes.suit_counts`).
    order : int64[m]
        Empty to deal whole rounds; otherwise only these of the first four cards are dealt,
        in this order (:attr:`CardPlan.dealt_alone`).
    prefix : int64[m]
        The class of each of the first ``m`` cards dealt (empty: every class): one share
        of the walk, so that a long walk comes back to Python between shares.
    out : int64[n_cells]
        Zeroed by the caller; on return ``out[key]`` holds the ordered six-card sequences
        of every round with that key. They sum to N (N-1) ... (N-5).
    cell_class : int64[n_cells] or int64[0]
        Empty to count; otherwise the walk records terms instead (``out`` is left alone):
        each round whose key has a class ``c >= 0`` adds 1 to
        ``tally[signature * n_classes + c]``, ``signature`` the packed multiset of what it
        deals (see ``_signature``) and ``n_classes = cell_class.max() + 1``.
    tally : Dict[int64, int64]
        Where the terms are recorded (untouched when counting).

    max_terms : int
        Recording stops past this many entries in ``tally``.

    Returns
    -------
    bool
        False when recording stopped short.
    """
    n_types = type_counts.shape[0]
    record = cell_class.shape[0] > 0
    n_cell_classes = cell_class.max() + 1 if record else 0
    symbols = np.zeros(ROUND_CARDS, dtype=np.int64)
    total = value_counts.sum()
    taken_type = np.zeros(n_types, dtype=np.int64)  # fine-typed cards dealt, by type
    taken_fine_value = np.zeros(N_VALUES, dtype=np.int64)  # fine-typed cards, by value
    taken_value = np.zeros(N_VALUES, dtype=np.int64)  # value-dealt cards, by value
    chosen = np.zeros(ROUND_CARDS, dtype=np.int64)  # class dealt at each card
    chosen_value = np.zeros(ROUND_CARDS, dtype=np.int64)
    dealt = np.zeros(ROUND_CARDS, dtype=np.bool_)
    seen = np.zeros(N_VALUES, dtype=np.int64)
    card_ranks = np.full(ROUND_CARDS, -1, dtype=np.int64)
    card_suits = np.full(ROUND_CARDS, -1, dtype=np.int64)
    rank_count = np.zeros(N_RANKS, dtype=np.int64)
    any_walk = walk.any()
    reads_cards = walk[1:].any()  # beyond the highest value, the walk fields read cards
    n_classes = np.empty(ROUND_CARDS, dtype=np.int64)
    for card in range(ROUND_CARDS):
        n_classes[card] = n_types if fine[card] else N_VALUES
    by_pattern = np.zeros(ROUND_CARDS, dtype=np.bool_)
    for card in suit_cards:
        by_pattern[card] = True
    n_patterns = suit_code_index.max() + 1 if suit_cards.shape[0] > 0 else 0
    scratch = _suit_scratch(type_suit_counts.shape[1])
    # Cards in the order the loops deal them: P1, B1, P2, B2, then a third card.
    stack_class = np.zeros(ROUND_CARDS, dtype=np.int64)
    depth_card = np.zeros(ROUND_CARDS, dtype=np.int64)
    # An explicit stack of cards keeps the walk one loop for every shape of round.
    alone = order.shape[0] > 0
    depth = 0
    depth_card[0] = order[0] if alone else 0
    stack_class[0] = -1
    while depth >= 0:
        card = depth_card[depth]
        # Take back the class this card held, then try the next one.
        if stack_class[depth] >= 0:
            c = stack_class[depth]
            if fine[card]:
                taken_type[c] -= 1
                taken_fine_value[type_values[c]] -= 1
            else:
                taken_value[c] -= 1
            dealt[card] = False
        c = stack_class[depth] + 1
        last = n_classes[card]
        if depth < prefix.shape[0]:  # this card's class is the share's
            c = prefix[depth] if stack_class[depth] < 0 else last
            last = min(last, c + 1)
        placed = False
        while c < last:
            if fine[card]:
                left = type_counts[c] - taken_type[c]
                v = type_values[c]
            else:
                v = c
                left = value_counts[v] - taken_fine_value[v] - taken_value[v]
            if left > 0:
                placed = True
                break
            c += 1
        if not placed:
            stack_class[depth] = -1
            depth -= 1
            continue
        stack_class[depth] = c
        if fine[card]:
            taken_type[c] += 1
            taken_fine_value[v] += 1
        else:
            taken_value[v] += 1
        chosen[card] = c
        chosen_value[card] = v
        dealt[card] = True
        # Which card comes next, if any.
        nxt = -1
        if alone:
            if depth + 1 < order.shape[0]:
                nxt = order[depth + 1]
        elif depth < 3:
            nxt = depth + 1
        else:
            player2 = (chosen_value[0] + chosen_value[2]) % 10
            banker2 = (chosen_value[1] + chosen_value[3]) % 10
            if depth == 3:
                if player_draws(third_card, player2, banker2):
                    nxt = 4
                elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                    nxt = 5
            elif card == 4 and banker_draws(third_card, player2, banker2, chosen_value[4]):
                nxt = 5
        if nxt >= 0:
            depth += 1
            depth_card[depth] = nxt
            stack_class[depth] = -1
            continue
        # A whole round: its weight, then its key.
        weight = 1
        used = 0
        for k in range(ROUND_CARDS):
            if not dealt[k]:
                continue
            used += 1
            if fine[k] and not by_pattern[k]:
                # k-th card of its type among the fine-typed: dealt before the others,
                # and after those counted by suit pattern.
                same = 0
                for j in range(ROUND_CARDS):
                    earlier = j < k or by_pattern[j]
                    if earlier and dealt[j] and fine[j] and chosen[j] == chosen[k]:
                        same += 1
                factor = type_counts[chosen[k]] - same
                if factor <= 0:
                    weight = 0
                weight *= factor
        for k in range(N_VALUES):
            seen[k] = 0
        for k in range(ROUND_CARDS):
            if dealt[k] and not fine[k]:
                v = chosen_value[k]
                # What is left of its value once every fine-typed card of it is dealt.
                factor = value_counts[v] - taken_fine_value[v] - seen[v]
                if factor <= 0:
                    weight = 0
                weight *= factor
                seen[v] += 1
        for j in range(ROUND_CARDS - used):
            weight *= total - used - j
        if weight <= 0:
            continue
        player = (chosen_value[0] + chosen_value[2]) % 10
        banker = (chosen_value[1] + chosen_value[3]) % 10
        player_third = NO_THIRD
        banker_third = NO_THIRD
        if dealt[4]:
            player_third = chosen_value[4]
            player = (player + player_third) % 10
        if dealt[5]:
            banker_third = chosen_value[5]
            banker = (banker + banker_third) % 10
        key = outcome_code[player, banker, player_third, banker_third]
        highest = 0
        for k in range(ROUND_CARDS):
            if dealt[k]:
                code = fine_codes[k, chosen[k]] if fine[k] else value_codes[k, chosen[k]]
                highest = max(highest, chosen_value[k])
            else:
                code = not_dealt[k]
            key = key * radix[k] + code
        if any_walk:
            if reads_cards:
                for k in range(ROUND_CARDS):
                    dealt_fine = dealt[k] and fine[k]
                    card_ranks[k] = type_ranks[chosen[k]] if dealt_fine else -1
                    card_suits[k] = type_suits[chosen[k]] if dealt_fine else -1
            key = _walk_digits(
                key, walk, highest, card_ranks, card_suits, rank_count, pattern_index
            )
        if record:
            c = cell_class[key]
            if c >= 0:
                n_symbols = 0
                for k in range(ROUND_CARDS):
                    if dealt[k]:
                        symbols[n_symbols] = chosen[k] if fine[k] else n_types + chosen[k]
                        n_symbols += 1
                term = _signature(symbols, n_symbols) * n_cell_classes + c
                tally[term] = tally.get(term, 0) + 1
                if len(tally) > max_terms:
                    return False
            continue
        if n_patterns > 0:
            _count_suit_patterns(
                key * n_patterns,
                weight,
                suit_cards,
                suit_code_index,
                type_suit_counts,
                dealt,
                chosen,
                scratch,
                out,
            )
            continue
        out[key] += weight
    return True


@njit(cache=True)
def _suit_scratch(n_columns):
    """Scratch space of ``_count_suit_patterns``: the ways of each block in each suit
    column, each depth's row of them before its card joined, and per depth (cards placed
    so far) the card's block and type, the blocks open, the code so far, its digit's
    place, whether its card is placed, and the ways so far (one column)."""
    ways = np.ones((N_SUITS, max(n_columns, 1)), dtype=np.int64)
    saved = np.zeros((ROUND_CARDS + 1, max(n_columns, 1)), dtype=np.int64)
    ints = np.zeros((7, ROUND_CARDS + 1), dtype=np.int64)
    return ways, saved, ints


@njit(cache=True)
def _count_suit_patterns(
    base, weight, suit_cards, suit_code_index, type_suit_counts, dealt, chosen, scratch, out
):
    """Add one round (``weight``: its ways less those of the cards counted by suit
    pattern) to ``out[base + i]`` for every suit pattern ``i`` of those cards, times the
    pattern's ways. The patterns are dealt card by card (each card joins a block already
    open or opens the next), the ways of each block in each suit kept as they grow."""
    ways, saved, ints = scratch
    label, kind, opened, code, place, placed, product = (
        ints[0],
        ints[1],
        ints[2],
        ints[3],
        ints[4],
        ints[5],
        ints[6],
    )
    n_cards = suit_cards.shape[0]
    m = 0
    undealt = 0
    for i in range(n_cards):
        digit_place = 1
        for _ in range(n_cards - 1 - i):
            digit_place *= _NO_BLOCK + 1
        card = suit_cards[i]
        if dealt[card]:
            kind[m] = chosen[card]
            place[m] = digit_place
            m += 1
        else:
            undealt += _NO_BLOCK * digit_place
    if m == 0:
        out[base + suit_code_index[undealt]] += weight
        return
    # Every suit alike for the types dealt (always, with one column): a block's ways are
    # the same in each suit (``product``: all blocks' together). Else each block's row
    # of ways, put back as the walk backs up.
    alike = True
    for i in range(m):
        for s in range(1, type_suit_counts.shape[1]):
            if type_suit_counts[kind[i], s] != type_suit_counts[kind[i], 0]:
                alike = False
    depth = 0
    label[0] = -1
    placed[0] = 0
    opened[0] = 0
    code[0] = undealt
    product[0] = weight
    while depth >= 0:
        b = label[depth]
        if placed[depth]:
            placed[depth] = 0
            if not alike:
                ways[b, :] = saved[depth]
        b += 1
        label[depth] = b
        if b > opened[depth] or b >= N_SUITS:
            depth -= 1
            continue
        t = kind[depth]
        same = 0
        for j in range(depth):
            if label[j] == b and kind[j] == t:
                same += 1
        if alike:
            left = type_suit_counts[t, 0] - same
            if left <= 0:
                continue
            product[depth + 1] = product[depth] * left
        else:
            saved[depth] = ways[b, :]
            placed[depth] = 1
            any_left = False
            for s in range(N_SUITS):
                left = max(type_suit_counts[t, s] - same, 0)
                ways[b, s] *= left
                if ways[b, s] > 0:
                    any_left = True
            if not any_left:
                continue
        opened[depth + 1] = max(opened[depth], b + 1)
        code[depth + 1] = code[depth] + b * place[depth]
        if depth + 1 < m:
            depth += 1
            label[depth] = -1
            placed[depth] = 0
            continue
        blocks = opened[m]
        if alike:
            pattern_ways = product[m]
            for j in range(blocks):
                pattern_ways *= N_SUITS - j
        else:
            pattern_ways = weight * _one_to_one(ways, blocks)
        if pattern_ways > 0:
            out[base + suit_code_index[code[m]]] += pattern_ways


@njit(cache=True)
def _one_to_one(ways, blocks):
    """The sum, over every way to give ``blocks`` blocks distinct suits, of the product of
    ``ways[b, s]``, the ways of block ``b`` in suit ``s`` (a permanent, at most 4 x 4)."""
    total = 0
    if blocks == 1:
        for s in range(N_SUITS):
            total += ways[0, s]
        return total
    last = 0
    for s in range(N_SUITS):
        last += ways[blocks - 1, s]
    for s0 in range(N_SUITS):
        if ways[0, s0] == 0:
            continue
        if blocks == 2:
            total += ways[0, s0] * (last - ways[1, s0])
            continue
        for s1 in range(N_SUITS):
            if s1 == s0 or ways[1, s1] == 0:
                continue
            w01 = ways[0, s0] * ways[1, s1]
            if blocks == 3:
                total += w01 * (last - ways[2, s0] - ways[2, s1])
                continue
            # Four blocks: the other two suits, either way round.
            a = -1
            for s in range(N_SUITS):
                if s != s0 and s != s1:
                    if a < 0:
                        a = s
                    else:
                        total += w01 * (ways[2, a] * ways[3, s] + ways[2, s] * ways[3, a])
    return total


@njit(cache=True)
def _first_four_weight(classes, fine, type_counts, type_values, value_counts):
    """Ordered ways to deal the first four cards as these classes (fine types or values):
    the fine-typed cards first, then the value-dealt ones from what is left of their value
    (see the module docstring). 0 when the shoe cannot deal them."""
    weight = 1
    fine_of_value = np.zeros(N_VALUES, dtype=np.int64)
    for k in range(4):
        if fine[k]:
            fine_of_value[type_values[classes[k]]] += 1
            same = 0
            for j in range(k):
                if fine[j] and classes[j] == classes[k]:
                    same += 1
            factor = type_counts[classes[k]] - same
            if factor <= 0:
                return 0
            weight *= factor
    for k in range(4):
        if not fine[k]:
            v = classes[k]
            same = 0
            for j in range(k):
                if not fine[j] and classes[j] == v:
                    same += 1
            factor = value_counts[v] - fine_of_value[v] - same
            if factor <= 0:
                return 0
            weight *= factor
    return weight


@njit(cache=True)
def _split_walk_jit(
    type_counts,
    type_values,
    value_counts,
    fine,
    fine_codes,
    value_codes,
    radix,
    not_dealt,
    outcome_code,
    third_card,
    walk,
    type_ranks,
    type_suits,
    pattern_index,
    types_of_value,
    n_types_of_value,
    prefix,
    out,
):
    """The walk when no third card needs more than its value: per tuple of first-four
    values, the draw of the third cards once, then every way to deal those values.

    Parameters are those of ``_card_walk_jit`` (third cards dealt by value), and
    ``types_of_value`` : int64[10, max_types], ``n_types_of_value`` : int64[10], the fine
    types of each point value (padded); ``prefix`` : int64[m], m <= 2, the point values
    of the first ``m`` cards (Player's and Banker's first) of this share of the walk.
    """
    total = value_counts.sum()
    left = np.zeros(N_VALUES, dtype=np.int64)
    # The draw of one tuple: outcome code, third-card codes, highest third value, ways.
    draw_outcome = np.zeros(128, dtype=np.int64)
    draw_code4 = np.zeros(128, dtype=np.int64)
    draw_code5 = np.zeros(128, dtype=np.int64)
    draw_max = np.zeros(128, dtype=np.int64)
    draw_ways = np.zeros(128, dtype=np.int64)
    classes = np.zeros(4, dtype=np.int64)
    first = np.zeros(4, dtype=np.int64)
    counts = np.zeros(4, dtype=np.int64)
    card_ranks = np.full(ROUND_CARDS, -1, dtype=np.int64)
    card_suits = np.full(ROUND_CARDS, -1, dtype=np.int64)
    rank_count = np.zeros(N_RANKS, dtype=np.int64)
    a_values = prefix[:1] if prefix.shape[0] > 0 else np.arange(N_VALUES)
    b_values = prefix[1:2] if prefix.shape[0] > 1 else np.arange(N_VALUES)
    for a in a_values:
        for b in b_values:
            for c in range(N_VALUES):
                for d in range(N_VALUES):
                    first[0], first[1], first[2], first[3] = a, b, c, d
                    for v in range(N_VALUES):
                        left[v] = value_counts[v]
                    possible = True
                    for k in range(4):
                        left[first[k]] -= 1
                        if left[first[k]] < 0:
                            possible = False
                    if not possible:
                        continue
                    player2 = (a + c) % 10
                    banker2 = (b + d) % 10
                    n = 0
                    if player_draws(third_card, player2, banker2):
                        for x in range(N_VALUES):
                            wx = left[x]
                            if wx == 0:
                                continue
                            player3 = (player2 + x) % 10
                            if banker_draws(third_card, player2, banker2, x):
                                left[x] -= 1
                                for y in range(N_VALUES):
                                    wy = left[y]
                                    if wy == 0:
                                        continue
                                    draw_outcome[n] = outcome_code[
                                        player3, (banker2 + y) % 10, x, y
                                    ]
                                    draw_code4[n] = value_codes[4, x]
                                    draw_code5[n] = value_codes[5, y]
                                    draw_max[n] = max(x, y)
                                    draw_ways[n] = wx * wy
                                    n += 1
                                left[x] += 1
                            else:
                                draw_outcome[n] = outcome_code[player3, banker2, x, NO_THIRD]
                                draw_code4[n] = value_codes[4, x]
                                draw_code5[n] = not_dealt[5]
                                draw_max[n] = x
                                draw_ways[n] = wx * (total - 5)
                                n += 1
                    elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
                        for y in range(N_VALUES):
                            wy = left[y]
                            if wy == 0:
                                continue
                            draw_outcome[n] = outcome_code[player2, (banker2 + y) % 10, NO_THIRD, y]
                            draw_code4[n] = not_dealt[4]
                            draw_code5[n] = value_codes[5, y]
                            draw_max[n] = y
                            draw_ways[n] = wy * (total - 5)
                            n += 1
                    else:  # a natural, or both hands stand
                        draw_outcome[n] = outcome_code[player2, banker2, NO_THIRD, NO_THIRD]
                        draw_code4[n] = not_dealt[4]
                        draw_code5[n] = not_dealt[5]
                        draw_max[n] = -1
                        draw_ways[n] = (total - 4) * (total - 5)
                        n += 1
                    # Rounds that differ only in what no digit shows add up into one.
                    merged = 0
                    for e in range(n):
                        if not walk[0]:
                            draw_max[e] = 0
                        found = -1
                        for f in range(merged):
                            if (
                                draw_outcome[f] == draw_outcome[e]
                                and draw_code4[f] == draw_code4[e]
                                and draw_code5[f] == draw_code5[e]
                                and draw_max[f] == draw_max[e]
                            ):
                                found = f
                                break
                        if found >= 0:
                            draw_ways[found] += draw_ways[e]
                        else:
                            draw_outcome[merged] = draw_outcome[e]
                            draw_code4[merged] = draw_code4[e]
                            draw_code5[merged] = draw_code5[e]
                            draw_max[merged] = draw_max[e]
                            draw_ways[merged] = draw_ways[e]
                            merged += 1
                    n = merged
                    highest = max(max(a, b), max(c, d))
                    for k in range(4):
                        counts[k] = n_types_of_value[first[k]] if fine[k] else 1
                    for i0 in range(counts[0]):
                        classes[0] = types_of_value[a, i0] if fine[0] else a
                        for i1 in range(counts[1]):
                            classes[1] = types_of_value[b, i1] if fine[1] else b
                            for i2 in range(counts[2]):
                                classes[2] = types_of_value[c, i2] if fine[2] else c
                                for i3 in range(counts[3]):
                                    classes[3] = types_of_value[d, i3] if fine[3] else d
                                    weight = _first_four_weight(
                                        classes, fine, type_counts, type_values, value_counts
                                    )
                                    if weight == 0:
                                        continue
                                    prefix = 0
                                    for k in range(4):
                                        code = (
                                            fine_codes[k, classes[k]]
                                            if fine[k]
                                            else value_codes[k, classes[k]]
                                        )
                                        prefix = prefix * radix[k] + code
                                        if fine[k]:
                                            card_ranks[k] = type_ranks[classes[k]]
                                            card_suits[k] = type_suits[classes[k]]
                                    for e in range(n):
                                        key = draw_outcome[e]
                                        for k in range(4):
                                            key *= radix[k]
                                        key += prefix
                                        key = (key * radix[4] + draw_code4[e]) * radix[5]
                                        key += draw_code5[e]
                                        key = _walk_digits(
                                            key,
                                            walk,
                                            max(highest, draw_max[e]),
                                            card_ranks,
                                            card_suits,
                                            rank_count,
                                            pattern_index,
                                        )
                                        out[key] += weight * draw_ways[e]


def _outcome_codes(
    outcome: tuple[str, ...], naturals: tuple[int, ...]
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """One code per distinct tuple of the asked outcome fields, for every outcome cell."""
    ps, bs, pt, bt = np.meshgrid(
        np.arange(10), np.arange(10), np.arange(11), np.arange(11), indexing="ij"
    )
    columns = derived_columns(
        ps.ravel(),
        bs.ravel(),
        third_card_field(pt.ravel()),
        third_card_field(bt.ravel()),
        naturals,
    )
    if not outcome:
        return np.zeros((10, 10, 11, 11), dtype=np.int64), {}
    keys = np.stack(
        [np.unique(columns[f], return_inverse=True)[1].reshape(-1) for f in outcome], axis=1
    )
    _, first, code = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    return code.reshape(10, 10, 11, 11).astype(np.int64), {f: columns[f][first] for f in outcome}


@dataclass(frozen=True, eq=False)
class _Layout:
    """How the walk deals and keys the rounds of a plan on a shoe."""

    types: _FineTypes
    arguments: tuple
    shape: tuple[int, ...]
    outcome_columns: dict[str, np.ndarray]
    shown: list[list[dict]]
    #: The cards dealt alone (:attr:`CardPlan.dealt_alone`), empty for whole rounds.
    order: np.ndarray
    #: Whole rounds whose third cards are dealt by value: the split walk counts them.
    split: bool
    types_of_value: np.ndarray
    n_types_of_value: np.ndarray
    #: The shares of the walk, each the classes of its first cards dealt (one call each).
    shares: list[np.ndarray]
    #: About how many rounds the walk visits.
    visits: int
    #: The suit patterns counted (:attr:`CardPlan.suit_pattern`; None: suits as they are)
    #: and the whole walk's arguments for them (see ``_card_walk_jit``).
    suit_patterns: _SuitPatterns | None = None
    suit_arguments: tuple = (_NOTHING, _NOTHING, np.zeros((0, 0), dtype=np.int64))


def _layout(card_plan: CardPlan, shoe: Shoe, tableau: Tableau = STANDARD_TABLEAU) -> _Layout:
    if card_plan.needs_suits and not shoe.suits_known:
        raise AnalyzerError(
            "the suits of some cards are unknown: suits and colours cannot be counted exactly"
        )
    types = _fine_types(card_plan, shoe)
    fine = np.array(card_plan.fine)
    fine_codes = np.zeros((ROUND_CARDS, len(types.counts)), dtype=np.int64)
    value_codes = np.zeros((ROUND_CARDS, N_VALUES), dtype=np.int64)
    radix = np.ones(ROUND_CARDS, dtype=np.int64)
    not_dealt = np.zeros(ROUND_CARDS, dtype=np.int64)
    shown = []
    for card in range(ROUND_CARDS):
        codes, rows, n_codes = _codes(card_plan, card, types)
        (fine_codes if card_plan.fine[card] else value_codes)[card] = codes
        if card >= 4 and card_plan.needs[card]:  # a third card may not be dealt
            not_dealt[card] = n_codes
            n_codes += 1
        radix[card] = n_codes
        shown.append(rows)
    visits = _visits(card_plan, len(types.counts))
    if visits > MAX_VISITS:
        raise AnalyzerError(
            f"the bets ask for about {visits:.1e} kinds of deal to be told apart (at most "
            f"{MAX_VISITS:.0e} are walked): they ask too much of too many cards at once"
        )
    outcome_code, outcome_columns = _outcome_codes(card_plan.outcome, tableau.naturals)
    n_outcomes = int(outcome_code.max()) + 1
    walk = np.array([name in card_plan.walk for name in WALK_FIELDS])
    shape = (n_outcomes, *radix.tolist(), *(_WALK_RADIX[name] for name in card_plan.walk))
    patterns = None
    if card_plan.suit_pattern:
        patterns = _SuitPatterns.of(card_plan.suit_pattern)
        shape = (*shape, len(patterns.suits))
    cells = prod(shape)
    if cells > MAX_CELLS:
        raise AnalyzerError(
            f"the bets ask for {cells:,} distinct kinds of round at once (at most "
            f"{MAX_CELLS:,} are counted exactly in one table): split the paytable"
        )
    arguments = (
        types.counts,
        types.values,
        shoe.value_counts,
        fine,
        fine_codes,
        value_codes,
        radix,
        not_dealt,
        outcome_code,
        tableau.third_card,
        walk,
        types.ranks,
        types.suits,
        _PATTERN_INDEX,
    )
    by_value = [np.nonzero(types.values == v)[0] for v in range(N_VALUES)]
    types_of_value = np.zeros((N_VALUES, max(1, *map(len, by_value))), dtype=np.int64)
    for v, members in enumerate(by_value):
        types_of_value[v, : len(members)] = members
    n_types = np.array([len(members) for members in by_value], dtype=np.int64)
    # (The split walk deals no suit patterns: those rounds are walked card by card.)
    split = not card_plan.dealt_alone and not fine[4:].any() and patterns is None
    # The split walk's shares are the first cards' point values; the other's, classes.
    first = card_plan.dealt_alone[:2] or (0, 1)
    n_first = [N_VALUES if split or not fine[card] else len(types.counts) for card in first]
    return _Layout(
        types,
        arguments,
        shape,
        outcome_columns,
        shown,
        np.array(card_plan.dealt_alone, dtype=np.int64),
        split,
        types_of_value,
        n_types,
        _shares(visits, n_first),
        visits,
        *(
            ()
            if patterns is None
            else (
                patterns,
                (
                    np.array(card_plan.suit_pattern, dtype=np.int64),
                    patterns.index,
                    types.suit_counts,
                ),
            )
        ),
    )


#: Rounds one call of a walk kernel visits, about, at most (the walk visits some 5e7 a
#: second): the walk is dealt in shares, one call each, and between two calls it is back
#: in Python, which answers Ctrl-C.
SHARE_VISITS = 2 * 10**7


def _shares(visits: int, n_first: list[int]) -> list[np.ndarray]:
    """The shares of a walk of ``visits`` rounds: every class of none, one or two of its
    first cards (``n_first`` classes each), as few as keep each share to SHARE_VISITS."""
    fixed = 0
    while fixed < len(n_first) and visits > SHARE_VISITS:
        visits //= n_first[fixed]
        fixed += 1
    if not fixed:
        return [_NOTHING]
    grid = np.indices(n_first[:fixed]).reshape(fixed, -1).T
    return [np.ascontiguousarray(share, dtype=np.int64) for share in grid]


def _visits(card_plan: CardPlan, n_types: int) -> int:
    """About how many rounds the walk visits (the split walk: about as many)."""
    classes = [n_types if fine else N_VALUES for fine in card_plan.fine]
    # Each round is counted once per pattern of the suits it deals (fewer where a third
    # card is missing).
    patterns = _n_partitions(len(card_plan.suit_pattern))
    if card_plan.dealt_alone:
        return prod(classes[card] for card in card_plan.dealt_alone) * patterns
    return prod(classes[:4]) * (1 + classes[4] * (1 + classes[5])) * patterns


def _count(layout: _Layout, shoe: Shoe) -> np.ndarray:
    """Ordered six-card sequences of every key (the dense array the walk fills)."""
    out = np.zeros(prod(layout.shape), dtype=np.int64)
    for share in layout.shares:
        if layout.split:
            by_value = (layout.types_of_value, layout.n_types_of_value)
            _split_walk_jit(*layout.arguments, *by_value, share, out)
        else:
            unused = _empty_tally()
            _card_walk_jit(
                *layout.arguments,
                *layout.suit_arguments,
                layout.order,
                share,
                out,
                _NOTHING,
                unused,
                0,
            )
    denominator = shoe.rounds_denominator
    total = int(out.sum(dtype=np.int64))
    if total != denominator:  # a broken kernel must never hand out a wrong number
        raise AssertionError(f"card walk counts sum to {total}, expected {denominator}")
    return out


def _empty_tally():
    return NumbaDict.empty(key_type=int64, value_type=int64)


def _key_columns(card_plan: CardPlan, layout: _Layout, keys: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of the rounds with these keys."""
    digits = np.unravel_index(keys, layout.shape)
    columns = {f: values[digits[0]] for f, values in layout.outcome_columns.items()}
    for card, rows in enumerate(layout.shown):
        columns |= _card_columns(card, rows, digits[1 + card])
    for i, name in enumerate(card_plan.walk):
        digit = digits[1 + ROUND_CARDS + i]
        if name == "max_card_value":
            columns[name] = digit.astype(np.int64)
        elif FIELD[name].kind is bool:
            columns[name] = digit == 1
        else:
            columns[name] = np.array(PATTERNS)[digit]
    if layout.suit_patterns is not None:
        # The suits named in order of first appearance: a bet that only compares suits
        # with each other settles each pattern as it would any one labelling of it.
        suits = layout.suit_patterns.suits[digits[-1]]
        for i, card in enumerate(card_plan.suit_pattern):
            columns[f"{CARDS[card]}_suit"] = suits[:, i]
    columns |= _pair_columns(card_plan, columns)
    return {f: columns[f] for f in card_plan.fields}


#: What bets share when they share a walk: the fields they ask for, the constants they
#: compare text fields with, and the text fields they compare only with each other.
WalkKey = tuple[frozenset[str], frozenset, frozenset[str]]


def walk_key(bet) -> WalkKey:
    """Bets asking the same of the cards share one walk (and one outcome table)."""
    return (bet.fields, frozenset(bet.literals.items()), bet.relational)


class CardWalk:
    """One card walk, planned but not yet walked: its limits (kinds of round told apart,
    rounds walked, suits known) are checked and its cost known (:attr:`visits`) before
    any of it is done, so that a command can add up its walks and refuse at once.

    ``mixture``: the pure tableaus the hands draw by and their weights (default: the
    standard tableau; a mixed strategy: :meth:`~analyzer.game.rules.DrawingRules.mixture`),
    a walk each, summed exactly."""

    def __init__(
        self,
        shoe: Shoe,
        fields: frozenset[str] | set[str],
        literals: Mapping[str, frozenset[str]] | None = None,
        relational: frozenset[str] | set[str] | None = None,
        mixture: Mixture = STANDARD_MIXTURE,
    ) -> None:
        self.shoe = shoe
        self.fields = frozenset(fields)
        self.literals = dict(literals or {})
        self.relational = frozenset(relational or ())
        self.plan = plan(self.fields, literals, self.relational)
        self._layouts = [(weight, _layout(self.plan, shoe, tableau)) for weight, tableau in mixture]
        self._table: OutcomeTable | None = None

    @property
    def visits(self) -> int:
        """About how many rounds the walk visits (every tableau of a mixture)."""
        return sum(layout.visits for _, layout in self._layouts)

    def table(self) -> OutcomeTable:
        """Every round of the shoe, told apart as far as the fields ask, with exact ways
        (walked once: bets sharing the walk share the table)."""
        if self._table is None:
            parts = [(weight, _count(layout, self.shoe)) for weight, layout in self._layouts]
            out, denominator = mixed_counts(parts, self.shoe.rounds_denominator)
            (keys,) = np.nonzero(out)
            columns = _key_columns(self.plan, self._layouts[0][1], keys)
            self._table = OutcomeTable(columns, out[keys], denominator, "card")
        return self._table


def card_outcome_table(
    shoe: Shoe,
    fields: frozenset[str] | set[str],
    literals: Mapping[str, frozenset[str]] | None = None,
    relational: frozenset[str] | set[str] | None = None,
    rules: DrawingRules | None = None,
    strategy: Strategy | None = None,
) -> OutcomeTable:
    """Every round of ``shoe``, told apart as far as ``fields`` ask, with exact ways.

    ``literals`` (a bet's :attr:`~analyzer.paytables.model.Bet.literals`) lets text
    fields compared only with constants tell just those apart; the table then shows, for
    the rest, a value that none of those constants equals. ``relational`` (a bet's
    :attr:`~analyzer.paytables.model.Bet.relational`) lets suits compared only with each
    other be counted by pattern (:attr:`CardPlan.suit_pattern`); the table then shows
    each pattern once, its suits named S, H, D, C in order of first appearance.
    ``rules`` and ``strategy`` say how the hands draw (default: the standard tableau).
    """
    rules = STANDARD if rules is None else rules
    return CardWalk(shoe, fields, literals, relational, rules.mixture(strategy)).table()


def _card_columns(card: int, rows: list[dict], code: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of one card from its key digits (the code past the rows: not dealt)."""
    name = CARDS[card]
    columns = {}
    for attribute in rows[0] if rows else ():
        if attribute == "value":
            table = np.array([row[attribute] for row in rows] + [NO_THIRD_CARD], dtype=np.int64)
        else:
            table = np.array([str(row[attribute]) for row in rows] + [NOT_DEALT])
        columns[f"{name}_{attribute}"] = table[code]
    return columns


def _pair_columns(card_plan: CardPlan, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Pair fields asked alongside card fields, from the first two cards of each hand."""
    out = {}
    for hand, first, second in (
        ("player", "player_card1", "player_card2"),
        ("banker", "banker_card1", "banker_card2"),
    ):
        if f"{hand}_pair" in card_plan.fields or f"{hand}_suited_pair" in card_plan.fields:
            same_rank = columns[f"{first}_rank"] == columns[f"{second}_rank"]
            out[f"{hand}_pair"] = same_rank
            if f"{hand}_suited_pair" in card_plan.fields:
                out[f"{hand}_suited_pair"] = same_rank & (
                    columns[f"{first}_suit"] == columns[f"{second}_suit"]
                )
    return out


#: The most (term, class) entries compiled terms may hold (about 100 bytes each while
#: they are tallied).
MAX_TERMS = 4_000_000
#: Terms have at most one factor per symbol (six cards) and the factor of the rest of the
#: six-card sequence.
MAX_FACTORS = ROUND_CARDS + 1


@dataclass(frozen=True, eq=False)
class CardTerms:
    """The card walk of a plan compiled into terms, for any shoe.

    A round's weight depends only on how many cards of each fine type it deals (``k_t``),
    how many it deals by point value (``m_v``) and how many in all (``u``)::

        weight = prod_t ff(n_t, k_t) * prod_v ff(N_v - K_v, m_v) * ff(N - u, 6 - u)

    (``K_v``: the fine-typed cards of value ``v``). Each term is a product of at most
    :data:`MAX_FACTORS` falling factorials ``ff(counts[slot] - offset, power)`` over the
    count vector of a shoe: its fine types (``members`` of the shoe's cards), then its
    10 point values, then its size (see :func:`term_counts`). ``count[i]`` rounds of term
    ``term_index[i]`` end in a cell of class ``cell_class[i]``.
    """

    members: np.ndarray
    by_suit: bool
    n_types: int
    slot: np.ndarray
    offset: np.ndarray
    power: np.ndarray
    term_index: np.ndarray
    cell_class: np.ndarray
    count: np.ndarray

    def term_counts(self, compositions: np.ndarray) -> np.ndarray:
        """The count vector of each composition, (n, n_types + 11) floats: cards of each
        fine type, of each point value, and in all. ``compositions`` are (n, 52) counts by
        card when the terms need suits, else (n, 13) by rank."""
        n = len(compositions)
        ranks = compositions.reshape(n, N_RANKS, -1).sum(axis=2)
        if not self.by_suit:
            compositions = ranks
        out = np.zeros((n, self.n_types + N_VALUES + 1))
        for kind, t in enumerate(self.members.tolist()):
            out[:, t] += compositions[:, kind]
        for rank in range(N_RANKS):
            out[:, self.n_types + RANK_VALUES[rank]] += ranks[:, rank]
        out[:, -1] = ranks.sum(axis=1)
        return out

    def class_ways(self, compositions: np.ndarray) -> np.ndarray:
        """Exact ordered six-card sequences of each class on each composition, (n,
        n_classes) int64: the terms evaluated in integers, every falling factorial and
        every sum within int64 as the walk's own counts are. A class no term reaches is
        0; rounds of class -1 are not counted."""
        counts = np.rint(self.term_counts(np.asarray(compositions))).astype(np.int64)
        n_classes = int(self.cell_class.max()) + 1 if len(self.cell_class) else 0
        out = np.zeros((len(counts), n_classes), dtype=np.int64)
        weights = np.zeros(len(self.slot), dtype=np.int64)
        for row in range(len(counts)):  # a composition at a time: back in Python between
            _term_weights_jit(counts[row], self.slot, self.offset, self.power, weights)
            _class_ways_jit(weights, self.term_index, self.cell_class, self.count, out[row])
        return out


@njit(cache=True)
def _term_weights_jit(counts, slot, offset, power, weights):
    """Each term's weight on one count vector, exactly: the product of its falling
    factorials ff(counts[slot] - offset, power) (0 where a factor runs out of cards)."""
    for t in range(slot.shape[0]):
        weight = 1
        for f in range(slot.shape[1]):
            s = slot[t, f]
            if s < 0:
                break
            base = counts[s] - offset[t, f]
            for j in range(power[t, f]):
                if base - j <= 0:
                    weight = 0
                    break
                weight *= base - j
            if weight == 0:
                break
        weights[t] = weight


@njit(cache=True)
def _class_ways_jit(weights, term_index, cell_class, count, out):
    """Sum ``count[i]`` times its term's weight into its class, for every recorded i."""
    for i in range(term_index.shape[0]):
        c = cell_class[i]
        if c >= 0:
            out[c] += count[i] * weights[term_index[i]]


#: The reference shoe the terms are compiled on: six of every card, so that every
#: sequence of six classes can be dealt and every reachable key shows up.
_REFERENCE_DECKS = ROUND_CARDS


def walk_visits(
    fields: frozenset[str] | set[str],
    literals: Mapping[str, frozenset[str]] | None = None,
    relational: frozenset[str] | set[str] | None = None,
) -> int:
    """About how many rounds the walk visits for ``fields`` on a full shoe (without
    ``relational``: the walk :func:`card_terms` compiles, suits told apart as they are)."""
    card_plan = plan(frozenset(fields), literals, relational)
    return _visits(card_plan, len(_fine_types(card_plan, Shoe.standard(_REFERENCE_DECKS)).counts))


def card_terms(
    fields: frozenset[str] | set[str],
    literals: Mapping[str, frozenset[str]] | None,
    classify: Callable[[dict[str, np.ndarray]], np.ndarray],
    tableau: Tableau = STANDARD_TABLEAU,
) -> CardTerms | None:
    """Compile the walk for ``fields`` into terms, keeping the rounds that matter.

    ``classify`` gets the columns of every kind of round the fields tell apart and returns
    an int class for each: rounds of class -1 are left out (a bet's losing rounds, say),
    the others are tallied by term and class. None when they would take more than
    :data:`MAX_TERMS` entries (the memory of a few exact walks at most).

    Suits are told apart as they are, never by pattern (a term is a product of counts of
    card types, and a pattern's ways on a shoe whose suits differ are not one): bets that
    compare suits only with each other compile exactly, on as long a walk as they took
    before patterns (``walk_visits`` without ``relational``).
    """
    card_plan = plan(frozenset(fields), literals)
    reference = Shoe.standard(_REFERENCE_DECKS)
    layout = _layout(card_plan, reference, tableau)
    (keys,) = np.nonzero(_count(layout, reference))
    classes = np.asarray(classify(_key_columns(card_plan, layout, keys)), dtype=np.int64)
    cell_class = np.full(prod(layout.shape), -1, dtype=np.int64)
    cell_class[keys] = classes
    tally = _empty_tally()
    recording = (layout.order, _NOTHING, cell_class, tally, MAX_TERMS)
    if (classes >= 0).any() and not all(
        _card_walk_jit(
            *layout.arguments, *layout.suit_arguments, recording[0], share, *recording[1:]
        )
        for share in layout.shares
    ):
        return None
    n_classes = max(1, int(classes.max()) + 1)
    recorded = np.fromiter(tally.keys(), dtype=np.int64, count=len(tally))
    count = np.fromiter(tally.values(), dtype=np.int64, count=len(tally))
    signatures, term_index = np.unique(recorded // n_classes, return_inverse=True)
    n_types = len(layout.types.counts)
    slot = np.full((len(signatures), MAX_FACTORS), -1, dtype=np.int64)
    offset = np.zeros_like(slot)
    power = np.zeros_like(slot)
    _term_factors_jit(signatures, n_types, layout.types.values, slot, offset, power)
    return CardTerms(
        layout.types.members,
        card_plan.needs_suits,
        n_types,
        slot,
        offset,
        power,
        term_index.reshape(-1).astype(np.int64),
        recorded % n_classes,
        count,
    )


@njit(cache=True)
def _term_factors_jit(signatures, n_types, type_values, slot, offset, power):
    """Unpack each signature (see ``_signature``) into its factors (see
    :class:`CardTerms`): slot ``s`` for a symbol, ``n_types + 10`` for the rest of the
    sequence."""
    fine_of_value = np.zeros(N_VALUES, dtype=np.int64)
    mask = (1 << _SYMBOL_BITS) - 1
    for i in range(signatures.shape[0]):
        fine_of_value[:] = 0
        used = 0
        n_factors = 0
        previous = -1
        for place in range(ROUND_CARDS):
            symbol = ((signatures[i] >> (_SYMBOL_BITS * place)) & mask) - 1
            if symbol < 0:
                break
            used += 1
            if symbol < n_types:
                fine_of_value[type_values[symbol]] += 1
            if symbol == previous:
                power[i, n_factors - 1] += 1
            else:
                slot[i, n_factors] = symbol
                power[i, n_factors] = 1
                n_factors += 1
                previous = symbol
        # Symbols are sorted, fine types first: the value-dealt cards of a value come
        # after all fine-typed cards of that value.
        for f in range(n_factors):
            if slot[i, f] >= n_types:
                offset[i, f] = fine_of_value[slot[i, f] - n_types]
        slot[i, n_factors] = n_types + N_VALUES
        offset[i, n_factors] = used
        power[i, n_factors] = ROUND_CARDS - used
