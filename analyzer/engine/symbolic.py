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
from functools import cache

import numpy as np
import pandas as pd
import sympy

from analyzer.analysis.bets import rule_nets, settling_rule, table_columns
from analyzer.engine.enumerator import NO_THIRD
from analyzer.engine.outcomes import PAIR_FIELDS, SUITED_PAIR_FIELDS, derived_columns
from analyzer.engine.terms import walk_terms
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_VALUES
from analyzer.game.shoe import ROUND_CARDS
from analyzer.paytables.model import Bet

#: n0 ... n9: cards of each point value in the shoe.
VALUE_COUNTS = sympy.symbols(f"n0:{N_VALUES}", integer=True, nonnegative=True)
_PAIR_FIELDS = set(PAIR_FIELDS) | set(SUITED_PAIR_FIELDS)


def is_value_level(bet: Bet) -> bool:
    """Does the bet depend on point values only (no pair fields)?"""
    return not (bet.fields & _PAIR_FIELDS)


@cache
def cell_table() -> pd.DataFrame:
    """Every reachable (player_score, banker_score, player_third, banker_third) cell, with
    the derived fields a condition can use."""
    cells = walk_terms().cells
    third = np.where(cells[:, 2:] == NO_THIRD, -1, cells[:, 2:])
    return pd.DataFrame(derived_columns(cells[:, 0], cells[:, 1], third[:, 0], third[:, 1]))


def cell_nets(bet: Bet) -> list[Fraction]:
    """Net result per unit of ``bet`` in each cell of :func:`cell_table`."""
    if not is_value_level(bet):
        raise AnalyzerError(f"bet {bet.id!r} looks at pairs: it is not a value-level bet")
    table = cell_table()
    nets = rule_nets(bet)
    return [nets[i] for i in settling_rule(bet, table_columns(table), len(table)).tolist()]


def term_coefficients(bet: Bet) -> list[Fraction]:
    """Exact ``C_t``: the bet's net payout summed over the value sequences of shape ``t``.

    A bet has few distinct payouts, so each contributes an exact integer count of
    sequences per term (a ``bincount``) times that payout.
    """
    terms = walk_terms()
    nets = cell_nets(bet)
    distinct = sorted(set(nets))
    code = np.array([distinct.index(net) for net in nets])[terms.cell_index]
    coefficients = [Fraction(0)] * len(terms.k)
    for j, net in enumerate(distinct):
        chosen = code == j
        # Counts are far below 2**53: the float bincount is exact.
        per_term = np.bincount(
            terms.term_index[chosen], weights=terms.count[chosen], minlength=len(terms.k)
        ).astype(np.int64)
        for t in np.nonzero(per_term)[0].tolist():
            coefficients[t] += int(per_term[t]) * net
    return coefficients


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
