"""The card walk's Numba kernels: pure array code over the structures below.

A layout (:mod:`analyzer.engine.card_walk.layout`) builds a :class:`Deal` once per plan,
shoe and tableau; the kernels only read it. Every structure is unpacked once at the top
of a kernel: a field read inside the walk's loops would cost a reference count each time
(it once made the walk ten times slower).

* :func:`walk_rounds` deals the rounds depth first, card by card, weighs and keys each;
  it is the one walk of :func:`count_rounds` (every round's weight added into its key),
  :func:`count_suit_patterns` (once per suit pattern of the cards counted by pattern,
  :class:`SuitPatterns`) and :func:`record_terms` (each kept round's term, the multiset
  of what it deals, tallied instead of its weight, :class:`Recorder`);
* :func:`split_walk` works out the draw once per tuple of the first four cards' values,
  when no third card needs more than its value;
* :func:`term_factors` unpacks the recorded terms, and :func:`term_weights` and
  :func:`class_ways` evaluate them on any composition.

Who draws is asked through :mod:`analyzer.engine.draw`, compiled from the one rule in
:mod:`analyzer.game.rules`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from analyzer.engine.draw import banker_draws, player_draws
from analyzer.game.cards import N_RANKS, N_SUITS, N_VALUES
from analyzer.game.fields import NO_THIRD, PATTERNS
from analyzer.game.rules import PLAYER_STOOD
from analyzer.game.shoe import ROUND_CARDS

N_PATTERNS = len(PATTERNS)
#: The PATTERNS index of four cards of four ranks (what a straight needs).
FOUR_DISTINCT = PATTERNS.index("1+1+1+1")
#: A card's digit in a suit pattern's code when it is not dealt (0-3: its block).
NO_BLOCK = N_SUITS
#: Bits per symbol of a packed signature: symbols are fine types (at most 52) then the
#: 10 point values, stored plus one so that 0 marks an empty place.
SYMBOL_BITS = 6


class WalkFields(NamedTuple):
    """Which of the fields worked out from several cards the key ends with, by name. Their
    digits follow in this order (:data:`WALK_DIGITS`), whatever order
    :data:`analyzer.game.fields.WALK_FIELDS` lists them in."""

    max_card_value: bool
    first_four_pattern: bool
    first_four_flush: bool
    first_four_straight: bool
    cards_pattern: bool


#: The walk fields in the order of the key's last digits (see :func:`walk_digits`).
WALK_DIGITS: tuple[str, ...] = WalkFields._fields


class Deal(NamedTuple):
    """What the walk kernels read of a layout: how each card is dealt and keyed.

    The key of a round is its outcome code, then one digit per card (P1, B1, P2, B2, P3,
    B3; radix ``radix[card]``), then the walk fields' digits (:class:`WalkFields`).
    """

    #: int64[T]: cards of each fine type in the shoe.
    type_counts: np.ndarray
    #: int64[T]: point value of each fine type.
    type_values: np.ndarray
    #: int64[T]: rank and suit index of each fine type, where the walk fields read them.
    type_ranks: np.ndarray
    type_suits: np.ndarray
    #: int64[T, 4] or int64[T, 1] (see :class:`SuitPatterns`): the cards of each fine
    #: type in each suit, where the first four's flush is counted by suit sums (the types
    #: then without suits: :attr:`~analyzer.engine.card_walk.planning.CardPlan.flush_sum`);
    #: int64[T, 0] where the types tell the suits apart.
    flush_suit_counts: np.ndarray
    #: int64[10]: cards of each point value in the shoe.
    value_counts: np.ndarray
    #: Cards in the shoe (``value_counts.sum()``).
    total: int
    #: What dealing a card takes from its count: 1, or 0 when the shoe deals with
    #: replacement (a card dealt stays in the shoe: counts never fall, and the rest of a
    #: round of u cards weighs N^(6 - u)).
    take: int
    #: bool[6]: which cards are dealt as fine types; the others by point value.
    fine: np.ndarray
    #: bool[6]: which cards are counted by suit pattern (:class:`SuitPatterns`).
    by_pattern: np.ndarray
    #: int64[6, T]: the key code of each fine type at each card dealt as fine types.
    fine_codes: np.ndarray
    #: int64[6, 10]: the key code of each point value at each card dealt by value.
    value_codes: np.ndarray
    #: int64[6]: how many codes each card's key digit has (1: nothing is asked of it).
    radix: np.ndarray
    #: int64[6]: the code of a third card that is not dealt.
    not_dealt: np.ndarray
    #: int64[10, 10, 11, 11]: the key's leading digit for each (player score, banker
    #: score, player third, banker third), third cards as values or NO_THIRD.
    outcome_code: np.ndarray
    #: bool[10, 10, 12]: the third-card rule (:attr:`analyzer.game.rules.Tableau.third_card`).
    third_card: np.ndarray
    #: The walk fields the key ends with.
    walk: WalkFields
    #: int64[7**6]: the PATTERNS index of each rank pattern code (see :func:`rank_pattern`).
    pattern_index: np.ndarray
    #: int64[13**4]: :func:`first_four_codes`, where a walk field reads the first four's
    #: rank pattern or straight; else empty.
    four_codes: np.ndarray
    #: int64[m]: empty to deal whole rounds; otherwise only these of the first four cards
    #: are dealt, in this order (every way to go on completes a six-card sequence).
    order: np.ndarray
    #: int64[10, max_types], int64[10]: the fine types of each point value (padded), for
    #: the split walk.
    types_of_value: np.ndarray
    n_types_of_value: np.ndarray


class SuitPatterns(NamedTuple):
    """The cards counted by suit pattern: each round is counted once per pattern of their
    suits (its index the key's last digit), those cards' ways the pattern's."""

    #: int64[p]: the cards, in deal order.
    cards: np.ndarray
    #: int64[5**p]: the index of each pattern by its code (a base-5 digit per card: its
    #: block, or NO_BLOCK), -1 for codes of no pattern.
    code_index: np.ndarray
    #: int64[T, 4] cards of each fine type in each suit, or int64[T, 1] when every type is
    #: alike in every suit (a quarter of its cards).
    type_suit_counts: np.ndarray


class Recorder(NamedTuple):
    """Where :func:`record_terms` tallies the terms of the rounds it keeps."""

    #: int64[n_cells]: the class of each key (-1: the round is not kept).
    cell_class: np.ndarray
    #: Dict[int64, int64]: ``signature * n_classes + class`` -> rounds.
    tally: object
    #: Recording stops past this many entries in ``tally``.
    max_terms: int


@njit(cache=True)
def walk_rounds(deal, prefix, out, patterns, recorder):
    """Deal every round of the share ``prefix`` card by card, at each card's detail, and
    count or record it by key. The one walk of :func:`count_rounds` (``out``),
    :func:`count_suit_patterns` (``out`` and ``patterns``) and :func:`record_terms`
    (``recorder``): the others are None, and Numba compiles each combination on its own,
    pruning the branches that test a None argument (nothing of them is left in the
    compiled walk, and no test of them runs while walking).

    ``prefix`` (int64[m]; empty: every class) fixes the class of each of the first ``m``
    cards dealt: one share of the walk, so that a long walk comes back to Python between
    shares. A round's weight: the fine-typed cards first (``n_t - k`` for the k-th card
    of type ``t``, after those counted by suit pattern), then the value-dealt ones from
    what is left of their value (``N_v - K_v - j``), then the rest of the six from what
    remains. Returns False when recording stopped short.
    """
    type_counts = deal.type_counts
    type_values = deal.type_values
    type_ranks = deal.type_ranks
    type_suits = deal.type_suits
    value_counts = deal.value_counts
    total = deal.total
    take = deal.take
    fine = deal.fine
    fine_codes = deal.fine_codes
    value_codes = deal.value_codes
    radix = deal.radix
    not_dealt = deal.not_dealt
    outcome_code = deal.outcome_code
    third_card = deal.third_card
    walk = deal.walk
    pattern_index = deal.pattern_index
    four_codes = deal.four_codes
    order = deal.order
    flush_suit_counts = deal.flush_suit_counts
    flush_sum = flush_suit_counts.shape[1] > 0
    # A round's flush digit: 0 where the walk sums the flush (its ways split by suit
    # sums: a flush's key flush_stride further on), else read from the suits.
    flush_digit = 0 if flush_sum else -1
    flush_stride = flush_key_stride(walk)
    n_types = type_counts.shape[0]
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
    reads_cards = (
        walk.first_four_pattern
        or walk.first_four_flush
        or walk.first_four_straight
        or walk.cards_pattern
    )
    any_walk = reads_cards or walk.max_card_value
    n_classes = np.empty(ROUND_CARDS, dtype=np.int64)
    for card in range(ROUND_CARDS):
        n_classes[card] = n_types if fine[card] else N_VALUES
    if patterns is not None:
        suit_cards = patterns.cards
        code_index = patterns.code_index
        type_suit_counts = patterns.type_suit_counts
        scratch = pattern_scratch(type_suit_counts.shape[1])
        n_patterns = code_index.max() + 1
    if recorder is not None:
        cell_class = recorder.cell_class
        tally = recorder.tally
        max_terms = recorder.max_terms
        n_cell_classes = cell_class.max() + 1
        symbols = np.zeros(ROUND_CARDS, dtype=np.int64)
    # Cards in the order the loops deal them: P1, B1, P2, B2, then a third card. An
    # explicit stack of cards keeps the walk one loop for every shape of round.
    stack_class = np.zeros(ROUND_CARDS, dtype=np.int64)
    depth_card = np.zeros(ROUND_CARDS, dtype=np.int64)
    alone = order.shape[0] > 0
    # Where every fine-typed card is dealt before every value-dealt one and none is
    # counted by suit pattern, what is left of a card's class as it is dealt is its
    # factor of the round's weight (the weight's order: fine-typed, then value-dealt),
    # so the weight is carried down the stack, not worked out again at every round.
    stacked = patterns is None
    value_dealt = False
    for depth in range(order.shape[0] if alone else ROUND_CARDS):
        card = order[depth] if alone else depth
        value_dealt = value_dealt or not fine[card]
        stacked = stacked and not (fine[card] and value_dealt)
    stack_weight = np.ones(ROUND_CARDS + 1, dtype=np.int64)  # [d + 1]: cards 0..d dealt
    rest_weight = np.ones(ROUND_CARDS + 1, dtype=np.int64)  # [u]: the six after u dealt
    for used in range(ROUND_CARDS + 1):
        for j in range(ROUND_CARDS - used):
            rest_weight[used] *= total - take * (used + j)
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
        v = 0
        while c < last:
            if fine[card]:
                left = type_counts[c] - take * taken_type[c]
                v = type_values[c]
            else:
                v = c
                left = value_counts[v] - take * (taken_fine_value[v] + taken_value[v])
            if left > 0:
                placed = True
                break
            c += 1
        if not placed:
            stack_class[depth] = -1
            depth -= 1
            continue
        stack_class[depth] = c
        stack_weight[depth + 1] = stack_weight[depth] * left
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
        if stacked:
            weight = stack_weight[depth + 1] * rest_weight[depth + 1]
            # (The first four are dealt first: the stack's first four factors.)
            first_four = stack_weight[min(depth + 1, 4)]
        else:
            weight, first_four = round_weight(
                deal, dealt, chosen, chosen_value, taken_fine_value, seen
            )
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
            # (card_digits, written out: a call passing the arrays, even inlined, costs
            # the walk of Jackpot Baccarat's first four some three times its time.)
            four = -1
            if walk.first_four_pattern or walk.first_four_straight:
                r = card_ranks
                four = four_codes[((r[0] * N_RANKS + r[1]) * N_RANKS + r[2]) * N_RANKS + r[3]]
            flush_bit = flush_digit
            if walk.first_four_flush and flush_bit < 0:
                s = card_suits
                flush_bit = 1 if s[0] == s[1] == s[2] == s[3] else 0
            six = -1
            if walk.cards_pattern:
                six = rank_pattern(card_ranks, 0, ROUND_CARDS, rank_count, pattern_index)
            key = walk_digits(key, walk, highest, four, flush_bit, six)
        if recorder is not None:
            c = cell_class[key]
            if c >= 0:
                n_symbols = 0
                for k in range(ROUND_CARDS):
                    if dealt[k]:
                        symbols[n_symbols] = chosen[k] if fine[k] else n_types + chosen[k]
                        n_symbols += 1
                term = signature(symbols, n_symbols) * n_cell_classes + c
                tally[term] = tally.get(term, 0) + 1
                if len(tally) > max_terms:
                    return False
        if patterns is not None:
            add_suit_patterns(
                key * n_patterns,
                weight,
                suit_cards,
                code_index,
                type_suit_counts,
                take,
                dealt,
                chosen,
                scratch,
                out,
            )
        elif out is not None and flush_sum:
            # The round's ways are the first four's times the rest's; of the first four's,
            # those in one suit are the flush's.
            flush = flush_ways(chosen, flush_suit_counts, take)
            rest = weight // first_four
            out[key] += (first_four - flush) * rest
            if flush > 0:
                out[key + flush_stride] += flush * rest
        elif out is not None:
            out[key] += weight
    return True


@njit(cache=True)
def round_weight(deal, dealt, chosen, chosen_value, taken_fine_value, seen):
    """A round's weight worked out from its cards (``seen``: scratch) and the first four's
    factors (fine-typed where a flush is summed): the fine-typed cards first (``n_t - k``
    for the k-th card of type ``t``, after those counted by suit pattern), then the
    value-dealt ones from what is left of their value (``N_v - K_v - j``), then the rest
    of the six from what remains."""
    type_counts = deal.type_counts
    value_counts = deal.value_counts
    take = deal.take
    fine = deal.fine
    by_pattern = deal.by_pattern
    weight = 1
    first_four = 1
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
            factor = type_counts[chosen[k]] - take * same
            if factor <= 0:
                weight = 0
            weight *= factor
            if k < 4:
                first_four *= factor
    for k in range(N_VALUES):
        seen[k] = 0
    for k in range(ROUND_CARDS):
        if dealt[k] and not fine[k]:
            v = chosen_value[k]
            # What is left of its value once every fine-typed card of it is dealt.
            factor = value_counts[v] - take * (taken_fine_value[v] + seen[v])
            if factor <= 0:
                weight = 0
            weight *= factor
            seen[v] += 1
    for j in range(ROUND_CARDS - used):
        weight *= deal.total - take * (used + j)
    return weight, first_four


@njit(cache=True, inline="always")
def flush_key_stride(walk):
    """How far a round's key moves when its flush digit goes from 0 to 1: the radix of
    the walk digits after it (:func:`walk_digits`)."""
    stride = 1
    if walk.first_four_straight:
        stride *= 2
    if walk.cards_pattern:
        stride *= N_PATTERNS
    return stride


@njit(cache=True, inline="always")
def flush_ways(classes, suit_counts, take):
    """Ordered ways to deal the first four cards as the fine types ``classes[:4]``, all
    four in one suit: over each suit, the product of what is left of each one's type in
    that suit. ``suit_counts`` as :attr:`Deal.flush_suit_counts` (one column: the shoe's
    suits alike, four times one suit's ways)."""
    total = 0
    for s in range(suit_counts.shape[1]):
        ways = 1
        for k in range(4):
            same = 0
            for j in range(k):
                if classes[j] == classes[k]:
                    same += 1
            factor = suit_counts[classes[k], s] - take * same
            if factor <= 0:
                ways = 0
                break
            ways *= factor
        total += ways
    if suit_counts.shape[1] == 1:
        total *= N_SUITS
    return total


@njit(cache=True, inline="always")
def rank_pattern(ranks, first, last, rank_count, pattern_index):
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


@njit(cache=True, inline="always")
def first_four_code(ranks, rank_count, pattern_index):
    """The first four cards' rank pattern (its PATTERNS index) times 2, plus 1 where
    they make a straight (``ranks[:4]``, all dealt; ``rank_count``: scratch)."""
    four = rank_pattern(ranks, 0, 4, rank_count, pattern_index)
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
    return four * 2 + (1 if straight else 0)


@njit(cache=True)
def first_four_codes(pattern_index, out):
    """:func:`first_four_code` of every four ranks, at ``((r0 * 13 + r1) * 13 + r2) * 13
    + r3`` of ``out`` (int64[13**4]): the walk looks a tuple's up, not works it out."""
    ranks = np.full(ROUND_CARDS, -1, dtype=np.int64)
    rank_count = np.zeros(N_RANKS, dtype=np.int64)
    for i in range(N_RANKS**4):
        x = i
        for k in range(3, -1, -1):
            ranks[k] = x % N_RANKS
            x //= N_RANKS
        out[i] = first_four_code(ranks, rank_count, pattern_index)


@njit(cache=True, inline="always")
def walk_digits(key, walk, highest, four, flush, six):
    """The key's last digits: the fields of ``walk`` (:class:`WalkFields`) worked out from
    several cards, in :data:`WALK_DIGITS` order, from what the caller worked out of the
    cards: the highest value, the first four's :func:`first_four_code`, their flush (0 or
    1) and the six's rank pattern (:func:`rank_pattern`), each where ``walk`` asks for it.
    (Scalars only: a call that passes arrays counts their references, on the walk's
    hottest path.)"""
    if walk.max_card_value:
        key = key * N_VALUES + highest
    if walk.first_four_pattern:
        key = key * N_PATTERNS + four // 2
    if walk.first_four_flush:
        key = key * 2 + flush
    if walk.first_four_straight:
        key = key * 2 + four % 2
    if walk.cards_pattern:
        key = key * N_PATTERNS + six
    return key


@njit(cache=True, inline="always")
def card_digits(walk, ranks, suits, rank_count, pattern_index, four_codes, flush):
    """What :func:`walk_digits` reads of the cards (``four``, ``flush``, ``six``), from
    each card's rank and suit (-1: not dealt): ``four_codes`` looked up where given
    (:attr:`Deal.four_codes`), ``flush`` read from the suits where it is -1."""
    four = -1
    if walk.first_four_pattern or walk.first_four_straight:
        if four_codes.shape[0] > 0:  # (the first four's ranks: all dealt)
            four = four_codes[
                ((ranks[0] * N_RANKS + ranks[1]) * N_RANKS + ranks[2]) * N_RANKS + ranks[3]
            ]
        else:
            four = first_four_code(ranks, rank_count, pattern_index)
    if walk.first_four_flush and flush < 0:
        flush = 1 if suits[0] == suits[1] == suits[2] == suits[3] else 0
    six = -1
    if walk.cards_pattern:
        six = rank_pattern(ranks, 0, ROUND_CARDS, rank_count, pattern_index)
    return four, flush, six


@njit(cache=True)
def count_rounds(deal, prefix, out):
    """Add the weight of every round of the share ``prefix`` to ``out[key]``.

    ``out`` (int64[n_cells], zeroed by the caller) then holds, over every share, the
    ordered six-card sequences of every round with that key: they sum to N (N-1) ... (N-5).
    """
    walk_rounds(deal, prefix, out, None, None)


@njit(cache=True)
def count_suit_patterns(deal, patterns, prefix, out):
    """:func:`count_rounds`, the cards of ``patterns`` dealt without their suits: each
    round counted once per pattern of their suits, the key's last digit."""
    walk_rounds(deal, prefix, out, patterns, None)


@njit(cache=True)
def record_terms(deal, prefix, cell_class, tally, max_terms):
    """Tally the terms of the share ``prefix`` instead of counting: each round whose key
    has a class ``c = cell_class[key] >= 0`` adds 1 to ``tally[signature * n_classes +
    c]``, ``signature`` the packed multiset of what it deals (:func:`signature`) and
    ``n_classes = cell_class.max() + 1``. False when the tally outgrew ``max_terms``
    entries (recording stops there). (The :class:`Recorder` is made here: typing a tuple
    that holds a typed dict costs Python about 3 ms a call.)"""
    return walk_rounds(deal, prefix, None, None, Recorder(cell_class, tally, max_terms))


class PatternScratch(NamedTuple):
    """Scratch space of :func:`add_suit_patterns`."""

    #: int64[4, columns]: the ways of each block in each suit column.
    ways: np.ndarray
    #: int64[7, columns]: each depth's row of them before its card joined.
    saved: np.ndarray
    #: int64[7] each, per depth (cards placed so far): the card's block and type, the
    #: blocks open, the code so far, its digit's place, whether its card is placed, and
    #: the ways so far (one column).
    label: np.ndarray
    kind: np.ndarray
    opened: np.ndarray
    code: np.ndarray
    place: np.ndarray
    placed: np.ndarray
    product: np.ndarray


@njit(cache=True)
def pattern_scratch(n_columns):
    """Scratch space of :func:`add_suit_patterns` for ``n_columns`` suit columns."""
    columns = max(n_columns, 1)
    ints = np.zeros((7, ROUND_CARDS + 1), dtype=np.int64)
    return PatternScratch(
        np.ones((N_SUITS, columns), dtype=np.int64),
        np.zeros((ROUND_CARDS + 1, columns), dtype=np.int64),
        ints[0],
        ints[1],
        ints[2],
        ints[3],
        ints[4],
        ints[5],
        ints[6],
    )


@njit(cache=True)
def add_suit_patterns(
    base, weight, suit_cards, code_index, suit_counts, take, dealt, chosen, scratch, out
):
    """Add one round (``weight``: its ways less those of the cards counted by suit
    pattern) to ``out[base + i]`` for every suit pattern ``i`` of those cards, times the
    pattern's ways (``suit_cards``, ``code_index``, ``suit_counts``: a
    :class:`SuitPatterns`; ``take``: :attr:`Deal.take`; ``dealt``, ``chosen``: the
    round's cards dealt and their classes). The patterns are dealt card by card (each card
    joins a block already open or opens the next), the ways of each block in each suit
    kept as they grow: a pattern's ways are the sum, over every way to give its blocks
    distinct suits, of the ways to deal each block's cards in its suit."""
    ways, saved = scratch.ways, scratch.saved
    label, kind, opened = scratch.label, scratch.kind, scratch.opened
    code, place, placed, product = scratch.code, scratch.place, scratch.placed, scratch.product
    n_cards = suit_cards.shape[0]
    m = 0
    undealt = 0
    for i in range(n_cards):
        digit_place = 1
        for _ in range(n_cards - 1 - i):
            digit_place *= NO_BLOCK + 1
        card = suit_cards[i]
        if dealt[card]:
            kind[m] = chosen[card]
            place[m] = digit_place
            m += 1
        else:
            undealt += NO_BLOCK * digit_place
    if m == 0:
        out[base + code_index[undealt]] += weight
        return
    # Every suit alike for the types dealt (always, with one column): a block's ways are
    # the same in each suit (``product``: all blocks' together). Else each block's row
    # of ways, put back as the walk backs up.
    alike = True
    for i in range(m):
        for s in range(1, suit_counts.shape[1]):
            if suit_counts[kind[i], s] != suit_counts[kind[i], 0]:
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
            left = suit_counts[t, 0] - take * same
            if left <= 0:
                continue
            product[depth + 1] = product[depth] * left
        else:
            saved[depth] = ways[b, :]
            placed[depth] = 1
            any_left = False
            for s in range(N_SUITS):
                left = max(suit_counts[t, s] - take * same, 0)
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
            pattern_ways = weight * one_to_one(ways, blocks)
        if pattern_ways > 0:
            out[base + code_index[code[m]]] += pattern_ways


@njit(cache=True)
def one_to_one(ways, blocks):
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
def first_four_weight(classes, fine, type_counts, type_values, value_counts, take):
    """Ordered ways to deal the first four cards as these classes (fine types or values):
    the fine-typed cards first, then the value-dealt ones from what is left of their value
    (see :func:`walk_rounds`). 0 when the shoe cannot deal them."""
    weight = 1
    fine_of_value = np.zeros(N_VALUES, dtype=np.int64)
    for k in range(4):
        if fine[k]:
            fine_of_value[type_values[classes[k]]] += 1
            same = 0
            for j in range(k):
                if fine[j] and classes[j] == classes[k]:
                    same += 1
            factor = type_counts[classes[k]] - take * same
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
            factor = value_counts[v] - take * (fine_of_value[v] + same)
            if factor <= 0:
                return 0
            weight *= factor
    return weight


#: The most distinct third-card draws of one tuple of first-four values (10 x 10 at most).
MAX_DRAWS = 128


class Draws(NamedTuple):
    """The third-card draws of one tuple of first-four values (:func:`third_card_draws`):
    each one's outcome code, third-card codes (P3, B3), highest third value, and ways."""

    outcome: np.ndarray
    code4: np.ndarray
    code5: np.ndarray
    highest: np.ndarray
    ways: np.ndarray


@njit(cache=True)
def third_card_draws(deal, player2, banker2, left, draws):
    """Fill ``draws`` with every way the third cards go on from two-card totals
    ``player2`` and ``banker2`` (``left``: the cards of each value left after the first
    four), each with its ways to complete the six-card sequence; draws that differ only in
    what no digit shows are added up into one. Returns how many ``draws`` holds."""
    value_codes = deal.value_codes
    outcome_code = deal.outcome_code
    not_dealt = deal.not_dealt
    third_card = deal.third_card
    total = deal.total
    take = deal.take
    outcome, code4, code5, highest, ways = draws
    n = 0
    if player_draws(third_card, player2, banker2):
        for x in range(N_VALUES):
            wx = left[x]
            if wx == 0:
                continue
            player3 = (player2 + x) % 10
            if banker_draws(third_card, player2, banker2, x):
                left[x] -= take
                for y in range(N_VALUES):
                    wy = left[y]
                    if wy == 0:
                        continue
                    outcome[n] = outcome_code[player3, (banker2 + y) % 10, x, y]
                    code4[n] = value_codes[4, x]
                    code5[n] = value_codes[5, y]
                    highest[n] = max(x, y)
                    ways[n] = wx * wy
                    n += 1
                left[x] += take
            else:
                outcome[n] = outcome_code[player3, banker2, x, NO_THIRD]
                code4[n] = value_codes[4, x]
                code5[n] = not_dealt[5]
                highest[n] = x
                ways[n] = wx * (total - 5 * take)
                n += 1
    elif banker_draws(third_card, player2, banker2, PLAYER_STOOD):
        for y in range(N_VALUES):
            wy = left[y]
            if wy == 0:
                continue
            outcome[n] = outcome_code[player2, (banker2 + y) % 10, NO_THIRD, y]
            code4[n] = not_dealt[4]
            code5[n] = value_codes[5, y]
            highest[n] = y
            ways[n] = wy * (total - 5 * take)
            n += 1
    else:  # a natural, or both hands stand
        outcome[n] = outcome_code[player2, banker2, NO_THIRD, NO_THIRD]
        code4[n] = not_dealt[4]
        code5[n] = not_dealt[5]
        highest[n] = -1
        ways[n] = (total - 4 * take) * (total - 5 * take)
        n += 1
    # Rounds that differ only in what no digit shows add up into one.
    by_highest = deal.walk.max_card_value
    merged = 0
    for e in range(n):
        if not by_highest:
            highest[e] = 0
        found = -1
        for f in range(merged):
            if (
                outcome[f] == outcome[e]
                and code4[f] == code4[e]
                and code5[f] == code5[e]
                and highest[f] == highest[e]
            ):
                found = f
                break
        if found >= 0:
            ways[found] += ways[e]
        else:
            outcome[merged] = outcome[e]
            code4[merged] = code4[e]
            code5[merged] = code5[e]
            highest[merged] = highest[e]
            ways[merged] = ways[e]
            merged += 1
    return merged


@njit(cache=True)
def split_walk(deal, prefix, out):
    """:func:`count_rounds` when no third card needs more than its value (and none is
    counted by suit pattern): per tuple of first-four values, the draw of the third cards
    once, then every way to deal those values as fine types. ``prefix`` : int64[m], m <=
    2, the point values of the first ``m`` cards (Player's and Banker's first) of this
    share of the walk."""
    fine = deal.fine
    type_counts = deal.type_counts
    type_values = deal.type_values
    type_ranks = deal.type_ranks
    type_suits = deal.type_suits
    value_counts = deal.value_counts
    take = deal.take
    fine_codes = deal.fine_codes
    value_codes = deal.value_codes
    radix = deal.radix
    walk = deal.walk
    pattern_index = deal.pattern_index
    four_codes = deal.four_codes
    types_of_value = deal.types_of_value
    n_types_of_value = deal.n_types_of_value
    flush_suit_counts = deal.flush_suit_counts
    flush_sum = flush_suit_counts.shape[1] > 0
    flush_digit = 0 if flush_sum else -1  # as in walk_rounds
    flush_stride = flush_key_stride(walk)
    left = np.zeros(N_VALUES, dtype=np.int64)
    draws = Draws(
        np.zeros(MAX_DRAWS, dtype=np.int64),
        np.zeros(MAX_DRAWS, dtype=np.int64),
        np.zeros(MAX_DRAWS, dtype=np.int64),
        np.zeros(MAX_DRAWS, dtype=np.int64),
        np.zeros(MAX_DRAWS, dtype=np.int64),
    )
    draw_outcome, draw_code4, draw_code5, draw_highest, draw_ways = draws
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
                        if left[first[k]] <= 0:  # none of this value left to deal
                            possible = False
                        left[first[k]] -= take
                    if not possible:
                        continue
                    n = third_card_draws(deal, (a + c) % 10, (b + d) % 10, left, draws)
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
                                    weight = first_four_weight(
                                        classes, fine, type_counts, type_values, value_counts, take
                                    )
                                    if weight == 0:
                                        continue
                                    # Of the first four's ways, those in one suit.
                                    flush = 0
                                    if flush_sum:
                                        flush = flush_ways(classes, flush_suit_counts, take)
                                    code = 0
                                    for k in range(4):
                                        x = classes[k]
                                        if fine[k]:
                                            code = code * radix[k] + fine_codes[k, x]
                                            card_ranks[k] = type_ranks[x]
                                            card_suits[k] = type_suits[x]
                                        else:
                                            code = code * radix[k] + value_codes[k, x]
                                    # (The same for every draw: no third card is read.)
                                    four, flush_bit, six = card_digits(
                                        walk,
                                        card_ranks,
                                        card_suits,
                                        rank_count,
                                        pattern_index,
                                        four_codes,
                                        flush_digit,
                                    )
                                    for e in range(n):
                                        key = draw_outcome[e]
                                        for k in range(4):
                                            key *= radix[k]
                                        key += code
                                        key = key * radix[4] + draw_code4[e]
                                        key = key * radix[5] + draw_code5[e]
                                        key = walk_digits(
                                            key,
                                            walk,
                                            max(highest, draw_highest[e]),
                                            four,
                                            flush_bit,
                                            six,
                                        )
                                        out[key] += (weight - flush) * draw_ways[e]
                                        if flush > 0:
                                            out[key + flush_stride] += flush * draw_ways[e]


@njit(cache=True)
def signature(symbols, n):
    """A round's term: the multiset of the first ``n`` symbols (sorted in place), packed
    ``SYMBOL_BITS`` bits a symbol, smallest first."""
    for i in range(1, n):  # insertion sort: at most six symbols
        s = symbols[i]
        j = i - 1
        while j >= 0 and symbols[j] > s:
            symbols[j + 1] = symbols[j]
            j -= 1
        symbols[j + 1] = s
    packed = 0
    for i in range(n):
        packed |= (symbols[i] + 1) << (SYMBOL_BITS * i)
    return packed


@njit(cache=True)
def term_factors(signatures, n_types, type_values, slot, offset, power):
    """Unpack each signature (:func:`signature`) into its falling factorials
    ``ff(counts[slot] - offset, power)``: slot ``s`` for a symbol, ``n_types + 10`` (the
    shoe's size) for the rest of the six-card sequence; ``slot`` -1 past the last."""
    fine_of_value = np.zeros(N_VALUES, dtype=np.int64)
    mask = (1 << SYMBOL_BITS) - 1
    for i in range(signatures.shape[0]):
        fine_of_value[:] = 0
        used = 0
        n_factors = 0
        previous = -1
        for place in range(ROUND_CARDS):
            symbol = ((signatures[i] >> (SYMBOL_BITS * place)) & mask) - 1
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


@njit(cache=True)
def term_weights(counts, slot, offset, power, weights):
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
def class_ways(weights, term_index, cell_class, count, out):
    """Sum ``count[i]`` times its term's weight into its class, for every recorded i."""
    for i in range(term_index.shape[0]):
        c = cell_class[i]
        if c >= 0:
            out[c] += count[i] * weights[term_index[i]]


@njit(cache=True)
def class_ways_of_rows(counts, slot, offset, power, term_index, cell_class, count, out):
    """:func:`term_weights` and :func:`class_ways` for each row of ``counts`` in turn,
    into the same row of ``out`` (one call for many compositions a card apart)."""
    weights = np.zeros(slot.shape[0], dtype=np.int64)
    for row in range(counts.shape[0]):
        term_weights(counts[row], slot, offset, power, weights)
        class_ways(weights, term_index, cell_class, count, out[row])


@njit(cache=True)
def tally_items(tally, keys, values):
    """The entries of a tally (:func:`record_terms`) into two arrays of its length: read
    in one call, not an item at a time from Python."""
    for i, (key, value) in enumerate(tally.items()):
        keys[i] = key
        values[i] = value
