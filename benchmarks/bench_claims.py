"""Claims benchmark: a file of many claims on one paytable against one analysis of it.

Builds ``--claims`` claims on the seed game (house edges, line counts and probabilities,
standard deviations, events and conditional probabilities on the outcome and on the
Player's first two cards, two-card counts), checks them with ``verify_claims``, and times
that against one exact analysis of every bet of the paytable in the same process (warm).
Prints JSON lines: ``seconds`` and ``ratio`` (verify time over one analysis), and the
per-claim overhead beyond that analysis.

    python benchmarks/bench_claims.py [--claims 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from timing import best_time

from analyzer import analyze
from analyzer.analysis.verify import verify_claims
from analyzer.paytables.claims import claims_from_dict

BETS = ["player", "tie", "player_pair", "any_pair", "lucky_six", "player_bonus"]


def claims(n: int) -> list[dict]:
    """``n`` claims of a dozen kinds, cycled over bets, totals and conditions."""
    kinds = []
    for bet in BETS:
        kinds += [
            {"quantity": "house_edge", "bet": bet, "mode": "commission", "value": "1.00%"},
            {"quantity": "std_dev", "bet": bet, "mode": "commission", "value": "1.00"},
            {"quantity": "count", "bet": bet, "rule": 1, "value": "1"},
            {"quantity": "probability", "bet": bet, "rule": 1, "value": "0.1"},
        ]
    for total in range(10):
        two = f"player_card1_value + player_card2_value in ({total}, {total + 10})"
        kinds += [
            {
                "quantity": "probability",
                "event": "winner == 'player'",
                "given": two,
                "value": "0.1",
            },
            {"quantity": "count", "event": two, "over": "two_cards", "value": "1"},
            {"quantity": "count", "event": f"player_score == {total}", "value": "1"},
        ]
    return list(itertools.islice(itertools.cycle(kinds), n))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    parsed = claims_from_dict(
        {"paytable": "seed-game", "claim": claims(args.claims)}, "bench.toml", None
    )
    verify_claims(parsed)  # warm: JIT, compiled walks
    analyze()
    analysis = best_time(analyze, args.repeat, warm=False)
    verify = best_time(lambda: verify_claims(parsed), args.repeat, warm=False)
    print(json.dumps({"benchmark": "one analysis", "seconds": round(analysis, 4), "ratio": 1.0}))
    print(
        json.dumps(
            {
                "benchmark": f"verify {len(parsed)} claims",
                "seconds": round(verify, 4),
                "ratio": round(verify / analysis, 2),
                "per_claim_ms": round(1000 * max(verify - analysis, 0) / len(parsed), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
