"""Settling a bet: the first rule whose condition holds settles the round.

This is the one place that rule is written. Every consumer (exact breakdowns, the compiled
walk, the batch engine, dealt shoes, ``play``) settles through these functions, over
columns of fields (:mod:`analyzer.game.fields`), one row per outcome or round.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import cache, cached_property
from typing import TYPE_CHECKING

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.game.games import counted_field
from analyzer.game.identities import IDENTITY_PATTERNS, N_PATTERNS, PATTERN_INDEX, counted_cards
from analyzer.paytables.model import LOSE, Bet
from analyzer.records import record

if TYPE_CHECKING:  # (a bet without multipliers, as most are, never needs the module)
    from analyzer.paytables.conditions import Condition
    from analyzer.paytables.multipliers import Multipliers, Specials

Columns = Mapping[str, np.ndarray]
#: The pattern of two different cards, and of one card dealt twice.
_TWO_CARDS = PATTERN_INDEX[(1, 1)]
_ONE_CARD_TWICE = PATTERN_INDEX[(2,)]


def rule_masks(bet: Bet, columns: Columns, n_rows: int) -> list[np.ndarray]:
    """Rows where each rule's condition holds (earlier rules or not)."""
    return list(_each_mask(bet, columns, n_rows))


def _each_mask(bet: Bet, columns: Columns, n_rows: int) -> Iterator[np.ndarray]:
    """The rules' masks one at a time: a bet of many rules on a table of millions of rows
    never holds them all at once (681 rules once took 5.5 GB)."""
    for rule in bet.rules:
        yield rule.condition.mask(columns, n_rows)


class SharedMasks:
    """Each condition's mask over the rows of one table (``columns``, ``ways``), worked
    out when first asked for and then shared by every bet and rule asking the same
    condition (``winner == 'tie'`` of Dragon Tiger's Dragon, Tiger and Tie): called with
    a condition, its read-only mask (:meth:`~analyzer.paytables.conditions.Condition.
    holds`)."""

    def __init__(self, columns: Columns, ways: np.ndarray) -> None:
        self.columns = columns
        self.n_rows = len(ways)
        #: The ways of every row (exact: a Python integer).
        self.total = sum(ways.tolist())
        self._held: dict[str, np.ndarray] = {}

    def __call__(self, condition: Condition) -> np.ndarray:
        held = self._held.get(condition.text)
        if held is None:
            held = self._held[condition.text] = condition.holds(self.columns, self.n_rows)
        return held


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


@record(eq=False)
class WaysByPattern:
    """Ways per row split by the identity pattern of the cards a multiplied bet counts, as
    the identity walk's tables give them: ``ways[i, j]`` of row ``i`` show pattern index
    ``patterns[j]`` (only the patterns that occur are columns)."""

    ways: np.ndarray
    patterns: np.ndarray

    def __len__(self) -> int:
        return len(self.ways)


def row_patterns(bet: Bet, columns: Columns) -> np.ndarray:
    """Per row, the pattern index of the cards a multiplied bet counts: for another game
    of the family, the deal walk's column of them (:func:`~analyzer.game.games.
    counted_field`); for punto banco, of the first two cards a first-two kind counts,
    from the suited-pair fields. (The identity walk's tables give the other kinds' ways
    by pattern per row instead.)"""
    kind = bet.multiply
    if kind is None:
        raise AnalyzerError(f"bet {bet.id!r} is not multiplied")
    if not bet.on_punto_banco:
        name = counted_field(kind, bet.multipliers.by)
        if name not in columns:
            raise AnalyzerError(f"bet {bet.id!r}: this table does not count its cards' {name}")
        return np.asarray(columns[name], dtype=np.int64)
    if not kind.endswith("_first_two"):
        raise AnalyzerError(f"bet {bet.id!r}: this table does not count {kind!r} identities")
    suited = f"{kind.removesuffix('_first_two')}_suited_pair"
    if suited not in columns:
        raise AnalyzerError(f"bet {bet.id!r}: the suits of some cards are unknown")
    return np.where(columns[suited], _ONE_CARD_TWICE, _TWO_CARDS)


