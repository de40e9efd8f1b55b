"""Session benchmark: statistics of 100,000-round sessions, and the numeric convolution
against the exact one where both run.

Prints one JSON line per measurement. ``session_100k``: for each bet, the seconds of the
first statistic (which builds the distribution) and the slowest later one, each
statistic's stated error bound (the largest), and the normal approximation's time as the
baseline (``ratio`` = numeric / normal). ``session_exact_vs_numeric``: the exact
convolution (dense at 46 rounds of Banker, sparse at 133) against the numeric one on the
same session, same process: ``speedup`` = exact / numeric, the largest difference over
every CDF value and the bound the numeric one states.

    python benchmarks/session.py [--rounds 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction

from analyzer.analysis.exact import analyze
from analyzer.analysis.session import session

#: A side bet with a 200:1 and a 25:1 line.
SIDE = {
    Fraction(200): Fraction(1, 4000),
    Fraction(25): Fraction(1, 100),
    Fraction(-1): 1 - Fraction(1, 4000) - Fraction(1, 100),
}

STATISTICS = [
    ("p_ahead", ()),
    ("p_behind", ()),
    ("p_even", ()),
    ("p_win_at_least", (Fraction(100),)),
    ("p_lose_at_least", (Fraction(1000),)),
    ("p_between", (Fraction(-1500), Fraction(-500))),
    ("quantile", (Fraction(1, 100),)),
    ("quantile", (Fraction(1, 2),)),
]


def distributions() -> dict[str, dict[Fraction, Fraction]]:
    analysis = analyze(decks=8)
    out = {}
    for bet in ("banker", "player", "tie", "perfect_pair"):
        d: dict[Fraction, Fraction] = {}
        for line in analysis.result(bet, "commission").lines:
            d[line.payout.net] = d.get(line.payout.net, Fraction()) + line.probability
        out[bet] = d
    out["side_200_25"] = SIDE
    return out


def timed(call):
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def hundred_thousand(name: str, d, rounds: int, repeat: int) -> None:
    first = later = normal_seconds = 0.0
    worst_error = Fraction()
    methods = set()
    for _ in range(repeat):
        s = session([d], rounds)
        times = []
        for statistic, args in STATISTICS:
            value, seconds = timed(lambda s=s, st=statistic, a=args: getattr(s, st)(*a))
            times.append(seconds)
            worst_error = max(worst_error, value.error)
            methods.add(value.method)
        first = min(first, times[0]) if first else times[0]
        later = min(later, max(times[1:])) if later else max(times[1:])
        g = session([d], rounds, method="normal")
        _, seconds = timed(g.p_ahead)
        normal_seconds = min(normal_seconds, seconds) if normal_seconds else seconds
    print(
        json.dumps(
            {
                "benchmark": "session_100k",
                "bet": name,
                "rounds": rounds,
                "methods": sorted(methods),
                "first_statistic_seconds": first,
                "slowest_later_statistic_seconds": later,
                "largest_error_bound": float(worst_error),
                "baseline": "normal approximation, same session",
                "baseline_seconds": normal_seconds,
                "ratio": first / normal_seconds,
            }
        )
    )


def exact_against_numeric(d, rounds: int) -> None:
    exact, numeric = session([d], rounds), session([d], rounds, method="numeric")
    _, exact_seconds = timed(exact.p_ahead)
    _, numeric_seconds = timed(numeric.p_ahead)
    lattice = exact._lattice
    worst, bound = 0.0, 0.0
    for v in range(lattice.size):
        x = lattice.net(v)
        e, n = exact.p_lose_at_least(-x), numeric.p_lose_at_least(-x)
        worst = max(worst, abs(float(n.value - e.value)))
        bound = max(bound, float(n.error))
    print(
        json.dumps(
            {
                "benchmark": "session_exact_vs_numeric",
                "bet": "banker",
                "rounds": rounds,
                "exact": type(exact._distribution).__name__.lstrip("_").lower(),
                "exact_seconds": exact_seconds,
                "numeric_seconds": numeric_seconds,
                "speedup": exact_seconds / numeric_seconds,
                "max_abs_error_vs_exact": worst,
                "stated_error_bound": bound,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bets = distributions()
    session([bets["banker"]], 1000).p_ahead()  # warm imports and caches
    for name, d in bets.items():
        hundred_thousand(name, d, args.rounds, args.repeat)
    for rounds in (46, 133):
        exact_against_numeric(bets["banker"], rounds)


if __name__ == "__main__":
    main()
