"""The game of chemin de fer solved exactly on 8 decks: ``solve_game`` against a reference.

Prints one JSON line: ``seconds`` (best of the repeats after a first call, the JIT
compiled or loaded from its cache), ``first_call_seconds`` (that first call), and
``baseline_seconds``, the tests' independent reference solving the same game in the same
process: every ordered six-value sequence of the shoe (numpy, ``tests/naive_game.py``),
the Banker's net per cell against each Player pure strategy, and the Player's best
probability of drawing on 5 found by hand (the ends and every point where a Banker cell
changes its best action). ``speedup`` = baseline / seconds; both solutions must agree.

    python benchmarks/bench_solve.py [--decks 8] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import naive_game

from analyzer.analysis.solve import solve_game
from analyzer.game.rules import named_rules
from analyzer.game.shoe import Shoe


def reference_solve(rules, decks: int) -> tuple[Fraction, Fraction]:
    """The value to the Banker and the Player's probability of drawing on its one
    decision cell, by the tests' independent method."""
    values, ways = naive_game.six_value_sequences(Shoe.standard(decks).value_counts)
    (free,) = [t for t in range(10) if rules.player[t] == "choose"]
    nets = []
    for d in (0, 1):
        draws = [rules.player[t] == "draw" or (t == free and d == 1) for t in range(10)]
        natural, by_cell = naive_game.cell_nets(values, ways, draws, rules.naturals)
        nets.append(by_cell.tolist())
    cells = [(b, x) for b in range(10) if b not in rules.naturals for x in range(11)]

    def cost(p: Fraction) -> Fraction:
        return natural + sum(
            max((1 - p) * nets[0][b][x][a] + p * nets[1][b][x][a] for a in (0, 1)) for b, x in cells
        )

    candidates = {Fraction(0), Fraction(1)}
    for b, x in cells:
        g0 = nets[0][b][x][1] - nets[0][b][x][0]
        g1 = nets[1][b][x][1] - nets[1][b][x][0]
        if g0 != g1 and 0 < Fraction(g0, g0 - g1) < 1:
            candidates.add(Fraction(g0, g0 - g1))
    best = min(candidates, key=cost)
    return cost(best) / int(ways.sum()), best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rules = named_rules("chemin-de-fer")
    start = time.perf_counter()
    solution = solve_game(rules, args.decks)
    first = time.perf_counter() - start
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        solve_game(rules, args.decks)
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    value, player_5 = reference_solve(rules, args.decks)
    baseline = time.perf_counter() - start
    (free,) = solution.player.values()
    if (value, player_5) != (solution.value, free):
        raise SystemExit("bench_solve: the reference and solve_game disagree")
    print(
        json.dumps(
            {
                "benchmark": "solve_chemin_de_fer",
                "decks": args.decks,
                "seconds": min(times),
                "first_call_seconds": first,
                "baseline": "tests/naive_game.py six-value sequences, solved by hand",
                "baseline_seconds": baseline,
                "speedup": baseline / min(times),
                "value_to_banker": f"{value.numerator}/{value.denominator}",
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