@cache
def _moment_numerators(
    model: Multipliers, constant: Fraction, slope: Fraction
) -> tuple[list[int], list[int], int] | None:
    """``E[net]`` and ``E[net**2]`` of a rule netting ``constant + slope * multiplier``,
    for every identity pattern, as integer numerators over one common denominator (cached
    by model and rule: a breakdown then sums integers); None where the model's moments
    are not Fractions (polynomials in its unknowns)."""
    first, second = [], []
    for pattern in IDENTITY_PATTERNS:
        m1, m2 = model.moment(pattern, 1), model.moment(pattern, 2)
        if not (isinstance(m1, Fraction) and isinstance(m2, Fraction)):
            return None
        first.append(constant + slope * m1)
        second.append(constant * constant + 2 * constant * slope * m1 + slope * slope * m2)
    denominator = math.lcm(*(m.denominator for m in first + second))
    return (
        [int(m * denominator) for m in first],
        [int(m * denominator) for m in second],
        denominator,
    )


def check_ties_counted(
    bet: Bet, index: np.ndarray, winner: np.ndarray, present: np.ndarray | None = None
) -> None:
    """Refuse a bet multiplied by the winner's cards whose rule pays by the multiplier on
    a tie (rows settled by ``index``, those ``present`` only), which has no winner: the
    bet cannot see its cards."""
    if bet.multiply != "winner":
        return
    on_tie = winner == "tie" if present is None else (winner == "tie") & present
    for rule, holds in enumerate(bet.rules):
        if holds.payout.multiplied and np.any(on_tie & (index == rule)):
            raise AnalyzerError(
                f"bet {bet.id!r}: rule {rule + 1} pays by the multiplier on a tie, where "
                "multiply = 'winner' counts no cards (use 'both', or a hand)"
            )


def settled_ways(
    bet: Bet, columns: Columns, ways: np.ndarray, masks: SharedMasks | None = None
) -> tuple[list[int], list[int]]:
    """Exact integer ways settled by each rule and by "no rule" (the last entry), and the
    ways each rule's condition holds for, earlier rules or not (for warnings); each
    condition's mask taken from ``masks`` where given (shared with other bets: the same
    rows as ``columns`` and ``ways``)."""
    matched: list[int] = []
    if masks is not None and ways.dtype == np.int64:
        # Rule by rule, the ways of the rows it holds for and of those it settles (the
        # rows no earlier rule holds for), in integer dot products: a few numpy calls a
        # rule on a table of a few rows, where sorting rows by rule cost tens of them.
        settled: list[int] = []
        open_rows = None  # (None: every row)
        last = len(bet.rules) - 1
        for number, rule in enumerate(bet.rules):
            holds = masks(rule.condition)
            matched.append(int(np.dot(holds, ways)))
            if open_rows is None:
                settled.append(matched[-1])
                if number < last:
                    open_rows = ~holds
            else:
                settled.append(int(np.dot(holds & open_rows, ways)))
                if number < last:
                    open_rows &= ~holds
        settled.append(masks.total - sum(settled))
        return settled, matched
    index = first_holding(
        _each_mask(bet, columns, len(ways)),
        len(ways),
        lambda holds: matched.append(int(ways[holds].sum())),
    )
    # Summed in one pass, exactly (every count fits in int64 by design).
    totals = np.zeros(len(bet.rules) + 1, dtype=ways.dtype)
    np.add.at(totals, index, ways)
    return [int(w) for w in totals], matched


