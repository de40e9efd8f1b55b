"""Sessions of N rounds: exact against enumerating every sequence of outcomes, the numeric
convolution against the exact one (its error bound must hold), large sessions against the
normal approximation, and every bad input refused in one line."""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import mpmath
import naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.analysis import session as session_module
from analyzer.analysis.exact import analyze
from analyzer.analysis.session import SessionValue, session
from analyzer.errors import AnalyzerError

F = Fraction


@pytest.fixture(scope="module")
def bets() -> dict[str, dict[Fraction, Fraction]]:
    """Per-round distributions of 8-deck bets (lines with the same net summed)."""
    analysis = analyze(decks=8)
    out = {}
    for bet in ("banker", "player", "tie", "perfect_pair", "banker_bonus"):
        distribution: dict[Fraction, Fraction] = {}
        for line in analysis.result(bet, "commission").lines:
            net = line.payout.net
            distribution[net] = distribution.get(net, Fraction()) + line.probability
        out[bet] = distribution
    return out


#: A side bet with a 200:1 and a 25:1 line.
SIDE = {F(200): F(1, 4000), F(25): F(1, 100), F(-1): 1 - F(1, 4000) - F(1, 100)}


# ---------------------------------------------------------------- reference statistics


def cdf_at_most(distribution: dict, x: Fraction) -> Fraction:
    return sum((p for net, p in distribution.items() if net <= x), Fraction())


def reference_quantile(distribution: dict, level: Fraction) -> Fraction:
    total = Fraction()
    for net in sorted(distribution):
        total += distribution[net]
        if total >= level:
            return net
    raise AssertionError("probabilities do not reach the level")


def check_against(distribution: dict, s, amounts, levels) -> None:
    """Every statistic of the session ``s`` equals the one computed from ``distribution``
    (exactly, with error 0)."""

    def same(value: SessionValue, expected: Fraction) -> None:
        assert value.method == "exact" and value.error == 0
        assert value.value == expected

    same(s.p_ahead(), sum((p for n, p in distribution.items() if n > 0), Fraction()))
    same(s.p_behind(), sum((p for n, p in distribution.items() if n < 0), Fraction()))
    same(s.p_even(), distribution.get(Fraction(0), Fraction()))
    for amount in amounts:
        same(
            s.p_win_at_least(amount), sum((p for n, p in distribution.items() if n >= amount), F())
        )
        same(s.p_lose_at_least(amount), cdf_at_most(distribution, -F(amount)))
        same(
            s.p_between(-amount, amount),
            sum((p for n, p in distribution.items() if -amount <= n <= amount), Fraction()),
        )
    for level in levels:
        same(s.quantile(level), reference_quantile(distribution, level))
    mean = sum((n * p for n, p in distribution.items()), Fraction())
    same(s.mean(), mean)
    same(s.variance(), sum((p * (n - mean) ** 2 for n, p in distribution.items()), Fraction()))


AMOUNTS = [F(0), F(1, 20), F(19, 20), F(1), F(3, 2), F(2), F(8), F(17)]
LEVELS = [F(1, 1000), F(1, 10), F(1, 3), F(1, 2), F(9, 10), F(999, 1000)]


# ---------------------------------------------------------------- exact, brute force


@pytest.mark.parametrize("bet", ["banker", "player", "tie", "perfect_pair"])
@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 5, 6])
def test_one_bet_matches_every_sequence(bets, bet, rounds) -> None:
    d = bets[bet]
    check_against(naive.session_distribution([d], rounds), session([d], rounds), AMOUNTS, LEVELS)


@pytest.mark.parametrize(
    "mix",
    [("player", "banker", "banker"), ("tie", "banker"), ("banker_bonus", "perfect_pair", "player")],
)
@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 5, 6])
def test_mixes_match_every_sequence(bets, mix, rounds) -> None:
    """The cycle is played in order and repeated, the last cycle partial."""
    cycle = [bets[bet] for bet in mix]
    expected = naive.session_distribution(cycle, rounds)
    check_against(expected, session(cycle, rounds), AMOUNTS, LEVELS)


