"""The card walk compiled into terms: polynomials in the counts of the card types, so that
the batch engine evaluates a card-level bet on any composition without walking it again.

The walk is laid out once on a reference shoe on which every sequence of six classes can
be dealt, so every reachable key shows up; a recording kernel
(:func:`~analyzer.engine.card_walk.kernels.record_terms`) then tallies, for each kept
round, the multiset of what it deals, and each multiset is unpacked into its falling
factorials (:func:`~analyzer.engine.card_walk.kernels.term_factors`).

Terms count cards dealt without replacement (falling factorials): they are not asked for
on a shoe dealt with replacement (the batch engine refuses the infinite deck), where the
card walk itself (:class:`~analyzer.engine.card_walk.walk.CardWalk`) counts exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from math import prod

import numpy as np
from numba import int64
from numba.typed import Dict as NumbaDict

from analyzer.engine.card_walk import kernels
from analyzer.engine.card_walk.layout import key_columns, lay_out
from analyzer.engine.card_walk.planning import plan
from analyzer.engine.card_walk.walk import count
from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_RANKS, N_VALUES, RANK_VALUES
from analyzer.game.rules import STANDARD_TABLEAU, Tableau
from analyzer.game.shoe import ROUND_CARDS, Shoe

#: The most (term, class) entries compiled terms may hold (about 100 bytes each while
#: they are tallied).
MAX_TERMS = 4_000_000
#: Terms have at most one factor per symbol (six cards) and the factor of the rest of the
#: six-card sequence.
MAX_FACTORS = ROUND_CARDS + 1
#: The reference shoe the terms are compiled on: six of every card, so that every
#: sequence of six classes can be dealt and every reachable key shows up.
_REFERENCE_DECKS = ROUND_CARDS
#: Walks of at most this many keys have every key classed, reached or not (a key no
#: round reaches tallies nothing): the walk that finds the keys reached costs as much as
#: recording the terms (Colour Match: 16 keys, 4 ms of a 10 ms compile).
_CLASSED_CELLS = 4096
#: Compositions are evaluated in batches of about this many (term, class) entries each, so
#: that an interrupt is seen between batches (a fraction of a second each).
_BATCH_ENTRIES = 10**7


@dataclass(frozen=True, eq=False)
class CardTerms:
    """The card walk of a plan compiled into terms, for any shoe.

    A round's weight depends only on how many cards of each fine type it deals (``k_t``),
    how many it deals by point value (``m_v``) and how many in all (``u``)::

        weight = prod_t ff(n_t, k_t) * prod_v ff(N_v - K_v, m_v) * ff(N - u, 6 - u)

    (``K_v``: the fine-typed cards of value ``v``). Each term is a product of at most
    :data:`MAX_FACTORS` falling factorials ``ff(counts[slot] - offset, power)`` over the
    count vector of a shoe: its fine types (``members`` of the shoe's cards), then its
    10 point values, then its size (see :func:`term_counts`). ``count[i]`` rounds of term
    ``term_index[i]`` end in a cell of class ``cell_class[i]``.
    """

    members: np.ndarray
    by_suit: bool
    n_types: int
    slot: np.ndarray
    offset: np.ndarray
    power: np.ndarray
    term_index: np.ndarray
    cell_class: np.ndarray
    count: np.ndarray

    def term_counts(self, compositions: np.ndarray) -> np.ndarray:
        """The count vector of each composition, (n, n_types + 11) floats: cards of each
        fine type, of each point value, and in all. ``compositions`` are (n, 52) counts by
        card when the terms need suits, else (n, 13) by rank."""
        n = len(compositions)
        ranks = compositions.reshape(n, N_RANKS, -1).sum(axis=2)
        if not self.by_suit:
            compositions = ranks
        out = np.zeros((n, self.n_types + N_VALUES + 1))
        for kind, t in enumerate(self.members.tolist()):
            out[:, t] += compositions[:, kind]
        for rank in range(N_RANKS):
            out[:, self.n_types + RANK_VALUES[rank]] += ranks[:, rank]
        out[:, -1] = ranks.sum(axis=1)
        return out

    def class_ways(self, compositions: np.ndarray, n_classes: int | None = None) -> np.ndarray:
        """Exact ordered six-card sequences of each class on each composition, (n,
        n_classes) int64: the terms evaluated in integers, every falling factorial and
        every sum within int64 as the walk's own counts are. A class no term reaches is
        0 (``n_classes``: as many as the classifier numbered, reached or not; default:
        up to the last reached); rounds of class -1 are not counted."""
        counts = np.rint(self.term_counts(np.asarray(compositions))).astype(np.int64)
        if n_classes is None:
            n_classes = int(self.cell_class.max()) + 1 if len(self.cell_class) else 0
        out = np.zeros((len(counts), n_classes), dtype=np.int64)
        # Compositions in batches of about _BATCH_ENTRIES entries: back in Python between.
        step = max(1, _BATCH_ENTRIES // max(1, len(self.term_index)))
        for start in range(0, len(counts), step):
            kernels.class_ways_of_rows(
                counts[start : start + step],
                self.slot,
                self.offset,
                self.power,
                self.term_index,
                self.cell_class,
                self.count,
                out[start : start + step],
            )
        return out


def card_terms(
    fields: frozenset[str] | set[str],
    literals: Mapping[str, frozenset[str]] | None,
    classify: Callable[[dict[str, np.ndarray]], np.ndarray],
    tableau: Tableau = STANDARD_TABLEAU,
) -> CardTerms | None:
    """Compile the walk for ``fields`` into terms, keeping the rounds that matter.

    ``classify`` gets the columns of every kind of round the fields tell apart and returns
    an int class for each: rounds of class -1 are left out (a bet's losing rounds, say),
    the others are tallied by term and class. None when they would take more than
    :data:`MAX_TERMS` entries (the memory of a few exact walks at most), or the kinds of
    round are more than one table holds.

    Suits are told apart as they are, never by pattern (a term is a product of counts of
    card types, and a pattern's ways on a shoe whose suits differ are not one): bets that
    compare suits only with each other compile exactly, on as long a walk as they took
    before patterns (``walk_visits`` without ``relational``). Terms are for shoes dealt
    without replacement only (see the module's docstring).
    """
    # Neither a flush summed over the suits nor a pattern of suits (a suited pair's, say)
    # is one product of counts: every suit dealt as it is.
    card_plan = plan(frozenset(fields), literals, suit_sums=False)
    reference = Shoe.standard(_REFERENCE_DECKS)
    try:
        layout = lay_out(card_plan, reference, tableau)
    except AnalyzerError:
        # More kinds of round than one table holds, on a shoe that deals every kind: the
        # terms are too many too. Each shoe is then walked on its own, of the kinds it can
        # deal (and that walk says so itself where they are still too many).
        return None
    n_cells = prod(layout.shape)
    if n_cells <= _CLASSED_CELLS:  # every key classed: no walk to find those reached
        keys = np.arange(n_cells)
    else:
        (keys,) = np.nonzero(count(layout, reference))
    classes = np.asarray(classify(key_columns(layout, keys)), dtype=np.int64)
    cell_class = np.full(n_cells, -1, dtype=np.int64)
    cell_class[keys] = classes
    tally = NumbaDict.empty(key_type=int64, value_type=int64)
    if (classes >= 0).any() and not all(
        kernels.record_terms(layout.deal, share, cell_class, tally, MAX_TERMS)
        for share in layout.card_shares
    ):
        return None
    n_classes = max(1, int(classes.max()) + 1)
    recorded = np.empty(len(tally), dtype=np.int64)
    counted = np.empty(len(tally), dtype=np.int64)
    kernels.tally_items(tally, recorded, counted)
    signatures, term_index = np.unique(recorded // n_classes, return_inverse=True)
    n_types = len(layout.types.counts)
    slot = np.full((len(signatures), MAX_FACTORS), -1, dtype=np.int64)
    offset = np.zeros_like(slot)
    power = np.zeros_like(slot)
    kernels.term_factors(signatures, n_types, layout.types.values, slot, offset, power)
    return CardTerms(
        layout.types.members,
        card_plan.needs_suits,
        n_types,
        slot,
        offset,
        power,
        term_index.reshape(-1).astype(np.int64),
        recorded % n_classes,
        counted,
    )
