"""The two-person zero-sum game of chemin de fer (or any rule set), solved exactly.

Player and Banker play for each other's stake: no commission, ties push, the Banker's
result is +1, 0 or -1 a coup. Each side sees its own two-card total and, the Banker, the
Player's third card when one is drawn (or that the Player stood): the classical
information model. The Player decides in its ``chooses`` cells (chemin de fer: 5) and
plays the rules elsewhere; the Banker decides in every cell, whatever the rules' Banker
table says. A natural ends the coup.

A coup passes at most one Player decision and exactly one Banker cell (unless it is a
natural), so the Banker's expected result is affine in the Player's probability of
drawing in each of its cells, and in the Banker's in each of its cells: one walk of the
shoe (:mod:`analyzer.engine.game_tree`) gives every figure. Against Player
probabilities of drawing ``p`` (one per decision cell) and Banker probabilities ``q``
(one per cell)::

    V(p, q) = N + sum over Banker cells c of ((1 - q_c) S_c(p) + q_c D_c(p))

with ``N`` the naturals' net and ``S_c``, ``D_c`` (the cell's net when the Banker stands,
draws) affine in ``p``. Against ``p`` the Banker's best reply takes the better action in
every cell, so the Player's optimal strategy minimizes a convex piecewise-linear function
of ``p`` over the box [0, 1]^k: a linear programme in ``p`` and one more variable per
cell, whose dual is the Banker's programme in ``q``. It is solved exactly (a rational
simplex, :func:`maximize`), both strategies read from its optimal tableau. A Banker cell
where one action is at least as good against every Player strategy is settled before
(where both are worth the same against everything: the rules' action), so the programme
has a row per cell left open (chemin de fer: four) and per Player decision cell.
Both strategies are checked at the end: the Player's holds the Banker to the value
against every Banker reply, and the Banker's wins the value against every Player
strategy.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from typing import TYPE_CHECKING, Any

from analyzer.engine.game_tree import DRAW as DRAW_INDEX
from analyzer.engine.game_tree import STAND as STAND_INDEX
from analyzer.engine.game_tree import GameTable, shoe_game_table
from analyzer.errors import AnalyzerError
from analyzer.game.rules import CHOOSE, DRAW, PLAYER_STOOD, STAND, TOTALS, Cell, DrawingRules
from analyzer.game.shoe import INFINITE, Decks, Shoe, check_decks
from analyzer.schema import argument

if TYPE_CHECKING:  # (pandas is imported where a frame is made)
    import pandas as pd

#: The columns of the Banker's cells: the Player's third-card value 0-9, then "stood".
BANKER_COLUMNS = (*range(10), PLAYER_STOOD)


def fraction_text(value: Fraction) -> str:
    """``"p/q"`` in lowest terms (``"0/1"`` for zero)."""
    return f"{value.numerator}/{value.denominator}"


def play_text(probability: Fraction) -> str:
    """``draw``, ``stand``, or the probability of drawing as ``p/q``."""
    if probability == 1:
        return DRAW
    if probability == 0:
        return STAND
    return fraction_text(probability)


@dataclass(frozen=True)
class GameSolution:
    """The solved game: its ``value`` to the Banker per coup, and each side's optimal
    strategy as the probability of drawing in each cell it decides (``player``: the
    Player's decision cells; ``banker``: every Banker cell). ``decks`` is the number of
    full decks, or None for the infinite deck (``shoe`` None) or a shoe of other cards.

    :meth:`to_frame` gives each side's play, a row per decision cell; a notebook shows a
    solution as that table under its value.

    Examples
    --------
    >>> from analyzer import named_rules, solve_game
    >>> solution = solve_game(named_rules("chemin-de-fer"), "inf")
    >>> solution.value, solution.mixed
    (Fraction(679568, 53094899), (Cell(hand='player', total=5, column=None), ...))
    >>> solution.to_frame().loc["player:5", ["draw", "play"]].tolist()
    [Fraction(9, 11), '9/11']
    """

    rules: DrawingRules
    decks: int | None
    value: Fraction
    player: dict[Cell, Fraction]
    banker: dict[Cell, Fraction]
    shoe: Shoe | None = field(default=None, compare=False)

    @property
    def infinite(self) -> bool:
        """Whether the game was solved on the infinite deck."""
        return self.shoe is None

    @property
    def value_to_player(self) -> Fraction:
        """The game's exact value to the Player (minus the Banker's)."""
        return -self.value

    @property
    def mixed(self) -> tuple[Cell, ...]:
        """The cells played with a probability strictly between 0 and 1."""
        return tuple(cell for cell, p in (*self.player.items(), *self.banker.items()) if 0 < p < 1)

    def play(self, cell: Cell) -> str:
        """How ``cell`` is played: ``draw``, ``stand`` or the probability ``p/q``."""
        cell = argument(cell, Cell, "cell")
        chosen = self.player if cell.hand == "player" else self.banker
        if cell not in chosen:
            raise AnalyzerError(f"{cell} is not a decision cell of this game")
        return play_text(chosen[cell])

    def shoe_text(self) -> str:
        """The shoe in words, as reports print it."""
        return "the infinite deck" if self.shoe is None else self.shoe.describe()

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data: fractions as ``"p/q"``, pure cells as draw/stand."""
        return {
            "rules": self.rules.name,
            "decks": "inf" if self.infinite else self.decks,
            "shoe": self.shoe_text(),
            "value_to_banker": fraction_text(self.value),
            "value_to_banker_float": float(self.value),
            "value_to_player": fraction_text(self.value_to_player),
            "player": {str(cell): play_text(p) for cell, p in self.player.items()},
            "banker": {str(cell): play_text(p) for cell, p in self.banker.items()},
            "mixed": {str(cell): fraction_text(p) for cell, p in self._mixed_items()},
        }

    def to_frame(self) -> pd.DataFrame:
        """Each side's optimal play: a row per decision cell (the Player's, then every
        Banker cell), indexed by the cell (``player:5``, ``banker:3/9``), with its hand,
        total and Player's third card (``stood``; none for a Player cell), the exact
        probability of drawing (``draw``, a Fraction), it as a float, and the play as
        ``solve --format json`` writes it (``draw``, ``stand`` or ``p/q``)."""
        import pandas as pd

        rows = [
            {
                "cell": str(cell),
                "hand": cell.hand,
                "total": cell.total,
                "third_card": (
                    None
                    if cell.column is None
                    else "stood"
                    if cell.column == PLAYER_STOOD
                    else str(cell.column)
                ),
                "draw": p,
                "draw_float": float(p),
                "play": play_text(p),
            }
            for cell, p in (*self.player.items(), *self.banker.items())
        ]
        columns = ["cell", "hand", "total", "third_card", "draw", "draw_float", "play"]
        return pd.DataFrame(rows, columns=columns).set_index("cell")

    def __repr__(self) -> str:
        value = self.value
        mixed = ", ".join(map(str, self.mixed)) or "none"
        return (
            f"<GameSolution of {self.rules.name} on {self.shoe_text()}: value to the Banker "
            f"{fraction_text(value)} ({float(100 * value):+.4f}%), mixed cells {mixed}>"
        )

    def _repr_html_(self) -> str:
        value = self.value
        caption = (
            f"{self.rules.name} on {self.shoe_text()}: value to the Banker "
            f"{fraction_text(value)} = {float(value):+.8f} per coup"
        )
        return f"<p>{html.escape(caption)}</p>" + self.to_frame().to_html()

    def _mixed_items(self) -> list[tuple[Cell, Fraction]]:
        everything = self.player | self.banker
        return [(cell, everything[cell]) for cell in self.mixed]


