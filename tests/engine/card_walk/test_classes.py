"""The class walk (classes.py) against the brute-force deal of tiny shoes and against the
card walk: each distinct tuple of fields a class of its own (every cylinder walked), and
the same keys lumped into a few classes at random (the class of no leaf taking the rest),
and the rank pattern of the cards."""

from __future__ import annotations

import os
import zlib
from collections import Counter

import naive
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Shoe
from analyzer.engine.card_walk import plan
from analyzer.engine.card_walk.classes import (
    MAX_KEYS,
    class_trees,
    class_ways,
    key_space,
)
from analyzer.engine.card_walk.planning import CardPlan
from analyzer.game.fields import CARDS
from analyzer.game.rules import STANDARD_TABLEAU
from tests.engine.card_walk.deals import (
    FIELD_SETS,
    cards_strategy,
    shoe_counts,
    shoe_of,
    walk_counts,
)

#: Examples per hypothesis test: fewer where the kernels run as plain Python (CI's JIT-off
#: coverage step measures their lines; the compiled runs test them).
EXAMPLES = 10 if os.environ.get("NUMBA_DISABLE_JIT") == "1" else 30

#: The field sets of the card walk's tests that the class walk counts (no field worked out
#: from several cards' ranks or suits), and sets that hold one value's cards to sets that
#: overlap (a colour at one card, a rank at another: the slow, general cylinder).
CLASS_FIELD_SETS = [
    fields
    for fields in FIELD_SETS
    if key_space(plan(frozenset(fields)), STANDARD_TABLEAU) is not None
] + [
    ["player_card1_colour", "player_card2_rank", "winner"],
    ["banker_card1_suit", "banker_card2_rank", "banker_card3_colour", "total_cards"],
    ["player_card1_colour", "player_card3_rank", "max_card_value"],
    # The rank pattern of every card dealt, worked out from each path's values.
    ["cards_pattern", "winner"],
    ["cards_pattern", "max_card_value", "total_cards"],
]


def test_the_class_walk_counts_most_of_the_card_walks_field_sets() -> None:
    assert len(CLASS_FIELD_SETS) >= 12
    for fields in (["first_four_flush"], ["cards_pattern", "player_card1_colour"]):
        assert key_space(plan(frozenset(fields)), STANDARD_TABLEAU) is None


def _space(fields: list[str]):
    card_plan = plan(frozenset(fields))
    space = key_space(card_plan, STANDARD_TABLEAU)
    assert space is not None and space.size <= MAX_KEYS
    return card_plan, space


#: The trees of each labelling of a field set's keys, sorted once for every shoe a test
#: deals them on.
_TREES: dict = {}


def class_counts(shoe: Shoe, fields: list[str], label=None) -> Counter:
    """The class walk's ways on ``shoe``, each class the keys of one tuple of ``fields``
    (or of one ``label`` of such tuples), over the shoe's own sequences."""
    card_plan, space = _space(fields)
    keys = list(zip(*(space.columns[f].tolist() for f in fields), strict=True))
    tuples = list(dict.fromkeys(keys))
    names = tuples if label is None else sorted({label(t) for t in tuples})
    index = {name: i for i, name in enumerate(names)}
    of = (lambda t: t) if label is None else label
    classes = np.array([index[of(key)] for key in keys], dtype=np.int64)
    key = (tuple(fields), classes.tobytes())  # (the trees of one labelling, sorted once)
    trees = _TREES.get(key)
    if trees is None:
        trees = _TREES[key] = class_trees(space, classes, len(names))
    dealt = shoe.in_lowest_terms(suits=card_plan.needs_suits)
    ways = class_ways(space, trees, dealt)
    times = shoe.rounds_denominator // dealt.rounds_denominator
    return Counter({names[c]: w * times for c, w in enumerate(ways.tolist()) if w})


