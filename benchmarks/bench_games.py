"""The games of the family against the seed game's full analysis.

Issue 42 asks that Dragon Tiger's full analysis cost at most what the seed game's does,
and an optimal-play analysis of Lucky Draw on 8 decks at most 10x.
Timed, each warm (the Numba kernels compiled, the store of counts off), every figure of
every bet read (a result makes its Fractions when they are read): the seed game's 36
(bet, mode) results, each shipped Dragon Tiger paytable, and Three Card Baccarat (one
deck; its bets look at no single card: the walk over pairs of hands), Lucky Draw
Baccarat under its best play (each of 1,000 information sets, both actions), Lightning
Dragon Tiger at a point of its unknowns, and Peek Baccarat under its best raises (every
card shown at random: 14,640 information sets, three actions, at a point of its
unknowns). ``lucky-draw-baccarat-1+side`` is pay table 1 with three side bets on single
cards beside its Enter bet (a Player pair by rank, a suited Dealer pair, a seven drawn by
the Player), each under its best play: the Enter bet keeps its walk by values, the side
bets share one walk by card classes.

Prints JSON lines: ``seconds`` (the game), ``baseline_seconds`` (the seed game, timed in
turn with it) and ``ratio``. Absolute times on shared machines are noisy; compare ratios.

    python benchmarks/bench_games.py [--repeat 20] [--paytable NAME ...]

``--paytable`` times only the games named (Dragon Tiger's alone: ``--paytable
dragon-tiger-pragmatic --paytable dragon-tiger-sa-gaming``).
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

from timing import best_times

from analyzer import analyze
from analyzer.paytables.library import load_paytable

GAMES = (
    "dragon-tiger",
    "dragon-tiger-evolution",
    "dragon-tiger-pragmatic",
    "dragon-tiger-sa-gaming",
    "three-card-baccarat",
    "lucky-draw-baccarat-1",
    "lucky-draw-baccarat-2",
    "lucky-draw-baccarat-1+side",
    "lightning-dragon-tiger",
    "peek-baccarat",
)
#: The paytables with unknowns, timed at these values of them.
POINTS = {
    "lightning-dragon-tiger": {"p3": Fraction(1, 4), "p5": Fraction(1, 8), "p8": Fraction(1, 16)},
    "peek-baccarat": {"s1": Fraction(1, 4), "s2": Fraction(1, 4), "s3": Fraction(1, 4)},
}


#: Side bets on single cards of Lucky Draw, timed beside pay table 1's Enter bet.
SIDE_BETS = (
    ("player_pair", "player_card1_rank == player_card2_rank", "11:1"),
    (
        "dealer_suited_pair",
        "dealer_card1_rank == dealer_card2_rank and dealer_card1_suit == dealer_card2_suit",
        "25:1",
    ),
    ("lucky_seven", "player_card3_rank == '7'", "11:1"),
)


def _with_side_bets(name: str):
    """The shipped paytable ``name`` with :data:`SIDE_BETS` beside its bets."""
    import tomllib

    from analyzer.files import shipped_folder
    from analyzer.paytables.model import paytable_from_dict

    path = shipped_folder("analyzer.paytables", "shipped", "paytables") / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["bet"] += [{"id": i, "rule": [{"when": w, "pays": p}]} for i, w, p in SIDE_BETS]
    return paytable_from_dict(data, f"{name}+side")


def _full(name: str | None):
    paytable = name
    if name in POINTS:
        paytable = load_paytable(name).with_unknowns(POINTS[name])
    if name is not None and name.endswith("+side"):
        paytable = _with_side_bets(name.removesuffix("+side"))

    def run() -> None:
        for result in analyze(paytable=paytable).results:
            result.house_edge, result.variance, result.hit_frequency  # noqa: B018

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument(
        "--paytable",
        action="append",
        choices=GAMES,
        help="time only this game (repeat the flag for several; default: every game)",
    )
    args = parser.parse_args()
    for game in args.paytable or GAMES:
        best = best_times({"game": _full(game), "seed": _full(None)}, args.repeat)
        print(
            json.dumps(
                {
                    "benchmark": "games",
                    "paytable": game,
                    "seconds": round(best["game"], 6),
                    "baseline_seconds": round(best["seed"], 6),
                    "ratio": round(best["game"] / best["seed"], 3),
                }
            )
        )


if __name__ == "__main__":
    main()
