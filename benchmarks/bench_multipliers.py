"""Multiplied bets cost a few times what the same bets at fixed payouts cost.

Prints JSON lines: the warm time of the exact analysis of a paytable of multiplied bets
(Player and Banker by the winner's cards, the Tie by both hands', a pair by the first two
cards; a fee) with ``baseline_seconds``, the same bets paying fixed odds in the same
process, and ``ratio`` = seconds / baseline; then the time of ``fit`` with one unknown on
the five win2day returns of the shipped Prosperity Tree claims, against one exact analysis
of its paytable at a value of the unknown. Absolute times on shared machines are noisy;
compare the ratios.

    python benchmarks/bench_multipliers.py [--decks 8] [--repeat 30]
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

from timing import best_time, best_times

from analyzer import Shoe, analyze, load_paytable
from analyzer.analysis.fit import fit
from analyzer.analysis.verify import load_claims
from analyzer.paytables.model import paytable_from_dict

MULTIPLIERS = {
    "cards": {"1": "0.3", "2": "0.3", "3": "0.2", "4": "0.1", "5": "0.1"},
    "values": {"2": "0.5", "3": "0.3", "4": "0.1", "5": "0.06", "8": "0.04"},
}
#: (id, multiply, condition, multiplied payout, fixed payout)
BETS = [
    ("player", "winner", "winner == 'player'", "multiplier", "1:1"),
    ("banker", "winner", "winner == 'banker'", "multiplier - 0.05", "19:20"),
    ("tie", "both", "winner == 'tie'", "5 * multiplier", "5:1"),
    ("player_pair", "player_first_two", "player_pair", "9 * multiplier", "9:1"),
]


def paytable(multiplied: bool):
    bets = []
    for bet_id, kind, when, pays, fixed in BETS:
        bet = {"id": bet_id, "rule": [{"when": when, "pays": pays if multiplied else fixed}]}
        if multiplied:
            bet["multiply"] = kind
        bets.append(bet)
    data = {"name": "bench", "bet": bets}
    if multiplied:
        data |= {"fee": "0.2", "multipliers": MULTIPLIERS}
    return paytable_from_dict(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    shoe = Shoe.standard(args.decks)
    plain, multiplied = paytable(False), paytable(True)
    times = best_times(
        {
            "fixed": lambda: analyze(paytable=plain, shoe=shoe),
            "multiplied": lambda: analyze(paytable=multiplied, shoe=shoe),
        },
        args.repeat,
    )
    baseline, seconds = times["fixed"], times["multiplied"]
    print(
        json.dumps(
            {
                "benchmark": "multiplied bets, exact analysis",
                "decks": args.decks,
                "seconds": seconds,
                "baseline_seconds": baseline,
                "ratio": seconds / baseline,
            }
        )
    )
    shipped = load_paytable("prosperity-tree-baccarat")
    # win2day's five returns (the file's other figures, a review's to two decimals with a
    # max_rtp among them, take about four times as long).
    claims = [c for c in load_claims("prosperity-tree-baccarat") if c.source.startswith("win2day")]
    one = shipped.with_unknowns({"p": Fraction(7, 113)})
    baseline = best_time(lambda: analyze(paytable=one), 3)
    seconds = best_time(lambda: fit(shipped, claims), 1)
    print(
        json.dumps(
            {
                "benchmark": "fit, one unknown, five claims (prosperity-tree-baccarat)",
                "seconds": seconds,
                "baseline_seconds": baseline,
                "ratio": seconds / baseline,
            }
        )
    )


if __name__ == "__main__":
    main()
