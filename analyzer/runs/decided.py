"""Punto banco rounds with a player's decision (Peek Baccarat) as shoes deal them: the
cards each round shows, drawn at random, and the action each bet of the decision takes
on them, from its exact strategy table.

A punto banco paytable's ``[decision]`` sees some of the first four cards
(:data:`~analyzer.engine.deal_walk.FIRST_FOUR`: Player, Banker, Player, Banker); where
its ``shown`` makes them random, a round shows ``k`` of them with the chance ``shown``
gives ``k`` (at the values of the paytable's unknowns), each set of ``k`` cards alike.
Which cards a dealt round shows is drawn by numpy's ``Generator``, outside the dealing
kernel: ``k`` first, by those chances, then one of the sets of ``k`` cards uniformly.
Each bet of the decision then takes the action its strategy table plays in the round's
information set (the cards shown and their point values): the best of the exact
solution on a full shoe of the procedure's decks, or the one ``--decisions`` gave. The
hands draw by the drawing rules whatever the action, so the rounds are those punto
banco's dealer deals (:mod:`analyzer.runs.dealer`); an action changes the stake only: a
round played at ``stake`` base stakes nets ``stake`` times its line's payout, less the
bet's fee, paid on the base stake.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.analysis.decisions import Choice, StrategyTable
from analyzer.analysis.exact import analyze
from analyzer.engine.deal_walk import FIRST_FOUR
from analyzer.errors import AnalyzerError
from analyzer.game.cards import Card
from analyzer.game.games import Action, Reveal
from analyzer.game.rules import deal_round
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Paytable
from analyzer.paytables.settle import Settlement, settling_rule

__all__ = [
    "DecidedPlay",
    "DecidedPlays",
    "decided_plays",
    "decided_tables",
    "draw_reveals",
    "play_decided",
    "reveal_codes",
]


@dataclass(frozen=True, eq=False)
class DecidedPlays:
    """How the bets of a punto banco ``[decision]`` are played in dealt rounds.

    ``reveals``: the ways the cards may be shown, with their exact chances (the
    decision's :attr:`~analyzer.game.games.Decision.reveals`); ``places``: per reveal,
    where its cards are among the first four (:data:`FIRST_FOUR`), in the decision's
    order; ``columns``: the (bet, mode) columns of ``paytable.offered`` the decision is
    for; ``actions``: per column and reveal, the index of the action played in each
    information set, by its code
    (:meth:`~analyzer.analysis.decisions.StrategyTable.played_actions`); ``stakes``:
    each action's stake, in base stakes; ``forfeits``: the share of the base stake each
    action forfeits (a fold's; 0 for an action that plays on)."""

    reveals: tuple[Reveal, ...]
    places: tuple[tuple[int, ...], ...]
    columns: tuple[int, ...]
    actions: tuple[tuple[np.ndarray, ...], ...]
    stakes: np.ndarray
    forfeits: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.forfeits is None:
            object.__setattr__(self, "forfeits", np.zeros(len(self.stakes)))

    def round_stakes(self, column: int, reveal: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Per round, the stake (float64, in base stakes) the bet of ``column`` (an index
        of :attr:`columns`) plays at (:meth:`round_actions`)."""
        return self.stakes[self.round_actions(column, reveal, codes)]

    def round_actions(self, column: int, reveal: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Per round, the index of the action (of the decision's) the bet of ``column``
        (an index of :attr:`columns`) takes: that of the round's information set (its
        ``reveal``, an index of :attr:`reveals`, and ``codes``, from
        :func:`reveal_codes`)."""
        played = np.empty(len(codes), dtype=np.int64)
        for r, by_code in enumerate(self.actions[column]):
            rows = reveal == r
            played[rows] = by_code[codes[rows]]
        if (played < 0).any():  # (a full shoe deals every set a depleted one does)
            raise AnalyzerError(
                "a round showed cards whose information set the strategy table does not have"
            )
        return played


def decided_tables(paytable: Paytable, shoe: Shoe) -> dict[tuple[str, str], StrategyTable]:
    """The strategy table of every (bet, mode) on offer, in every mode, that
    ``paytable``'s punto banco ``[decision]`` is for, solved exactly on ``shoe`` (the play
    ``--decisions`` gave where given), in the paytable's order.

    Parameters
    ----------
    paytable : Paytable
        A punto banco paytable with a ``[decision]``, its unknowns given values.
    shoe : Shoe
        The shoe the strategies are solved on (play's: a full shoe of the paytable's
        decks).

    Returns
    -------
    dict
        ``(bet id, mode)`` -> its :class:`~analyzer.analysis.decisions.StrategyTable`.

    Raises
    ------
    AnalyzerError
        A paytable without a punto banco ``[decision]``, or whose decision's chances
        still have unknowns (one line).
    """
    if paytable.punto_banco_decision is None:
        raise AnalyzerError(f"{paytable.source} has no [decision] of punto banco")
    decided = [key for key in paytable.offered(paytable.modes) if key[0].id in paytable.decided]
    if not decided:
        return {}
    bets = tuple(dict.fromkeys(bet.id for bet, _ in decided))
    choices = analyze(paytable=paytable, shoe=shoe, bets=bets).choices
    return {(bet.id, mode): choices[(bet.id, mode)] for bet, mode in decided}


@dataclass(frozen=True)
class DecidedPlay:
    """How one bet of a punto banco ``[decision]`` was played in a round: its strategy's
    ``choice`` in the round's information set (each action's exact expected net there,
    the best, the action its strategy plays), the ``action`` taken and the round's
    ``net`` per base stake (the stake times the line's payout, less the fee)."""

    choice: Choice
    action: Action
    net: Fraction


def play_decided(
    paytable: Paytable,
    cards: Sequence[Card],
    reveal: int,
    tables: Mapping[tuple[str, str], StrategyTable],
    action: Action | None = None,
) -> dict[tuple[str, str], DecidedPlay]:
    """One round of a punto banco paytable with a ``[decision]``, dealt from ``cards``
    (P B P B, then the third cards the rules draw), showing the cards of ``reveal`` (an
    index of the decision's reveals): per (bet, mode) of ``tables``
    (:func:`decided_tables`), its strategy's choice in the round's information set, the
    action taken (``action`` for every bet, else the one its table plays there) and the
    net per base stake, exactly.

    Parameters
    ----------
    paytable : Paytable
        A punto banco paytable with a ``[decision]``.
    cards : sequence of Card
        The round's cards in deal order, as many as it takes.
    reveal : int
        The cards the round shows, an index of the decision's ``reveals``.
    tables : mapping
        The strategy tables (:func:`decided_tables`).
    action : Action, optional
        The action every bet of the decision takes (default: each table's).

    Returns
    -------
    dict
        ``(bet id, mode)`` -> its :class:`DecidedPlay`.

    Raises
    ------
    AnalyzerError
        Cards that do not make a round (one line).
    """
    decision = paytable.punto_banco_decision
    dealt = deal_round(cards, paytable.rules, paytable.strategy)
    # What a bet of the decision may read (DECIDED_FIELDS), as the exact walk names it.
    columns = {
        "winner": np.array([dealt.winner]),
        "player_score": np.array([dealt.player_score]),
        "banker_score": np.array([dealt.banker_score]),
    }
    values = [card.value for card in cards[:4]]
    places = dict(zip(FIRST_FOUR, values, strict=True))
    code = int("".join(str(places[card]) for card in decision.reveals[reveal].sees) or "0")
    by_name = {a.name: a for a in decision.actions}
    out = {}
    for (bet_id, mode), table in tables.items():
        bet = paytable.bet(bet_id, mode)
        choice = table.choice(code, reveal)
        taken = action or by_name[choice.played]
        rule = int(settling_rule(bet, columns, 1)[0])
        net = taken.stake * Settlement(bet).round_net(rule, Fraction(1)) - bet.fee
        if taken.folds:  # (the share of the base stake forfeit, the fee paid)
            net = -taken.forfeit - bet.fee
        out[(bet_id, mode)] = DecidedPlay(choice, taken, net)
    return out


def decided_plays(paytable: Paytable, shoe: Shoe) -> DecidedPlays:
    """The play of every (bet, mode) on offer that ``paytable``'s punto banco
    ``[decision]`` is for: each strategy table solved exactly on ``shoe`` (a simulation's:
    a full shoe of its decks, what the exact EVs it is set beside are worked out on), once
    per (bet, mode), before any shoe is dealt; the play ``--decisions`` gave where given.

    Parameters
    ----------
    paytable : Paytable
        A punto banco paytable with a ``[decision]``, its unknowns given values.
    shoe : Shoe
        The shoe the strategies are solved on.

    Returns
    -------
    DecidedPlays
        What the simulation reads of the play, as arrays.

    Raises
    ------
    AnalyzerError
        A paytable whose decision's chances still have unknowns (one line).
    """
    tables = decided_tables(paytable, shoe)
    decision = paytable.punto_banco_decision
    offered = list(paytable.offered(paytable.modes))
    columns = tuple(b for b, (bet, mode) in enumerate(offered) if (bet.id, mode) in tables)
    reveals = decision.reveals
    actions = [
        tuple(
            tables[(offered[b][0].id, offered[b][1])].played_actions(r) for r in range(len(reveals))
        )
        for b in columns
    ]
    place = {card: i for i, card in enumerate(FIRST_FOUR)}
    return DecidedPlays(
        reveals,
        tuple(tuple(place[card] for card in reveal.sees) for reveal in reveals),
        columns,
        tuple(actions),
        np.array([float(action.stake) for action in decision.actions]),
        np.array([float(action.forfeit) for action in decision.actions]),
    )


def draw_reveals(rng: np.random.Generator, reveals: tuple[Reveal, ...], n: int) -> np.ndarray:
    """Per round of ``n``, the index in ``reveals`` of the cards it shows: the number of
    cards drawn by its chance (the sum of its sets' chances), then one of the sets of
    that many cards, each alike (the decision lists them together, numbers ascending).
    With one way to show the cards nothing is drawn.

    Parameters
    ----------
    rng : numpy.random.Generator
        The partition's random numbers (drawn after its shoes are dealt).
    reveals : tuple of Reveal
        The decision's ways to show its cards, with their exact chances.
    n : int
        The rounds.

    Returns
    -------
    int64 array
        Each round's reveal, an index of ``reveals``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from analyzer.game.games import Reveal
    >>> one = tuple(Reveal((card,), Fraction(1, 8)) for card in FIRST_FOUR)
    >>> reveals = (*one, Reveal(FIRST_FOUR, Fraction(1, 2)))
    >>> drawn = draw_reveals(np.random.default_rng(1), reveals, 10_000)
    >>> bool(abs((drawn == 4).mean() - 0.5) < 0.02), sorted(set(drawn.tolist()))
    (True, [0, 1, 2, 3, 4])
    """
    if len(reveals) == 1:
        return np.zeros(n, dtype=np.int64)
    first: list[int] = []
    sets: list[int] = []
    chances: list[Fraction] = []
    for r, reveal in enumerate(reveals):
        if not first or len(reveal.sees) != len(reveals[first[-1]].sees):
            first.append(r)
            sets.append(0)
            chances.append(Fraction(0))
        sets[-1] += 1
        chances[-1] += reveal.chance
    p = np.array([float(c) for c in chances])
    k = rng.choice(len(first), size=n, p=p / p.sum())
    within = rng.integers(0, np.array(sets, dtype=np.int64)[k])
    return np.array(first, dtype=np.int64)[k] + within


def reveal_codes(
    places: tuple[tuple[int, ...], ...], first_four: np.ndarray, reveal: np.ndarray
) -> np.ndarray:
    """Per round, the code of its information set: the point values of the cards its
    reveal shows (``reveal``, an index of ``places``; ``first_four``, the round's first
    four cards' point values, a row per round in :data:`FIRST_FOUR` order), one decimal
    digit a card in the decision's order, the first the most significant, as the strategy
    table reads it (:meth:`~analyzer.analysis.decisions.StrategyTable.choice`).

    Parameters
    ----------
    places : tuple of tuples of int
        Per reveal, the places of its cards among the first four (:attr:`DecidedPlays.places`).
    first_four : int array, shape (rounds, 4)
        The rounds' first four cards' point values.
    reveal : int array
        Each round's reveal (:func:`draw_reveals`).

    Returns
    -------
    int64 array
        Each round's set code.

    Examples
    --------
    >>> first_four = np.array([[3, 0, 4, 9], [3, 0, 4, 9]])
    >>> reveal_codes(((0, 2), (1, 2, 3)), first_four, np.array([0, 1]))
    array([34, 49])
    """
    codes = np.zeros(len(reveal), dtype=np.int64)
    for r, kept in enumerate(places):
        rows = reveal == r
        code = np.zeros(int(rows.sum()), dtype=np.int64)
        for place in kept:
            code = code * 10 + first_four[rows, place]
        codes[rows] = code
    return codes
