"""Decisions with information, solved exactly: each bet's figures under its best play.

A game of the family may let the player decide after the first deal, seeing some cards
(:class:`~analyzer.game.games.Decision`): stand, or draw a card with a stake twice the
first (Lucky Draw Baccarat). The deal walk plays every round under each action
(:func:`~analyzer.engine.deal_walk.drawn_tables`), each row tagged with its
information set, the point values of the cards the decision sees. Per bet, the exact
net of each action in each set is a sum of integer ways times the rules' nets; the best
action of each set is kept (a tie keeps the first action listed), and the bet's lines
are the rounds as they are played then. There is no opponent and one decision, so this
backward induction is the whole solution; every figure stays an exact fraction.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

import numpy as np

from analyzer.analysis.bets import OTHERWISE, BetResult, Sums, bet_result
from analyzer.engine.deal_walk import (
    FIRST_FOUR,
    INFORMATION,
    SetCells,
    best_actions,
    card_levels,
    check_deal_walk,
    drawn_cells,
    drawn_tables,
    information_values,
    played_ways,
    punto_banco_cells,
)
from analyzer.engine.outcomes import OutcomeTable
from analyzer.errors import AnalyzerError
from analyzer.game.fields import WINNERS
from analyzer.game.games import Action, Game, Reveal
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import LOSE, Bet, Payout, Paytable
from analyzer.paytables.settle import settling_rule
from analyzer.paytables.unknowns import Poly

__all__ = ["Choice", "StrategyTable", "best_play", "fold_condition", "fold_payout"]


def fold_payout(action: Action) -> Payout:
    """What a fold pays a bet of the decision: the share of the base stake it loses
    (``"lose"``, ``"lose 1/2"``), as a line of the bet's figures."""
    return LOSE if action.forfeit == 1 else Payout(action.pays, -action.forfeit)


def fold_condition(action: Action) -> str:
    """The condition a fold's line of a bet's figures is named by (``action == 'fold'``:
    the rounds folded, which no rule of the bet settles)."""
    return f"action == {action.name!r}"


@dataclass(frozen=True)
class Choice:
    """One information set of a decision: the cards it sees (their names, :attr:`cards`,
    and point values, :attr:`seen`, in the order the decision names them), its ordered
    ways, the expected net of each action per base stake given the set
    (:attr:`values`), and the best action. Where the cards shown are random, ``chance``
    is that of a round showing these cards, and a set's probability is that chance times
    its ways over ``over`` (the sequences the ways are out of)."""

    seen: tuple[int, ...]
    ways: int
    #: Each action's total net over the set's ways, in units of 1/``scale`` of a stake
    #: (integers: a thousand sets' Fractions are made only when read).
    nets: dict[str, int]
    scale: int
    best: str
    cards: tuple[str, ...] = ()
    chance: Fraction = Fraction(1)
    over: int = 0
    #: The action the bet's figures play here: the best, or the one ``--decisions`` gave.
    played: str = ""

    def __post_init__(self) -> None:
        if not self.played:
            object.__setattr__(self, "played", self.best)

    @property
    def values(self) -> dict[str, Fraction]:
        """Each action's exact expected net per base stake, given the set."""
        return {name: Fraction(net, self.scale * self.ways) for name, net in self.nets.items()}

    def values_of(self, cards: Sequence[str]) -> dict[str, int | None]:
        """The point value of each of ``cards`` in this set, None where it is not shown."""
        shown = dict(zip(self.cards, self.seen, strict=True))
        return {card: shown.get(card) for card in cards}

    @property
    def probability(self) -> Fraction:
        """The chance of a round in this information set (its cards shown, these values)."""
        return self.chance * Fraction(self.ways, self.over)


@dataclass(frozen=True)
class SetBlock:
    """The information sets of one reveal, as the solver leaves them (arrays, one row a
    set): the sets' ``codes``, their ordered ``ways``, each action's total net over them
    in units of 1/``scale`` of a stake (``nets``: sets x actions, the actions named in
    ``actions``), and the index of the best action (``best``)."""

    reveal: int
    codes: np.ndarray
    ways: np.ndarray
    nets: np.ndarray
    scale: int
    actions: tuple[str, ...]
    best: np.ndarray
    #: The index of the action played in each set where ``--decisions`` gives the play
    #: (None: the best).
    played: np.ndarray | None = None


