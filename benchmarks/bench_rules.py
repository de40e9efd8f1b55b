"""Other drawing rules cost what the standard tableau costs.

Prints JSON lines per rule set (and strategy): the warm time of the exact analysis of
bets on the round (Player, Banker, a pair: the value walk and the pair states), and of a
bet on the cards themselves (the card walk; rules that deal more third cards walk more
rounds), each with ``baseline_seconds``, the same under the standard tableau in the same
process, and ``ratio`` = seconds / baseline (1.0: the same cost; a mixed strategy walks a
few pure tableaus, ``tableaus``, and costs about that many times).
Absolute times on shared machines are noisy; compare the ratios.

    python benchmarks/bench_rules.py [--decks 8] [--repeat 20]
"""

from __future__ import annotations

import argparse
import json

from timing import best_time

from analyzer import Shoe, analyze
from analyzer.game.rules import RULE_SET_NAMES, named_rules, parse_strategy
from analyzer.paytables.model import paytable_from_dict

ROUND_BETS = [
    {"id": "player", "rule": [{"when": "winner == 'player'", "pays": 1}]},
    {"id": "banker", "rule": [{"when": "winner == 'banker'", "pays": "19:20"}]},
    {"id": "player_pair", "rule": [{"when": "player_pair", "pays": 11}]},
]
CARD_BETS = [{"id": "queen_third", "rule": [{"when": "banker_card3_rank == 'Q'", "pays": 7}]}]


def paytable(rules: str, strategy: str | None, bets: list):
    table = paytable_from_dict({"name": rules, "rules": rules, "bet": bets})
    return table.with_strategy(parse_strategy(strategy)) if strategy else table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    shoe = Shoe.standard(args.decks)
    cases = [("standard", None)]
    for name in RULE_SET_NAMES[1:]:
        cells = named_rules(name).decision_cells
        cases.append((name, ",".join(f"{cell}=draw" for cell in cells) or None))
        if cells:  # the first cell mixed, the rest drawn
            mixed = ",".join(f"{c}={'9/11' if i == 0 else 'draw'}" for i, c in enumerate(cells))
            cases.append((name, mixed))
    baseline = {}
    for name, strategy in cases:
        for kind, bets in (("round_bets", ROUND_BETS), ("card_bet", CARD_BETS)):
            table = paytable(name, strategy, bets)
            seconds = best_time(lambda t=table: analyze(paytable=t, shoe=shoe), args.repeat)
            baseline.setdefault(kind, seconds)
            record = {
                "benchmark": f"analysis_under_rules_{kind}",
                "rules": name,
                "strategy": strategy,
                "tableaus": len(table.mixture),
                "decks": args.decks,
                "seconds": seconds,
                "baseline": "the same under the standard tableau",
                "baseline_seconds": baseline[kind],
                "ratio": seconds / baseline[kind],
            }
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