# -- The game as numbers ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Game:
    """The Banker's net counts (wins less losses, ordered six-card sequences) by cell.

    ``base[c][a]``: the coups through Banker cell ``c`` from Player totals the rules
    decide, the Banker taking action ``a``; ``free[i][d][c][a]``: the same from the
    Player's decision cell ``i`` when the Player takes action ``d``. ``natural``: the
    naturals' net."""

    player_cells: tuple[Cell, ...]
    banker_cells: tuple[Cell, ...]
    natural: int
    base: tuple[tuple[int, int], ...]
    free: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    denominator: int

    def terms(self, player: Sequence[Fraction | int]) -> list[tuple[Fraction, Fraction]]:
        """Per Banker cell, its net (stand, draw) against Player probabilities of drawing
        ``player`` (one per decision cell)."""
        out = []
        for c, (stand, draw) in enumerate(self.base):
            s, d = Fraction(stand), Fraction(draw)
            for i, p in enumerate(player):
                if_stands, if_draws = self.free[i][0][c], self.free[i][1][c]
                s += p * if_draws[0] + (1 - p) * if_stands[0]
                d += p * if_draws[1] + (1 - p) * if_stands[1]
            out.append((s, d))
        return out

    def value(self, player: Sequence[Fraction | int], banker: Sequence[Fraction | int]) -> Fraction:
        """The Banker's net count when both sides play these probabilities of drawing."""
        total = Fraction(self.natural)
        for (stand, draw), q in zip(self.terms(player), banker, strict=True):
            total += stand + q * (draw - stand)
        return total

    def best_reply(self, player: Sequence[Fraction | int]) -> Fraction:
        """The most the Banker can get against ``player``: the best action in each cell."""
        return self.natural + sum(max(s, d) for s, d in self.terms(player))


