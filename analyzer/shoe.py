"""Shoe compositions: how many cards of each rank (and suit, when known) remain.

All validation of a composition lives here, so the enumerator kernels only ever see
plain, valid int64 arrays.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from math import perm
from pathlib import Path

import numpy as np

from analyzer.cards import N_RANKS, N_SUITS, N_VALUES, RANK_VALUES, RANKS, Card, parse_card
from analyzer.errors import AnalyzerError
from analyzer.files import read_toml

#: Cards in one round at most; every round is weighted as an ordered sequence of this many.
ROUND_CARDS = 6
_INT64_MAX = 2**63 - 1


def _largest_exact_shoe() -> int:
    """Largest card count whose ordered six-card sequences still fit in int64."""
    n = ROUND_CARDS
    while perm(n + 1, ROUND_CARDS) <= _INT64_MAX:
        n += 1
    return n


#: Largest shoe the int64 kernels count exactly (1,450 cards: 27 full decks and a bit).
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
        counts = " ".join(f"{RANKS[r]}:{n}" for r, n in enumerate(self.rank_counts))
        suits = "" if self.suits_known else ", suits of some cards unknown"
        return f"{self.size} cards ({counts}{suits})"

    def remove(self, cards: Sequence[Card]) -> Shoe:
        """This shoe less ``cards``; a card without a suit makes the suits unknown."""
        ranks = self.rank_counts.copy()
        suits = None if self.suit_counts is None else self.suit_counts.copy()
        for card in cards:
            if ranks[card.rank] == 0:
                raise AnalyzerError(f"cannot remove {card}: no {RANKS[card.rank]} left in the shoe")
            if card.suit is not None and suits is not None:
                if suits[card.rank, card.suit] == 0:
                    raise AnalyzerError(f"cannot remove {card}: none left in the shoe")
                suits[card.rank, card.suit] -= 1
            elif card.suit is None:
                suits = None  # which suit left the shoe is unknown from here on
            ranks[card.rank] -= 1
        return Shoe(ranks, suits)


def shoe_from_file(path: str | Path) -> Shoe:
    """A shoe from a CSV (``rank,count``, ``card,count`` or ``rank,suit,count``) or TOML file
    (``[ranks]`` A = 32 ... or ``[cards]`` AS = 8 ...). Ranks or cards not listed count 0."""
    path = Path(path)
    if path.suffix.lower() == ".toml":
        data = read_toml(path)
        extra = set(data) - {"ranks", "cards", "description"}
        if extra or len({"ranks", "cards"} & set(data)) != 1:
            raise AnalyzerError(f"{path}: a shoe file has one table, [ranks] or [cards]")
        per_suit = "cards" in data
        entries = list((data["cards"] if per_suit else data["ranks"]).items())
    elif path.suffix.lower() == ".csv":
        entries, per_suit = _read_csv_counts(path)
    else:
        raise AnalyzerError(f"{path}: a shoe file is .csv or .toml")
    ranks = np.zeros(N_RANKS, dtype=np.int64)
    suits = np.zeros((N_RANKS, N_SUITS), dtype=np.int64)
    seen: set[tuple[int, int | None]] = set()
    for key, count in entries:
        try:
            card = parse_card(str(key), suit_required=per_suit)
        except AnalyzerError as exc:
            raise AnalyzerError(f"{path}: {exc}") from None
        if isinstance(count, bool) or not isinstance(count, int):
            raise AnalyzerError(f"{path}: count of {key} must be a whole number, got {count!r}")
        if count < 0:
            raise AnalyzerError(f"{path}: impossible shoe: count of {key} is negative")
        if (card.rank, card.suit) in seen:
            raise AnalyzerError(f"{path}: {card} is listed twice")
        seen.add((card.rank, card.suit))
        ranks[card.rank] += count
        if per_suit:
            suits[card.rank, card.suit] += count
    try:
        return Shoe(ranks, suits if per_suit else None)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{path}: {exc}") from None


def _read_csv_counts(path: Path) -> tuple[list[tuple[str, int]], bool]:
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except FileNotFoundError:
        raise AnalyzerError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise AnalyzerError(f"{path}: cannot read CSV: {exc}") from None
    if not rows:
        raise AnalyzerError(f"{path}: no rows (header rank,count or card,count expected)")
    columns = {name.strip().lower() for name in rows[0] if name}
    if columns == {"rank", "count"}:
        keys, per_suit = ["rank"], False
    elif columns == {"card", "count"}:
        keys, per_suit = ["card"], True
    elif columns == {"rank", "suit", "count"}:
        keys, per_suit = ["rank", "suit"], True
    else:
        raise AnalyzerError(f"{path}: header must be rank,count or card,count or rank,suit,count")
    entries = []
    for number, row in enumerate(rows, 2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        try:
            count = int(row["count"])
        except ValueError:
            raise AnalyzerError(
                f"{path}: line {number}: count {row['count']!r} is not a whole number"
            ) from None
        entries.append(("".join(row[k] for k in keys), count))
    return entries, per_suit
