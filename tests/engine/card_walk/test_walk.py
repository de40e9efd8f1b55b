"""The card walk of one shoe against every ordered deal of tiny shoes of physical cards."""

from __future__ import annotations

from collections import Counter

import naive
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer import AnalyzerError, Shoe
from analyzer.engine.card_walk import kernels, layout
from analyzer.engine.card_walk.planning import plan
from analyzer.engine.card_walk.walk import CardWalk, card_outcome_table, count, walk_visits
from analyzer.game.fields import CARDS, FIELD, VOCABULARY
from tests.engine.card_walk.deals import (
    FIELD_SETS,
    FLUSH_SUM_FIELD_SETS,
    SUIT_PATTERN_FIELD_SETS,
    cards_strategy,
    pattern_counts,
    shoe_counts,
    shoe_of,
    walk_counts,
)

CARD_FIELDS = [field.name for field in VOCABULARY if field.card_level]


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=25, deadline=None)
@given(cards_strategy, st.sampled_from(FIELD_SETS))
def test_card_walk_equals_every_deal_of_a_tiny_shoe(cards, fields) -> None:
    shoe = shoe_of(cards)
    assert walk_counts(shoe, fields) == naive.card_reference(cards, fields)


@pytest.mark.parametrize("field", CARD_FIELDS)
def test_every_card_field_alone_on_a_shoe_of_nine(field) -> None:
    cards = [(1, 0), (1, 1), (9, 2), (12, 3), (13, 1), (5, 0), (10, 3), (2, 2), (1, 0)]
    assert walk_counts(shoe_of(cards), [field]) == naive.card_reference(cards, [field])


def test_exhausted_ranks_and_a_shoe_of_six() -> None:
    cards = [(13, 0), (13, 0), (13, 1), (13, 2), (13, 3), (12, 1)]  # kings and a queen
    fields = ["player_card1_suit", "banker_card2_rank", "banker_card3_colour", "winner"]
    assert walk_counts(shoe_of(cards), fields) == naive.card_reference(cards, fields)


#: Shoes for the flush by suit sums: suits uneven (the sums suit by suit), every rank
#: alike in every suit (one column: four times one suit's), a suit run out, four of a kind.
FLUSH_SHOES = [
    [(1, 0), (1, 0), (2, 0), (5, 0), (9, 1), (13, 2), (12, 0), (3, 3)],
    [(r, s) for r in (1, 13) for s in range(4)],
    [(4, 1), (4, 1), (7, 1), (10, 2), (11, 1), (6, 1)],
    [(8, s) for s in range(4)] + [(2, 0), (2, 1), (3, 0)],
]


@pytest.mark.parametrize("fields", FLUSH_SUM_FIELD_SETS)
@pytest.mark.parametrize("cards", FLUSH_SHOES)
def test_a_flush_summed_over_the_suits_equals_every_deal(cards, fields) -> None:
    """The walk deals the first four without their suits (fewer types than suit by suit)
    and gets every deal's counts exactly, on each way it deals them."""
    card_plan = plan(frozenset(fields))
    assert card_plan.flush_sum and not plan(frozenset(fields), suit_sums=False).flush_sum
    shoe = shoe_of(cards)
    deck = Shoe.standard(1)
    summed = layout.fine_types(card_plan, deck)
    by_suit = layout.fine_types(plan(frozenset(fields), suit_sums=False), deck)
    assert (summed.suits == -1).all() and len(summed.counts) * 4 == len(by_suit.counts)
    assert walk_counts(shoe, fields) == naive.card_reference(cards, fields)


