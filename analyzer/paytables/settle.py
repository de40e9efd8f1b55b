"""Settling a bet: the first rule whose condition holds settles the round.

This is the one place that rule is written. Every consumer (exact breakdowns, the compiled
walk, the batch engine, dealt shoes, ``play``) settles through these functions, over
columns of fields (:mod:`analyzer.game.fields`), one row per outcome or round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction

import numpy as np

from analyzer.paytables.model import LOSE, Bet

Columns = Mapping[str, np.ndarray]


def rule_masks(bet: Bet, columns: Columns, n_rows: int) -> list[np.ndarray]:
    """Rows where each rule's condition holds (earlier rules or not)."""
    return list(_each_mask(bet, columns, n_rows))


def _each_mask(bet: Bet, columns: Columns, n_rows: int) -> Iterator[np.ndarray]:
    """The rules' masks one at a time: a bet of many rules on a table of millions of rows
    never holds them all at once (681 rules once took 5.5 GB)."""
    for rule in bet.rules:
        yield rule.condition.mask(columns, n_rows)


def first_holding(
    masks: Iterable[np.ndarray], n_rows: int, seen: Callable[[np.ndarray], None] | None = None
) -> np.ndarray:
    """Per row, the index of the first mask that holds, or the number of masks where none
    does. Masks are taken one at a time (``seen``, if given, gets each in turn)."""
    index = np.full(n_rows, -1)
    open_rows = np.ones(n_rows, dtype=bool)
    count = 0
    for holds in masks:
        index[holds & open_rows] = count
        open_rows &= ~holds
        count += 1
        if seen is not None:
            seen(holds)
    index[open_rows] = count
    return index


def settling_rule(bet: Bet, columns: Columns, n_rows: int) -> np.ndarray:
    """Index of the rule that settles each row: the first whose condition holds, or
    ``len(bet.rules)`` where none does (the stake is lost)."""
    return first_holding(_each_mask(bet, columns, n_rows), n_rows)


def rule_nets(bet: Bet) -> list[Fraction]:
    """Net per unit of each rule, then of "no rule" (a loss): index with settling_rule."""
    return [rule.payout.net for rule in bet.rules] + [LOSE.net]


def settled_ways(bet: Bet, columns: Columns, ways: np.ndarray) -> tuple[list[int], list[int]]:
    """Exact integer ways settled by each rule and by "no rule" (the last entry), and the
    ways each rule's condition holds for, earlier rules or not (for warnings)."""
    matched: list[int] = []
    index = first_holding(
        _each_mask(bet, columns, len(ways)),
        len(ways),
        lambda holds: matched.append(int(ways[holds].sum())),
    )
    # Summed in one pass, exactly (every count fits in int64 by design).
    settled = np.zeros(len(bet.rules) + 1, dtype=ways.dtype)
    np.add.at(settled, index, ways)
    return [int(w) for w in settled], matched


def expected_value(bet: Bet, columns: Columns, ways: np.ndarray, denominator: int) -> Fraction:
    """The exact expected value per unit of ``bet`` over rows weighted by ``ways``."""
    settled, _ = settled_ways(bet, columns, ways)
    nets = rule_nets(bet)
    return sum(
        (Fraction(w, denominator) * n for w, n in zip(settled, nets, strict=True)),
        start=Fraction(0),
    )
