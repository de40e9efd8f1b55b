"""The game of Player against Banker, solved: checked by an independent computation.

Every solution is checked against every ordered six-value sequence of the shoe
(``tests/naive_game.py``, not the engine's walk): the Player's strategy holds the
Banker to the value whatever the Banker does (its best reply is found cell by cell),
and the Banker's wins the value whatever pure strategy the Player plays. Both guarantees
equal to the value make the pair an equilibrium and the value the game's. Where the
Player has one decision cell the game is also solved a second way, by hand: the
Player's best reply cost is convex and piecewise linear in its probability of drawing,
so its minimum is at an end or where some Banker cell changes its best action, and the
Banker's mixing makes the Player indifferent there.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import naive_game
import pytest

from analyzer.analysis.solve import GameSolution, maximize, play_text, solve_game
from analyzer.errors import AnalyzerError
from analyzer.game.cards import parse_cards
from analyzer.game.rules import (
    BANKER_DRAWS_ON,
    CHOOSE,
    DRAW,
    PLAYER_STOOD,
    STANDARD,
    Cell,
    named_rules,
    rules_from_table,
)
from analyzer.game.shoe import Shoe

CHEMIN = named_rules("chemin-de-fer")
#: Published: on the infinite deck the Player draws on 5 with probability 9/11 (Kemeny
#: and Snell 1957, as cited by Ethier and Gamez 2013, Games 4:711).
KEMENY_SNELL_PLAYER_5 = Fraction(9, 11)


# -- The independent reference -------------------------------------------------------------


class Reference:
    """Every six-value sequence of a shoe, and the Banker's net in each cell against
    each Player pure strategy (its draws in the rules' decision cells)."""

    def __init__(self, rules, shoe: Shoe | None) -> None:
        counts = None if shoe is None else shoe.value_counts
        values, ways = naive_game.six_value_sequences(counts)
        self.denominator = int(ways.sum())
        self.free = [t for t in range(10) if rules.player[t] == CHOOSE]
        self.totals = [t for t in range(10) if t not in rules.naturals]
        self.nets = {}
        for pure in product((0, 1), repeat=len(self.free)):
            draws = [rules.player[t] == DRAW for t in range(10)]
            for t, d in zip(self.free, pure, strict=True):
                draws[t] = bool(d)
            natural, nets = naive_game.cell_nets(values, ways, draws, rules.naturals)
            self.natural = natural
            self.nets[pure] = nets.tolist()

    def cells(self):
        return [(b, x) for b in self.totals for x in range(11)]

    def against(self, pure, banker) -> Fraction:
        """The Banker's net count when the Player plays ``pure`` and the Banker draws
        with probability ``banker[(b, x)]``."""
        nets = self.nets[pure]
        total = Fraction(self.natural)
        for b, x in self.cells():
            q = banker[(b, x)]
            total += (1 - q) * nets[b][x][0] + q * nets[b][x][1]
        return total

    def mixture(self, player):
        """The Player's behaviour strategy (a probability per decision cell) as a mixture
        of its pure strategies: each cell drawn independently."""
        out = {}
        for pure in self.nets:
            weight = Fraction(1)
            for d, p in zip(pure, player, strict=True):
                weight *= p if d else 1 - p
            out[pure] = weight
        return out

    def cell_values(self, player):
        """Per Banker cell, its net (stand, draw) against the Player's strategy."""
        weights = self.mixture(player)
        return {
            (b, x): tuple(
                sum(w * self.nets[pure][b][x][a] for pure, w in weights.items()) for a in (0, 1)
            )
            for b, x in self.cells()
        }

    def best_reply(self, player) -> Fraction:
        """The most the Banker can get against ``player``: the better action per cell."""
        values = self.cell_values(player)
        return self.natural + sum(max(s, d) for s, d in values.values())


def _strategies(solution: GameSolution):
    player = [solution.player[Cell("player", t)] for t in sorted(c.total for c in solution.player)]
    banker = {(c.total, c.column): p for c, p in solution.banker.items()}
    return player, banker


def check_equilibrium(solution: GameSolution, reference: Reference) -> None:
    """Neither side gains by deviating, and both guarantees are the solution's value."""
    value = solution.value * reference.denominator
    player, banker = _strategies(solution)
    assert set(banker) == set(reference.cells())
    assert all(0 <= p <= 1 for p in (*player, *banker.values()))
    # The Banker's strategy wins at least the value against every Player pure strategy
    # (and so every mixture of them), exactly the value against the best of them.
    results = [reference.against(pure, banker) for pure in reference.nets]
    assert min(results) == value
    # The Player's strategy holds every Banker strategy to the value.
    assert reference.best_reply(player) == value


def solve_by_hand(reference: Reference):
    """One Player decision cell: its best probability of drawing, the value, and the
    Banker cells where it is then indifferent, found without a linear programme."""
    (stand, draw) = ((0,), (1,))

    def cost(p):
        return reference.best_reply([p])

    candidates = {Fraction(0), Fraction(1)}
    for b, x in reference.cells():
        g0 = reference.nets[stand][b][x][1] - reference.nets[stand][b][x][0]
        g1 = reference.nets[draw][b][x][1] - reference.nets[draw][b][x][0]
        if g0 != g1:
            p = Fraction(g0, g0 - g1)  # where drawing and standing are worth the same
            if 0 < p < 1:
                candidates.add(p)
    best = min(candidates, key=cost)
    indifferent = [c for c, (s, d) in reference.cell_values([best]).items() if s == d]
    return best, cost(best), indifferent


# -- The infinite deck: the classical solution -------------------------------------------


@pytest.fixture(scope="module")
def infinite():
    return solve_game(CHEMIN, None), Reference(CHEMIN, None)


def test_the_infinite_deck_solution_is_an_equilibrium(infinite) -> None:
    solution, reference = infinite
    check_equilibrium(solution, reference)


def test_the_player_mixes_on_5_only_and_the_banker_on_6_when_the_player_stood(infinite) -> None:
    """The solution the literature attributes to Kemeny and Snell: the Player mixes on
    5, the Banker's only mixed cell is 6 against a Player who stood."""
    solution, _ = infinite
    assert solution.mixed == (Cell("player", 5), Cell("banker", 6, PLAYER_STOOD))
    assert list(solution.player) == [Cell("player", 5)]
    assert solution.player[Cell("player", 5)] == KEMENY_SNELL_PLAYER_5
    assert solution.infinite and solution.decks is None


def test_the_infinite_deck_solved_by_hand_agrees(infinite) -> None:
    solution, reference = infinite
    p, value, indifferent = solve_by_hand(reference)
    assert p == solution.player[Cell("player", 5)] == KEMENY_SNELL_PLAYER_5
    assert value == solution.value * reference.denominator
    # At p the Banker is indifferent in one cell only, 6 against "stood"; its probability
    # of drawing there makes the Player indifferent between drawing and standing on 5.
    assert indifferent == [(6, PLAYER_STOOD)]
    _, banker = _strategies(solution)
    stood, drew = (
        reference.against(pure, banker | {(6, PLAYER_STOOD): Fraction(0)}) for pure in ((0,), (1,))
    )
    also_stood, also_drew = (
        reference.against(pure, banker | {(6, PLAYER_STOOD): Fraction(1)}) for pure in ((0,), (1,))
    )
    # (1 - q) stood + q also_stood == (1 - q) drew + q also_drew
    q = Fraction(drew - stood, (also_stood - stood) - (also_drew - drew))
    assert q == solution.banker[Cell("banker", 6, PLAYER_STOOD)]


def test_the_banker_plays_the_punto_banco_table_but_for_6_when_the_player_stood(infinite) -> None:
    solution, _ = infinite
    for cell, p in solution.banker.items():
        if cell == Cell("banker", 6, PLAYER_STOOD):
            assert 0 < p < 1
        else:
            assert p == (STANDARD.banker[cell.total][cell.column] == DRAW), cell
    # Chemin de fer's optional cells: draw on 3 against a 9, on 5 against a 4; the
    # punto banco table stands on 4 against a 1.
    assert solution.play(Cell("banker", 3, 9)) == "draw" and 9 in BANKER_DRAWS_ON[3]
    assert solution.play(Cell("banker", 5, 4)) == "draw"
    assert solution.play(Cell("banker", 4, 1)) == "stand"


def test_cross_check_against_a_colleague_s_independent_figures(infinite) -> None:
    """Cross-check only (a colleague's own computation, not a published print): the
    tests above derive every figure independently."""
    solution, _ = infinite
    assert solution.value == Fraction(679568, 53094899) == Fraction(679568, 11 * 13**6)
    assert solution.value_to_player == Fraction(-679568, 53094899)
    assert solution.banker[Cell("banker", 6, PLAYER_STOOD)] == Fraction(859, 2288)


# -- Finite shoes --------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 8])
def test_finite_shoe_solutions_are_equilibria(decks) -> None:
    shoe = Shoe.standard(decks)
    solution = solve_game(CHEMIN, decks)
    reference = Reference(CHEMIN, shoe)
    check_equilibrium(solution, reference)
    p, value, _ = solve_by_hand(reference)
    assert p == solution.player[Cell("player", 5)]
    assert (
        value == solution.value * reference.denominator == solution.value * shoe.rounds_denominator
    )
    assert solution.decks == decks and not solution.infinite
    # The same shape as the infinite deck's: the Player mixes on 5, the Banker on 6 when
    # the Player stood, and nowhere else.
    assert solution.mixed == (Cell("player", 5), Cell("banker", 6, PLAYER_STOOD))


def test_one_deck_banker_stands_on_5_against_a_4() -> None:
    """Card removal: from one deck the Banker's 5 does better standing against a 4
    whatever the Player does on 5 (the independent reference says so too)."""
    solution = solve_game(CHEMIN, 1)
    reference = Reference(CHEMIN, Shoe.standard(1))
    for pure in reference.nets:
        stand, draw = reference.nets[pure][5][4]
        assert stand > draw
    assert solution.play(Cell("banker", 5, 4)) == "stand"


def test_a_depleted_shoe_is_solved_too() -> None:
    shoe = Shoe.standard(1).remove(parse_cards(["5S", "5H", "KD", "9C", "4S"]))
    solution = solve_game(CHEMIN, shoe)
    check_equilibrium(solution, Reference(CHEMIN, shoe))
    assert solution.decks is None and not solution.infinite
    assert solution.shoe is shoe and "47 cards" in solution.shoe_text()


# -- Other rule sets -----------------------------------------------------------------------


def test_the_standard_rules_are_a_game_too() -> None:
    """No Player decision: the Banker's best reply to the fixed Player, cell by cell."""
    solution = solve_game(STANDARD, 1)
    reference = Reference(STANDARD, Shoe.standard(1))
    check_equilibrium(solution, reference)
    assert solution.player == {} and solution.mixed == ()
    values = reference.cell_values([])
    for (b, x), (stand, draw) in values.items():
        if stand != draw:
            assert solution.banker[Cell("banker", b, x)] == (draw > stand)


@pytest.mark.parametrize("decks", [None, 1])
def test_two_player_decisions(decks) -> None:
    """The Player free on 4 and 5: four pure strategies, each checked; drawing on 4 is
    its best play there, and the game is chemin de fer's."""
    rules = rules_from_table({"player_draws": "0-3", "player_chooses": "4-5"})
    shoe = None if decks is None else Shoe.standard(decks)
    solution = solve_game(rules, decks)
    check_equilibrium(solution, Reference(rules, shoe))
    assert solution.player[Cell("player", 4)] == 1
    chemin = solve_game(CHEMIN, decks)
    assert solution.value == chemin.value and solution.banker == chemin.banker


def test_a_player_free_everywhere_plays_draw_0_4_stand_6_7() -> None:
    rules = rules_from_table({"player_draws": "", "player_chooses": "0-7"})
    solution = solve_game(rules, None)
    assert solution.value == solve_game(CHEMIN, None).value
    assert {c.total: play_text(p) for c, p in solution.player.items()} == {
        **dict.fromkeys(range(5), "draw"),
        5: "9/11",
        6: "stand",
        7: "stand",
    }


def test_other_naturals_are_solved_and_checked() -> None:
    rules = rules_from_table(
        {
            "naturals": "9",
            "player_draws": "0-4",
            "player_chooses": "5",
            "banker_draws": {str(b): "0-7" for b in range(9)},
        }
    )
    solution = solve_game(rules, 1)
    check_equilibrium(solution, Reference(rules, Shoe.standard(1)))
    assert {c.total for c in solution.banker} == set(range(9))


# -- The solution as data, and bad arguments -----------------------------------------------


def test_the_solution_as_plain_data(infinite) -> None:
    solution, _ = infinite
    data = solution.to_data()
    assert data["decks"] == "inf" and data["rules"] == "chemin-de-fer"
    assert data["value_to_banker"] == "679568/53094899"
    assert data["value_to_banker_float"] == pytest.approx(0.0127991, abs=1e-7)
    assert data["player"] == {"player:5": "9/11"}
    assert len(data["banker"]) == 8 * 11
    assert data["banker"]["banker:6/stood"] == "859/2288"
    assert data["banker"]["banker:3/9"] == "draw" and data["banker"]["banker:7/stood"] == "stand"
    assert data["mixed"] == {"player:5": "9/11", "banker:6/stood": "859/2288"}
    assert solve_game(CHEMIN, 6).to_data()["decks"] == 6


def test_bad_arguments_are_one_clear_error(infinite) -> None:
    solution, _ = infinite
    with pytest.raises(AnalyzerError, match="rules"):
        solve_game("chemin-de-fer", 8)
    with pytest.raises(AnalyzerError, match="decks"):
        solve_game(CHEMIN, 0)
    with pytest.raises(AnalyzerError, match="whole number"):
        solve_game(CHEMIN, "8")
    with pytest.raises(AnalyzerError, match="not a decision cell"):
        solution.play(Cell("player", 4))
    with pytest.raises(AnalyzerError, match="cell"):
        solution.play("player:5")


# -- The exact linear programme ------------------------------------------------------------


def test_maximize_finds_the_optimum_and_its_dual() -> None:
    # max 3x + 2y, x + y <= 4, x + 3y <= 6, x <= 3: at (3, 1), worth 11; dual (2, 0, 1).
    value, x, dual = maximize([3, 2], [[1, 1], [1, 3], [1, 0]], [4, 6, 3])
    assert value == 11 and x == [3, 1] and dual == [2, 0, 1]


def test_maximize_is_exact_and_does_not_cycle_on_a_degenerate_programme() -> None:
    # Beale's example, which cycles under the textbook pivoting rule.
    objective = [Fraction(3, 4), -150, Fraction(1, 50), -6]
    rows = [
        [Fraction(1, 4), -60, Fraction(-1, 25), 9],
        [Fraction(1, 2), -90, Fraction(-1, 50), 3],
        [0, 0, 1, 0],
    ]
    value, x, dual = maximize(objective, rows, [0, 0, 1])
    assert value == Fraction(1, 20)
    assert sum(c * v for c, v in zip(objective, x, strict=True)) == value
    assert sum(y * b for y, b in zip(dual, [0, 0, 1], strict=True)) == value


def test_maximize_refuses_what_it_cannot_start_or_finish() -> None:
    with pytest.raises(ValueError, match="origin"):
        maximize([1], [[1]], [-1])
    with pytest.raises(ValueError, match="unbounded"):
        maximize([1, 0], [[-1, 1]], [1])
