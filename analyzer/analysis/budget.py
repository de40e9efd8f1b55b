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
from typing import TYPE_CHECKING

from analyzer.engine.card_walk import MAX_COMMAND_VISITS, WalkKey
from analyzer.engine.pricing import pricing
from analyzer.errors import AnalyzerError
from analyzer.game.rules import STANDARD_MIXTURE, Mixture
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Bet

if TYPE_CHECKING:  # (imported where a walk is planned: bets on the round need no kernel)
    from analyzer.engine.card_walk import CardWalk

#: Rounds the card walks of one command may visit in all (defined with the walk: the
#: batch engine weighs its fallback by it too).
MAX_VISITS = MAX_COMMAND_VISITS

#: What a user can do about too many rounds walked.
FEWER_CARD_BETS = "choose fewer bets on the cards (--bet), or split the paytable"


def card_walks(
    bets: Iterable[Bet], shoe: Shoe, mixture: Mixture = STANDARD_MIXTURE
) -> dict[WalkKey, CardWalk]:
    """The walks the card-level ``bets`` need on ``shoe``, planned and each checked
    against its own limits, by walk key (a bet on suits where the shoe's suits are
    unknown is left out: it is reported as not computable, not walked).

    Bets asking the same of the cards share one walk; bets asking of the same cards for
    different constants (``player_card1_rank == 'A'``, ``== 'K'``, ...) share one walk
    that tells all those constants apart wherever that walk costs less than theirs do
    apart (2,704 bets on two cards walked 2.5e10 rounds one by one, 2.8e7 together).
    ``mixture``: the tableaus the hands draw by (a paytable's :attr:`~Paytable.mixture`)."""
    wanted: dict[WalkKey, Bet] = {}
    for bet in bets:
        priced = pricing(bet)
        if priced.engine == "cards" and not priced.unavailable(shoe.suits_known):
            wanted.setdefault(priced.walk, bet)
    if not wanted:
        return {}
    from analyzer.engine.card_walk import CardWalk

    walks = {
        key: CardWalk(shoe, bet.fields, bet.literals, bet.relational, mixture)
        for key, bet in wanted.items()
    }
    by_fields: dict[frozenset[str], list[WalkKey]] = {}
    for key in walks:
        by_fields.setdefault(key[0], []).append(key)
    for keys in by_fields.values():
        if len(keys) > 1:
            _share(walks, keys, [wanted[key] for key in keys], shoe, mixture)
    return walks


def _share(
    walks: dict[WalkKey, CardWalk],
    keys: list[WalkKey],
    bets: list[Bet],
    shoe: Shoe,
    mixture: Mixture,
) -> None:
    """One walk for bets of the same fields, telling apart every constant any of them
    names, in place of theirs, where it is within its limits and walks fewer rounds."""
    literals = shared_literals(bets)
    # Suits by pattern only where every bet compares them only with each other.
    relational = frozenset.intersection(*(bet.relational for bet in bets))
    from analyzer.engine.card_walk import CardWalk

    try:
        shared = CardWalk(shoe, bets[0].fields, literals, relational, mixture)
    except AnalyzerError:  # too much for one walk: each keeps its own
        return
    if shared.visits < sum(walks[key].visits for key in keys):
        for key in keys:
            walks[key] = shared


def shared_literals(bets: list[Bet]) -> dict[str, frozenset[str]]:
    """The constants one walk for all of ``bets`` tells apart: per text field, every
    constant any bet asking it names, where every bet asking it compares it only with
    constants (else some bet needs every value: the field is not in the result)."""
    literals: dict[str, frozenset[str]] = {}
    for name in frozenset().union(*(bet.fields for bet in bets)):
        asking = [bet for bet in bets if name in bet.fields]
        if all(name in bet.literals for bet in asking):
            literals[name] = frozenset().union(*(bet.literals[name] for bet in asking))
    return literals


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
    mixture: Mixture = STANDARD_MIXTURE,
) -> None:
    """Check, before any work, ``times`` exact analyses of ``bets`` on ``shoe`` (or on
    shoes a few cards smaller): each walk's own limits, and their rounds in all."""
    check_visits(times * walked(card_walks(bets, shoe, mixture)), what, fix)


def distinct_walks(walks: dict[WalkKey, CardWalk]) -> list[CardWalk]:
    """Each walk of ``walks`` once, however many bets (walk keys) share it."""
    return list({id(walk): walk for walk in walks.values()}.values())


def walked(walks: dict[WalkKey, CardWalk]) -> int:
    """The rounds ``walks`` visit in all, each walk once however many bets share it."""
    return sum(walk.visits for walk in distinct_walks(walks))
