"""The layout: fine types, key codes, shares and limits of a plan on a shoe."""

from __future__ import annotations

import naive
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer import AnalyzerError, Shoe
from analyzer.engine.card_walk import layout
from analyzer.engine.card_walk.kernels import WALK_DIGITS
from analyzer.engine.card_walk.planning import plan
from analyzer.engine.card_walk.walk import card_outcome_table
from analyzer.game.fields import PATTERNS, WALK_FIELDS
from tests.engine.card_walk.deals import (
    FIELD_SETS,
    SUIT_PATTERN_FIELD_SETS,
    cards_strategy,
    pattern_counts,
    relational_suits,
    shoe_of,
    walk_counts,
)


def test_suits_unknown_is_refused_for_suits_and_colours() -> None:
    shoe = Shoe.standard(8).remove(analyzer.parse_cards("5", suit_required=False))
    with pytest.raises(AnalyzerError, match="suits of some cards are unknown"):
        card_outcome_table(shoe, {"player_card1_colour"})
    assert len(card_outcome_table(shoe, {"player_card1_rank"})) == 13


def test_a_shoe_dealt_with_replacement_takes_nothing_from_its_counts() -> None:
    card_plan = plan({"player_card1_rank", "winner"})
    assert layout.lay_out(card_plan, Shoe.standard(1)).deal.take == 1
    infinite = layout.lay_out(card_plan, Shoe.infinite()).deal
    assert infinite.take == 0 and infinite.total == 52
    assert infinite.type_counts.tolist() == [4] * 13


def test_too_many_kinds_of_round_at_once_are_refused() -> None:
    fields = {"player_card1_rank", "player_card1_suit", "banker_card1_rank"} | {
        "banker_card1_suit",
        "player_card2_rank",
        "player_card2_suit",
        "banker_card2_rank",
        "player_score",
    }
    with pytest.raises(AnalyzerError, match="split the paytable"):
        layout.lay_out(plan(fields), Shoe.standard(8))


def test_fine_types_are_as_coarse_as_the_cards_allow() -> None:
    """A colour asked: value times colour (20 types); a rank compared with constants:
    the constants, and the rest of each value lumped; types the shoe lacks left out."""
    types = layout.fine_types(plan({"player_card1_colour"}), Shoe.standard(8))
    assert len(types.counts) == 20 and types.counts.sum() == 416
    assert (types.members.reshape(13, 4) >= 0).all()
    lumped = plan({"banker_card3_rank"}, {"banker_card3_rank": frozenset("JQK")})
    types = layout.fine_types(lumped, Shoe.standard(8))
    # J, Q, K, the rest of value 0 (tens), and values 1-9: 13 types.
    assert len(types.counts) == 13 and types.counts.sum() == 416
    assert types.members[9] != types.members[10] != types.members[11]
    few = shoe_of([(1, 0), (1, 1), (13, 2), (13, 2), (5, 3), (5, 3)])
    types = layout.fine_types(plan({"player_card1_rank"}), few)
    assert types.counts.tolist() == [2, 2, 2] and types.members.tolist().count(-1) == 10


def test_the_walk_digits_follow_the_kernels_order_by_name() -> None:
    """The walk fields' key digits are laid out and read back in the kernels' order, by
    name: the order :data:`WALK_FIELDS` lists them in plays no part."""
    assert sorted(WALK_DIGITS) == sorted(WALK_FIELDS)
    fields = set(WALK_FIELDS) | {"winner"}
    laid = layout.lay_out(plan(fields), shoe_of([(1, 0), (2, 1), (3, 2), (4, 3), (1, 1), (2, 2)]))
    assert laid.walk_digits == WALK_DIGITS
    assert all(getattr(laid.deal.walk, name) for name in WALK_DIGITS)
    n = len(PATTERNS)
    assert laid.shape[-len(WALK_DIGITS) :] == (10, n, 2, 2, n)