@pytest.mark.kernels
@pytest.mark.parametrize("cards", FLUSH_SHOES)
def test_a_flush_read_from_the_suits_equals_every_deal(cards) -> None:
    """Dealt suit by suit (as a walk compiled into terms is), the first four's flush is
    read from their suits: every deal's counts exactly."""
    fields = ["first_four_flush", "first_four_straight", "player_card1_rank"]
    shoe = shoe_of(cards)
    laid = layout.lay_out(plan(frozenset(fields), suit_sums=False), shoe)
    assert not laid.plan.flush_sum
    out = count(laid, shoe)
    (keys,) = np.nonzero(out)
    columns = layout.key_columns(laid, keys)
    rows = zip(*(columns[f].tolist() for f in fields), strict=True)
    assert Counter(dict(zip(rows, out[keys].tolist(), strict=True))) == naive.card_reference(
        cards, fields
    )


@pytest.mark.kernels
def test_a_third_cards_rank_after_its_values_only_card_is_dealt_by_value() -> None:
    """The first four dealt by value, a third card by rank: a round whose third card is
    the only card of a value the first four dealt weighs nothing (the weight worked out
    round by round, fine-typed cards first)."""
    cards = [(5, 0), (9, 1), (13, 2), (1, 3), (2, 0), (7, 1), (12, 2)]
    for fields in (["player_card3_rank"], ["banker_card3_rank", "winner"]):
        assert walk_counts(shoe_of(cards), fields) == naive.card_reference(cards, fields)


def test_a_flush_summed_gives_the_suit_by_suit_walks_integers_on_a_depleted_deck() -> None:
    """Jackpot Baccarat's fields on one deck less some cards: the same integers, key by
    key, as the walk that deals every suit."""
    fields = frozenset(
        ["first_four_pattern", "first_four_flush", "first_four_straight"]
        + [f"{card}_rank" for card in CARDS[:4]]
    )
    counts = Shoe.standard(1).suit_counts.copy()
    counts[0, 0] = counts[12, :3] = counts[5, 1] = 0
    shoe = Shoe(counts.sum(axis=1), counts)
    summed, by_suit = (layout.lay_out(plan(fields, suit_sums=flag), shoe) for flag in (True, False))
    assert summed.plan.flush_sum and summed.visits * 100 < by_suit.visits
    tables = []
    for laid in (summed, by_suit):
        out = count(laid, shoe)
        (keys,) = np.nonzero(out)
        columns = layout.key_columns(laid, keys)
        rows = zip(*(columns[f].tolist() for f in sorted(fields)), strict=True)
        tables.append(dict(zip(rows, out[keys].tolist(), strict=True)))
    assert tables[0] == tables[1]


@pytest.mark.slow
def test_the_walk_agrees_with_the_pair_enumerator_on_eight_decks() -> None:
    """On a full shoe, a bet on pairs gets the same exact EV by either enumerator."""
    paytable = analyzer.seed_paytable()
    bet = paytable.bet("perfect_pair", "commission")
    exact = analyzer.analyze(bets=["perfect_pair"], mode="commission", decks=1).results[0]
    table = card_outcome_table(Shoe.standard(1), bet.fields)
    from analyzer.paytables.settle import Settlement

    assert Settlement(bet).expected_value(table.columns, table.ways, table.denominator) == (
        exact.expected_value
    )


@pytest.mark.parametrize(
    ("fields", "detail"),
    [
        ({"player_card1_rank", "winner"}, "none"),
        ({"player_pair", "banker_card1_colour"}, "rank"),
        ({"banker_suited_pair", "player_card2_rank"}, "suit"),
    ],
)
def test_the_table_says_how_far_it_tells_pairs_apart(fields, detail) -> None:
    """A card table's pair detail is one an outcome table may have: how far its fields
    tell the hands' pairs apart."""
    assert card_outcome_table(Shoe.standard(1), fields).pair_detail == detail


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=15, deadline=None)
@given(cards_strategy, st.sampled_from(["monkey", "lucky-nines", "fabulous-pair", "tie-max"]))
def test_lumping_values_no_constant_names_changes_nothing(cards, name) -> None:
    """A bet's table that tells apart only the constants its conditions name settles every
    bet exactly as dealing every physical card does."""
    from analyzer.paytables.settle import Settlement

    shoe = shoe_of(cards)
    for bet in analyzer.load_paytable(name).bets:
        lumped = card_outcome_table(shoe, bet.fields, bet.literals)
        fields = sorted(bet.fields)
        reference = naive.card_reference(cards, fields)
        columns = {
            f: np.array(
                [key[i] for key in reference], dtype=np.int64 if FIELD[f].kind is int else None
            )
            for i, f in enumerate(fields)
        }
        ways = np.array(list(reference.values()), dtype=np.int64)
        assert Settlement(bet).expected_value(lumped.columns, lumped.ways, lumped.denominator) == (
            Settlement(bet).expected_value(columns, ways, int(ways.sum()))
        )


