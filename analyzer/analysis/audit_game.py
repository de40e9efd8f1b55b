"""Auditing the log of a game of the family (:mod:`analyzer.game.games`): Dragon Tiger,
Three Card Baccarat, Lucky Draw Baccarat, or a paytable's own ``[game]``.

A round of such a log gives each hand's cards (the ``<hand>_cards`` columns), and for a
game with a player's decision the action taken. :func:`play_rounds` plays a block of them
as the game does: which rounds hold the cards the game deals (each hand its first cards,
and its card after the deal where it may take one), each hand's extra card against its
own rule and against the action, then the winner and each hand's score by the game's own
scoring (:meth:`~analyzer.game.games.Game.as_dealt`: a round as its hands ended is a
game dealt once of those hands) and the fields its bets read, as the engines name them.
:class:`GameChances` gives the exact chances the fit of such a log is tested against,
from the exact engine's tables of a full shoe.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.game.cards import CARD_RANKS, CARD_SUITS, CARD_VALUES
from analyzer.game.games import Game, Hand, decoded, drawn_fields
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Bet, Paytable
from analyzer.paytables.settle import settling_rule

#: The most cards a logged hand may hold (more is not a hand: a malformed log).
HAND_SLOTS = 8
#: Every check an audit may run, in the order a report lists them; each game runs those
#: that apply to it (:func:`checks_of`).
CHECK_ORDER = (
    "deal",
    "draw",
    "action",
    "score",
    "winner",
    "cards",
    "order",
    "burn",
    "payout",
    "repeat",
)
#: Punto banco's checks.
PUNTO_BANCO_CHECKS = ("draw", "score", "winner", "cards", "order", "burn", "payout", "repeat")
_ORDINALS = {2: "second", 3: "third", 4: "fourth"}


def checks_of(paytable: Paytable) -> tuple[str, ...]:
    """The checks an audit against ``paytable`` runs, in report order: punto banco's, or
    for another game ``deal`` (each hand's cards), ``draw`` (where a hand takes a card by
    its own rule), ``action`` (with a player's decision), and the checks of every log."""
    game = paytable.game
    if game is None:
        return PUNTO_BANCO_CHECKS
    skipped = set()
    if not any(hand.draws for hand in game.hands):
        skipped.add("draw")
    if game.decision is None:
        skipped.add("action")
    return tuple(check for check in CHECK_ORDER if check not in skipped)


def hand_columns(game: Game) -> tuple[str, ...]:
    """The log's columns of a game's cards: ``<hand>_cards``, one per hand."""
    return tuple(f"{hand.name}_cards" for hand in game.hands)


def score_columns(game: Game) -> tuple[str, ...]:
    """The log's optional columns of a game's scores: ``<hand>_score``."""
    return tuple(f"{hand.name}_score" for hand in game.hands)


def extra_card(hand: Hand) -> str:
    """The card a hand may take after the deal, in words: ``third card``."""
    return f"{_ORDINALS.get(hand.cards + 1, 'further')} card"


def dealt_text(game: Game, h: int) -> str:
    """The cards ``game`` deals hand ``h``, in words: ``1``, ``2, and a third where its
    rule draws``."""
    hand = game.hands[h]
    text = str(hand.cards)
    if hand.extra:
        why = "its rule draws" if hand.draws else "the action draws it"
        text += f", and a {extra_card(hand).removesuffix(' card')} where {why}"
    return text


@dataclass(frozen=True, eq=False)
class PlayedRounds:
    """A block of a game's logged rounds, played as the game plays them.

    ``held``: the cards each hand holds (n, 2); ``dealt``: the rounds that hold the cards
    the game deals (each hand its first cards, and no more than the card it may take
    after them); ``took``: the cards each hand took after the first deal (0 or 1);
    ``first``: each hand's total of its first cards (points games; else 0); ``winner``
    (0 the first hand, 1 the second, 2 a tie), ``scores`` and ``pictures`` (a column per
    hand): -1 on a round not ``dealt``; ``stake``: the base stakes a round's bets net
    (the action's, 1 without a decision); ``values``: each round's first deal as point
    values in the game's dealing order; ``columns``: the fields the bets read, of the
    ``dealt`` rounds only, in their order (as the engines name them); ``forfeit``: the
    share of the base stake a round's action forfeits (a fold's: the bets of the decision
    net minus it whatever the cards; 0 for an action that plays on).
    """

    held: np.ndarray
    dealt: np.ndarray
    took: np.ndarray
    first: np.ndarray
    winner: np.ndarray
    scores: np.ndarray
    pictures: np.ndarray
    stake: np.ndarray
    values: np.ndarray
    columns: dict[str, np.ndarray]
    forfeit: np.ndarray | None = None


def play_rounds(
    game: Game, cards: np.ndarray, action: np.ndarray | None, wanted: frozenset[str]
) -> PlayedRounds:
    """Play a block of logged rounds of ``game``.

    Parameters
    ----------
    game : Game
        The game.
    cards : int array, shape (n, 2 * HAND_SLOTS)
        Each round's card indices, hand after hand, each hand's in the order it took them
        from its first slot, -1 where it holds no more.
    action : int array or None
        Each round's action (an index into the decision's actions), for a game with one.
    wanted : frozenset of str
        The fields of single cards the bets read.

    Returns
    -------
    PlayedRounds
        The rounds as the game plays them.
    """
    n = len(cards)
    by_hand = cards.reshape(n, 2, HAND_SLOTS)
    held = (by_hand >= 0).sum(axis=2)
    low = np.array([hand.cards for hand in game.hands])
    high = low + np.array([hand.extra for hand in game.hands])
    dealt = ((held >= low) & (held <= high)).all(axis=1)
    took = np.where(dealt[:, None], held - low, 0)
    values = np.zeros((n, game.cards), dtype=np.int64)
    for position, (h, number) in enumerate(game.positions):
        card = by_hand[:, h, number - 1]
        values[:, position] = np.where(card >= 0, CARD_VALUES[np.maximum(card, 0)], 0)
    first = np.zeros((n, 2), dtype=np.int64)
    if game.score != "rank":
        for h, positions in enumerate(game.hand_positions):
            first[:, h] = values[:, positions].sum(axis=1) % 10
    winner = np.full(n, -1, dtype=np.int64)
    scores = np.full((n, 2), -1, dtype=np.int64)
    pictures = np.full((n, 2), -1, dtype=np.int64)
    fields: dict[str, np.ndarray] = {}
    rows = np.flatnonzero(dealt)
    patterns = held[rows]
    found = np.unique(patterns, axis=0)
    if not game.by_values:  # (one pattern, every hand its cards: its fields even of none)
        found = low[None, :]
    for pattern in found:
        at = rows[(patterns == pattern).all(axis=1)]
        counts = tuple(int(k) for k in pattern)
        hands = [by_hand[at, h, :k] for h, k in enumerate(counts)]
        ranks = CARD_RANKS[np.concatenate(hands, axis=1)]
        suits = CARD_SUITS[np.concatenate(hands, axis=1)]
        as_dealt = game.as_dealt(counts)
        columns = as_dealt.columns(ranks, suits, frozenset() if game.by_values else wanted)
        winner[at] = columns["winner"][0]
        for h, hand in enumerate(game.hands):
            scores[at, h] = columns[f"{hand.name}_score"][0]
            pictures[at, h] = columns[f"{hand.name}_pictures"][0]
        if not game.by_values:
            fields = {name: decoded(codes, texts) for name, (codes, texts) in columns.items()}
    stake = np.ones(n)
    forfeit = np.zeros(n)
    if game.decision is not None and action is not None:
        stakes = np.array([a.stake for a in game.decision.actions], dtype=np.float64)
        stake = stakes[np.maximum(action, 0)]
        forfeits = np.array([float(a.forfeit) for a in game.decision.actions])
        forfeit = np.where(action >= 0, forfeits[np.maximum(action, 0)], 0.0)
    if game.by_values:
        chosen = np.zeros(len(rows), dtype=np.int64) if action is None else action[rows]
        # Each round's cards by slot (Game.card_slots): its first deal in dealing order,
        # then each hand's card after it where taken.
        slots = np.full((len(rows), len(game.card_slots)), -1, dtype=np.int64)
        for slot, (h, number) in enumerate(game.card_slots):
            card = by_hand[rows, h, number - 1]
            if slot >= game.cards:
                card = np.where(took[rows, h] == 1, card, -1)
            slots[:, slot] = card
        dealt_cards = slots >= 0
        ranks = np.where(dealt_cards, CARD_RANKS[np.maximum(slots, 0)], -1)
        suits = np.where(dealt_cards, CARD_SUITS[np.maximum(slots, 0)], -1)
        columns = drawn_fields(
            game, winner[rows], scores[rows], took[rows], chosen, ranks, suits, wanted
        )
    else:
        columns = fields
    return PlayedRounds(
        held, dealt, took, first, winner, scores, pictures, stake, values, columns, forfeit
    )


class GameChances:
    """The exact chances of a round of a game dealt from a full shoe of ``decks`` decks,
    from the exact engine's tables (:func:`~analyzer.engine.deal_walk.dealt_outcomes`,
    and for a game whose hands draw or decide :func:`~analyzer.engine.deal_walk.
    drawn_tables`).

    For a game without a decision, ``exact`` gives each winner's chance (exact). With a
    decision, a round's chances depend on what the player saw and chose: ``given`` gives
    them per (action, information set) (:meth:`key`), each the exact chance given those
    (floats; NaN where the set is never dealt), and ``exact`` is empty.
    """

    def __init__(self, paytable: Paytable, decks: int | str) -> None:
        self.paytable = paytable
        self.game = game = paytable.game
        self.shoe = Shoe.standard(decks)
        self.conditional = game.decision is not None
        self.seen = len(game.decision.sees) if game.decision is not None else 0
        self.actions = game.decision.actions if game.decision is not None else (None,)
        self.exact: dict[str, Fraction] = {}
        hits = [
            self._hits(
                frozenset({"winner"}), lambda columns, n, name=name: columns["winner"] == name
            )
            for name in game.winners
        ]
        if self.conditional:
            self.given = np.column_stack(hits)
        else:
            self.exact = dict(zip(game.winners, hits, strict=True))

    def key(self, action: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Per round, the row of :attr:`given` of its action (index) and first deal (point
        values in the game's dealing order)."""
        from analyzer.engine.deal_walk import information_codes

        return action * 10**self.seen + information_codes(self.game, values)

    def bet_hits(self, bet: Bet) -> Fraction | np.ndarray:
        """The chance that ``bet`` wins a round (a rule paying a win settles it): exact, or
        per (action, information set) with a decision (as :attr:`given`)."""
        wins = np.array([rule.payout.kind == "win" for rule in bet.rules] + [False])

        def hit(columns, n):
            return wins[settling_rule(bet, columns, n)]

        return self._hits(bet.fields | {"winner"}, hit)

    def _hits(self, fields: frozenset[str], hit) -> Fraction | np.ndarray:
        from analyzer.engine.deal_walk import INFORMATION, dealt_outcomes, drawn_tables

        game = self.game
        if not game.by_values:
            table = dealt_outcomes(game, self.shoe, fields)
            ways = int(table.ways[hit(table.columns, len(table.ways))].sum())
            return Fraction(ways, table.denominator)
        tables = drawn_tables(game, self.shoe, fields, self.actions)
        sets = 10**self.seen
        found = np.zeros(len(self.actions) * sets, dtype=np.int64)
        total = np.zeros(len(self.actions) * sets, dtype=np.int64)
        for a, action in enumerate(self.actions):
            table = tables[action]
            held = hit(table.columns, len(table.ways))
            if not self.conditional:
                return Fraction(int(table.ways[held].sum()), int(table.ways.sum()))
            at = a * sets + np.asarray(table.columns[INFORMATION], dtype=np.int64)
            np.add.at(total, at, table.ways)
            np.add.at(found, at, np.where(held, table.ways, 0))
        with np.errstate(invalid="ignore", divide="ignore"):
            return found / total


def drawn_round_chances(
    game: Game, cards: np.ndarray, action: np.ndarray | None, left: np.ndarray
) -> np.ndarray:
    """Each round's chances of the first hand winning, the second, and a tie, given the
    cards left in its shoe before it (``left``, n x 52 card counts), its first deal (the
    first cards of each hand in ``cards``, as :func:`play_rounds` reads them) and its
    action (an index of the decision's, or None without one): only the cards taken after
    the deal are unknown, a hand's by its own rule on its first total or by the action,
    in the order of the hands; each way they may come is weighed by the cards of each
    point value left (ordered, without replacement). A game whose hands draw (Lucky Draw
    Baccarat) is priced so, on the cards left, for the audit's shoe-aware test.

    Parameters
    ----------
    game : Game
        A game scored by points whose hands take at most one card after the deal.
    cards : int array, shape (n, 2 * HAND_SLOTS)
        The rounds' cards by hand (card indices, -1 past the last).
    action : int array or None
        Each round's action.
    left : int array, shape (n, 52)
        The cards left in each round's shoe before it.

    Returns
    -------
    float64 array, shape (n, 3)
        Per round, its chances in :attr:`~analyzer.game.games.Game.winners` order.
    """
    n = len(cards)
    by_hand = cards.reshape(n, 2, HAND_SLOTS)
    counts = np.zeros((n, 10), dtype=np.float64)
    values_of = CARD_VALUES[np.arange(52)]
    for v in range(10):
        counts[:, v] = left[:, values_of == v].sum(axis=1)
    first = np.zeros((n, 2), dtype=np.int64)
    for h, hand in enumerate(game.hands):
        held = by_hand[:, h, : hand.cards]
        values = CARD_VALUES[np.maximum(held, 0)]
        first[:, h] = values.sum(axis=1) % 10
        for k in range(hand.cards):  # (the first deal is out of the cards left)
            counts[np.arange(n), values[:, k]] -= 1
    takes = np.zeros((n, 2), dtype=bool)
    actions = () if game.decision is None else game.decision.actions
    for h, hand in enumerate(game.hands):
        if not hand.extra:
            continue
        by_rule = np.isin(first[:, h], list(hand.draws))
        by_action = np.zeros(n, dtype=bool)
        if action is not None and actions:
            gives = np.array([a.draws == hand.name for a in actions])
            by_action = gives[np.maximum(action, 0)]
        takes[:, h] = by_rule | by_action
    total = counts.sum(axis=1)
    v = np.arange(10)
    # Every way of the two extra cards (a hand not taking one: its card ignored, weight 1).
    w0 = np.where(takes[:, :1], counts / np.maximum(total, 1)[:, None], (v == 0)[None, :])
    second = counts[:, None, :] - (takes[:, 0, None, None] & (v[:, None] == v[None, :]))
    rest = np.maximum(total - takes[:, 0], 1)[:, None, None]
    w1 = np.where(takes[:, 1, None, None], second / rest, (v == 0)[None, None, :])
    weight = w0[:, :, None] * w1  # (n, player's card, dealer's card)
    t0 = (first[:, 0, None, None] + np.where(takes[:, 0, None, None], v[None, :, None], 0)) % 10
    t1 = (first[:, 1, None, None] + np.where(takes[:, 1, None, None], v[None, None, :], 0)) % 10
    out = np.stack(
        [
            (weight * (t0 > t1)).sum(axis=(1, 2)),
            (weight * (t1 > t0)).sum(axis=(1, 2)),
            (weight * (t0 == t1)).sum(axis=(1, 2)),
        ],
        axis=1,
    )
    return out
