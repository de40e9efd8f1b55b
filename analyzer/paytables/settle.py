"""Settling a bet: the first rule whose condition holds settles the round.

This is the one place that rule is written. Every consumer (exact breakdowns, the compiled
walk, the batch engine, dealt shoes, ``play``) settles through these functions, over
columns of fields (:mod:`analyzer.game.fields`), one row per outcome or round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.game.identities import PATTERN_INDEX, counted_cards
from analyzer.paytables.model import LOSE, Bet
from analyzer.paytables.multipliers import Specials, round_multiplier

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
    """Net per unit of each rule, then of "no rule" (a loss): index with settling_rule.

    Only for a bet of fixed payouts: a multiplied bet nets by its round's multiplier
    (:func:`net_moments`), and a fee changes what a unit paid returns; engines that
    settle fixed nets refuse the others here, in one line."""
    if not bet.fixed_payouts:
        what = "pays random multipliers" if bet.multiplied else "charges a fee"
        raise AnalyzerError(
            f"bet {bet.id!r} {what}: this engine settles fixed payouts only so far (the "
            "exact analysis of report, verify and docs, play and simulate price it)"
        )
    return [rule.payout.net for rule in bet.rules] + [LOSE.net]


def identity_column(kind: str) -> str:
    """The outcome table's column of counted identity patterns for bets multiplied by
    ``kind`` (see :mod:`analyzer.engine.identities`)."""
    return f"identity_pattern_{kind}"


def row_patterns(bet: Bet, columns: Columns) -> np.ndarray:
    """Per row, the identity pattern index of the cards ``bet`` multiplies by: from the
    suited-pair fields for the first-two kinds, else the identity walk's column."""
    kind = bet.multiply
    if kind is None:
        raise AnalyzerError(f"bet {bet.id!r} is not multiplied")
    if kind.endswith("_first_two"):
        suited = f"{kind.removesuffix('_first_two')}_suited_pair"
        if suited not in columns:
            raise AnalyzerError(f"bet {bet.id!r}: the suits of some cards are unknown")
        return np.where(columns[suited], _ONE_CARD_TWICE, _TWO_CARDS)
    column = identity_column(kind)
    if column not in columns:
        raise AnalyzerError(f"bet {bet.id!r}: this table does not count {kind!r} identities")
    return columns[column]


def net_moments(bet: Bet, rule: int, pattern: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """``E[net]`` and ``E[net**2]`` per unit staked of a round settled by rule ``rule``
    (``len(bet.rules)``: none, a loss) whose counted cards show identity ``pattern``."""
    if rule == len(bet.rules):
        return LOSE.net, LOSE.net**2
    payout = bet.rules[rule].payout
    a, b = payout.net, payout.per_multiplier
    if not b:
        return a, a * a
    model = bet.multipliers
    first, second = model.moment(pattern, 1), model.moment(pattern, 2)
    return a + b * first, a * a + 2 * a * b * first + b * b * second


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


def round_net(bet: Bet, rule: int, multiplier: Fraction) -> Fraction:
    """Net per unit staked of one dealt round settled by rule ``rule`` (``len(bet.rules)``:
    a loss), the bet's cards having ``multiplier`` (capped already), before any fee."""
    if rule == len(bet.rules):
        return LOSE.net
    payout = bet.rules[rule].payout
    return payout.net + payout.per_multiplier * multiplier


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


def dealt_result(
    bet: Bet,
    columns: Columns,
    player: list[tuple[int, int]],
    banker: list[tuple[int, int]],
    specials: Specials,
) -> tuple[Fraction, Fraction | None]:
    """What one dealt round (a one-row table, its hands' cards as (rank, suit)) nets per
    unit staked, the fee paid, and the multiplier it paid by (None: not multiplied)."""
    index = settling_rule(bet, columns, 1)
    rule = int(index[0])
    multiplier = None
    if bet.multiplied and rule < len(bet.rules) and bet.rules[rule].payout.multiplied:
        check_ties_counted(bet, index, columns["winner"])
        winner = str(columns["winner"][0])
        counted = counted_cards(bet.multiply, player, banker, winner)
        multiplier = round_multiplier(bet.multipliers, counted, specials)
    return round_net(bet, rule, multiplier or Fraction(1)) - bet.fee, multiplier


def paid_nets(bet: Bet, index: np.ndarray, winner: np.ndarray, multiplier: np.ndarray | None):
    """Per dealt round (settled by rule ``index``, as :func:`settling_rule` gives it), the
    net per unit paid, the stake plus the fee, in floats (the simulator's);
    ``multiplier`` is each round's counted cards' multiplier (None: a bet not multiplied)."""
    constant = np.array([float(rule.payout.net) for rule in bet.rules] + [float(LOSE.net)])
    slope = np.array([float(rule.payout.per_multiplier) for rule in bet.rules] + [0.0])
    check_ties_counted(bet, index, winner)
    net = constant[index] + slope[index] * (1.0 if multiplier is None else multiplier)
    fee = float(bet.fee)
    return (net - fee) / (1 + fee)
