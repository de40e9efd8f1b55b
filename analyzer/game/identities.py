"""Card identities: which of a round's cards are the same card (rank and suit).

A multiplier game draws a few card identities ("the 7 of Spades") each round and pays a
bet by the multipliers of the identities among its *counted cards* (whose cards count is
the bet's ``multiply``, one of :data:`MULTIPLY_KINDS`). What a round's counted cards
contribute depends only on their *identity pattern*: how many distinct identities they
hold and how many copies of each (a shoe of several decks can deal the same card twice).
A pattern is a tuple of copy counts, largest first: ``(1, 1, 1)`` for three different
cards, ``(2, 1)`` when two of them are the same card, ``()`` when no card counts.

This module defines the patterns once (:data:`IDENTITY_PATTERNS`, indexed as every
kernel indexes them), how two patterns of disjoint cards combine
(:data:`PATTERN_UNION`), and which cards of a round each kind counts.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np

from analyzer.game.shoe import ROUND_CARDS

#: Whose cards a multiplied bet counts: the winning hand's (none on a tie), both hands',
#: one hand's, or one hand's first two cards.
MULTIPLY_KINDS: tuple[str, ...] = (
    "winner",
    "both",
    "player",
    "banker",
    "player_first_two",
    "banker_first_two",
)
#: The kinds the identity walk counts (the first-two kinds are pair states of the pair
#: enumerator), by the code the kernel takes.
WALKED_KINDS: tuple[str, ...] = ("player", "banker", "both", "winner")
#: The kinds that count one hand's first two cards.
FIRST_TWO_KINDS: tuple[str, ...] = ("player_first_two", "banker_first_two")
#: The most cards each kind can count.
KIND_CARDS: dict[str, int] = {
    "winner": 3,
    "both": 6,
    "player": 3,
    "banker": 3,
    "player_first_two": 2,
    "banker_first_two": 2,
}


def _partitions(n: int) -> list[tuple[int, ...]]:
    """Every way to write ``n`` as a sum of positive parts, largest first."""
    out: list[tuple[int, ...]] = []

    def split(left: int, largest: int, parts: tuple[int, ...]) -> None:
        if left == 0:
            out.append(parts)
            return
        for part in range(min(left, largest), 0, -1):
            split(left - part, part, (*parts, part))

    split(n, n, ())
    return out


#: Every identity pattern of up to six cards, by size then as :func:`_partitions` lists
#: them: index 0 is ``()`` (no card counted).
IDENTITY_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    p for n in range(ROUND_CARDS + 1) for p in _partitions(n)
)
N_PATTERNS = len(IDENTITY_PATTERNS)
PATTERN_INDEX: dict[tuple[int, ...], int] = {p: i for i, p in enumerate(IDENTITY_PATTERNS)}
#: The pattern of two sets of cards that share no identity (cards of different point
#: values): ``PATTERN_UNION[i, j]``, or -1 where they hold more than six cards.
PATTERN_UNION: np.ndarray = np.full((N_PATTERNS, N_PATTERNS), -1, dtype=np.int64)
for _i, _p in enumerate(IDENTITY_PATTERNS):
    for _j, _q in enumerate(IDENTITY_PATTERNS):
        if sum(_p) + sum(_q) <= ROUND_CARDS:
            PATTERN_UNION[_i, _j] = PATTERN_INDEX[tuple(sorted(_p + _q, reverse=True))]
PATTERN_UNION.setflags(write=False)


def pattern_text(pattern: tuple[int, ...]) -> str:
    """``2+1`` (copies of each identity), ``-`` for no counted card."""
    return "+".join(map(str, pattern)) if pattern else "-"


def identity_pattern(cards: list[tuple[int, int]]) -> tuple[int, ...]:
    """The pattern of some concrete cards, each a (rank, suit)."""
    return tuple(sorted(Counter(cards).values(), reverse=True))


def _set_partitions(n: int) -> list[list[int]]:
    """Every set partition of ``range(n)``, each as its block labels (restricted growth)."""
    out: list[list[int]] = [[]]
    for _ in range(n):
        out = [[*labels, b] for labels in out for b in range(max(labels, default=-1) + 2)]
    return out


@cache
def group_patterns(cards: int, counted: int) -> tuple[tuple[int, int, int], ...]:
    """How ``cards`` cards of one point value can share identities, and what the first
    ``counted`` of them show: ``(full pattern index, counted pattern index, ways)`` for
    every pair of patterns, ``ways`` the set partitions of the cards giving both.

    The cards of one value are exchangeable, so which of them are counted does not
    matter, only how many.
    """
    tally: Counter[tuple[int, int]] = Counter()
    for labels in _set_partitions(cards):
        full = tuple(sorted(Counter(labels).values(), reverse=True))
        shown = tuple(sorted(Counter(labels[:counted]).values(), reverse=True))
        tally[PATTERN_INDEX[full], PATTERN_INDEX[shown]] += 1
    return tuple((full, shown, ways) for (full, shown), ways in sorted(tally.items()))


def counted_hands(kind: str, winner: str) -> tuple[bool, bool]:
    """Does a bet multiplied by ``kind`` count the Player's cards, and the Banker's, in
    a round ``winner`` wins (the first-two kinds: their hand's first two cards)?"""
    if kind == "winner":
        return winner == "player", winner == "banker"
    if kind == "both":
        return True, True
    return kind.startswith("player"), kind.startswith("banker")


def counted_cards(
    kind: str, player: list[tuple[int, int]], banker: list[tuple[int, int]], winner: str
) -> list[tuple[int, int]]:
    """The cards (rank, suit) of a dealt round that a bet multiplied by ``kind`` counts."""
    with_player, with_banker = counted_hands(kind, winner)
    hands = [hand for hand, counted in ((player, with_player), (banker, with_banker)) if counted]
    if kind.endswith("first_two"):
        hands = [hand[:2] for hand in hands]
    return [card for hand in hands for card in hand]


#: Which of a round's cards, in :data:`analyzer.game.fields.CARDS` order (P1 B1 P2 B2 P3
#: B3), are the Player's, and which are a hand's first two.
_PLAYER_CARD = np.array([True, False, True, False, True, False])
_FIRST_TWO = np.array([True, True, True, True, False, False])


def counted_mask(kind: str, winner: np.ndarray, dealt: np.ndarray) -> np.ndarray:
    """Per dealt round (``winner`` text per round, ``dealt`` bool (n, 6) in CARDS order),
    which of its cards a bet multiplied by ``kind`` counts."""
    if kind == "winner":
        with_player = (winner == "player")[:, None]
        with_banker = (winner == "banker")[:, None]
    else:
        with_player = np.full((len(winner), 1), kind == "both" or kind.startswith("player"))
        with_banker = np.full((len(winner), 1), kind == "both" or kind.startswith("banker"))
    mask = (with_player & _PLAYER_CARD) | (with_banker & ~_PLAYER_CARD)
    if kind.endswith("first_two"):
        mask &= _FIRST_TWO
    return mask & dealt
