"""The card-level walk against every ordered deal of tiny shoes of physical cards."""

from __future__ import annotations

from collections import Counter

import naive
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import analyzer
from analyzer import AnalyzerError, Shoe
from analyzer.engine import card_walk
from analyzer.engine.card_walk import CardTerms, card_outcome_table, card_terms, plan
from analyzer.game.fields import CARDS, FIELD, VOCABULARY

CARD_FIELDS = [field.name for field in VOCABULARY if field.card_level]

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
]


def _shoe(cards: list[tuple[int, int]]) -> Shoe:
    counts = np.zeros((13, 4), dtype=np.int64)
    for rank, suit in cards:
        counts[rank - 1, suit] += 1
    return Shoe(counts.sum(axis=1), counts)


def _walk_counts(shoe: Shoe, fields: list[str], relational: set[str] | None = None) -> Counter:
    table = card_outcome_table(shoe, set(fields), None, relational)
    out: Counter = Counter()
    rows = zip(*(table.columns[f].tolist() for f in fields), strict=True)
    for key, ways in zip(rows, table.ways.tolist(), strict=True):
        out[key] += ways
    return out


cards_strategy = st.lists(st.tuples(st.integers(1, 13), st.integers(0, 3)), min_size=6, max_size=8)


@pytest.mark.kernels
@settings(max_examples=25, deadline=None)
@given(cards_strategy, st.sampled_from(FIELD_SETS))
def test_card_walk_equals_every_deal_of_a_tiny_shoe(cards, fields) -> None:
    shoe = _shoe(cards)
    assert _walk_counts(shoe, fields) == naive.card_reference(cards, fields)


@pytest.mark.parametrize("field", CARD_FIELDS)
def test_every_card_field_alone_on_a_shoe_of_nine(field) -> None:
    cards = [(1, 0), (1, 1), (9, 2), (12, 3), (13, 1), (5, 0), (10, 3), (2, 2), (1, 0)]
    assert _walk_counts(_shoe(cards), [field]) == naive.card_reference(cards, [field])


def test_exhausted_ranks_and_a_shoe_of_six() -> None:
    cards = [(13, 0), (13, 0), (13, 1), (13, 2), (13, 3), (12, 1)]  # kings and a queen
    fields = ["player_card1_suit", "banker_card2_rank", "banker_card3_colour", "winner"]
    assert _walk_counts(_shoe(cards), fields) == naive.card_reference(cards, fields)


def test_the_walk_agrees_with_the_pair_enumerator_on_eight_decks() -> None:
    """On a full shoe, a bet on pairs gets the same exact EV by either enumerator."""
    paytable = analyzer.seed_paytable()
    bet = paytable.bet("perfect_pair", "commission")
    exact = analyzer.analyze(bets=["perfect_pair"], mode="commission", decks=1).results[0]
    table = card_outcome_table(Shoe.standard(1), bet.fields)
    from analyzer.paytables.settle import expected_value

    assert expected_value(bet, table.columns, table.ways, table.denominator) == (
        exact.expected_value
    )


def test_suits_unknown_is_refused_for_suits_and_colours() -> None:
    shoe = Shoe.standard(8).remove(analyzer.parse_cards("5", suit_required=False))
    with pytest.raises(AnalyzerError, match="suits of some cards are unknown"):
        card_outcome_table(shoe, {"player_card1_colour"})
    assert len(card_outcome_table(shoe, {"player_card1_rank"})) == 13


def test_plan_deals_each_card_at_the_least_detail() -> None:
    p = plan({"banker_card3_rank", "winner"})
    assert p.fine == (False, False, False, False, False, True) and p.outcome == ("winner",)
    assert p.needs[5] == {"rank": None} and not p.needs_suits
    p = plan({"player_card1_colour", "player_card2_value"})
    assert p.fine == (True, False, False, False, False, False) and p.needs_suits
    assert p.needs[2] == {"value": None}
    p = plan({"banker_card3_rank", "player_card1_rank"}, {"banker_card3_rank": frozenset("JQK")})
    assert p.needs[5] == {"rank": frozenset("JQK")} and p.needs[0] == {"rank": None}
    assert FIELD["max_card_value"].card_level and not FIELD["player_pair"].card_level