class StrategyTable(Sequence[Choice]):
    """A bet's strategy table, one :class:`Choice` per information set: made when first
    read (an analysis reads its figures; a table of ten thousand sets costs more than
    they do), from the solver's :class:`SetBlock` of each reveal."""

    def __init__(self, reveals: tuple[Reveal, ...], blocks: list[SetBlock], over: int) -> None:
        self._reveals, self._blocks, self._over = reveals, blocks, over

    @cached_property
    def _choices(self) -> tuple[Choice, ...]:
        out = []
        for block in self._blocks:
            reveal = self._reveals[block.reveal]
            seen = information_values(len(reveal.sees), block.codes)
            nets = block.nets.tolist()
            out += [
                Choice(
                    values,
                    int(block.ways[i]),
                    dict(zip(block.actions, nets[i], strict=True)),
                    block.scale,
                    block.actions[block.best[i]],
                    reveal.sees,
                    reveal.chance,
                    self._over,
                    "" if block.played is None else block.actions[block.played[i]],
                )
                for i, values in enumerate(seen)
            ]
        return tuple(out)

    def choice(self, code: int, reveal: int = 0) -> Choice:
        """The :class:`Choice` of the information set ``code`` of reveal number ``reveal``
        (of the decision's :attr:`~analyzer.game.games.Decision.reveals`: 0 where the
        cards seen are not random), as :func:`~analyzer.engine.deal_walk.information_codes`
        reads it off a dealt round (a KeyError for a set the shoe cannot deal)."""
        return self._choices[self._index[(reveal, code)]]

    @property
    def reveals(self) -> tuple[Reveal, ...]:
        """The ways the decision's cards may be shown, as :meth:`choice` numbers them."""
        return self._reveals

    def played_actions(self, reveal: int = 0) -> np.ndarray:
        """The index of the action played (of the decision's ``actions``: the best, or
        the one ``--decisions`` gave) in each information set of reveal number
        ``reveal``, by the set's code (an int64 array of ``10 ** len(cards shown)``: a
        code is the shown cards' point values as decimal digits, as :meth:`choice` reads
        it); -1 for a set the shoe the table was solved on cannot deal. Read straight
        off the solver's arrays: no :class:`Choice` is made."""
        cards = len(self._reveals[reveal].sees)
        out = np.full(10**cards, -1, dtype=np.int64)
        for block in self._blocks:
            if block.reveal == reveal:
                played = block.best if block.played is None else block.played
                out[block.codes] = played
        return out

    @cached_property
    def _index(self) -> dict[tuple[int, int], int]:
        # (the choices are made block by block, each in its codes' order)
        keys = [(block.reveal, int(code)) for block in self._blocks for code in block.codes]
        return {key: i for i, key in enumerate(keys)}

    def __len__(self) -> int:
        return sum(len(block.codes) for block in self._blocks)

    def __getitem__(self, index):  # type: ignore[override]
        return self._choices[index]


#: Per action, the ways of each (row, information set) of one reveal: the sets' codes, an
#: int64 array (rows x sets: the sets on the long axis) and the rule of the bet settling
#: each row (the last rule, len(bet.rules), "no rule"): a row is a cell of the walk (a
#: winner, scores) or a rule's ways summed.
ByAction = dict[Action | None, tuple[np.ndarray, np.ndarray, np.ndarray]]


