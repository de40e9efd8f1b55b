"""Bets on an outcome table: exact breakdown and summary statistics of one bet.

Each rule of a bet claims the rows its condition holds for (first rule first); the ways
are summed per rule in int64 (no subset can exceed the denominator, which fits), and
everything after that is exact Fraction arithmetic on a handful of lines.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from analyzer.engine.outcomes import OutcomeTable
from analyzer.errors import AnalyzerError
from analyzer.game.identities import IDENTITY_PATTERNS
from analyzer.paytables.model import LOSE, Bet, Payout
from analyzer.paytables.settle import (
    Settlement,
    first_holding,
    settled_ways,
)
from analyzer.paytables.unknowns import Poly
from analyzer.schema import argument

if TYPE_CHECKING:  # (pandas is imported where a frame is made: a report needs none)
    import pandas as pd

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
    #: The line's mean net per unit staked (the payout's net, but for a multiplied
    #: payout, whose net is the mean over the line's multipliers); None: the payout's.
    mean_net: Fraction | None = None
    #: A multiplied bet's line: ``(identity pattern index, ways)`` of its rounds' counted
    #: cards, whose multipliers the line's nets spread over (see :func:`net_distribution`).
    patterns: tuple[tuple[int, int], ...] = ()

    @property
    def net(self) -> Fraction:
        """Mean net per unit staked of the rounds the line settles (before any fee)."""
        return self.payout.net if self.mean_net is None else self.mean_net

    @property
    def contribution(self) -> Fraction:
        """The line's share of the expected net per unit staked."""
        return self.probability * self.net

    @property
    def combinations(self) -> int | Fraction:
        """The ordered six-card sequences the line settles: a whole number, or under a
        mixed strategy their expected number (a fraction where it is not whole)."""
        value = Fraction(self.ways, self.scale)
        return value.numerator if value.denominator == 1 else value


