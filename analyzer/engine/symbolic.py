"""The exact expected value of a value-level bet as a rational function of the shoe.

For bets that look only at point values (scores, cards per hand, naturals, third cards:
no pairs), a bet's expected value per unit on a shoe with ``n_v`` cards of point value
``v`` (``N`` in all) is

    EV(n) = sum_t C_t * prod_v ff(n_v, k_tv) * ff(N - u_t, 6 - u_t) / ff(N, 6)

over the compiled walk terms of :mod:`analyzer.engine.terms`, with exact rational ``C_t``: the
net payout summed over the value sequences of shape ``t``, and ``u_t`` (4, 5 or 6) the
cards they deal. Since ``ff(N - u, 6 - u) / ff(N, 6) = 1 / ff(N, u)``, this is

    EV(n) = sum_u ( sum_{t: u_t = u} C_t * prod_v ff(n_v, k_tv) ) / ff(N, u)

which :class:`ValueExpression` holds as its terms. Its text is written from them directly:
sympy's printer orders every sum and product of its 7,000 terms, which took seconds (and
with ``N`` written out in every term, 6 to 15). The sympy expression (``as_expr()``) is
built when asked for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
import sympy

from analyzer.engine.terms import term_coefficients, walk_terms
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_VALUES
from analyzer.game.shoe import ROUND_CARDS, card_counts
from analyzer.paytables.model import Bet
from analyzer.paytables.settle import Settlement
from analyzer.schema import argument

#: n0 ... n9: cards of each point value in the shoe.
VALUE_COUNTS = sympy.symbols(f"n0:{N_VALUES}", integer=True, nonnegative=True)
#: How the text of an expression writes a falling factorial (sympy's name: the text reads
#: back with ``sympy.sympify``).
_FF = "FallingFactorial"
_TOTAL = " + ".join(str(n) for n in VALUE_COUNTS)


def _ff(x: sympy.Expr, k: int) -> sympy.Expr:
    # Kept unevaluated: expanding every falling factorial into a polynomial makes the
    # expression tens of times larger and slow to substitute into.
    return sympy.FallingFactorial(x, k, evaluate=False)


@dataclass(frozen=True, eq=False)
class ValueExpression:
    """The exact EV per unit of one value-level bet as a function of n0 ... n9.

    ``EV(n) = sum_u P_u(n) / ff(N, u)`` with ``P_u = sum_t C_t prod_v ff(n_v, k_tv)`` over
    the terms ``t`` that deal ``u`` cards: ``coefficients[t]`` is ``C_t``, ``powers[t]``
    the ``k_tv`` and ``cards_dealt[t]`` the ``u``. ``str()`` writes the expression out (in
    sympy's notation), ``as_expr()`` is it as a sympy expression (seconds to build, and
    seconds more for sympy to print), and ``evaluate`` its exact value on a shoe.
    """

    bet_id: str
    coefficients: tuple[Fraction, ...]
    powers: np.ndarray
    cards_dealt: np.ndarray

    def __post_init__(self) -> None:
        for array in (self.powers, self.cards_dealt):
            array.setflags(write=False)

    def groups(self) -> dict[int, list[tuple[Fraction, list[tuple[int, int]]]]]:
        """The terms of each ``P_u`` by the number of cards ``u`` they deal: per term,
        ``C_t`` and its ``(v, k_tv)`` for every ``k_tv > 0``."""
        return self._groups

    @cached_property
    def _groups(self) -> dict[int, list[tuple[Fraction, list[tuple[int, int]]]]]:
        out: dict[int, list[tuple[Fraction, list[tuple[int, int]]]]] = {}
        for coefficient, powers, used in zip(
            self.coefficients, self.powers.tolist(), self.cards_dealt.tolist(), strict=True
        ):
            factors = [(v, k) for v, k in enumerate(powers) if k]
            out.setdefault(used, []).append((coefficient, factors))
        return dict(sorted(out.items()))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return (
            f"<ValueExpression: EV of bet {self.bet_id!r} in n0 ... n9, "
            f"{len(self.coefficients):,} terms over ff(N, u) for u in "
            f"{', '.join(map(str, self.groups()))}>"
        )

    @cached_property
    def _text(self) -> str:
        sums = []
        for used, terms in self.groups().items():
            pieces = []
            for coefficient, factors in terms:
                words = [f"{_FF}(n{v}, {k})" for v, k in factors]
                if abs(coefficient) != 1:
                    words.insert(0, str(abs(coefficient)))
                sign = "-" if coefficient < 0 else "+"
                if pieces:
                    pieces.append(f" {sign} ")
                elif sign == "-":
                    pieces.append("-")
                pieces.append("*".join(words))
            sums.append(f"({''.join(pieces)})/{_FF}({_TOTAL}, {used})")
        return " + ".join(sums) if sums else "0"

    def as_expr(self) -> sympy.Expr:
        """The expression in sympy, built on first use (a few seconds)."""
        return self._expr

    def _sympy_(self) -> sympy.Expr:  # sympy.sympify and sympy's arithmetic take it as is
        return self._expr

    @cached_property
    def _expr(self) -> sympy.Expr:
        total = sympy.Add(*VALUE_COUNTS)
        sums = []
        for used, terms in self.groups().items():
            parts = [
                sympy.Rational(c.numerator, c.denominator)
                * sympy.Mul(*(_ff(VALUE_COUNTS[v], k) for v, k in factors))
                for c, factors in terms
            ]
            sums.append(sympy.Add(*parts) / _ff(total, used))
        return sympy.Add(*sums)

    def evaluate(self, value_counts: object) -> Fraction:
        """The exact EV on a shoe of ``value_counts[v]`` cards of point value ``v``."""
        counts = card_counts(
            value_counts, (N_VALUES,), "value counts", lambda i: f"value {i[0]}"
        ).tolist()
        total = sum(counts)
        if total < ROUND_CARDS:
            raise AnalyzerError(
                f"impossible shoe: {total} cards left, a round may need {ROUND_CARDS}"
            )
        result = Fraction(0)
        for used, terms in self.groups().items():
            weighted = Fraction(0)
            for coefficient, factors in terms:
                weighted += coefficient * math.prod(math.perm(counts[v], k) for v, k in factors)
            result += weighted / math.perm(total, used)
        return result


def expected_value_expression(bet: Bet) -> ValueExpression:
    """EV per unit of a value-level bet as an exact rational function of n0 ... n9."""
    argument(bet, Bet, "bet", " (e.g. paytable.bet('banker', 'commission'))")
    if not bet.on_punto_banco:
        raise AnalyzerError(
            f"bet {bet.id!r} is on another game of the family: its expected value is not "
            "a function of punto banco's ten point values (analyze it)"
        )
    terms = walk_terms()
    # Per unit paid, an affine map of the net: its linear part on each term, its
    # constant (the fee's share) a term of no card.
    settlement = Settlement(bet)
    constant = settlement.per_paid(Fraction(0))
    kept = [
        (t, settlement.per_paid(c) - constant)
        for t, c in enumerate(term_coefficients(bet))
        if c != 0
    ]
    chosen = np.array([t for t, _ in kept], dtype=np.int64)
    coefficients = tuple(c for _, c in kept)
    powers = np.array(terms.k[chosen], dtype=np.int64).reshape(len(kept), N_VALUES)
    dealt = np.array(terms.used[chosen], dtype=np.int64)
    if constant:
        coefficients += (constant,)
        powers = np.vstack([powers, np.zeros((1, N_VALUES), dtype=np.int64)])
        dealt = np.append(dealt, 0)
    return ValueExpression(bet.id, coefficients, powers, dealt)


def evaluate(expression: ValueExpression | sympy.Expr, value_counts) -> Fraction:
    """The exact value of an expression of :data:`VALUE_COUNTS` on a shoe: a
    :class:`ValueExpression` from its terms, a sympy expression by substitution."""
    if isinstance(expression, ValueExpression):
        return expression.evaluate(value_counts)
    values = dict(zip(VALUE_COUNTS, (sympy.Integer(int(n)) for n in value_counts), strict=True))
    result = sympy.Rational(expression.xreplace(values))
    return Fraction(int(result.p), int(result.q))