def best_play(
    paytable: Paytable, shoe: Shoe, offered: list[tuple[Bet, str]]
) -> tuple[list[BetResult], dict[tuple[str, str], StrategyTable]]:
    """Each offered bet's result under its best play, and its strategy table: a game of
    the family with a decision or hands that draw, or the bets of a punto banco
    paytable's ``[decision]``."""
    if paytable.game is None:
        return _best_punto_banco(paytable, shoe, offered)
    game = paytable.game
    actions: tuple[Action | None, ...] = (None,) if game.decision is None else game.decision.actions
    tables_of = _walked_tables(game, shoe, offered, actions)
    reveals = (Reveal((), Fraction(1)),) if game.decision is None else game.decision.reveals
    results: list[BetResult | None] = [None] * len(offered)
    choices: dict[tuple[str, str], StrategyTable] = {}
    # The bets the decision raises first (their best play, or --decisions'); the others
    # ride on the rounds as the first of them in their mode plays them, at one stake.
    decided = paytable.decided
    order = sorted(range(len(offered)), key=lambda b: offered[b][0].id not in decided)
    for b in order:
        bet, mode = offered[b]
        tables = tables_of[b]
        by_action = {
            action: _sums_by_set(bet, table, action is not None) for action, table in tables.items()
        }
        denominator = next(iter(tables.values())).denominator
        given = _given(paytable, bet, mode)
        per_reveal = [by_action]
        if game.decision is not None and game.decision.shown:  # each reveal's own sets
            sees = game.decision.sees
            per_reveal = [
                {
                    action: (
                        *_shown_sets(codes, sums, len(sees), [sees.index(c) for c in r.sees]),
                        rules,
                    )
                    for action, (codes, sums, rules) in by_action.items()
                }
                for r in reveals
            ]
        leader = None
        if game.decision is not None and bet.id not in decided:
            leader = _leader(offered, decided, mode, choices)
        sets = _Sets.of(per_reveal)
        if leader is None:
            result, blocks = _solve(bet, mode, reveals, sets, denominator, given)
        else:
            result, blocks = _solve(
                bet, mode, reveals, sets, denominator, played_by=leader, raised=False
            )
        results[b] = result
        if blocks is not None:
            choices[(bet.id, mode)] = StrategyTable(reveals, blocks, denominator)
    return results, choices


def _leader(
    offered: list[tuple[Bet, str]],
    decided: frozenset[str],
    mode: str,
    choices: dict[tuple[str, str], StrategyTable],
) -> list[SetBlock] | None:
    """The strategy blocks a bet the decision does not raise rides on: those of the first
    bet it raises in ``mode`` (else in any mode); None where it raises none offered."""
    keys = [(bet.id, m) for bet, m in offered if bet.id in decided]
    for key in sorted(keys, key=lambda key: key[1] != mode):
        if key in choices:
            return choices[key]._blocks
    return None


def _walked_tables(
    game: Game, shoe: Shoe, offered: list[tuple[Bet, str]], actions: tuple[Action | None, ...]
) -> list[dict[Action | None, OutcomeTable | SetCells]]:
    """Each offered bet's rounds under each action: the bets that ask about no single
    card share the walk by values (:func:`~analyzer.engine.deal_walk.drawn_cells`), as
    fast as alone; those
    that ask about the same cards' fields share a walk by card classes
    (:func:`~analyzer.engine.deal_walk.drawn_tables`, where within its
    budget together, else each is walked alone, each within it:
    :func:`~analyzer.engine.deal_walk.check_deal_walk`). Bets on different cards are
    walked apart: one walk would tell apart every pair of their cards' classes. A bet's
    figures are the same on any table that tells its fields apart."""
    groups: dict[frozenset[str], list[int]] = {}
    for b, (bet, _) in enumerate(offered):
        cards = frozenset(
            name
            for name in bet.fields
            if name in game.vocabulary and game.vocabulary[name].card_level
        )
        groups.setdefault(cards, []).append(b)
    out: list = [None] * len(offered)
    for cards, group in groups.items():
        fields = frozenset().union(*(offered[b][0].fields for b in group))
        if cards:
            try:
                check_deal_walk(game, shoe, fields, actions=len(actions))
            except AnalyzerError:  # (each alone is within it: the analysis checked)
                for b in group:
                    out[b] = drawn_tables(game, shoe, offered[b][0].fields, actions)
                continue
        by_cards = any(level >= 0 for level in card_levels(game, fields))
        tables = (drawn_tables if by_cards else drawn_cells)(game, shoe, fields, actions)
        for b in group:
            out[b] = tables
    return out


