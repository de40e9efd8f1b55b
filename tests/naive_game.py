"""Plain references for the game of Player against Banker (``solve``), written apart from
the engine: every ordered six-card deal, enumerated whole.

A coup uses four to six cards; counting every ordered sequence of six (the cards a coup
does not use included) weights each coup as the engine does, so these counts compare
with :mod:`analyzer.engine.game_tree` exactly. Two ways, one slow and literal (physical
cards, ``itertools``), one vectorised over all 10^6 sequences of point values (numpy),
fast enough for an 8-deck shoe.
"""

from __future__ import annotations

import itertools

import numpy as np

#: The Player's third-card column "stood" and the Banker cell layout (as analyzer's).
STOOD = 10
#: Weights of the point values in the infinite deck (10, J, Q, K are worth 0).
INFINITE = [4, 1, 1, 1, 1, 1, 1, 1, 1, 1]


def _outcome(player: int, banker: int) -> int:
    """0 the Banker wins, 1 a tie, 2 the Player wins."""
    return 0 if banker > player else 1 if banker == player else 2


def _play(values: tuple[int, ...], naturals, cells, first_two, weight: int) -> None:
    """Add one ordered six-value sequence, with every action of each side, to the tables."""
    p1, b1, p2, b2, c5, c6 = values
    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
    first_two[player, banker] += weight
    if player in naturals or banker in naturals:
        return
    # The Player stands: the Banker's card is the fifth; the Player draws: the fifth is
    # the Player's and the sixth the Banker's.
    cells[player, 0, banker, STOOD, 0, _outcome(player, banker)] += weight
    cells[player, 0, banker, STOOD, 1, _outcome(player, (banker + c5) % 10)] += weight
    final = (player + c5) % 10
    cells[player, 1, banker, c5, 0, _outcome(final, banker)] += weight
    cells[player, 1, banker, c5, 1, _outcome(final, (banker + c6) % 10)] += weight


def deal_every_card(card_values: list[int], naturals=(8, 9)) -> tuple[np.ndarray, np.ndarray]:
    """The game table (cells, first_two) of a small shoe of physical cards (their point
    values), from every ordered deal of six of them."""
    cells = np.zeros((10, 2, 10, 11, 2, 3), dtype=np.int64)
    first_two = np.zeros((10, 10), dtype=np.int64)
    for deal in itertools.permutations(range(len(card_values)), 6):
        _play(tuple(card_values[i] for i in deal), naturals, cells, first_two, 1)
    return cells, first_two


def deal_with_replacement(weights: list[int], naturals=(8, 9)) -> tuple[np.ndarray, np.ndarray]:
    """The game table of point values dealt with replacement, each value ``v`` weighted
    ``weights[v]``: every sequence of six values with a nonzero weight."""
    cells = np.zeros((10, 2, 10, 11, 2, 3), dtype=np.int64)
    first_two = np.zeros((10, 10), dtype=np.int64)
    live = [v for v in range(10) if weights[v]]
    for values in itertools.product(live, repeat=6):
        weight = 1
        for v in values:
            weight *= weights[v]
        _play(values, naturals, cells, first_two, weight)
    return cells, first_two


def six_value_sequences(value_counts=None) -> tuple[np.ndarray, np.ndarray]:
    """Every sequence of six point values (``values[j]``, the j-th card of each, 10^6
    columns) and its ordered ways from a shoe of ``value_counts`` (None: the infinite
    deck, weighted 4 for 0 and 1 for each other value)."""
    values = np.indices((10,) * 6, dtype=np.int64).reshape(6, -1)
    if value_counts is None:
        weights = np.asarray(INFINITE, dtype=np.int64)
        ways = np.prod(weights[values], axis=0)
    else:
        counts = np.asarray(value_counts, dtype=np.int64)
        ways = np.ones(values.shape[1], dtype=np.int64)
        for j in range(6):
            earlier = sum(values[i] == values[j] for i in range(j))
            ways *= np.maximum(counts[values[j]] - earlier, 0)
    return values, ways


def _sign(array: np.ndarray) -> np.ndarray:
    return np.sign(array).astype(np.int64)


def table_of_sequences(values, ways, naturals=(8, 9)) -> tuple[np.ndarray, np.ndarray]:
    """The game table (cells, first_two), vectorised over every six-value sequence."""
    cells = np.zeros((10, 2, 10, 11, 2, 3), dtype=np.int64)
    first_two = np.zeros((10, 10), dtype=np.int64)
    player = (values[0] + values[2]) % 10
    banker = (values[1] + values[3]) % 10
    np.add.at(first_two, (player, banker), ways)
    live = ~(np.isin(player, naturals) | np.isin(banker, naturals))
    player, banker, v = player[live], banker[live], values[:, live]
    w = ways[live]
    for drew in (0, 1):
        final = (player + v[4]) % 10 if drew else player
        column = v[4] if drew else np.full_like(player, STOOD)
        card = v[5] if drew else v[4]
        for draws in (0, 1):
            end = (banker + card) % 10 if draws else banker
            outcome = np.where(end > final, 0, np.where(end == final, 1, 2))
            np.add.at(cells[:, drew, :, :, draws, :], (player, banker, column, outcome), w)
    return cells, first_two


def cell_nets(values, ways, player_draws, naturals=(8, 9)) -> tuple[int, np.ndarray]:
    """Against a Player who draws on the totals where ``player_draws[t]``: the Banker's
    net over the naturals (wins less losses, ordered sequences) and ``nets[b, x, a]``,
    its net over the coups reaching cell (b, x) when it takes action ``a`` (0 stands,
    1 draws) there."""
    player = (values[0] + values[2]) % 10
    banker = (values[1] + values[3]) % 10
    natural = np.isin(player, naturals) | np.isin(banker, naturals)
    natural_net = int((ways * _sign(banker - player))[natural].sum())
    live = ~natural
    player, banker, v, w = player[live], banker[live], values[:, live], ways[live]
    drew = np.asarray(player_draws, dtype=bool)[player]
    final = np.where(drew, (player + v[4]) % 10, player)
    column = np.where(drew, v[4], STOOD)
    card = np.where(drew, v[5], v[4])
    nets = np.zeros((10, 11, 2), dtype=np.int64)
    np.add.at(nets[:, :, 0], (banker, column), w * _sign(banker - final))
    np.add.at(nets[:, :, 1], (banker, column), w * _sign((banker + card) % 10 - final))
    return natural_net, nets