def _lumped(counts: Counter, label) -> Counter:
    out: Counter = Counter()
    for key, ways in counts.items():
        out[label(key)] += ways
    return out


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=EXAMPLES, deadline=None)
@given(cards_strategy, st.sampled_from(CLASS_FIELD_SETS))
def test_every_class_of_its_own_equals_every_deal_of_a_tiny_shoe(cards, fields) -> None:
    assert class_counts(shoe_of(cards), fields) == naive.card_reference(cards, fields)


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=EXAMPLES, deadline=None)
@given(cards_strategy, st.sampled_from(CLASS_FIELD_SETS), st.integers(0, 2**32 - 1))
def test_keys_lumped_at_random_equal_every_deal_of_a_tiny_shoe(cards, fields, seed) -> None:
    """Any class of any keys: the trees sort them, and the class with most leaves takes
    what the others leave of each path."""
    rng = np.random.default_rng(seed)
    labels: dict = {}

    def label(key):
        return labels.setdefault(key, int(rng.integers(0, 3)))

    _, space = _space(fields)
    for key in zip(*(space.columns[f].tolist() for f in fields), strict=True):
        label(key)
    expected = _lumped(naive.card_reference(cards, fields), label)
    assert class_counts(shoe_of(cards), fields, label) == expected


@pytest.mark.parametrize(
    "cards",
    [
        # Exhausted ranks and a shoe of six: every path deals the shoe out.
        [(1, 0), (1, 1), (10, 2), (12, 3), (13, 1), (13, 1)],
        # Every card of one value (10 J Q K) in one colour, another value missing.
        [(10, 0), (11, 3), (12, 0), (13, 3), (4, 1), (4, 2), (9, 0)],
    ],
)
@pytest.mark.parametrize("fields", CLASS_FIELD_SETS)
def test_exhausted_ranks_and_colours(cards, fields) -> None:
    assert class_counts(shoe_of(cards), fields) == naive.card_reference(cards, fields)


#: Field sets whose leaves hold every card they deal to a set, none free (the walk works
#: their first four's product out once per tuple of first values): the six cards'
#: colours, with the outcome or the cards dealt.
HELD_ONLY_FIELD_SETS = [
    [f"{card}_colour" for card in CARDS],
    [f"{card}_colour" for card in CARDS] + ["total_cards"],
    [f"{card}_colour" for card in CARDS] + ["winner"],
]


@pytest.mark.kernels
@pytest.mark.parametrize(
    "cards",
    [
        # Values with no card of a colour (10 J Q K black only, 4 red only, 9 black).
        [(10, 0), (11, 3), (12, 0), (13, 3), (4, 1), (4, 2), (9, 0)],
        [(1, 0), (1, 1), (2, 2), (5, 0), (9, 1), (13, 2), (12, 0), (3, 3)],
    ],
)
@pytest.mark.parametrize("fields", HELD_ONLY_FIELD_SETS)
def test_leaves_holding_every_card_equal_every_deal(cards, fields) -> None:
    _, space = _space(fields)
    keys = list(zip(*(space.columns[f].tolist() for f in fields), strict=True))
    index = {key: i for i, key in enumerate(dict.fromkeys(keys))}
    trees = class_trees(space, np.array([index[k] for k in keys], np.int64), len(index))
    assert trees.held_only[trees.leaf_class >= 0].all()
    assert class_counts(shoe_of(cards), fields) == naive.card_reference(cards, fields)
    # Lumped: the leaves of a few classes, the rest the class with no leaf.
    label = lambda key: zlib.crc32(repr(key).encode()) % 3  # noqa: E731
    expected = _lumped(naive.card_reference(cards, fields), label)
    assert class_counts(shoe_of(cards), fields, label) == expected


@pytest.mark.kernels
@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 13), st.integers(0, 3)), min_size=1, max_size=4),
    st.sampled_from(CLASS_FIELD_SETS),
)
def test_with_replacement_equals_every_deal_of_a_tiny_deck(cards, fields) -> None:
    counts = shoe_counts(cards)
    shoe = Shoe(counts.sum(axis=1), counts, replacement=True)
    assert class_counts(shoe, fields) == naive.card_reference_with_replacement(cards, fields)


