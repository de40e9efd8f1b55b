"""The exact expected value of a value-level bet as a sympy rational function of the shoe.

For bets that look only at point values (scores, cards per hand, naturals, third cards:
no pairs), a bet's expected value per unit on a shoe with ``n_v`` cards of point value
``v`` (``N`` in all) is

    EV(n) = sum_t C_t * prod_v ff(n_v, k_tv) * ff(N - u_t, 6 - u_t) / ff(N, 6)

over the compiled walk terms of :mod:`analyzer.engine.terms`, with exact rational ``C_t``: the
net payout summed over the value sequences of shape ``t``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from analyzer.engine.terms import term_coefficients, walk_terms
from analyzer.game.cards import N_VALUES
from analyzer.game.shoe import ROUND_CARDS
from analyzer.paytables.model import Bet

#: n0 ... n9: cards of each point value in the shoe.
VALUE_COUNTS = sympy.symbols(f"n0:{N_VALUES}", integer=True, nonnegative=True)


def _ff(x: sympy.Expr, k: int) -> sympy.Expr:
    # Kept unevaluated: expanding every falling factorial into a polynomial makes the
    # expression tens of times larger and slow to substitute into.
    return sympy.FallingFactorial(x, k, evaluate=False)


def expected_value_expression(bet: Bet) -> sympy.Expr:
    """EV per unit of a value-level bet as an exact expression in n0 ... n9."""
    terms = walk_terms()
    total = sympy.Add(*VALUE_COUNTS)
    parts = []
    for coefficient, k, used in zip(term_coefficients(bet), terms.k, terms.used, strict=True):
        if coefficient == 0:
            continue
        weight = sympy.Mul(
            *(_ff(VALUE_COUNTS[v], int(j)) for v, j in enumerate(k) if j),
            _ff(total - int(used), ROUND_CARDS - int(used)),
        )
        parts.append(sympy.Rational(coefficient.numerator, coefficient.denominator) * weight)
    return sympy.Add(*parts) / _ff(total, ROUND_CARDS)


def evaluate(expression: sympy.Expr, value_counts) -> Fraction:
    """The exact value of an expression of :data:`VALUE_COUNTS` on a shoe."""
    values = dict(zip(VALUE_COUNTS, (sympy.Integer(int(n)) for n in value_counts), strict=True))
    result = sympy.Rational(expression.xreplace(values))
    return Fraction(int(result.p), int(result.q))
