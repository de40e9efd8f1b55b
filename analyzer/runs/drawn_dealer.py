"""Dealing real shoes of a game whose hands take cards after the first deal, or with a
player's decision (Lucky Draw Baccarat), each round played by a bet's exact strategy.

A shoe is shuffled and burned as for the games dealt once
(:func:`~analyzer.runs.game_dealer.shuffled_game_shoes`: from the same random numbers,
the same shoes). A round then takes, straight off the shoe, the first deal
(``game.cards`` cards, to the hands in the game's dealing order), then the cards taken
after it in the order the exact walk takes them
(:func:`~analyzer.engine.deal_walk.drawn_tables`): in the order of the hands, a hand's
extra card where its own rule draws on its first total (the dealer's ``draws = "0-4"``)
or where the action taken gives it one. The action is the one a strategy gives the
round's information set (:func:`~analyzer.engine.deal_walk.information_codes`), solved
before any shoe is dealt. A round starts only with the most cards a round takes left
(``game.most_cards``); the cut card ends the shoe as punto banco's dealer has it
(:mod:`analyzer.runs.dealer`): the round in which it comes out (the first to deal a card
at or behind it) is the last, or one more follows (``"one-more"``) unless it came out in
place of that round's first card. Rounds are numbered from 1.

A round's length depends on its cards and its action, so the rounds of a shoe are dealt
one after the other in a Numba kernel; the random numbers (the shuffles) are drawn
outside it, by numpy's ``Generator``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from analyzer.engine.deal_walk import information_codes
from analyzer.game.cards import CARD_RANKS, CARD_SUITS
from analyzer.game.games import Action, Game, drawn_fields
from analyzer.runs.dealer import Procedure

if TYPE_CHECKING:
    from analyzer.analysis.decisions import StrategyTable

__all__ = [
    "DRAWN_FIELDS",
    "action_by_deal",
    "actions_by_reveal",
    "deal_drawn_rounds",
    "drawn_columns",
    "first_deal_values",
    "game_arrays",
    "max_rounds",
    "slot_cards",
]

#: Fields of a dealt round's row: its number in the shoe, the index of its first card,
#: the cards it took, the action's index (0 without a decision), the winner (0 the first
#: hand, 1 the second, 2 a tie), each hand's score, the extra cards each took (0, 1), and
#: the index of the cards the decision was shown (of its reveals: 0 where not random).
DRAWN_FIELDS = (
    "round", "start", "used", "action", "winner", "score0", "score1", "took0", "took1", "reveal",
)  # fmt: skip


def first_deal_values(game: Game) -> np.ndarray:
    """Every first deal of ``game`` as point values, a row per deal and a column per card
    in dealing order: row ``k`` is ``k`` written in decimal digits (the first card the
    most significant), so a dealt round's row is found by arithmetic."""
    k = np.arange(10**game.cards, dtype=np.int64)
    return np.stack([(k // 10 ** (game.cards - 1 - i)) % 10 for i in range(game.cards)], axis=1)


def action_by_deal(game: Game, table: StrategyTable | None, reveal: int = 0) -> np.ndarray:
    """Per first deal (:func:`first_deal_values`), the index of the action a bet's
    strategy ``table`` plays there when the decision is shown the cards of ``reveal`` (an
    index of its reveals: 0 where the cards seen are not random): the action it plays in
    the deal's information set (the best, or the one ``--decisions`` gave)
    (:func:`~analyzer.engine.deal_walk.information_codes`, the cards shown kept; a set the
    table lacks, which the shoe it was solved on never deals, the first action); zeros
    without a decision (``table`` None)."""
    deals = np.zeros(10**game.cards, dtype=np.int64)
    if table is None or game.decision is None:
        return deals
    names = [action.name for action in game.decision.actions]
    codes = information_codes(game, first_deal_values(game))
    sees = game.decision.sees
    if game.decision.shown:  # (the digits of the cards this reveal shows)
        seen = np.zeros_like(codes)
        for card in game.decision.reveals[reveal].sees:
            seen = seen * 10 + (codes // 10 ** (len(sees) - 1 - sees.index(card))) % 10
        codes = seen
    unique, inverse = np.unique(codes, return_inverse=True)
    best = np.zeros(len(unique), dtype=np.int64)
    for i, code in enumerate(unique.tolist()):
        try:
            best[i] = names.index(table.choice(code, reveal).played)
        except KeyError:
            continue
    return best[inverse.reshape(-1)]


def actions_by_reveal(game: Game, table: StrategyTable | None) -> np.ndarray:
    """:func:`action_by_deal` of every way the decision's cards may be shown: a row per
    reveal of the decision (one row where the cards seen are not random, or without a
    decision)."""
    reveals = 1 if game.decision is None else len(game.decision.reveals)
    return np.stack([action_by_deal(game, table, r) for r in range(reveals)])


def game_arrays(game: Game) -> tuple[np.ndarray, ...]:
    """What the kernel reads of ``game``: each first-deal card's hand, each hand's extra
    card (0, 1), its drawing totals (bool[2, 10]) and each action's hand given a card (-1
    for none; one action without a decision)."""
    owner = np.array([h for h, _ in game.positions], dtype=np.int64)
    extra = np.array([hand.extra for hand in game.hands], dtype=np.int64)
    draws = np.zeros((2, 10), dtype=np.bool_)
    for h, hand in enumerate(game.hands):
        draws[h, list(hand.draws)] = True
    names = [hand.name for hand in game.hands]
    actions: tuple[Action, ...] = () if game.decision is None else game.decision.actions
    action_hands = np.array(
        [-1 if a.draws is None else names.index(a.draws) for a in actions] or [-1],
        dtype=np.int64,
    )
    return owner, extra, draws, action_hands


@njit(cache=True)
def _deal_drawn_jit(
    values, start, cut, one_more, first_cards, most_cards, owner, extra, draws, action_hands,
    action_of_deal, reveal_of_round, out,
):  # fmt: skip
    """Deal one shoe's rounds from ``start`` until the last (the module's rules).

    Parameters
    ----------
    values : int64[n_cards]
        The shoe's cards as point values, in dealing order.
    start : int
        Index of round 1's first card (after the burn).
    cut : int
        Index of the first card behind the cut card.
    one_more : bool
        The last-round rule: one more round after the cut card's (unless it came out in
        place of that round's first card).
    first_cards, most_cards : int
        Cards of the first deal; the most a round takes (a round starts only with them
        left).
    owner, extra, draws, action_hands
        :func:`game_arrays`.
    action_of_deal : int64[reveals, 10**first_cards]
        The action played on each first deal, per way the decision's cards are shown
        (:func:`actions_by_reveal`).
    reveal_of_round : int64[max_rounds]
        The way the cards are shown to round ``n + 1`` (drawn before the deal).
    out : int64[max_rounds, len(DRAWN_FIELDS)]
        Filled with a row of :data:`DRAWN_FIELDS` per round.

    Returns
    -------
    int
        The rounds dealt.
    """
    p = start
    n = 0
    last = False
    while p + most_cards <= values.shape[0]:
        round_start = p
        key = 0
        total0 = 0
        total1 = 0
        for i in range(first_cards):
            v = values[p + i]
            key = key * 10 + v
            if owner[i] == 0:
                total0 += v
            else:
                total1 += v
        total0 %= 10
        total1 %= 10
        r = reveal_of_round[n]
        a = action_of_deal[r, key]
        took0 = 1 if extra[0] == 1 and (draws[0, total0] or action_hands[a] == 0) else 0
        took1 = 1 if extra[1] == 1 and (draws[1, total1] or action_hands[a] == 1) else 0
        q = p + first_cards
        if took0 == 1:
            total0 = (total0 + values[q]) % 10
            q += 1
        if took1 == 1:
            total1 = (total1 + values[q]) % 10
            q += 1
        out[n, 0] = n + 1
        out[n, 1] = p
        out[n, 2] = q - p
        out[n, 3] = a
        out[n, 4] = 0 if total0 > total1 else 1 if total1 > total0 else 2
        out[n, 5] = total0
        out[n, 6] = total1
        out[n, 7] = took0
        out[n, 8] = took1
        out[n, 9] = r
        n += 1
        p = q
        if last:
            break
        if p > cut:  # the cut card came out during this round
            if not one_more or round_start == cut:
                break
            last = True
    return n


@njit(cache=True)
def _deal_drawn_shoes_jit(
    values, starts, cut, one_more, first_cards, most_cards, owner, extra, draws, action_hands,
    action_of_deal, reveals, out, n_rounds,
):  # fmt: skip
    """:func:`_deal_drawn_jit` of every shoe ``values[i]`` from ``starts[i]`` into
    ``out[i]``, its rounds shown the cards ``reveals[i]``; ``n_rounds[i]``: its rounds."""
    for i in range(values.shape[0]):
        n_rounds[i] = _deal_drawn_jit(
            values[i], starts[i], cut, one_more, first_cards, most_cards, owner, extra, draws,
            action_hands, action_of_deal, reveals[i], out[i],
        )  # fmt: skip


def deal_drawn_rounds(
    values: np.ndarray,
    starts: np.ndarray,
    procedure: Procedure,
    game: Game,
    action_of_deal: np.ndarray,
    reveals: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every round of the shuffled shoes ``values`` (point values, a row per shoe, round
    1 from ``starts[i]``), played by ``action_of_deal`` (:func:`action_by_deal`, or a
    row per reveal: :func:`actions_by_reveal`), round ``n + 1`` of shoe ``i`` shown the
    cards of reveal ``reveals[i, n]`` (drawn by the caller, outside the kernel: at least
    :func:`max_rounds` columns; None: reveal 0).

    Returns
    -------
    rounds : int64 array, shape (rounds, len(DRAWN_FIELDS))
        The rounds, shoe after shoe, as rows of :data:`DRAWN_FIELDS`.
    n_rounds : int64 array
        Per shoe, its rounds.
    """
    shoes = len(values)
    most = max_rounds(procedure, game)
    if reveals is None:
        reveals = np.zeros((shoes, most), dtype=np.int64)
    if reveals.shape[1] < most:
        raise ValueError(f"reveals need {most} rounds a shoe")
    action_of_deal = np.atleast_2d(action_of_deal)
    if int(reveals.max(initial=0)) >= len(action_of_deal):
        raise ValueError("a reveal without its actions")
    out = np.empty((shoes, most, len(DRAWN_FIELDS)), dtype=np.int64)
    n_rounds = np.empty(shoes, dtype=np.int64)
    _deal_drawn_shoes_jit(
        np.ascontiguousarray(values, dtype=np.int64),
        np.asarray(starts, dtype=np.int64),
        procedure.cards - procedure.cut_card,
        procedure.last_round == "one-more",
        game.cards,
        game.most_cards,
        *game_arrays(game),
        np.ascontiguousarray(action_of_deal, dtype=np.int64),
        np.ascontiguousarray(reveals, dtype=np.int64),
        out,
        n_rounds,
    )
    dealt = np.arange(most) < n_rounds[:, None]
    return out[dealt], n_rounds


def max_rounds(procedure: Procedure, game: Game) -> int:
    """The most rounds a shoe of ``procedure`` can deal of ``game`` (a bound: every round
    takes at least the first deal's cards)."""
    return procedure.cards // game.cards + 1


def slot_cards(game: Game, cards: np.ndarray, rounds: np.ndarray, shoe: np.ndarray) -> np.ndarray:
    """Each round's cards (card indices) by slot (:attr:`~analyzer.game.games.Game.
    card_slots`): its first deal in dealing order, then each hand's card after it, in
    the order of the hands, -1 where the round did not take it.

    Parameters
    ----------
    game : Game
        The game.
    cards : int array, shape (shoes, cards)
        The shoes' cards (card indices), in dealing order.
    rounds : int array
        The rounds, rows of :data:`DRAWN_FIELDS`.
    shoe : int array
        Each round's row of ``cards``.

    Returns
    -------
    int64 array, shape (rounds, len(game.card_slots))
    """
    start, took = rounds[:, 1], rounds[:, 7:9]
    out = np.full((len(rounds), len(game.card_slots)), -1, dtype=np.int64)
    out[:, : game.cards] = cards[shoe[:, None], start[:, None] + np.arange(game.cards)]
    at = start + game.cards  # the next card after the first deal (and any taken before)
    slot = game.cards
    for h, hand in enumerate(game.hands):
        if hand.extra:
            out[:, slot] = np.where(took[:, h] == 1, cards[shoe, at], -1)
            slot += 1
            at = at + took[:, h]
    return out


def drawn_columns(
    game: Game,
    rounds: np.ndarray,
    slots: np.ndarray | None = None,
    wanted: frozenset[str] = frozenset(),
) -> dict[str, np.ndarray]:
    """The fields a bet's condition reads of ``rounds`` (rows of :data:`DRAWN_FIELDS`):
    the winner, each hand's score, a hand's cards where it may take one, and the action
    (a game with a decision), one row per round, as the exact walk names them
    (:func:`~analyzer.game.games.drawn_fields`); and the fields of single cards in
    ``wanted``, from ``slots`` (:func:`slot_cards`)."""
    ranks = suits = None
    if slots is not None:
        dealt = slots >= 0
        ranks = np.where(dealt, CARD_RANKS[np.maximum(slots, 0)], -1)
        suits = np.where(dealt, CARD_SUITS[np.maximum(slots, 0)], -1)
    return drawn_fields(
        game, rounds[:, 4], rounds[:, 5:7], rounds[:, 7:9], rounds[:, 3], ranks, suits, wanted
    )