def _game(rules: DrawingRules, table: GameTable) -> _Game:
    net = table.signed().tolist()  # Python ints: exact sums
    naturals = set(rules.naturals)
    totals = [t for t in TOTALS if t not in naturals]
    player_cells = tuple(Cell("player", t) for t in totals if rules.player[t] == CHOOSE)
    banker_cells = tuple(Cell("banker", b, x) for b in totals for x in BANKER_COLUMNS)
    fixed = [(t, DRAW_INDEX if rules.player[t] == DRAW else STAND_INDEX) for t in totals]
    fixed = [(t, d) for t, d in fixed if rules.player[t] != CHOOSE]

    def at(p: int, d: int, cell: Cell) -> tuple[int, int]:
        row = net[p][d][cell.total][cell.column]
        return row[STAND_INDEX], row[DRAW_INDEX]

    base = tuple(
        (sum(at(p, d, c)[0] for p, d in fixed), sum(at(p, d, c)[1] for p, d in fixed))
        for c in banker_cells
    )
    free = tuple(
        tuple(tuple(at(cell.total, d, c) for c in banker_cells) for d in (STAND_INDEX, DRAW_INDEX))
        for cell in player_cells
    )
    return _Game(player_cells, banker_cells, table.natural_net(), base, free, table.denominator)


# -- An exact linear programme -------------------------------------------------------------


def maximize(
    objective: Sequence[int | Fraction],
    rows: Sequence[Sequence[int | Fraction]],
    bounds: Sequence[int | Fraction],
) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """Maximize ``objective . x`` subject to ``rows x <= bounds`` and ``x >= 0``, exactly.

    Every bound must be at least 0 (the origin is feasible) and the programme bounded.
    The simplex method in rational arithmetic, with Bland's rule (it cannot cycle).
    Returns the optimum, an optimal ``x`` (a vertex) and an optimal dual solution (one
    value per row, at least 0).
    """
    n, m = len(objective), len(rows)
    if any(b < 0 for b in bounds) or len(bounds) != m or any(len(row) != n for row in rows):
        raise ValueError("maximize: the origin must be feasible and every row have n entries")
    zero, one = Fraction(0), Fraction(1)
    tableau = [
        [Fraction(v) for v in row] + [one if i == r else zero for i in range(m)] + [Fraction(b)]
        for r, (row, b) in enumerate(zip(rows, bounds, strict=True))
    ]
    cost = [-Fraction(v) for v in objective] + [zero] * (m + 1)
    basis = list(range(n, n + m))
    while True:
        entering = next((j for j in range(n + m) if cost[j] < 0), None)
        if entering is None:
            break
        leaving, best = None, None
        for r in range(m):
            a = tableau[r][entering]
            if a > 0:
                ratio = tableau[r][-1] / a
                if best is None or ratio < best or (ratio == best and basis[r] < basis[leaving]):
                    leaving, best = r, ratio
        if leaving is None:
            raise ValueError("maximize: the programme is unbounded")
        pivot = tableau[leaving]
        a = pivot[entering]
        pivot = [v / a for v in pivot]
        tableau[leaving] = pivot
        for r in range(m):
            f = tableau[r][entering]
            if r != leaving and f:
                tableau[r] = [v - f * w for v, w in zip(tableau[r], pivot, strict=True)]
        f = cost[entering]
        cost = [v - f * w for v, w in zip(cost, pivot, strict=True)]
        basis[leaving] = entering
    x = [zero] * n
    for r, j in enumerate(basis):
        if j < n:
            x[j] = tableau[r][-1]
    return cost[-1], x, cost[n : n + m]


# -- Solving -------------------------------------------------------------------------------


def _settled(rules: DrawingRules, cell: Cell, low: int, high: int) -> Fraction | None:
    """The Banker's action in ``cell`` when one is at least as good against every Player
    strategy (``low``, ``high``: the least and the most that drawing gains over standing
    there), else None."""
    if low == high == 0:
        return Fraction(rules.banker[cell.total][cell.column] == DRAW)
    if low >= 0:
        return Fraction(1)
    if high <= 0:
        return Fraction(0)
    return None


