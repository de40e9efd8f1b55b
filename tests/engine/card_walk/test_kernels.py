"""The card walk's kernels, one by one, against plain Python on small inputs.

(The kernels that walk whole shoes are tested through the walk, against every deal of
tiny shoes: tests/engine/card_walk/test_walk.py.)
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product
from math import prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Shoe
from analyzer.engine.card_walk import kernels
from analyzer.engine.card_walk.layout import lay_out
from analyzer.engine.card_walk.planning import plan
from analyzer.game.fields import PATTERNS
from tests.engine.card_walk.deals import shoe_of

pytestmark = pytest.mark.kernels


def _pattern_index() -> np.ndarray:
    return lay_out(plan({"cards_pattern"}), Shoe.standard(1)).deal.pattern_index


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-1, 12), min_size=6, max_size=6), st.integers(0, 6))
def test_rank_pattern_counts_how_cards_share_ranks(ranks, last) -> None:
    """Cards not dealt (-1) take no part; multiplicities largest first; fewer than four
    cards have no pattern (-1)."""
    shown = [r for r in ranks[:last] if r >= 0]
    pattern = "+".join(map(str, sorted(Counter(shown).values(), reverse=True)))
    index = kernels.rank_pattern(
        np.array(ranks, dtype=np.int64), 0, last, np.zeros(13, np.int64), _pattern_index()
    )
    assert index == (PATTERNS.index(pattern) if pattern in PATTERNS else -1)


def _straight(ranks: list[int]) -> bool:
    """Four ranks (0..12, ace 0) in a row, an ace low or high."""
    if len(set(ranks)) != 4:
        return False
    return any(
        max(shown) - min(shown) == 3 for shown in (ranks, [13 if r == 0 else r for r in ranks])
    )


def _walk_key(key, walk, highest, ranks6, suits6, flush, four_codes) -> int:
    """The key's walk digits as the kernels work them out: what they read of the cards
    (``card_digits``), then the digits (``walk_digits``)."""
    four, flush, six = kernels.card_digits(
        walk, ranks6, suits6, np.zeros(13, np.int64), _pattern_index(), four_codes, flush
    )
    return kernels.walk_digits(key, walk, highest, four, flush, six)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(0, 12), min_size=4, max_size=4),
    st.lists(st.integers(0, 3), min_size=4, max_size=4),
    st.integers(0, 9),
    st.booleans(),
)
def test_walk_digits_of_every_walk_field(ranks, suits, highest, looked_up) -> None:
    """The first four's pattern and straight worked out from their ranks, or looked up in
    the table of every four ranks (``first_four_codes``), alike."""
    ranks6 = np.array([*ranks, -1, -1], dtype=np.int64)
    suits6 = np.array([*suits, -1, -1], dtype=np.int64)
    codes = np.zeros(13**4 if looked_up else 0, dtype=np.int64)
    if looked_up:
        kernels.first_four_codes(_pattern_index(), codes)
    walk = kernels.WalkFields(True, True, True, True, True)
    key = _walk_key(0, walk, highest, ranks6, suits6, -1, codes)
    radix = (10, len(PATTERNS), 2, 2, len(PATTERNS))
    digits = np.unravel_index(key, radix)
    pattern = "+".join(map(str, sorted(Counter(ranks).values(), reverse=True)))
    assert digits[0] == highest
    assert PATTERNS[digits[1]] == pattern == PATTERNS[digits[4]]
    assert digits[2] == (len(set(suits)) == 1)
    assert digits[3] == _straight(ranks)
    # Fields not asked add no digit.
    none = kernels.WalkFields(False, False, False, False, False)
    assert _walk_key(7, none, highest, ranks6, suits6, -1, codes) == 7
    # A flush digit given by the caller (summed over the suits) is the digit, whatever
    # the suits say.
    flush_only = kernels.WalkFields(False, False, True, False, False)
    for given_flush in (0, 1):
        key = _walk_key(3, flush_only, highest, ranks6, suits6, given_flush, codes)
        assert key == 3 * 2 + given_flush


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.lists(st.integers(0, 3), min_size=16, max_size=16))
def test_one_to_one_is_the_permanent_of_blocks_to_distinct_suits(blocks, flat) -> None:
    ways = np.array(flat, dtype=np.int64).reshape(4, 4)
    expected = sum(
        prod(int(ways[b, s]) for b, s in enumerate(suits))
        for suits in permutations(range(4), blocks)
    )
    assert kernels.one_to_one(ways, blocks) == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 61), min_size=0, max_size=6))
def test_a_signature_unpacks_into_the_falling_factorials_of_its_symbols(symbols) -> None:
    """Symbols below n_types are fine types (of values ``type_values``), the others
    point values: each run of a symbol is one factor, value-dealt cards offset by the
    fine-typed cards of their value, and the rest of the six one last factor."""
    n_types = 52
    type_values = np.arange(n_types, dtype=np.int64) % 10
    packed = kernels.signature(np.array([*symbols, 0, 0, 0, 0, 0, 0], dtype=np.int64), len(symbols))
    slot = np.full((1, 7), -1, dtype=np.int64)
    offset = np.zeros_like(slot)
    power = np.zeros_like(slot)
    kernels.term_factors(np.array([packed]), n_types, type_values, slot, offset, power)
    runs = Counter(symbols)
    fine_of_value = Counter(int(type_values[s]) for s in symbols if s < n_types)
    expected = [
        (s, fine_of_value[s - n_types] if s >= n_types else 0, k) for s, k in sorted(runs.items())
    ]
    expected.append((n_types + 10, len(symbols), 6 - len(symbols)))
    got = [
        (int(a), int(b), int(c))
        for a, b, c in zip(slot[0], offset[0], power[0], strict=True)
        if a >= 0
    ]
    assert got == expected


def test_term_weights_and_class_ways_in_integers() -> None:
    counts = np.array([5, 3, 2, 40], dtype=np.int64)
    slot = np.array([[0, 3, -1], [1, 2, 3], [2, -1, -1]], dtype=np.int64)
    offset = np.array([[0, 2, 0], [0, 0, 1], [0, 0, 0]], dtype=np.int64)
    power = np.array([[2, 4, 0], [1, 1, 5], [3, 0, 0]], dtype=np.int64)
    weights = np.zeros(3, dtype=np.int64)
    kernels.term_weights(counts, slot, offset, power, weights)
    # ff(5, 2) ff(38, 4); ff(3, 1) ff(2, 1) ff(39, 5); ff(2, 3) = 0 (out of cards).
    assert weights.tolist() == [5 * 4 * 38 * 37 * 36 * 35, 3 * 2 * 39 * 38 * 37 * 36 * 35, 0]
    out = np.zeros(2, dtype=np.int64)
    term_index = np.array([0, 1, 1, 2], dtype=np.int64)
    cell_class = np.array([1, 0, -1, 0], dtype=np.int64)
    kernels.class_ways(weights, term_index, cell_class, np.array([2, 3, 7, 9]), out)
    assert out.tolist() == [3 * weights[1], 2 * weights[0]]


def test_first_four_weight_deals_fine_types_before_values() -> None:
    """Two kings as a fine type, then two cards of value 0 from what is left of it."""
    shoe = shoe_of([(13, 0), (13, 1), (13, 2), (10, 0), (12, 3), (5, 1), (5, 2), (1, 0)])
    deal = lay_out(plan({"player_card1_rank", "banker_card1_rank"}), shoe).deal
    king = int(np.nonzero((deal.type_values == 0) & (deal.type_ranks == 12))[0][0])
    five = int(np.nonzero(deal.type_values == 5)[0][0])
    # P1, B1 kings (3 * 2), P2, B2 of value 0: 5 tens-value cards less 2 kings: 3 * 2.
    classes = np.array([king, king, 0, 0], dtype=np.int64)
    arrays = (deal.fine, deal.type_counts, deal.type_values, deal.value_counts)
    assert kernels.first_four_weight(classes, *arrays, 1) == 3 * 2 * 3 * 2
    assert kernels.first_four_weight(np.array([five, five, 5, 0]), *arrays, 1) == 0  # no 5 left
    # With replacement nothing runs out: 3 kings twice, 5 cards of value 0 twice.
    assert kernels.first_four_weight(classes, *arrays, 0) == 3 * 3 * 5 * 5
    assert kernels.first_four_weight(np.array([five, five, 5, 5]), *arrays, 0) == 2**4
    assert kernels.first_four_weight(np.array([five, five, 7, 0]), *arrays, 0) == 0  # no 7


def test_count_rounds_on_a_deal_of_each_shape() -> None:
    """Whole rounds card by card, cards dealt alone, by suit pattern, split: each fills
    the counts of every ordered six-card sequence of the shoe."""
    shoe = shoe_of([(1, 0), (4, 1), (9, 2), (12, 3), (13, 1), (5, 0), (6, 3)])
    for fields, relational, kernel in [
        ({"banker_card3_rank"}, None, "count_rounds"),
        ({"player_card1_rank"}, None, "count_rounds"),
        ({"player_card1_suit", "banker_card3_suit"}, {"player_card1_suit"}, "patterns"),
        # Third cards' suits alone: rounds that deal neither count once, by no pattern.
        ({"player_card3_suit", "banker_card3_suit"}, {"player_card3_suit"}, "patterns"),
        ({"player_card1_colour", "winner"}, None, "split"),
    ]:
        card_plan = plan(fields, None, relational and fields)
        laid = lay_out(card_plan, shoe)
        out = np.zeros(prod(laid.shape), dtype=np.int64)
        share = laid.shares[0]
        if kernel == "split":
            assert laid.split
            kernels.split_walk(laid.deal, share, out)
        elif kernel == "patterns":
            kernels.count_suit_patterns(laid.deal, laid.suit_patterns, share, out)
        else:
            kernels.count_rounds(laid.deal, share, out)
        assert out.sum() == shoe.rounds_denominator, fields


@pytest.mark.slow
def test_the_recorder_stops_past_its_limit_of_terms() -> None:
    shoe = Shoe.standard(6)
    laid = lay_out(plan({"player_card1_colour", "winner"}), shoe)
    cell_class = np.zeros(prod(laid.shape), dtype=np.int64)
    from numba import int64
    from numba.typed import Dict

    tally = Dict.empty(key_type=int64, value_type=int64)
    assert not kernels.record_terms(laid.deal, laid.card_shares[0], cell_class, tally, 5)
    assert len(tally) == 6
    kept = Dict.empty(key_type=int64, value_type=int64)
    assert kernels.record_terms(laid.deal, np.array([0, 0, 0]), cell_class, kept, 10**6)
    assert len(kept) > 0
    # Read back in one call, entry for entry as the dict holds them.
    keys = np.empty(len(kept), dtype=np.int64)
    values = np.empty(len(kept), dtype=np.int64)
    kernels.tally_items(kept, keys, values)
    assert dict(zip(keys.tolist(), values.tolist(), strict=True)) == dict(kept)


def test_every_combination_of_pattern_blocks_is_counted_once() -> None:
    """Suit patterns of three cards on a shoe whose suits differ: every labelling of the
    blocks with distinct suits, against counting suits one by one."""
    shoe = shoe_of([(1, 0), (1, 0), (1, 1), (2, 2), (2, 3), (3, 1), (3, 2), (4, 3)])
    suits = {"player_card1_suit", "banker_card1_suit", "player_card2_suit"}
    laid = lay_out(plan(suits, None, suits), shoe)
    out = np.zeros(prod(laid.shape), dtype=np.int64)
    for share in laid.shares:
        kernels.count_suit_patterns(laid.deal, laid.suit_patterns, share, out)
    by_pattern = Counter()
    for code, n in zip(np.nonzero(out)[0], out[np.nonzero(out)], strict=True):
        by_pattern[tuple(laid.pattern_suits[np.unravel_index(code, laid.shape)[-1]])] += int(n)
    cards = [(r, s) for r in range(4) for s in range(4) for _ in range(shoe.suit_counts[r, s])]
    direct: Counter = Counter()
    for seq in product(range(len(cards)), repeat=3):
        if len(set(seq)) < 3:
            continue
        rest = len(cards) - 3
        names: dict[int, str] = {}
        for i in seq:
            names.setdefault(cards[i][1], "SHDC"[len(names)])
        direct[tuple(names[cards[i][1]] for i in seq)] += rest * (rest - 1) * (rest - 2)
    assert +by_pattern == direct


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 2), min_size=12, max_size=12),
    st.lists(st.integers(0, 2), min_size=4, max_size=4),
    st.booleans(),
)
def test_flush_ways_are_the_deals_of_four_cards_in_one_suit(flat, classes, alike) -> None:
    """Over every ordered deal of four distinct physical cards of these types: those all
    in one suit (a type run out in a suit included; one column: suits alike)."""
    counts = np.array(flat, dtype=np.int64).reshape(3, 4)
    if alike:
        counts[:] = counts[:, :1]
    cards = [(t, s) for t in range(3) for s in range(4) for _ in range(counts[t, s])]
    expected = sum(
        1
        for deal in permutations(range(len(cards)), 4)
        if [cards[i][0] for i in deal] == classes and len({cards[i][1] for i in deal}) == 1
    )
    columns = counts[:, :1].copy() if alike else counts
    chosen = np.array([*classes, 0, 0], dtype=np.int64)
    assert kernels.flush_ways(chosen, columns, 1) == expected
