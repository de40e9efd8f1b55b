"""The walk compiled into terms, for any shoe, against the walk of each shoe."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Shoe
from analyzer.engine.card_walk import layout
from analyzer.engine.card_walk.planning import plan
from analyzer.engine.card_walk.terms import CardTerms, card_terms
from tests.engine.card_walk.deals import shoe_of, walk_counts

#: Field sets for the terms (each compiled once, on six decks): cards dealt alone, whole
#: rounds, third cards in detail, walk fields, pairs beside the result.
TERM_FIELD_SETS = [
    ["player_card1_colour", "banker_card2_rank"],
    ["banker_card3_rank", "winner"],
    ["first_four_pattern", "first_four_flush"],
    ["max_card_value", "player_card3_colour"],
    ["player_pair", "winner"],
    ["cards_pattern"],
]
_COMPILED_TERMS: dict[int, tuple[CardTerms, list[tuple]]] = {}


def _terms(index: int) -> tuple[CardTerms, list[tuple]]:
    """Terms of a field set with every kind of round its own class, and those kinds."""
    if index not in _COMPILED_TERMS:
        fields = TERM_FIELD_SETS[index]
        kinds: list[tuple] = []

        def classify(columns: dict[str, np.ndarray]) -> np.ndarray:
            kinds.extend(zip(*(columns[f].tolist() for f in fields), strict=True))
            return np.arange(len(kinds))

        _COMPILED_TERMS[index] = card_terms(set(fields), None, classify), kinds
    return _COMPILED_TERMS[index]


def _exact_term_weight(terms: CardTerms, term: int, counts: list[int]) -> int:
    """A term's weight in Python integers: the product of its falling factorials."""
    weight = 1
    for slot, offset, power in zip(
        terms.slot[term].tolist(),
        terms.offset[term].tolist(),
        terms.power[term].tolist(),
        strict=True,
    ):
        if slot < 0:
            break
        for j in range(power):
            weight *= counts[slot] - offset - j
    return weight


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 13), st.integers(0, 3)), min_size=6, max_size=40),
    st.integers(0, len(TERM_FIELD_SETS) - 1),
)
def test_terms_give_every_count_of_the_walk_exactly(cards, index) -> None:
    """Summed in integers, the terms give each kind of round exactly the ways the walk
    counts on the shoe itself, and nothing where it counts none."""
    terms, kinds = _terms(index)
    shoe = shoe_of(cards)
    composition = shoe.suit_counts.reshape(1, 52)
    counts = [round(x) for x in terms.term_counts(composition)[0].tolist()]
    weights = [_exact_term_weight(terms, t, counts) for t in range(len(terms.slot))]
    from_terms: Counter = Counter()
    for term, kind, count in zip(
        terms.term_index.tolist(), terms.cell_class.tolist(), terms.count.tolist(), strict=True
    ):
        from_terms[kinds[kind]] += count * weights[term]
    walked = walk_counts(shoe, TERM_FIELD_SETS[index])
    assert +from_terms == walked
    assert sum(from_terms.values()) == shoe.rounds_denominator
    # The compiled kernels give the same integers, class by class.
    ways = terms.class_ways(composition)[0].tolist()
    by_class = Counter()
    for term, kind, count in zip(
        terms.term_index.tolist(), terms.cell_class.tolist(), terms.count.tolist(), strict=True
    ):
        by_class[kind] += count * weights[term]
    assert ways == [by_class[c] for c in range(len(ways))]


@pytest.mark.kernels
def test_terms_leave_out_rounds_of_class_minus_one() -> None:
    """Only the rounds a class keeps are tallied; a plan with none keeps no term."""

    def red_first(columns: dict[str, np.ndarray]) -> np.ndarray:
        return np.where(columns["player_card1_colour"] == "red", 0, -1)

    terms = card_terms({"player_card1_colour"}, None, red_first)
    assert terms.by_suit and terms.n_types == 20  # point value times colour
    assert set(terms.cell_class.tolist()) == {0}
    # One red card of each value dealt, the other five cards anything: ten terms.
    assert len(terms.slot) == 10 and terms.count.tolist() == [1] * 10
    nothing = card_terms(
        {"player_card1_colour"}, None, lambda c: np.full(len(c["player_card1_colour"]), -1)
    )
    assert len(nothing.slot) == 0


@pytest.mark.kernels
def test_terms_that_outgrow_their_limit_are_not_compiled(monkeypatch) -> None:
    from analyzer.engine.card_walk import terms

    def every_kind(columns: dict[str, np.ndarray]) -> np.ndarray:
        return np.arange(len(columns["player_card1_colour"]))

    assert card_terms({"player_card1_colour"}, None, every_kind) is not None
    monkeypatch.setattr(terms, "MAX_TERMS", 3)
    assert card_terms({"player_card1_colour"}, None, every_kind) is None


def _tallied(t: CardTerms) -> Counter:
    rows = zip(t.term_index.tolist(), t.cell_class.tolist(), t.count.tolist(), strict=True)
    return Counter({(tuple(t.slot[i]), tuple(t.power[i]), c): n for i, c, n in rows})


@pytest.mark.slow
def test_terms_recorded_in_shares_are_the_same_terms(monkeypatch) -> None:
    fields = {"player_card1_colour", "banker_card3_rank", "winner"}

    def classify(columns: dict[str, np.ndarray]) -> np.ndarray:
        return (columns["winner"] == "tie").astype(np.int64)

    whole = card_terms(fields, None, classify)
    monkeypatch.setattr(layout, "SHARE_VISITS", 1)
    shared = card_terms(fields, None, classify)
    assert _tallied(shared) == _tallied(whole) and len(whole.slot) > 100


@pytest.mark.slow
def test_terms_of_a_split_walk_in_shares_are_recorded_card_by_card(monkeypatch) -> None:
    """Where the split walk counts (third cards by value), its shares are point values;
    the terms are recorded card by card, in shares of classes, and miss no round (they
    once took the point values for classes and left most rounds out)."""
    fields = {"player_card1_colour", "banker_card1_colour", "winner"}
    reference = Shoe.standard(6)
    assert layout.lay_out(plan(frozenset(fields)), reference).split

    def classify(columns: dict[str, np.ndarray]) -> np.ndarray:
        return (columns["winner"] == "banker").astype(np.int64)

    whole = card_terms(fields, None, classify)
    monkeypatch.setattr(layout, "SHARE_VISITS", 1)
    cut = layout.lay_out(plan(frozenset(fields)), reference)
    assert len(cut.shares) == 100 and len(cut.card_shares) == 20 * 20
    shared = card_terms(fields, None, classify)
    assert _tallied(shared) == _tallied(whole)
    full = Shoe.standard(8)
    assert shared.class_ways(full.suit_counts.reshape(1, 52)).sum() == full.rounds_denominator