@pytest.mark.parametrize(
    "fields",
    [
        ["banker_card3_rank", "winner"],  # whole rounds, card by card
        ["player_card1_colour", "winner"],  # the split walk (third cards by value)
        ["player_card1_suit", "banker_card2_rank"],  # the first cards alone
    ],
)
def test_ctrl_c_is_answered_between_two_shares_of_a_walk(monkeypatch, fields) -> None:
    """A signal during a long walk raises as soon as the share in progress ends: the
    compiled kernel never keeps Ctrl-C waiting for the whole walk (it once took 40 s)."""
    import signal

    from analyzer.interrupts import interrupts_raised

    shoe = Shoe.standard(8)
    split = layout.lay_out(plan(frozenset(fields)), shoe).split
    assert split == (fields[0] == "player_card1_colour")
    kernel_name = "split_walk" if split else "count_rounds"
    kernel = getattr(kernels, kernel_name)
    calls = []

    def share_then_ctrl_c(*arguments):
        calls.append(arguments)
        kernel(*arguments)
        if len(calls) == 1:
            signal.raise_signal(signal.SIGINT)  # arrives while the kernel runs, say

    monkeypatch.setattr(layout, "SHARE_VISITS", 1)
    monkeypatch.setattr(kernels, kernel_name, share_then_ctrl_c)
    assert len(layout.lay_out(plan(frozenset(fields)), shoe).shares) >= 10
    with pytest.raises(KeyboardInterrupt), interrupts_raised():
        card_outcome_table(shoe, set(fields))
    assert len(calls) == 1


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=25, deadline=None)
@given(cards_strategy, st.sampled_from(SUIT_PATTERN_FIELD_SETS))
def test_suit_patterns_equal_every_deal_of_a_tiny_shoe(cards, fields) -> None:
    """Counted by pattern, suits named in order of first appearance, a shoe whose suits
    differ gives the counts of dealing every physical card, exactly."""
    assert pattern_counts(shoe_of(cards), fields) == naive.suit_pattern_reference(cards, fields)


def _named_in_order(counts: Counter, fields: list[str]) -> Counter:
    """Counts by real suits, with each round's suits renamed S, H, D, C in order of first
    appearance (cards in deal order)."""
    suit_fields = sorted(
        (CARDS.index(f.removesuffix("_suit")), i)
        for i, f in enumerate(fields)
        if f.endswith("_suit")
    )
    out: Counter = Counter()
    for key, ways in counts.items():
        key = list(key)
        names: dict[str, str] = {"": ""}
        for _, i in suit_fields:
            names.setdefault(key[i], "SHDC"[len(names) - 1])
            key[i] = names[key[i]]
        out[tuple(key)] += ways
    return out


@pytest.mark.parametrize(
    "removed", ["", "AS AS AS 5H 5H KD KD KD KD KD KD KD 9C QC JC TC 2S 2H 2D 2C 3S 3S"]
)
@pytest.mark.parametrize(
    "fields",
    [
        SUIT_PATTERN_FIELD_SETS[4],
        ["player_card1_suit", "banker_card1_suit", "player_card2_suit", "winner"],
    ],
)
def test_suit_patterns_give_the_walks_own_integers_on_eight_decks(removed, fields) -> None:
    """Where suits can be walked one by one, counting by pattern gives the very same
    integers, renamed: on a full shoe and on one whose suits differ."""
    shoe = Shoe.standard(8).remove(analyzer.parse_cards(removed)) if removed else Shoe.standard(8)
    by_suit = _named_in_order(walk_counts(shoe, fields), fields)
    assert pattern_counts(shoe, fields) == by_suit


