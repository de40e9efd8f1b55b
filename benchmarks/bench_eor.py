"""The effects of removal against one full exact analysis, and eor --by-card on the card
paytables.

Issue 23 asks that the effects of removal of every seed bet (every rank removed, every
card for the bets on suits) cost at most 20 full analyses of the seed game, and that
``eor --by-card`` on the shipped card paytables get at most 5x faster than it was.

Prints JSON lines: for the seed game, ``seconds`` (removal_effects, warm), the full
analysis it is compared with (``baseline_seconds``, timed in turn with it) and ``ratio``;
per card paytable, the seconds of its effects of every card (``every_card``: what
``eor --by-card`` computes), warm, and ``compiling_seconds``, the same with its walks
compiled into terms again (the first such call in a process; the terms are then kept).

    python benchmarks/bench_eor.py [--decks 8] [--repeat 10] [--cards]
"""

from __future__ import annotations

import argparse
import json

from timing import best_time, best_times

from analyzer import Paytable, Shoe, analyze, load_paytable, seed_paytable
from analyzer.analysis.eor import removal_effects
from analyzer.engine.batch import _EXACT_TERMS
from analyzer.engine.pricing import pricing
from analyzer.paytables.library import library_names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--cards", action="store_true", help="the card paytables too (slow)")
    args = parser.parse_args()
    shoe = Shoe.standard(args.decks)
    paytable = seed_paytable()
    times = best_times(
        {
            "analysis": lambda: analyze(paytable=paytable, shoe=shoe),
            "effects": lambda: removal_effects(paytable, shoe),
        },
        args.repeat,
    )
    print(
        json.dumps(
            {
                "benchmark": "effects of removal, every seed bet, both modes",
                "decks": args.decks,
                "seconds": times["effects"],
                "baseline": "one full exact analysis of the seed game",
                "baseline_seconds": times["analysis"],
                "ratio": times["effects"] / times["analysis"],
            }
        ),
        flush=True,
    )
    if not args.cards:
        return
    for name in library_names():
        card_paytable = load_paytable(name)
        if not any(pricing(bet).engine == "cards" for bet in card_paytable.bets):
            continue
        seconds = best_time(
            lambda p=card_paytable: removal_effects(p, shoe, every_card=True),
            max(1, args.repeat // 3),
        )

        def compiling(p: Paytable = card_paytable) -> None:
            _EXACT_TERMS.clear()  # as the first eor of these bets in a process
            removal_effects(p, shoe, every_card=True)

        print(
            json.dumps(
                {
                    "benchmark": f"eor --by-card, {name}",
                    "decks": args.decks,
                    "seconds": seconds,
                    "compiling_seconds": best_time(compiling, max(1, args.repeat // 3)),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
