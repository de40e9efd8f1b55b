"""Published figures as printed: read, and exact values printed the same way."""

from __future__ import annotations

import math
import re
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer import AnalyzerError
from analyzer.paytables.printed import (
    SquareRoot,
    check_printed_value,
    compare_printed,
    read_printed,
    rounded_at,
)


@pytest.mark.parametrize(
    ("exact", "printed", "rounding", "passed"),
    [
        (Fraction(98942, 100000), "98.94%", "round", True),
        (Fraction(98945, 100000), "98.95%", "round", True),  # half rounds away from zero
        (Fraction(98945, 100000), "98.94%", "truncate", True),
        (Fraction(98945, 100000), "98.94%", "round", False),
        (Fraction(1, 3), "0.333", "round", True),
        # Half-way cases round away from zero, as printed figures do: -0.125% is -0.13%.
        (Fraction(-1, 800), "-0.13%", "round", True),
        (Fraction(-1, 800), "-0.12%", "round", False),
        (Fraction(-1, 800), "-0.12%", "truncate", True),
        (Fraction(-98945, 100000), "-98.95%", "round", True),
        (Fraction(-1, 8), "-0.13", "round", True),
        # The typographic minus sign (U+2212), as typeset pages print it.
        (Fraction(-1, 800), "\u22120.13%", "round", True),
        (Fraction(-1, 800), "\u22120.12%", "truncate", True),
        (Fraction(1, 800), "\u22120.13%", "round", False),
    ],
)
def test_printed_value_checks(exact, printed, rounding, passed) -> None:
    assert check_printed_value(exact, printed, rounding).passed is passed


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: check_printed_value("1/2", "50%"), "the exact value must be a Fraction"),
        (lambda: check_printed_value(0.5, "50%"), "got float 0.5"),
        (lambda: check_printed_value(Fraction(1, 2), 50), "the published value must be text"),
        (lambda: check_printed_value(Fraction(1, 2), "50%", None), "rounding must be text"),
        (lambda: check_printed_value(Fraction(1, 2), "--5%"), "cannot read the published"),
    ],
)
def test_printed_value_refuses_wrong_arguments(call, message) -> None:
    with pytest.raises(AnalyzerError, match=re.escape(message)):
        call()


@pytest.mark.parametrize(
    ("text", "significant", "number", "exponent", "percent"),
    [
        ("98.94%", None, "98.94", -2, True),
        ("4,998,398,275,503,360", None, "4998398275503360", 0, False),
        # Excel shows 15 significant digits and zeros after them.
        ("4,998,398,275,503,360", 15, "4998398275503360", 1, False),
        ("4\u202f998\u202f398", None, "4998398", 0, False),  # thin spaces, as typeset
        ("-1.8e-4", None, "-0.00018", -5, False),
        ("1.2E+3", None, "1200", 2, False),
        ("\u22120.012351", None, "-0.012351", -6, False),
        ("+5", None, "5", 0, False),
        ("0.0951542195377781", 15, "0.0951542195377781", -16, False),
    ],
)
def test_reading_printed_figures(text, significant, number, exponent, percent) -> None:
    printed = read_printed(text, significant)
    assert printed.number == Decimal(number)
    assert (printed.exponent, printed.percent) == (exponent, percent)


@pytest.mark.parametrize("text", ["0,458", "1,23,456", "12,34", "1.2.3", "", "e5", "1e", "nan"])
def test_figures_that_cannot_be_read(text) -> None:
    with pytest.raises(AnalyzerError, match="cannot read the published value"):
        read_printed(text)


def test_a_figure_is_printed_back_the_way_its_source_printed_it() -> None:
    count = Fraction(2292252566437888)  # Banker wins, 8 decks (Wizard of Odds)
    assert compare_printed(count, read_printed("2,292,252,566,437,888")).passed
    excel = read_printed("2,292,252,566,437,890", 15)
    assert compare_printed(count, excel).computed == "2,292,252,566,437,890"
    assert compare_printed(count, excel).passed
    slip = compare_printed(count, read_printed("2,292,252,566,437,880", 15))
    assert not slip.passed and slip.last_digit
    far = compare_printed(count, read_printed("2,292,252,566,437,870", 15))
    assert not far.passed and not far.last_digit
    effect = compare_printed(Fraction(-18, 100000), read_printed("-1.8e-4"))
    assert effect.passed and effect.computed == "-1.8e-4"
    scaled = compare_printed(Fraction(-18, 100000), read_printed("-18"), scale=Fraction(100000))
    assert scaled.passed and scaled.computed == "-18"


@given(
    st.fractions(min_value=0, max_value=10**6, max_denominator=10**12),
    st.integers(min_value=-12, max_value=3),
    st.sampled_from(["round", "truncate"]),
)
def test_square_roots_round_like_a_long_decimal_square_root(square, exponent, rounding) -> None:
    """sqrt is rounded with integers only; a 120-digit Decimal square root says the same
    (no value here lies within 1e-100 of a rounding boundary but the exact ones)."""
    with localcontext() as context:
        context.prec = 120
        root = (Decimal(square.numerator) / Decimal(square.denominator)).sqrt()
        scaled = root.scaleb(-exponent)
        whole = int(scaled) if rounding == "truncate" else int(scaled + Decimal("0.5"))
    if abs(scaled - int(scaled) - Decimal("0.5")) > Decimal("1e-100"):
        assert rounded_at(SquareRoot(square), exponent, rounding) == whole
    if math.isqrt(square.numerator) ** 2 == square.numerator and square.denominator == 1:
        assert rounded_at(SquareRoot(square), 0, rounding) == math.isqrt(square.numerator)


def test_a_value_known_within_a_bound_passes_where_any_value_within_it_would() -> None:
    printed = read_printed("0.50")
    near = Fraction(4949, 10000)  # 0.49 when rounded, 0.50 within 0.0002
    assert not compare_printed(near, printed).passed
    assert compare_printed(near, printed, error=Fraction(2, 10000)).passed
    assert not compare_printed(near, printed, error=Fraction(1, 10**6)).passed


def test_printed_range_is_every_value_that_prints_so() -> None:
    from analyzer.paytables.printed import printed_range

    for text, rounding in [("98.94%", "round"), ("-1.25", "round"), ("0.4585", "truncate"),
                           ("-0.03", "truncate"), ("0", "round"), ("12", "truncate"),
                           ("0", "truncate"), ("-7%", "round")]:  # fmt: skip
        printed = read_printed(text)
        low, high, low_closed, high_closed = printed_range(printed, rounding)
        tiny = Fraction(1, 10**12)
        inside = [low + tiny, (low + high) / 2, high - tiny]
        for value in inside:
            assert compare_printed(value, printed, rounding).passed, (text, value)
        for value in (low - tiny, high + tiny):
            assert not compare_printed(value, printed, rounding).passed, (text, value)
        # Each end is in the range exactly where it prints as the figure itself.
        assert compare_printed(low, printed, rounding).passed == low_closed, (text, "low")
        assert compare_printed(high, printed, rounding).passed == high_closed, (text, "high")
