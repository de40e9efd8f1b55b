"""The card walk's plan: what it must tell apart of each card for a set of fields.

Each of the six cards (Player 1, Banker 1, Player 2, Banker 2, Player 3, Banker 3) is
dealt at the coarsest detail the fields need (:func:`plan`):

* a card a bet asks nothing of (beyond the round's outcome) is dealt by point value (10
  classes), and so is one whose point value is all it asks;
* the others are dealt as *fine types*: the coarsest card types that tell apart every
  attribute any card needs (point value or rank, times nothing, colour or suit).

A text attribute that the bets only ever compare with constants (``banker_card3_rank in
('J', 'Q', 'K')``) tells those constants apart and lumps the rest together. When the
fields ask nothing of the round beyond some of the first four cards, only those are
dealt (:attr:`CardPlan.dealt_alone`). Suits that the bets compare only with each other
matter only in which cards share one (:attr:`CardPlan.suit_pattern`), and a flush of
the first four that no other field reads a suit for is counted from the suits' counts
(:attr:`CardPlan.flush_sum`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property

from analyzer.game.fields import CARDS, FIELD, SUITED_PAIR_FIELDS, WALK_FIELDS
from analyzer.records import record

#: The most rounds the walk visits for one table (about a minute on this machine's core):
#: beyond it a paytable asks for more detail of more cards than can be counted here.
MAX_VISITS = 3 * 10**9
#: Rounds the card walks of one command may visit in all: five times the largest single
#: walk (one walk visits some 8e7 rounds a second on one core of this machine, so this is
#: a few minutes; effects of removal on the card bets of one shipped paytable take at most
#: 4e9).
MAX_COMMAND_VISITS = 5 * MAX_VISITS
#: Compiling a walk into terms (recording every round's term) costs about as many rounds
#: as this many walks of it (Super Tie: 3.8 s against 0.8 s).
COMPILING = 5


@record
class CardPlan:
    """What the walk must tell apart for a set of fields.

    ``needs[c]`` maps each attribute card ``c`` must show (``rank``, ``suit``,
    ``colour``, ``value``) to the only values it must tell apart from the rest, or None
    for all of them; ``outcome`` lists the round-level fields asked for.
    """

    fields: frozenset[str]
    needs: tuple[dict[str, frozenset[str] | None], ...]
    outcome: tuple[str, ...]
    #: The fields worked out from several cards at once, in WALK_FIELDS order, and what
    #: each card must show the walk (not the table) for them.
    walk: tuple[str, ...] = ()
    walk_needs: tuple[frozenset[str], ...] = (frozenset(),) * len(CARDS)
    #: The cards whose suits are told apart only by which of them share a suit (every
    #: suit asked only compared with other suits, no colour asked): the walk counts their
    #: suit patterns, up to relabelling the four suits, in place of their suits.
    suit_pattern: tuple[int, ...] = ()
    #: The first four's flush is the only thing any field reads of a suit: the walk deals
    #: those cards without their suits and splits each round's ways into those of a
    #: flush (a sum over the four suits of the ways to deal the four in that suit) and
    #: the rest, where it would otherwise deal 4^4 tuples of suits.
    flush_sum: bool = False

    @cached_property
    def key(self) -> tuple:
        """What the plan is, hashable: plans with the same key are laid out alike (a
        layout's frame is made once per key, :func:`~analyzer.engine.card_walk.layout.
        lay_out`)."""
        needs = tuple(tuple(sorted(need.items())) for need in self.needs)
        return (
            self.fields,
            needs,
            self.outcome,
            self.walk,
            self.walk_needs,
            self.suit_pattern,
            self.flush_sum,
        )

    @cached_property  # asked for at every card of a layout
    def fine(self) -> tuple[bool, ...]:
        """Which cards are dealt as fine types (the others by point value)."""
        return tuple(
            bool((set(need) | walk) - {"value"})
            for need, walk in zip(self.needs, self.walk_needs, strict=True)
        )

    @cached_property
    def dealt_alone(self) -> tuple[int, ...]:
        """The cards to deal, when the fields ask nothing of the round beyond some of the
        first four cards; () when the whole round must be dealt.

        The rest of a round then only completes an ordered six-card sequence: every way to
        do so adds up to (N - u)(N - u - 1)... over the u cards dealt, whatever the draw.
        """
        if self.outcome or set(self.walk) - set(_WALK_FIELDS_FIRST_FOUR):
            return ()
        asked = [bool(need or walk) for need, walk in zip(self.needs, self.walk_needs, strict=True)]
        if any(asked[4:]) or not any(asked):
            return ()
        return tuple(card for card in range(4) if asked[card])

    @cached_property
    def needs_suits(self) -> bool:
        """Does the walk need the shoe's suits?"""
        return any(
            {"suit", "colour"} & (set(need) | walk)
            for need, walk in zip(self.needs, self.walk_needs, strict=True)
        )


def plan(
    fields: frozenset[str] | set[str],
    literals: Mapping[str, frozenset[str]] | None = None,
    relational: frozenset[str] | set[str] | None = None,
    suit_sums: bool = True,
) -> CardPlan:
    """The least the walk must tell apart to give ``fields``; ``literals`` names the text
    fields only ever compared with constants, and those constants (see
    :attr:`analyzer.paytables.model.Bet.literals`), ``relational`` those only ever
    compared with other fields (:attr:`analyzer.paytables.model.Bet.relational`);
    ``suit_sums`` False deals every suit as it is, neither by pattern nor as a flush
    summed over the suits (where every round's ways must be one product of card counts,
    as a term's are: a suited pair's suits by pattern are not)."""
    literals = literals or {}
    needs: list[dict[str, frozenset[str] | None]] = [{} for _ in CARDS]
    outcome = []
    for name in sorted(fields):
        spec = FIELD[name]
        for card, attribute in spec.cards:
            values = literals.get(name) if spec.card_level else None
            need = needs[card]
            if attribute in need and (need[attribute] is None or values is None):
                need[attribute] = None
            else:
                need[attribute] = frozenset(need.get(attribute) or ()) | (values or frozenset())
                if values is None:
                    need[attribute] = None
        if not spec.cards and not spec.card_level:
            outcome.append(name)
    walk = tuple(name for name in WALK_FIELDS if name in fields)
    walk_needs: list[set[str]] = [set() for _ in CARDS]
    for name in walk:
        for card in _WALK_CARDS.get(name, ()):
            walk_needs[card] |= _WALK_ATTRIBUTES[name]
    return CardPlan(
        frozenset(fields),
        tuple(needs),
        tuple(outcome),
        walk,
        tuple(frozenset(need) for need in walk_needs),
        _suit_pattern(frozenset(fields), frozenset(relational or ()), needs, walk_needs)
        if suit_sums
        else (),
        suit_sums
        and "first_four_flush" in walk
        and not any({"suit", "colour"} & set(need) for need in needs),
    )


def _suit_pattern(
    fields: frozenset[str],
    relational: frozenset[str],
    needs: list[dict[str, frozenset[str] | None]],
    walk_needs: list[set[str]],
) -> tuple[int, ...]:
    """The cards whose suits matter only in which of them are equal (see
    :attr:`CardPlan.suit_pattern`), or () where some suit or colour matters itself.

    Relabelling the four suits leaves a round's fields unchanged when every suit field
    asked is compared only with other fields (a suit never equals a rank or a colour, and
    a third card not dealt shows no suit, whatever the labels), the suited pairs compare
    two suits, and neither a colour nor a walk field reads a suit."""
    asked = [card for card, need in enumerate(needs) if "suit" in need]
    by_suit = [
        name for name in fields if any(attribute == "suit" for _, attribute in FIELD[name].cards)
    ]
    if not asked or any({"suit", "colour"} & walk for walk in walk_needs):
        return ()
    if any("colour" in need for need in needs):
        return ()
    if not all(name in relational or name in SUITED_PAIR_FIELDS for name in by_suit):
        return ()
    return tuple(asked)


#: Which cards, and which of their attributes, the walk reads for each field it works out
#: (max_card_value reads the point values every card has anyway).
_WALK_CARDS = {
    "first_four_pattern": range(4),
    "first_four_flush": range(4),
    "first_four_straight": range(4),
    "cards_pattern": range(len(CARDS)),
}
#: The walk fields that read only the first four cards.
_WALK_FIELDS_FIRST_FOUR = tuple(name for name, cards in _WALK_CARDS.items() if max(cards) < 4)
_WALK_ATTRIBUTES = {
    "first_four_pattern": {"rank"},
    "first_four_flush": {"suit"},
    "first_four_straight": {"rank"},
    "cards_pattern": {"rank"},
}


#: What bets share when they share a walk: the fields they ask for, the constants they
#: compare text fields with, and the text fields they compare only with each other.
WalkKey = tuple[frozenset[str], frozenset, frozenset[str]]


def walk_key(bet) -> WalkKey:
    """Bets asking the same of the cards share one walk (and one outcome table)."""
    return (bet.fields, frozenset(bet.literals.items()), bet.relational)