@dataclass(frozen=True)
class BetResult:
    """Exact results of one bet in one mode, per unit paid: the stake, plus the bet's fee
    where it has one (then the RTP is the expected return over 1 + fee). The lines are
    per unit staked, before the fee."""

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
        import pandas as pd

        return pd.DataFrame(
            [
                {
                    "when": line.when,
                    "ways": line.combinations,
                    "probability": line.probability,
                    "probability_float": float(line.probability),
                    "pays": line.payout.text,
                    "net": line.net,
                    "contribution": line.contribution,
                    "contribution_float": float(line.contribution),
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


@dataclass(frozen=True)
class JackpotFigures:
    """A progressive jackpot's figures, exact: the RTP is ``base + per_meter * meter``
    (per unit paid) for a meter of ``meter`` stakes; it breaks even (RTP 1) at
    ``break_even`` (None: above 1 at every meter); and over the long run, every
    contribution being paid out in some later jackpot, the RTP at the reset meter plus
    the contribution rate is returned."""

    meter: Fraction
    contribution: Fraction
    rtp: Fraction
    base: Fraction
    per_meter: Fraction
    break_even: Fraction | None
    long_run: Fraction


def jackpot_figures(result: BetResult) -> JackpotFigures | None:
    """The jackpot figures of a bet with a progressive jackpot (None without one)."""
    jackpot = result.bet.jackpot
    if jackpot is None:
        return None
    paid = 1 + result.bet.fee
    chance = sum(
        (line.probability for line in result.lines if line.payout.jackpot), start=Fraction(0)
    )
    per_meter = chance / paid
    base = result.rtp - per_meter * jackpot.meter
    break_even = (1 - base) / per_meter if per_meter and base < 1 else None
    long_run = base + per_meter * jackpot.reset + jackpot.contribution / paid
    return JackpotFigures(
        jackpot.meter, jackpot.contribution, result.rtp, base, per_meter, break_even, long_run
    )


def evaluate_bet(table: OutcomeTable, bet: Bet, mode: str) -> BetResult:
    """Settle ``bet`` on every row of an outcome table; exact probabilities and moments."""
    argument(table, OutcomeTable, "table", " (see outcome_table)")
    argument(bet, Bet, "bet", " (e.g. paytable.bet('banker', 'commission'))")
    argument(mode, str, "mode", " (a mode name)")
    check_fields(bet, table.columns.keys())
    if bet.multiplied:
        rows = _multiplied_lines(table, bet)
    else:
        settled, matched = settled_ways(bet, table.columns, table.ways)
        rows = [
            (rule.condition.shown, count, rule.payout, holds, None, ())
            for rule, count, holds in zip(bet.rules, settled[:-1], matched, strict=True)
        ]
        rows.append((OTHERWISE, settled[-1], LOSE, settled[-1], None, ()))
    return bet_result(bet, mode, rows, table.denominator, table.scale)


def check_fields(bet: Bet, available: Iterable[str]) -> None:
    """Refuse, in one line, a bet asking about fields a table does not have."""
    missing = sorted(bet.fields - set(available))
    if missing:
        raise AnalyzerError(
            f"bet {bet.id!r} needs {', '.join(missing)}, which this shoe cannot give exactly"
            " (the suits or ranks of some cards are unknown)"
        )


def bet_result(
    bet: Bet, mode: str, rows: Sequence[tuple], denominator: int, scale: int
) -> BetResult:
    """A bet's result from its lines: per line ``(when, ways, payout, matched, moments,
    patterns)`` (``moments``: the mean net and mean squared net per unit staked of a
    multiplied line, None for the payout's own), over ``denominator`` sequences."""
    lines = []
    if all(row[4] is None for row in rows):
        # Fixed nets: integer sums over one common denominator, a Fraction per figure.
        common = math.lcm(*(Fraction(row[2].net).denominator for row in rows))
        first = second = hit = push = 0
        for when, count, payout, holds, _, _ in rows:
            net = Fraction(payout.net)
            net = net.numerator * (common // net.denominator)
            first += count * net
            second += count * net * net
            if payout.kind == "win":
                hit += count
            elif payout.kind == "push":
                push += count
            probability = Fraction(count, denominator)
            lines.append(Line(when, count, probability, payout, holds, scale, None, ()))
        expected = Fraction(first, denominator * common)
        second_moment = Fraction(second, denominator * common * common)
        hit_frequency, push_probability = Fraction(hit, denominator), Fraction(push, denominator)
    else:
        expected = second_moment = hit_frequency = push_probability = Fraction(0)
        for when, count, payout, holds, moments, patterns in rows:
            probability = Fraction(count, denominator)
            first, second = (payout.net, payout.net**2) if moments is None else moments
            expected += probability * first
            second_moment += probability * second
            if payout.kind == "win":
                hit_frequency += probability
            elif payout.kind == "push":
                push_probability += probability
            mean = None if moments is None else first
            lines.append(Line(when, count, probability, payout, holds, scale, mean, patterns))
    variance = second_moment - expected**2
    settlement = Settlement(bet)  # per unit paid: the fee is paid and returns nothing
    return BetResult(
        bet,
        mode,
        tuple(lines),
        settlement.per_paid(expected),
        hit_frequency,
        push_probability,
        settlement.variance_per_paid(variance),
    )


def _ratio(total: object, count: int) -> object:
    return total / count if isinstance(total, Poly) else Fraction(total, count)


def _multiplied_lines(table: OutcomeTable, bet: Bet) -> list[tuple]:
    """Each rule's line of a multiplied bet: its ways, and the mean net and mean squared
    net per unit staked of the rounds it settles, from their counted identity patterns."""
    columns, ways = table.columns, table.ways
    matched: list[int] = []
    index = first_holding(
        (rule.condition.mask(columns, len(ways)) for rule in bet.rules),
        len(ways),
        lambda holds: matched.append(int(ways[holds].sum())),
    )
    settlement = Settlement(bet)
    cells = settlement.pattern_ways(columns, table.multiplied_ways, index)
    rows = []
    for rule_number in range(len(bet.rules) + 1):
        by_pattern = cells[rule_number]
        count, first, second = settlement.rule_totals(rule_number, by_pattern)
        patterns = tuple((p, int(by_pattern[p])) for p in np.flatnonzero(by_pattern).tolist())
        if rule_number < len(bet.rules):
            rule = bet.rules[rule_number]
            when, payout, holds = rule.condition.shown, rule.payout, matched[rule_number]
        else:
            when, payout, holds = OTHERWISE, LOSE, count
        moments = None
        if count:
            # A polynomial in the paytable's unknowns divides as it is (see fit).
            moments = (_ratio(first, count), _ratio(second, count))
        rows.append((when, count, payout, holds, moments, patterns))
    return rows


def net_distribution(result: BetResult) -> dict[Fraction, Fraction]:
    """The net of one round per unit staked, the fee paid (``net - fee``): net -> exact
    probability. A multiplied line spreads over its multipliers, pattern by pattern."""
    bet = result.bet
    out: dict[Fraction, Fraction] = {}

    def add(net: Fraction, probability: Fraction) -> None:
        out[net - bet.fee] = out.get(net - bet.fee, Fraction(0)) + probability

    for line in result.lines:
        if not line.probability:
            continue
        if not line.patterns or not line.payout.per_multiplier:
            add(line.payout.net, line.probability)
            continue
        a, b = line.payout.net, line.payout.per_multiplier
        for p, ways in line.patterns:
            share = line.probability * Fraction(ways, line.ways)
            for multiplier, q in bet.multipliers.distribution(IDENTITY_PATTERNS[p]):
                add(a + b * multiplier, share * q)
    return {net: probability for net, probability in out.items() if probability}
