"""The outcome table: one row per distinct round outcome, with its exact count.

Built from the enumerator's counts, it carries every field a paytable condition may use
(see :mod:`analyzer.game.fields`) and the ``ways`` of ordered six-card sequences of each
row, over a common ``denominator``: plain arrays, with a DataFrame view for people.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.engine.enumerator import OutcomeCounts
from analyzer.engine.identities import IdentityCounts
from analyzer.game.fields import (
    N_PAIR_STATES,
    WINNERS,
    PairDetail,
    columns_of_round,
    derived_columns,
    pair_columns,
    third_card_field,
)
from analyzer.game.rules import Round
from analyzer.paytables.settle import identity_column
from analyzer.schema import argument

#: Sorts WINNERS alphabetically (searchsorted needs a sorted view).
_WINNER_ORDER = np.argsort(np.array(WINNERS))


@dataclass(frozen=True, eq=False)
class OutcomeTable:
    """Every distinct outcome of one round, exactly.

    ``columns`` holds, per row, every field the counts tell apart (see
    :mod:`analyzer.game.fields`; ``winner`` as text); ``ways[i]`` is the number of ordered
    six-card sequences that end in row ``i``, and they sum to ``denominator``.
    ``pair_detail`` says which pair fields are present.
    """

    columns: dict[str, np.ndarray]
    ways: np.ndarray
    denominator: int
    pair_detail: PairDetail
    #: Under a mixed strategy, what ``ways`` are multiplied by (the common denominator of
    #: the mixture's weights; 1 for a pure one): ``ways / scale`` are expected numbers of
    #: ordered six-card sequences, of ``denominator / scale`` in all.
    scale: int = 1

    @property
    def sequences(self) -> int:
        """How many ordered six-card sequences the counts are of (the denominator less
        a mixed strategy's scale)."""
        return self.denominator // self.scale

    def __len__(self) -> int:
        return len(self.ways)

    def to_frame(self) -> pd.DataFrame:
        """The table as a DataFrame: a column per field (``winner`` categorical), ``ways``."""
        columns = dict(self.columns)
        codes = np.searchsorted(np.array(WINNERS), columns["winner"], sorter=_WINNER_ORDER)
        columns["winner"] = pd.Categorical.from_codes(_WINNER_ORDER[codes], list(WINNERS))
        return pd.DataFrame(columns).assign(ways=self.ways)


def _cell_fields(ps, bs, pt, bt, naturals) -> dict[str, np.ndarray]:
    """The value-level fields of counts' cells (scores, third-card axes)."""
    return derived_columns(
        ps.astype(np.int64),
        bs.astype(np.int64),
        third_card_field(pt),
        third_card_field(bt),
        naturals,
    )


def outcome_table(outcomes: OutcomeCounts) -> OutcomeTable:
    """One row per nonzero outcome cell, with every available field and its ``ways``."""
    argument(outcomes, OutcomeCounts, "outcomes", " (see count_outcomes)")
    state, ps, bs, pt, bt = np.nonzero(outcomes.counts)
    columns = _cell_fields(ps, bs, pt, bt, outcomes.naturals)
    player_state, banker_state = np.divmod(state, N_PAIR_STATES)
    columns |= pair_columns(player_state, banker_state, outcomes.pair_detail)
    # int64, or Python integers where a mixed strategy's counts outgrow it.
    ways = outcomes.counts[state, ps, bs, pt, bt]
    return OutcomeTable(columns, ways, outcomes.denominator, outcomes.pair_detail, outcomes.scale)


def identity_table(outcomes: IdentityCounts) -> OutcomeTable:
    """One row per nonzero (outcome cell, counted identity pattern) of the identity walk:
    the value-level fields and the pattern index of the cards a bet multiplied by the
    counts' kind counts (column :func:`~analyzer.paytables.settle.identity_column`)."""
    argument(outcomes, IdentityCounts, "outcomes", " (see identity_outcomes)")
    # flatnonzero then unravel: a third faster than nonzero on this 5-D array.
    flat = np.flatnonzero(outcomes.counts)
    ps, bs, pt, bt, pattern = np.unravel_index(flat, outcomes.counts.shape)
    columns = _cell_fields(ps, bs, pt, bt, outcomes.naturals)
    columns[identity_column(outcomes.kind)] = pattern.astype(np.int64)
    ways = outcomes.counts.reshape(-1)[flat]
    return OutcomeTable(columns, ways, outcomes.denominator, "none", outcomes.scale)


def round_table(dealt: Round) -> OutcomeTable:
    """A one-row outcome table for a concrete round (``ways`` = 1), as ``play`` settles it."""
    return OutcomeTable(columns_of_round(dealt), np.ones(1, dtype=np.int64), 1, "suit")
