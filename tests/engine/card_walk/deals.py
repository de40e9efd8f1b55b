"""What the card walk's tests share: tiny shoes of physical cards, the walk's counts by
the values of some fields, and field sets that exercise every way a card is dealt."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import strategies as st

from analyzer import Shoe
from analyzer.engine.card_walk import card_outcome_table, plan
from analyzer.game.fields import CARDS

#: Field sets that exercise every way a card is dealt: by value, by rank, by colour, by
#: suit, by rank and suit; third cards; the outcome beside them; pairs beside cards.
FIELD_SETS = [
    ["player_card1_rank"],
    ["banker_card3_rank", "winner"],
    ["player_card1_suit", "player_card2_suit", "player_score"],
    ["player_card1_colour", "banker_card1_colour", "player_card3_colour", "banker_card3_colour"],
    ["player_card2_value", "banker_card3_value", "banker_third"],
    ["max_card_value", "winner"],
    ["player_card1_rank", "player_card1_suit", "banker_card2_colour", "player_pair"],
    ["banker_suited_pair", "banker_card1_rank", "total_cards"],
    [f"{card}_colour" for card in CARDS] + ["winner"],
    ["first_four_pattern", "first_four_flush", "first_four_straight", "winner"],
    ["cards_pattern", "banker_card3_value", "first_four_flush"],
    ["first_four_straight", "player_card1_rank", "max_card_value"],
    # Nothing asked of the round beyond the first four: only those cards are dealt.
    ["first_four_pattern", "first_four_flush", "banker_card2_rank"],
    ["player_card2_colour", "banker_card1_value"],
    # A flush that no other field reads a suit for is summed over the suits (the types by
    # value alone here); beside a suit asked of a card it is dealt suit by suit.
    ["first_four_flush"],
    ["first_four_flush", "first_four_straight", "player_card3_rank", "banker_card3_rank"],
    ["first_four_flush", "player_card1_suit", "banker_card3_value"],
]

#: The field sets whose flush is counted by suit sums (each way the walk deals the
#: first four: alone, split from the third cards, card by card with the third cards).
FLUSH_SUM_FIELD_SETS = [
    ["first_four_flush"],
    ["first_four_pattern", "first_four_flush", "banker_card2_rank"],
    ["first_four_pattern", "first_four_flush", "first_four_straight", "winner"],
    ["cards_pattern", "banker_card3_value", "first_four_flush"],
    ["first_four_flush", "first_four_straight", "player_card3_rank", "banker_card3_rank"],
]

#: Field sets whose suits are compared only with each other (relational): all six cards,
#: one hand's three, suits beside ranks and values, a suited pair beside them, the first
#: cards dealt alone, the third cards alone.
SUIT_PATTERN_FIELD_SETS = [
    [f"{card}_suit" for card in CARDS] + ["winner"],
    ["player_card1_suit", "player_card2_suit", "player_card3_suit", "player_score"],
    ["player_card1_suit", "banker_card1_suit", "player_card2_rank", "banker_card3_value"],
    ["banker_card1_suit", "banker_card2_suit", "banker_suited_pair", "banker_card1_rank"],
    ["player_card1_suit", "banker_card2_suit", "banker_card2_rank"],
    ["player_card3_suit", "banker_card3_suit", "total_cards"],
]

#: Tiny shoes of physical cards: (rank 1..13, suit 0..3), six to eight of them.
cards_strategy = st.lists(st.tuples(st.integers(1, 13), st.integers(0, 3)), min_size=6, max_size=8)


def shoe_counts(cards: list[tuple[int, int]]) -> np.ndarray:
    """The counts of these physical cards by rank and suit, (13, 4)."""
    counts = np.zeros((13, 4), dtype=np.int64)
    for rank, suit in cards:
        counts[rank - 1, suit] += 1
    return counts


def shoe_of(cards: list[tuple[int, int]]) -> Shoe:
    """The shoe of these physical cards."""
    counts = shoe_counts(cards)
    return Shoe(counts.sum(axis=1), counts)


def walk_counts(shoe: Shoe, fields: list[str], relational: set[str] | None = None) -> Counter:
    """The walk's ways by the values of ``fields``, in their order, over the shoe's own
    sequences (cards dealt with replacement are walked in lowest terms: scaled back)."""
    table = card_outcome_table(shoe, set(fields), None, relational)
    times, rest = divmod(shoe.rounds_denominator, table.denominator)
    assert rest == 0 and (times == 1 or shoe.replacement)
    out: Counter = Counter()
    rows = zip(*(table.columns[f].tolist() for f in fields), strict=True)
    for key, ways in zip(rows, table.ways.tolist(), strict=True):
        out[key] += ways * times
    return out


def relational_suits(fields: list[str]) -> set[str]:
    """The suit fields of ``fields``, said to be compared only with each other."""
    return {f for f in fields if f.endswith("_suit")}


def pattern_counts(shoe: Shoe, fields: list[str]) -> Counter:
    """:func:`walk_counts` with the suits counted by pattern (checked to be)."""
    card_plan = plan(frozenset(fields), None, relational_suits(fields))
    assert card_plan.suit_pattern  # counted by pattern, not suit by suit
    return walk_counts(shoe, fields, relational_suits(fields))
