"""The drawing rules of GAME.md as data, and one round played from given cards.

``PLAYER_DRAWS[score]`` and ``BANKER_DRAWS[score, third]`` are the tables the enumerator
kernels read; :func:`deal_round` plays the same tables on concrete cards for ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.game.cards import Card

#: Column of BANKER_DRAWS used when the Player stood (had no third card).
PLAYER_STOOD = 10

#: Two-card scores that make a natural: nobody draws.
NATURAL_SCORES = (8, 9)

#: Player draws on a two-card 0-5 and stands on 6-7 (8-9 are naturals, never reached).
PLAYER_DRAWS: np.ndarray = np.array([s <= 5 for s in range(10)], dtype=np.bool_)

#: GAME.md's Banker table: Banker two-card score -> point values of the Player's third
#: card on which the Banker draws.
BANKER_DRAWS_ON: dict[int, tuple[int, ...]] = {
    0: tuple(range(10)),
    1: tuple(range(10)),
    2: tuple(range(10)),
    3: (0, 1, 2, 3, 4, 5, 6, 7, 9),
    4: (2, 3, 4, 5, 6, 7),
    5: (4, 5, 6, 7),
    6: (6, 7),
    7: (),
}


def _banker_table() -> np.ndarray:
    table = np.zeros((10, 11), dtype=np.bool_)
    for score, thirds in BANKER_DRAWS_ON.items():
        table[score, list(thirds)] = True
        # When the Player stood, the Banker draws on 0-5 like the Player would.
        table[score, PLAYER_STOOD] = PLAYER_DRAWS[score]
    return table


#: ``BANKER_DRAWS[banker_two_card_score, player_third_value or PLAYER_STOOD]``.
BANKER_DRAWS: np.ndarray = _banker_table()
PLAYER_DRAWS.setflags(write=False)
BANKER_DRAWS.setflags(write=False)


def hand_score(cards: Sequence[Card]) -> int:
    """Sum of point values modulo 10."""
    return sum(card.value for card in cards) % 10


def is_natural(score: int) -> bool:
    return score in NATURAL_SCORES


@dataclass(frozen=True)
class Round:
    """One dealt round and why each hand drew or stood."""

    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    player_reason: str
    banker_reason: str

    @property
    def player_score(self) -> int:
        return hand_score(self.player_cards)

    @property
    def banker_score(self) -> int:
        return hand_score(self.banker_cards)

    @property
    def natural(self) -> bool:
        return is_natural(hand_score(self.player_cards[:2])) or is_natural(
            hand_score(self.banker_cards[:2])
        )

    @property
    def winner(self) -> str:
        if self.player_score > self.banker_score:
            return "player"
        if self.banker_score > self.player_score:
            return "banker"
        return "tie"


def cards_needed(cards: Sequence[Card]) -> int:
    """How many cards the round dealt from ``cards`` uses, given the first four (4, 5 or 6)."""
    player2, banker2 = hand_score(cards[0:3:2]), hand_score(cards[1:4:2])
    if is_natural(player2) or is_natural(banker2):
        return 4
    if PLAYER_DRAWS[player2]:
        third = cards[4].value if len(cards) > 4 else None
        if third is None:
            return 5
        return 6 if BANKER_DRAWS[banker2, third] else 5
    return 5 if BANKER_DRAWS[banker2, PLAYER_STOOD] else 4


def deal_round(cards: Sequence[Card]) -> Round:
    """Play one round from cards in deal order: P, B, P, B, then third cards as required."""
    if len(cards) < 4:
        raise AnalyzerError(
            "too few cards: a round starts with 4 (Player, Banker, Player, Banker), "
            f"got {len(cards)}"
        )
    needed = cards_needed(cards)
    if len(cards) < needed:
        raise AnalyzerError(f"too few cards: this round needs {needed} cards, got {len(cards)}")
    if len(cards) > needed:
        extra = " ".join(str(c) for c in cards[needed:])
        raise AnalyzerError(f"too many cards: this round uses {needed}; unused: {extra}")
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    player2, banker2 = hand_score(player), hand_score(banker)
    if is_natural(player2) or is_natural(banker2):
        naturals = [
            f"{name} {score}"
            for name, score in (("Player", player2), ("Banker", banker2))
            if is_natural(score)
        ]
        reason = f"natural ({' and '.join(naturals)}): no one draws"
        return Round(tuple(player), tuple(banker), reason, reason)
    rest = list(cards[4:])
    if PLAYER_DRAWS[player2]:
        player.append(rest.pop(0))
        player_reason = f"Player has {player2} (0-5): draws {player[2]}"
        third = player[2].value
        if BANKER_DRAWS[banker2, third]:
            banker.append(rest.pop(0))
            banker_reason = (
                f"Banker has {banker2} and Player's third card is worth {third}: draws {banker[2]}"
            )
        else:
            banker_reason = f"Banker has {banker2} and Player's third card is worth {third}: stands"
    else:
        player_reason = f"Player has {player2} (6-7): stands"
        if BANKER_DRAWS[banker2, PLAYER_STOOD]:
            banker.append(rest.pop(0))
            banker_reason = f"Player stood and Banker has {banker2} (0-5): draws {banker[2]}"
        else:
            banker_reason = f"Player stood and Banker has {banker2} (6-7): stands"
    return Round(tuple(player), tuple(banker), player_reason, banker_reason)
