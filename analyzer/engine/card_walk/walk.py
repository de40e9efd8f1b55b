"""The card walk of one shoe: every round with the cards themselves, exactly.

A :class:`CardWalk` is planned (:mod:`~analyzer.engine.card_walk.planning`) and laid out
(:mod:`~analyzer.engine.card_walk.layout`) when it is made, so its limits and cost are
known before any of it is walked; :meth:`CardWalk.table` walks it once, share by share
(each one call of a kernel, :mod:`~analyzer.engine.card_walk.kernels`), and reads the
nonzero cells back as an :class:`~analyzer.engine.outcomes.OutcomeTable`, so bets settle
exactly as on any table.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import prod

import numpy as np

from analyzer.engine.card_walk import kernels
from analyzer.engine.card_walk.layout import Layout, fine_types, key_columns, lay_out, visits
from analyzer.engine.card_walk.planning import plan
from analyzer.engine.mixture import mixed_counts
from analyzer.engine.outcomes import OutcomeTable
from analyzer.game.fields import pair_detail_needed
from analyzer.game.rules import STANDARD, STANDARD_MIXTURE, DrawingRules, Mixture, Strategy
from analyzer.game.shoe import Shoe
from analyzer.memo import Kept


def count(layout: Layout, shoe: Shoe) -> np.ndarray:
    """Ordered six-card sequences of every key (the dense array the walk fills), share by
    share: the split walk, the walk by suit pattern, or the walk card by card."""
    out = np.zeros(prod(layout.shape), dtype=np.int64)
    for share in layout.shares:
        if layout.split:
            kernels.split_walk(layout.deal, share, out)
        elif layout.suit_patterns is not None:
            kernels.count_suit_patterns(layout.deal, layout.suit_patterns, share, out)
        else:
            kernels.count_rounds(layout.deal, share, out)
    denominator = shoe.rounds_denominator
    total = int(out.sum(dtype=np.int64))
    if total != denominator:  # a broken kernel must never hand out a wrong number
        raise AssertionError(f"card walk counts sum to {total}, expected {denominator}")
    return out


class CardWalk:
    """One card walk, planned but not yet walked: its limits (kinds of round told apart,
    rounds walked, suits known) are checked and its cost known (:attr:`visits`) before
    any of it is done, so that a command can add up its walks and refuse at once.

    ``mixture``: the pure tableaus the hands draw by and their weights (default: the
    standard tableau; a mixed strategy: :meth:`~analyzer.game.rules.DrawingRules.mixture`),
    a walk each, summed exactly."""

    def __init__(
        self,
        shoe: Shoe,
        fields: frozenset[str] | set[str],
        literals: Mapping[str, frozenset[str]] | None = None,
        relational: frozenset[str] | set[str] | None = None,
        mixture: Mixture = STANDARD_MIXTURE,
    ) -> None:
        self.shoe = shoe
        self.fields = frozenset(fields)
        self.literals = dict(literals or {})
        self.relational = frozenset(relational or ())
        self.plan = plan(self.fields, literals, self.relational)
        # Cards dealt with replacement: the smallest shoe of the same probabilities that
        # tells apart what the plan asks (the infinite deck by rank: 13 cards, 13^6).
        self._dealt = shoe.in_lowest_terms(suits=self.plan.needs_suits)
        self._layouts = [
            (weight, lay_out(self.plan, self._dealt, tableau)) for weight, tableau in mixture
        ]
        self._table: OutcomeTable | None = None

    @property
    def visits(self) -> int:
        """About how many rounds the walk visits (every tableau of a mixture)."""
        return sum(layout.visits for _, layout in self._layouts)

    def table(self) -> OutcomeTable:
        """Every round of the shoe, told apart as far as the fields ask, with exact ways
        (walked once: bets sharing the walk share the table). Its ``pair_detail`` is how
        far the fields tell the hands' pairs apart, as for any table."""
        if self._table is None:
            parts = [(weight, count(layout, self._dealt)) for weight, layout in self._layouts]
            out, denominator, scale = mixed_counts(parts, self._dealt.rounds_denominator)
            (keys,) = np.nonzero(out)
            columns = key_columns(self._layouts[0][1], keys)
            detail = pair_detail_needed(self.fields)
            self._table = OutcomeTable(columns, out[keys], denominator, detail, scale)
        return self._table


def card_outcome_table(
    shoe: Shoe,
    fields: frozenset[str] | set[str],
    literals: Mapping[str, frozenset[str]] | None = None,
    relational: frozenset[str] | set[str] | None = None,
    rules: DrawingRules | None = None,
    strategy: Strategy | None = None,
) -> OutcomeTable:
    """Every round of ``shoe``, told apart as far as ``fields`` ask, with exact ways.

    ``literals`` (a bet's :attr:`~analyzer.paytables.model.Bet.literals`) lets text
    fields compared only with constants tell just those apart; the table then shows, for
    the rest, a value that none of those constants equals. ``relational`` (a bet's
    :attr:`~analyzer.paytables.model.Bet.relational`) lets suits compared only with each
    other be counted by pattern (:attr:`~analyzer.engine.card_walk.planning.CardPlan.
    suit_pattern`); the table then shows each pattern once, its suits named S, H, D, C in
    order of first appearance. ``rules`` and ``strategy`` say how the hands draw (default:
    the standard tableau).
    """
    rules = STANDARD if rules is None else rules
    return CardWalk(shoe, fields, literals, relational, rules.mixture(strategy)).table()


def walk_visits(
    fields: frozenset[str] | set[str],
    literals: Mapping[str, frozenset[str]] | None = None,
    relational: frozenset[str] | set[str] | None = None,
) -> int:
    """About how many rounds the walk visits for ``fields`` on a full shoe (any number of
    decks: every card type is there); without ``relational``, the walk
    :func:`~analyzer.engine.card_walk.terms.card_terms` compiles, suits told apart as they
    are (a flush too)."""
    card_plan = plan(frozenset(fields), literals, relational, suit_sums=relational is not None)
    known = _visits.get(card_plan.key)
    if known is None:
        known = _visits.put(
            card_plan.key, visits(card_plan, len(fine_types(card_plan, Shoe.standard(1)).counts))
        )
    return known


#: The rounds of each plan's walk (:func:`walk_visits`), by :attr:`~analyzer.engine.
#: card_walk.planning.CardPlan.key`: a plan's visits depend on nothing else, and they are
#: asked for at every step of planning the effects of removal.
_visits: Kept[int] = Kept(256)
