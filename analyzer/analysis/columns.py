"""Every fixed-payout bet of an analysis settled on the enumerator's counts at once.

Which rule settles an outcome cell, and which conditions hold there, depend only on the
cell (its scores, third cards and pair states), not on the shoe. So for a set of bets,
the cells the counts reach are sorted once into *groups* of cells that every bet settles
alike (the seed game's 36 (bet, mode) columns split 14,116 cells into 258 groups), and a
settlement says which rule of each bet settles each group and which conditions hold there
(:class:`Settlement`: memory linear in groups and rules). An analysis
then gathers the counts of those cells, sums them per group (``np.add.reduceat``, exact in
int64: no partial sum exceeds the denominator), and takes every column's ways per rule and
every condition's ways in integer sums and products, without evaluating a condition.

A plan is kept per (pair detail, naturals, rules asked for) and serves any counts whose
nonzero cells it covers (cells it holds and the counts do not reach add nothing); counts
reaching a cell it lacks make a new plan over both. Mixed strategies whose counts outgrow
int64 (Python integers) are summed the same way in Python integers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property

import numpy as np

from analyzer.analysis.bets import OTHERWISE, BetResult, FixedNets, check_fields
from analyzer.engine.counts import CELL_SHAPE, OutcomeCounts
from analyzer.engine.outcomes import outcome_table
from analyzer.game.fields import N_PAIR_STATES
from analyzer.game.shoe import Shoe
from analyzer.memo import Kept, once
from analyzer.paytables.model import Bet
from analyzer.paytables.settle import settling_rule
from analyzer.records import record

#: Plans kept (each some hundreds of KB: the cells and the settlement).
_MOST_PLANS = 16
_plans: Kept[_Plan] = Kept(_MOST_PLANS)

RulesKey = tuple[str, ...]

#: The shoe of the counts a dealt-round plan is made of (its cells, not its counts, matter).
_ANY_SHOE = Shoe.standard(1)


@record(eq=False)
class _Plan:
    """Cells in group order (``cells``, flat in the counts; group ``g`` is
    ``cells[starts[g]:starts[g + 1]]``), and how each group settles (``settlement``)."""

    cells: np.ndarray
    starts: np.ndarray
    settlement: Settlement


def _rules_key(bet: Bet) -> RulesKey:
    return tuple(rule.condition.text for rule in bet.rules)


def _plan(counts: OutcomeCounts, bets: Sequence[Bet], cells: np.ndarray) -> _Plan:
    """A plan over ``cells`` (flat nonzero cells of counts) for ``bets``, which are refused
    in one line if they ask for fields the counts do not tell (a plan for the same pair
    detail and rules is then never made)."""
    table = outcome_table(_on_cells(counts, cells))
    settlement, group = settle_rows(bets, table.columns, len(table))
    # The table's rows are the cells in flat order (np.nonzero): group them by signature.
    order = np.argsort(group, kind="stable")
    starts = np.searchsorted(group[order], np.arange(settlement.n_groups))
    for array in (cells, starts):
        array.setflags(write=False)
    return _Plan(cells[order], starts, settlement)


#: Conditions whose matched ways are summed in one matrix product (a block of 0/1 columns
#: of every group at a time: some megabytes, however many conditions a paytable has).
_CONDITION_BLOCK = 256
#: A plan whose groups times conditions is at most this keeps their 0/1 matrix unpacked.
_SMALL_MATRIX = 2**16


@record(eq=False)
class Settlement:
    """How rows sorted into groups settle, held in memory linear in the groups and the
    rules (a dense 0/1 matrix of rows by groups took 1 GB for 1,353 rules): per group,
    ``rule_of[g, k]``, the rule of the ``k``-th rules key (in ``first_row`` order) that
    settles it (its number of rules where none does), and ``holds[g]``, the conditions
    that hold there (``condition_row`` order) as bits (``np.packbits``). Its rows of
    totals (:meth:`totals`): ``first_row`` of each rules key (then one row per rule and
    one for "no rule"), then ``condition_row`` of each condition."""

    rule_of: np.ndarray
    holds: np.ndarray
    first_row: dict[RulesKey, int]
    condition_row: dict[str, int]
    #: Rows of totals in all.
    n_rows: int

    @property
    def n_groups(self) -> int:
        return self.rule_of.shape[0]

    def settling(self, rules_key: RulesKey) -> np.ndarray:
        """Per group, the index of the rule of ``rules_key`` that settles it."""
        return self.rule_of[:, list(self.first_row).index(rules_key)]

    @cached_property
    def _rows_of_groups(self) -> np.ndarray:
        """Per group and rules key, the row of the rule that settles it, flat."""
        starts = np.array(list(self.first_row.values()), dtype=np.int64)
        return (self.rule_of + starts[None, :]).reshape(-1)

    def group_rows(self) -> np.ndarray | None:
        """Per group, its rows of totals as 0/1 (int64, read-only; :meth:`totals` is
        ``ways @`` it), or None where that matrix would be large."""
        return self._matrix

    @once
    def _matrix(self) -> np.ndarray | None:
        """The groups' 0/1 matrix of rows (int64, groups by rows: a group's settling rule
        of each rules key, and each condition holding there), or None where it would be
        large (the rows are then summed without it)."""
        if self.n_groups * self.n_rows > _SMALL_MATRIX:
            return None
        matrix = np.zeros((self.n_groups, self.n_rows), dtype=np.int64)
        n_keys = self.rule_of.shape[1]
        matrix[np.repeat(np.arange(self.n_groups), n_keys), self._rows_of_groups] = 1
        rows = list(self.condition_row.values())
        if rows:
            n_conditions = len(rows)
            matrix[:, rows] = np.unpackbits(self.holds, axis=1)[:, :n_conditions]
        matrix.setflags(write=False)
        return matrix

    def totals(self, ways: np.ndarray) -> list[int]:
        """The ways of every row from the ways of each group: int64 (exact: no partial
        sum exceeds the denominator) or Python integers (an object array), summed as the
        rows' 0/1 matrix times ``ways`` would sum them (a small plan keeps that matrix:
        one product)."""
        matrix = self._matrix if ways.dtype != object else None
        if matrix is not None:  # int64, a small plan: one product, no loop
            return (ways @ matrix).tolist()
        totals: list[int] = [0] * self.n_rows
        starts = list(self.first_row.values())
        ends = [*starts[1:], min(self.condition_row.values(), default=self.n_rows)]
        exact = ways.dtype == object
        for k, (start, end) in enumerate(zip(starts, ends, strict=True)):
            sums = np.zeros(end - start, dtype=ways.dtype)  # (object: Python 0s)
            np.add.at(sums, self.rule_of[:, k], ways)
            totals[start:end] = [int(t) for t in sums.tolist()]
        rows = list(self.condition_row.values())
        for first in range(0, len(rows), _CONDITION_BLOCK):
            block = rows[first : first + _CONDITION_BLOCK]
            bits = np.unpackbits(self.holds[:, first // 8 : (first + len(block) + 7) // 8], axis=1)
            matched = ways @ bits[:, : len(block)].astype(object if exact else np.int64)
            for row, value in zip(block, matched.tolist(), strict=True):
                totals[row] = int(value)
        return totals


def settle_rows(
    bets: Sequence[Bet], columns: Mapping[str, np.ndarray], n_rows: int
) -> tuple[Settlement, np.ndarray]:
    """Rows of ``columns`` sorted into groups that every one of ``bets`` settles alike
    (each rule, each condition), and how each group settles; the group of each row. Bets
    asking for fields the columns lack are refused in one line.

    Memory is linear in rows times (bets, and conditions over 8): each bet's settling
    rule a column, each condition a bit."""
    for bet in bets:
        check_fields(bet, columns)
    first_row: dict[RulesKey, int] = {}
    condition_row: dict[str, int] = {}
    rows = 0
    by_rules: dict[RulesKey, Bet] = {}
    for bet in bets:
        by_rules.setdefault(_rules_key(bet), bet)
    settles = np.empty((n_rows, len(by_rules)), dtype=np.int16)
    for k, (rules_key, bet) in enumerate(by_rules.items()):
        first_row[rules_key] = rows
        rows += len(bet.rules) + 1
        settles[:, k] = settling_rule(bet, columns, n_rows)
    conditions = {}
    for bet in by_rules.values():
        for rule in bet.rules:
            if rule.condition.text not in condition_row:
                condition_row[rule.condition.text] = rows
                conditions[rule.condition.text] = rule.condition
                rows += 1
    # Each condition's mask a bit, packed eight conditions a byte, a block at a time.
    holds = np.zeros((n_rows, (len(conditions) + 7) // 8), dtype=np.uint8)
    listed = list(conditions.values())
    for first in range(0, len(listed), _CONDITION_BLOCK):
        block = listed[first : first + _CONDITION_BLOCK]
        masks = np.empty((n_rows, len(block)), dtype=bool)
        for j, condition in enumerate(block):
            masks[:, j] = condition.mask(columns, n_rows)
        holds[:, first // 8 : (first + len(block) + 7) // 8] = np.packbits(masks, axis=1)
    signature = np.ascontiguousarray(np.hstack([settles.view(np.uint8), holds]))
    packed = signature.view(np.dtype((np.void, signature.shape[1])))
    _, first, group = np.unique(packed.ravel(), return_index=True, return_inverse=True)
    rule_of = settles[first].astype(np.int64)
    held = holds[first]
    for array in (rule_of, held):
        array.setflags(write=False)
    group = group.reshape(-1).astype(np.int64)
    return Settlement(rule_of, held, first_row, condition_row, rows), group


def _group_ways(plan: _Plan, dense: np.ndarray) -> np.ndarray:
    """The counts ``dense`` (flat) summed over each group of ``plan``: int64 (exact: no
    partial sum exceeds the denominator), or Python integers in an object array."""
    ways = dense.take(plan.cells)  # (take: quicker than indexing by an array)
    if ways.dtype == object:  # Python integers (a large mixed strategy): summed as they are
        ends = [*plan.starts[1:].tolist(), len(ways)]
        spans = zip(plan.starts.tolist(), ends, strict=True)
        return np.array([sum(ways[a:b].tolist()) for a, b in spans], dtype=object)
    return np.add.reduceat(ways, plan.starts) if len(ways) else ways


def _on_cells(counts: OutcomeCounts, cells: np.ndarray) -> OutcomeCounts:
    """``counts`` with every one of ``cells`` nonzero (the others zero), for a table whose
    rows are those cells: the plan's columns, not its ways, are what it is built from."""
    marked = np.zeros(counts.counts.size, dtype=np.int64)
    marked[cells] = 1
    shape = counts.counts.shape
    return OutcomeCounts(
        marked.reshape(shape), counts.pair_detail, 1, counts.shoe, counts.naturals, 1
    )


