"""Shoes of a game whose hands draw or decide (Lucky Draw Baccarat), dealt round by round,
each round played and priced by the best play solved on the cards left
(:mod:`analyzer.analysis.solved`): what ``count`` and ``dealt`` deal such a game by.

A round is dealt as :mod:`analyzer.runs.drawn_dealer` deals it (the first deal to the hands
in the game's dealing order; then, hand by hand, a hand's extra card where its own rule
draws on its first total or the action played gives it one; a round starts only with the
most cards a round takes left; the cut card's rule as punto banco's), except that the
action of the round's information set is the one solved on that round's composition, not
on the full shoe: the player plays what the EV priced assumes, so a shoe's sum of round
EVs is its expected sum of nets. One solve per round: :func:`deal_solved_shoe` runs in
plain Python, a shoe at a time (the solves cost far more than the dealing).
"""

from __future__ import annotations

import numpy as np

from analyzer.analysis.solved import solve_round
from analyzer.engine.deal_walk import information_codes
from analyzer.game.cards import CARD_VALUES, N_CARDS
from analyzer.paytables.model import Paytable
from analyzer.runs.drawn_dealer import game_arrays

__all__ = ["deal_solved_shoe", "solved_rounds_bound"]


def solved_rounds_bound(paytable: Paytable, cards: int, cut_card: int) -> int:
    """The most rounds a shoe of ``cards`` cards deals before the cut card (``cut_card``
    cards from the end), and one more: each takes at least the first deal's cards (four
    in punto banco)."""
    first = 4 if paytable.game is None else paytable.game.cards
    return max(cards - cut_card, 0) // first + 2


def deal_solved_shoe(
    paytable: Paytable,
    columns: tuple,
    cards: np.ndarray,
    start: int,
    cut: int,
    one_more: bool,
    counts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The rounds of one shuffled shoe of a game with a decision or drawing hands, each
    played and priced by the best play solved on its composition.

    Parameters
    ----------
    paytable : Paytable
        A game of the family whose hands draw or decide, its unknowns given values.
    columns : tuple of (bet, mode)
        The columns priced.
    cards : int64 array
        The shoe's cards (card indices) in dealing order.
    start : int
        Round 1's first card (after the burn).
    cut : int
        The index of the first card behind the cut card.
    one_more : bool
        One more round after the cut card's (unless it came out in place of that round's
        first card).
    counts : int64 array, shape (52,)
        The shoe's cards per card index (``cards``' counts).

    Returns
    -------
    starts : int64 array
        Each round's first card.
    ev : float64 array, shape (rounds, columns)
        Each round's EVs on the cards left.
    """
    game = paytable.game
    values = CARD_VALUES[cards]
    owner, extra, draws, action_hands = game_arrays(game)
    left = np.asarray(counts, dtype=np.int64) - np.bincount(cards[:start], minlength=N_CARDS)
    p, last = start, False
    starts: list[int] = []
    evs: list[np.ndarray] = []
    while p + game.most_cards <= len(cards):
        solved = solve_round(paytable, columns, left)
        starts.append(p)
        evs.append(solved.ev)
        first = values[p : p + game.cards]
        action = 0
        if solved.played is not None:
            code = int(information_codes(game, first[None, :])[0])
            action = max(int(solved.played[code]), 0)
        totals = [0, 0]
        for i, v in enumerate(first.tolist()):
            totals[owner[i]] += v
        q = p + game.cards
        for h in (0, 1):
            if extra[h] == 1 and (draws[h, totals[h] % 10] or action_hands[action] == h):
                q += 1
        left -= np.bincount(cards[p:q], minlength=N_CARDS)
        round_start, p = p, q
        if last:
            break
        if p > cut:  # the cut card came out during this round
            if not one_more or round_start == cut:
                break
            last = True
    width = len(columns)
    return np.array(starts, dtype=np.int64), np.array(evs).reshape(len(evs), width)
