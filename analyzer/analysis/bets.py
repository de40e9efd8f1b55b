"""Bets on an outcome table: exact breakdown and summary statistics of one bet.

Each rule of a bet claims the rows its condition holds for (first rule first); the ways
are summed per rule in int64 (no subset can exceed the denominator, which fits), and
everything after that is exact Fraction arithmetic on a handful of lines.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import field
from fractions import Fraction
from itertools import compress
from operator import mul
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from analyzer.engine.outcomes import OutcomeTable
from analyzer.errors import AnalyzerError
from analyzer.game.identities import IDENTITY_PATTERNS, N_PATTERNS
from analyzer.memo import Kept, once
from analyzer.paytables.model import LOSE, Bet, Payout
from analyzer.paytables.settle import (
    Settlement,
    SharedMasks,
    check_ties_counted,
    first_holding,
    row_patterns,
    settled_ways,
)
from analyzer.paytables.unknowns import Poly
from analyzer.records import record
from analyzer.schema import argument

if TYPE_CHECKING:  # (pandas is imported where a frame is made: a report needs none)
    import pandas as pd

OTHERWISE = "otherwise"
_new_tuple = tuple.__new__
_new_object = object.__new__
_set_attribute = object.__setattr__


class Line(NamedTuple):
    """One line of a bet's breakdown: the rows one rule settles (or none does). (A named
    tuple: an analysis makes a hundred of them, and reads few.)"""

    when: str  # the condition on one line (Condition.shown), or OTHERWISE
    ways: int
    payout: Payout
    matched: int  # ways the condition holds for, earlier rules or not
    #: The sequences ``ways`` are out of (the table's denominator).
    over: int
    #: What ``ways`` are multiplied by under a mixed strategy (see OutcomeTable.scale).
    scale: int = 1
    #: The line's mean net per unit staked (the payout's net, but for a multiplied
    #: payout, whose net is the mean over the line's multipliers); None: the payout's.
    mean_net: Fraction | None = None
    #: A multiplied bet's line: ``(identity pattern index, ways)`` of its rounds' counted
    #: cards, whose multipliers the line's nets spread over (see :func:`net_distribution`).
    patterns: tuple[tuple[int, int], ...] = ()
    #: A bet played by a decision that changes the stake: ``(stake, ways)`` of the line's
    #: rounds played at each stake (in base stakes), whose nets are that many times the
    #: payout's (see :func:`net_distribution`).
    stakes: tuple[tuple[int, int], ...] = ()

    @property
    def probability(self) -> Fraction:
        return Fraction(self.ways, self.over)

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


@record
class Sums:
    """What a bet's figures are exact ratios of. For fixed nets, integers: the ways times
    the net (and times its square) with every net over the nets' ``common`` denominator,
    and the winning and pushing ways, all over ``over`` sequences. Otherwise the figures
    per unit staked themselves (``over`` and ``common`` 1; Fractions or polynomials)."""

    net: Any
    net_squared: Any
    wins: Any
    pushes: Any
    over: int = 1
    common: int = 1

    @once  # (a bet offered in several modes shares its sums: made once)
    def mean_net(self) -> Any:
        return _ratio(self.net, self.over * self.common)

    @property
    def mean_squared_net(self) -> Any:
        return _ratio(self.net_squared, self.over * self.common**2)


@record
class BetResult:
    """Exact results of one bet in one mode, per unit paid: the stake, plus the bet's fee
    where it has one (then the RTP is the expected return over 1 + fee). The lines are
    per unit staked, before the fee. Each figure is made from ``sums`` when first read
    (a gcd each: an analysis of 36 bets reads a few)."""

    bet: Bet
    mode: str
    lines: tuple[Line, ...]
    sums: Sums = field(repr=False)

    @once
    def expected_value(self) -> Fraction:
        """The exact expected net result per unit paid (stake and fee)."""
        sums = self.sums
        if type(sums.net) is int and not self.bet.fee:  # (the common case, read first)
            return sums.mean_net
        return Settlement(self.bet).per_paid(sums.mean_net)

    @once
    def hit_frequency(self) -> Fraction:
        """The exact probability that the bet wins something."""
        return _ratio(self.sums.wins, self.sums.over)

    @once
    def push_probability(self) -> Fraction:
        """The exact probability that the stake is returned."""
        return _ratio(self.sums.pushes, self.sums.over)

    @once
    def variance(self) -> Fraction:
        """The exact variance of the net result per unit paid."""
        variance = self.sums.mean_squared_net - self.sums.mean_net**2
        return Settlement(self.bet).variance_per_paid(variance)

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
        """Minus the expected value: positive favours the house."""
        return -self.expected_value

    @property
    def rtp(self) -> Fraction:
        """Return to player, ``1 + expected_value``."""
        return 1 + self.expected_value

    @property
    def std_dev(self) -> float:
        """The standard deviation of the net result per unit paid (the square root of
        the exact :attr:`variance`, a float).
        """
        return math.sqrt(self.variance)

    @property
    def edge_per_resolved(self) -> Fraction | None:
        """House edge per bet that does not push (None if every round pushes)."""
        resolved = 1 - self.push_probability
        return self.house_edge / resolved if resolved else None


@record
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
    return _evaluated(table, bet, mode, None)


def evaluate_on_tables(offered: Iterable[tuple[OutcomeTable, Bet, str]]) -> list[BetResult]:
    """:func:`evaluate_bet` of each ``(table, bet, mode)`` of ``offered``, the same
    results, each condition's mask over a table worked out once for every bet settled on
    that table (:class:`~analyzer.paytables.settle.SharedMasks`), the bets of fixed nets
    on a table settled together (:func:`_settled_together`), a multiplied bet by its
    cells (:func:`_multiplied_on`). On tables whose columns are shared by every walk of
    the same rows, what settling the same bets on them takes besides the tables' ways is
    worked out once (:class:`_TablesPlan`): each table's bets are then one integer matrix
    product of its ways."""
    offered = list(offered)
    layouts: dict[int, tuple] = {}  # per table (by its id): its first entry, its columns
    key = []
    for entry, (table, bet, mode) in enumerate(offered):
        if type(table) is not OutcomeTable or type(bet) is not Bet or type(mode) is not str:
            return _evaluate_each(offered)
        layout = layouts.get(id(table))
        if layout is None:
            columns, ways = table.columns, table.ways
            arrays = tuple(columns.values())
            if ways.dtype != np.int64 or not arrays or any(a.flags.writeable for a in arrays):
                return _evaluate_each(offered)
            layout = layouts[id(table)] = (entry, *columns, *map(id, arrays))
        key.append((id(bet), mode, layout))
    # (a plan holds the bets and columns of its key: their ids stay their own while kept)
    plan = _plans.get(tuple(key))
    if plan is None:
        plan = _TablesPlan.of(offered)
        if plan is None:
            return _evaluate_each(offered)
        _plans.put(tuple(key), plan)
    return plan.settle(offered)


class _TablesPlan(NamedTuple):
    """What :func:`evaluate_on_tables` of the same bets on tables of the same columns
    takes besides the tables' ways: per table (by its first entry), its fixed-net bets'
    stacked matrix (:func:`_together_matrix`) and per such bet its entry, first row,
    lines, nets and lines as shown; the multiplied bets' entries; each bet offered again
    in another mode on the same table (its entry, its first entry's); and what the plan
    holds its key's ids by."""

    groups: tuple[tuple[int, np.ndarray, tuple[tuple[int, int, int, FixedNets, tuple], ...]], ...]
    multiplied: tuple[int, ...]
    likes: tuple[tuple[int, int], ...]
    held: tuple

    @staticmethod
    def of(offered: list[tuple[OutcomeTable, Bet, str]]) -> _TablesPlan | None:
        """The plan of ``offered``, or None where a table's bets do not fit one matrix."""
        firsts: dict[int, int] = {}  # per table (by its id): its first entry
        waiting: dict[int, list[int]] = {}
        seen: dict[tuple[int, int], int] = {}
        multiplied, likes = [], []
        for entry, (table, bet, _) in enumerate(offered):
            first = firsts.setdefault(id(table), entry)
            if bet.multiplied:
                multiplied.append(entry)
                continue
            same = seen.setdefault((first, id(bet)), entry)
            if same != entry:
                likes.append((entry, same))
                continue
            check_fields(bet, table.columns.keys())
            waiting.setdefault(first, []).append(entry)
        groups = []
        for first, entries in waiting.items():
            table = offered[first][0]
            bets = [offered[entry][1] for entry in entries]
            matrix = _together_matrix(table, bets, SharedMasks(table.columns, table.ways))
            if matrix is None:
                return None
            rows, start = [], 0
            for entry, bet in zip(entries, bets, strict=True):
                nets, shown = _fixed_nets(bet)
                rows.append((entry, start, len(bet.rules) + 1, nets, shown))
                start += 2 * len(bet.rules) + 1
            groups.append((first, matrix, tuple(rows)))
        held = tuple((bet, *table.columns.values()) for table, bet, _ in offered)
        return _TablesPlan(tuple(groups), tuple(multiplied), tuple(likes), held)

    def settle(self, offered: list[tuple[OutcomeTable, Bet, str]]) -> list[BetResult]:
        """The results of ``offered`` (of this plan's key), as :func:`_evaluate_each`."""
        results: list[Any] = [None] * len(offered)
        for first, matrix, rows in self.groups:
            table = offered[first][0]
            values = (matrix @ table.ways).tolist()
            over, scale = table.denominator, table.scale
            for entry, start, lines, nets, shown in rows:
                _, bet, mode = offered[entry]
                ways = values[start : start + lines]
                matched = values[start + lines : start + 2 * lines - 1]
                matched.append(ways[-1])
                results[entry] = nets.settled(bet, mode, shown, ways, matched, over, scale)
        shared: dict[int, SharedMasks] = {}
        for entry in self.multiplied:
            table, bet, mode = offered[entry]
            masks = shared.get(id(table))
            if masks is None:
                masks = shared[id(table)] = SharedMasks(table.columns, table.ways)
            fast = _multiplied_on(table, bet, mode, masks)
            results[entry] = _evaluated(table, bet, mode, masks) if fast is None else fast
        for entry, same in self.likes:
            like = results[same]
            results[entry] = like._nets.settled(
                like.bet,
                offered[entry][2],
                like._shown,
                like._ways,
                like._matched,
                like._over,
                like._scale,
                like,
            )
        return results


#: Plans of bets settled on tables (:class:`_TablesPlan`), by their bets' ids, modes
#: and tables' columns (names and arrays' ids).
_plans: Kept[_TablesPlan] = Kept(64)


def _evaluate_each(offered: list[tuple[OutcomeTable, Bet, str]]) -> list[BetResult]:
    """:func:`evaluate_on_tables` without a plan: each table's masks and matrices looked
    up as each bet comes."""
    shared: dict[int, tuple[OutcomeTable, SharedMasks]] = {}
    # (a fixed-net bet's entry is its (table, bet, mode) until settled: last, every bet on
    # a table together)
    results: list[Any] = []
    # A bet offered in several modes on the same table settles alike in each: settled
    # once, its lines and sums shared (index of its first result).
    seen: dict[tuple[int, int], int] = {}
    likes: list[tuple[int, int, str]] = []  # (entry, the first result's, mode)
    waiting: dict[int, list[int]] = {}  # per table, by its id: its fixed-net bets' entries
    for table, bet, mode in offered:
        if type(table) is not OutcomeTable:  # (checked once a table: each bet's is)
            argument(table, OutcomeTable, "table", " (see outcome_table)")
        if type(bet) is not Bet:
            argument(bet, Bet, "bet", " (e.g. paytable.bet('banker', 'commission'))")
        if type(mode) is not str:
            argument(mode, str, "mode", " (a mode name)")
        if id(table) not in shared:  # (the table is held too: its id stays its own)
            shared[id(table)] = (table, SharedMasks(table.columns, table.ways))
        masks = shared[id(table)][1]
        if bet.multiplied:
            fast = _multiplied_on(table, bet, mode, masks)
            results.append(_evaluated(table, bet, mode, masks) if fast is None else fast)
            continue
        same = seen.setdefault((id(table), id(bet)), len(results))
        if same < len(results):
            likes.append((len(results), same, mode))
            results.append(None)
            continue
        check_fields(bet, table.columns.keys())
        waiting.setdefault(id(table), []).append(len(results))
        results.append((table, bet, mode))
    # (as bet_result makes a fixed-net bet's result: its lines and sums made when first
    # read, :meth:`FixedNets.settled`)
    for key, entries in waiting.items():
        table, masks = shared[key]
        bets = [results[entry][1] for entry in entries]
        for entry, (settled, matched) in zip(
            entries, _settled_together(table, bets, masks), strict=True
        ):
            _, bet, mode = results[entry]
            nets, shown = _fixed_nets(bet)
            matched.append(settled[-1])
            results[entry] = nets.settled(
                bet, mode, shown, settled, matched, table.denominator, table.scale
            )
    for entry, same, mode in likes:
        like = results[same]
        results[entry] = like._nets.settled(
            like.bet,
            mode,
            like._shown,
            like._ways,
            like._matched,
            like._over,
            like._scale,
            like,
        )
    return results


#: Per table columns shared by the tables of every walk of the same rows (read-only
#: arrays: :func:`~analyzer.engine.deal_walk.dealt_tables`), by their arrays' ids (the
#: arrays kept beside): per bet, by its id, the bet and its 0/1 matrices of the rows
#: each line settles and each rule's condition holds for; per bets settled together,
#: by their ids, the bets and the matrix of them all (:func:`_settled_together`).
_settling: Kept[tuple[tuple, dict]] = Kept(64)
#: The most cells of a bet's matrix kept (a table of millions of rows settles as it is).
_MOST_SETTLING_CELLS = 1 << 18


def _settled_together(
    table: OutcomeTable, bets: list[Bet], masks: SharedMasks
) -> list[tuple[list[int], list[int]]]:
    """:func:`_settled_on` of each of ``bets`` on ``table``: on columns shared by every
    walk of the same rows, one integer matrix product for them all, of the matrices of
    each stacked (each bet's lines, then its rules' conditions), made once."""
    columns, ways = table.columns, table.ways
    arrays = tuple(columns.values())
    if len(bets) < 2 or ways.dtype != np.int64 or not arrays:
        return [_settled_on(table, bet, masks) for bet in bets]
    if any(a.flags.writeable for a in arrays):
        return [_settled_on(table, bet, masks) for bet in bets]
    key = (*columns, *map(id, arrays))
    kept = _settling.get(key)
    if kept is None or any(a is not b for a, b in zip(kept[0], arrays, strict=True)):
        kept = _settling.put(key, (arrays, {}))
    together = (*map(id, bets),)
    made = kept[1].get(together)
    if made is None or any(a is not b for a, b in zip(made[0], bets, strict=True)):
        matrix = _together_matrix(table, bets, masks)
        if matrix is None:
            return [_settled_on(table, bet, masks) for bet in bets]
        made = kept[1][together] = (tuple(bets), matrix)
    values = (made[1] @ ways).tolist()
    out = []
    start = 0
    for bet in bets:
        lines = len(bet.rules) + 1
        out.append((values[start : start + lines], values[start + lines : start + 2 * lines - 1]))
        start += 2 * lines - 1
    return out


def _together_matrix(table: OutcomeTable, bets: list[Bet], masks: SharedMasks) -> np.ndarray | None:
    """The 0/1 matrix of ``bets`` on ``table`` stacked (each bet's lines, then its rules'
    conditions), read-only; None where it has over :data:`_MOST_SETTLING_CELLS` cells."""
    n_rows = len(table.ways)
    if n_rows * sum(2 * len(bet.rules) + 1 for bet in bets) > _MOST_SETTLING_CELLS:
        return None
    stacked = []
    for bet in bets:
        holds = [masks(rule.condition) for rule in bet.rules]
        index = first_holding(holds, n_rows)
        stacked.append(np.arange(len(bet.rules) + 1)[:, None] == index[None, :])
        stacked.append(np.array(holds, dtype=bool).reshape(len(holds), n_rows))
    matrix = np.concatenate(stacked).astype(np.int64)
    matrix.flags.writeable = False
    return matrix


def _settled_on(table: OutcomeTable, bet: Bet, masks: SharedMasks) -> tuple[list[int], list[int]]:
    """:func:`~analyzer.paytables.settle.settled_ways` of ``bet`` on ``table``: on
    columns shared by every walk of the same rows, two integer matrix products of
    matrices made once (the same exact integers: int64, no sum passes the denominator)."""
    columns, ways = table.columns, table.ways
    arrays = tuple(columns.values())
    small = len(ways) * (len(bet.rules) + 1) <= _MOST_SETTLING_CELLS
    if not small or ways.dtype != np.int64 or not arrays or any(a.flags.writeable for a in arrays):
        return settled_ways(bet, columns, ways, masks)
    key = (*columns, *map(id, arrays))
    kept = _settling.get(key)
    if kept is None or any(a is not b for a, b in zip(kept[0], arrays, strict=True)):
        kept = _settling.put(key, (arrays, {}))
    by_bet = kept[1]
    matrices = by_bet.get(id(bet))
    if matrices is None or matrices[0] is not bet:
        holds = [masks(rule.condition) for rule in bet.rules]
        index = first_holding(holds, len(ways))
        lines = np.arange(len(bet.rules) + 1)[:, None] == index[None, :]
        matrices = by_bet[id(bet)] = (
            bet,
            lines.astype(np.int64),
            np.array(holds, dtype=np.int64).reshape(len(holds), len(ways)),
        )
    return (matrices[1] @ ways).tolist(), (matrices[2] @ ways).tolist()


#: Each bet's :class:`FixedNets` and lines' conditions as shown, by the bet's id (the bet
#: kept beside them: an id is its own only while the bet lives).
_nets_of: Kept[tuple[Bet, FixedNets, tuple[str, ...]]] = Kept(4096)


def _fixed_nets(bet: Bet) -> tuple[FixedNets, tuple[str, ...]]:
    """``FixedNets.of(bet)`` and its lines' conditions as shown, made once a bet."""
    kept = _nets_of.get(id(bet))
    if kept is None or kept[0] is not bet:
        shown = (*[rule.condition.shown for rule in bet.rules], OTHERWISE)
        kept = _nets_of.put(id(bet), (bet, FixedNets.of(bet), shown))
    return kept[1], kept[2]


def _evaluated(table: OutcomeTable, bet: Bet, mode: str, masks: SharedMasks | None) -> BetResult:
    check_fields(bet, table.columns.keys())
    if bet.multiplied:
        rows = _multiplied_lines(table, bet, masks)
    else:
        settled, matched = settled_ways(bet, table.columns, table.ways, masks)
        rows = [
            (rule.condition.shown, count, rule.payout, holds, None, ())
            for rule, count, holds in zip(bet.rules, settled[:-1], matched, strict=True)
        ]
        rows.append((OTHERWISE, settled[-1], LOSE, settled[-1], None, ()))
    return bet_result(bet, mode, rows, table.denominator, table.scale)


def over_fewer(result: BetResult, divisor: int) -> BetResult:
    """``result`` counted over ``divisor`` times fewer sequences: every line's ways (and
    an integer sum) divided exactly, every figure the same. On a shoe dealt with
    replacement a bet is stated in its own lowest terms (:meth:`~analyzer.game.shoe.Shoe.
    in_lowest_terms`), whatever table it was settled on: its combinations, and a claim's
    count of them, are then those of the bet alone, not of the bets analysed beside it."""
    if divisor == 1:
        return result
    lines = tuple(
        line._replace(
            ways=line.ways // divisor,
            matched=line.matched // divisor,
            over=line.over // divisor,
            patterns=tuple((pattern, ways // divisor) for pattern, ways in line.patterns),
        )
        for line in result.lines
    )
    sums = result.sums
    if type(sums.net) is int:
        sums = Sums(
            sums.net // divisor,
            sums.net_squared // divisor,
            sums.wins // divisor,
            sums.pushes // divisor,
            sums.over // divisor,
            sums.common,
        )
    return BetResult(result.bet, result.mode, lines, sums)


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
    patterns)`` and, for a bet played at several stakes, ``stakes`` (``moments``: the mean
    net and mean squared net per unit staked of a multiplied line, or per base stake of a
    line played at several stakes; None for the payout's own), over ``denominator``
    sequences."""
    if all(row[4] is None for row in rows):
        nets = FixedNets.of(bet)
        ways = [row[1] for row in rows]
        return nets.result(bet, mode, rows, nets.sums(ways, denominator), denominator, scale)
    lines = []
    expected = second_moment = hit_frequency = push_probability = Fraction(0)
    for when, count, payout, holds, moments, patterns, *more in rows:
        probability = Fraction(count, denominator)
        first, second = (payout.net, payout.net**2) if moments is None else moments
        expected += probability * first
        second_moment += probability * second
        if payout.kind == "win":
            hit_frequency += probability
        elif payout.kind == "push":
            push_probability += probability
        mean = None if moments is None else first
        stakes = more[0] if more else ()
        lines.append(Line(when, count, payout, holds, denominator, scale, mean, patterns, stakes))
    sums = Sums(expected, second_moment, hit_frequency, push_probability)
    return BetResult(bet, mode, tuple(lines), sums)


@record
class FixedNets:
    """The nets of a bet paid a fixed amount per rule, per line (each rule, then "no
    rule"), as integers over one common denominator: its sums are then integer sums of
    the lines' ways, and each figure a gcd when read."""

    payouts: tuple[Payout, ...]
    common: int
    scaled: tuple[int, ...]  # each line's net times ``common``
    wins: tuple[bool, ...]
    pushes: tuple[bool, ...]
    squared: tuple[int, ...]  # each of ``scaled`` squared
    #: Does the bet charge a fee (its figures then per unit paid)? (A bool read per
    #: figure: the fee itself is a Fraction, whose truth is a method call.)
    fee: bool = False

    @staticmethod
    def of(bet: Bet) -> FixedNets:
        payouts = (*[rule.payout for rule in bet.rules], LOSE)
        nets = [payout.net for payout in payouts]
        common = math.lcm(*[net.denominator for net in nets])
        kinds = [payout.kind for payout in payouts]
        # (lists, not generators: an analysis makes one for each bet)
        scaled = [net.numerator * (common // net.denominator) for net in nets]
        return FixedNets(
            payouts,
            common,
            tuple(scaled),
            tuple([kind == "win" for kind in kinds]),
            tuple([kind == "push" for kind in kinds]),
            tuple([net * net for net in scaled]),
            bool(bet.fee),
        )

    def sums(self, ways: Sequence[int], over: int) -> Sums:
        """The sums of lines settling ``ways`` (per line, Python integers) out of ``over``
        sequences, each worked out when first read."""
        if len(ways) != len(self.scaled):
            raise ValueError(f"{len(ways)} lines' ways for {len(self.scaled)} lines")
        return _LineSums(self, ways, over)

    def result(
        self, bet: Bet, mode: str, rows: Sequence[tuple], sums: Sums, over: int, scale: int
    ) -> BetResult:
        """The result of lines ``rows`` (per line ``(when, ways, payout, matched, ...)``)."""
        # (tuple.__new__ is what Line(...) calls, without the keyword handling: an
        # analysis makes a line per rule of every bet, and few are read.)
        lines = tuple(
            _new_tuple(Line, (row[0], row[1], row[2], row[3], over, scale, None, (), ()))
            for row in rows
        )
        return BetResult(bet, mode, lines, sums)

    def settled(
        self,
        bet: Bet,
        mode: str,
        shown: Sequence[str],
        ways: list[int],
        matched: list[int],
        over: int,
        scale: int,
        like: BetResult | None = None,
    ) -> BetResult:
        """The result of lines each settling ``ways`` (Python integers) and matching
        ``matched`` out of ``over``, shown as ``shown``: the same as :meth:`result`, its
        lines and sums made when first read (an analysis reads few of them); ``like``, a
        result of the same bet in another mode, whose lines and sums it shares."""
        if not len(ways) == len(matched) == len(shown) == len(self.scaled):
            raise ValueError(f"{len(ways)} lines' ways for {len(self.scaled)} lines")
        result = _new_object(_Settled)
        _set_attribute(
            result,
            "__dict__",
            {
                "bet": bet,
                "mode": mode,
                "_nets": self,
                "_shown": shown,
                "_ways": ways,
                "_matched": matched,
                "_over": over,
                "_scale": scale,
                "_like": like,
            },
        )
        return result


class _Settled(BetResult):
    """A :class:`BetResult` of fixed nets whose lines and sums are made when first read
    (from each line's ways and matched ways): equal to, and pickled as, the plain result
    of the same lines."""

    @once
    def lines(self) -> tuple[Line, ...]:  # type: ignore[override]
        if self._like is not None:
            return self._like.lines
        over, scale = self._over, self._scale
        return tuple(
            [
                _new_tuple(Line, (when, count, payout, held, over, scale, None, (), ()))
                for when, count, payout, held in zip(
                    self._shown, self._ways, self._nets.payouts, self._matched, strict=True
                )
            ]
        )

    @once
    def expected_value(self) -> Fraction:
        # (as BetResult's, without the sums: the figure read most, by far)
        like = self._like
        if like is not None:  # (the same bet: the same figure)
            return like.expected_value
        nets = self._nets
        mean = _exact(sum(map(mul, self._ways, nets.scaled)), self._over * nets.common)
        return Settlement(self.bet).per_paid(mean) if nets.fee else mean

    @once
    def sums(self) -> Sums:  # type: ignore[override]
        if self._like is not None:
            return self._like.sums
        return _LineSums(self._nets, self._ways, self._over)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BetResult):
            return NotImplemented
        return (self.bet, self.mode, self.lines, self.sums) == (
            other.bet,
            other.mode,
            other.lines,
            other.sums,
        )

    def __hash__(self) -> int:
        return hash((self.bet, self.mode, self.lines, self.sums))

    def __repr__(self) -> str:
        return repr(BetResult(self.bet, self.mode, self.lines, self.sums))

    def __reduce__(self) -> tuple:
        return (BetResult, (self.bet, self.mode, self.lines, self.sums))


class _LineSums(Sums):
    """The :class:`Sums` of fixed nets (:class:`FixedNets`) over each line's ways, each
    sum worked out when first read (a figure reads one or two of them: an analysis of
    36 bets reading their expected values once summed all four of each). Equal to, and
    pickled as, the plain :class:`Sums` of the same values."""

    def __init__(self, nets: FixedNets, ways: Sequence[int], over: int) -> None:
        # (the frozen dataclass' fields: ``over`` and ``common`` kept, the sums made
        # when read)
        state = {"_nets": nets, "_ways": ways, "over": over, "common": nets.common}
        object.__setattr__(self, "__dict__", state)

    # (Python integers: a count times a net squared can pass int64)
    @once
    def net(self) -> int:
        return sum(map(mul, self._ways, self._nets.scaled))

    @once
    def net_squared(self) -> int:
        return sum(map(mul, self._ways, self._nets.squared))

    @once
    def wins(self) -> int:
        return sum(compress(self._ways, self._nets.wins))

    @once
    def pushes(self) -> int:
        return sum(compress(self._ways, self._nets.pushes))

    def _values(self) -> tuple:
        return (self.net, self.net_squared, self.wins, self.pushes, self.over, self.common)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sums):
            return NotImplemented
        theirs = other._values() if isinstance(other, _LineSums) else _sums_values(other)
        return self._values() == theirs

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return repr(Sums(*self._values()))

    def __reduce__(self) -> tuple:
        return (Sums, self._values())


def _sums_values(sums: Sums) -> tuple:
    """The six values of ``sums`` (a plain :class:`Sums`), in field order."""
    return (sums.net, sums.net_squared, sums.wins, sums.pushes, sums.over, sums.common)


def _exact(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` for Python integers, ``denominator`` positive:
    the same value, made without the constructor's checks of its arguments' types (a
    third of an analysis' cost of reading its figures)."""
    divisor = math.gcd(numerator, denominator)
    value = _new_object(Fraction)
    value._numerator = numerator // divisor
    value._denominator = denominator // divisor
    return value


def _ratio(total: object, count: int) -> object:
    if type(total) is int and type(count) is int and count > 0:
        return _exact(total, count)
    if type(total) is int:
        return Fraction(total, count)
    return total / count if isinstance(total, Poly) else Fraction(total, count)


def _multiplied_lines(table: OutcomeTable, bet: Bet, masks: SharedMasks | None) -> list[tuple]:
    """Each rule's line of a multiplied bet: its ways, and the mean net and mean squared
    net per unit staked of the rounds it settles, from their counted identity patterns
    (each condition's mask from ``masks`` where given)."""
    columns, ways = table.columns, table.ways
    matched: list[int] = []
    index = first_holding(
        (
            rule.condition.mask(columns, len(ways)) if masks is None else masks(rule.condition)
            for rule in bet.rules
        ),
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


class _MultipliedNets(NamedTuple):
    """A multiplied bet's nets per (settling rule, counted pattern) cell, as integers over
    one common denominator (:meth:`~analyzer.paytables.settle.Settlement.net_numerators`),
    and what its figures and lines need of the bet besides, made once a bet."""

    common: int
    first: list[list[int]]  # E[net] per unit staked, times ``common``, [rule][pattern]
    second: list[list[int]]  # E[net**2], likewise
    #: The fee per unit staked, as its numerator and denominator (0 and 1 without one).
    fee: tuple[int, int]
    wins: tuple[bool, ...]  # per rule (then "no rule"): does it pay a win, a push
    pushes: tuple[bool, ...]
    shown: tuple[str, ...]  # per line: the condition as shown, or OTHERWISE
    payouts: tuple[Payout, ...]


class _MultipliedRows(NamedTuple):
    """A multiplied bet on the rows of one table: its (settling rule, counted pattern)
    cells that occur, in ascending order, and a 0/1 matrix whose product with the rows'
    ways gives each cell's ways and then each rule's matched ways."""

    nets: _MultipliedNets
    rules: tuple[int, ...]  # per cell: its settling rule, and its pattern
    patterns: tuple[int, ...]
    first: tuple[int, ...]  # per cell: its nets' numerators (``nets.first`` and ``second``)
    second: tuple[int, ...]
    wins: tuple[int, ...]  # the cells that pay a win, and those that push
    pushes: tuple[int, ...]
    matrix: np.ndarray


#: Each multiplied bet's :class:`_MultipliedNets` by the bet's id (the bet kept beside);
#: None where its moments are polynomials in the paytable's unknowns.
_multiplied_nets: Kept[tuple[Bet, _MultipliedNets | None]] = Kept(4096)
#: As :data:`_settling`, for multiplied bets: per bet, by its id, the bet and its
#: :class:`_MultipliedRows` on those rows (None: settled by :func:`_multiplied_lines`).
_multiplying: Kept[tuple[tuple, dict]] = Kept(64)


def _nets_multiplied(bet: Bet) -> _MultipliedNets | None:
    """The :class:`_MultipliedNets` of ``bet``, made once a bet."""
    kept = _multiplied_nets.get(id(bet))
    if kept is None or kept[0] is not bet:
        settlement = Settlement(bet)
        numerators = settlement.net_numerators()
        nets = None
        if numerators is not None:
            payouts = (*[rule.payout for rule in bet.rules], LOSE)
            nets = _MultipliedNets(
                *numerators,
                (bet.fee.numerator, bet.fee.denominator),
                tuple([payout.kind == "win" for payout in payouts]),
                tuple([payout.kind == "push" for payout in payouts]),
                (*[rule.condition.shown for rule in bet.rules], OTHERWISE),
                payouts,
            )
        kept = _multiplied_nets.put(id(bet), (bet, nets))
    return kept[1]


def _multiplied_rows(
    table: OutcomeTable, bet: Bet, masks: SharedMasks, nets: _MultipliedNets
) -> _MultipliedRows | None:
    """The :class:`_MultipliedRows` of ``bet`` on ``table``'s rows, made once for the
    columns shared by every walk of the same rows; None where the bet is settled as
    :func:`_multiplied_lines` settles it (a table whose columns are not shared, or of
    many rows; a rule paying by the multiplier on a tie, refused there)."""
    columns, ways = table.columns, table.ways
    arrays = tuple(columns.values())
    if (
        table.by_pattern is not None
        or ways.dtype != np.int64
        or not arrays
        or any(a.flags.writeable for a in arrays)
    ):
        return None
    key = (*columns, *map(id, arrays))
    kept = _multiplying.get(key)
    if kept is None or any(a is not b for a, b in zip(kept[0], arrays, strict=True)):
        kept = _multiplying.put(key, (arrays, {}))
    by_bet = kept[1]
    made = by_bet.get(id(bet))
    if made is not None and made[0] is bet:
        return made[1]
    by_bet[id(bet)] = (bet, _cells_of(table, bet, masks, nets))
    return by_bet[id(bet)][1]


def _cells_of(
    table: OutcomeTable, bet: Bet, masks: SharedMasks, nets: _MultipliedNets
) -> _MultipliedRows | None:
    """The :class:`_MultipliedRows` of ``bet`` on ``table``'s rows (None: as
    :func:`_multiplied_rows` says)."""
    columns, n_rows, n_rules = table.columns, len(table.ways), len(bet.rules)
    holds = [masks(rule.condition) for rule in bet.rules]
    index = first_holding(holds, n_rows)
    try:
        patterns = row_patterns(bet, columns)
        check_ties_counted(bet, index, columns["winner"])
    except AnalyzerError:  # (refused, or not, by the rows' ways: as _multiplied_lines does)
        return None
    present, inverse = np.unique(index * N_PATTERNS + patterns, return_inverse=True)
    cells = present.tolist()
    if n_rows * (len(cells) + n_rules) > _MOST_SETTLING_CELLS:
        return None
    matrix = np.zeros((len(cells) + n_rules, n_rows), dtype=np.int64)
    matrix[inverse.reshape(-1), np.arange(n_rows)] = 1
    if holds:
        matrix[len(cells) :] = np.array(holds, dtype=np.int64).reshape(n_rules, n_rows)
    matrix.flags.writeable = False
    rules = [c // N_PATTERNS for c in cells]
    kinds = [c % N_PATTERNS for c in cells]
    return _MultipliedRows(
        nets,
        tuple(rules),
        tuple(kinds),
        tuple([nets.first[r][p] for r, p in zip(rules, kinds, strict=True)]),
        tuple([nets.second[r][p] for r, p in zip(rules, kinds, strict=True)]),
        tuple([k for k, r in enumerate(rules) if nets.wins[r]]),
        tuple([k for k, r in enumerate(rules) if nets.pushes[r]]),
        matrix,
    )


def _multiplied_on(
    table: OutcomeTable, bet: Bet, mode: str, masks: SharedMasks
) -> BetResult | None:
    """The result of multiplied ``bet`` on ``table`` as :func:`_evaluated` gives it (equal
    to it): each (settling rule, counted pattern) cell's ways in one integer matrix
    product, its lines and figures made when first read, each figure a gcd of integer
    sums over one common denominator. None where the bet is settled as that function
    settles it (moments in unknowns, a table whose columns are not shared)."""
    nets = _nets_multiplied(bet)
    if nets is None:
        return None
    check_fields(bet, table.columns.keys())
    rows = _multiplied_rows(table, bet, masks, nets)
    if rows is None:
        return None
    values = (rows.matrix @ table.ways).tolist()
    result = _new_object(_Multiplied)
    _set_attribute(
        result,
        "__dict__",
        {
            "bet": bet,
            "mode": mode,
            "_rows": rows,
            "_ways": values,
            "_over": table.denominator,
            "_scale": table.scale,
        },
    )
    return result


class _Multiplied(_Settled):
    """A :class:`BetResult` of a multiplied bet whose lines and figures are made when
    first read, from the ways of each (settling rule, counted pattern) cell: equal to,
    and pickled as, the plain result of the same lines (:func:`_multiplied_lines`)."""

    @once
    def _totals(self) -> tuple[int, int]:
        """The sums of the cells' ways times their nets' numerators, and their squares'."""
        rows, ways = self._rows, self._ways
        return sum(map(mul, ways, rows.first)), sum(map(mul, ways, rows.second))

    @once
    def expected_value(self) -> Fraction:  # type: ignore[override]
        # (E[net] - fee) / (1 + fee), fee = f / g: (net * g - f * over) / (over * (f + g))
        net, _ = self._totals
        f, g = self._rows.nets.fee
        over = self._over * self._rows.nets.common
        return _exact(net * g - f * over, over * (f + g))

    @once
    def variance(self) -> Fraction:  # type: ignore[override]
        # (E[net**2] - E[net]**2) / (1 + fee)**2, over one denominator
        net, squared = self._totals
        f, g = self._rows.nets.fee
        over = self._over * self._rows.nets.common
        return _exact((squared * over - net * net) * g * g, (over * (f + g)) ** 2)

    @once
    def hit_frequency(self) -> Fraction:  # type: ignore[override]
        ways = self._ways
        return _exact(sum([ways[k] for k in self._rows.wins]), self._over)

    @once
    def push_probability(self) -> Fraction:  # type: ignore[override]
        ways = self._ways
        return _exact(sum([ways[k] for k in self._rows.pushes]), self._over)

    @once
    def sums(self) -> Sums:  # type: ignore[override]
        net, squared = self._totals
        over = self._over * self._rows.nets.common
        return Sums(
            _exact(net, over), _exact(squared, over), self.hit_frequency, self.push_probability
        )

    @once
    def lines(self) -> tuple[Line, ...]:  # type: ignore[override]
        rows, ways, over, scale = self._rows, self._ways, self._over, self._scale
        nets = rows.nets
        n_lines = len(nets.shown)
        matched = ways[len(rows.rules) :]
        cells: list[list[tuple[int, int]]] = [[] for _ in range(n_lines)]
        first = [0] * n_lines
        for k, rule in enumerate(rows.rules):
            w = ways[k]
            if w:
                cells[rule].append((rows.patterns[k], w))
                first[rule] += w * rows.first[k]
        lines = []
        for rule in range(n_lines):
            count = sum([w for _, w in cells[rule]])
            holds = matched[rule] if rule < len(matched) else count
            mean = _exact(first[rule], count * nets.common) if count else None
            line = (nets.shown[rule], count, nets.payouts[rule], holds, over, scale, mean)
            lines.append(_new_tuple(Line, (*line, tuple(cells[rule]), ())))
        return tuple(lines)


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
        if line.stakes:  # (a decision's stakes: each its multiple of the payout)
            for stake, ways in line.stakes:
                add(stake * line.payout.net, line.probability * Fraction(ways, line.ways))
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