def test_fine_nets_take_the_sparse_exact_path() -> None:
    """Nets in 997ths and 991sts: the dense lattice is far too fine, the reachable sums
    are few, and the answers stay exact."""
    a = {F(1, 997): F(1, 3), F(-1): F(1, 3), F(500, 991): F(1, 3)}
    b = {F(2, 991): F(1, 2), F(-3, 997): F(1, 2)}
    expected = naive.session_distribution([a, b], 5)
    s = session([a, b], 5)
    assert session_module._exact_bits(s._rounds) > session_module.EXACT_MAX_BITS
    check_against(expected, s, [F(0), F(1, 997), F(1, 2)], LEVELS)


def test_partial_cycle_counts_rounds_in_order() -> None:
    """Seven rounds of (win, lose, lose) are three wins and four losses: net -1 surely."""
    win, lose = {F(1): F(1)}, {F(-1): F(1)}
    s = session([win, lose, lose], 7)
    assert s.mean().value == -1 and s.p_behind().value == 1 and s.variance().value == 0
    assert s.quantile(F(1, 2)).value == -1
    assert session([win, lose, lose], 8).mean().value == -2


def test_exact_as_far_as_the_thresholds_allow(bets) -> None:
    """Banker: dense exact to 48 rounds, sparse to 133, then numeric; Tie dense to 311."""
    b, t = bets["banker"], bets["tie"]
    assert type(session([b], 48)._distribution).__name__ == "_Exact"
    assert type(session([b], 49)._distribution).__name__ == "_Sparse"
    assert session([b], 133).p_ahead().method == "exact"
    assert session([b], 134).p_ahead().method == "numeric"
    assert type(session([t], 311)._distribution).__name__ == "_Exact"
    assert type(session([t], 312)._distribution).__name__ == "_Sparse"


# ---------------------------------------------------------------- moments and std dev


def test_mean_and_variance_are_exact_for_any_number_of_rounds(bets) -> None:
    d = bets["banker"]
    mean = sum((n * p for n, p in d.items()), Fraction())
    variance = sum((p * (n - mean) ** 2 for n, p in d.items()), Fraction())
    s = session([d], 10**7)
    assert s.mean() == SessionValue(10**7 * mean, Fraction(), "exact")
    assert s.variance() == SessionValue(10**7 * variance, Fraction(), "exact")
    assert session([d], 10**7, method="normal").mean().value == 10**7 * mean


def test_std_dev_is_exact_for_a_square_variance() -> None:
    coin = {F(1): F(1, 2), F(-1): F(1, 2)}
    assert session([coin], 4).std_dev() == SessionValue(F(2), F(0), "exact")
    assert session([coin], 9, method="normal").std_dev().value == 3


@pytest.mark.parametrize("rounds", [1, 7, 100_000, 10**7])
def test_std_dev_brackets_the_root_to_forty_digits(bets, rounds) -> None:
    s = session([bets["banker"]], rounds)
    sd, variance = s.std_dev(), s.variance().value
    assert sd.method == "numeric" and 0 < sd.error < sd.value * F(1, 10**40)
    assert (sd.value - sd.error) ** 2 <= variance <= (sd.value + sd.error) ** 2


# ---------------------------------------------------------------- numeric against exact


def lattice_nets(s) -> list[Fraction]:
    lattice = s._lattice
    return [lattice.net(v) for v in range(-1, lattice.size + 1)]


def check_numeric_bound(cycle, rounds) -> float:
    """Every CDF value, the headline probabilities and quantiles of the numeric session
    lie within its stated error of the exact ones. Returns the largest error seen."""
    exact, numeric = session(cycle, rounds), session(cycle, rounds, method="numeric")
    assert exact.p_ahead().method == "exact"
    worst = 0.0
    for x in lattice_nets(exact):
        e, n = exact.p_lose_at_least(-x), numeric.p_lose_at_least(-x)
        assert n.method == "numeric"
        assert abs(n.value - e.value) <= n.error, x
        worst = max(worst, abs(float(n.value - e.value)))
    for name in ("p_ahead", "p_behind", "p_even"):
        e, n = getattr(exact, name)(), getattr(numeric, name)()
        assert abs(n.value - e.value) <= n.error, name
    for level in [F(1, 10**6), *LEVELS, F(1, 2) + F(1, 10**9)]:
        e, n = exact.quantile(level), numeric.quantile(level)
        assert abs(n.value - e.value) <= n.error, level
    return worst


