"""Bets on an outcome table: exact breakdown and summary statistics of one bet.

Each rule of a bet claims the rows its condition holds for (first rule first); the ways
are summed per rule in int64 (no subset can exceed the denominator, which fits), and
everything after that is exact Fraction arithmetic on a handful of lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from analyzer.engine.outcomes import OutcomeTable
from analyzer.errors import AnalyzerError
from analyzer.paytables.model import LOSE, Bet, Payout
from analyzer.paytables.settle import settled_ways
from analyzer.schema import argument

OTHERWISE = "otherwise"


@dataclass(frozen=True)
class Line:
    """One line of a bet's breakdown: the rows one rule settles (or none does)."""

    when: str  # the condition on one line (Condition.shown), or OTHERWISE
    ways: int
    probability: Fraction
    payout: Payout
    matched: int  # ways the condition holds for, earlier rules or not
    #: What ``ways`` are multiplied by under a mixed strategy (see OutcomeTable.scale).
    scale: int = 1

    @property
    def combinations(self) -> int | Fraction:
        """The ordered six-card sequences the line settles: a whole number, or under a
        mixed strategy their expected number (a fraction where it is not whole)."""
        value = Fraction(self.ways, self.scale)
        return value.numerator if value.denominator == 1 else value


@dataclass(frozen=True)
class BetResult:
    """Exact results of one bet in one mode, per unit staked."""

    bet: Bet
    mode: str
    lines: tuple[Line, ...]
    expected_value: Fraction
    hit_frequency: Fraction
    push_probability: Fraction
    variance: Fraction

    @property
    def breakdown(self) -> pd.DataFrame:
        """Each paying, pushing or losing line: combinations, probability, contribution."""
        return pd.DataFrame(
            [
                {
                    "when": line.when,
                    "ways": line.combinations,
                    "probability": line.probability,
                    "probability_float": float(line.probability),
                    "pays": line.payout.text,
                    "net": line.payout.net,
                    "contribution": line.probability * line.payout.net,
                    "contribution_float": float(line.probability * line.payout.net),
                }
                for line in self.lines
            ]
        )

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_value

    @property
    def rtp(self) -> Fraction:
        return 1 + self.expected_value

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def edge_per_resolved(self) -> Fraction | None:
        """House edge per bet that does not push (None if every round pushes)."""
        resolved = 1 - self.push_probability
        return self.house_edge / resolved if resolved else None


def evaluate_bet(table: OutcomeTable, bet: Bet, mode: str) -> BetResult:
    """Settle ``bet`` on every row of an outcome table; exact probabilities and moments."""
    argument(table, OutcomeTable, "table", " (see outcome_table)")
    argument(bet, Bet, "bet", " (e.g. paytable.bet('banker', 'commission'))")
    argument(mode, str, "mode", " (a mode name)")
    missing = sorted(bet.fields - table.columns.keys())
    if missing:
        raise AnalyzerError(
            f"bet {bet.id!r} needs {', '.join(missing)}, which this shoe cannot give exactly"
            " (the suits or ranks of some cards are unknown)"
        )
    settled, matched = settled_ways(bet, table.columns, table.ways)
    rows = [
        (rule.condition.shown, count, rule.payout, holds)
        for rule, count, holds in zip(bet.rules, settled[:-1], matched, strict=True)
    ]
    rows.append((OTHERWISE, settled[-1], LOSE, settled[-1]))
    lines = []
    expected = second_moment = hit_frequency = push = Fraction(0)
    for when, count, payout, holds in rows:
        probability = Fraction(count, table.denominator)
        expected += probability * payout.net
        second_moment += probability * payout.net**2
        if payout.net > 0:
            hit_frequency += probability
        elif payout.net == 0:
            push += probability
        lines.append(Line(when, count, probability, payout, holds, table.scale))
    return BetResult(
        bet, mode, tuple(lines), expected, hit_frequency, push, second_moment - expected**2
    )
