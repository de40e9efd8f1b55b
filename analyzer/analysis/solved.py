"""Each round's EVs on the cards left under the best play solved on those cards: what
``count`` and ``dealt`` price a round of a game with a player's decision by (Lucky Draw
Baccarat; Peek Baccarat and any punto banco paytable with a ``[decision]``), or of a game
whose hands draw after the first deal.

The batch engines price a round of a game played as dealt by a formula over its
composition. A decision's best play depends on the cards left, so a round's EV under it
is the exact analysis of that composition (:func:`~analyzer.analysis.exact.analyze`, its
decision solved by :mod:`analyzer.analysis.decisions` on those cards, or played as
``--decisions`` gives it): exact per composition, rounded once to a float, then used as
the batch figures are. It costs a solve per round, some 20 to 40 ms of one core on a
partly dealt shoe of eight decks (:data:`MS_PER_SOLVE`), so a run is weighed before any
shoe is dealt (:func:`check_solved_work`) and refused beyond :data:`MAX_SOLVED_ROUNDS`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.game.cards import N_CARDS, N_RANKS, N_SUITS
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Paytable, restricted

__all__ = [
    "MAX_SOLVED_ROUNDS",
    "MS_PER_SOLVE",
    "SolvedRound",
    "check_solved_work",
    "solve_round",
    "solved_per_round",
    "solved_values",
]

#: A solve's cost as measured (Lucky Draw Baccarat's Enter bet and Peek Baccarat's Player
#: and Banker bets, on partly dealt eight-deck shoes, one core of the development machine:
#: 25 to 37 ms after the first, which compiles), rounded up.
MS_PER_SOLVE = 40
#: The most rounds a run solves: some 13 minutes of one core at :data:`MS_PER_SOLVE`.
MAX_SOLVED_ROUNDS = 20_000


def solved_per_round(paytable: Paytable) -> bool:
    """Is each round of ``paytable`` priced by a solve (this module's description): a game
    whose hands draw or decide, or a punto banco ``[decision]``?"""
    if paytable.game is not None:
        return bool(paytable.game.by_values)
    return paytable.punto_banco_decision is not None


def check_solved_work(rounds: int, what: str, shrink: str) -> None:
    """Refuse, in one line and before any shoe is dealt, a run that solves more than
    :data:`MAX_SOLVED_ROUNDS` rounds (``rounds``: at most so many), saying the estimate
    and how to shrink it (``shrink``)."""
    if rounds > MAX_SOLVED_ROUNDS:
        minutes = rounds * MS_PER_SOLVE / 60_000
        raise AnalyzerError(
            f"{what} solves each round's best play on its cards (about {MS_PER_SOLVE} ms a "
            f"round): up to {rounds:,} rounds, some {minutes:,.0f} minutes of one core (at "
            f"most {MAX_SOLVED_ROUNDS:,} rounds): {shrink}"
        )


class SolvedRound:
    """One composition solved: ``ev``, each column's exact EV per unit paid (a float),
    and ``played``, the action played in each information set of the decision by its
    code (:meth:`~analyzer.analysis.decisions.StrategyTable.played_actions`; None
    without a decision of a game)."""

    __slots__ = ("ev", "played")

    def __init__(self, ev: np.ndarray, played: np.ndarray | None) -> None:
        self.ev, self.played = ev, played


def _shoe(counts: np.ndarray, suits: bool) -> Shoe:
    if len(counts) == N_RANKS:
        return Shoe(np.asarray(counts, dtype=np.int64))
    by_card = np.asarray(counts, dtype=np.int64).reshape(N_RANKS, N_SUITS)
    return Shoe(by_card.sum(axis=1), by_card if suits else None)


def _needs_suits(paytable: Paytable) -> bool:
    from analyzer.engine.pricing import pricing

    if paytable.game is not None:
        return any(paytable.game.needs_suits(bet.fields) for bet in paytable.bets)
    return any(pricing(bet).unavailable(False) is not None for bet in paytable.bets)


def _solved_table(paytable: Paytable, columns: tuple) -> tuple[Paytable, tuple]:
    """The paytable of ``columns`` and of the bets the decision raises (the play every
    other bet rides on), and the column whose strategy deals a game's rounds."""
    decided = paytable.decided
    mode = columns[0][1]
    leaders = [(bet.id, m) for bet, m in paytable.offered((mode,)) if bet.id in decided]
    extra = [c for c in leaders if c not in columns]
    single = restricted(paytable, (*columns, *extra))
    leader = next((c for c in (*columns, *extra) if c[0] in decided), None)
    return single, leader


def solve_round(paytable: Paytable, columns: tuple, counts: np.ndarray) -> SolvedRound:
    """The EVs of ``columns`` on the composition ``counts`` (52 per card index) under
    the best play solved on it, and the play that deals the round.

    Parameters
    ----------
    paytable : Paytable
        Its unknowns given values.
    columns : tuple of (bet, mode)
        The columns priced.
    counts : int64 array, shape (52,) or (13,)
        The cards left, per card index (read by rank unless a bet needs suits) or per
        rank.

    Returns
    -------
    SolvedRound

    Examples
    --------
    >>> from analyzer.paytables.library import as_paytable
    >>> table = as_paytable("lucky-draw-baccarat-1")
    >>> solved = solve_round(table, (("enter", "standard"),), np.full(52, 8))
    >>> round(float(solved.ev[0]), 6), int(solved.played[0])  # the Enter bet off the top
    (-0.017931, 1)
    """
    from analyzer.analysis.exact import analyze

    single, leader = _solved_table(paytable, tuple(columns))
    analysis = analyze(paytable=single, shoe=_shoe(counts, _needs_suits(single)))
    ev = {(r.bet.id, r.mode): r.expected_value for r in analysis.results}
    values = np.array([float(Fraction(ev[c])) for c in columns])
    played = None
    if paytable.game is not None and paytable.game.decision is not None and leader is not None:
        table = analysis.choices.get(leader)
        if table is not None:
            played = table.played_actions(0)
    return SolvedRound(values, played)


def solved_values(paytable: Paytable, columns: tuple, compositions: np.ndarray) -> np.ndarray:
    """:func:`solve_round`'s EVs of each composition (a row of 52 per card index, or 13
    per rank), as the batch engines give them: (n, columns) float64."""
    counts = np.asarray(compositions, dtype=np.int64)
    if counts.ndim != 2 or counts.shape[1] not in (N_CARDS, N_RANKS):
        raise AnalyzerError(f"compositions are (n, {N_CARDS}) card counts, got {counts.shape}")
    out = np.empty((len(counts), len(columns)))
    for i, row in enumerate(counts):
        out[i] = solve_round(paytable, tuple(columns), row).ev
    return out