@record(eq=False)
class Settlement:
    """What ``bet`` nets in a round of each kind, the one description every engine prices
    and settles by: a round settled by rule ``r`` (``len(bet.rules)``: by none, a loss)
    nets ``constant[r] + slope[r] * multiplier`` per unit staked, ``multiplier`` being
    the product of its counted cards' multipliers (1 for a bet not multiplied), and the
    fee is paid on top of the stake whatever the result. Figures per unit paid (the stake
    plus the fee) are what every engine reports: :meth:`per_paid`."""

    bet: Bet

    @cached_property  # read per pattern and per round: built once
    def constants(self) -> list[Fraction]:
        return [rule.payout.net for rule in self.bet.rules] + [LOSE.net]

    @cached_property
    def slopes(self) -> list[Fraction]:
        return [rule.payout.per_multiplier for rule in self.bet.rules] + [Fraction(0)]

    @property
    def fee(self) -> Fraction:
        return self.bet.fee

    def nets(self) -> list[Fraction]:
        """Net per unit staked of each rule, then of "no rule", before any fee: index
        with :func:`settling_rule`. Only for a bet not multiplied: engines that settle
        one net per rule refuse the others here, in one line."""
        if self.bet.multiplied:
            raise AnalyzerError(
                f"bet {self.bet.id!r} pays random multipliers: this engine settles a fixed "
                "net per rule only (the exact analysis of report, verify, docs, eor and "
                "count on shoes of known suits, play and simulate price it)"
            )
        return self.constants

    def per_paid(self, expected_net):
        """An expected net per unit staked (a Fraction, a float array, a polynomial) as
        the expected value per unit paid: the fee is paid and returns nothing."""
        if not self.fee:
            return expected_net
        # Floats stay floats (a Fraction would make an array of objects).
        fee = float(self.fee) if isinstance(expected_net, (float, np.ndarray)) else self.fee
        return (expected_net - fee) / (1 + fee)

    def variance_per_paid(self, variance):
        """A variance of the net per unit staked, per unit paid (the fee is a constant)."""
        return variance / (1 + self.fee) ** 2 if self.fee else variance

    def moments(self, rule: int, pattern: tuple[int, ...]) -> tuple[Fraction, Fraction]:
        """``E[net]`` and ``E[net**2]`` per unit staked (before the fee) of a round settled
        by ``rule`` whose counted cards show identity ``pattern``: the multiplier's exact
        moments (:meth:`Multipliers.moment`) times the rule's slope."""
        a, b = self.constants[rule], self.slopes[rule]
        if not b:
            return a, a * a
        model = self.bet.multipliers
        first, second = model.moment(pattern, 1), model.moment(pattern, 2)
        return a + b * first, a * a + 2 * a * b * first + b * b * second

    def round_net(self, rule: int, multiplier: Fraction) -> Fraction:
        """Net per unit staked of one dealt round settled by ``rule``, its cards having
        ``multiplier`` (capped already), before any fee."""
        return self.constants[rule] + self.slopes[rule] * multiplier

    def expected_value(
        self, columns: Columns, ways: np.ndarray | WaysByPattern, denominator: int
    ) -> Fraction:
        """The exact expected value per unit paid over rows weighted by ``ways``: per row,
        or for a multiplied bet per row and counted identity pattern (the identity
        walk's tables; a first-two kind's pattern is a field of the row)."""
        bet = self.bet
        n_rows = len(ways)
        if not bet.multiplied:
            settled, _ = settled_ways(bet, columns, ways)
            total = sum(w * n for w, n in zip(settled, self.constants, strict=True))
        else:
            cells = self.pattern_ways(columns, ways, settling_rule(bet, columns, n_rows))
            total = sum(
                (self.rule_totals(rule, cells[rule])[1] for rule in range(len(cells))),
                start=Fraction(0),
            )
        return self.per_paid(Fraction(total) / denominator)

    def pattern_ways(
        self, columns: Columns, ways: np.ndarray | WaysByPattern, index: np.ndarray
    ) -> np.ndarray:
        """A multiplied bet's exact ways per (settling rule, counted identity pattern), the
        rows settled by ``index`` (:func:`settling_rule`) and weighted by ``ways`` (per
        row, or per row and pattern); a rule paying by the multiplier on a tie is refused
        (:func:`check_ties_counted`). Every partial sum fits (at most the denominator)
        in int64, or is a Python integer under a large mixed strategy."""
        n_rules = len(self.bet.rules) + 1
        if isinstance(ways, WaysByPattern):
            by_pattern = ways.ways
            if self.bet.multiply == "winner":  # (the only kind without cards on a tie)
                check_ties_counted(self.bet, index, columns["winner"], by_pattern.any(axis=1))
            cells = np.zeros((n_rules, N_PATTERNS), dtype=by_pattern.dtype)
            # Each rule's rows summed at once: a 0/1 matrix (rule by row) times the ways,
            # exact in integers (int64, or Python integers of a large mixed strategy).
            settles = np.equal.outer(np.arange(n_rules), index).astype(by_pattern.dtype)
            cells[:, ways.patterns] = settles @ by_pattern
            return cells
        patterns = row_patterns(self.bet, columns)
        check_ties_counted(self.bet, index, columns["winner"], ways != 0)
        cells = np.zeros((n_rules, N_PATTERNS), dtype=ways.dtype)
        np.add.at(cells, (index, patterns), ways)
        return cells

    def net_numerators(self) -> tuple[int, list[list[int]], list[list[int]]] | None:
        """``E[net]`` and ``E[net**2]`` per unit staked (before the fee) of a round settled
        by each rule (then by none) whose counted cards show each identity pattern
        (``[rule][pattern]``), as integer numerators over one common denominator, given
        first: a breakdown then sums integers, and makes a Fraction per figure. None where
        the model's moments are not Fractions (polynomials in the paytable's unknowns)."""
        rows = []
        for a, b in zip(self.constants, self.slopes, strict=True):
            if b:
                table = _moment_numerators(self.bet.multipliers, a, b)
                if table is None:
                    return None
                rows.append(table)
            else:  # a constant net whatever the pattern, over its denominator squared
                d = a.denominator
                rows.append(([a.numerator * d] * N_PATTERNS, [a.numerator**2] * N_PATTERNS, d * d))
        common = math.lcm(*(over for _, _, over in rows))
        return (
            common,
            [[n * (common // over) for n in first] for first, _, over in rows],
            [[n * (common // over) for n in second] for _, second, over in rows],
        )

    def rule_totals(self, rule: int, ways: np.ndarray) -> tuple[int, object, object]:
        """Of the rounds settled by ``rule``, by counted pattern ``ways``: how many, and
        the sums of their nets and squared nets per unit staked (before the fee); exact
        (Fractions, or polynomials in a paytable's unknowns)."""
        present = np.flatnonzero(ways).tolist()
        counts = [int(ways[p]) for p in present]
        a, b = self.constants[rule], self.slopes[rule]
        if not b:  # a constant net: no multiplier moments
            count = sum(counts)
            return count, count * a, count * a * a
        table = _moment_numerators(self.bet.multipliers, a, b)
        if table is not None:  # integers over one denominator: a Fraction per sum only
            first, second, denominator = table
            pairs = list(zip(counts, present, strict=True))
            return (
                sum(counts),
                Fraction(sum(w * first[p] for w, p in pairs), denominator),
                Fraction(sum(w * second[p] for w, p in pairs), denominator),
            )
        count = first = second = 0
        for p in present:
            w = int(ways[p])
            m1, m2 = self.moments(rule, IDENTITY_PATTERNS[p])
            count += w
            first += w * m1
            second += w * m2
        return count, first, second

    def dealt_result(
        self,
        columns: Columns,
        player: list[tuple[int, int]],
        banker: list[tuple[int, int]],
        specials: Specials,
        counted: Callable[[str, str], list[tuple[int, int]]] | None = None,
    ) -> tuple[Fraction, Fraction | None]:
        """What one dealt round (a one-row table, its hands' cards as (rank, suit)) nets
        per unit staked, the fee paid, and the multiplier it paid by (None: not
        multiplied). ``counted``: for another game of the family, the cards a bet
        multiplied by a kind counts in a round the winner wins (``counted(kind, winner)``;
        None: punto banco's, of ``player`` and ``banker``)."""
        bet = self.bet
        index = settling_rule(bet, columns, 1)
        rule = int(index[0])
        multiplier = None
        if self.slopes[rule]:
            check_ties_counted(bet, index, columns["winner"])
            winner = str(columns["winner"][0])
            from analyzer.paytables.multipliers import round_multiplier

            if counted is None:
                cards = counted_cards(bet.multiply, player, banker, winner)
            else:
                cards = counted(bet.multiply, winner)
            multiplier = round_multiplier(bet.multipliers, cards, specials)
        return self.round_net(rule, multiplier or Fraction(1)) - self.fee, multiplier

    def paid_nets(
        self, index: np.ndarray, winner: np.ndarray | None, multiplier: np.ndarray | None
    ) -> np.ndarray:
        """Per dealt round (settled by rule ``index``, as :func:`settling_rule` gives it),
        the net per unit paid, in floats (the simulator's); ``multiplier`` is each
        round's counted cards' multiplier (None: a bet not multiplied); ``winner`` each
        round's winner (None will do for a bet not multiplied by the winner's cards)."""
        constant = np.array([float(net) for net in self.constants])
        slope = np.array([float(b) for b in self.slopes])
        check_ties_counted(self.bet, index, winner)
        net = constant[index] + slope[index] * (1.0 if multiplier is None else multiplier)
        return self.per_paid(net)
