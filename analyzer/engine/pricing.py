"""Which engine prices a bet: decided here, once, for every engine.

A bet is priced by what its settlement must see of a round, and each engine (the exact
analysis, the batch engine, the simulator, the effects of removal) maps that to its own
method:

- ``values``: the hands' scores and third cards only (the value enumerator's table; the
  batch engine's compiled value terms);
- ``pairs``: only whether each hand's first two cards pair (the pair states, in closed
  form, in the batch engine; the pair enumerator's table in the exact analysis);
- ``round``: both (the pair enumerator's table at the detail the bet needs);
- ``cards``: the cards themselves (the card-level walk of the bet's walk key);
- ``identities``: which card identities (rank and suit) the cards its multiplier counts
  hold, with its round fields on the same table: the identity walk counts them for the
  winner's, both or one hand's cards (``kind``); for a hand's first two cards the
  suited-pair states are the pattern (``kind`` None, the pair table at suit detail).

A bet the engines cannot price exactly (multiplied and looking at the cards themselves,
or at pairs while multiplied by more than a hand's first two cards) has ``why_not``; one
that needs suits is unavailable on a shoe whose suits are unknown
(:meth:`Pricing.unavailable`). A new kind of bet is a new engine here, and every engine
learns of it in one place.
"""

from __future__ import annotations

from typing import Literal

from analyzer.engine.card_walk import WalkKey, plan, walk_key
from analyzer.game.fields import SUITED_PAIR_FIELDS, PairDetail, pair_detail_needed
from analyzer.game.identities import FIRST_TWO_KINDS
from analyzer.paytables.model import Bet
from analyzer.records import record

Engine = Literal["values", "pairs", "round", "cards", "identities"]

#: Why a bet that needs suits is not priced on a shoe whose suits are unknown.
UNKNOWN_SUITS = (
    "the shoe's suits are not known (a card removed by rank alone, or counts given per rank)"
)
_PAIR_ONLY_FIELDS = frozenset({"player_pair", "banker_pair", *SUITED_PAIR_FIELDS})


class Reason(str):
    """Why a bet is not priced exactly: the English text (as JSON and errors give it),
    with a ``key`` and the ``fields`` it is made of, so that a report can say it in
    another language (the reports' sentence ``why_KEY`` with those fields)."""

    key: str
    fields: tuple[tuple[str, str], ...]

    def __new__(cls, text: str, key: str, fields: tuple[tuple[str, str], ...] = ()) -> Reason:
        reason = super().__new__(cls, text)
        reason.key = key
        reason.fields = fields
        return reason

    def __reduce__(self) -> tuple:  # (an analysis pickles, to a worker and back)
        return (Reason, (str(self), self.key, self.fields))


@record
class Pricing:
    """How one bet is priced: by which engine, on a table of what pair detail, by which
    card walk or identity walk, and whether it needs the shoe's suits."""

    engine: Engine
    #: The pair detail of the outcome table the bet is settled on (every engine but
    #: ``cards``, whose walk keeps its own).
    detail: PairDetail
    #: ``cards``: the walk the bet shares with bets asking the same of the cards.
    walk: WalkKey | None = None
    #: ``identities``: the identity walk's kind (one of WALKED_KINDS); None for a hand's
    #: first two cards, whose pattern the suited-pair states give.
    kind: str | None = None
    #: Does the bet's price depend on the suits of the shoe's cards?
    needs_suits: bool = False
    #: Why no engine prices the bet exactly, on any shoe (None: one does).
    why_not: Reason | None = None
    #: The suited-pair fields a bet on the round asks about (named when it is unavailable).
    suited: frozenset[str] = frozenset()

    def unavailable(self, suits_known: bool) -> Reason | None:
        """Why the bet is not priced exactly on a shoe whose suits are or are not known
        (None: it is)."""
        if self.why_not is not None:
            return self.why_not
        if self.needs_suits and not suits_known:
            if self.engine == "identities":
                return Reason(f"pays by card identities: {UNKNOWN_SUITS}", "identities_suits")
            if self.engine == "cards":
                return Reason(f"needs suits or colours: {UNKNOWN_SUITS}", "cards_suits")
            fields = ", ".join(sorted(self.suited))
            return Reason(f"needs {fields}: {UNKNOWN_SUITS}", "fields_suits", (("fields", fields),))
        return None


def pricing(bet: Bet) -> Pricing:
    """How ``bet`` is priced (see the module's text)."""
    detail = pair_detail_needed(bet.fields)
    if bet.multiplied:
        return _multiplied(bet, detail)
    if bet.card_level:
        return Pricing(
            "cards",
            "none",
            walk=walk_key(bet),
            needs_suits=plan(bet.fields, bet.literals).needs_suits,
        )
    if detail == "none":
        return Pricing("values", "none")
    suited = bet.fields & frozenset(SUITED_PAIR_FIELDS)
    engine: Engine = "pairs" if bet.fields <= _PAIR_ONLY_FIELDS else "round"
    return Pricing(engine, detail, needs_suits=bool(suited), suited=suited)


def _multiplied(bet: Bet, detail: PairDetail) -> Pricing:
    if bet.card_level:
        why = Reason(
            "is multiplied and looks at the cards themselves: no engine prices that exactly yet",
            "multiplied_cards",
        )
        return Pricing("identities", detail, needs_suits=True, why_not=why)
    if bet.multiply in FIRST_TWO_KINDS:
        # A hand's first two cards are one identity twice exactly in a suited pair.
        return Pricing("identities", "suit", needs_suits=True)
    if detail != "none":
        why = Reason(
            f"asks about pairs and is multiplied by {bet.multiply!r} cards: no engine prices "
            "that exactly yet (multiply = player_first_two or banker_first_two can)",
            "multiplied_pairs",
            (("kind", repr(bet.multiply)),),
        )
        return Pricing("identities", detail, kind=bet.multiply, needs_suits=True, why_not=why)
    return Pricing("identities", "none", kind=bet.multiply, needs_suits=True)


def table_detail(pricings: list[Pricing], suits_known: bool) -> PairDetail:
    """The pair detail of the one outcome table every priced bet but the card walks' and
    the identity walks' is settled on: the most any needs, and no more than the shoe
    gives (bets on suited pairs are then unavailable)."""
    order = ("none", "rank", "suit")
    detail = max(
        (p.detail for p in pricings if p.engine != "cards" and p.kind is None and not p.why_not),
        key=order.index,
        default="none",
    )
    return "rank" if detail == "suit" and not suits_known else detail
