"""Exact symbolic EVs of value-level bets against the enumerator."""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import AnalyzerError, Shoe, analyze, load_paytable
from analyzer.engine.symbolic import VALUE_COUNTS, evaluate, expected_value_expression
from analyzer.paytables.model import paytable_from_dict

FEW = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(st.lists(st.integers(0, 40), min_size=10, max_size=10).filter(lambda v: sum(v) >= 6))
def test_symbolic_matches_enumerator(expressions, value_counts) -> None:
    ranks = np.array([*value_counts[1:], value_counts[0], 0, 0, 0], dtype=np.int64)  # 10s hold 0s
    analysis = analyze(shoe=Shoe(ranks), mode="commission", bets=list(expressions))
    for bet, expression in expressions.items():
        assert evaluate(expression, value_counts) == analysis.result(bet).expected_value


#: A bet that pays on few value sequences (dealing 4, 5 and 6 cards, paying 3:1, 1:2 and
#: losing) and pushes the rest: its expression has 75 terms, few enough for sympy to read
#: its text back.
FEW_TERMS = {
    "name": "F",
    "modes": ["m"],
    "bet": [
        {
            "id": "rare",
            "rule": [
                {"when": "natural and player_score == 9 and banker_score == 9", "pays": "3:1"},
                {
                    "when": "total_cards == 5 and player_third == 0 and player_score == 0 "
                    "and banker_score == 7",
                    "pays": "lose",
                },
                {
                    "when": "player_third == 9 and banker_third == 9 and player_score == 9 "
                    "and banker_score == 0",
                    "pays": "1:2",
                },
                {"when": "true", "pays": "push"},
            ],
        }
    ],
}


def test_the_text_of_an_expression_is_the_expression() -> None:
    """str() is written from the terms; sympy reads it back as the same function, which
    agrees with the enumerator and with the sympy expression itself."""
    bet = paytable_from_dict(FEW_TERMS).bet("rare", "m")
    expression = expected_value_expression(bet)
    names = {str(n): n for n in VALUE_COUNTS}
    read_back = sympy.sympify(str(expression), locals=names)
    for value_counts in ([12, 4, 4, 4, 4, 4, 4, 4, 4, 4], [30, 2, 9, 0, 7, 1, 3, 8, 5, 6]):
        ranks = np.array([*value_counts[1:], value_counts[0], 0, 0, 0], dtype=np.int64)
        exact = analyze(shoe=Shoe(ranks), paytable=paytable_from_dict(FEW_TERMS))
        assert evaluate(read_back, value_counts) == exact.result("rare").expected_value
        assert evaluate(expression.as_expr(), value_counts) == evaluate(read_back, value_counts)
        assert expression.evaluate(value_counts) == exact.result("rare").expected_value


def test_the_text_of_an_expression_names_the_shoe_size_once_per_sum(expressions) -> None:
    """EV = P4/ff(N, 4) + P5/ff(N, 5) + P6/ff(N, 6): N = n0 + ... + n9 is written three
    times, not once in each of 6,958 terms (sympy then took seconds to print it)."""
    total = " + ".join(f"n{v}" for v in range(10))
    for bet, expression in expressions.items():
        text = str(expression)
        assert text.count(total) == 3, bet
        for cards in (4, 5, 6):
            assert f")/FallingFactorial({total}, {cards})" in text
        assert len(repr(expression)) < 200 and bet in repr(expression)


def test_only_value_level_bets_have_an_expression() -> None:
    colour = load_paytable("colour-match").bets[0]
    with pytest.raises(AnalyzerError, match=r"looks at the cards themselves \(banker_card1_colour"):
        expected_value_expression(colour)
    with pytest.raises(AnalyzerError, match=r"^bet must be a Bet .*, got the class str$"):
        expected_value_expression(str)


@pytest.mark.slow
def test_a_fee_is_in_the_expression_per_unit_paid() -> None:
    """A bet with a fee: the expression gives the EV per unit paid (its fee a term of no
    card), equal to the exact analysis on full and depleted shoes, in both of its forms."""
    paytable = paytable_from_dict(
        {
            "name": "Fee",
            "fee": "0.25",
            "bet": [{"id": "banker", "rule": [{"when": "winner == 'banker'", "pays": "1:1"}]}],
        }
    )
    bet = paytable.bets[0]
    expression = expected_value_expression(bet)
    for shoe in (Shoe.standard(8), Shoe.standard(1).remove([])):
        exact = analyze(paytable=paytable, shoe=shoe).result("banker").expected_value
        assert evaluate(expression, shoe.value_counts) == exact
    depleted = Shoe(np.array([4, 4, 0, 4, 4, 1, 4, 4, 4, 4, 4, 4, 2]))
    exact = analyze(paytable=paytable, shoe=depleted).result("banker").expected_value
    assert evaluate(expression, depleted.value_counts) == exact
    assert evaluate(expression.as_expr(), depleted.value_counts) == exact
