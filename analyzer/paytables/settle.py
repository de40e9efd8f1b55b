"""Settling a bet: the first rule whose condition holds settles the round.

This is the one place that rule is written. Every consumer (exact breakdowns, the compiled
walk, the batch engine, dealt shoes, ``play``) settles through these functions, over
columns of fields (:mod:`analyzer.game.fields`), one row per outcome or round.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from analyzer.paytables.model import LOSE, Bet

Columns = Mapping[str, np.ndarray]


def rule_masks(bet: Bet, columns: Columns, n_rows: int) -> list[np.ndarray]:
    """Rows where each rule's condition holds (earlier rules or not)."""
    return [rule.condition.mask(columns, n_rows) for rule in bet.rules]


def first_holding(masks: list[np.ndarray], n_rows: int) -> np.ndarray:
    """Per row, the index of the first mask that holds, or ``len(masks)`` where none does."""
    index = np.full(n_rows, len(masks))
    for i, holds in reversed(list(enumerate(masks))):
        index[holds] = i
    return index


def settling_rule(bet: Bet, columns: Columns, n_rows: int) -> np.ndarray:
    """Index of the rule that settles each row: the first whose condition holds, or
    ``len(bet.rules)`` where none does (the stake is lost)."""
    return first_holding(rule_masks(bet, columns, n_rows), n_rows)


def rule_nets(bet: Bet) -> list[Fraction]:
    """Net per unit of each rule, then of "no rule" (a loss): index with settling_rule."""
    return [rule.payout.net for rule in bet.rules] + [LOSE.net]


def settled_ways(bet: Bet, columns: Columns, ways: np.ndarray) -> tuple[list[int], list[int]]:
    """Exact integer ways settled by each rule and by "no rule" (the last entry), and the
    ways each rule's condition holds for, earlier rules or not (for warnings)."""
    masks = rule_masks(bet, columns, len(ways))
    index = first_holding(masks, len(ways))
    settled = [int(ways[index == i].sum()) for i in range(len(bet.rules) + 1)]
    matched = [int(ways[holds].sum()) for holds in masks]
    return settled, matched


def expected_value(bet: Bet, columns: Columns, ways: np.ndarray, denominator: int) -> Fraction:
    """The exact expected value per unit of ``bet`` over rows weighted by ``ways``."""
    settled, _ = settled_ways(bet, columns, ways)
    nets = rule_nets(bet)
    return sum(
        (Fraction(w, denominator) * n for w, n in zip(settled, nets, strict=True)),
        start=Fraction(0),
    )
