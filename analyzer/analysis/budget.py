"""What a command's exact work will cost, known before any of it is done.

The card-level walks are the part of an exact analysis whose cost grows with what the bets
ask: the value enumerator and the pair states take milliseconds whatever the paytable, a
walk from a thousandth of a second to a minute. Each walk is planned first
(:class:`~analyzer.engine.card_walk.CardWalk`: its own limits checked, the rounds it visits
counted, nothing walked), and a command whose walks add up to more than
:data:`MAX_VISITS` rounds, all its exact analyses together, is refused in one line that
says what to change, before any of them is walked.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyzer.engine.card_walk import MAX_VISITS as MAX_WALK_VISITS
from analyzer.engine.card_walk import CardWalk, plan
from analyzer.errors import AnalyzerError
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Bet

#: Rounds the card walks of one command may visit in all: five times the largest single
#: walk (one walk visits some 8e7 rounds a second on one core of this machine, so this is
#: a few minutes; effects of removal on the card bets of one shipped paytable take at most
#: 4e9).
MAX_VISITS = 5 * MAX_WALK_VISITS

#: What a user can do about too many rounds walked.
FEWER_CARD_BETS = "choose fewer bets on the cards (--bet), or split the paytable"

#: What bets share when they share a walk.
WalkKey = tuple[frozenset[str], frozenset]


def walk_key(bet: Bet) -> WalkKey:
    """Bets asking the same of the cards share one walk (and one outcome table)."""
    return (bet.fields, frozenset(bet.literals.items()))


def card_walks(bets: Iterable[Bet], shoe: Shoe) -> dict[WalkKey, CardWalk]:
    """The walks the card-level ``bets`` need on ``shoe``, one per distinct key, planned
    and each checked against its own limits (a bet on suits where the shoe's suits are
    unknown is left out: it is reported as not computable, not walked)."""
    walks: dict[WalkKey, CardWalk] = {}
    for bet in bets:
        key = walk_key(bet)
        if bet.card_level and key not in walks:
            if not shoe.suits_known and plan(bet.fields, bet.literals).needs_suits:
                continue
            walks[key] = CardWalk(shoe, bet.fields, bet.literals)
    return walks


def check_visits(visits: int, what: str, fix: str) -> None:
    """Refuse ``what`` (a command's exact work, walking ``visits`` rounds in all) when it
    is over :data:`MAX_VISITS`, in one line that ends with ``fix``."""
    if visits > MAX_VISITS:
        raise AnalyzerError(
            f"{what} walks about {visits:.1e} rounds of cards in all (at most "
            f"{MAX_VISITS:.1e}, a few minutes on one core): {fix}"
        )


def check_analyses(
    bets: Iterable[Bet],
    shoe: Shoe,
    times: int = 1,
    what: str = "the exact analysis",
    fix: str = FEWER_CARD_BETS,
) -> None:
    """Check, before any work, ``times`` exact analyses of ``bets`` on ``shoe`` (or on
    shoes a few cards smaller): each walk's own limits, and their rounds in all."""
    walks = card_walks(bets, shoe)
    check_visits(times * sum(walk.visits for walk in walks.values()), what, fix)
