"""The drawing rules of the game as data, and one round played from given cards.

The whole third-card rule is one table, :data:`THIRD_CARD`, built here from the rules as
written (the Player's draw on 0-5, the Banker's table, naturals). The enumerator, the
compiled walk, the dealer and ``play`` all read it and nothing else::

    THIRD_CARD[player2, banker2, PLAYER_DRAWS]   does the Player draw a third card?
    THIRD_CARD[player2, banker2, x]              does the Banker draw, after the
                                                 Player's third card of value x (0-9)?
    THIRD_CARD[player2, banker2, PLAYER_STOOD]   does the Banker draw, the Player standing?

with ``player2``/``banker2`` the two-card scores. Kernels take the table as an argument
(a global would be frozen into Numba's on-disk cache).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.game.cards import Card
from analyzer.schema import sequence_of

#: Two-card scores that make a natural: nobody draws.
NATURAL_SCORES = (8, 9)

#: The Player draws on a two-card 0-5 and stands on 6-7.
PLAYER_DRAWS_ON = range(0, 6)

#: The Banker's table: Banker two-card score -> point values of the Player's third card on
#: which the Banker draws (on 0-2 always; on 7 never). When the Player stood, the Banker
#: draws on 0-5 like the Player would.
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

#: Columns of THIRD_CARD beside the Player's third-card values 0-9.
PLAYER_STOOD = 10
PLAYER_DRAWS = 11


def _third_card_table() -> np.ndarray:
    table = np.zeros((10, 10, 12), dtype=np.bool_)
    for player2 in range(10):
        for banker2 in range(10):
            if player2 in NATURAL_SCORES or banker2 in NATURAL_SCORES:
                continue  # a natural: nobody draws
            decision = table[player2, banker2]
            decision[PLAYER_DRAWS] = player2 in PLAYER_DRAWS_ON
            decision[list(BANKER_DRAWS_ON[banker2])] = True
            decision[PLAYER_STOOD] = banker2 in PLAYER_DRAWS_ON
    return table


#: The third-card rule: see the module docstring.
THIRD_CARD: np.ndarray = _third_card_table()
THIRD_CARD.setflags(write=False)


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
    rule = THIRD_CARD[hand_score(cards[0:3:2]), hand_score(cards[1:4:2])]
    if rule[PLAYER_DRAWS]:
        if len(cards) < 5:
            return 5
        return 6 if rule[cards[4].value] else 5
    return 5 if rule[PLAYER_STOOD] else 4


def deal_round(cards: Sequence[Card]) -> Round:
    """Play one round from cards in deal order: P, B, P, B, then third cards as required."""
    cards = sequence_of(cards, Card, "cards", "Card objects", " (see parse_cards)")
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
    rule = THIRD_CARD[player2, banker2]
    if is_natural(player2) or is_natural(banker2):
        naturals = [
            f"{name} {score}"
            for name, score in (("Player", player2), ("Banker", banker2))
            if is_natural(score)
        ]
        reason = f"natural ({' and '.join(naturals)}): no one draws"
        return Round(tuple(player), tuple(banker), reason, reason)
    rest = list(cards[4:])
    if rule[PLAYER_DRAWS]:
        player.append(rest.pop(0))
        player_reason = f"Player has {player2} (0-5): draws {player[2]}"
        third = player[2].value
        if rule[third]:
            banker.append(rest.pop(0))
            banker_reason = (
                f"Banker has {banker2} and Player's third card is worth {third}: draws {banker[2]}"
            )
        else:
            banker_reason = f"Banker has {banker2} and Player's third card is worth {third}: stands"
    else:
        player_reason = f"Player has {player2} (6-7): stands"
        if rule[PLAYER_STOOD]:
            banker.append(rest.pop(0))
            banker_reason = f"Player stood and Banker has {banker2} (0-5): draws {banker[2]}"
        else:
            banker_reason = f"Player stood and Banker has {banker2} (6-7): stands"
    return Round(tuple(player), tuple(banker), player_reason, banker_reason)