class BetColumns:
    """Fixed-payout bets on the round's outcome, each in a mode (``offered``; no bet
    multiplied), to be settled together on the counts of any shoe: :meth:`evaluate`."""

    def __init__(self, offered: Sequence[tuple[Bet, str]]) -> None:
        self.offered = tuple(offered)
        self._keys = [_rules_key(bet) for bet, _ in self.offered]
        self._rules = tuple(dict.fromkeys(self._keys))
        self._nets = [FixedNets.of(bet) for bet, _ in self.offered]
        self._shown = [
            (*(rule.condition.shown for rule in bet.rules), OTHERWISE) for bet, _ in self.offered
        ]
        self._rows: tuple[Settlement | None, list] = (None, [])
        #: The last plan used, and the shape of counts it served (pair detail, naturals,
        #: the array's shape): a plan is immutable, and serves again where it covers.
        self._last: tuple[tuple | None, _Plan | None] = (None, None)

    def _plan_for(self, counts: OutcomeCounts) -> tuple[_Plan, np.ndarray]:
        """The plan for ``counts`` and the counts summed over each of its groups."""
        shape = (counts.pair_detail, counts.naturals, counts.counts.shape)
        last_shape, plan = self._last
        if last_shape != shape:  # (the last plan: no key of every rule to hash)
            plan = _plans.get((*shape, self._rules))
        dense = counts.counts.reshape(-1)
        if plan is not None:
            group_ways = _group_ways(plan, dense)
            # Counts are never negative: the plan's cells hold them all if they sum to all
            # (in int64 no partial sum exceeds the denominator, which fits; the groups'
            # sums as Python integers: a few, not a number per cell).
            if sum(group_ways.tolist()) == counts.denominator:
                self._last = (shape, plan)
                return plan, group_ways
            cells = np.union1d(plan.cells, np.flatnonzero(dense))
        else:
            cells = np.flatnonzero(dense)
        plan = _plan(counts, [bet for bet, _ in self.offered], cells)
        _plans.put((*shape, self._rules), plan)
        self._last = (shape, plan)
        return plan, _group_ways(plan, dense)

    def evaluate(self, counts: OutcomeCounts) -> list[BetResult]:
        """:func:`~analyzer.analysis.bets.evaluate_bet` of every (bet, mode) on the table
        of ``counts``, at once: the same results."""
        if not self.offered:
            return []
        plan, group_ways = self._plan_for(counts)
        totals = plan.settlement.totals(group_ways)
        return self.results(plan.settlement, totals, counts.denominator, counts.scale)

    def results(
        self, settlement: Settlement, totals: list[int], denominator: int, scale: int
    ) -> list[BetResult]:
        """Every (bet, mode)'s result from ``totals``: the ways of each of the settlement's
        rows (:meth:`Settlement.totals` of the ways of each group) over ``denominator``."""
        results: list[BetResult] = []
        # A bet offered in several modes settles alike in each: its lines and sums are
        # worked out once (the seed game's 36 columns are 19 bets).
        for (bet, mode), nets, shown, (same, first, end, holds) in zip(
            self.offered, self._nets, self._shown, self._rows_of(settlement), strict=True
        ):
            like = results[same] if same >= 0 else None  # (lines and sums shared)
            ways = totals[first:end]
            matched = [totals[row] for row in holds]
            results.append(nets.settled(bet, mode, shown, ways, matched, denominator, scale, like))
        return results

    def _rows_of(self, plan: Settlement) -> list[tuple[int, int, int, list[int]]]:
        """Per bet, the first (bet, mode) of the same bet (-1: none before it), the plan's
        rows of its lines' settled ways (``first:end``) and of their matched ways (the "no
        rule" line matches what it settles)."""
        if self._rows[0] is not plan:
            rows = []
            seen: dict[int, int] = {}
            for j, ((bet, _), key) in enumerate(zip(self.offered, self._keys, strict=True)):
                first = plan.first_row[key]
                end = first + len(bet.rules) + 1
                holds = [plan.condition_row[rule.condition.text] for rule in bet.rules]
                same = seen.setdefault(id(bet), j)
                rows.append((-1 if same == j else same, first, end, [*holds, end - 1]))
            self._rows = (plan, rows)
        return self._rows[1]


