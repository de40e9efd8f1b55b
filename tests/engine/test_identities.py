"""The identity walk against every deal of tiny shoes, and against the value walk."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import naive
import numpy as np
import pytest
from helpers import shoe_of_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_multipliers import counted, hands_of

from analyzer import AnalyzerError, Shoe, count_outcomes
from analyzer.engine.identities import (
    N_MULTISETS,
    counted_cards,
    identity_outcomes,
    identity_outcomes_of,
    multiset_patterns,
    multisets,
    tableau_cells,
    value_groups,
)
from analyzer.engine.outcomes import identity_tables
from analyzer.game.cards import parse_cards
from analyzer.game.fields import NO_THIRD
from analyzer.game.identities import IDENTITY_PATTERNS, WALKED_KINDS, identity_pattern
from analyzer.game.rules import STANDARD, named_rules

PURE = STANDARD.mixture(None)


def brute_force(cards: list[tuple[int, int]], kind: str) -> Counter:
    """Ordered six-card sequences by (cell, counted identity pattern), dealt one by one."""
    out: Counter = Counter()
    for order in itertools.permutations(range(len(cards)), 6):
        dealt = [cards[i] for i in order]
        row, used = naive.card_round(dealt)
        player, banker = hands_of(dealt, used, row)
        pattern = identity_pattern(counted(kind, player, banker, row["winner"]))
        third = [NO_THIRD if t < 0 else t for t in (row["player_third"], row["banker_third"])]
        out[row["player_score"], row["banker_score"], *third, pattern] += 1
    return out


def walked(shoe: Shoe, kind: str, mixture=PURE) -> Counter:
    counts = identity_outcomes(shoe, kind, mixture).counts
    return Counter(
        {
            (*map(int, index[:4]), IDENTITY_PATTERNS[index[4]]): int(counts[index])
            for index in zip(*np.nonzero(counts), strict=True)
        }
    )


# Cards of a few identities, repeated so that the same card can be dealt twice: aces and
# tens of two suits, a king (another rank of value 0), a five and a nine.
POOL = [(1, 0), (1, 1), (10, 0), (10, 2), (13, 0), (5, 3), (9, 1)]


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(POOL), min_size=6, max_size=8), st.sampled_from(WALKED_KINDS))
def test_counts_by_counted_pattern_equal_every_deal(cards, kind) -> None:
    assert walked(shoe_of_cards(cards), kind) == brute_force(cards, kind)


@pytest.mark.slow
@pytest.mark.kernels
@pytest.mark.parametrize("kind", WALKED_KINDS)
def test_one_small_shoe_of_every_kind_of_round_equals_every_deal(kind) -> None:
    """Fixed cards (run again with the JIT off in CI): naturals, each hand drawing alone
    and both drawing, copies of one card and of one value."""
    cards = [(1, 0), (1, 0), (10, 0), (13, 0), (5, 3), (9, 1), (1, 1), (10, 2)]
    assert walked(shoe_of_cards(cards), kind) == brute_force(cards, kind)


@pytest.mark.kernels
def test_a_shoe_of_one_card_six_times_counts_one_pattern() -> None:
    # Six copies of one card: every round is 0-0, both hands draw, all one identity.
    cards = [(10, 0)] * 6
    for kind in WALKED_KINDS:
        assert walked(shoe_of_cards(cards), kind) == brute_force(cards, kind)
    assert walked(shoe_of_cards(cards), "both") == {(0, 0, 0, 0, (6,)): 720}


@pytest.mark.parametrize("kind", WALKED_KINDS)
def test_summed_over_patterns_the_counts_are_the_value_walks(kind) -> None:
    for shoe in (
        Shoe.standard(8),
        Shoe.standard(1).remove(parse_cards("AS AH 9D 9C KS 5S 5H")),
        Shoe.standard(27),
    ):
        counts = identity_outcomes(shoe, kind, PURE)
        reference = count_outcomes(shoe)
        assert counts.denominator == reference.denominator
        assert np.array_equal(counts.counts.sum(axis=-1), reference.counts[0])


def test_the_infinite_deck_counts_by_identity_in_lowest_terms() -> None:
    # With replacement: the 52 identities once each, 52**6 sequences; the same
    # probabilities per cell as the value walk's 13**6.
    counts = identity_outcomes(Shoe.infinite(), "player", PURE)
    assert counts.denominator == 52**6
    reference = count_outcomes(Shoe.infinite())
    by_cell = counts.counts.sum(axis=-1)
    for index in zip(*np.nonzero(reference.counts[0]), strict=True):
        assert Fraction(int(by_cell[index]), counts.denominator) == Fraction(
            int(reference.counts[0][index]), reference.denominator
        )
    # Each card of the Player's is some other card again with probability 1/52.
    shares = counts.counts.sum(axis=(0, 1, 2, 3))
    two_cards = Fraction(int(shares[IDENTITY_PATTERNS.index((2,))]), counts.denominator)
    assert two_cards > 0


def test_mixed_strategies_weigh_the_pure_walks() -> None:
    rules = named_rules("chemin-de-fer")
    from analyzer.game.rules import parse_strategy

    strategy = parse_strategy("player:5=1/3,banker:3/9=draw,banker:5/4=stand", "test")
    mixture = rules.mixture(strategy)
    shoe = Shoe.standard(2)
    mixed = identity_outcomes(shoe, "winner", mixture)
    reference = count_outcomes(shoe, rules=rules, strategy=strategy)
    assert mixed.scale == reference.scale
    assert np.array_equal(mixed.counts.sum(axis=-1), reference.counts[0])


def test_identity_groups_need_the_suits() -> None:
    shoe = Shoe.standard(1).remove(parse_cards("A 5", suit_required=False))
    with pytest.raises(AnalyzerError, match="suits of some cards are unknown"):
        value_groups(shoe)
    with pytest.raises(AnalyzerError, match="counts player, banker, both, winner"):
        identity_outcomes(Shoe.standard(1), "player_first_two", PURE)


@pytest.mark.slow
@pytest.mark.kernels
def test_one_walk_of_several_kinds_equals_each_kind_on_its_own() -> None:
    """All four kinds in one walk (a repeated kind once), on a tiny shoe and under a mixed
    strategy: each block is the brute force's."""
    cards = [(1, 0), (1, 0), (10, 0), (13, 0), (5, 3), (9, 1), (6, 2)]
    shoe = shoe_of_cards(cards)
    together = identity_outcomes_of(shoe, ("winner", "both", "player", "banker", "both"), PURE)
    assert list(together) == ["winner", "both", "player", "banker"]
    for kind, counts in together.items():
        assert counts.kind == kind
        by_cell = Counter(
            {
                (*map(int, index[:4]), IDENTITY_PATTERNS[index[4]]): int(counts.counts[index])
                for index in zip(*np.nonzero(counts.counts), strict=True)
            }
        )
        assert by_cell == brute_force(cards, kind), kind
    from analyzer.game.rules import parse_strategy

    strategy = parse_strategy("player:5=1/3,banker:3/9=draw,banker:5/4=stand", "test")
    mixed = named_rules("chemin-de-fer").mixture(strategy)
    apart = {kind: identity_outcomes(shoe, kind, mixed) for kind in ("player", "winner")}
    for kind, counts in identity_outcomes_of(shoe, ("player", "winner"), mixed).items():
        assert np.array_equal(counts.counts, apart[kind].counts)
        assert (counts.denominator, counts.scale) == (apart[kind].denominator, apart[kind].scale)
    with pytest.raises(AnalyzerError, match="not 'dealer'"):
        identity_outcomes_of(shoe, ("player", "dealer"), PURE)