def _shown_sets(
    codes: np.ndarray, sums: np.ndarray, seen: int, kept: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The sums (rules x sets) of every information set of all ``seen`` cards (their
    codes) summed into the sets of a reveal that shows the cards at places ``kept`` of
    them (in the decision's order): each code keeps those cards' digits, the others
    summed out."""
    shown = np.zeros_like(codes)
    for place in kept:
        shown = shown * 10 + (codes // 10 ** (seen - 1 - place)) % 10
    unique, inverse = np.unique(shown, return_inverse=True)
    out = np.zeros((sums.shape[0], len(unique)), dtype=sums.dtype)
    np.add.at(out.T, inverse.reshape(-1), sums.T)
    return unique, out


def _sums_by_set(
    bet: Bet, table: OutcomeTable | SetCells, by_information: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per information set the table deals (its codes, ascending), the ways of each row
    (a row per set; the sets with ways) and the rule of ``bet`` settling each row: of
    :class:`~analyzer.engine.deal_walk.SetCells`, its cells (each cell's rule settled
    once); of a table, the rules' ways summed (the last row "no rule")."""
    if isinstance(table, SetCells):
        dealt = np.flatnonzero(table.ways.any(axis=0))
        index = settling_rule(bet, table.columns, len(table.ways))
        return dealt, table.ways.take(dealt, axis=1), index
    index = settling_rule(bet, table.columns, len(table.ways))
    codes = (
        np.asarray(table.columns[INFORMATION], dtype=np.int64)
        if by_information
        else np.zeros(len(table.ways), dtype=np.int64)
    )
    # (codes are small, at most 10 ** cards seen: summed by code, the sets dealt kept)
    sums = np.zeros((int(codes.max(initial=0)) + 1, len(bet.rules) + 1), dtype=np.int64)
    np.add.at(sums, (codes, index), table.ways)
    dealt = np.flatnonzero(sums.any(axis=1))
    return dealt, np.ascontiguousarray(sums[dealt].T), np.arange(len(bet.rules) + 1)


def _best_punto_banco(
    paytable: Paytable, shoe: Shoe, offered: list[tuple[Bet, str]]
) -> tuple[list[BetResult], dict[tuple[str, str], StrategyTable]]:
    """The bets of a punto banco ``[decision]``: every round by its first four cards
    (:func:`~analyzer.engine.deal_walk.punto_banco_cells`), each bet settled on the
    (winner, scores) cells, then summed over the cards each reveal hides."""
    decision = paytable.decision
    fields = frozenset().union(*(bet.fields for bet, _ in offered))
    scores = bool(fields & {"player_score", "banker_score"})
    tableau = paytable.rules.tableau(paytable.strategy)
    cells = punto_banco_cells(shoe, tableau.third_card, scores)
    side = cells.shape[-1]
    winner, player, banker = np.unravel_index(np.arange(3 * side * side), (3, side, side))
    columns = {"winner": np.array(WINNERS)[winner], "player_score": player, "banker_score": banker}
    # (the cells first, the sets after: numpy sums and compares along the long axes)
    flat = np.moveaxis(cells.reshape(10, 10, 10, 10, -1), -1, 0).copy()
    denominator = shoe.sequences(6)
    place = {card: i for i, card in enumerate(FIRST_FOUR)}
    # Every reveal's information sets by cell, for every bet at once: each set of hidden
    # cards' sums from those of the set without its last card (one axis summed, of a
    # smaller array), the sets each reveal deals kept, end to end.
    hidden_sums: dict[tuple[int, ...], np.ndarray] = {(): flat}
    by_cell, codes, bounds = [], [], [0]
    for reveal in decision.reveals:
        kept = [place[card] for card in reveal.sees]
        hidden = tuple(i for i in range(4) if i not in kept)
        # The cards shown in the decision's order, the most significant digit first.
        order = np.argsort(np.argsort(kept)) + 1
        summed = _summed_over(hidden_sums, hidden).transpose(0, *order)
        sums = summed.reshape(len(flat), -1)
        dealt = np.flatnonzero(sums.any(axis=0))
        by_cell.append(sums.take(dealt, axis=1))
        codes.append(dealt)
        bounds.append(bounds[-1] + len(dealt))
    every_set = _joined(by_cell)
    every_code = _joined(codes)
    results, choices = [], {}
    for bet, mode in offered:
        # The sets' cells are the rows the bet is solved on, each cell's rule settled once.
        index = settling_rule(bet, columns, len(winner))
        n_actions = len(decision.actions)
        sets = _Sets(
            decision.actions,
            tuple(bounds),
            every_code,
            (every_set,) * n_actions,
            (index,) * n_actions,
        )
        given = _given(paytable, bet, mode)
        if any(isinstance(reveal.chance, Poly) for reveal in decision.reveals):
            result, blocks = _solve_in_unknowns(
                bet, mode, decision.reveals, sets, denominator, given
            )
        else:
            result, blocks = _solve(bet, mode, decision.reveals, sets, denominator, given)
        results.append(result)
        choices[(bet.id, mode)] = StrategyTable(decision.reveals, blocks, denominator)
    return results, choices


def _summed_over(sums: dict[tuple[int, ...], np.ndarray], hidden: tuple[int, ...]) -> np.ndarray:
    """``sums[()]`` summed over the first four cards' axes ``hidden`` (ascending; axes 1
    to 4, after the cells'), from the sums over ``hidden`` without its last (kept in
    ``sums``, by their axes)."""
    out = sums.get(hidden)
    if out is None:
        parent = hidden[:-1]
        left = [i for i in range(4) if i not in parent]
        out = sums[hidden] = _summed_over(sums, parent).sum(axis=1 + left.index(hidden[-1]))
    return out


def _played(given: dict, reveal: Reveal, codes: np.ndarray, actions: list, bet: Bet) -> np.ndarray:
    """The index of the action the user's play takes in each set of ``reveal`` (every set
    the shoe deals needs one: one line naming the first missing)."""
    names = [action.name for action in actions]
    out = np.empty(len(codes), dtype=np.int64)
    for i, values in enumerate(information_values(len(reveal.sees), codes)):
        action = given.get((reveal.sees, values))
        if action is None:
            shown = ", ".join(f"{card}={v}" for card, v in zip(reveal.sees, values, strict=True))
            raise AnalyzerError(
                f"--decisions: bet {bet.id!r} has no action for the set {shown or 'none shown'} "
                "(every set the shoe deals needs one)"
            )
        out[i] = names.index(action)
    return out


def _played_as(block: SetBlock, codes: np.ndarray, best: np.ndarray) -> np.ndarray:
    """The index of the action ``block``'s bet plays in each of the sets ``codes`` (the
    same reveal's: a set it lacks, the best action ``best`` gives)."""
    chosen = block.best if block.played is None else block.played
    where = np.searchsorted(block.codes, codes).clip(max=len(block.codes) - 1)
    found = block.codes[where] == codes
    return np.where(found, chosen[where], best)


def _given(paytable: Paytable, bet: Bet, mode: str) -> dict | None:
    """The play the user gave for ``bet`` in ``mode`` (``--decisions``), or None."""
    return None if paytable.played is None else paytable.played.of(bet.id, mode)


def _joined(arrays: list[np.ndarray]) -> np.ndarray:
    """``arrays`` end to end along their last axis (the one array itself where there is
    one)."""
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays, axis=-1)


@dataclass(frozen=True)
class _Sets:
    """The information sets of every reveal of a decision, end to end (a reveal's sets
    together, in its codes' order, reveal ``r``'s the columns ``bounds[r]:bounds[r + 1]``):
    their ``codes``, and per action (of ``actions``) the ways of each row in each set
    (``sums``: rows x sets; actions that deal no card share one array) and the rule of
    the bet settling each row (``rules``), as :data:`ByAction` gives them."""

    actions: tuple[Action | None, ...]
    bounds: tuple[int, ...]
    codes: np.ndarray
    sums: tuple[np.ndarray, ...]
    rules: tuple[np.ndarray, ...]

    @staticmethod
    def of(per_reveal: list[ByAction]) -> _Sets:
        """The sets of each reveal's :data:`ByAction` joined (the same actions, and rows,
        in every reveal; the codes of each reveal's first action's)."""
        actions = tuple(per_reveal[0])
        bounds = np.cumsum([0] + [len(next(iter(r.values()))[0]) for r in per_reveal])
        codes = _joined([next(iter(r.values()))[0] for r in per_reveal])
        joined: dict[tuple[int, ...], np.ndarray] = {}
        sums = []
        for action in actions:
            parts = [r[action][1] for r in per_reveal]
            key = tuple(map(id, parts))
            if key not in joined:
                joined[key] = _joined(parts)
            sums.append(joined[key])
        rules = tuple(per_reveal[0][action][2] for action in actions)
        return _Sets(actions, tuple(bounds.tolist()), codes, tuple(sums), rules)

    @property
    def spans(self) -> list[slice]:
        """Each reveal's sets."""
        return [slice(a, b) for a, b in itertools.pairwise(self.bounds)]

    def reveal(self, r: int) -> _Sets:
        """The sets of reveal ``r`` alone."""
        at = self.spans[r]
        return _Sets(
            self.actions,
            (0, at.stop - at.start),
            self.codes[at],
            tuple(s[:, at] for s in self.sums),
            self.rules,
        )


def _solve_in_unknowns(
    bet: Bet,
    mode: str,
    reveals: tuple[Reveal, ...],
    sets: _Sets,
    denominator: int,
    given: dict | None = None,
) -> tuple[BetResult, list]:
    """A bet whose reveals' chances are polynomials in the paytable's unknowns: each
    reveal solved alone (its best play does not depend on the chances), the figures
    their sum weighed by the chances, polynomials as :mod:`analyzer.analysis.fit` solves
    them (no lines: a line's probability would be a polynomial too)."""
    net = net_squared = wins = pushes = Fraction(0)
    blocks: list[SetBlock] = []
    for r, reveal in enumerate(reveals):
        alone, alone_blocks = _solve(
            bet, mode, (Reveal(reveal.sees, Fraction(1)),), sets.reveal(r), denominator
        )
        sums = alone.sums
        net = reveal.chance * sums.mean_net + net
        net_squared = reveal.chance * sums.mean_squared_net + net_squared
        wins = reveal.chance * alone.hit_frequency + wins
        pushes = reveal.chance * alone.push_probability + pushes
        blocks += [replace(block, reveal=r) for block in alone_blocks or []]
    return BetResult(bet, mode, (), Sums(net, net_squared, wins, pushes)), blocks


def _best_in_integers(
    sums: np.ndarray,
    reads: np.ndarray,
    nets: np.ndarray,
    stakes: np.ndarray,
    fold_nets: np.ndarray,
    folds: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`~analyzer.engine.deal_walk.best_actions` in Python integers (object
    arrays), where a net may outgrow int64: each set's ways, each action's net in each
    set (actions x sets) and the best action of each set, the first listed where two are
    equal."""
    ways = sums[reads[0]].sum(axis=0)
    per_stake = [
        sum(
            (row.astype(object) * int(net) for row, net in zip(kind, kind_nets, strict=True)),
            start=np.zeros(kind.shape[1], dtype=object),
        )
        for kind, kind_nets in zip(sums, nets, strict=True)
    ]
    value = np.stack(
        [
            ways.astype(object) * int(fold_nets[a]) if folds[a] else per_stake[reads[a]] * stake
            for a, stake in enumerate(stakes.tolist())
        ]
    )
    best = np.zeros(value.shape[1], dtype=np.int64)
    top = value[0]
    for a in range(1, len(value)):
        better = value[a] > top
        best[better] = a
        top = np.where(better, value[a], top)
    return ways, value, best


def _solve(
    bet: Bet,
    mode: str,
    reveals: tuple[Reveal, ...],
    sets: _Sets,
    denominator: int,
    given: dict | None = None,
    played_by: list[SetBlock] | None = None,
    raised: bool = True,
) -> tuple[BetResult, list[SetBlock] | None]:
    """A bet's result with each information set of each reveal played by its best
    action, and the strategy's blocks (None without a decision). Each rule is one line, as
    every bet's is: its rounds under every action, with the ways at each stake (a raised
    stake nets its multiple of the rule's payout). ``given`` (the user's play: the action
    of each set, by the cards shown and their values) replaces the best action where it is
    given. ``played_by`` (another bet's blocks, per reveal) plays each set as that bet
    does (a set it lacks, which the shoe does not deal, by the best action); with
    ``raised`` False every action stakes one (a bet the decision does not raise, which
    rides on the rounds as they are played). Where the cards shown are random, every way
    is weighed by its reveal's chance over one common denominator (the lines'
    ``scale``)."""
    nets = [rule.payout.net for rule in bet.rules] + [LOSE.net]
    actions = list(sets.actions)
    # A fold forfeits a share of the base stake of a bet the decision raises: its net in
    # a set is fixed (the set's ways times the share lost), its rounds one line of their
    # own; a bet riding on the rounds plays a folded round on, at one stake.
    folds = [
        a for a, action in enumerate(actions) if raised and action is not None and action.folds
    ]
    forfeits = [-actions[a].forfeit for a in folds]
    common = math.lcm(*(net.denominator for net in nets + forfeits))
    scaled = np.array([int(net * common) for net in nets], dtype=object)
    scale = math.lcm(*(reveal.chance.denominator for reveal in reveals))
    weights = [int(reveal.chance * scale) for reveal in reveals]
    stakes = [1 if action is None or not raised else action.stake for action in actions]
    # Exact in int64 where no set's net can reach 2**62 (every shipped shoe), else in
    # Python integers (object arrays).
    bound = denominator * max(abs(int(n)) for n in scaled) * max(stakes)
    exact = np.int64 if bound < 2**62 else object
    scaled = scaled.astype(exact)
    # Every reveal's sets at once (:class:`_Sets`): the distinct arrays of sums (actions
    # that deal no card share one, its nets worked out once) and the one each action plays.
    codes, spans = sets.codes, sets.spans
    kinds: list[tuple[np.ndarray, np.ndarray]] = []
    reads = []
    for sums, rules in zip(sets.sums, sets.rules, strict=True):
        same = [k for k, kind in enumerate(kinds) if kind[0] is sums and kind[1] is rules]
        if not same:
            kinds.append((sums, rules))
        reads.append(same[0] if same else len(kinds) - 1)
    stacked = kinds[0][0][None] if len(kinds) == 1 else np.stack([sums for sums, _ in kinds])
    # Each row's net per base stake (its rule's), in units of 1/common of a stake.
    row_nets = np.stack([scaled[rules] for _, rules in kinds])
    fold_mask = np.array([a in folds for a in range(len(actions))], dtype=bool)
    fold_nets = [
        int(-action.forfeit * common) if a in folds else 0 for a, action in enumerate(actions)
    ]
    # The exact net of each action in each set, and the best action of each set (the
    # first listed where two are equal).
    solve = best_actions if exact is np.int64 else _best_in_integers
    set_ways, value, best = solve(
        stacked, np.array(reads), row_nets, np.array(stakes), np.array(fold_nets), fold_mask
    )
    if played_by is not None:
        played = _joined(
            [_played_as(played_by[r], codes[at], best[at]) for r, at in enumerate(spans)]
        )
    elif given is not None:
        played = _joined(
            [_played(given, reveals[r], codes[at], actions, bet) for r, at in enumerate(spans)]
        )
    else:
        played = best
    # The ways of each rule taken under each action, per reveal (int64: a reveal's ways
    # sum to the denominator), then weighed by the reveals' chances (Python integers).
    by_reveal = played_ways(
        stacked, np.array(reads), fold_mask, set_ways, played, np.array(sets.bounds)
    )
    by_row = (by_reveal.astype(object) * np.array(weights, dtype=object)[:, None, None]).sum(axis=0)
    folded = {a: int(by_row[a, 0]) for a in folds}
    taken = np.zeros((len(actions), len(nets)), dtype=object)
    for a in range(len(actions)):
        if a not in folded:  # (each row's ways to its rule)
            for row, rule in enumerate(kinds[reads[a]][1].tolist()):
                taken[a, rule] += by_row[a, row]
    blocks: list[SetBlock] = []
    if actions != [None]:
        names = tuple(action.name for action in actions)
        mine = given is None and played_by is None
        blocks = [
            SetBlock(
                r, codes[at], set_ways[at], value[:, at].T, common, names, best[at],
                None if mine else played[at],
            )
            for r, at in enumerate(spans)
        ]  # fmt: skip
    # One line per rule, as every bet has (claims and breakdowns name lines by rule):
    # its rounds under every action, with the mean net per base stake and the ways at
    # each stake (a raised stake nets its multiple of the payout); then a line per fold
    # (its rounds, at the share of the base stake it loses).
    lines = []
    for r, rule_net in enumerate(nets):
        ways = int(sum(taken[:, r]))
        at_stakes = tuple(
            (stake, int(taken[a, r])) for a, stake in enumerate(stakes) if taken[a, r]
        )
        # (the stakes' sums in integers, times the rule's net once: the same fractions)
        first = Fraction(rule_net) * sum(w * s for s, w in at_stakes)
        second = Fraction(rule_net) ** 2 * sum(w * s * s for s, w in at_stakes)
        moments = (first / ways, second / ways) if ways else (rule_net, rule_net**2)
        when, payout = (
            (bet.rules[r].condition.shown, bet.rules[r].payout)
            if r < len(bet.rules)
            else (OTHERWISE, LOSE)
        )
        lines.append((when, ways, payout, ways, moments, (), at_stakes))
    for a, ways in folded.items():
        payout = fold_payout(actions[a])
        at_stakes = ((1, ways),) if ways else ()
        moments = (payout.net, payout.net**2)
        lines.append((fold_condition(actions[a]), ways, payout, ways, moments, (), at_stakes))
    result = bet_result(bet, mode, lines, denominator * scale, scale)
    return result, (None if actions == [None] else blocks)