def evaluate_bets(counts: OutcomeCounts, offered: Sequence[tuple[Bet, str]]) -> list[BetResult]:
    """:func:`~analyzer.analysis.bets.evaluate_bet` of every (bet, mode) of ``offered`` (bets
    not multiplied) on the table of ``counts``, at once: the same results."""
    return BetColumns(offered).evaluate(counts)


#: Dealt-round settlements kept, by the rules asked for and the naturals.
_dealt: Kept[tuple[np.ndarray, dict[RulesKey, np.ndarray]]] = Kept(_MOST_PLANS)


def dealt_settlement(
    offered: Sequence[tuple[Bet, str]], naturals: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """How the simulator settles dealt rounds of the bets of ``offered`` (none multiplied,
    none on the cards): per cell of the counts' layout at suit detail (every cell, one a
    shoe reaches or not; see :class:`~analyzer.engine.counts.OutcomeCounts`), its group,
    and per (bet, mode) and group, the rule that settles it (``len(bet.rules)``: none).
    The groups are the exact analysis's (:func:`_plan`), so a dealt round is settled by
    the same conditions, evaluated once per cell rather than once per round."""
    keys = [_rules_key(bet) for bet, _ in offered]
    key = (naturals, tuple(dict.fromkeys(keys)))
    kept = _dealt.get(key)
    if kept is None:
        by_rules = {rules: bet for (bet, _), rules in zip(offered, keys, strict=True)}
        shape = (N_PAIR_STATES**2, *CELL_SHAPE)
        every = np.arange(np.prod(shape))
        counts = OutcomeCounts(np.zeros(shape, dtype=np.int64), "suit", 1, _ANY_SHOE, naturals)
        plan = _plan(counts, list(by_rules.values()), every)
        group = np.empty(len(every), dtype=np.int64)
        group[plan.cells] = np.repeat(
            np.arange(len(plan.starts)), np.diff(plan.starts, append=len(every))
        )
        rules = {rules_key: plan.settlement.settling(rules_key) for rules_key in by_rules}
        kept = _dealt.put(key, (group, rules))
    group, rules = kept
    return group, np.array([rules[k] for k in keys], dtype=np.int64).reshape(len(keys), -1)