@pytest.mark.kernels
@settings(max_examples=15, deadline=None)
@given(cards_strategy, st.sampled_from(["monkey", "lucky-nines", "fabulous-pair", "tie-max"]))
def test_lumping_values_no_constant_names_changes_nothing(cards, name) -> None:
    """A bet's table that tells apart only the constants its conditions name settles every
    bet exactly as dealing every physical card does."""
    from analyzer.paytables.settle import expected_value

    shoe = _shoe(cards)
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
        assert expected_value(bet, lumped.columns, lumped.ways, lumped.denominator) == (
            expected_value(bet, columns, ways, int(ways.sum()))
        )


# -- Terms: the walk compiled for any shoe ---------------------------------------------------

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


@settings(max_examples=12, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 13), st.integers(0, 3)), min_size=6, max_size=40),
    st.integers(0, len(TERM_FIELD_SETS) - 1),
)
def test_terms_give_every_count_of_the_walk_exactly(cards, index) -> None:
    """Summed in integers, the terms give each kind of round exactly the ways the walk
    counts on the shoe itself, and nothing where it counts none."""
    terms, kinds = _terms(index)
    shoe = _shoe(cards)
    composition = shoe.suit_counts.reshape(1, 52)
    counts = [round(x) for x in terms.term_counts(composition)[0].tolist()]
    weights = [_exact_term_weight(terms, t, counts) for t in range(len(terms.slot))]
    from_terms: Counter = Counter()
    for term, kind, count in zip(
        terms.term_index.tolist(), terms.cell_class.tolist(), terms.count.tolist(), strict=True
    ):
        from_terms[kinds[kind]] += count * weights[term]
    walked = _walk_counts(shoe, TERM_FIELD_SETS[index])
    assert +from_terms == walked
    assert sum(from_terms.values()) == shoe.rounds_denominator


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


# --- The walk in shares: back in Python between them -------------------------------------


@pytest.mark.kernels
@settings(max_examples=20, deadline=None)
@given(cards_strategy, st.sampled_from(FIELD_SETS))
def test_a_walk_dealt_in_shares_counts_every_deal_once(cards, fields) -> None:
    """One share per class of the first two cards dealt (the split walk: per point value)
    gives the same exact counts as every deal of the shoe."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(card_walk, "SHARE_VISITS", 1)
        shoe = _shoe(cards)
        card_plan = plan(frozenset(fields))
        layout = card_walk._layout(card_plan, shoe)
        if card_walk._visits(card_plan, len(layout.types.counts)) > 1:
            assert len(layout.shares) > 1
            assert len(layout.shares[0]) == min(2, len(layout.order) or 2)
        assert _walk_counts(shoe, fields) == naive.card_reference(cards, fields)


def test_terms_recorded_in_shares_are_the_same_terms(monkeypatch) -> None:
    fields = {"player_card1_colour", "banker_card3_rank", "winner"}

    def classify(columns: dict[str, np.ndarray]) -> np.ndarray:
        return (columns["winner"] == "tie").astype(np.int64)

    whole = card_terms(fields, None, classify)
    monkeypatch.setattr(card_walk, "SHARE_VISITS", 1)
    shared = card_terms(fields, None, classify)

    def terms(t: CardTerms) -> Counter:
        rows = zip(t.term_index.tolist(), t.cell_class.tolist(), t.count.tolist(), strict=True)
        return Counter({(tuple(t.slot[i]), tuple(t.power[i]), c): n for i, c, n in rows})

    assert terms(shared) == terms(whole) and len(whole.slot) > 100


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
    split = card_walk._layout(plan(frozenset(fields)), shoe).split
    assert split == (fields[0] == "player_card1_colour")
    kernel_name = "_split_walk_jit" if split else "_card_walk_jit"
    kernel = getattr(card_walk, kernel_name)
    calls = []

    def share_then_ctrl_c(*arguments):
        calls.append(arguments)
        kernel(*arguments)
        if len(calls) == 1:
            signal.raise_signal(signal.SIGINT)  # arrives while the kernel runs, say

    monkeypatch.setattr(card_walk, "SHARE_VISITS", 1)
    monkeypatch.setattr(card_walk, kernel_name, share_then_ctrl_c)
    assert len(card_walk._layout(plan(frozenset(fields)), shoe).shares) >= 10
    with pytest.raises(KeyboardInterrupt), interrupts_raised():
        card_outcome_table(shoe, set(fields))
    assert len(calls) == 1


def test_every_walk_of_the_shipped_paytables_comes_back_within_a_share() -> None:
    """No share of the shipped card bets' walks is above SHARE_VISITS rounds."""
    from analyzer.paytables.library import library_names

    for name in library_names():
        for bet in analyzer.load_paytable(name).bets:
            if not bet.card_level:
                continue
            card_plan = plan(bet.fields, bet.literals)
            layout = card_walk._layout(card_plan, Shoe.standard(8))
            visits = card_walk._visits(card_plan, len(layout.types.counts))
            assert visits / len(layout.shares) <= card_walk.SHARE_VISITS, (name, bet.id)