@pytest.mark.slow
def test_double_suited_three_card_eight_is_walked_on_eight_decks() -> None:
    """Both hands three cards of one suit (each its own) and 8: 4.2e9 rounds suit by
    suit (refused), 2.1e8 by pattern; the count is the independent value-level one."""
    from analyzer.paytables.conditions import parse_condition

    condition = parse_condition(
        "player_cards == 3 and banker_cards == 3 and player_score == 8 and banker_score == 8"
        " and player_card1_suit == player_card2_suit == player_card3_suit"
        " and banker_card1_suit == banker_card2_suit == banker_card3_suit"
    )
    assert condition.relational == {f"{card}_suit" for card in CARDS}
    fields, relational = condition.fields, condition.relational
    assert walk_visits(fields) > layout.MAX_VISITS
    with pytest.raises(AnalyzerError, match="too much of too many cards"):
        CardWalk(Shoe.standard(8), fields)
    walk = CardWalk(Shoe.standard(8), fields, None, relational)
    assert walk.visits < layout.MAX_VISITS / 10
    table = walk.table()
    hits = int(table.ways[condition.mask(table.columns, len(table))].sum())
    assert hits == naive.double_suited_three_card_eights(8) == 38_708_182_784


def test_a_mixed_strategy_walks_each_tableau_and_adds_them_up_exactly() -> None:
    """A mixture of two tableaus is walked twice (its cost counts both) and the table is
    their weighted sum over the mixed denominator."""
    from fractions import Fraction

    from analyzer.game.rules import STANDARD

    shoe = shoe_of([(1, 0), (4, 1), (9, 2), (12, 3), (13, 1), (5, 0), (6, 3), (2, 2)])
    fields = {"player_card1_rank", "winner"}
    pure = [t for _, t in STANDARD.mixture(None)]
    half = Fraction(1, 2)
    mixed = CardWalk(shoe, fields, mixture=((half, pure[0]), (half, pure[0])))
    alone = CardWalk(shoe, fields)
    assert mixed.visits == 2 * alone.visits
    table, single = mixed.table(), alone.table()
    assert table.denominator == 2 * single.denominator
    assert table.ways.tolist() == (2 * single.ways).tolist()


def test_walk_visits_sizes_the_walk_on_a_full_shoe() -> None:
    """The cost of a walk is known from its fields alone: suits by pattern cost less."""
    fields = {"player_card1_suit", "banker_card1_suit", "winner"}
    suits = {"player_card1_suit", "banker_card1_suit"}
    assert walk_visits(fields) == CardWalk(Shoe.standard(8), fields).visits
    by_pattern = CardWalk(Shoe.standard(8), fields, None, suits)
    assert walk_visits(fields, None, suits) == by_pattern.visits
    assert walk_visits(fields, None, suits) < walk_visits(fields)
    # A flush: the walk counts it by suit sums, the terms deal its suits (4^4 times more).
    flush = {"first_four_flush", "player_card1_rank"}
    assert walk_visits(flush, None, set()) == CardWalk(Shoe.standard(8), flush).visits
    assert walk_visits(flush) == walk_visits(flush, None, set()) * 4**4


# --- Cards dealt with replacement: the infinite deck ----------------------------------------

#: Tiny "decks" dealt with replacement: one to four cards (copies allowed).
replaced_strategy = st.lists(
    st.tuples(st.integers(1, 13), st.integers(0, 3)), min_size=1, max_size=4
)


