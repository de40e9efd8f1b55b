"""The exact analysis against a compiled double-precision engine doing the same walk.

Issue 23 asks that ``analyze`` of every seed bet in both modes (36 (bet, mode) columns),
exact Fractions, cost at most 2x a plain compiled float engine over the same value-level
rounds, and the 9 bets of the open-source peer (Player, Banker, Tie, both pairs, either
pair, perfect pair, both naturals) at most 1.2x that engine restricted to them.

The float engine is built here, outside the timing, the way a float engine is compiled for
a paytable: the enumerator's own kernels specialised by Numba to float64 arrays (the same
loops, the same leaves, in doubles), and per bet and mode a table of its net per unit paid
in every outcome cell a round can reach (its paytable "compiled"). Timed, it deals the
first four cards by pair state, walks every round, and takes the 36 (or 9) expected values
as one matrix product of the cells' weights with that table: the fastest a float engine
of this algorithm is. Each figure of the exact analysis is checked against it (1e-12).

The exact analysis is timed with every column's expected value read (a result makes its
Fractions when they are read: what the float engine gives is what is read).

Issue 45 adds a second baseline, :func:`value_pair_walk`: a double-precision walk
written the way a fast float engine of the peer's 9 bets is written, not the way the
enumerator walks. It deals each hand's first two cards as an unordered pair of point
values (``i <= j``, weighted by its ordered ways), carries the probability of the cards
dealt so far down the walk (no product recomputed at a leaf), reads the third-card chart
as a table, and prices the four pair bets in closed form over the 13 rank and 52 card
counts (a pair reads a hand's first two cards, not the draw). It is checked against the
exact figures (1e-12) before it is timed, and both analyses (the peer's 9 bets; every
seed bet in both modes) are timed against that one walk of the 9 bets.

Prints JSON lines: ``seconds`` (the exact analysis, warm, the store of counts off),
``baseline_seconds`` (the float engine, timed in turn with it) and ``ratio``;
``walk_seconds`` (the value-pair walk of the 9 bets), ``walk_exact_seconds`` (the exact
analysis timed in turn with it) and ``walk_ratio``; ``walk_ratio_beside_first_engine``,
the same ratio with all three timed in turn (the first engine's 14 MB of arrays leave the
caches cold for the exact analysis that runs after it). Absolute times on shared
machines are noisy; compare the ratios.

    python benchmarks/bench_analysis.py [--decks 8] [--repeat 100]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

import numpy as np
from numba import njit
from timing import best_times

from analyzer import Shoe, analyze
from analyzer.analysis.exact import table_detail
from analyzer.engine import enumerator
from analyzer.engine.outcomes import outcome_table
from analyzer.engine.pricing import pricing
from analyzer.game.cards import N_RANKS, N_SUITS, RANK_VALUES
from analyzer.game.fields import N_PAIR_STATES, fold_suited_pairs
from analyzer.paytables.library import seed_paytable
from analyzer.paytables.settle import Settlement, settling_rule

#: The peer's 9 bets, as the seed game names them (the Banker with its commission).
PEER_BETS = (
    "player",
    "banker",
    "tie",
    "player_pair",
    "banker_pair",
    "any_pair",
    "perfect_pair",
    "player_natural",
    "banker_natural",
)

#: What each of the peer's 9 bets pays (net, to one) when it wins, in ``PEER_BETS`` order
#: (the Banker's 5% commission; both bets on a hand's win push on a tie).
_PEER_PAYS = np.array([1.0, 0.95, 8.0, 11.0, 11.0, 5.0, 25.0, 3.5, 3.5])


@njit(cache=True)
def _value_pair_walk_jit(value_counts, rank_counts, card_counts, third_card, natural, out):
    """The peer's 9 bets in doubles: ``out`` gets each one's expected net per unit.

    value_counts float64[10], rank_counts float64[13], card_counts float64[52]: the shoe;
    third_card bool[10, 10, 12]: the chart (who draws, looked up); natural bool[10]: the
    two-card totals that are naturals."""
    left = value_counts.copy()
    n = left.sum()
    player_wins = 0.0
    banker_wins = 0.0
    ties = 0.0
    player_natural = 0.0
    banker_natural = 0.0
    for i in range(10):  # the Player's two cards: values i <= j, ordered ways
        p_i = left[i] / n
        if p_i == 0.0:
            continue
        left[i] -= 1.0
        for j in range(i, 10):
            p_player = p_i * left[j] / (n - 1.0)
            if p_player == 0.0:
                continue
            if i != j:
                p_player *= 2.0
            left[j] -= 1.0
            player2 = (i + j) % 10
            if natural[player2]:
                player_natural += p_player
            for k in range(10):  # the Banker's two cards: values k <= l
                p_k = p_player * left[k] / (n - 2.0)
                if p_k == 0.0:
                    continue
                left[k] -= 1.0
                for m in range(k, 10):
                    p = p_k * left[m] / (n - 3.0)
                    if p == 0.0:
                        continue
                    if k != m:
                        p *= 2.0
                    left[m] -= 1.0
                    banker2 = (k + m) % 10
                    if natural[banker2]:
                        banker_natural += p
                    if third_card[player2, banker2, 11]:  # the Player draws
                        for x in range(10):
                            p_x = p * left[x] / (n - 4.0)
                            if p_x == 0.0:
                                continue
                            player3 = (player2 + x) % 10
                            if third_card[player2, banker2, x]:
                                left[x] -= 1.0
                                for y in range(10):
                                    p_y = p_x * left[y] / (n - 5.0)
                                    banker3 = (banker2 + y) % 10
                                    if player3 > banker3:
                                        player_wins += p_y
                                    elif banker3 > player3:
                                        banker_wins += p_y
                                    else:
                                        ties += p_y
                                left[x] += 1.0
                            elif player3 > banker2:
                                player_wins += p_x
                            elif banker2 > player3:
                                banker_wins += p_x
                            else:
                                ties += p_x
                    elif third_card[player2, banker2, 10]:  # the Player stood; the Banker draws
                        for y in range(10):
                            p_y = p * left[y] / (n - 4.0)
                            banker3 = (banker2 + y) % 10
                            if player2 > banker3:
                                player_wins += p_y
                            elif banker3 > player2:
                                banker_wins += p_y
                            else:
                                ties += p_y
                    elif player2 > banker2:
                        player_wins += p
                    elif banker2 > player2:
                        banker_wins += p
                    else:
                        ties += p
                    left[m] += 1.0
                left[k] += 1.0
            left[j] += 1.0
        left[i] += 1.0
    # The pairs in closed form: a hand's first two cards of one rank (or one card).
    pairs = 0.0  # sum R(R-1): ordered ways for one hand
    pairs_apart = 0.0  # sum R(R-1)(R-2)(R-3): both hands pairs of the same rank
    squares = 0.0
    for r in range(rank_counts.shape[0]):
        c = rank_counts[r]
        pairs += c * (c - 1.0)
        pairs_apart += c * (c - 1.0) * (c - 2.0) * (c - 3.0)
        squares += (c * (c - 1.0)) ** 2
    suited = 0.0
    suited_apart = 0.0
    suited_squares = 0.0
    for t in range(card_counts.shape[0]):
        c = card_counts[t]
        suited += c * (c - 1.0)
        suited_apart += c * (c - 1.0) * (c - 2.0) * (c - 3.0)
        suited_squares += (c * (c - 1.0)) ** 2
    two = n * (n - 1.0)
    four = two * (n - 2.0) * (n - 3.0)
    pair = pairs / two
    both = (pairs_apart + pairs * pairs - squares) / four
    perfect = suited / two
    both_perfect = (suited_apart + suited * suited - suited_squares) / four
    hits = (
        player_wins,
        banker_wins,
        ties,
        pair,
        pair,
        2.0 * pair - both,
        2.0 * perfect - both_perfect,
        player_natural,
        banker_natural,
    )
    for b in range(9):
        out[b] = hits[b] * (_PEER_PAYS[b] + 1.0) - 1.0
    # Player and Banker push on a tie: the stake comes back.
    out[0] += ties
    out[1] += ties


def value_pair_walk(shoe: Shoe) -> Callable[[], np.ndarray]:
    """The second baseline (issue 45): the peer's 9 bets (``PEER_BETS``, commission) in
    doubles by a value-pair walk; a function returning their expected values per unit,
    checked against the exact analysis (1e-12) before it is handed out."""
    if shoe.replacement or not shoe.suits_known:
        raise SystemExit("the value-pair walk deals a shoe of known cards without replacement")
    paytable = seed_paytable()
    tableau = paytable.mixture[0][1]
    values = shoe.value_counts.astype(np.float64)
    ranks = shoe.rank_counts.astype(np.float64)
    cards = shoe.suit_counts.reshape(-1).astype(np.float64)
    third_card = np.ascontiguousarray(tableau.third_card)
    natural = np.isin(np.arange(10), tableau.naturals)
    out = np.empty(len(PEER_BETS))

    def run() -> np.ndarray:
        _value_pair_walk_jit(values, ranks, cards, third_card, natural, out)
        return out

    analysis = analyze(paytable=paytable, shoe=shoe, bets=PEER_BETS, mode="commission")
    expected = run()
    for j, result in enumerate(analysis.results):  # the walk is right, or no timing
        assert result.bet.id == PEER_BETS[j], result.bet.id
        assert abs(expected[j] - float(result.expected_value)) < 1e-12, (result.bet.id, expected[j])
    return run


# The enumerator's kernels, compiled again for float64 counts: the same loops in doubles.
_float_first_four = njit(enumerator._first_four_pairs_jit.py_func)
_float_walk = njit(enumerator._walk_jit.py_func)


def float_engine(shoe: Shoe, bets: tuple[str, ...] | None, mode: str) -> Callable[[], np.ndarray]:
    """A float engine for the seed game's ``bets`` in ``mode`` on ``shoe``: a function
    returning each (bet, mode) column's expected value per unit paid, in offered order."""
    paytable = seed_paytable()
    analysis = analyze(paytable=paytable, shoe=shoe, bets=bets, mode=mode)
    detail = table_detail([pricing(r.bet) for r in analysis.results], shoe.suits_known)
    if detail == "none":
        raise SystemExit("the float engine here walks pair states: a bet on pairs is needed")
    counts = enumerator.mixture_outcomes(shoe, detail, paytable.mixture)
    # The cells a round can reach and each column's net per unit paid there (floats).
    reached = np.flatnonzero(counts.counts.reshape(-1))
    table = outcome_table(counts)
    nets = np.zeros((len(reached), len(analysis.results)))
    for j, result in enumerate(analysis.results):
        settlement = Settlement(result.bet)
        net = np.array([float(n) for n in settlement.nets()])
        nets[:, j] = settlement.per_paid(net[settling_rule(result.bet, table.columns, len(table))])
    if detail == "suit":
        type_counts = shoe.suit_counts.reshape(-1)
        type_ranks = np.repeat(np.arange(N_RANKS, dtype=np.int64), N_SUITS)
    else:
        type_counts = shoe.rank_counts
        type_ranks = np.arange(N_RANKS, dtype=np.int64)
    type_counts = type_counts.astype(np.float64)
    type_values = RANK_VALUES[type_ranks].astype(np.int64)
    rank_start = np.searchsorted(type_ranks, np.arange(N_RANKS + 1)).astype(np.int64)
    values = shoe.value_counts.astype(np.float64)
    third_card = paytable.mixture[0][1].third_card
    denominator = float(shoe.rounds_denominator)
    grouped = detail == "suit"

    def run() -> np.ndarray:
        first_four = np.zeros((10,) * 4 + (N_PAIR_STATES**2,))
        _float_first_four(
            type_counts, type_values, type_ranks, rank_start, grouped, shoe.take, first_four
        )
        if not grouped:
            fold_suited_pairs(first_four.reshape((*first_four.shape[:4], 3, 3)))
        walked = np.zeros((N_PAIR_STATES**2, 10, 10, 11, 11))
        _float_walk(values, first_four, third_card, shoe.take, walked)
        return walked.reshape(-1)[reached] @ nets / denominator

    expected = run()
    for j, result in enumerate(analysis.results):  # the engine is right, or no timing
        assert abs(expected[j] - float(result.expected_value)) < 1e-12, (result.bet.id, result.mode)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    shoe = Shoe.standard(args.decks)
    paytable = seed_paytable()
    cases = {
        "every seed bet, both modes": (None, "both"),
        "the peer's 9 bets": (PEER_BETS, "commission"),
    }
    walk = value_pair_walk(shoe)
    for name, (bets, mode) in cases.items():
        engine = float_engine(shoe, bets, mode)
        columns = len(analyze(paytable=paytable, shoe=shoe, bets=bets, mode=mode).results)

        def exact(bets: tuple[str, ...] | None = bets, mode: str = mode) -> list:
            return [
                result.expected_value  # what the float engine gives, as Fractions
                for result in analyze(paytable=paytable, shoe=shoe, bets=bets, mode=mode).results
            ]

        # Each baseline in turn with the exact analysis alone: the first engine's arrays
        # (some 14 MB a run) leave the caches cold for whatever runs next, which a walk
        # of a few hundred bytes does not feel, and the exact analysis (its counts, plan
        # and code) does. The three in turn are timed too, as issue 45 first timed them.
        by_walk = best_times({"walk": walk, "exact": exact}, args.repeat)
        by_float = best_times({"float": engine, "exact": exact}, args.repeat)
        three = best_times({"walk": walk, "float": engine, "exact": exact}, args.repeat)
        print(
            json.dumps(
                {
                    "benchmark": f"exact analysis, {name}",
                    "decks": args.decks,
                    "columns": columns,
                    "seconds": by_float["exact"],
                    "baseline": "the enumerator's kernels in float64 and a matrix product",
                    "baseline_seconds": by_float["float"],
                    "ratio": by_float["exact"] / by_float["float"],
                    "walk_baseline": "a value-pair walk of the peer's 9 bets in float64",
                    "walk_exact_seconds": by_walk["exact"],
                    "walk_seconds": by_walk["walk"],
                    "walk_ratio": by_walk["exact"] / by_walk["walk"],
                    "walk_ratio_beside_first_engine": three["exact"] / three["walk"],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
