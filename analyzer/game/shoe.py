"""Shoe compositions: how many cards of each rank (and suit, when known) remain.

All validation of a composition lives here, so the enumerator kernels only ever see
plain, valid int64 arrays.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Sequence
from functools import cached_property, lru_cache
from math import perm
from pathlib import Path, PurePath

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
    card_index,
    card_of_index,
    parse_card,
    parse_rank,
)
from analyzer.records import record
from analyzer.schema import argument, described, optional_note, table, whole_number
from analyzer.words import counted

#: Cards in one round at most; every round is weighted as an ordered sequence of this many.
ROUND_CARDS = 6
_INT64_MAX = 2**63 - 1


def _largest_exact_shoe() -> int:
    """Largest card count whose ordered six-card sequences still fit in int64."""
    # (up from the limit's sixth root, a few steps below the answer: counting up from six
    # took every start 1,400 products)
    n = int(_INT64_MAX ** (1 / ROUND_CARDS))
    while perm(n + 1, ROUND_CARDS) <= _INT64_MAX:
        n += 1
    while perm(n, ROUND_CARDS) > _INT64_MAX:  # (never, unless the root was rounded up)
        n -= 1
    return n


#: Largest shoe the int64 kernels count exactly (1,450 cards: 27 full decks and a bit).
MAX_CARDS = _largest_exact_shoe()
#: Most full decks in a shoe that can be counted exactly.
MAX_DECKS = MAX_CARDS // 52


#: The number of decks of the infinite deck: cards dealt with replacement.
INFINITE = "inf"
#: How a number of decks is given: 1 to :data:`MAX_DECKS`, or :data:`INFINITE`.
Decks = int | str


def check_decks(decks: object, what: str = "decks", infinite: bool = True) -> Decks:
    """A number of full decks: a whole number from 1 to :data:`MAX_DECKS`, as a Python int,
    or ``"inf"`` (``infinite``: where an infinite deck is meaningful)."""
    if infinite and isinstance(decks, str) and decks.strip().lower() in ("inf", "infinite"):
        return INFINITE
    if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)):
        also = ' or "inf" (an infinite deck)' if infinite else ""
        raise AnalyzerError(f"{what} must be a whole number{also}, got {decks!r:.40}")
    if not 1 <= decks <= MAX_DECKS:
        raise AnalyzerError(f"{what} = {decks_problem(int(decks))}")
    return int(decks)


def shown_number(number: int) -> str:
    """A whole number for a message: ``1,450``, or its size when it is huge."""
    if abs(number) < 10**30:
        return f"{number:,}"
    # Never print thousands of digits (nor convert them: Python limits that).
    return f"a number of about {int(number.bit_length() * 0.30103) + 1} digits"


def decks_problem(decks: int) -> str:
    """Why a whole number of decks is refused (it is below 1 or above :data:`MAX_DECKS`)."""
    shown = shown_number(decks)
    if decks < 1:
        return f"{shown}: must be at least 1"
    return (
        f"{shown} is too large: at most {MAX_DECKS} full decks (shoes of up to "
        f"{MAX_CARDS:,} cards) can be counted exactly in 64-bit integers"
    )


_MASKED = (
    "masked arrays are not accepted: the values under the mask would be counted (give "
    "the counts themselves, e.g. array.filled(0))"
)


def _masked(values: object, depth: int = 2) -> bool:
    """Is ``values`` a masked array, or a list holding one (rows, at most two levels down:
    deeper nesting is refused by its shape)?"""
    # A masked array exists only once numpy.ma is imported: not importing it for the
    # check keeps play's start-up short.
    masked = sys.modules.get("numpy.ma")
    if masked is not None and isinstance(values, masked.MaskedArray):
        return True
    return (
        depth > 0
        and isinstance(values, (list, tuple))
        and any(_masked(item, depth - 1) for item in values)
    )


def counts_as_given(values: object, what: str) -> np.ndarray:
    """``values`` as an array of the numbers given, none converted yet.

    An ndarray is taken as it is (a subclass such as ``numpy.matrix`` as a plain array);
    anything else is read as Python objects: numpy would turn a list holding 2**63 into
    floats, silently rounding every count. A masked array (or a list of them) is refused:
    converting it shows the values it hides, as if they were counts.
    """
    if _masked(values):
        raise AnalyzerError(f"{what}: {_MASKED}")
    try:
        if isinstance(values, np.ndarray):
            return np.asarray(values)
        return np.array(values, dtype=object)
    except (ValueError, TypeError) as exc:  # ragged nesting, or objects numpy cannot hold
        raise AnalyzerError(f"{what} must be an array of whole numbers: {exc}") from None


def _item(value: object) -> object:
    return value.item() if isinstance(value, np.generic) else value


def whole_counts(
    array: np.ndarray, what: str, place: Callable[[tuple[int, ...]], str]
) -> np.ndarray:
    """``array`` (from :func:`counts_as_given`) as int64, once every count is checked as
    given, so a huge count is refused, never wrapped: counts are whole numbers (not floats,
    booleans, NaN or strings), none negative, none above :data:`MAX_CARDS`. ``place``
    names an entry by its index (``"rank A"``, ``"row 0, card AS"``) for the message.
    A total of such counts is at most 52 * MAX_CARDS per shoe, which int64 holds.
    """
    kind = array.dtype.kind
    if kind == "O":
        items = array.ravel().tolist()
        whole = [isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in items]
        if not all(whole):
            first = whole.index(False)
            raise _not_whole(array, first, items[first], what, place)
        low = min(range(len(items)), key=items.__getitem__, default=None)
        high = max(range(len(items)), key=items.__getitem__, default=None)
    elif kind in "iu":
        low = int(array.argmin()) if array.size else None
        high = int(array.argmax()) if array.size else None
    else:
        raise _not_whole(array, 0, array.flat[0] if array.size else None, what, place)
    flat = array.ravel()
    if low is not None and flat[low] < 0:
        shown = shown_number(int(flat[low]))
        raise AnalyzerError(
            f"impossible shoe: a count is negative ({_at(array, low, place)}: {shown})"
        )
    if high is not None and flat[high] > MAX_CARDS:
        shown = shown_number(int(flat[high]))
        raise AnalyzerError(
            f"impossible shoe: a count is more than {MAX_CARDS:,} cards, the most a shoe can "
            f"hold and still be counted exactly ({_at(array, high, place)}: {shown})"
        )
    return array.astype(np.int64, copy=False)


def _at(array: np.ndarray, flat_index: int, place: Callable[[tuple[int, ...]], str]) -> str:
    return place(tuple(int(i) for i in np.unravel_index(flat_index, array.shape)))


def _not_whole(
    array: np.ndarray,
    flat_index: int,
    value: object,
    what: str,
    place: Callable[[tuple[int, ...]], str],
) -> AnalyzerError:
    """The error for a count that is not a whole number (the first one, or any entry of an
    array whose dtype holds no whole numbers)."""
    value = _item(value)
    if isinstance(value, bool):
        shown = f"{value} (true/false, not a number)"
    elif isinstance(value, int):  # a whole number in an array of floats, say
        shown = shown_number(value)
    elif value is None or isinstance(value, (float, str)):
        shown = f"{value!r:.40}"
    else:
        shown = described(value)
    kind = "" if array.dtype.kind == "O" else f", got {array.dtype} values"
    where = f" ({_at(array, flat_index, place)} is {shown})" if array.size else ""
    return AnalyzerError(f"{what} must be whole numbers of cards{kind}{where}")


def card_counts(
    values: object,
    shape: tuple[int, ...],
    what: str,
    place: Callable[[tuple[int, ...]], str],
) -> np.ndarray:
    """Validate counts of cards (:func:`whole_counts`) and return them as a fresh int64
    array of ``shape``."""
    array = counts_as_given(values, what)
    if array.shape != shape:
        raise AnalyzerError(f"{what} need shape {shape}, got {array.shape}")
    return np.array(whole_counts(array, what, place), dtype=np.int64)


def count_name(column: int, per_card: bool) -> str:
    """What one count of a composition counts: ``rank A`` (counts per rank) or ``card AS``
    (counts per card, rank major: AS AH AD AC 2S ...)."""
    if per_card:
        rank, suit = card_of_index(column)
        return f"card {RANKS[rank]}{SUITS[suit]}"
    return f"rank {RANKS[column]}"


@record(eq=False)
class Shoe:
    """A composition of cards.

    ``rank_counts[r]`` is the number of cards of rank ``r``. ``suit_counts[r, s]`` gives the
    split by suit when it is known; it is ``None`` when some cards' suits are unknown, and
    then bets that need suits cannot be computed exactly. Counts are validated as given
    (see :func:`card_counts`): floats, negative, huge, masked or wrongly shaped counts are
    errors. The counts are read-only, in copies and unpickled shoes too.
    """

    rank_counts: np.ndarray
    suit_counts: np.ndarray | None = None
    #: Cards dealt with replacement (:meth:`infinite`): a card dealt stays in the shoe.
    replacement: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.replacement, bool):
            raise AnalyzerError(f"replacement must be true or false, got {self.replacement!r}")
        ranks = card_counts(
            self.rank_counts, (N_RANKS,), "rank counts", lambda i: count_name(i[0], False)
        )
        suits = self.suit_counts
        if suits is not None:
            suits = card_counts(
                suits,
                (N_RANKS, N_SUITS),
                "suit counts",
                lambda i: count_name(card_index(i[0], i[1]), True),
            )
            if not np.array_equal(suits.sum(axis=1), ranks):
                raise AnalyzerError("inconsistent shoe: suit counts do not add up to rank counts")
            suits.setflags(write=False)
        ranks.setflags(write=False)
        object.__setattr__(self, "rank_counts", ranks)
        object.__setattr__(self, "suit_counts", suits)
        size = self.size
        if size < (1 if self.replacement else ROUND_CARDS):
            raise AnalyzerError(
                f"impossible shoe: {size} cards left, a round may need {ROUND_CARDS}"
            )
        if size > MAX_CARDS:
            raise AnalyzerError(
                f"shoe of {size:,} cards is too large to count exactly in 64-bit integers "
                f"(at most {MAX_CARDS:,} cards, {MAX_DECKS} decks)"
            )

    def __reduce__(self) -> tuple:
        # Pickles and copies are built again through the constructor: validated, and with
        # read-only counts (pickle's default would restore writable arrays as they are).
        return (type(self), (self.rank_counts, self.suit_counts, self.replacement))

    @classmethod
    def standard(cls, decks: Decks = 8) -> Shoe:
        """``decks`` full 52-card decks (``"inf"``: the infinite deck)."""
        checked = check_decks(decks)
        if checked == INFINITE:
            return cls.infinite()
        return _standard(cls, checked)

    @classmethod
    def infinite(cls) -> Shoe:
        """The infinite deck: one 52-card deck dealt with replacement, so that every card
        has probability 1/52 whatever was dealt (each point value 1/13, ten-values 4/13):
        the reference that shoes of more and more decks approach."""
        return cls(
            np.full(N_RANKS, N_SUITS, dtype=np.int64),
            np.ones((N_RANKS, N_SUITS), dtype=np.int64),
            replacement=True,
        )

    def in_lowest_terms(self, suits: bool) -> Shoe:
        """This shoe, or where cards are dealt with replacement the same shoe with its
        counts divided by their greatest common divisor: the same probabilities over the
        smallest denominator (the infinite deck by rank: one card of each rank, 13^6
        sequences; by suit, where ``suits`` matter: the 52 cards, 52^6)."""
        if not self.replacement:
            return self
        if suits and self.suits_known:
            divisor = int(np.gcd.reduce(self.suit_counts[self.suit_counts > 0]))
            return Shoe(self.rank_counts // divisor, self.suit_counts // divisor, True)
        divisor = int(np.gcd.reduce(self.rank_counts[self.rank_counts > 0]))
        return Shoe(self.rank_counts // divisor, None, True)

    @property
    def take(self) -> int:
        """How many of a card's count a kernel takes when it deals one: 1, or 0 with
        replacement."""
        return 0 if self.replacement else 1

    @cached_property  # (the counts are read-only: it never changes)
    def decks(self) -> Decks | None:
        """Its number of full decks (``"inf"`` for the infinite deck), or None."""
        return INFINITE if self.replacement and self.full_decks_dealt == 1 else self.full_decks

    @cached_property
    def size(self) -> int:
        """How many cards the shoe holds."""
        return int(self.rank_counts.sum())

    @property
    def suits_known(self) -> bool:
        """Whether the suit of every card in the shoe is known."""
        return self.suit_counts is not None

    @property
    def value_counts(self) -> np.ndarray:
        """Cards per point value 0..9 (a new array each time: the caller's to change)."""
        return self._value_counts.copy()

    @cached_property
    def _value_counts(self) -> np.ndarray:
        out = np.zeros(N_VALUES, dtype=np.int64)
        np.add.at(out, RANK_VALUES, self.rank_counts)
        return out

    @cached_property
    def rounds_denominator(self) -> int:
        """N(N-1)...(N-5), or N^6 with replacement: the common denominator of every count."""
        return self.sequences(ROUND_CARDS)

    def sequences(self, cards: int) -> int:
        """The ordered sequences of ``cards`` cards the shoe deals: N(N-1)...(N-cards+1),
        or N^cards with replacement."""
        return self.size**cards if self.replacement else perm(self.size, cards)

    @cached_property
    def full_decks_dealt(self) -> int | None:
        """How many whole standard decks the cards are, or None (cards dealt or removed)."""
        decks, rest = divmod(self.size, 52)
        full = self.suits_known and np.all(self.suit_counts == self.suit_counts.flat[0])
        return int(decks) if full and rest == 0 else None

    @property
    def full_decks(self) -> int | None:
        """How many whole standard decks the shoe is, or None (cards dealt or removed, or
        cards dealt with replacement: no number of decks)."""
        return None if self.replacement else self.full_decks_dealt

    @property
    def rank_text(self) -> str:
        """The cards of each rank, ``A:32 2:31 ...``."""
        return " ".join(f"{RANKS[r]}:{n}" for r, n in enumerate(self.rank_counts))

    def describe(self) -> str:
        """The shoe in words, as reports print it ("8 decks", "416 cards, ...")."""
        if self.replacement:
            if self.decks == INFINITE:
                return "an infinite deck (cards dealt with replacement)"
            return f"{self.size} cards dealt with replacement ({self.rank_text})"
        decks = self.full_decks
        if decks is not None:
            return f"{counted(decks, 'deck')} ({self.size} cards)"
        suits = "" if self.suits_known else ", suits of some cards unknown"
        return f"{self.size} cards ({self.rank_text}{suits})"

    def remove(self, cards: Sequence[Card]) -> Shoe:
        """This shoe less ``cards``; a card without a suit makes the suits unknown."""
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
            raise AnalyzerError(f"cards to remove must be a list of Card, got {cards!r:.60}")
        if not all(isinstance(card, Card) for card in cards):
            raise AnalyzerError("cards to remove must be Card objects (see parse_cards)")
        if self.replacement:
            if cards:
                raise AnalyzerError(
                    "no card can be removed from an infinite deck: cards are dealt with replacement"
                )
            return self
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


@lru_cache(maxsize=64)  # (a shoe is immutable: one of each size serves every caller)
def _standard(cls: type[Shoe], decks: int) -> Shoe:
    """``decks`` full decks, made once: validating a shoe took 36 us of every analysis
    of ``decks=8``, and a shoe kept keeps what it works out (its denominator)."""
    return cls(
        np.full(N_RANKS, N_SUITS * decks, dtype=np.int64),
        np.full((N_RANKS, N_SUITS), decks, dtype=np.int64),
    )


def shoe_from_file(path: str | Path) -> Shoe:
    """A shoe from a CSV (``rank,count``, ``card,count`` or ``rank,suit,count``) or TOML file
    (``[ranks]`` A = 32 ... or ``[cards]`` AS = 8 ...). Ranks or cards not listed count 0."""
    path = Path(argument(path, (str, PurePath), "shoe file", " (a .csv or .toml file)"))
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
    import csv  # (here: a shoe file is rare, and a start should not pay for it)

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
