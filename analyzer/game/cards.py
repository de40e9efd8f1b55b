"""Cards: notation, ranks, suits and point values, and the one card encoding.

A card is written rank then suit, case-insensitive: ``AS 10H TD KC 9d``. Ranks are
``A 2-9 10 (or T) J Q K``; suits ``S H D C``. Internally a rank is an index 0..12
(A, 2, ..., 9, 10, J, Q, K) and a suit an index 0..3 (S, H, D, C); a card of a deck is
the index ``rank * 4 + suit`` (0..51, rank major: AS AH AD AC 2S ...), whose rank, suit
and point value :data:`CARD_RANKS`, :data:`CARD_SUITS` and :data:`CARD_VALUES` give (plain
arrays, which the kernels index too).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.schema import argument, sequence_of

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
N_RANKS = len(RANKS)
N_SUITS = len(SUITS)
N_VALUES = 10

#: Point value of each rank index: Ace 1, 2-9 face value, 10/J/Q/K 0.
RANK_VALUES: np.ndarray = np.array([min(r + 1, 10) % 10 for r in range(N_RANKS)], dtype=np.int64)
RANK_VALUES.setflags(write=False)

#: Cards of one deck; a card's index is ``card_index(rank, suit)``.
N_CARDS = N_RANKS * N_SUITS
#: The rank, suit and point value of each card index 0..51.
CARD_RANKS: np.ndarray = np.repeat(np.arange(N_RANKS, dtype=np.int64), N_SUITS)
CARD_SUITS: np.ndarray = np.tile(np.arange(N_SUITS, dtype=np.int64), N_RANKS)
CARD_VALUES: np.ndarray = RANK_VALUES[CARD_RANKS]
for _table in (CARD_RANKS, CARD_SUITS, CARD_VALUES):
    _table.setflags(write=False)


def card_index(rank: int, suit: int) -> int:
    """The index 0..51 of the card of ``rank`` (0..12) and ``suit`` (0..3)."""
    return rank * N_SUITS + suit


def card_of_index(index: int) -> tuple[int, int]:
    """The (rank, suit) of a card index 0..51."""
    return divmod(int(index), N_SUITS)


_RANK_ALIASES = {name: i for i, name in enumerate(RANKS)} | {"T": 9, "1": 0}
_SUIT_INDEX = {name: i for i, name in enumerate(SUITS)}


@dataclass(frozen=True, slots=True)
class Card:
    """One card; ``suit`` is ``None`` when only the rank is known."""

    rank: int
    suit: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.rank, bool) or not isinstance(self.rank, int):
            raise AnalyzerError(f"a card's rank is an index 0-12, got {self.rank!r}")
        if not 0 <= self.rank < N_RANKS:
            raise AnalyzerError(f"a card's rank is an index 0-12, got {self.rank}")
        if self.suit is not None and (
            isinstance(self.suit, bool)
            or not isinstance(self.suit, int)
            or not 0 <= self.suit < N_SUITS
        ):
            raise AnalyzerError(f"a card's suit is an index 0-3 or None, got {self.suit!r}")

    @property
    def value(self) -> int:
        """Point value 0..9."""
        return int(RANK_VALUES[self.rank])

    def __str__(self) -> str:
        return RANKS[self.rank] + ("" if self.suit is None else SUITS[self.suit])


def parse_rank(text: str) -> int:
    """Rank index of ``A 2..9 10 T J Q K`` (case-insensitive)."""
    try:
        if not text.isascii():
            raise KeyError(text)
        return _RANK_ALIASES[text.strip().upper()]
    except (KeyError, AttributeError):
        raise AnalyzerError(f"unknown rank {text!r}: use A, 2-9, 10 (or T), J, Q or K") from None


def parse_card(text: str, *, suit_required: bool = True) -> Card:
    """Parse one card such as ``AS``, ``10h``, ``TD``; a bare rank when ``suit_required`` is off."""
    argument(text, str, "a card", " (e.g. 'AS')")
    token = text.strip().upper()
    if not token:
        raise AnalyzerError("empty card")
    if not text.isascii():  # the long s upper-cases to S: only the notation's letters count
        raise AnalyzerError(
            f"unknown card {text!r}: write rank then suit, e.g. AS, 10H, TD, KC (suits S H D C)"
        )
    if token[-1] in _SUIT_INDEX and len(token) >= 2:
        rank_text, suit = token[:-1], _SUIT_INDEX[token[-1]]
    elif suit_required:
        raise AnalyzerError(
            f"unknown card {text!r}: write rank then suit, e.g. AS, 10H, TD, KC (suits S H D C)"
        )
    else:
        rank_text, suit = token, None
    if rank_text not in _RANK_ALIASES:
        raise AnalyzerError(f"unknown card {text!r}: rank must be A, 2-9, 10 (or T), J, Q or K")
    return Card(_RANK_ALIASES[rank_text], suit)


def parse_cards(
    texts: str | list[str] | tuple[str, ...], *, suit_required: bool = True
) -> list[Card]:
    """Parse cards separated by spaces or commas (a string) or given as a list of tokens."""
    if isinstance(texts, str):
        texts = [texts]
    texts = sequence_of(texts, str, "cards", "card names", " (e.g. 'AS 10H' or ['AS', '10H'])")
    tokens = [tok for text in texts for tok in text.replace(",", " ").split()]
    return [parse_card(tok, suit_required=suit_required) for tok in tokens]
