"""The game tree of a coup (every action of each side, counted) against every ordered
deal: physical cards dealt by ``itertools`` on small shoes, and every six-value sequence
(numpy) on the infinite deck and 8 decks."""

from __future__ import annotations

from math import perm

import naive_game
import numpy as np
import pytest

from analyzer.engine.game_tree import (
    BANKER_LOSES,
    BANKER_WINS,
    INFINITE_DECK,
    game_table,
    shoe_game_table,
)
from analyzer.errors import AnalyzerError
from analyzer.game.shoe import Shoe

#: Every test here is fast, with the JIT off too (CI measures the kernels' lines so).
pytestmark = pytest.mark.kernels

#: A small shoe with repeated and missing values: the removal of each card matters.
SMALL_SHOE = [0, 0, 1, 3, 5, 5, 6, 7, 9]


def _value_counts(cards: list[int]) -> np.ndarray:
    return np.bincount(cards, minlength=10).astype(np.int64)


@pytest.mark.parametrize("naturals", [(8, 9), (9,), ()])
def test_a_small_shoe_matches_every_ordered_deal_of_its_cards(naturals) -> None:
    cells, first_two = naive_game.deal_every_card(SMALL_SHOE, naturals)
    table = game_table(_value_counts(SMALL_SHOE), naturals=naturals)
    assert np.array_equal(table.cells, cells)
    assert np.array_equal(table.first_two, first_two)
    assert table.denominator == perm(len(SMALL_SHOE), 6) == first_two.sum()
    assert table.naturals == tuple(sorted(naturals)) and not table.with_replacement


def test_a_six_card_shoe_deals_each_card_once() -> None:
    cards = [1, 2, 2, 4, 0, 8]
    cells, first_two = naive_game.deal_every_card(cards)
    table = game_table(_value_counts(cards))
    assert np.array_equal(table.cells, cells) and np.array_equal(table.first_two, first_two)
    assert table.denominator == 720


def test_with_replacement_matches_every_weighted_sequence() -> None:
    weights = [2, 0, 1, 0, 0, 3, 0, 1, 0, 0]
    cells, first_two = naive_game.deal_with_replacement(weights)
    table = game_table(weights, with_replacement=True)
    assert np.array_equal(table.cells, cells)
    assert np.array_equal(table.first_two, first_two)
    assert table.denominator == 7**6 and table.with_replacement


@pytest.mark.parametrize("decks", [None, 8])
def test_the_infinite_deck_and_eight_decks_match_every_six_value_sequence(decks) -> None:
    shoe = None if decks is None else Shoe.standard(decks)
    values, ways = naive_game.six_value_sequences(None if shoe is None else shoe.value_counts)
    cells, first_two = naive_game.table_of_sequences(values, ways)
    table = shoe_game_table(shoe)
    assert np.array_equal(table.cells, cells)
    assert np.array_equal(table.first_two, first_two)
    assert table.denominator == (13**6 if shoe is None else perm(416, 6))


def test_every_action_of_each_side_accounts_for_every_coup() -> None:
    """Whatever each side does, the coups through a pair of totals add up to all of them:
    the Player standing puts them all in the stood column, drawing spreads them over the
    third-card values."""
    table = game_table(_value_counts(SMALL_SHOE))
    by_action = table.cells.sum(axis=(3, 5))  # [p, d, b, a]
    for p in range(8):
        for b in range(8):
            for d in (0, 1):
                for a in (0, 1):
                    assert by_action[p, d, b, a] == table.first_two[p, b]
            assert table.cells[p, 0, b, :10].sum() == 0  # standing never reaches 0-9
            assert table.cells[p, 1, b, 10].sum() == 0  # drawing never reaches "stood"
    assert table.cells[8:].sum() == 0 and table.cells[:, :, 8:].sum() == 0  # naturals
    signed = table.signed()
    assert np.array_equal(signed, table.cells[..., BANKER_WINS] - table.cells[..., BANKER_LOSES])


def test_the_naturals_net_is_the_banker_s_over_natural_totals() -> None:
    table = shoe_game_table(None)
    net = sum(
        int(np.sign(b - p)) * int(table.first_two[p, b])
        for p in range(10)
        for b in range(10)
        if p >= 8 or b >= 8
    )
    assert table.natural_net() == net
    assert table.first_two.sum() == 13**6


def test_the_infinite_deck_weights_tens_four_to_one() -> None:
    assert INFINITE_DECK.tolist() == [4] + [1] * 9
    a = shoe_game_table(None)
    b = game_table(INFINITE_DECK, with_replacement=True)
    assert np.array_equal(a.cells, b.cells) and a.denominator == b.denominator


@pytest.mark.parametrize(
    ("weights", "options", "message"),
    [
        ([1] * 9, {}, "10 whole numbers"),
        ([1.0] * 10, {}, "10 whole numbers"),
        ([[1] * 10], {}, "10 whole numbers"),
        ([1, 1, 1, 1, 1, 0, 0, 0, 0, 0], {}, "impossible shoe: 5 cards"),
        ([-1] + [4] * 9, {}, "must not be negative"),
        ([200] * 10, {}, "too large"),
        ([0] * 10, {"with_replacement": True}, "all zero"),
        ([200] * 10, {"with_replacement": True}, "does not fit"),
        ([4] * 10, {"naturals": (10,)}, "totals 0-9"),
        ([4] * 10, {"naturals": "89"}, "list of totals"),
        ([4] * 10, {"naturals": (True,)}, "totals 0-9"),
    ],
)
def test_bad_weights_are_one_clear_error(weights, options, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        game_table(weights, **options)


def test_a_shoe_must_be_a_shoe_or_none() -> None:
    with pytest.raises(AnalyzerError, match="a Shoe or None"):
        shoe_game_table(8)