def _replaced(cards: list[tuple[int, int]]) -> Shoe:
    counts = shoe_counts(cards)
    return Shoe(counts.sum(axis=1), counts, replacement=True)


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=30, deadline=None)
@given(replaced_strategy, st.sampled_from(FIELD_SETS))
def test_the_walk_with_replacement_equals_every_deal_of_a_tiny_deck(cards, fields) -> None:
    """Every way a card is dealt (card by card, split, the first cards alone), each card
    put back as it is dealt: exactly the counts of dealing every sequence of six."""
    shoe = _replaced(cards)
    counts = walk_counts(shoe, fields)
    assert counts == naive.card_reference_with_replacement(cards, fields)
    assert sum(counts.values()) == shoe.rounds_denominator == len(cards) ** 6


@pytest.mark.slow
@pytest.mark.kernels
@settings(max_examples=30, deadline=None)
@given(replaced_strategy, st.sampled_from(SUIT_PATTERN_FIELD_SETS))
def test_suit_patterns_with_replacement_equal_every_deal_of_a_tiny_deck(cards, fields) -> None:
    expected = naive.suit_pattern_reference_with_replacement(cards, fields)
    assert pattern_counts(_replaced(cards), fields) == expected


@pytest.mark.parametrize(
    ("cards", "fields"),
    [
        # Suits alike (one column) and not, every pattern block count.
        ([(1, s) for s in range(4)], SUIT_PATTERN_FIELD_SETS[0]),
        ([(1, 0), (1, 0), (13, 1), (5, 2)], SUIT_PATTERN_FIELD_SETS[1]),
        # One card only, dealt six times.
        ([(9, 3)], ["player_card1_rank", "banker_card3_suit", "winner"]),
        ([(9, 3)], ["cards_pattern", "first_four_straight"]),
    ],
)
def test_replacement_on_decks_alike_and_of_one_card(cards, fields) -> None:
    shoe = _replaced(cards)
    relational = {f for f in fields if f.endswith("_suit")}
    if plan(frozenset(fields), None, relational).suit_pattern:
        expected = naive.suit_pattern_reference_with_replacement(cards, fields)
        assert walk_counts(shoe, fields, relational) == expected
    assert walk_counts(shoe, fields) == naive.card_reference_with_replacement(cards, fields)


@pytest.mark.slow
def test_the_infinite_deck_card_by_card_agrees_with_the_value_walk() -> None:
    """On the infinite deck the card walk's winner and third cards, summed over what it
    tells apart of the cards, are the value walk's, exactly."""
    from fractions import Fraction

    from analyzer.engine.enumerator import count_outcomes
    from analyzer.engine.outcomes import outcome_table

    shoe = Shoe.infinite()
    values = outcome_table(count_outcomes(shoe))
    outcome = ("winner", "player_third", "banker_third")

    def probabilities(table) -> Counter:
        out: Counter = Counter()
        rows = zip(*(table.columns[f].tolist() for f in outcome), strict=True)
        for key, ways in zip(rows, table.ways.tolist(), strict=True):
            out[key] += Fraction(ways, table.denominator)
        return out

    expected = probabilities(values)
    for fields in (
        {"player_card1_colour", "banker_card3_rank"},  # card by card
        {"banker_card1_suit", "player_card2_rank"},  # split
    ):
        table = card_outcome_table(shoe, fields | set(outcome))
        assert table.denominator == 52**6
        assert probabilities(table) == expected
    suits = {f"{card}_suit" for card in CARDS}
    by_pattern = card_outcome_table(shoe, suits | set(outcome), None, suits)
    assert probabilities(by_pattern) == expected


def test_the_walk_agrees_with_the_pair_enumerator_on_the_infinite_deck() -> None:
    """A bet on pairs, each card put back as it is dealt: the same exact EV either way."""
    from analyzer.paytables.settle import Settlement

    bet = analyzer.seed_paytable().bet("perfect_pair", "commission")
    shoe = Shoe.infinite()
    exact = analyzer.analyze(bets=["perfect_pair"], mode="commission", shoe=shoe).results[0]
    table = card_outcome_table(shoe, bet.fields)
    assert Settlement(bet).expected_value(table.columns, table.ways, table.denominator) == (
        exact.expected_value
    )
