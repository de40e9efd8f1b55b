"""Games as data: the hands of a round, how they are dealt, scored and compared.

Punto banco (Player and Banker, two or three cards, drawing rules) is the game every
paytable plays unless it names another. A paytable names another game with ``game =
"NAME"`` (a file of ``analyzer/game/games/``, each citing its source) or describes one in
a ``[game]`` table of its own, with these keys:

``name``
    The game's name, for reports.
``hands``
    The hands, in the order the comparison lists them: ``[{ name = "dragon", cards = 1 },
    { name = "tiger", cards = 1 }]``. Two hands, each dealt one to three cards; a hand may
    say what people call it (``label``, and ``labels = { ms = "Naga" }`` per language).
``deal``
    ``"alternate"`` (default: one card to each hand in turn, as baccarat deals) or
    ``"in turn"`` (each hand's cards before the next hand's).
``score``
    How a hand is scored: ``"rank"`` (one card: its rank, Ace low, 1 to 13; with ``ace =
    "high"`` 2 to 14), ``"points"`` (point values summed modulo 10, as baccarat) or
    ``"points and pictures"`` (points; equal points are broken by the number of picture
    cards, J Q K; a hand of picture cards only beats every other hand).
``tie``
    The word for a round whose hands compare equal (default ``"tie"``).

The hand with the higher score wins. From the definition come the fields a bet's
conditions may ask about (:meth:`Game.vocabulary`): ``winner``, each hand's ``_score`` and
``_pictures``, and each card's ``_rank``, ``_suit``, ``_colour`` and ``_value``
(``dragon_card1_rank``), as punto banco's cards have them. A game whose hands take a card
after the deal, or with a decision, has those of every card a round may deal, a card
after the deal ``''`` (value -1) where the round did not take it (``player_card3_rank``),
as punto banco's third cards; the hands' ``_cards`` and the ``action`` taken, and no
``_pictures``.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import field, replace
from fractions import Fraction
from functools import cache, cached_property
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.files import shipped_folder, toml_data
from analyzer.game.cards import RANK_VALUES, RANKS, SUITS
from analyzer.game.fields import COLOURS, NO_THIRD_CARD, NOT_DEALT, Field
from analyzer.game.identities import PATTERN_INDEX
from analyzer.game.rules import parse_values
from analyzer.memo import Pattern
from analyzer.records import record
from analyzer.schema import (
    argument,
    check_keys,
    check_name,
    exact_number,
    optional,
    optional_note,
    require,
    table,
)

__all__ = [
    "COUNTED_BY",
    "DECIDED_FIELDS",
    "GAME_MULTIPLY",
    "GAME_NAMES",
    "PUNTO_BANCO_HANDS",
    "SCORES",
    "Action",
    "Decision",
    "Game",
    "Hand",
    "Reveal",
    "Vocabulary",
    "counted_field",
    "decision_from_table",
    "drawn_fields",
    "game_from_table",
    "named_game",
]

#: The games shipped in ``analyzer/game/games/``, each citing its source.
GAME_NAMES = ("dragon-tiger", "lucky-draw-baccarat", "three-card-baccarat")
#: How a hand can be scored.
SCORES = ("rank", "points", "points and pictures")
#: How the cards of a round are dealt to the hands.
DEALS = ("alternate", "in turn")
#: The most cards one hand is dealt, and in a round (the enumerator's budget).
MAX_HAND_CARDS = 3
#: Rank index of the first picture card (J); J, Q, K are pictures.
FIRST_PICTURE = RANKS.index("J")
_NAME = Pattern(r"[a-z][a-z0-9_]{0,31}")
_MAX_TEXT = 500
#: A card's colour by suit index (S H D C), as codes into COLOUR_NAMES.
COLOUR_NAMES = ("red", "black")
COLOUR_OF_SUIT = np.array([COLOUR_NAMES.index(colour) for colour in COLOURS], dtype=np.int64)
#: The languages a hand's label may be given in (those of the help pages).
_LANGUAGES = ("en", "tl", "ms")
#: Whose cards a multiplied bet of a game counts, besides one hand's (its name): the
#: winning hand's (none on a tie), or every card of the round.
GAME_MULTIPLY = ("winner", "both")
#: What the cards a multiplied bet counts are told apart by: their suits (a Lightning
#: suit's multiplier) or their identities (rank and suit: special cards').
COUNTED_BY = ("suits", "identities")


def counted_field(kind: str, by: str) -> str:
    """The column of a deal walk's table that gives, per row, the pattern (an index of
    :data:`~analyzer.game.identities.IDENTITY_PATTERNS`) of the cards a bet multiplied by
    ``kind`` counts, told apart by ``by`` (one of :data:`COUNTED_BY`): how many of them
    share each suit, or each identity. Not a field of conditions (it starts with ``_``).

    Examples
    --------
    >>> counted_field("dragon", "suits")
    '_suits_dragon'
    """
    return f"_{by}_{kind}"


def _counted(name: str) -> tuple[str, str] | None:
    """``(by, kind)`` of a :func:`counted_field` name, else None."""
    for by in COUNTED_BY:
        if name.startswith(f"_{by}_"):
            return by, name.removeprefix(f"_{by}_")
    return None


@record
class Vocabulary:
    """The fields a game's conditions may ask about, by name (hashable, so that a parsed
    condition can name its vocabulary)."""

    fields: tuple[Field, ...]

    @cached_property
    def by_name(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __getitem__(self, name: str) -> Field:
        return self.by_name[name]

    def __iter__(self):  # (the names, as a dict iterates its keys)
        return iter(self.by_name)


@record
class Hand:
    """One hand of a game: its name (a field prefix), how many cards it is dealt, and what
    people call it in each language (``"en"``: the name capitalised, unless given)."""

    name: str
    cards: int
    labels: Mapping[str, str] = field(default_factory=dict, compare=False)
    #: A card the hand may take after the first deal (0 or 1): by its own rule (``draws``:
    #: the two-card totals on which it takes it) or by a player's decision.
    extra: int = 0
    draws: tuple[int, ...] = ()

    def label(self, lang: str = "en") -> str:
        """What the hand is called in ``lang`` (else in English)."""
        return self.labels.get(lang) or self.labels.get("en") or self.name.capitalize()


@record
class Action:
    """What a player may do at a decision: its ``name`` (the ``action`` field's value),
    the hand it gives its extra card (``draws``, or None), and the ``stake`` once taken,
    in base stakes (a Draw bet equal to the first: 2); a line's payout is per unit
    staked, so every net of a round played this way is ``stake`` times its line's."""

    name: str
    draws: str | None = None
    stake: int = 1
    #: What people call it in each language (``"en"``: the name, ``_`` as spaces).
    labels: Mapping[str, str] = field(default_factory=dict, compare=False)
    #: A fold (``pays = "lose"``, a surrender ``pays = "lose 1/2"``): the share of the base
    #: stake the bets of the decision lose without playing on (0: not a fold).
    forfeit: Fraction = Fraction(0)

    def label(self, lang: str = "en") -> str:
        """What the action is called in ``lang`` (else in English)."""
        return self.labels.get(lang) or self.labels.get("en") or self.name.replace("_", " ")

    @property
    def folds(self) -> bool:
        """Does the action forfeit the bets of the decision (all or part of the base
        stake lost, the round not played on for them)?"""
        return self.forfeit != 0

    @property
    def pays(self) -> str:
        """A fold's payout as a paytable spells it (``"lose"``, ``"lose 1/2"``); "" for
        an action that plays on."""
        if not self.forfeit:
            return ""
        return "lose" if self.forfeit == 1 else f"lose {self.forfeit}"


@record
class Reveal:
    """One way a decision's cards may be shown: the cards seen (by name, in the order of
    the decision's ``sees``) and the chance that a round shows exactly these."""

    sees: tuple[str, ...]
    chance: Fraction


@record
class Decision:
    """A decision a player takes after the first deal, seeing the cards ``sees`` (by
    name: ``"player_card1"``), among ``actions``; solved exactly per bet, each
    information set played its best action (:mod:`analyzer.engine.deal_walk`).

    With ``shown`` the cards seen are random: a round shows ``k`` of ``sees`` with the
    chance ``shown`` gives ``k``, each set of ``k`` of them equally likely (Peek
    Baccarat); an information set is then the cards shown and their values. ``bets``:
    on punto banco, the bets the decision is for (the others are played as dealt); on a
    game of the family, None: every bet."""

    sees: tuple[str, ...]
    actions: tuple[Action, ...]
    shown: tuple[tuple[int, Fraction], ...] = ()
    bets: tuple[str, ...] | None = None

    def fingerprint(self) -> list[Any]:
        """What identifies the decision's figures (a random reveal's chances and a
        punto banco decision's bets only where given: a decision's fingerprint stays
        what it was without them)."""
        out: list[Any] = [
            list(self.sees),
            [[a.name, a.draws, a.stake, *([a.pays] if a.folds else [])] for a in self.actions],
        ]
        if self.shown:
            out.append({str(k): str(p) for k, p in self.shown})
        if self.bets is not None:
            out.append(list(self.bets))
        return out

    @cached_property
    def reveals(self) -> tuple[Reveal, ...]:
        """Every set of cards a round may show, with its chance (one set, ``sees``, with
        chance 1 where the cards seen are not random)."""
        if not self.shown:
            return (Reveal(self.sees, Fraction(1)),)
        return tuple(
            Reveal(cards, chance / math.comb(len(self.sees), k))
            for k, chance in self.shown
            if chance
            for cards in itertools.combinations(self.sees, k)
        )


@record
class Game:
    """A game other than punto banco (see the module's description)."""

    name: str
    hands: tuple[Hand, ...]
    score: str = "points"
    ace_high: bool = False
    deal: str = "alternate"
    tie: str = "tie"
    description: str = ""
    source: str = field(default="", compare=False)
    decision: Decision | None = None

    @property
    def cards(self) -> int:
        """Cards of the first deal."""
        return sum(hand.cards for hand in self.hands)

    @property
    def most_cards(self) -> int:
        """Cards a round may deal: the first deal and every extra card."""
        return self.cards + sum(hand.extra for hand in self.hands)

    @property
    def draws(self) -> bool:
        """Is any card dealt after the first deal (by a hand's rule or a decision)?"""
        return any(hand.extra for hand in self.hands)

    @property
    def by_values(self) -> bool:
        """Is a round walked by point values, played under each action: a game whose
        hands draw, or with a decision (:func:`~analyzer.engine.deal_walk.drawn_tables`)?
        Its cards are then told apart by rank or suit only where a bet asks (the walk
        by card classes), and its hands have no ``_pictures``."""
        return self.draws or self.decision is not None

    @cached_property
    def positions(self) -> tuple[tuple[int, int], ...]:
        """(hand index, card number from 1) of each card of a round, in dealing order."""
        if self.deal == "in turn":
            return tuple(
                (h, k) for h, hand in enumerate(self.hands) for k in range(1, hand.cards + 1)
            )
        most = max(hand.cards for hand in self.hands)
        return tuple(
            (h, k)
            for k in range(1, most + 1)
            for h, hand in enumerate(self.hands)
            if k <= hand.cards
        )

    @cached_property
    def hand_positions(self) -> tuple[list[int], ...]:
        """Per hand, the positions (in dealing order) of its cards of the first deal."""
        return tuple(
            [i for i, (owner, _) in enumerate(self.positions) if owner == h]
            for h in range(len(self.hands))
        )

    @cached_property
    def card_slots(self) -> tuple[tuple[int, int], ...]:
        """(hand index, card number from 1) of every card a round may deal: the first
        deal in dealing order (:attr:`positions`), then each hand's card after it (number
        ``cards + 1``, where it may take one), in the order of the hands, as the engines
        take them. A game dealt once has its positions only."""
        extras = tuple((h, hand.cards + 1) for h, hand in enumerate(self.hands) if hand.extra)
        return self.positions + extras

    def slot_name(self, slot: int) -> str:
        """The field prefix of card slot ``slot`` (:attr:`card_slots`): ``player_card3``."""
        h, number = self.card_slots[slot]
        return f"{self.hands[h].name}_card{number}"

    def slot_columns(
        self,
        slot: int,
        values: np.ndarray,
        ranks: np.ndarray | None,
        suits: np.ndarray | None,
        wanted: frozenset[str] | None = None,
    ) -> dict[str, tuple[np.ndarray, tuple[str, ...] | None]]:
        """The fields of the card in slot ``slot`` (:attr:`card_slots`) of some rounds,
        as :meth:`columns` gives them (codes, and the texts a text field's codes index).

        Parameters
        ----------
        slot : int
            The card's slot.
        values : int array
            Its point value in each round (-1: a card after the first deal not taken).
        ranks, suits : int arrays or None
            Its rank index (0-12) and suit index (0-3, S H D C) in each round (-1: not
            taken), or None where they are not told apart (the fields that need them
            are then left out).
        wanted : frozenset of str, optional
            The fields to give (None: every field the arrays tell).

        Returns
        -------
        dict
            Field name to (codes, texts or None); a card not taken has the last code of
            a text field (``''``) and the value -1.

        Examples
        --------
        >>> lucky = named_game("lucky-draw-baccarat")
        >>> columns = lucky.slot_columns(4, np.array([3, -1]), np.array([2, -1]), None)
        >>> {name: decoded(*column).tolist() for name, column in columns.items()}
        {'player_card3_rank': ['3', ''], 'player_card3_value': [3, -1]}
        """
        after = slot >= self.cards
        extra = (NOT_DEALT,) if after else ()
        card = self.slot_name(slot)
        out: dict[str, tuple[np.ndarray, tuple[str, ...] | None]] = {}

        def put(attribute: str, column: Callable[[], tuple]) -> None:
            name = f"{card}_{attribute}"
            if wanted is None or name in wanted:
                out[name] = column()

        def coded(indices: np.ndarray, table: np.ndarray | None, texts: tuple[str, ...]):
            looked = indices if table is None else table[np.maximum(indices, 0)]
            return np.where(indices >= 0, looked, len(texts)), (*texts, *extra)

        if ranks is not None:
            put("rank", lambda: coded(ranks, None, RANKS))
        put("value", lambda: (np.asarray(values, dtype=np.int64), None))
        if suits is not None:
            put("suit", lambda: coded(suits, None, SUITS))
            put("colour", lambda: coded(suits, COLOUR_OF_SUIT, COLOUR_NAMES))
        return out

    def card_place(self, card: str) -> tuple[int, int]:
        """(hand index, card number from 1) of a card of the first deal named by its
        field prefix, ``"player_card2"``: how a decision's ``sees`` names its cards."""
        hand, number = card.rsplit("_card", 1)
        return next(h for h, other in enumerate(self.hands) if other.name == hand), int(number)

    @property
    def winners(self) -> tuple[str, ...]:
        return (*(hand.name for hand in self.hands), self.tie)

    def score_range(self, hand: Hand) -> tuple[int, int]:
        if self.score == "rank":
            return (2, 14) if self.ace_high else (1, 13)
        return (0, 9)

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """Every field a bet on this game can ask about."""
        fields = [
            Field(
                "winner", str, f"who wins the round: {', '.join(self.winners)}", values=self.winners
            )
        ]
        scored = {
            "rank": "rank (Ace " + ("high, 2 to 14" if self.ace_high else "low, 1 to 13") + ")",
            "points": "points (card values summed modulo 10)",
            "points and pictures": "points (card values summed modulo 10)",
        }[self.score]
        for hand in self.hands:
            low, high = self.score_range(hand)
            fields += [
                Field(
                    f"{hand.name}_score", int, f"the {hand.name}'s score: its {scored}", low, high
                ),
            ]
            if not self.by_values:  # (such a game is walked by point values)
                fields.append(
                    Field(
                        f"{hand.name}_pictures",
                        int,
                        f"picture cards (J, Q, K) in the {hand.name}'s hand",
                        0,
                        hand.cards,
                    )
                )
        if self.decision is not None:
            names = tuple(action.name for action in self.decision.actions)
            fields.append(
                Field("action", str, f"what the player chose: {', '.join(names)}", values=names)
            )
        for hand in self.hands:
            if hand.extra:
                fields.append(
                    Field(
                        f"{hand.name}_cards",
                        int,
                        f"cards in the {hand.name}'s hand",
                        hand.cards,
                        hand.cards + hand.extra,
                    )
                )
        # Every card a round may deal: a card taken after the first deal shows ''
        # (its value -1) in a round that did not take it, as punto banco's third cards.
        for slot, (h, number) in enumerate(self.card_slots):
            hand = self.hands[h]
            card = f"{hand.name}_card{number}"
            who = f"the {hand.name}'s card {number}"
            after = slot >= self.cards
            none_text = ", '' when not dealt" if after else ""
            extra = (NOT_DEALT,) if after else ()
            fields += [
                Field(
                    f"{card}_rank",
                    str,
                    f"rank of {who} ('A', '2', ... '10', 'J', 'Q', 'K'{none_text})",
                    values=(*RANKS, *extra),
                    card_level=True,
                ),
                Field(
                    f"{card}_suit",
                    str,
                    f"suit of {who} ('S', 'H', 'D', 'C'{none_text})",
                    values=(*SUITS, *extra),
                    card_level=True,
                ),
                Field(
                    f"{card}_colour",
                    str,
                    f"colour of {who} ('red' for hearts and diamonds, 'black'{none_text})",
                    values=(*COLOUR_NAMES, *extra),
                    card_level=True,
                ),
                Field(
                    f"{card}_value",
                    int,
                    f"point value of {who} (0-9" + (", -1 when not dealt)" if after else ")"),
                    NO_THIRD_CARD if after else 0,
                    9,
                    card_level=True,
                ),
            ]
        return Vocabulary(tuple(fields))

    def needs_suits(self, fields: frozenset[str] | set[str]) -> bool:
        """Do ``fields`` tell cards of one rank apart by suit (a pattern of counted cards
        too, where a bet may count two or more: :func:`counted_field`)?"""
        for name in fields:
            counted = _counted(name)
            if counted is not None:
                if self.most_counted(counted[1]) > 1:
                    return True
            elif (
                name in self.vocabulary
                and self.vocabulary[name].card_level
                and name.endswith(("_suit", "_colour"))
            ):
                return True
        return False

    def most_counted(self, kind: str) -> int:
        """The most cards a bet multiplied by ``kind`` counts in a round: a hand's (its
        name), the winning hand's, or every card of the round (:data:`GAME_MULTIPLY`)."""
        if kind == "both":
            return self.cards
        if kind == "winner":
            return max(hand.cards for hand in self.hands)
        return next(hand.cards for hand in self.hands if hand.name == kind)

    def counted_mask(self, kind: str, winner: np.ndarray) -> np.ndarray:
        """Per round (``winner`` codes: a hand's index, 2 a tie), which of its cards (by
        position, in dealing order) a bet multiplied by ``kind`` counts: a hand's (its
        name), the winning hand's (none on a tie), or every card (:data:`GAME_MULTIPLY`).

        Examples
        --------
        >>> named_game("dragon-tiger").counted_mask("winner", np.array([1, 2])).tolist()
        [[False, True], [False, False]]
        """
        winner = np.asarray(winner)
        counted = np.zeros((len(winner), self.cards), dtype=bool)
        for h, hand in enumerate(self.hands):
            columns = self.hand_positions[h]
            if kind == "both" or kind == hand.name:
                counted[:, columns] = True
            elif kind == "winner":
                counted[:, columns] = (winner == h)[:, None]
        return counted

    def counted_patterns(
        self, kind: str, by: str, ranks: np.ndarray, suits: np.ndarray | None, winner: np.ndarray
    ) -> np.ndarray:
        """Per round (``ranks``, ``suits`` by position; ``winner`` codes: a hand's index,
        2 a tie), the pattern index of the cards a bet multiplied by ``kind`` counts, told
        apart by ``by`` (suits, or rank and suit). Without suits each counted card is its
        own (a bet counting one card at most: :meth:`needs_suits`)."""
        n_rows, n_positions = ranks.shape
        counted = self.counted_mask(kind, winner)
        if suits is None:
            keys = np.broadcast_to(np.arange(n_positions), (n_rows, n_positions))
        else:
            keys = suits if by == "suits" else ranks * len(SUITS) + suits
        # Each counted card's multiplicity (how many counted cards share its key): a block
        # of s cards shows s times, so how many cards show each multiplicity names the
        # pattern. Column by column (a handful of positions): numpy's broadcasting over
        # rows of two to six cells cost a millisecond for Dragon Tiger's 2,704 rows.
        base = n_positions + 1
        # A card of multiplicity s adds base^(s - 1); a card not counted (0) nothing.
        places = np.array([0, *(base**power for power in range(n_positions))], dtype=np.int64)
        packed = np.zeros(n_rows, dtype=np.int64)
        for i in range(n_positions):
            multiplicity = counted[:, i].astype(np.int64)
            for j in range(n_positions):
                if j != i:
                    multiplicity += (keys[:, i] == keys[:, j]) & counted[:, j]
            multiplicity *= counted[:, i]
            packed += places[multiplicity]
        # (packed < base^positions: at most 7^6 = 117,649 numbers, looked up directly)
        codes = np.zeros(base**n_positions, dtype=np.int64)
        for number in np.flatnonzero(np.bincount(packed)).tolist():
            # The cards showing multiplicity s, s at a time, largest block first.
            pattern = []
            for size in range(n_positions, 0, -1):
                shown = number // base ** (size - 1) % base
                pattern += [size] * (shown // size)
            codes[number] = PATTERN_INDEX[tuple(pattern)]
        return codes[packed]

    # -- scoring (arrays: one row per round, one column per card in dealing order) ----------

    def strengths(self, ranks: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Each hand's score and the strength its comparison orders by, for rounds of
        ``ranks`` (rank indices 0..12, a column per card in dealing order)."""
        values = np.minimum(ranks + 1, 10) % 10
        scores, strengths = [], []
        for h, hand in enumerate(self.hands):
            columns = self.hand_positions[h]
            own = ranks[:, columns]
            if self.score == "rank":
                score = own[:, 0] + 1
                if self.ace_high:
                    score = np.where(score == 1, 14, score)
                strength = score
            else:
                score = values[:, columns].sum(axis=1) % 10
                strength = score
                if self.score == "points and pictures":
                    pictures = (own >= FIRST_PICTURE).sum(axis=1)
                    # Points, then pictures (at most MAX_HAND_CARDS, so a base above
                    # it keeps points first); a hand of pictures only above all (100).
                    strength = np.where(
                        pictures == hand.cards, 100, score * (MAX_HAND_CARDS + 1) + pictures
                    )
            scores.append(score.astype(np.int64))
            strengths.append(strength.astype(np.int64))
        return scores, strengths

    def columns(
        self, ranks: np.ndarray, suits: np.ndarray | None, wanted: frozenset[str] | None = None
    ) -> dict[str, tuple[np.ndarray, tuple[str, ...] | None]]:
        """The fields of the rounds dealt as ``ranks`` (and ``suits``: suit indices, or None
        where suits are not told apart), one row per round: the winner, each hand's score
        and pictures, and the fields of single cards in ``wanted`` (None: all of them).

        Each field is small whole-number codes and, for a text field, the texts they index
        (None for a number): rows are grouped on codes, and only the groups' rows are
        turned into text (:func:`decoded`)."""
        scores, strengths = self.strengths(ranks)
        first, second = strengths
        winner = np.where(first > second, 0, np.where(second > first, 1, 2))
        columns: dict[str, tuple[np.ndarray, tuple[str, ...] | None]] = {
            "winner": (winner, self.winners)
        }
        for h, hand in enumerate(self.hands):
            columns[f"{hand.name}_score"] = (scores[h], None)
            pictures = (ranks[:, self.hand_positions[h]] >= FIRST_PICTURE).sum(axis=1)
            columns[f"{hand.name}_pictures"] = (pictures, None)
        for name in () if wanted is None else sorted(wanted):
            counted = _counted(name)
            if counted is not None:
                by, kind = counted
                columns[name] = (self.counted_patterns(kind, by, ranks, suits, winner), None)
        values = np.minimum(ranks + 1, 10) % 10
        for i in range(len(self.positions)):
            columns |= self.slot_columns(
                i, values[:, i], ranks[:, i], None if suits is None else suits[:, i], wanted
            )
        return columns

    def as_dealt(self, counts: tuple[int, ...]) -> Game:
        """A round of this game whose hands ended holding ``counts`` cards (the first deal
        and any card taken after it) as a game dealt once, in turn (each hand's cards
        together, in the order it took them): the same hands, scored and compared by the
        same rules, taking no card after the deal and deciding nothing. Its
        :meth:`columns` give such a round's winner and each hand's score, as this game
        scores them (``audit`` reads a logged round so).

        Parameters
        ----------
        counts : tuple of int
            The cards each hand holds, in the order of :attr:`hands` (as many as a round
            of this game deals it).

        Returns
        -------
        Game
            The game of those hands.

        Examples
        --------
        >>> lucky = named_game("lucky-draw-baccarat")
        >>> dealt = lucky.as_dealt((3, 2))
        >>> [hand.cards for hand in dealt.hands], dealt.positions
        ([3, 2], ((0, 1), (0, 2), (0, 3), (1, 1), (1, 2)))
        """
        hands = tuple(
            replace(hand, cards=int(n), extra=0, draws=())
            for hand, n in zip(self.hands, counts, strict=True)
        )
        return replace(self, hands=hands, deal="in turn", decision=None)

    def fingerprint(self) -> dict[str, Any]:
        """What identifies the game's figures (for a paytable's fingerprint)."""
        return {
            "hands": [[hand.name, hand.cards] for hand in self.hands],
            "score": self.score,
            "ace_high": self.ace_high,
            "deal": self.deal,
            "tie": self.tie,
        } | (
            {
                "extra": [[hand.extra, list(hand.draws)] for hand in self.hands],
                "decision": None if self.decision is None else self.decision.fingerprint(),
            }
            if self.by_values
            else {}
        )


def decoded(codes: np.ndarray, texts: tuple[str, ...] | None) -> np.ndarray:
    """A column of :meth:`Game.columns` as the outcome table holds it: numbers as int64,
    a text field's codes as its texts."""
    if texts is None:
        return codes.astype(np.int64)
    return np.array(texts)[codes]


def drawn_fields(
    game: Game,
    winner: np.ndarray,
    scores: np.ndarray,
    took: np.ndarray,
    action: np.ndarray,
    ranks: np.ndarray | None = None,
    suits: np.ndarray | None = None,
    wanted: frozenset[str] = frozenset(),
) -> dict[str, np.ndarray]:
    """The fields a bet's condition reads of rounds of a game whose hands draw or decide,
    as the exact walk names them: ``winner`` (codes: 0 the first hand, 1 the second, 2 a
    tie), each hand's score (``scores``, a column per hand), a hand's cards where it may
    take one (``took``: the extra cards each hand took, a column per hand, 0 or 1) and,
    with a decision, ``action`` (the index of the action taken), one row per round; and
    the fields of single cards in ``wanted`` (``player_card1_rank``, ``player_card3_suit``:
    :meth:`Game.slot_columns`), from ``ranks`` and ``suits``: each round's rank indices
    (0-12) and suit indices (0-3, S H D C; None where unknown) by slot
    (:attr:`Game.card_slots`: the first deal in dealing order, then each hand's card
    after it), -1 for a card the round did not take. (``play``, ``simulate`` and
    ``audit`` read a dealt round's fields here.)

    Examples
    --------
    >>> lucky = named_game("lucky-draw-baccarat")
    >>> fields = drawn_fields(lucky, np.array([0]), np.array([[9, 4]]), np.array([[1, 0]]),
    ...                       np.array([1]))
    >>> {name: values.tolist() for name, values in fields.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'winner': ['player'], 'player_score': [9], 'player_cards': [3], 'dealer_score': [4],
     'dealer_cards': [2], 'action': ['draw']}
    """
    columns = {"winner": decoded(np.asarray(winner), game.winners)}
    for h, hand in enumerate(game.hands):
        columns[f"{hand.name}_score"] = decoded(np.asarray(scores)[:, h], None)
        if hand.extra:
            columns[f"{hand.name}_cards"] = decoded(hand.cards + np.asarray(took)[:, h], None)
    if game.decision is not None:
        names = tuple(action.name for action in game.decision.actions)
        columns["action"] = decoded(np.asarray(action), names)
    if ranks is None or not wanted:
        return columns
    ranks = np.asarray(ranks, dtype=np.int64)
    values = np.where(ranks >= 0, RANK_VALUES[np.maximum(ranks, 0)], NO_THIRD_CARD)
    for slot in range(len(game.card_slots)):
        fields = game.slot_columns(
            slot,
            values[:, slot],
            ranks[:, slot],
            None if suits is None else np.asarray(suits, dtype=np.int64)[:, slot],
            wanted,
        )
        columns |= {name: decoded(codes, texts) for name, (codes, texts) in fields.items()}
    return columns


def game_from_table(data: Mapping[str, Any], where: str = "[game]") -> Game:
    """A game from its table (see the module's description); every problem one line."""
    table(data, where, "a [game] table")
    check_keys(
        data,
        {"name", "hands", "deal", "score", "ace", "tie", "description", "source", "decision"},
        where,
    )
    for key in ("description", "source"):
        optional_note(data, key, where)
    name = require(data, "name", str, where)
    check_name(name, "name", where)
    hands_data = require(data, "hands", list, where)
    if len(hands_data) != 2:
        raise AnalyzerError(
            f"{where}: 'hands' must list two hands (the comparison orders one against the "
            f"other), got {len(hands_data)}"
        )
    hands = []
    for number, item in enumerate(hands_data, 1):
        hand_where = f"{where}: hand {number}"
        table(item, hand_where, "a hand ({ name = ..., cards = ... })")
        check_keys(item, {"name", "cards", "label", "labels", "extra", "draws"}, hand_where)
        hand_name = require(item, "name", str, hand_where)
        if not _NAME.fullmatch(hand_name):
            raise AnalyzerError(
                f"{hand_where}: name {hand_name[:40]!r} must be lower-case letters, digits "
                "and _, starting with a letter, at most 32 characters"
            )
        cards = require(item, "cards", int, hand_where)
        if isinstance(cards, bool) or not 1 <= cards <= MAX_HAND_CARDS:
            raise AnalyzerError(
                f"{hand_where}: 'cards' must be 1 to {MAX_HAND_CARDS} (a hand is dealt at "
                f"least one card), got {cards!r:.20}"
            )
        labels = _labels(item, hand_where)
        extra = item.get("extra", 0)
        if isinstance(extra, bool) or extra not in (0, 1):
            raise AnalyzerError(f"{hand_where}: 'extra' must be 0 or 1 (a card after the deal)")
        draws: tuple[int, ...] = ()
        if "draws" in item:
            if extra != 1:
                raise AnalyzerError(f"{hand_where}: 'draws' needs extra = 1 (the card it draws)")
            draws = parse_values(item["draws"], hand_where, "draws")
        hands.append(Hand(hand_name, cards, labels, extra, draws))
    tie = optional(data, "tie", str, where, "tie")
    names = [hand.name for hand in hands]
    if len(set(names)) != len(names):
        raise AnalyzerError(f"{where}: two hands are named {names[0]!r}")
    if not _NAME.fullmatch(tie) or tie in names:
        raise AnalyzerError(
            f"{where}: 'tie' must be a word other than the hands' names (lower-case "
            f"letters, digits and _), got {tie[:40]!r}"
        )
    score = optional(data, "score", str, where, "points")
    if score not in SCORES:
        raise AnalyzerError(
            f"{where}: unknown score {score[:40]!r} (scores: {', '.join(map(repr, SCORES))})"
        )
    if score == "rank" and any(hand.cards != 1 for hand in hands):
        raise AnalyzerError(
            f"{where}: score 'rank' orders hands of one card; a hand of several cards has "
            "no single rank (use 'points' or 'points and pictures')"
        )
    ace = optional(data, "ace", str, where, "low")
    if ace not in ("low", "high"):
        raise AnalyzerError(f"{where}: 'ace' must be 'low' or 'high', got {ace[:40]!r}")
    if ace == "high" and score != "rank":
        raise AnalyzerError(f"{where}: 'ace' applies to score 'rank' only")
    deal = optional(data, "deal", str, where, "alternate")
    if deal not in DEALS:
        raise AnalyzerError(
            f"{where}: unknown deal {deal[:40]!r} (deals: {', '.join(map(repr, DEALS))})"
        )
    decision = _decision(data.get("decision"), hands, where)
    for hand in hands:
        if (
            hand.extra
            and not hand.draws
            and (decision is None or all(a.draws != hand.name for a in decision.actions))
        ):
            raise AnalyzerError(
                f"{where}: hand {hand.name!r} has an extra card but neither 'draws' (its "
                "rule) nor a decision's action gives it"
            )
    if (decision is not None or any(hand.extra for hand in hands)) and score != "points":
        raise AnalyzerError(
            f"{where}: a game whose hands draw, or with a decision, scores 'points' (it is "
            "walked by point values: ranks and pictures are for games dealt once)"
        )
    return Game(
        name.strip(),
        tuple(hands),
        score,
        ace == "high",
        deal,
        tie,
        str(data.get("description", "")),
        str(data.get("source", "")),
        decision,
    )


def _labels(item: Mapping[str, Any], where: str) -> dict[str, str]:
    """``label`` (English) and ``labels`` (per language): what people call a hand or an
    action on reports and help pages."""
    labels = dict(table(item.get("labels", {}), where, "'labels' (a table)"))
    if "label" in item:
        if "en" in labels:
            raise AnalyzerError(f"{where}: give 'label' or labels.en, not both")
        labels["en"] = item["label"]
    for lang, text in labels.items():
        if lang not in _LANGUAGES:
            raise AnalyzerError(
                f"{where}: unknown language {str(lang)[:20]!r} in 'labels' "
                f"(languages: {', '.join(_LANGUAGES)})"
            )
        if not isinstance(text, str):
            raise AnalyzerError(f"{where}: a label must be text")
        check_name(text, f"label ({lang})", where, 60)
    return labels


#: The most a decision may multiply the stake by.
MAX_STAKE = 10


def _decision(
    value: object,
    hands: list[Hand] | tuple[Hand, ...],
    where: str,
    *,
    punto_banco: bool = False,
    shown: Callable[[object, str], dict] | None = None,
) -> Decision | None:
    """``[game.decision]`` (or a punto banco paytable's ``[decision]``): what the player
    sees and may do (see :class:`Decision`). ``shown`` reads the chances of ``shown``
    where they may be expressions in a paytable's unknowns (``{number: chance}``; by
    default exact numbers)."""
    if value is None:
        return None
    where = f"{where}: decision"
    table(value, where, "a table with 'sees' and 'actions'")
    check_keys(value, {"sees", "actions", "shown"} | ({"bets"} if punto_banco else set()), where)
    first_cards = {f"{hand.name}_card{k}" for hand in hands for k in range(1, hand.cards + 1)}
    sees = require(value, "sees", list, where)
    for card in sees:
        if card not in first_cards:
            raise AnalyzerError(
                f"{where}: it sees {str(card)[:40]!r}, which the first deal does not deal "
                f"(a decision sees cards dealt before it: {', '.join(sorted(first_cards))})"
            )
    if len(set(sees)) != len(sees):
        raise AnalyzerError(f"{where}: 'sees' names a card twice")
    actions_data = require(value, "actions", list, where)
    if len(actions_data) < 2:
        raise AnalyzerError(f"{where}: 'actions' must offer at least two actions")
    actions = []
    for number, item in enumerate(actions_data, 1):
        action_where = f"{where}: action {number}"
        table(item, action_where, "an action ({ name = ..., draws = ..., stake = ... })")
        check_keys(item, {"name", "draws", "stake", "pays", "label", "labels"}, action_where)
        name = require(item, "name", str, action_where)
        if not _NAME.fullmatch(name):
            raise AnalyzerError(
                f"{action_where}: name {name[:40]!r} must be lower-case letters, digits and _"
            )
        draws = optional(item, "draws", str, action_where)
        if draws is not None and punto_banco:
            raise AnalyzerError(
                f"{action_where}: punto banco's hands draw by the drawing rules, not by a "
                "decision: an action here changes the stake only ('stake')"
            )
        if draws is not None:
            hand = next((h for h in hands if h.name == draws), None)
            if hand is None or not hand.extra or hand.draws:
                raise AnalyzerError(
                    f"{action_where}: 'draws' must name a hand with extra = 1 and no 'draws' "
                    f"rule of its own, got {draws[:40]!r}"
                )
        stake = item.get("stake", 1)
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE:
            raise AnalyzerError(
                f"{action_where}: 'stake' must be a whole number of base stakes, 1 to {MAX_STAKE}"
            )
        forfeit = _fold(item, action_where)
        actions.append(Action(name, draws, stake, _labels(item, action_where), forfeit))
    if len({a.name for a in actions}) != len(actions):
        raise AnalyzerError(f"{where}: two actions have one name")
    if all(a.folds for a in actions):
        raise AnalyzerError(f"{where}: every action folds; one at least must play on")
    if len({(a.draws, a.stake, a.forfeit) for a in actions}) != len(actions):
        raise AnalyzerError(
            f"{where}: two actions do the same (the same card drawn and the same stake)"
        )
    chances = _shown(value.get("shown"), len(sees), where, shown)
    bets = None
    if punto_banco:
        bets = require(value, "bets", list, where)
        if not bets or not all(isinstance(bet, str) for bet in bets):
            raise AnalyzerError(
                f"{where}: 'bets' must list the ids of the bets the decision is for"
            )
        if len(set(bets)) != len(bets):
            raise AnalyzerError(f"{where}: 'bets' names a bet twice")
        bets = tuple(bets)
    return Decision(tuple(sees), tuple(actions), chances, bets)


#: A loss's spelling: "lose" and the share of the stake lost ("lose 1/2", "lose half",
#: "lose 0.5"), or "lose" alone (the whole stake).
_LOSS = Pattern(r"^\s*lose(?:\s+(half|[0-9]{1,6}(?:/[0-9]{1,6}|\.[0-9]{1,6})?))?\s*$", re.I)


def lost_share(value: str, where: str) -> Fraction:
    """The share of the stake a loss spelled ``value`` loses: ``"lose"`` 1, ``"lose 1/2"``
    (or ``"lose half"``, ``"lose 0.5"``) one half; a share in (0, 1]. A paytable's partial
    loss and a fold's ``pays`` read it. Anything else is one line starting ``where``.

    Raises
    ------
    AnalyzerError
        Not a loss's spelling, or a share outside (0, 1].

    Examples
    --------
    >>> lost_share("lose 1/2", "pays"), lost_share("lose", "pays")
    (Fraction(1, 2), Fraction(1, 1))
    """
    match = _LOSS.match(value)
    if not match:
        raise AnalyzerError(
            f"{where}: a partial loss is 'lose' and the share of the stake lost, e.g. "
            "'lose 1/2' or 'lose half'"
        )
    text = (match[1] or "1").lower()
    try:
        share = Fraction(1, 2) if text == "half" else Fraction(text)
    except ZeroDivisionError:
        raise AnalyzerError(f"{where}: division by zero") from None
    if not 0 < share <= 1:
        raise AnalyzerError(
            f"{where}: the share of the stake lost must be more than 0 "
            '(use "push") and at most 1 (the whole stake)'
        )
    return share


def _fold(item: Mapping[str, Any], where: str) -> Fraction:
    """An action's ``pays`` (a fold: ``"lose"``, a surrender ``"lose 1/2"``): the share of
    the base stake it loses; 0 without ``pays``. A fold plays no further (no ``draws``,
    no ``stake``) and cannot gain or push."""
    if "pays" not in item:
        return Fraction(0)
    pays = item["pays"]
    if not isinstance(pays, str) or not pays.strip().lower().startswith("lose"):
        raise AnalyzerError(
            f"{where}: a fold's 'pays' loses the stake or a share of it ('lose', "
            f"'lose 1/2'), got {str(pays)[:40]!r}: a fold cannot win or push"
        )
    if "draws" in item or "stake" in item:
        raise AnalyzerError(
            f"{where}: a fold ('pays') forfeits the base stake without playing on: it takes "
            "no 'draws' nor 'stake'"
        )
    return lost_share(pays, f"{where}: 'pays' {pays[:40]!r}")


def _shown(
    value: object, cards: int, where: str, read: Callable[[object, str], dict] | None
) -> tuple[tuple[int, Any], ...]:
    """``shown = { 1 = "1/4", ... }``: how many of the cards seen a round shows, with
    each number's chance (summing to 1)."""
    if value is None:
        return ()
    table(value, where, "'shown' (a table: number of cards shown = its chance)")
    for key in value:
        if not (isinstance(key, str) and key.isdigit() and 0 <= int(key) <= cards):
            raise AnalyzerError(
                f"{where}: 'shown': {str(key)[:20]!r} is not a number of cards from 0 to "
                f"{cards} (the cards 'sees' names)"
            )
    chances = (read or _exact_chances)(value, where)
    return tuple(sorted((int(k), p) for k, p in chances.items()))


def _exact_chances(value: Mapping[str, Any], where: str) -> dict[str, Fraction]:
    """Exact chances summing to 1 (a game's own decision: a game file has no unknowns)."""
    if not value:
        raise AnalyzerError(f"{where}: 'shown' is empty")
    out = {}
    for key, chance in value.items():
        p = exact_number(chance, f"{where}: 'shown'", f"the chance of {key} cards")
        if not 0 <= p <= 1:
            raise AnalyzerError(f"{where}: 'shown': the chance of {key} cards is outside [0, 1]")
        out[key] = p
    total = sum(out.values(), start=Fraction(0))
    if total != 1:
        raise AnalyzerError(f"{where}: the chances of 'shown' sum to {total}, not 1")
    return out


def decision_from_table(
    value: object,
    where: str = "[decision]",
    shown: Callable[[object, str], dict] | None = None,
) -> Decision:
    """A punto banco paytable's ``[decision]``: the cards of the first four the player may
    see (``player_card1`` ... ``banker_card2``), at random with ``shown``; the actions,
    each a ``stake`` (punto banco's hands draw by the rules); and the ``bets`` it is for.
    ``shown`` reads the chances (see :func:`_decision`)."""
    decision = _decision(
        value,
        PUNTO_BANCO_HANDS.hands,
        where.removesuffix(": [decision]"),
        punto_banco=True,
        shown=shown,
    )
    assert decision is not None
    return decision


#: The fields a bet of a punto banco ``[decision]`` may read: the walk after the first
#: four cards tells the winner and the final scores apart.
DECIDED_FIELDS = ("winner", "player_score", "banker_score")

#: Punto banco's hands as a decision names their cards (``player_card1`` ...): the
#: Player and the Banker, two cards each and a third by the drawing rules.
PUNTO_BANCO_HANDS = Game(
    "Punto banco",
    (
        Hand("player", 2, {"en": "Player", "ms": "Pemain"}, 1, (0,)),
        Hand("banker", 2, {"en": "Banker"}, 1, (0,)),
    ),
)


@cache
def named_game(name: str) -> Game:
    """A shipped game by name (:data:`GAME_NAMES`); an unknown name is one line."""
    argument(name, str, "game", " (a game's name)")
    if name not in GAME_NAMES:
        raise AnalyzerError(
            f"unknown game {name[:40]!r} (games: {', '.join(GAME_NAMES)}, or a [game] table)"
        )
    folder = shipped_folder("analyzer.game", "games")
    data = toml_data((folder / f"{name}.toml").read_bytes(), keep=True)
    return game_from_table(data, f"game {name!r}")