@pytest.mark.slow
@pytest.mark.parametrize(
    "fields",
    [
        [f"{card}_colour" for card in CARDS] + ["winner", "player_score"],
        ["player_card3_rank", "banker_card3_rank", "total_cards", "winner"],
        ["player_card1_colour", "player_card2_rank", "max_card_value", "winner"],
    ],
)
def test_the_card_walks_integers_on_a_depleted_eight_deck_shoe(fields) -> None:
    """Both walks on 8 decks less some cards by rank and suit: the same integers."""
    counts = Shoe.standard(8).suit_counts.copy()
    counts[[0, 9, 12], [1, 2, 0]] -= [7, 5, 3]
    counts[11] = 0
    shoe = Shoe(counts.sum(axis=1), counts)
    assert class_counts(shoe, fields) == walk_counts(shoe, fields)


def test_one_class_walks_no_tree_and_sums_to_the_denominator() -> None:
    """Keys all of one class: no leaf anywhere, every path's ways to that class."""
    fields = [f"{card}_colour" for card in CARDS]
    _, space = _space(fields)
    trees = class_trees(space, np.zeros(space.size, dtype=np.int64), 1)
    assert trees.n_leaves == 0 and len(trees.card) == 0
    shoe = Shoe.standard(2)
    assert class_ways(space, trees, shoe).tolist() == [shoe.rounds_denominator]


def test_super_ties_colours_are_two_leaves_per_outcome() -> None:
    """All six cards one colour against the rest: per outcome the two cylinders all red
    and all black, and the rest (62 kinds of deal) never walked."""
    fields = [f"{card}_colour" for card in CARDS]
    _, space = _space(fields)
    keys = zip(*(space.columns[f].tolist() for f in fields), strict=True)
    one_colour = np.array([len(set(key)) == 1 for key in keys], dtype=np.int64)
    trees = class_trees(space, one_colour, 2)
    assert trees.n_leaves == 2 and trees.rest.tolist() == [0]
    assert trees.simple.all()


def test_suits_asked_of_a_shoe_without_them_are_refused() -> None:
    from analyzer.errors import AnalyzerError

    fields = ["player_card1_suit", "winner"]
    _, space = _space(fields)
    trees = class_trees(space, np.zeros(space.size, dtype=np.int64), 1)
    with pytest.raises(AnalyzerError, match="suits of some cards are unknown"):
        class_ways(space, trees, Shoe(Shoe.standard(1).rank_counts))


def test_no_class_walk_for_suit_patterns_or_rank_patterns() -> None:
    suits = [f"{card}_suit" for card in CARDS]
    assert isinstance(plan(frozenset(suits), None, frozenset(suits)), CardPlan)
    assert key_space(plan(frozenset(suits), None, frozenset(suits)), STANDARD_TABLEAU) is None
    assert key_space(plan(frozenset({"first_four_pattern"})), STANDARD_TABLEAU) is None


#: Fields whose classes below stay the same when a hand's first two cards swap places.
SWAPPED = [
    "player_card1_colour",
    "player_card2_colour",
    "banker_card1_rank",
    "banker_card2_rank",
    "player_card3_colour",
    "winner",
]


def _either_order(key: tuple) -> tuple:
    """A class blind to the order of each hand's first two cards."""
    return (tuple(sorted(key[0:2])), tuple(sorted(key[2:4])), key[4], key[5])


@pytest.mark.slow
def test_classes_blind_to_the_order_of_a_hands_first_two_cards_are_dealt_in_one() -> None:
    _, space = _space(SWAPPED)
    keys = list(zip(*(space.columns[f].tolist() for f in SWAPPED), strict=True))
    names = sorted({_either_order(key) for key in keys})
    index = {name: i for i, name in enumerate(names)}
    blind = np.array([index[_either_order(key)] for key in keys], dtype=np.int64)
    trees = class_trees(space, blind, len(names))
    assert trees.swap_player and trees.swap_banker
    every = np.arange(space.size, dtype=np.int64)  # each key its own class: no swap
    own = class_trees(space, every, space.size)
    assert not own.swap_player and not own.swap_banker


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=EXAMPLES, deadline=None)
@given(cards_strategy)
def test_one_order_of_the_first_two_cards_equals_every_deal_of_a_tiny_shoe(cards) -> None:
    expected = _lumped(naive.card_reference(cards, SWAPPED), _either_order)
    assert class_counts(shoe_of(cards), SWAPPED, _either_order) == expected
