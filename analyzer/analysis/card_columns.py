"""Bets on the cards settled together by the class walk, on any shoe.

What the card walk tells apart of a round (its key: the outcome as far as the bets ask,
and a code per card, :mod:`analyzer.engine.card_walk.layout`) is a finite space, the same
on every shoe. So for bets asking the same fields, every key is settled once
(:func:`~analyzer.analysis.columns.settle_rows`: keys every rule and condition treats
alike form one class), the classes are sorted into trees
(:func:`~analyzer.engine.card_walk.classes.class_trees`), and an analysis walks the shoe's
point values once, adding each path's ways to its classes
(:func:`~analyzer.engine.card_walk.classes.class_ways`); the bets' lines are summed from
those ways, as on the enumerator's counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from analyzer.analysis.bets import BetResult
from analyzer.analysis.columns import BetColumns, settle_rows
from analyzer.engine.card_walk import plan
from analyzer.engine.card_walk.classes import (
    TooManyLeaves,
    class_trees,
    class_ways,
    key_space,
)
from analyzer.engine.mixture import mixed_counts
from analyzer.game.rules import Mixture
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Bet


class CardColumns:
    """Fixed-payout bets on the cards (``offered``, each in a mode) whose fields the walk
    of ``fields``, ``literals`` and ``relational`` tells apart, settled together on any
    shoe: :meth:`evaluate`. Made by :func:`card_columns` (None where the class walk does
    not count those fields)."""

    def __init__(self, offered: Sequence[tuple[Bet, str]], spaces: list, mixture: Mixture):
        self.offered = tuple(offered)
        self._mixture = mixture
        self._spaces = spaces
        columns = {
            name: np.concatenate([space.columns[name] for space in spaces])
            for name in spaces[0].columns
        }
        n_keys = sum(space.size for space in spaces)
        self._settlement, group = settle_rows([bet for bet, _ in self.offered], columns, n_keys)
        n_classes = self._settlement.n_groups
        ends = np.cumsum([space.size for space in spaces])
        self._trees = [
            class_trees(space, part, n_classes)
            for space, part in zip(spaces, np.split(group, ends[:-1]), strict=True)
        ]
        self._together = BetColumns(self.offered)
        self._needs_suits = spaces[0].plan.needs_suits

    @property
    def leaves(self) -> int:
        """The cylinders a value path may add ways to, every tableau's (the walk's cost
        beyond the value walk)."""
        return sum(trees.n_leaves for trees in self._trees)

    def evaluate(self, shoe: Shoe) -> list[BetResult]:
        """:func:`~analyzer.analysis.bets.evaluate_bet` of every (bet, mode) on the card
        walk's table of ``shoe``: the same results."""
        dealt = shoe.in_lowest_terms(suits=self._needs_suits)
        parts = [
            (weight, class_ways(space, trees, dealt))
            for (weight, _), space, trees in zip(
                self._mixture, self._spaces, self._trees, strict=True
            )
        ]
        ways, denominator, scale = mixed_counts(parts, dealt.rounds_denominator)
        totals = self._settlement.totals(ways)
        return self._together.results(self._settlement, totals, denominator, scale)


def card_columns(
    offered: Sequence[tuple[Bet, str]],
    fields: frozenset[str],
    literals: Mapping[str, frozenset[str]],
    relational: frozenset[str],
    mixture: Mixture,
) -> CardColumns | None:
    """The bets of ``offered`` settled together by the class walk of those fields, or
    None where it does not count them (the card walk then does)."""
    card_plan = plan(fields, literals, relational)
    spaces = [key_space(card_plan, tableau) for _, tableau in mixture]
    if any(space is None for space in spaces):
        return None
    try:
        return CardColumns(offered, spaces, mixture)
    except TooManyLeaves:
        return None