def _every_multiset():
    return itertools.chain.from_iterable(
        itertools.combinations_with_replacement(range(10), k) for k in range(7)
    )


def _grown(values) -> int:
    here = 0
    for v in values:
        here = int(multisets()[0][here, v])
    return here


def test_the_multiset_tables_grow_and_split_multisets_as_sorted_tuples_do() -> None:
    """Every multiset of up to six values, as a sorted tuple: one id each, whatever order
    its cards are added in; ``top``/``top_count``/``rest`` split off the largest value's."""
    grow, top, top_count, rest = multisets()
    id_of = {values: _grown(values) for values in _every_multiset()}
    assert sorted(id_of.values()) == list(range(N_MULTISETS))
    for values, here in id_of.items():
        assert _grown(reversed(values)) == here
        for v in range(10):
            bigger = tuple(sorted((*values, v)))
            assert grow[here, v] == (id_of[bigger] if len(values) < 6 else -1)
        if values:
            largest = values[-1]
            assert top[here] == largest
            assert top_count[here] == values.count(largest)
            assert rest[here] == id_of[tuple(v for v in values if v != largest)]


@pytest.mark.parametrize(
    "shoe",
    [
        Shoe.standard(2),
        Shoe.standard(1).remove(parse_cards("AS AH 9D 9C KS 5S 5H")),
        Shoe.infinite(),
    ],
)
def test_each_multisets_ways_by_pattern_sum_to_its_falling_factorials(shoe) -> None:
    dealt = shoe.in_lowest_terms(suits=True)
    table = multiset_patterns(dealt)
    counts = [int(n) for n in dealt.value_counts]
    for values in _every_multiset():
        here = _grown(values)
        expected = 1
        for v in set(values):
            k = values.count(v)
            expected *= math.perm(counts[v], k) if dealt.take else counts[v] ** k
        ways = table.dense[here]
        assert int(ways.sum()) == int(table.total[here]) == expected, values
        # As many patterns as a partition of len(values) has; none beyond them.
        assert table.width[here] == sum(1 for p in IDENTITY_PATTERNS if sum(p) == len(values))
        assert not ways[table.width[here] :].any()


