"""The outcome table: one row per distinct round outcome, with its exact count.

Built from the enumerator's counts, it carries every field a paytable condition may use
(see :mod:`analyzer.game.fields`) and the ``ways`` of ordered six-card sequences of each
row, over a common ``denominator``: plain arrays, with a DataFrame view for people.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from analyzer.engine.counts import OutcomeCounts
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
from analyzer.paytables.settle import WaysByPattern
from analyzer.records import record
from analyzer.schema import argument

if TYPE_CHECKING:  # (pandas is imported where a frame is made: a report needs none)
    import pandas as pd

    from analyzer.engine.identities import IdentityCounts

#: Sorts WINNERS alphabetically (searchsorted needs a sorted view).
_WINNER_ORDER = np.argsort(np.array(WINNERS))


@record(eq=False)
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
    #: The identity walk's tables: the ways of each row by the identity pattern of the
    #: cards a bet multiplied by ``counted`` counts (they sum to ``ways``); None in other
    #: tables.
    by_pattern: WaysByPattern | None = None
    counted: str | None = None

    @property
    def multiplied_ways(self) -> np.ndarray | WaysByPattern:
        """The ways a multiplied bet is settled by: per row and counted pattern in the
        identity walk's tables, else per row (the pattern is then a field of the row)."""
        return self.ways if self.by_pattern is None else self.by_pattern

    @property
    def sequences(self) -> int:
        """How many ordered six-card sequences the counts are of (the denominator less
        a mixed strategy's scale)."""
        return self.denominator // self.scale

    def __len__(self) -> int:
        return len(self.ways)

    def to_frame(self) -> pd.DataFrame:
        """The table as a DataFrame: a column per field (``winner`` categorical), ``ways``."""
        import pandas as pd

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


@lru_cache(maxsize=16)
def _identity_cell_fields(cells: bytes, naturals: tuple[int, ...]) -> dict[str, np.ndarray]:
    """The value-level fields of the identity walk's flat cells (given as their bytes):
    the same cells for every shoe a tableau deals in full, so worked out once (read-only)."""
    from analyzer.engine.identities import CELLS

    flat = np.frombuffer(cells, dtype=np.int64)
    ps, bs, pt, bt = np.unravel_index(flat, CELLS)
    columns = _cell_fields(ps, bs, pt, bt, naturals)
    for column in columns.values():
        column.setflags(write=False)
    return columns


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


def identity_tables(by_kind: dict[str, IdentityCounts]) -> dict[str, OutcomeTable]:
    """One table per kind of the identity walk's counts: a row per possible outcome cell
    (the same rows, and columns, for every kind), the value-level fields, its ways, and
    its ways by the identity pattern of the cards the kind counts (``by_pattern``)."""
    from analyzer.engine.identities import IdentityCounts  # (Numba: multiplied bets only)

    tables: dict[str, OutcomeTable] = {}
    columns = None
    for kind, outcomes in by_kind.items():
        argument(outcomes, IdentityCounts, "outcomes", " (see identity_outcomes)")
        if columns is None:
            columns = dict(_identity_cell_fields(outcomes.cells.tobytes(), outcomes.naturals))
        ways = outcomes.ways.sum(axis=1)
        # Only the patterns the kind's cards show: a few columns, not every pattern's.
        patterns = np.flatnonzero(outcomes.ways.any(axis=0))
        by_pattern = WaysByPattern(outcomes.ways[:, patterns], patterns)
        tables[kind] = OutcomeTable(
            columns, ways, outcomes.denominator, "none", outcomes.scale, by_pattern, kind
        )
    return tables


def round_table(dealt: Round) -> OutcomeTable:
    """A one-row outcome table for a concrete round (``ways`` = 1), as ``play`` settles it."""
    return OutcomeTable(columns_of_round(dealt), np.ones(1, dtype=np.int64), 1, "suit")
