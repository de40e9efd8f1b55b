"""The bets settled together (columns.py) against each bet settled on its own on the table
(bets.py evaluates every condition row by row), and the plans they share."""

from __future__ import annotations

from fractions import Fraction

import naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import Shoe
from analyzer.analysis import columns
from analyzer.analysis.bets import evaluate_bet
from analyzer.analysis.columns import evaluate_bets
from analyzer.engine.counts import OutcomeCounts
from analyzer.engine.enumerator import count_outcomes
from analyzer.engine.outcomes import outcome_table
from analyzer.engine.pricing import pricing
from analyzer.errors import AnalyzerError
from analyzer.memo import Kept
from analyzer.paytables.library import seed_paytable

SEED = seed_paytable()
#: Every (bet, mode) of the seed game on the round's outcome: what analyze settles together.
OFFERED = [
    (bet, mode)
    for bet, mode in SEED.offered(("commission", "no_commission"))
    if pricing(bet).engine not in ("cards", "identities") and not bet.multiplied
]


@pytest.fixture(autouse=True)
def fresh_plans(monkeypatch):
    """Each test starts with no plan, so what it says of plans is its own doing."""
    monkeypatch.setattr(columns, "_plans", Kept(columns._MOST_PLANS))


def _alone(counts: OutcomeCounts, offered) -> list:
    table = outcome_table(counts)
    return [evaluate_bet(table, bet, mode) for bet, mode in offered]


def _same(together, alone) -> None:
    assert len(together) == len(alone)
    for a, b in zip(together, alone, strict=True):
        assert (a.bet.id, a.mode) == (b.bet.id, b.mode)
        assert a.expected_value == b.expected_value, (a.bet.id, a.mode)
        assert a.variance == b.variance, (a.bet.id, a.mode)
        assert a.hit_frequency == b.hit_frequency
        assert a.push_probability == b.push_probability
        assert [_shown(line) for line in a.lines] == [_shown(line) for line in b.lines]


def _shown(line) -> tuple:
    """What a line says: ways and matched as expected numbers of sequences (a mixed
    strategy's counts are scaled)."""
    ways, matched = Fraction(line.ways, line.scale), Fraction(line.matched, line.scale)
    return line.when, ways, matched, line.probability, line.payout


@pytest.mark.parametrize(("decks", "detail"), [(1, "suit"), (8, "suit"), (8, "none")])
def test_the_seed_bets_together_equal_each_alone(decks, detail) -> None:
    offered = (
        OFFERED if detail == "suit" else [o for o in OFFERED if pricing(o[0]).detail == "none"]
    )
    counts = count_outcomes(Shoe.standard(decks), detail)
    _same(evaluate_bets(counts, offered), _alone(counts, offered))


@pytest.mark.slow
def test_together_equals_the_brute_force_reference() -> None:
    reference = naive.reference_counts(Shoe.standard(1).suit_counts.tolist())
    for result in evaluate_bets(count_outcomes(Shoe.standard(1), "suit"), OFFERED):
        expected = naive.expected_value(reference, result.bet.id, result.mode)
        assert result.expected_value == expected, (result.bet.id, result.mode)


@st.composite
def depleted(draw):
    """Up to two decks with cards taken out by rank and suit, exhausted ranks included."""
    return [[draw(st.integers(0, 2)) for _ in range(4)] for _ in range(13)]


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(depleted())
def test_together_equals_alone_on_depleted_shoes(suit_counts) -> None:
    suits = np.array(suit_counts, dtype=np.int64)
    suits[0] += 2  # at least the six cards of a round
    counts = count_outcomes(Shoe(suits.sum(axis=1), suits), "suit")
    # One plan serves every shoe: each new cell a shoe reaches widens it.
    _same(evaluate_bets(counts, OFFERED), _alone(counts, OFFERED))


def test_a_plan_is_reused_and_widened_when_a_shoe_reaches_a_new_cell() -> None:
    aces_and_nines = np.zeros((13, 4), dtype=np.int64)
    aces_and_nines[[0, 8]] = 2
    small = count_outcomes(Shoe(aces_and_nines.sum(axis=1), aces_and_nines), "suit")
    full = count_outcomes(Shoe.standard(8), "suit")
    evaluate_bets(small, OFFERED)
    (plan,) = columns._plans.values()
    assert len(plan.cells) == np.count_nonzero(small.counts)
    evaluate_bets(full, OFFERED)
    (widened,) = columns._plans.values()
    assert widened is not plan
    assert set(plan.cells.tolist()) < set(widened.cells.tolist())
    _same(evaluate_bets(small, OFFERED), _alone(small, OFFERED))  # the wide plan serves it
    assert columns._plans.values() == [widened]


def test_python_integer_counts_are_settled_exactly() -> None:
    """A mixed strategy's counts can outgrow int64: they come as Python integers."""
    counts = count_outcomes(Shoe.standard(2), "suit")
    big = 10**40 + 7
    huge = OutcomeCounts(
        counts.counts.astype(object) * big,
        counts.pair_detail,
        counts.denominator * big,
        counts.shoe,
        counts.naturals,
        counts.scale * big,
    )
    _same(evaluate_bets(huge, OFFERED), _alone(counts, OFFERED))


def test_a_bet_on_fields_the_counts_lack_is_one_line() -> None:
    counts = count_outcomes(Shoe.standard(8), "none")
    pair = next((bet, mode) for bet, mode in OFFERED if pricing(bet).detail == "rank")
    with pytest.raises(AnalyzerError, match=f"bet '{pair[0].id}' needs .*pair"):
        evaluate_bets(counts, [pair])


@pytest.mark.parametrize("naturals", [(8, 9), (9,)])
def test_a_dealt_round_is_settled_by_its_cell_as_each_bet_settles_it(naturals) -> None:
    """The simulator's settlement by cell (every cell of the layout) against each bet's
    own conditions on the rows of a shoe's table."""
    from analyzer.game.rules import rules_from_table
    from analyzer.paytables.settle import settling_rule

    rules = rules_from_table({"naturals": "9"}) if naturals != (8, 9) else None
    counts = count_outcomes(Shoe.standard(1), "suit", rules)
    assert counts.naturals == naturals
    table = outcome_table(counts)
    cell_group, rule_of_group = columns.dealt_settlement(OFFERED, naturals)
    assert cell_group.shape == (counts.counts.size,)
    cells = np.flatnonzero(counts.counts)  # the table's rows, in order
    for j, (bet, _) in enumerate(OFFERED):
        expected = settling_rule(bet, table.columns, len(table))
        assert np.array_equal(rule_of_group[j][cell_group[cells]], expected), bet.id
