"""The lab figures: "1 in N" against brute-force counts of the rounds (tests/naive.py),
its rounding, and the chance of a top award in many rounds against computations of
their own (exact fractions for few rounds, mpmath at 80 digits for many)."""

from __future__ import annotations

import math
from collections import defaultdict
from decimal import Decimal, localcontext
from fractions import Fraction

import mpmath
import naive
import pytest

from analyzer import Shoe, analyze, paytable_from_dict
from analyzer.analysis.lab import (
    MAX_TOP_AWARD_ROUNDS,
    TOP_AWARD_ROUNDS,
    at_least_once,
    check_rounds,
    line_one_in,
    one_in,
    one_in_number,
    one_in_text,
    probability_text,
    top_award,
)
from analyzer.errors import AnalyzerError


@pytest.fixture(scope="module")
def one_deck():
    """The seed game on one deck, and the rounds counted by dealing them (naive)."""
    reference = naive.reference_counts(Shoe.standard(1).suit_counts.tolist())
    return analyze(decks=1, mode="both"), reference


def test_one_in_n_and_the_top_award_against_counted_rounds(one_deck) -> None:
    """Each bet's rounds by what they net, counted by dealing them: a net the bet pays
    on one line only is that line's "1 in N" (rounds / rounds at that net); the
    highest net is the top award's."""
    analysis, reference = one_deck
    total = sum(reference.values())
    checked = 0
    for result in analysis.results:
        ways_at: dict = defaultdict(int)
        for key, ways in reference.items():
            net = naive.settle(result.bet.id, result.mode, key)
            if net > 0:
                ways_at[Fraction(net)] += ways
        lines_at: dict = defaultdict(list)
        for line in result.lines:
            if line.payout.pays and line.ways:
                lines_at[line.net].append(line)
        assert set(lines_at) == set(ways_at), result.bet.id
        for net, lines in lines_at.items():
            if len(lines) == 1:
                assert line_one_in(lines[0]) == Fraction(total, ways_at[net])
                checked += 1
        top = top_award(result)
        if not ways_at:  # (a suited pair, on one deck)
            assert top is None
            continue
        best = max(ways_at)
        assert top.net == best and top.one_in == Fraction(total, ways_at[best])
        assert top.probability * top.one_in == 1
        for number, line in enumerate(result.lines):
            assert (number in top.lines) == (line.payout.pays and line.net == best)
            if not line.payout.pays:
                assert line_one_in(line) is None
    assert checked > 30


def test_a_top_award_paid_by_several_lines_is_their_chance_together() -> None:
    """Two rules paying the same highest net: the top award is either, its chance their
    sum; a bet that pays on no line has none."""
    paytable = paytable_from_dict(
        {
            "name": "Two ways",
            "modes": ["m"],
            "bet": [
                {
                    "id": "tie",
                    "rule": [
                        {"when": "winner == 'tie' and player_score == 0", "pays": 8},
                        {"when": "winner == 'tie'", "pays": 8},
                        {"when": "winner == 'banker'", "pays": 1},
                    ],
                },
                {"id": "never", "rule": [{"when": "winner == 'tie'", "pays": "push"}]},
            ],
        }
    )
    analysis = analyze(paytable=paytable, shoe=Shoe.standard(1))
    tie = analysis.result("tie", "m")
    top = top_award(tie)
    assert top.lines == (0, 1) and top.pays == "8:1" and top.net == 8
    assert top.probability == tie.lines[0].probability + tie.lines[1].probability
    assert top_award(analysis.result("never", "m")) is None


@pytest.mark.parametrize(
    ("n", "shown"),
    [
        (Fraction(2101, 200), "10.51"),  # 10.505: half up (a double's 10.505 is below it)
        (Fraction(2100999, 200000), "10.50"),
        (Fraction(1), "1.00"),
        (Fraction(999994, 1000), "999.99"),
        (Fraction(999995, 1000), "1,000.00"),
        (Fraction(1000), "1,000"),
        (Fraction(8331, 2), "4,166"),
        (Fraction(8329, 2), "4,165"),
        (Fraction(10**12 + 1, 3), "333,333,333,334"),
        (None, "-"),
    ],
)
def test_one_in_n_is_rounded_half_up_from_the_exact_value(n, shown) -> None:
    assert one_in_number(n) == shown
    assert one_in_text(n) == ("-" if n is None else f"1 in {shown}")
    if n is not None:  # against a rounding of its own: decimal, half up
        places = Decimal("1") if n >= 1000 else Decimal("0.01")
        with localcontext() as context:
            context.prec = 60
            exact = Decimal(n.numerator) / Decimal(n.denominator)
            want = exact.quantize(places, rounding="ROUND_HALF_UP")
        assert shown.replace(",", "") == str(want)


