"""The fields a bet can ask about: their ranges, their columns, and the third-card and
pair-state conventions."""

from __future__ import annotations

from itertools import product

import naive
import numpy as np
import pytest
from helpers import HEAD, reference_ev, write_paytable

from analyzer import analyze
from analyzer.engine.card_walk import card_outcome_table
from analyzer.engine.enumerator import count_outcomes
from analyzer.engine.outcomes import outcome_table
from analyzer.game.fields import (
    FIELD,
    FIELDS,
    INT_FIELD_RANGES,
    NO_THIRD,
    NO_THIRD_CARD,
    VOCABULARY,
    derived_columns,
    fold_suited_pairs,
    pair_columns,
    pair_detail_needed,
    third_card_field,
)
from analyzer.game.shoe import Shoe
from analyzer.paytables.library import load_paytable


def test_field_ranges_hold_in_a_real_table() -> None:
    """The ranges the 64-bit proof rests on are the rules' and the outcome table's."""
    assert INT_FIELD_RANGES == naive.CONDITION_FIELD_RANGES | naive.CARD_FIELD_RANGES
    assert set(INT_FIELD_RANGES) == {name for name, kind in FIELDS.items() if kind is int}
    table = outcome_table(count_outcomes(Shoe.standard(8), "suit"))
    cards = card_outcome_table(Shoe.standard(1), set(naive.CARD_FIELD_RANGES))
    for name, (lo, hi) in INT_FIELD_RANGES.items():
        columns = cards.columns if name in naive.CARD_FIELD_RANGES else table.columns
        assert (columns[name].min(), columns[name].max()) == (lo, hi), name


@pytest.mark.slow
def test_third_card_fields(tmp_path, reference_8_decks) -> None:
    path = write_paytable(
        tmp_path,
        HEAD
        + """
[[bet]]
id = "three_giving_eight"
[[bet.rule]]
when = "player_third == 8 and banker_third == -1 and banker_score == 3"
pays = "200:1"
""",
    )
    result = analyze(paytable=load_paytable(path)).result("three_giving_eight")
    expected = reference_ev(
        reference_8_decks, lambda k: 200 if k[4] == 8 and k[5] is None and k[3] == 3 else -1
    )
    assert result.expected_value == expected


# -- The vocabulary and its columns, against the rules as tests/naive.py writes them --------

#: Every value-level round: final scores, and third cards (-1: none).
ROUNDS = list(product(range(10), range(10), range(-1, 10), range(-1, 10)))


def test_the_vocabulary_is_what_a_round_tells() -> None:
    row = naive.condition_row(7, 6, -1, 4, 1, 2)
    cards = [(13, 0), (5, 1), (7, 2), (1, 3), (9, 1), (4, 0)]  # P 10-7 stands, B 5-A draws 9
    card_row, _ = naive.card_round(cards)
    assert list(FIELDS) == [field.name for field in VOCABULARY]
    assert list(row) == [field.name for field in VOCABULARY if not field.card_level][: len(row)]
    assert set(card_row) == set(FIELDS)
    assert {name: type(value) for name, value in card_row.items()} == FIELDS
    assert all(FIELD[name].kind is kind for name, kind in FIELDS.items())
    assert set(FIELD["winner"].values) == {"player", "banker", "tie"}


def test_derived_columns_match_the_rules_on_every_round() -> None:
    ps, bs, pt, bt = (np.array(column, dtype=np.int64) for column in zip(*ROUNDS, strict=True))
    columns = derived_columns(ps, bs, pt, bt)
    assert set(columns) == {f.name for f in VOCABULARY if f.detail == "none" and not f.card_level}
    for i, key in enumerate(ROUNDS):
        expected = naive.condition_row(*key)
        got = {name: column[i] for name, column in columns.items()}
        assert got == {name: expected[name] for name in columns}, key


PAIRS = {"player_pair", "banker_pair"}
SUITED = {"player_suited_pair", "banker_suited_pair"}


@pytest.mark.parametrize(
    ("detail", "wanted"), [("none", set()), ("rank", PAIRS), ("suit", PAIRS | SUITED)]
)
def test_pair_columns_tell_apart_what_the_detail_allows(detail, wanted) -> None:
    player, banker = np.divmod(np.arange(9), 3)  # every pair of states
    columns = pair_columns(player, banker, detail)
    assert set(columns) == wanted
    for i in range(9):
        expected = naive.condition_row(0, 0, -1, -1, int(player[i]), int(banker[i]))
        assert {name: bool(column[i]) for name, column in columns.items()} == {
            name: expected[name] for name in columns
        }


@pytest.mark.parametrize(
    ("fields", "detail"),
    [
        ((), "none"),
        (("winner", "player_third", "natural"), "none"),
        (("winner", "banker_pair"), "rank"),
        (("player_pair", "banker_suited_pair", "winner"), "suit"),
        (("player_suited_pair",), "suit"),
    ],
)
def test_pair_detail_needed_is_the_finest_a_field_asks_for(fields, detail) -> None:
    assert pair_detail_needed(fields) == detail


def test_no_third_card_on_the_axes_and_in_the_fields() -> None:
    assert NO_THIRD == 10 and NO_THIRD_CARD == -1
    axis = np.array([0, 9, NO_THIRD, 5, NO_THIRD])
    assert third_card_field(axis).tolist() == [0, 9, -1, 5, -1]
    assert third_card_field(axis).dtype == np.int64


def test_folding_suited_pairs_keeps_every_count() -> None:
    states = np.arange(2 * 3 * 3).reshape(2, 3, 3)  # two cells of (player, banker) states
    folded = states.copy()
    fold_suited_pairs(folded)
    for cell in range(2):
        before = states[cell]
        expected = np.zeros((3, 3), dtype=before.dtype)
        for p, b in product(range(3), range(3)):
            expected[min(p, 1), min(b, 1)] += before[p, b]  # a suited pair is a rank pair
        assert folded[cell].tolist() == expected.tolist()
    assert folded.sum() == states.sum()