@pytest.mark.parametrize(
    ("mix", "rounds"),
    [
        (("banker",), 40),
        (("tie",), 250),
        (("player", "banker", "banker"), 31),
        (("perfect_pair",), 200),
    ],
)
def test_numeric_bound_holds_and_is_small(bets, mix, rounds) -> None:
    cycle = [bets[bet] for bet in mix]
    check_numeric_bound(cycle, rounds)
    assert session(cycle, rounds, method="numeric").p_ahead().error < 1e-9


@pytest.mark.parametrize(
    ("mix", "rounds"), [(("banker",), 120), (("tie",), 300), (("banker", "tie"), 60)]
)
def test_numeric_bound_holds_with_a_narrow_window(bets, monkeypatch, mix, rounds) -> None:
    """With a large tail allowance the window is narrower than the support: aliasing and
    the mass outside are real, and the Chernoff bound must cover them."""
    monkeypatch.setattr(session_module, "TAIL_MASS", 1e-2)
    cycle = [bets[bet] for bet in mix]
    numeric = session(cycle, rounds, method="numeric")
    numeric.p_ahead()
    assert len(numeric._distribution.cdf) < numeric._lattice.size
    worst = check_numeric_bound(cycle, rounds)
    assert worst > 1e-10  # the tail really moved the values (rounding alone: ~1e-16)


# ---------------------------------------------------------------- large sessions


@pytest.mark.parametrize("bet", ["banker", "player", "tie", "perfect_pair", "side"])
def test_hundred_thousand_rounds(bets, bet) -> None:
    """Numeric, a bound below 1e-9, and within the Berry-Esseen distance of the normal
    approximation (which is rigorous, so the two must agree that far)."""
    d = SIDE if bet == "side" else bets[bet]
    numeric, normal = session([d], 100_000), session([d], 100_000, method="normal")
    for name in ("p_ahead", "p_behind"):
        n, g = getattr(numeric, name)(), getattr(normal, name)()
        assert n.method == "numeric" and g.method == "normal"
        assert 0 < n.error < 1e-9
        assert abs(n.value - g.value) <= g.error + n.error
    assert numeric.p_even().error < 1e-9
    for level in (F(1, 100), F(1, 2), F(99, 100)):
        q = numeric.quantile(level)
        assert q.error <= F(1, 1)  # at most a step or so of the lattice either way
        assert (
            abs(q.value - normal.quantile(level).value) < 10 * float(numeric.std_dev().value) / 100
        )


def test_hundred_thousand_banker_rounds_near_the_normal_value(bets) -> None:
    n = session([bets["banker"]], 100_000).p_ahead()
    g = session([bets["banker"]], 100_000, method="normal").p_ahead()
    assert abs(n.value - g.value) < 3e-3
    assert n.error < 1e-9


@pytest.mark.slow
def test_ten_million_rounds(bets) -> None:
    s = session([bets["banker"]], 10**7)
    ahead = s.p_ahead()
    assert ahead.method == "numeric" and ahead.error < 1e-9 and ahead.value < 1e-100 + ahead.error


# ---------------------------------------------------------------- normal approximation


@pytest.mark.parametrize("bet", ["banker", "tie"])
def test_normal_method_is_the_normal_distribution(bets, bet) -> None:
    """No continuity correction: what sources computed."""
    d = bets[bet]
    s = session([d, d, bets["player"]], 1000, method="normal")
    law = NormalDist(float(s.mean().value), math.sqrt(s.variance().value))
    assert float(s.p_ahead().value) == 1 - law.cdf(0)
    assert float(s.p_behind().value) == law.cdf(0)
    assert float(s.p_win_at_least(10).value) == 1 - law.cdf(10)
    assert float(s.p_lose_at_least(10).value) == law.cdf(-10)
    assert s.p_between(-30, 5).value == F(law.cdf(5)) - F(law.cdf(-30))
    assert float(s.quantile(F(1, 4)).value) == law.inv_cdf(0.25)
    assert all(v.method == "normal" for v in (s.p_ahead(), s.quantile(F(1, 2))))


