"""Shoe compositions: how many cards of each rank (and suit, when known) remain.

All validation of a composition lives here, so the enumerator kernels only ever see
plain, valid int64 arrays.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from math import perm
from pathlib import Path

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.files import read_input, read_toml
from analyzer.game.cards import (
    N_RANKS,
    N_SUITS,
    N_VALUES,
    RANK_VALUES,
    RANKS,
    SUITS,
    Card,
    parse_card,
    parse_rank,
)
from analyzer.schema import optional_note, table, whole_number

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
#: Most full decks in a shoe that can be counted exactly.
MAX_DECKS = MAX_CARDS // 52


def check_decks(decks: object, what: str = "decks") -> int:
    """A number of full decks: a whole number from 1 to :data:`MAX_DECKS`, as a Python int."""
    if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)):
        raise AnalyzerError(f"{what} must be a whole number, got {decks!r}")
    if not 1 <= decks <= MAX_DECKS:
        raise AnalyzerError(f"{what} = {decks_problem(int(decks))}")
    return int(decks)


def decks_problem(decks: int) -> str:
    """Why a whole number of decks is refused (it is below 1 or above :data:`MAX_DECKS`)."""
    if abs(decks) < 10**30:
        shown = f"{decks:,}"
    else:  # never print thousands of digits (nor convert them: Python limits that)
        shown = f"a number of about {int(decks.bit_length() * 0.30103) + 1} digits"
    if decks < 1:
        return f"{shown}: must be at least 1"
    return (
        f"{shown} is too large: at most {MAX_DECKS} full decks (shoes of up to "
        f"{MAX_CARDS:,} cards) can be counted exactly in 64-bit integers"
    )


def card_counts(values: object, shape: tuple[int, ...], what: str = "counts") -> np.ndarray:
    """Validate counts of cards and return them as a fresh int64 array of ``shape``.

    Every check is made on the values as given (Python integers, or the array's own
    dtype) before anything becomes int64, so a huge count is refused, never wrapped:
    counts are whole numbers (not floats, booleans or NaN), none negative, none above
    :data:`MAX_CARDS`. The total is then at most 52 * MAX_CARDS, which int64 holds.
    """
    try:
        # Lists are read as Python objects: numpy would turn a list holding 2**63 into
        # floats, silently rounding every count.
        array = values if isinstance(values, np.ndarray) else np.array(values, dtype=object)
    except (ValueError, TypeError) as exc:  # ragged nesting, or objects numpy cannot hold
        raise AnalyzerError(f"{what} must be an array of whole numbers: {exc}") from None
    if array.shape != shape:
        raise AnalyzerError(f"{what} need shape {shape}, got {array.shape}")
    kind = array.dtype.kind
    if kind == "O":
        items = array.ravel().tolist()
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in items):
            raise AnalyzerError(f"{what} must be whole numbers of cards")
        low, high = (min(items), max(items)) if items else (0, 0)
    elif kind in "iu":
        low, high = (int(array.min()), int(array.max())) if array.size else (0, 0)
    elif kind == "b":
        raise AnalyzerError(f"{what} must be whole numbers of cards, not true/false")
    else:
        raise AnalyzerError(f"{what} must be whole numbers of cards, got {array.dtype} values")
    if low < 0:
        raise AnalyzerError(f"impossible shoe: a count is negative ({low})")
    if high > MAX_CARDS:
        raise AnalyzerError(
            f"impossible shoe: a count of {high} cards is more than the {MAX_CARDS:,} "
            "a shoe can hold and still be counted exactly"
        )
    return np.array(array, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Shoe:
    """A composition of cards.

    ``rank_counts[r]`` is the number of cards of rank ``r``. ``suit_counts[r, s]`` gives the
    split by suit when it is known; it is ``None`` when some cards' suits are unknown, and
    then bets that need suits cannot be computed exactly. Counts are validated as given
    (see :func:`card_counts`): floats, negative, huge or wrongly shaped counts are errors.
    """

    rank_counts: np.ndarray
    suit_counts: np.ndarray | None = None

    def __post_init__(self) -> None:
        ranks = card_counts(self.rank_counts, (N_RANKS,), "rank counts")
        suits = self.suit_counts
        if suits is not None:
            suits = card_counts(suits, (N_RANKS, N_SUITS), "suit counts")
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
                f"shoe of {size:,} cards is too large to count exactly in 64-bit integers "
                f"(at most {MAX_CARDS:,} cards, {MAX_DECKS} decks)"
            )

    @classmethod
    def standard(cls, decks: int = 8) -> Shoe:
        """``decks`` full 52-card decks."""
        check_decks(decks)
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

    @property
    def full_decks(self) -> int | None:
        """How many whole standard decks the shoe is, or None (cards dealt or removed)."""
        decks, rest = divmod(self.size, 52)
        full = self.suits_known and np.all(self.suit_counts == self.suit_counts.flat[0])
        return int(decks) if full and rest == 0 else None

    @property
    def rank_text(self) -> str:
        """The cards of each rank, ``A:32 2:31 ...``."""
        return " ".join(f"{RANKS[r]}:{n}" for r, n in enumerate(self.rank_counts))

    def describe(self) -> str:
        decks = self.full_decks
        if decks is not None:
            return f"{decks} deck{'s' if decks != 1 else ''} ({self.size} cards)"
        suits = "" if self.suits_known else ", suits of some cards unknown"
        return f"{self.size} cards ({self.rank_text}{suits})"

    def remove(self, cards: Sequence[Card]) -> Shoe:
        """This shoe less ``cards``; a card without a suit makes the suits unknown."""
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            raise AnalyzerError(f"cards to remove must be a list of Card, got {cards!r:.60}")
        if not all(isinstance(card, Card) for card in cards):
            raise AnalyzerError("cards to remove must be Card objects (see parse_cards)")
        ranks = self.rank_counts.copy()
        # Cards of a known suit are counted against the shoe's suits even after a card
        # without one: a bare A, then seven AS from two decks, is still impossible.
        suits = None if self.suit_counts is None else self.suit_counts.copy()
        suits_known = suits is not None
        for card in cards:
            if ranks[card.rank] == 0:
                raise AnalyzerError(f"cannot remove {card}: no {RANKS[card.rank]} left in the shoe")
            if card.suit is not None and suits is not None:
                if suits[card.rank, card.suit] == 0:
                    raise AnalyzerError(f"cannot remove {card}: none left in the shoe")
                suits[card.rank, card.suit] -= 1
            elif card.suit is None:
                suits_known = False  # which suit left the shoe is unknown from here on
            ranks[card.rank] -= 1
        return Shoe(ranks, suits if suits_known else None)


def shoe_from_file(path: str | Path) -> Shoe:
    """A shoe from a CSV (``rank,count``, ``card,count`` or ``rank,suit,count``) or TOML file
    (``[ranks]`` A = 32 ... or ``[cards]`` AS = 8 ...). Ranks or cards not listed count 0."""
    path = Path(path)
    if path.suffix.lower() == ".toml":
        data = read_toml(path)
        extra = set(data) - {"ranks", "cards", "description"}
        if extra or len({"ranks", "cards"} & set(data)) != 1:
            raise AnalyzerError(f"{path}: a shoe file has one table, [ranks] or [cards]")
        optional_note(data, "description", str(path))
        per_suit = "cards" in data
        key = "cards" if per_suit else "ranks"
        example = "AS = 8" if per_suit else "A = 32"
        counts = table(data[key], str(path), f"[{key}] (counts, e.g. {example})")
        entries = list(counts.items())
    elif path.suffix.lower() == ".csv":
        entries, per_suit = _read_csv_counts(path)
    else:
        raise AnalyzerError(f"{path}: a shoe file is .csv or .toml")
    ranks = [0] * N_RANKS
    suits = [[0] * N_SUITS for _ in range(N_RANKS)]
    seen: set[tuple[int, int | None]] = set()
    for key, count in entries:
        try:
            card = parse_card(str(key)) if per_suit else Card(parse_rank(str(key)))
        except AnalyzerError as exc:
            reason = str(exc)
            if not per_suit and _is_card(str(key)):
                reason = f"{key} is a card: counts per rank name ranks only (A, 2-9, ...)"
            raise AnalyzerError(f"{path}: {reason}") from None
        if isinstance(count, int) and count < 0:
            raise AnalyzerError(f"{path}: impossible shoe: count of {key} is negative")
        whole_number(count, str(path), f"count of {key}", 0, MAX_CARDS)
        if (card.rank, card.suit) in seen:
            raise AnalyzerError(f"{path}: {card} is listed twice")
        seen.add((card.rank, card.suit))
        ranks[card.rank] += count
        if per_suit:
            suits[card.rank][card.suit] += count
    try:
        return Shoe(ranks, suits if per_suit else None)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{path}: {exc}") from None


def _is_card(text: str) -> bool:
    try:
        return parse_card(text).suit is not None
    except AnalyzerError:
        return False


#: Digits a count in a CSV file may have (more is refused before it is read as a number).
_MAX_COUNT_DIGITS = 12


def _read_csv_counts(path: Path) -> tuple[list[tuple[str, int]], bool]:
    try:
        # utf-8-sig: a byte-order mark, as spreadsheet programs write, is not a header.
        text = read_input(path).decode("utf-8-sig")
        rows = [row for row in csv.reader(io.StringIO(text, newline=""), strict=True) if row]
    except UnicodeDecodeError:
        raise AnalyzerError(f"{path}: cannot read CSV: not UTF-8 text") from None
    except csv.Error as exc:
        raise AnalyzerError(f"{path}: malformed CSV: {exc}") from None
    if not rows:
        raise AnalyzerError(f"{path}: no rows (header rank,count or card,count expected)")
    header = [name.strip().lower() for name in rows[0]]
    if sorted(header) == ["count", "rank"]:
        keys, per_suit = ["rank"], False
    elif sorted(header) == ["card", "count"]:
        keys, per_suit = ["card"], True
    elif sorted(header) == ["count", "rank", "suit"]:
        keys, per_suit = ["rank", "suit"], True
    else:
        raise AnalyzerError(f"{path}: header must be rank,count or card,count or rank,suit,count")
    entries = []
    for number, fields in enumerate(rows[1:], 2):
        if len(fields) != len(header):
            raise AnalyzerError(
                f"{path}: line {number}: {len(fields)} fields, the header has {len(header)}"
            )
        row = dict(zip(header, (field.strip() for field in fields), strict=True))
        text = row["count"]
        if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
            raise AnalyzerError(f"{path}: line {number}: impossible shoe: count {text} is negative")
        if not (text.isascii() and text.isdigit()):
            raise AnalyzerError(f"{path}: line {number}: count {text!r} is not a whole number")
        if len(text) > _MAX_COUNT_DIGITS:
            raise AnalyzerError(
                f"{path}: line {number}: count {text[:20]}... is more than {MAX_CARDS:,} cards"
            )
        if keys == ["rank", "suit"]:  # each in its own column: "AS" and "" is no card
            try:
                parse_rank(row["rank"])
            except AnalyzerError as exc:
                raise AnalyzerError(f"{path}: line {number}: {exc}") from None
            if row["suit"].upper() not in SUITS:
                raise AnalyzerError(
                    f"{path}: line {number}: suit {row['suit'][:20]!r} must be one of "
                    f"{', '.join(SUITS)}"
                )
        entries.append(("".join(row[k] for k in keys), int(text)))
    return entries, per_suit