# --- Suits by pattern: bets that compare suits only with each other -----------------------

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


def _relational(fields: list[str]) -> set[str]:
    return {f for f in fields if f.endswith("_suit")}


def _pattern_counts(shoe: Shoe, fields: list[str]) -> Counter:
    card_plan = plan(frozenset(fields), None, _relational(fields))
    assert card_plan.suit_pattern  # counted by pattern, not suit by suit
    return _walk_counts(shoe, fields, _relational(fields))


@pytest.mark.kernels
@settings(max_examples=25, deadline=None)
@given(cards_strategy, st.sampled_from(SUIT_PATTERN_FIELD_SETS))
def test_suit_patterns_equal_every_deal_of_a_tiny_shoe(cards, fields) -> None:
    """Counted by pattern, suits named in order of first appearance, a shoe whose suits
    differ gives the counts of dealing every physical card, exactly."""
    assert _pattern_counts(_shoe(cards), fields) == naive.suit_pattern_reference(cards, fields)


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
    shoe = _shoe(cards)
    for fields in SUIT_PATTERN_FIELD_SETS[:3]:
        card_plan = plan(frozenset(fields), None, _relational(fields))
        layout = card_walk._layout(card_plan, shoe)
        assert (layout.types.suit_counts.shape[1] == 1) == alike
        assert _pattern_counts(shoe, fields) == naive.suit_pattern_reference(cards, fields)


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
    by_suit = _named_in_order(_walk_counts(shoe, fields), fields)
    assert _pattern_counts(shoe, fields) == by_suit


def test_plan_counts_suits_by_pattern_only_where_they_are_compared_with_each_other() -> None:
    suits = {"player_card1_suit", "banker_card1_suit"}
    assert plan(suits | {"winner"}, None, suits).suit_pattern == (0, 1)
    assert plan(suits | {"player_suited_pair"}, None, suits).suit_pattern == (0, 1, 2)
    assert not plan(suits).suit_pattern  # not said to be compared only with each other
    literal = {"player_card1_suit": frozenset("S")}
    assert not plan(suits, literal, {"banker_card1_suit"}).suit_pattern  # a suit named
    assert not plan(suits | {"banker_card2_colour"}, None, suits).suit_pattern  # a colour
    assert not plan(suits | {"first_four_flush"}, None, suits).suit_pattern  # the walk reads suits
    pattern = plan(suits | {"banker_card1_rank"}, None, suits)
    assert pattern.fine[:2] == (True, True) and pattern.needs_suits


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
    assert card_walk.walk_visits(fields) > card_walk.MAX_VISITS
    with pytest.raises(AnalyzerError, match="too much of too many cards"):
        card_walk.CardWalk(Shoe.standard(8), fields)
    walk = card_walk.CardWalk(Shoe.standard(8), fields, None, relational)
    assert walk.visits < card_walk.MAX_VISITS / 10
    table = walk.table()
    hits = int(table.ways[condition.mask(table.columns, len(table))].sum())
    assert hits == naive.double_suited_three_card_eights(8) == 38_708_182_784