def solve_game(rules: DrawingRules, decks: Decks | Shoe | None = 8) -> GameSolution:
    """Solve the game of ``rules`` exactly on ``decks`` full decks, a :class:`Shoe`, or
    the infinite deck (``"inf"`` or None): see the module docstring."""
    rules = argument(rules, DrawingRules, "rules", " (see named_rules)")
    if isinstance(decks, Shoe):
        shoe: Shoe | None = decks
    elif decks is None:
        shoe = None
    else:
        shoe = Shoe.standard(check_decks(decks))
    if shoe is not None and shoe.decks == INFINITE:
        shoe = None  # the infinite deck, however it was named
    game = _game(rules, shoe_game_table(shoe, rules.naturals))
    k = len(game.player_cells)
    # Per Banker cell, its net when standing and drawing as affine functions of the
    # Player's probabilities p of drawing: h[c][a] + sum_i p_i slope[i][c][a].
    h = [
        [base[a] + sum(free[0][c][a] for free in game.free) for a in (0, 1)]
        for c, base in enumerate(game.base)
    ]
    slope = [
        [[free[1][c][a] - free[0][c][a] for a in (0, 1)] for c in range(len(game.base))]
        for free in game.free
    ]
    # What drawing gains over standing in cell c: gain[c] + sum_i p_i tilt[i][c].
    gain = [d - s for s, d in h]
    tilt = [[d - s for s, d in row] for row in slope]
    banker: dict[int, Fraction] = {}
    open_cells = []
    for c, cell in enumerate(game.banker_cells):
        low = gain[c] + sum(min(0, t[c]) for t in tilt)
        high = gain[c] + sum(max(0, t[c]) for t in tilt)
        settled = _settled(rules, cell, low, high)
        if settled is None:
            open_cells.append(c)
        else:
            banker[c] = settled
    # The Banker's best reply is worth f(p) = A + alpha . p + sum over open cells of
    # max(0, gain[c] + tilt[.][c] . p): the settled cells as played, the open ones stood
    # and the gain of drawing added where there is one.
    a0 = game.natural + sum(h[c][int(q)] for c, q in banker.items())
    a0 += sum(h[c][0] for c in open_cells)
    alpha = [
        sum(slope[i][c][int(q)] for c, q in banker.items())
        + sum(slope[i][c][0] for c in open_cells)
        for i in range(k)
    ]
    gamma = [gain[c] for c in open_cells]
    beta = [[tilt[i][c] for c in open_cells] for i in range(k)]
    # Where alpha_i < 0, play in p'_i = 1 - p_i: then every alpha_i >= 0, so the origin
    # is feasible in the Banker's programme below.
    flipped = [a < 0 for a in alpha]
    for i in range(k):
        if flipped[i]:
            a0 += alpha[i]
            alpha[i] = -alpha[i]
            gamma = [g + b for g, b in zip(gamma, beta[i], strict=True)]
            beta[i] = [-b for b in beta[i]]
    scale = gcd(*alpha, *gamma, *(b for row in beta for b in row)) or 1
    # The Player minimizes f: min alpha.p + sum t_c, t_c >= 0, t_c >= gamma_c + beta_c.p,
    # 0 <= p <= 1. Its dual is the Banker's: max gamma.q - sum u_i subject to q_c <= 1
    # and -beta_i.q - u_i <= alpha_i, q, u >= 0, whose q are the open cells' draws.
    m = len(open_cells)
    objective = [Fraction(g, scale) for g in gamma] + [-1] * k
    rows = [[int(j == c) for j in range(m)] + [0] * k for c in range(m)]
    rows += [
        [-Fraction(b, scale) for b in beta[i]] + [-int(j == i) for j in range(k)] for i in range(k)
    ]
    bounds = [1] * m + [Fraction(a, scale) for a in alpha]
    optimum, x, dual = maximize(objective, rows, bounds)
    value = a0 + scale * optimum
    for j, c in enumerate(open_cells):
        banker[c] = x[j]
    player = [1 - p if flipped[i] else p for i, p in enumerate(dual[m:])]
    q = [banker[c] for c in range(len(game.banker_cells))]
    # The equilibrium, checked: neither side gains by playing anything else. The
    # Banker's result is affine in each p_i, so the Player's best pure reply draws in
    # cell i exactly where drawing there (the rest stood) costs the Banker.
    stood = game.value([0] * k, q)
    banker_gets = stood + sum(
        min(0, game.value([int(j == i) for j in range(k)], q) - stood) for i in range(k)
    )
    player_concedes = game.best_reply(player)
    if not (banker_gets == value == player_concedes and all(0 <= p <= 1 for p in player)):
        raise RuntimeError(
            f"solve_game: not an equilibrium (value {value}, Banker's strategy wins "
            f"{banker_gets}, Player's concedes {player_concedes})"
        )
    return GameSolution(
        rules=rules,
        decks=None if shoe is None else shoe.full_decks,
        value=Fraction(value, game.denominator),
        player=dict(zip(game.player_cells, player, strict=True)),
        banker=dict(zip(game.banker_cells, q, strict=True)),
        shoe=shoe,
    )
