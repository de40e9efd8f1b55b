"""The best play of the decision cells for the main bets: ``--strategy best``.

A bettor on the Player decides the Player's cells and one on the Banker the Banker's
(Baccarat Gold lets the Player's bettor choose on 5). Each plays to maximise the exact EV
of their own bet, the other's cells as the other plays them. A figure is linear in each
cell's probability of drawing, and no round passes two cells of one hand, so the best
play of one hand's cells is pure and cell by cell: draw where drawing gains. The two
hands answer each other in turn until neither changes (a fixed point: each plays its
best against the other).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from analyzer.analysis.exact import analyze
from analyzer.errors import AnalyzerError
from analyzer.game.rules import DRAW, STAND, Cell, Strategy, strategy_of
from analyzer.game.shoe import Shoe
from analyzer.paytables.library import as_paytable
from analyzer.paytables.model import Paytable
from analyzer.schema import argument

#: Which bet each hand's cells are played for.
BET_OF_HAND = {"player": "player", "banker": "banker"}
#: Rounds of answering each other before giving up: where they settle they take two or
#: three; where no pure play is best for both, the answers go round for ever.
_MAX_ROUNDS = 20


@dataclass(frozen=True)
class CellChoice:
    """The best play of one cell: ``draw`` or ``stand``, and what drawing rather than
    standing there adds to the EV of the bet it is played for (exact)."""

    cell: Cell
    choice: str
    bet: str
    mode: str
    gain_of_drawing: Fraction


def best_strategy(
    paytable: Paytable | str | os.PathLike[str], shoe: Shoe | None = None
) -> tuple[Strategy, list[CellChoice]]:
    """Every decision cell of ``paytable``'s rules played to maximise the EV of the bet on
    its hand (``player``, ``banker``) in the paytable's first mode offering it, on
    ``shoe`` (default: the paytable's full shoe). Returns the strategy and each cell's
    choice with its gain; a hand with cells but no bet on it is one clear error.
    ``paytable`` is a paytable, a shipped paytable's name or a ``.toml`` file."""
    paytable = as_paytable(paytable)
    shoe = Shoe.standard(paytable.decks) if shoe is None else argument(shoe, Shoe, "shoe")
    cells = paytable.rules.decision_cells
    if not cells:
        raise AnalyzerError(
            f"the rules {paytable.rules.name!r} have no decision cell: --strategy best has "
            "nothing to decide"
        )
    played_for = {}
    for hand in [h for h in ("player", "banker") if any(c.hand == h for c in cells)]:
        bet_id = BET_OF_HAND[hand]
        modes = [
            m for m in paytable.modes if any(b.id == bet_id for b, _ in paytable.offered((m,)))
        ]
        if not modes:
            raise AnalyzerError(
                f"--strategy best plays the {hand.title()}'s cells for the bet {bet_id!r}, "
                "which the paytable does not offer: give the cells' play (--strategy CELL=draw)"
            )
        played_for[hand] = (bet_id, modes[0])
    choice = {cell: Fraction(1) for cell in cells}  # start: every cell drawn
    gains: dict[Cell, Fraction] = {}
    seen = set()
    for _ in range(_MAX_ROUNDS):
        seen.add(tuple(choice.values()))
        changed = False
        moving: list[Cell] = []
        for hand, (bet_id, mode) in played_for.items():
            for cell in (c for c in cells if c.hand == hand):
                ev = {}
                for drawn in (1, 0):
                    trial = choice | {cell: Fraction(drawn)}
                    analysis = analyze(
                        paytable=_playing(paytable, trial), shoe=shoe, mode=mode, bets=[bet_id]
                    )
                    ev[drawn] = analysis.result(bet_id, mode).expected_value
                gains[cell] = ev[1] - ev[0]
                best = Fraction(int(gains[cell] > 0)) if gains[cell] != 0 else choice[cell]
                if best != choice[cell]:
                    changed = True
                    moving.append(cell)
                choice[cell] = best
        if not changed:
            break
        if tuple(choice.values()) in seen:  # round and round: it never settles
            break
    if changed:
        # Each hand's best answer to the other's keeps changing (as in chemin de fer's
        # Player 5 against the Banker's 6 when the Player stood): no pure play is best for
        # both, and the game's optimal play is mixed.
        raise AnalyzerError(
            "--strategy best finds no play each hand keeps against the other's: "
            f"{', '.join(map(str, moving))} keep changing (the best play is mixed there: "
            "see baccarat-odds solve, or give each cell's play)"
        )
    strategy = strategy_of(choice)
    report = [
        CellChoice(cell, DRAW if choice[cell] else STAND, *played_for[cell.hand], gains[cell])
        for cell in cells
    ]
    return strategy, report


def _playing(paytable: Paytable, choice: dict[Cell, Fraction]) -> Paytable:
    return paytable.with_strategy(strategy_of(choice))


def told_best_strategy(
    paytable: Paytable, shoe: Shoe | None = None, told: Callable[[str], None] | None = None
) -> Strategy:
    """:func:`best_strategy` of ``paytable`` on ``shoe``, each cell's choice passed to
    ``told`` as a line (``strategy best: player:5=draw (for the player bet, ...)``)."""
    strategy, choices = best_strategy(paytable, shoe)
    for c in choices if told is not None else ():
        told(
            f"strategy best: {c.cell}={c.choice} (for the {c.bet} bet, {c.mode}: drawing "
            f"changes its EV by {float(c.gain_of_drawing):+.6f})"
        )
    return strategy
