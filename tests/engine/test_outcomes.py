"""The outcome table: one row per distinct outcome, its fields and its exact ways."""

from __future__ import annotations

import naive
import numpy as np
import pandas as pd
import pytest

from analyzer import Shoe, count_outcomes, deal_round, outcome_table, parse_cards
from analyzer.engine.outcomes import round_table
from analyzer.game.fields import FIELD, FIELDS, WINNERS

#: A one-deck shoe less every 9 and three of the Kings: small, with an exhausted rank.
SUITS = [[1] * 4 for _ in range(8)] + [[0] * 4] + [[1] * 4 for _ in range(3)] + [[1, 0, 0, 0]]


def _row(table, i: int) -> dict:
    return {name: table.columns[name][i] for name in table.columns}


@pytest.mark.slow
@pytest.mark.kernels
def test_every_row_is_a_reference_outcome_with_its_fields() -> None:
    array = np.array(SUITS, dtype=np.int64)
    shoe = Shoe(array.sum(axis=1), array)
    reference = naive.reference_counts(SUITS)
    table = outcome_table(count_outcomes(shoe, "suit"))
    assert set(table.columns) == {name for name in FIELDS if not FIELD[name].card_level}
    assert len(table) == len(reference) and table.denominator == shoe.rounds_denominator
    assert int(table.ways.sum()) == table.denominator and (table.ways > 0).all()
    seen = {}
    for i in range(len(table)):
        row = _row(table, i)
        pp = 2 if row["player_suited_pair"] else int(row["player_pair"])
        bp = 2 if row["banker_suited_pair"] else int(row["banker_pair"])
        pt = None if row["player_third"] == -1 else int(row["player_third"])
        bt = None if row["banker_third"] == -1 else int(row["banker_third"])
        key = (pp, bp, int(row["player_score"]), int(row["banker_score"]), pt, bt)
        seen[key] = int(table.ways[i])
        expected = naive.condition_row(
            key[2], key[3], -1 if pt is None else pt, -1 if bt is None else bt, pp, bp
        )
        assert row == expected, key
    assert seen == dict(reference)


@pytest.mark.kernels
@pytest.mark.parametrize(
    ("detail", "pairs"),
    [
        ("none", set()),
        ("rank", {"player_pair", "banker_pair"}),
        ("suit", {"player_pair", "banker_pair", "player_suited_pair", "banker_suited_pair"}),
    ],
)
def test_pair_fields_are_there_when_the_counts_tell_them(detail, pairs) -> None:
    table = outcome_table(count_outcomes(Shoe.standard(1), detail))
    round_fields = {name for name in FIELDS if not FIELD[name].card_level}
    assert round_fields - set(table.columns) == (
        {"player_pair", "banker_pair", "player_suited_pair", "banker_suited_pair"} - pairs
    )
    assert table.pair_detail == detail
    assert int(table.ways.sum()) == Shoe.standard(1).rounds_denominator


@pytest.mark.parametrize(
    ("cards", "key"),
    [
        ("2S 3H 2D KC 8H", (2, 3, 8, -1, 1, 0)),  # a Player pair of 2s, other suits
        ("8S 2H KD 3C", (8, 5, -1, -1, 0, 0)),  # a natural
        ("6S 2H KD 3C 4H", (6, 9, -1, 4, 0, 0)),  # the Player stood, the Banker drew
        ("AS 2H AS 2H 5D 4C", (7, 8, 5, 4, 2, 2)),  # suited pairs (two decks), both draw
    ],
)
def test_a_dealt_round_is_one_row(cards, key) -> None:
    dealt = parse_cards(cards)
    table = round_table(deal_round(dealt))
    assert (len(table), table.denominator, table.ways.tolist()) == (1, 1, [1])
    row = _row(table, 0)
    assert {name: row[name] for name in naive.condition_row(*key)} == naive.condition_row(*key)
    physical = [(card.rank + 1, card.suit) for card in dealt]
    physical += [(13, 0)] * (6 - len(physical))  # cards the round does not use
    assert row == naive.card_round(physical)[0]


def test_the_frame_view() -> None:
    table = outcome_table(count_outcomes(Shoe.standard(8), "rank"))
    frame = table.to_frame()
    assert list(frame.columns) == [*table.columns, "ways"]
    assert isinstance(frame["winner"].dtype, pd.CategoricalDtype)
    assert list(frame["winner"].cat.categories) == list(WINNERS)
    assert frame["winner"].astype(str).tolist() == table.columns["winner"].tolist()
    assert int(frame["ways"].sum()) == table.denominator
