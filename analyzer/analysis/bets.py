"""Bets on an outcome table: exact breakdown and summary statistics of one bet.

Each rule of a bet claims the rows its condition holds for (first rule first); the ways
are summed per rule in int64 (no subset can exceed the denominator, which fits), and
everything after that is exact Fraction arithmetic on a handful of lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analyzer.errors import AnalyzerError
from analyzer.paytables.model import LOSE, Bet, Payout

OTHERWISE = "otherwise"


@dataclass(frozen=True)
class Line:
    """One line of a bet's breakdown: the rows one rule settles (or none does)."""

    when: str
    ways: int
    probability: Fraction
    payout: Payout
    matched: int  # ways the condition holds for, earlier rules or not


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
                    "ways": line.ways,
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


def table_columns(table: pd.DataFrame) -> dict[str, np.ndarray]:
    """The table's columns (fields and ``ways``) as numpy arrays, for condition masks."""
    columns = {name: table[name].to_numpy() for name in table.columns}
    # Fixed-width strings compare in C; an object array would compare element by element.
    columns["winner"] = np.asarray(table["winner"], dtype=str)
    return columns


def rule_masks(bet: Bet, columns: dict[str, np.ndarray], n_rows: int) -> list[np.ndarray]:
    """Rows where each rule's condition holds (earlier rules or not)."""
    return [rule.condition.mask(columns, n_rows) for rule in bet.rules]


def settling_rule(bet: Bet, columns: dict[str, np.ndarray], n_rows: int) -> np.ndarray:
    """Index of the rule that settles each row: the first whose condition holds, or
    ``len(bet.rules)`` where none does (the stake is lost)."""
    index = np.full(n_rows, len(bet.rules))
    for i, holds in reversed(list(enumerate(rule_masks(bet, columns, n_rows)))):
        index[holds] = i
    return index


def rule_nets(bet: Bet) -> list[Fraction]:
    """Net per unit of each rule, then of "no rule" (a loss): index with settling_rule."""
    return [rule.payout.net for rule in bet.rules] + [LOSE.net]


def evaluate_bet(
    table: pd.DataFrame, bet: Bet, mode: str, columns: dict[str, np.ndarray] | None = None
) -> BetResult:
    """Settle ``bet`` on every row of an outcome table; exact probabilities and moments."""
    columns = table_columns(table) if columns is None else columns
    missing = sorted(bet.fields - columns.keys())  # never "ways": it is no field
    if missing:
        raise AnalyzerError(
            f"bet {bet.id!r} needs {', '.join(missing)}, which this shoe cannot give exactly"
            " (the suits or ranks of some cards are unknown)"
        )
    ways = columns["ways"]
    denominator = table.attrs["denominator"]
    unsettled = np.ones(len(table), dtype=bool)
    settled = []
    for rule, holds in zip(bet.rules, rule_masks(bet, columns, len(table)), strict=True):
        hit = holds & unsettled
        unsettled &= ~hit
        settled.append(
            (rule.condition.text, int(ways[hit].sum()), rule.payout, int(ways[holds].sum()))
        )
    rest = int(ways[unsettled].sum())
    settled.append((OTHERWISE, rest, LOSE, rest))

    lines = []
    expected = second_moment = hit_frequency = push = Fraction(0)
    for when, count, payout, matched in settled:
        probability = Fraction(count, denominator)
        expected += probability * payout.net
        second_moment += probability * payout.net**2
        if payout.net > 0:
            hit_frequency += probability
        elif payout.net == 0:
            push += probability
        lines.append(Line(when, count, probability, payout, matched))
    return BetResult(
        bet, mode, tuple(lines), expected, hit_frequency, push, second_moment - expected**2
    )
