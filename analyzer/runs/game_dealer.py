"""Dealing real shoes of a game of the family (:mod:`analyzer.game.games`): Dragon Tiger,
Three Card Baccarat, or a paytable's own ``[game]``.

A shoe is shuffled and burned as punto banco's dealer does it (:mod:`analyzer.runs.dealer`;
from the same random numbers, the same shoes): the first card is shown and
burned with as many more as its value says (Ace 1 ... 9 9, a ten or picture 10). Then
rounds of ``game.cards`` cards each are dealt straight off the shoe, each round's cards
going to the hands in the game's dealing order (:attr:`~analyzer.game.games.Game.positions`),
until the cut card, by the same rules: it lies ``cut_card`` cards before the end; the
round in which it comes out (the first to deal a card at or behind it) is the shoe's last
(``last_round="cut-card"``), or one more round follows (``"one-more"``) unless the cut
card came out in place of that round's first card. A round starts only with its cards
left in the shoe. Rounds are numbered from 1.

No Numba kernel is needed: nobody draws, so every round takes the same number of cards
and where each one starts is arithmetic (the burn, then ``game.cards`` apart). The rounds
of many shoes are then gathered by indexing, and their fields computed by the game's own
definition (:meth:`~analyzer.game.games.Game.columns`) over all of them at once. The
random numbers (the shuffles) are drawn by numpy's ``Generator``, as for punto banco.

A paytable with random multipliers has each round's specials drawn after the shoes are
shuffled, from the same ``Generator``, as punto banco's are
(:func:`~analyzer.runs.dealer.special_factors`): its special card identities, or its
Lightning suits (``K`` of the four, every set of ``K`` equally likely, each special suit
its own multiplier, which every card of the suit carries). Only what a round's own cards
see is drawn, exactly as the full draw would decide it. The draws are made for every
round of the shoes at once, in order, before any is settled: the same seed gives the same
multipliers however the rounds are then settled, a block of shoes at a time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from analyzer.game.cards import CARD_RANKS, CARD_SUITS, CARD_VALUES, N_CARDS
from analyzer.game.games import Game, decoded
from analyzer.game.rules import BURN_BY_VALUE
from analyzer.memo import Kept
from analyzer.runs.dealer import Procedure, special_factors

if TYPE_CHECKING:  # (a paytable without multipliers never needs the module)
    from analyzer.engine.game_batch import GameBatch
    from analyzer.paytables.model import Bet, Paytable
    from analyzer.paytables.multipliers import Multipliers

__all__ = [
    "DealtGameShoes",
    "GameRounds",
    "deal_game_shoes",
    "game_multipliers",
    "game_special_factors",
    "kept_game_batch",
    "round_fields",
    "rounds_dealt",
    "shuffled_game_shoes",
    "special_keys",
    "winner_codes",
]

#: Each process's compiled bets of a game dealt once, by paytable and columns (a run's
#: partitions, one after another, compile them once: count's and dealt's alike).
_GAME_BATCHES: Kept[GameBatch] = Kept(8)


def kept_game_batch(
    paytable: Paytable, columns: object, bets: list[Bet] | tuple[Bet, ...]
) -> GameBatch:
    """``bets`` of ``paytable``'s game compiled (:func:`~analyzer.engine.game_batch.game_batch`),
    once a process for the same paytable and ``columns`` (the bets' ids and modes)."""
    from analyzer.engine.game_batch import game_batch

    key = json.dumps([paytable.fingerprint, columns], sort_keys=True, default=str)
    batch = _GAME_BATCHES.get(key)
    if batch is None:
        batch = _GAME_BATCHES.put(key, game_batch(paytable.game, bets))
    return batch


def rounds_dealt(starts: np.ndarray, procedure: Procedure, per_round: int) -> np.ndarray:
    """The rounds of ``per_round`` cards each a shoe of ``procedure`` deals from card
    ``starts[i]`` (after the burn) until the cut card, as the module says.

    Parameters
    ----------
    starts : int64 array
        Per shoe, the index of round 1's first card.
    procedure : Procedure
        The shoe's cards, the cut card and the last-round rule.
    per_round : int
        Cards in a round.

    Returns
    -------
    int64 array
        Per shoe, its rounds.

    Examples
    --------
    >>> rounds_dealt(np.array([1, 2]), Procedure(1, 14), 2)  # the cut card at card 38
    array([19, 19])
    """
    starts = np.asarray(starts, dtype=np.int64)
    cut = procedure.cards - procedure.cut_card  # the first card behind the cut card
    # The round (from 1) that deals card ``cut``: the cut card comes out in it.
    last = (cut - starts) // per_round + 1
    if procedure.last_round == "one-more":
        in_place_of_first = starts + (last - 1) * per_round == cut
        last = last + np.where(in_place_of_first, 0, 1)
    by_cards = (procedure.cards - starts) // per_round  # rounds the cards left allow
    return np.minimum(last, by_cards)


@dataclass(frozen=True, eq=False)
class GameRounds:
    """Dealt rounds of a game, shoe after shoe: ``shoe`` (each round's shoe, from the
    first of those dealt), ``number`` (from 1 within its shoe) and ``cards`` (card
    indices, :func:`~analyzer.game.cards.card_index`, a column per card in the game's
    dealing order)."""

    shoe: np.ndarray
    number: np.ndarray
    cards: np.ndarray

    def __len__(self) -> int:
        return len(self.shoe)


@dataclass(frozen=True, eq=False)
class DealtGameShoes:
    """Shoes shuffled and dealt in rounds of ``per_round`` cards: ``cards[i]``, shoe
    ``i`` in dealing order; ``starts[i]``, its round 1's first card; ``n_rounds[i]``,
    its rounds."""

    cards: np.ndarray
    starts: np.ndarray
    n_rounds: np.ndarray
    per_round: int

    def rounds(self, first: int = 0, stop: int | None = None) -> GameRounds:
        """The rounds of shoes ``first`` to ``stop`` (excluded; None: the last)."""
        stop = len(self.cards) if stop is None else stop
        n_rounds = self.n_rounds[first:stop]
        shoe = np.repeat(np.arange(first, stop), n_rounds)
        # Each round's number within its shoe: its place less its shoe's first place.
        begins = np.repeat(np.cumsum(n_rounds) - n_rounds, n_rounds)
        number = np.arange(len(shoe)) - begins + 1
        at = (self.starts[shoe] + (number - 1) * self.per_round)[:, None] + np.arange(
            self.per_round
        )
        return GameRounds(shoe, number, self.cards[shoe[:, None], at])


def deal_game_shoes(
    rng: np.random.Generator, shoes: int, procedure: Procedure, game: Game
) -> DealtGameShoes:
    """``shoes`` shoes of ``procedure`` shuffled (each in turn, from ``rng``: the shoes
    punto banco's :func:`~analyzer.runs.dealer.deal_shoes` shuffles from the same
    numbers where no decision is mixed), burned and dealt in rounds of ``game.cards``
    cards."""
    cards, starts = shuffled_game_shoes(rng, shoes, procedure)
    return DealtGameShoes(cards, starts, rounds_dealt(starts, procedure, game.cards), game.cards)


def shuffled_game_shoes(
    rng: np.random.Generator, shoes: int, procedure: Procedure
) -> tuple[np.ndarray, np.ndarray]:
    """``shoes`` shoes of ``procedure`` shuffled, each in turn, from ``rng`` (card
    indices, a row per shoe in dealing order) and burned: per shoe, the index of round
    1's first card (after the shown card and the cards it burns)."""
    cards = np.tile(np.repeat(np.arange(N_CARDS, dtype=np.int64), procedure.decks), (shoes, 1))
    for i in range(shoes):
        rng.shuffle(cards[i])
    if procedure.burn:
        starts = 1 + BURN_BY_VALUE[CARD_VALUES[cards[:, 0]]].astype(np.int64)
    else:
        starts = np.zeros(shoes, dtype=np.int64)
    return cards, starts


def round_fields(game: Game, rounds: GameRounds, fields: frozenset[str]) -> dict[str, np.ndarray]:
    """The fields of ``rounds`` a bet's condition reads (the winner, each hand's score
    and pictures, and the card fields of ``fields``), one row per round, as the game's
    definition computes them (:meth:`~analyzer.game.games.Game.columns`)."""
    ranks, suits = CARD_RANKS[rounds.cards], CARD_SUITS[rounds.cards]
    columns = game.columns(ranks, suits, fields)
    return {name: decoded(codes, texts) for name, (codes, texts) in columns.items()}


def special_keys(model: Multipliers, cards: np.ndarray) -> np.ndarray:
    """What a round's cards (card indices, a column per card) are told apart by when
    specials are drawn: their suits (0-3) for a model of Lightning suits, else the cards
    themselves (their identities, 0-51).

    Examples
    --------
    >>> from analyzer.paytables.multipliers import multipliers_from_table
    >>> model = multipliers_from_table({"suits": 1, "values": {"2": 1}}, "t")
    >>> special_keys(model, np.array([[0, 5]])).tolist()  # AS, 2H
    [[0, 1]]
    """
    return CARD_SUITS[cards] if model.by_suits else np.asarray(cards, dtype=np.int64)


def game_special_factors(
    rng: np.random.Generator, dealt: DealtGameShoes, model: Multipliers, per_block: int
) -> np.ndarray:
    """Each card's multiplier in every round of ``dealt`` (a row per round, shoe after
    shoe; a column per card in the game's dealing order): 1 unless special, the cards of
    one special suit (or copies of one special identity) its one multiplier. Drawn from
    ``rng`` for all the rounds at once, in order (the module says how); the rounds' cards
    are gathered ``per_block`` shoes at a time, so memory stays near one block's besides
    what is drawn."""
    shoes = len(dealt.cards)
    keys = [
        special_keys(model, dealt.rounds(first, min(first + per_block, shoes)).cards).astype(
            np.int8
        )
        for first in range(0, shoes, max(per_block, 1))
    ]
    if not keys:
        return np.ones((0, dealt.per_round))
    return special_factors(rng, np.concatenate(keys), model)


def winner_codes(game: Game, winner: np.ndarray) -> np.ndarray:
    """Per round, the winner (as :meth:`~analyzer.game.games.Game.columns` decodes it:
    a hand's name or the tie) as a code: the hand's index, ``len(game.hands)`` a tie."""
    codes = np.full(len(winner), len(game.hands), dtype=np.int64)
    for h, hand in enumerate(game.hands):
        codes[winner == hand.name] = h
    return codes


def game_multipliers(
    game: Game, factors: np.ndarray, winner: np.ndarray, kind: str, model: Multipliers
) -> np.ndarray:
    """Per round (``factors`` as :func:`game_special_factors` gives them; ``winner``
    codes, :func:`winner_codes`), the multiplier of the cards a bet multiplied by ``kind``
    counts: the product of their factors (a Lightning suit's multiplier once for each
    counted card of the suit), capped."""
    counted = game.counted_mask(kind, winner)
    product = np.where(counted, factors, 1.0).prod(axis=1)
    return product if model.cap is None else np.minimum(product, float(model.cap))
