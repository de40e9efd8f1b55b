"""Shoe compositions: how many cards of each rank (and suit, when known) remain.

All validation of a composition lives here, so the enumerator kernels only ever see
plain, valid int64 arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import perm

import numpy as np

from analyzer.cards import N_RANKS, N_SUITS, N_VALUES, RANK_VALUES
from analyzer.errors import AnalyzerError

#: Cards in one round at most; every round is weighted as an ordered sequence of this many.
ROUND_CARDS = 6
_INT64_MAX = 2**63 - 1


def _largest_exact_shoe() -> int:
    """Largest card count whose ordered six-card sequences still fit in int64."""
    n = ROUND_CARDS
    while perm(n + 1, ROUND_CARDS) <= _INT64_MAX:
        n += 1
    return n


#: Largest shoe the int64 kernels count exactly (1,448 cards: 27 full decks and a bit).
MAX_CARDS = _largest_exact_shoe()


@dataclass(frozen=True, eq=False)
class Shoe:
    """A composition of cards.

    ``rank_counts[r]`` is the number of cards of rank ``r``. ``suit_counts[r, s]`` gives the
    split by suit when it is known; it is ``None`` when some cards' suits are unknown, and
    then bets that need suits cannot be computed exactly.
    """

    rank_counts: np.ndarray
    suit_counts: np.ndarray | None = None

    def __post_init__(self) -> None:
        ranks = np.asarray(self.rank_counts, dtype=np.int64).copy()
        if ranks.shape != (N_RANKS,):
            raise AnalyzerError(f"a shoe needs {N_RANKS} rank counts, got shape {ranks.shape}")
        if (ranks < 0).any():
            raise AnalyzerError("impossible shoe: a rank count is negative")
        suits = self.suit_counts
        if suits is not None:
            suits = np.asarray(suits, dtype=np.int64).copy()
            if suits.shape != (N_RANKS, N_SUITS):
                raise AnalyzerError(f"suit counts need shape (13, 4), got {suits.shape}")
            if (suits < 0).any():
                raise AnalyzerError("impossible shoe: a card count is negative")
            if not np.array_equal(suits.sum(axis=1), ranks):
                raise AnalyzerError("inconsistent shoe: suit counts do not add up to rank counts")
            suits.setflags(write=False)
        ranks.setflags(write=False)
        object.__setattr__(self, "rank_counts", ranks)
        object.__setattr__(self, "suit_counts", suits)
        size = self.size
        if size < ROUND_CARDS:
            raise AnalyzerError(
                f"impossible shoe: {size} cards left, a round may need {ROUND_CARDS}"
            )
        if size > MAX_CARDS:
            raise AnalyzerError(
                f"shoe of {size} cards is too large to count exactly in 64-bit integers "
                f"(at most {MAX_CARDS} cards)"
            )

    @classmethod
    def standard(cls, decks: int = 8) -> Shoe:
        """``decks`` full 52-card decks."""
        if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)):
            raise AnalyzerError(f"decks must be a whole number, got {decks!r}")
        if decks < 1:
            raise AnalyzerError(f"decks must be at least 1, got {decks}")
        return cls(
            np.full(N_RANKS, N_SUITS * decks, dtype=np.int64),
            np.full((N_RANKS, N_SUITS), decks, dtype=np.int64),
        )

    @property
    def size(self) -> int:
        return int(self.rank_counts.sum())

    @property
    def suits_known(self) -> bool:
        return self.suit_counts is not None

    @property
    def value_counts(self) -> np.ndarray:
        """Cards per point value 0..9."""
        out = np.zeros(N_VALUES, dtype=np.int64)
        np.add.at(out, RANK_VALUES, self.rank_counts)
        return out

    @property
    def rounds_denominator(self) -> int:
        """N(N-1)...(N-5): the common denominator of every count."""
        return perm(self.size, ROUND_CARDS)

    def describe(self) -> str:
        decks, rest = divmod(self.size, 52)
        full = self.suits_known and np.all(self.suit_counts == self.suit_counts.flat[0])
        if full and rest == 0:
            return f"{decks} deck{'s' if decks != 1 else ''} ({self.size} cards)"
        return f"{self.size} cards"
