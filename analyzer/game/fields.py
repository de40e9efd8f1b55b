"""The vocabulary of a round: every field a bet can ask about, defined once.

Each :class:`Field` says its name, its kind (number, text or true/false), the values it
takes, and how finely the enumerator must tell cards apart to give it (``detail``). The
condition language, the outcome table, the dealer's round records, ``play`` and the batch
engine all read this module, so a new field is added here and nowhere else.

Two conventions live here too:

* *No third card.* A hand that stood shows ``-1`` in ``player_third``/``banker_third``
  (:data:`NO_THIRD_CARD`); on the enumerator's third-card axes, whose values 0-9 come
  first, the same hand sits at index :data:`NO_THIRD` (10). :func:`third_card_field`
  converts one to the other.
* *Pair states.* The first two cards of a hand are a different rank (:data:`NO_PAIR`),
  the same rank in another suit (:data:`RANK_PAIR`) or the same card (:data:`SUITED_PAIR`,
  possible with several decks). :func:`pair_columns` turns states into the pair fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np

from analyzer.game.cards import N_RANKS, RANKS, SUITS, Card
from analyzer.game.cards import RANK_VALUES as RANK_VALUES_TABLE
from analyzer.game.rules import NATURAL_SCORES, Round
from analyzer.records import record

#: How finely the enumerator tells the first cards apart: point values only, ranks
#: (pairs) or ranks and suits (suited pairs). Ordered from coarsest to finest.
PairDetail = Literal["none", "rank", "suit"]
DETAILS: tuple[PairDetail, ...] = ("none", "rank", "suit")

#: Index of "no third card" on the enumerator's third-card axes (values 0-9 come first).
NO_THIRD = 10
#: A field's value for "no third card".
NO_THIRD_CARD = -1

#: Pair state of one hand's first two cards.
NO_PAIR, RANK_PAIR, SUITED_PAIR = 0, 1, 2
N_PAIR_STATES = 3

WINNERS: tuple[str, ...] = ("player", "banker", "tie")


@record
class Field:
    """One thing a bet can ask about a round.

    ``kind`` is ``int``, ``str`` or ``bool``. A number lies in ``[low, high]`` (conditions
    prove their arithmetic fits in 64-bit integers from these); a text takes one of
    ``values``. ``detail`` is the least the enumerator must tell apart to give the field.
    """

    name: str
    kind: type
    doc: str
    low: int = 0
    high: int = 0
    values: tuple[str, ...] = ()
    detail: PairDetail = "none"
    #: What the card-level walk must tell apart to give the field: (card, attribute)
    #: pairs, a card being an index into :data:`CARDS` and an attribute one of
    #: :data:`ATTRIBUTES`. Empty for a field the outcome of the round gives.
    cards: tuple[tuple[int, str], ...] = ()
    #: Does the field look at the cards themselves, so that only the card-level walk
    #: gives it (the pair fields look at cards too, but the pair enumerator gives them)?
    card_level: bool = False


#: The six cards of a round, by role: the Player's and Banker's first, second and third.
CARDS: tuple[str, ...] = (
    "player_card1",
    "banker_card1",
    "player_card2",
    "banker_card2",
    "player_card3",
    "banker_card3",
)
#: What a bet can ask of one card.
ATTRIBUTES: tuple[str, ...] = ("rank", "suit", "colour", "value")
#: A card's colour by suit (S H D C).
COLOURS: tuple[str, ...] = ("black", "red", "red", "black")
#: Fields the card-level walk works out from several cards at once (their order is the
#: order of the walk's key digits).
WALK_FIELDS: tuple[str, ...] = (
    "max_card_value",
    "first_four_pattern",
    "first_four_flush",
    "first_four_straight",
    "cards_pattern",
)


def _patterns(cards: int) -> list[str]:
    """Every way ``cards`` cards can share ranks, as rank counts largest first: '2+1+1'."""
    out = []

    def split(left: int, largest: int, parts: list[int]) -> None:
        if left == 0:
            out.append("+".join(map(str, parts)))
            return
        for part in range(min(left, largest), 0, -1):
            split(left - part, part, [*parts, part])

    split(cards, cards, [])
    return out


#: Rank patterns of 4, 5 and 6 cards ('1+1+1+1' ... '6'): the values of the pattern fields.
PATTERNS: tuple[str, ...] = tuple(p for n in (4, 5, 6) for p in _patterns(n))
#: A card that is not dealt (a hand that stood) shows this text.
NOT_DEALT = ""


def _card_fields() -> tuple[Field, ...]:
    fields = []
    for index, card in enumerate(CARDS):
        hand, number = card.split("_card")
        third = number == "3"
        who = f"the {hand.capitalize()}'s {('first', 'second', 'third')[int(number) - 1]} card"
        none_text = ", '' when not dealt" if third else ""
        none_value = ", -1 when not dealt" if third else ""
        extra = (NOT_DEALT,) if third else ()
        fields += [
            Field(
                f"{card}_rank",
                str,
                f"rank of {who} ('A', '2', ... '10', 'J', 'Q', 'K'{none_text})",
                values=(*RANKS, *extra),
                cards=((index, "rank"),),
                card_level=True,
            ),
            Field(
                f"{card}_suit",
                str,
                f"suit of {who} ('S', 'H', 'D', 'C'{none_text})",
                values=(*SUITS, *extra),
                cards=((index, "suit"),),
                card_level=True,
            ),
            Field(
                f"{card}_colour",
                str,
                f"colour of {who} ('red' for hearts and diamonds, 'black'{none_text})",
                values=("red", "black", *extra),
                cards=((index, "colour"),),
                card_level=True,
            ),
            Field(
                f"{card}_value",
                int,
                f"point value of {who} (0-9{none_value})",
                -1 if third else 0,
                9,
                cards=((index, "value"),),
                card_level=True,
            ),
        ]
    fields.append(
        Field(
            "max_card_value",
            int,
            "the highest point value among all cards dealt",
            0,
            9,
            card_level=True,
        )
    )
    fields += [
        Field(
            "first_four_pattern",
            str,
            "how the first four cards (each hand's first two) share ranks, largest count "
            "first: '1+1+1+1' (four ranks), '2+1+1' (a pair), '2+2', '3+1', '4'",
            values=tuple(p for p in PATTERNS if sum(map(int, p.split("+"))) == 4),
            card_level=True,
        ),
        Field(
            "first_four_flush",
            bool,
            "the first four cards are all of one suit",
            card_level=True,
        ),
        Field(
            "first_four_straight",
            bool,
            "the first four cards are four ranks in a row (an ace high or low: A-2-3-4 ... "
            "J-Q-K-A)",
            card_level=True,
        ),
        Field(
            "cards_pattern",
            str,
            "how all the cards dealt share ranks, largest count first: '1+1+1+1+1' ... '3+3', '6'",
            values=PATTERNS,
            card_level=True,
        ),
    ]
    return tuple(fields)


VOCABULARY: tuple[Field, ...] = (
    Field("player_score", int, "the Player's final score", 0, 9),
    Field("banker_score", int, "the Banker's final score", 0, 9),
    Field("player_cards", int, "cards in the Player's hand", 2, 3),
    Field("banker_cards", int, "cards in the Banker's hand", 2, 3),
    Field("total_cards", int, "cards dealt in the round", 4, 6),
    Field("player_third", int, "point value of the Player's third card, -1 when none", -1, 9),
    Field("banker_third", int, "point value of the Banker's third card, -1 when none", -1, 9),
    Field("winner", str, "who wins the round", values=WINNERS),
    Field("natural", bool, "either hand has a two-card 8 or 9"),
    Field("player_natural", bool, "the Player has a two-card 8 or 9"),
    Field("banker_natural", bool, "the Banker has a two-card 8 or 9"),
    Field(
        "player_pair",
        bool,
        "the Player's first two cards are of one rank",
        detail="rank",
        cards=((0, "rank"), (2, "rank")),
    ),
    Field(
        "banker_pair",
        bool,
        "the Banker's first two cards are of one rank",
        detail="rank",
        cards=((1, "rank"), (3, "rank")),
    ),
    Field(
        "player_suited_pair",
        bool,
        "the Player's first two cards are the same card (rank and suit)",
        detail="suit",
        cards=((0, "rank"), (0, "suit"), (2, "rank"), (2, "suit")),
    ),
    Field(
        "banker_suited_pair",
        bool,
        "the Banker's first two cards are the same card (rank and suit)",
        detail="suit",
        cards=((1, "rank"), (1, "suit"), (3, "rank"), (3, "suit")),
    ),
    *_card_fields(),
)

#: Every field by name.
FIELD: dict[str, Field] = {field.name: field for field in VOCABULARY}
#: Each field's kind, by name.
FIELDS: dict[str, type] = {field.name: field.kind for field in VOCABULARY}
#: The lowest and highest value of each integer field.
INT_FIELD_RANGES: dict[str, tuple[int, int]] = {
    field.name: (field.low, field.high) for field in VOCABULARY if field.kind is int
}
PAIR_FIELDS = tuple(field.name for field in VOCABULARY if field.detail == "rank")
SUITED_PAIR_FIELDS = tuple(field.name for field in VOCABULARY if field.detail == "suit")


def pair_detail_needed(fields: Iterable[str]) -> PairDetail:
    """The least detail the enumerator must give for these fields."""
    return max((FIELD[name].detail for name in fields), key=DETAILS.index, default="none")


def third_card_field(axis_index: np.ndarray) -> np.ndarray:
    """Third-card field values (0-9, or -1) from enumerator axis indices (0-9, or 10)."""
    return np.where(axis_index == NO_THIRD, NO_THIRD_CARD, axis_index).astype(np.int64)


def derived_columns(
    player_score: np.ndarray,
    banker_score: np.ndarray,
    player_third: np.ndarray,
    banker_third: np.ndarray,
    naturals: Sequence[int] = NATURAL_SCORES,
) -> dict[str, np.ndarray]:
    """The value-level fields, from final scores and third cards (-1: none), under rules
    whose natural totals are ``naturals``."""
    player_cards = np.where(player_third >= 0, 3, 2)
    banker_cards = np.where(banker_third >= 0, 3, 2)
    # A hand holding two cards and a natural total can only be a natural, whatever the
    # rest of the rules: nobody draws on one, so it ends the round then.
    player_natural = (player_cards == 2) & np.isin(player_score, list(naturals))
    banker_natural = (banker_cards == 2) & np.isin(banker_score, list(naturals))
    winner = np.where(
        player_score > banker_score,
        "player",
        np.where(banker_score > player_score, "banker", "tie"),
    )
    return {
        "player_score": player_score,
        "banker_score": banker_score,
        "player_cards": player_cards,
        "banker_cards": banker_cards,
        "total_cards": player_cards + banker_cards,
        "player_third": player_third,
        "banker_third": banker_third,
        "winner": winner,
        "natural": player_natural | banker_natural,
        "player_natural": player_natural,
        "banker_natural": banker_natural,
    }


def card_columns(ranks: np.ndarray, suits: np.ndarray) -> dict[str, np.ndarray]:
    """Every card-level field of dealt rounds, from their cards.

    ``ranks`` and ``suits`` are (n, 6) rank indexes (0-12) and suit indexes (0-3) of the
    cards in :data:`CARDS` order, -1 for a third card that was not dealt.
    """
    dealt = ranks >= 0
    values = np.where(dealt, RANK_VALUES_TABLE[np.maximum(ranks, 0)], NO_THIRD_CARD)
    rank_names = np.array([*RANKS, NOT_DEALT])
    suit_names = np.array([*SUITS, NOT_DEALT])
    colour_names = np.array([*COLOURS, NOT_DEALT])
    columns = {}
    for index, card in enumerate(CARDS):
        rank, suit = ranks[:, index], suits[:, index]
        columns[f"{card}_rank"] = rank_names[np.where(rank >= 0, rank, len(RANKS))]
        columns[f"{card}_suit"] = suit_names[np.where(suit >= 0, suit, len(SUITS))]
        columns[f"{card}_colour"] = colour_names[np.where(suit >= 0, suit, len(SUITS))]
        columns[f"{card}_value"] = values[:, index].astype(np.int64)
    columns["max_card_value"] = np.where(dealt, values, 0).max(axis=1).astype(np.int64)
    first_four = ranks[:, :4]
    columns["first_four_pattern"] = _rank_patterns(first_four)
    columns["first_four_flush"] = (suits[:, :4] == suits[:, :1]).all(axis=1)
    ordered = np.sort(first_four, axis=1)
    ace_high = np.sort(np.where(first_four == 0, N_RANKS, first_four), axis=1)
    distinct = columns["first_four_pattern"] == "1+1+1+1"
    columns["first_four_straight"] = distinct & (
        (ordered[:, 3] - ordered[:, 0] == 3) | (ace_high[:, 3] - ace_high[:, 0] == 3)
    )
    columns["cards_pattern"] = _rank_patterns(ranks)
    return columns


def _rank_patterns(ranks: np.ndarray) -> np.ndarray:
    """Per row: how its cards (rank indexes, -1 not dealt) share ranks, '2+1+1'."""
    out = []
    for row in ranks:
        counts = np.bincount(row[row >= 0], minlength=N_RANKS)
        out.append("+".join(str(c) for c in sorted(counts[counts > 0], reverse=True)))
    return np.array(out)


def pair_columns(
    player_state: np.ndarray, banker_state: np.ndarray, detail: PairDetail = "suit"
) -> dict[str, np.ndarray]:
    """The pair fields from pair states, as far as ``detail`` tells them apart."""
    columns: dict[str, np.ndarray] = {}
    if detail != "none":
        columns["player_pair"] = player_state >= RANK_PAIR
        columns["banker_pair"] = banker_state >= RANK_PAIR
    if detail == "suit":
        columns["player_suited_pair"] = player_state == SUITED_PAIR
        columns["banker_suited_pair"] = banker_state == SUITED_PAIR
    return columns


def fold_suited_pairs(states: np.ndarray) -> None:
    """In place: count suited pairs as plain rank pairs.

    ``states``' last two axes are (Player state, Banker state). With ranks as the card
    types, "the same type" only means "the same rank", so SUITED_PAIR must never claim a
    suited pair nobody could see.
    """
    states[..., RANK_PAIR, :] += states[..., SUITED_PAIR, :]
    states[..., SUITED_PAIR, :] = 0
    states[..., :, RANK_PAIR] += states[..., :, SUITED_PAIR]
    states[..., :, SUITED_PAIR] = 0


def columns_of_round(dealt: Round) -> dict[str, np.ndarray]:
    """Every field of one concrete round (a one-row column each), as ``play`` settles it:
    the value-level fields, the pairs (suited or not) and the cards themselves."""

    def third(cards: Sequence[Card]) -> int:
        return cards[2].value if len(cards) > 2 else NO_THIRD_CARD

    columns = derived_columns(
        np.array([dealt.player_score]),
        np.array([dealt.banker_score]),
        np.array([third(dealt.player_cards)]),
        np.array([third(dealt.banker_cards)]),
        dealt.naturals,
    )
    states = [
        SUITED_PAIR if first == second else RANK_PAIR if first.rank == second.rank else NO_PAIR
        for first, second in (dealt.player_cards[:2], dealt.banker_cards[:2])
    ]
    columns |= pair_columns(np.array(states[:1]), np.array(states[1:]))
    player, banker = dealt.player_cards, dealt.banker_cards
    thirds = [hand[2] if len(hand) > 2 else None for hand in (player, banker)]
    by_role = [player[0], banker[0], player[1], banker[1], *thirds]  # as in CARDS
    ranks = np.array([[-1 if card is None else card.rank for card in by_role]])
    suits = np.array([[-1 if card is None else card.suit for card in by_role]])
    columns |= card_columns(ranks, suits)
    return columns