def test_one_in_refuses_what_is_not_a_probability() -> None:
    assert one_in(Fraction(0)) is None and one_in(Fraction(1, 4)) == 4
    for bad in (Fraction(-1, 2), Fraction(3, 2)):
        with pytest.raises(AnalyzerError, match="between 0 and 1"):
            one_in(bad)


def _fifteen(value: Fraction) -> Decimal:
    """An exact value correctly rounded to 15 significant digits (decimal division)."""
    with localcontext() as context:
        context.prec = 15
        return Decimal(value.numerator) / Decimal(value.denominator)


@pytest.mark.parametrize(
    "p", [Fraction(3, 7), Fraction(1, 20), Fraction(1, 10**6), Fraction(10**15 - 1, 10**15)]
)
@pytest.mark.parametrize("rounds", [1, 2, 37, 200])
def test_at_least_once_is_the_exact_value_to_15_digits(p, rounds) -> None:
    """For few rounds, ``(1 - p)^n`` is an exact fraction: both chances are it correctly
    rounded to 15 significant digits."""
    never = (1 - p) ** rounds
    once, none = at_least_once(p, rounds)
    assert once == _fifteen(1 - never) and none == _fifteen(never)


@pytest.mark.parametrize(
    "p",
    [
        Fraction(1, 10**8),  # exactly 1 in 100 million: 1 - 1/e, to some 8 digits
        Fraction(619306544887, 6508331087895),  # the tie on 8 decks
        Fraction(46349535464, 2789284751955),  # Lucky Six's 3-card six
        Fraction(1, 7 * 10**11),
        Fraction(3, 10**40),
        Fraction(10**17 - 1, 10**17),
    ],
)
@pytest.mark.parametrize("rounds", [TOP_AWARD_ROUNDS, 10**12, MAX_TOP_AWARD_ROUNDS])
def test_at_least_once_in_many_rounds_against_mpmath(p, rounds) -> None:
    """``1 - (1 - p)^n`` and ``(1 - p)^n`` against mpmath's power at 80 digits: every
    one of the 15 digits given is right (to within half a unit in the last)."""
    with mpmath.workdps(80 + len(str(p.denominator))):
        never = mpmath.power(1 - mpmath.mpf(p.numerator) / p.denominator, rounds)
        once = 1 - never
        got_once, got_never = at_least_once(p, rounds)
        for got, want in ((got_once, once), (got_never, never)):
            if got == 0:  # below the least decimal exponent: given as 0
                assert want < mpmath.mpf(10) ** -(10**18)
                continue
            error = abs(mpmath.mpf(str(got)) - want) / want
            assert error <= mpmath.mpf(5) * 10**-15, (got, want)


def test_at_least_once_keeps_digits_a_double_loses() -> None:
    """A double's ``1 - (1 - p)**n`` is all rounding where ``p`` is tiny; log1p/expm1
    keep some 15 digits, which agree with the decimal figure."""
    p = Fraction(1, 7 * 10**11)
    once, _ = at_least_once(p, TOP_AWARD_ROUNDS)
    careful = -math.expm1(TOP_AWARD_ROUNDS * math.log1p(-float(p)))
    naive_double = 1 - (1 - float(p)) ** TOP_AWARD_ROUNDS
    assert math.isclose(float(once), careful, rel_tol=1e-13)
    assert not math.isclose(float(once), naive_double, rel_tol=1e-8)


def test_certain_and_impossible_awards_and_the_rounds_refused() -> None:
    assert at_least_once(Fraction(0), 10) == (0, 1)
    assert at_least_once(Fraction(1), 10) == (1, 0)
    for rounds in (0, -1, MAX_TOP_AWARD_ROUNDS + 1):
        with pytest.raises(AnalyzerError, match="rounds of the top-award check"):
            check_rounds(rounds)
    for rounds in (1.5, True):
        with pytest.raises(AnalyzerError, match="whole number"):
            check_rounds(rounds)
    with pytest.raises(AnalyzerError, match="between 0 and 1"):
        at_least_once(Fraction(2), 10)


@pytest.mark.parametrize(
    ("p", "rounds", "shown"),
    [
        (Fraction(1, 10**8), TOP_AWARD_ROUNDS, "0.6321205607"),
        (Fraction(1, 20), TOP_AWARD_ROUNDS, "1 - 3.3798E-2227640"),
        (Fraction(1, 10**15), TOP_AWARD_ROUNDS, "9.999999500E-8"),
        (Fraction(1, 4), 1, "0.2500000000"),
    ],
)
def test_the_chance_as_people_read_it(p, rounds, shown) -> None:
    assert probability_text(*at_least_once(p, rounds)) == shown