@pytest.mark.parametrize(("bet", "rounds"), [("banker", 30), ("tie", 100), ("perfect_pair", 60)])
def test_normal_error_is_a_true_bound(bets, bet, rounds) -> None:
    """Berry-Esseen: the normal values are within their stated error of the exact ones."""
    d = bets[bet]
    exact, normal = session([d], rounds), session([d], rounds, method="normal")
    for x in lattice_nets(exact)[::7]:
        for name in ("p_win_at_least", "p_lose_at_least"):
            e, g = getattr(exact, name)(x), getattr(normal, name)(x)
            assert abs(e.value - g.value) <= g.error
    for level in LEVELS:
        e, g = exact.quantile(level), normal.quantile(level)
        assert abs(e.value - g.value) <= g.error


def test_normal_has_no_probability_of_breaking_even(bets) -> None:
    with pytest.raises(AnalyzerError, match="exactly even"):
        session([bets["banker"]], 10, method="normal").p_even()


# ---------------------------------------------------------------- random distributions


@st.composite
def small_cycles(draw):
    """1 to 3 rounds of 1 to 4 outcomes, nets in small fractions, exact probabilities."""
    cycle = []
    for _ in range(draw(st.integers(1, 3))):
        nets = draw(
            st.lists(
                st.fractions(min_value=-3, max_value=6, max_denominator=6),
                min_size=1,
                max_size=4,
                unique=True,
            )
        )
        weights = draw(st.lists(st.integers(1, 50), min_size=len(nets), max_size=len(nets)))
        total = sum(weights)
        cycle.append({net: Fraction(w, total) for net, w in zip(nets, weights, strict=True)})
    return cycle


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cycle=small_cycles(), rounds=st.integers(1, 4), data=st.data())
def test_random_distributions(cycle, rounds, data) -> None:
    expected = naive.session_distribution(cycle, rounds)
    nets = sorted(expected)
    amounts = [abs(data.draw(st.sampled_from(nets))), F(1, 2)]
    check_against(expected, session(cycle, rounds), amounts, LEVELS)
    numeric = session(cycle, rounds, method="numeric")
    for x in nets:
        n = numeric.p_lose_at_least(-x)
        assert abs(n.value - cdf_at_most(expected, x)) <= n.error < 1e-9
    for level in LEVELS:
        n = numeric.quantile(level)
        assert abs(n.value - reference_quantile(expected, level)) <= n.error


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(cycle=small_cycles(), rounds=st.integers(20, 400))
def test_random_distributions_numeric_against_exact(cycle, rounds) -> None:
    exact = session(cycle, rounds)
    if exact.p_ahead().method != "exact":
        return
    numeric = session(cycle, rounds, method="numeric")
    for x in lattice_nets(exact)[:: max(1, exact._lattice.size // 300)]:
        e, n = exact.p_lose_at_least(-x), numeric.p_lose_at_least(-x)
        assert abs(n.value - e.value) <= n.error < 1e-9


# ---------------------------------------------------------------- floating point


def test_libm_is_as_accurate_as_the_bound_assumes() -> None:
    """The numeric bound assumes numpy's sin, exp, log1p and arctan2 within 4 units of
    roundoff (relative); check it on arguments like the ones it sees."""
    mpmath.mp.prec = 120
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(-math.pi, math.pi, 400), rng.uniform(-1e-6, 1e-6, 100)])
    y = np.concatenate([rng.uniform(-0.9, 2, 400), rng.uniform(-1e-9, 1e-9, 100)])
    limit = session_module._LIBM
    checks = [
        (np.sin(x), x, mpmath.sin),
        (np.exp(-np.abs(x * 100)), -np.abs(x * 100), mpmath.exp),
        (np.log1p(y), y, mpmath.log1p),
        (np.arctan2(x, 1 + y), None, None),
    ]
    for computed, args, function in checks[:3]:
        for c, a in zip(computed, args, strict=True):
            truth = function(mpmath.mpf(float(a)))
            assert abs(mpmath.mpf(float(c)) - truth) <= limit * abs(truth)
    for c, a, b in zip(checks[3][0], x, 1 + y, strict=True):
        truth = mpmath.atan2(mpmath.mpf(float(a)), mpmath.mpf(float(b)))
        assert abs(mpmath.mpf(float(c)) - truth) <= limit * abs(truth)


