"""Card-level bets: the card walk on 8 decks, and against the brute-force deal.

Prints one JSON line per measurement. ``warm_seconds`` is the best of the repeats after a
first call (JIT compiled or loaded from cache): every bet of a paytable analysed exactly
on a full 8-deck shoe. The baseline is the tests' brute-force reference, which deals every
ordered six-card sequence of physical cards: it is timed on a 9-card shoe against the walk
on the same shoe, and ``speedup`` is their ratio (same process).

With ``--paytables``: issue 23's measure instead. Every shipped paytable with bets on the
cards, analysed exactly on its full shoe (every bet, every mode, warm), timed in turn with
the full value-level analysis of the seed game (8 decks, both modes); ``ratio`` is theirs
(the issue asks at most 4), ``engine`` says whether the class walk or the card walk
priced its bets.

    python benchmarks/bench_cards.py [--repeat 3] [--paytables]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import naive
from timing import best_time, best_times

from analyzer import Shoe, analyze, load_paytable, paytable_from_dict, seed_paytable
from analyzer.analysis.exact import by_class_walk
from analyzer.engine.card_walk import card_outcome_table
from analyzer.paytables.library import library_names

#: The issue's two speed targets: colour and rank bets, and rank-and-suit bets.
GROUPS = {
    "colour_and_rank": [("super-tie", "super_tie"), ("monkey", "monkey_6")],
    "rank_and_suit": [
        ("majestic-match", "player_majestic_match"),
        ("perfect-9", "perfect_9"),
        ("lucky-nines", "lucky_nines_red_rock"),
        ("fabulous-pair", "player_fabulous_pair"),
        ("jackpot-baccarat", "jackpot"),
        ("lucky-match", "lucky_match"),
    ],
}


def _paytable(bets: list[tuple[str, str]]):
    """One paytable holding the chosen shipped bets (rules as shipped)."""
    data = {"name": "bench", "decks": 8, "modes": ["standard"], "bet": []}
    for name, bet_id in bets:
        bet = load_paytable(name).bet(bet_id, "standard")
        data["bet"].append(
            {
                "id": bet.id,
                "rule": [
                    {"when": rule.condition.text, "pays": rule.payout.text} for rule in bet.rules
                ],
            }
        )
    return paytable_from_dict(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--paytables", action="store_true", help="issue 23's measure")
    args = parser.parse_args()
    if args.paytables:
        return _paytables(args.repeat)
    cards = [(1, 0), (1, 1), (9, 2), (12, 3), (13, 1), (5, 0), (10, 3), (2, 2), (9, 0)]
    counts = np.zeros((13, 4), dtype=np.int64)
    for rank, suit in cards:
        counts[rank - 1, suit] += 1
    tiny = Shoe(counts.sum(axis=1), counts)
    for group, bets in GROUPS.items():
        paytable = _paytable(bets)
        seconds = best_time(lambda p=paytable: analyze(paytable=p), args.repeat)
        fields = sorted(frozenset().union(*(bet.fields for bet in paytable.bets)))
        walk = best_time(lambda f=fields: card_outcome_table(tiny, set(f)), args.repeat)
        reference = best_time(lambda f=fields: naive.card_reference(cards, f), 1)
        print(
            json.dumps(
                {
                    "benchmark": f"card_bets_{group}",
                    "bets": [bet_id for _, bet_id in bets],
                    "decks": 8,
                    "warm_seconds": seconds,
                    "tiny_shoe_cards": len(cards),
                    "tiny_shoe_walk_seconds": walk,
                    "baseline": "tests/naive.py card_reference (every ordered deal)",
                    "baseline_seconds": reference,
                    "speedup": reference / walk,
                }
            )
        )


def _paytables(repeat: int) -> None:
    seed, eight = seed_paytable(), Shoe.standard(8)
    for name in library_names():
        paytable = load_paytable(name)
        card_ids = [bet.id for bet in paytable.bets if bet.card_level and not bet.multiplied]
        if not card_ids:
            continue
        times = best_times(
            {
                "seed": lambda: analyze(paytable=seed, shoe=eight),
                "paytable": lambda p=paytable: analyze(paytable=p),
            },
            repeat,
        )
        analysis = analyze(paytable=paytable)
        print(
            json.dumps(
                {
                    "benchmark": f"card paytable {name}",
                    "decks": paytable.decks,
                    "engine": "class walk" if by_class_walk(analysis, card_ids) else "card walk",
                    "warm_seconds": times["paytable"],
                    "baseline": "analyze of every seed bet, both modes, 8 decks",
                    "baseline_seconds": times["seed"],
                    "ratio": times["paytable"] / times["seed"],
                }
            )
        )


if __name__ == "__main__":
    main()