def test_suit_patterns_have_their_codes_and_names() -> None:
    assert [layout.n_partitions(n) for n in range(7)] == [1, 1, 2, 5, 15, 51, 187]
    suits = {"player_card1_suit", "player_card3_suit"}
    laid = layout.lay_out(plan(suits, None, suits), Shoe.standard(1))
    (first, third) = laid.suit_patterns.cards.tolist()
    assert (first, third) == (0, 4)
    # The first card opens block 0; the third joins it, opens block 1, or is not dealt.
    assert laid.pattern_suits.tolist() == [["S", "S"], ["S", "H"], ["S", ""]]
    assert laid.deal.by_pattern.tolist() == [True, False, False, False, True, False]
    codes = laid.suit_patterns.code_index
    assert [int(codes[d0 * 5 + d1]) for d0, d1 in ((0, 0), (0, 1), (0, 4))] == [0, 1, 2]


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=20, deadline=None)
@given(cards_strategy, st.sampled_from(FIELD_SETS))
def test_a_walk_dealt_in_shares_counts_every_deal_once(cards, fields) -> None:
    """One share per class of the first two cards dealt (the split walk: per point value)
    gives the same exact counts as every deal of the shoe."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(layout, "SHARE_VISITS", 1)
        shoe = shoe_of(cards)
        card_plan = plan(frozenset(fields))
        laid = layout.lay_out(card_plan, shoe)
        # Shares are classes of the first two cards: a shoe of one card type has one.
        types = len(laid.types.counts)
        if layout.visits(card_plan, types) > 1 and types > 1:
            assert len(laid.shares) > 1
            assert len(laid.shares[0]) == min(2, len(laid.deal.order) or 2)
        assert walk_counts(shoe, fields) == naive.card_reference(cards, fields)


def test_every_walk_of_the_shipped_paytables_comes_back_within_a_share() -> None:
    """No share of the shipped card bets' walks is above SHARE_VISITS rounds."""
    from analyzer.paytables.library import punto_banco_names

    for name in punto_banco_names():
        for bet in analyzer.load_paytable(name).bets:
            if not bet.card_level:
                continue
            card_plan = plan(bet.fields, bet.literals)
            laid = layout.lay_out(card_plan, Shoe.standard(8))
            visits = layout.visits(card_plan, len(laid.types.counts))
            assert visits / len(laid.shares) <= layout.SHARE_VISITS, (name, bet.id)


@pytest.mark.slow
@pytest.mark.kernels
@pytest.mark.parametrize(
    ("cards", "alike"),
    [
        # Every suit alike: a pattern's ways are 4 (4 - 1) ... times one suit's.
        ([(rank, suit) for rank in (1, 13) for suit in range(4)], True),
        # Suits of other sizes, an ace of spades twice, no club at all.
        ([(1, 0), (1, 0), (1, 1), (9, 2), (13, 1), (5, 0), (13, 2), (5, 1)], False),
        # One suit only, and one rank in only one suit.
        ([(1, 2), (7, 2), (13, 2), (13, 2), (2, 2), (1, 2), (8, 2)], False),
    ],
)
def test_suit_patterns_on_shoes_alike_and_depleted(cards, alike) -> None:
    shoe = shoe_of(cards)
    for fields in SUIT_PATTERN_FIELD_SETS[:3]:
        card_plan = plan(frozenset(fields), None, relational_suits(fields))
        laid = layout.lay_out(card_plan, shoe)
        assert (laid.types.suit_counts.shape[1] == 1) == alike
        assert pattern_counts(shoe, fields) == naive.suit_pattern_reference(cards, fields)


def test_key_columns_read_back_what_each_key_shows() -> None:
    """Every key the walk counts reads back as the fields asked, no more."""
    fields = {"player_card1_rank", "banker_card3_value", "first_four_flush", "winner"}
    laid = layout.lay_out(plan(fields), Shoe.standard(1))
    keys = np.array([0, int(np.prod(laid.shape)) - 1])
    columns = layout.key_columns(laid, keys)
    assert set(columns) == fields
    assert columns["banker_card3_value"].tolist()[-1] == -1  # not dealt, the last code
    assert columns["first_four_flush"].tolist() == [False, True]