# ---------------------------------------------------------------- bad input


def one_line_error(call, match: str) -> None:
    with pytest.raises(AnalyzerError, match=match) as info:
        call()
    assert "\n" not in str(info.value)


COIN = {F(1): F(1, 2), F(-1): F(1, 2)}


@pytest.mark.parametrize(
    ("rounds", "match"),
    [
        (0, "at least 1 round"),
        (-3, "at least 1 round"),
        (10**7 + 1, "at most"),
        (True, "whole number"),
        (2.0, "whole number"),
    ],
)
def test_bad_rounds(rounds, match) -> None:
    one_line_error(lambda: session([COIN], rounds), match)


@pytest.mark.parametrize(
    ("cycle", "match"),
    [
        ([], "empty"),
        ({F(1): F(1)}, "sequence"),
        ([{}], "no outcomes"),
        ([{F(1): F(1, 2), F(-1): F(1, 3)}], "sum to 5/6, not 1"),
        ([COIN, {F(1): F(2, 3)}], "round 2 of the cycle sum to 2/3"),
        ([{F(1): F(3, 2), F(-1): F(-1, 2)}], "negative"),
        ([{0.95: F(1, 2), F(-1): F(1, 2)}], "exact"),
        ([{F(1): 0.5, F(-1): F(1, 2)}], "exact"),
        ([[1, 2]], "map each net"),
    ],
)
def test_bad_distributions(cycle, match) -> None:
    one_line_error(lambda: session(cycle, 5), match)


def test_bad_method() -> None:
    one_line_error(lambda: session([COIN], 5, method="fft"), "unknown session method 'fft'")


@pytest.mark.parametrize("method", ["exact", "numeric", "normal"])
@pytest.mark.parametrize("level", [0, 1, F(3, 2), -0.1, 1.0])
def test_bad_quantile_levels(method, level) -> None:
    one_line_error(
        lambda: session([COIN], 5, method=method).quantile(level), "strictly between 0 and 1"
    )


@pytest.mark.parametrize("method", ["exact", "numeric", "normal"])
def test_bad_amounts(method) -> None:
    s = session([COIN], 5, method=method)
    one_line_error(lambda: s.p_between(3, 1), "low end 3 is above the high end 1")
    one_line_error(lambda: s.p_win_at_least("3"), "must be a number")
    one_line_error(lambda: s.p_lose_at_least(math.nan), "finite")
    one_line_error(lambda: s.quantile(None), "must be a number")


def test_floats_are_read_as_typed() -> None:
    s = session([COIN], 5)
    assert s.quantile(0.5) == s.quantile(F(1, 2))
    assert s.p_win_at_least(0.1) == s.p_win_at_least(F(1, 10))


def test_a_lattice_too_fine_to_convolve_is_one_line() -> None:
    fine = {F(1, 1000003): F(1, 2), F(-1): F(1, 4), F(1): F(1, 4)}
    one_line_error(lambda: session([fine], 10_000).p_ahead(), "too fine")


def test_normal_needs_a_varying_net() -> None:
    one_line_error(lambda: session([{F(-1): F(1)}], 5, method="normal").p_ahead(), "variance 0")


def test_a_certain_session_in_every_method() -> None:
    certain = {F(-1, 2): F(1)}
    for method in ("exact", "numeric"):
        s = session([certain], 10, method=method)
        assert s.p_behind().value == 1 and s.p_ahead().value == 0 and s.p_even().value == 0
        assert s.quantile(F(1, 2)).value == -5


def test_repr_names_rounds_and_method() -> None:
    assert repr(session([COIN], 3, method="normal")) == "Session(rounds=3, method='normal')"