@pytest.mark.parametrize(
    ("rules", "play"),
    [
        ("standard", None),
        ("chemin-de-fer", "player:5=draw,banker:3/9=stand,banker:5/4=draw"),
        ("chemin-de-fer", "player:5=stand,banker:3/9=draw,banker:5/4=stand"),
        ("bahamian", None),
    ],
)
def test_the_cells_a_tableau_deals_are_the_value_walks_on_the_infinite_deck(rules, play) -> None:
    from analyzer.game.rules import parse_strategy

    strategy = None if play is None else parse_strategy(play, "test")
    ((_, tableau),) = named_rules(rules).mixture(strategy)
    cells, rows = tableau_cells(tableau)
    reference = count_outcomes(Shoe.infinite(), rules=named_rules(rules), strategy=strategy)
    assert np.array_equal(cells, np.flatnonzero(reference.counts[0]))
    assert np.array_equal(rows[cells], np.arange(len(cells)))
    assert (np.delete(rows, cells) == -1).all()


def test_the_tables_of_every_kind_share_their_rows_and_split_each_rows_ways() -> None:
    shoe = Shoe.standard(1).remove(parse_cards("AS 7H 7D"))
    tables = identity_tables(identity_outcomes_of(shoe, WALKED_KINDS, PURE))
    first = tables["player"]
    for kind, table in tables.items():
        assert table.columns is first.columns and table.counted == kind
        by_pattern = table.by_pattern
        assert table.multiplied_ways is by_pattern
        assert np.array_equal(by_pattern.ways.sum(axis=1), table.ways)
        # Only patterns of as many cards as the kind counts in the row, a column each.
        sizes = np.array([sum(p) for p in IDENTITY_PATTERNS])
        counted = counted_cards(kind, identity_outcomes(shoe, kind, PURE).cells)
        rows, columns = np.nonzero(by_pattern.ways)
        assert np.array_equal(sizes[by_pattern.patterns[columns]], counted[rows])
        assert set(columns) == set(range(len(by_pattern.patterns)))  # each one shown


def test_a_mixed_strategy_past_int64_counts_in_python_integers() -> None:
    """27 decks under weights of a large denominator: the sums leave int64 (Python
    integers), and still split each cell's ways, equal to the value walk's."""
    from analyzer.game.rules import parse_strategy

    rules = named_rules("chemin-de-fer")
    strategy = parse_strategy("player:5=1/1000003,banker:3/9=7/1000033,banker:5/4=stand", "test")
    shoe = Shoe.standard(27)
    reference = count_outcomes(shoe, rules=rules, strategy=strategy)
    for kind, counts in identity_outcomes_of(shoe, WALKED_KINDS, rules.mixture(strategy)).items():
        assert counts.ways.dtype == object, kind
        assert counts.scale == reference.scale
        assert np.array_equal(counts.counts.sum(axis=-1), reference.counts[0]), kind
        sizes = np.array([sum(p) for p in IDENTITY_PATTERNS])
        rows, patterns = np.nonzero(counts.ways)
        assert np.array_equal(sizes[patterns], counted_cards(kind, counts.cells)[rows])
