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

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from analyzer.analysis.bets import OTHERWISE, BetResult, bet_result
from analyzer.engine.deal_walk import INFORMATION, drawn_tables, information_values
from analyzer.game.games import Action, Game
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import LOSE, Bet, Paytable
from analyzer.paytables.settle import settling_rule

__all__ = ["Choice", "StrategyTable", "best_play"]


@dataclass(frozen=True)
class Choice:
    """One information set of a decision: the point values of the cards it sees (in the
    order the decision names them), its ordered ways, the expected net of each action
    per base stake given the set (:attr:`values`), and the best action."""

    seen: tuple[int, ...]
    ways: int
    #: Each action's total net over the set's ways, in units of 1/``scale`` of a stake
    #: (integers: a thousand sets' Fractions are made only when read).
    nets: dict[str, int]
    scale: int
    best: str

    @property
    def values(self) -> dict[str, Fraction]:
        """Each action's exact expected net per base stake, given the set."""
        return {name: Fraction(net, self.scale * self.ways) for name, net in self.nets.items()}


class StrategyTable(Sequence[Choice]):
    """A bet's strategy table, one :class:`Choice` per information set: made when first
    read (an analysis reads its figures; a table of a thousand sets costs more than
    they do)."""

    def __init__(self, game: Game, rows: list[tuple]) -> None:
        self._game, self._rows = game, rows

    @cached_property
    def _choices(self) -> tuple[Choice, ...]:
        codes = np.array([row[0] for row in self._rows], dtype=np.int64)
        seen = information_values(self._game, codes)
        return tuple(
            Choice(values, ways, nets, scale, best)
            for values, (_, ways, nets, scale, best) in zip(seen, self._rows, strict=True)
        )

    def choice(self, code: int) -> Choice:
        """The :class:`Choice` of the information set ``code``, as
        :func:`~analyzer.engine.deal_walk.information_codes` reads it off a dealt round
        (a KeyError for a set the shoe cannot deal)."""
        return self._choices[self._index[code]]

    @cached_property
    def _index(self) -> dict[int, int]:
        return {row[0]: i for i, row in enumerate(self._rows)}

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):  # type: ignore[override]
        return self._choices[index]


def best_play(
    paytable: Paytable, shoe: Shoe, offered: list[tuple[Bet, str]]
) -> tuple[list[BetResult], dict[tuple[str, str], StrategyTable]]:
    """Each offered bet's result under its best play, and its strategy table."""
    game = paytable.game
    fields = frozenset().union(*(bet.fields for bet, _ in offered))
    actions: tuple[Action | None, ...] = (None,) if game.decision is None else game.decision.actions
    tables = drawn_tables(game, shoe, fields, actions)
    results, choices = [], {}
    for bet, mode in offered:
        result, table = _best_for(bet, mode, tables)
        results.append(result)
        if table is not None:
            choices[(bet.id, mode)] = StrategyTable(game, table)
    return results, choices


def _best_for(bet: Bet, mode: str, tables: dict) -> tuple[BetResult, list | None]:
    nets = [rule.payout.net for rule in bet.rules] + [LOSE.net]
    common = math.lcm(*(net.denominator for net in nets))
    scaled = np.array([int(net * common) for net in nets], dtype=object)
    by_action = {}
    denominator = None
    for action, table in tables.items():
        index = settling_rule(bet, table.columns, len(table.ways))
        if action is None:
            codes, inverse = np.zeros(1, dtype=np.int64), np.zeros(len(table.ways), dtype=np.int64)
        else:
            codes, inverse = np.unique(table.columns[INFORMATION], return_inverse=True)
        sums = np.zeros((len(codes), len(nets)), dtype=np.int64)
        np.add.at(sums, (inverse.reshape(-1), index), table.ways)
        by_action[action] = (codes, sums)
        denominator = table.denominator
    first = next(iter(by_action.values()))
    codes = first[0]
    # The exact net of each action in each set, in units of 1/common of a base stake.
    value = {
        action: (sums.astype(object) @ scaled) * (1 if action is None else action.stake)
        for action, (_, sums) in by_action.items()
    }
    actions = list(by_action)
    # The best action of each set: exact integers compared (object arrays), the first
    # action listed where two are equal (argmax keeps the first maximum).
    best = np.argmax(np.stack([value[action] for action in actions], axis=1), axis=1)
    # Each rule's line: the rounds it settles as they are played, and the mean net and
    # mean squared net of a base stake over them (a raised stake nets its multiple).
    rows = []
    for r, rule_net in enumerate(nets):
        ways = 0
        first_moment = second_moment = Fraction(0)
        for a, action in enumerate(actions):
            sums = by_action[action][1]
            taken = int(sums[best == a, r].sum())
            stake = 1 if action is None else action.stake
            ways += taken
            first_moment += taken * stake * rule_net
            second_moment += taken * (stake * rule_net) ** 2
        moments = (first_moment / ways, second_moment / ways) if ways else (rule_net, rule_net**2)
        if r < len(bet.rules):
            rule = bet.rules[r]
            rows.append((rule.condition.shown, ways, rule.payout, ways, moments, ()))
        else:
            rows.append((OTHERWISE, ways, LOSE, ways, moments, ()))
    result = bet_result(bet, mode, rows, denominator, 1)
    if actions == [None]:
        return result, None
    strategy = []
    set_ways_of = first[1].sum(axis=1)
    for i, code in enumerate(codes):
        set_ways = int(set_ways_of[i])
        nets = {action.name: int(value[action][i]) for action in actions}
        strategy.append((int(code), set_ways, nets, common, actions[best[i]].name))
    return result, strategy
