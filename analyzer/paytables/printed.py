"""Published figures as printed, and exact values printed the same way.

A source prints a figure with some digits (``"98.94%"``, ``"0.458597"``, ``"-1.8e-4"``,
``"4,998,398,275,503,360"``); those digits set the precision of the check. The exact value
(a :class:`~fractions.Fraction`, or the square root of one for a standard deviation) is
rounded to the same last digit, by integer arithmetic only, and compared with the printed
number: no float comes between.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from analyzer.errors import AnalyzerError
from analyzer.memo import Pattern
from analyzer.records import record
from analyzer.schema import argument

#: The minus signs a published figure may carry: ASCII's and the typographic one (U+2212).
MINUS = "-\u2212"
#: How the digits of a large number may be grouped in print: commas, (thin or no-break)
#: spaces, apostrophes and underscores, in groups of three. A comma is only a separator
#: in groups after a leading 1-9: "0,458" is a decimal comma, which is refused, not read.
_SEPARATORS = ",\u2009\u202f\u00a0 '_"
_GROUPED = Pattern(rf"^[1-9][0-9]{{0,2}}(?P<sep>[{_SEPARATORS}])[0-9]{{3}}(?:(?P=sep)[0-9]{{3}})*$")
_NUMBER = Pattern(
    r"^(?P<sign>[+\-\u2212]?)"
    rf"(?P<whole>[0-9][0-9{_SEPARATORS}]{{0,40}})"
    r"(?:\.(?P<decimals>[0-9]{1,40}))?(?P<exponent>[eE][+-]?[0-9]{1,3})?$"
)
ROUNDINGS = ("round", "truncate")
#: The most digits before a printed figure's point (a count of rounds of 27 decks has 19).
MAX_WHOLE_DIGITS = 30
#: The finest and coarsest last digit a printed figure may have (1e-60 and 1e40).
MIN_EXPONENT, MAX_EXPONENT = -60, 40
#: The most significant digits a claim may say its source shows (Excel shows 15).
MAX_SIGNIFICANT = 40


@record
class SquareRoot:
    """The exact, usually irrational, value ``sqrt(square)``: a standard deviation."""

    square: Fraction

    def __float__(self) -> float:
        return math.sqrt(self.square)

    def __str__(self) -> str:
        return f"sqrt({shown_fraction(self.square)})"


Exact = Fraction | SquareRoot


def shown_fraction(value: Fraction | int) -> str:
    """``p/q`` in lowest terms (``p`` for a whole number)."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value}"


@record
class Printed:
    """A figure as a source printed it.

    ``number`` is the printed number (a percentage as printed, not divided by 100);
    ``exponent`` is the power of ten of the last digit compared (the last printed digit,
    or the last significant one a source shows, e.g. Excel's 15th).
    """

    text: str
    number: Decimal
    percent: bool
    exponent: int
    grouped: str  # the thousands separator the source used, "" for none
    written_exponent: str  # the "e-4" of "-1.8e-4" as printed, "" for none


def read_printed(text: object, significant: int | None = None) -> Printed:
    """Read a printed figure: optional sign (``-``, U+2212 or ``+``), digits (grouped in
    thousands or not), decimals, an exponent (``1.8e-4``) and ``%``."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise AnalyzerError(f'a published value is printed text, e.g. "98.94%", got {text!r:.40}')
    shown = str(text).strip()
    body = shown
    percent = body.endswith("%")
    if percent:
        body = body[:-1].rstrip()
    match = _NUMBER.match(body)
    whole = match["whole"] if match else ""
    separator = ""
    if match and not whole.isdigit():
        grouped = _GROUPED.match(whole)
        if not grouped:
            match = None
        else:
            separator = grouped["sep"]
            whole = re.sub("[^0-9]", "", whole)
    if match and len(whole) > MAX_WHOLE_DIGITS:
        match = None
    if not match:
        raise AnalyzerError(
            f"cannot read the published value {shown[:40]!r}: write at most "
            f"{MAX_WHOLE_DIGITS} digits before the point and digits with a decimal "
            'point, e.g. "98.94%", "0.458597", "-1.8e-4" or "4,998,398,275,503,360"'
        )
    sign = "-" if match["sign"] and match["sign"] in MINUS else ""
    digits = f"{whole}.{match['decimals']}" if match["decimals"] else whole
    exponent = match["exponent"]
    number = Decimal(f"{sign}{digits}{exponent or ''}")
    last = number.as_tuple().exponent
    assert isinstance(last, int)  # a finite number
    if not MIN_EXPONENT <= last <= MAX_EXPONENT:
        raise AnalyzerError(
            f"the published value {shown[:40]!r} is printed to 1e{last}: figures are checked "
            f"to 1e{MIN_EXPONENT} at the finest and 1e{MAX_EXPONENT} at the coarsest"
        )
    if significant is not None and number != 0:
        shown_at = max(last, number.adjusted() - significant + 1)
        if number != number.quantize(Decimal(1).scaleb(shown_at)):
            raise AnalyzerError(
                f"the published value {shown[:40]!r} shows more than {significant} significant "
                "digits, which its 'digits' says the source shows"
            )
        last = shown_at
    return Printed(shown, number, percent, last, separator, exponent or "")


def check_significant(value: object, where: str) -> int:
    """A claim's ``digits``: how many significant digits its source shows."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIGNIFICANT:
        raise AnalyzerError(
            f"{where}: 'digits' is the number of significant digits the source shows, 1 to "
            f"{MAX_SIGNIFICANT} (Excel shows 15), got {value!r:.40}"
        )
    return value


def _whole(scaled: Exact, rounding: str) -> int:
    """``scaled`` to a whole number: half away from zero, or truncated toward zero."""
    if isinstance(scaled, SquareRoot):
        # floor(sqrt(x)) = isqrt(floor(x)), and floor(sqrt(x) + 1/2) =
        # floor((floor(sqrt(4x)) + 1) / 2): exact, with integers only.
        if rounding == "round":
            return (math.isqrt(math.floor(4 * scaled.square)) + 1) // 2
        return math.isqrt(math.floor(scaled.square))
    if rounding == "round":
        return math.floor(abs(scaled) + Fraction(1, 2)) * (-1 if scaled < 0 else 1)
    return math.trunc(scaled)


def _times(exact: Exact, factor: Fraction) -> Exact:
    if isinstance(exact, SquareRoot):
        return SquareRoot(exact.square * factor * factor)
    return exact * factor


def rounded_at(exact: Exact, exponent: int, rounding: str = "round") -> int:
    """``exact / 10**exponent`` rounded to a whole number (``round``: half away from zero;
    ``truncate``: toward zero). ``exact`` must be a Fraction, or a SquareRoot."""
    return _whole(_times(exact, Fraction(10) ** -exponent), rounding)


@record
class Comparison:
    """An exact value against a printed figure, at the printed figure's last digit."""

    computed: str  # the exact value printed the way the figure was
    passed: bool
    #: The two differ by one in the last digit compared: the commonest slip of a source.
    last_digit: bool


def compare_printed(
    exact: Exact,
    printed: Printed,
    rounding: str = "round",
    scale: Fraction = Fraction(1),
    error: Fraction = Fraction(0),
) -> Comparison:
    """Does ``exact`` (times ``scale``, times 100 for a percentage) print as ``printed``?

    ``error`` (for a value known only within a bound) widens the check to every value
    within it: the figure passes when some value within the bound prints as printed.
    """
    factor = Fraction(scale) * (100 if printed.percent else 1)
    claimed = Fraction(printed.number) / Fraction(10) ** printed.exponent
    if error and not isinstance(exact, SquareRoot):
        low = rounded_at((exact - error) * factor, printed.exponent, rounding)
        high = rounded_at((exact + error) * factor, printed.exponent, rounding)
        whole = rounded_at(exact * factor, printed.exponent, rounding)
        passed = claimed.denominator == 1 and low <= claimed <= high
    else:
        whole = rounded_at(_times(exact, factor), printed.exponent, rounding)
        passed = whole == claimed
    last_digit = not passed and abs(whole - claimed) == 1
    return Comparison(_shown_like(whole, printed), passed, last_digit)


def nearest_double(exact: Exact) -> float:
    """The binary64 float nearest ``exact`` (ties to even), as a program computing the
    value exactly would store it: a Fraction by correctly rounded division, the square
    root of one by comparing the midpoints between neighbouring doubles, exactly.

    Parameters
    ----------
    exact : Fraction or SquareRoot
        The exact value.

    Returns
    -------
    float
        The double nearest it.

    Raises
    ------
    AnalyzerError
        Where the value is beyond the range of a double.

    Examples
    --------
    >>> nearest_double(Fraction(1, 10)) == 0.1
    True
    >>> nearest_double(SquareRoot(Fraction(2)))
    1.4142135623730951
    """
    try:
        if not isinstance(exact, SquareRoot):
            return float(exact)  # int / int: correctly rounded in CPython
        square = exact.square
        guess = math.sqrt(float(square))
    except OverflowError:
        raise AnalyzerError("the exact value is beyond the range of a double") from None
    # sqrt(square) lies between the midpoints about the nearest double: step to it.
    while (
        guess > 0
        and ((Fraction(guess) + Fraction(math.nextafter(guess, -math.inf))) / 2) ** 2 > square
    ):
        guess = math.nextafter(guess, -math.inf)
    while ((Fraction(guess) + Fraction(math.nextafter(guess, math.inf))) / 2) ** 2 < square:
        guess = math.nextafter(guess, math.inf)
    return guess


def float_printed(exact: Exact, scale: Fraction, percent: bool) -> float:
    """The double a program prints for ``exact`` shown times ``scale`` (and 100 for a
    percentage): the nearest double to the exact value, times the factor as a double, the
    product rounded to a double (the factor 1: the nearest double itself).

    Parameters
    ----------
    exact : Fraction or SquareRoot
        The exact value.
    scale : Fraction
        What the source printed the figure times.
    percent : bool
        Whether the figure is printed as a percentage (times 100).

    Returns
    -------
    float
        The double printed.

    Examples
    --------
    >>> float_printed(Fraction(1, 3), Fraction(1), percent=True)
    33.33333333333333
    """
    double = nearest_double(exact)
    factor = Fraction(scale) * (100 if percent else 1)
    return double if factor == 1 else double * float(factor)


def compare_float(exact: Exact, printed: Printed, scale: Fraction = Fraction(1)) -> Comparison:
    """Does ``exact``, stored as the nearest double, print as ``printed``? The double
    (:func:`float_printed`) is rounded half to even at the printed figure's last digit,
    from its exact binary value, as ``repr`` (the shortest string that reads back as the
    double), ``%.Nf``, ``%.Ng`` and ``%.Ne`` all print it.

    Parameters
    ----------
    exact : Fraction or SquareRoot
        The exact value.
    printed : Printed
        The figure as the source printed it (:func:`read_printed`).
    scale : Fraction
        What the source printed the figure times.

    Returns
    -------
    Comparison
        The double printed the way the figure was, and whether they are the same.

    Examples
    --------
    >>> compare_float(Fraction(1, 3), read_printed("0.33333333333333331")).passed
    True
    >>> compare_float(Fraction(1, 3), read_printed("0.33333333333333333")).passed
    False
    """
    double = float_printed(exact, scale, printed.percent)
    # (Fraction rounds half to even)
    whole = round(Fraction(double) / Fraction(10) ** printed.exponent)
    claimed = Fraction(printed.number) / Fraction(10) ** printed.exponent
    passed = whole == claimed
    last_digit = not passed and abs(whole - claimed) == 1
    return Comparison(_shown_like(whole, printed), passed, last_digit)


class PrintedRange(NamedTuple):
    """The exact values (before ``scale`` and the percentage) that print as a figure: from
    ``low`` to ``high``, each end in the range or not as the rounding has it."""

    low: Fraction
    high: Fraction
    low_closed: bool
    high_closed: bool


def printed_range(
    printed: Printed, rounding: str = "round", scale: Fraction = Fraction(1)
) -> PrintedRange:
    """The interval of exact values (before ``scale`` and the percentage) that
    :func:`compare_printed` finds print as ``printed``, and which of its ends do: half
    away from zero, 98.8% is every value from 98.75% (in) to 98.85% (out, it prints
    98.9%); -1.2% from -1.25% (out) to -1.15% (in); truncated, 98.8% from 98.8% (in) to
    98.9% (out)."""
    factor = Fraction(scale) * (100 if printed.percent else 1)
    unit = Fraction(10) ** printed.exponent
    claimed = Fraction(printed.number) / unit
    half = Fraction(1, 2) if rounding == "round" else Fraction(0)
    # The ends the rounding moves a value toward zero from: (units, whether it is in).
    if claimed > 0:
        low, high = (claimed - half, True), (claimed - half + 1, False)
    elif claimed < 0:
        low, high = (claimed + half - 1, False), (claimed + half, True)
    else:  # every value within a unit (half a unit, rounded) of zero, neither end
        low, high = (-1 + half, False), (1 - half, False)
    (low_value, low_in), (high_value, high_in) = (low, high) if factor > 0 else (high, low)
    return PrintedRange(low_value * unit / factor, high_value * unit / factor, low_in, high_in)


def _shown_like(whole: int, printed: Printed) -> str:
    """``whole * 10**printed.exponent`` written as the printed figure is written: built as
    text, not with Decimal arithmetic, whose context would round beyond 28 digits."""
    exponent = printed.exponent
    sign = "-" if whole < 0 else ""
    magnitude = abs(whole)
    suffix = printed.written_exponent
    if suffix:
        # "1.8e-4": the same written exponent, the mantissa to the compared digit.
        exponent -= int(suffix[1:])
    if exponent >= 0:
        text = str(magnitude * 10**exponent)
        if printed.grouped:
            text = f"{int(text):,}".replace(",", printed.grouped)
        return sign + text + suffix + ("%" if printed.percent else "")
    digits = str(magnitude).rjust(-exponent + 1, "0")
    whole_part = digits[:exponent]
    if printed.grouped:
        whole_part = f"{int(whole_part):,}".replace(",", printed.grouped)
    text = f"{whole_part}.{digits[exponent:]}"
    return sign + text + suffix + ("%" if printed.percent else "")


# -- The figure checks older callers use ------------------------------------------------


@record
class ClaimCheck:
    claimed: str
    exact: Fraction
    computed: str  # the exact value printed the way the claim was printed
    passed: bool


def check_printed_value(exact: Fraction, printed: str, rounding: str = "round") -> ClaimCheck:
    """Does ``exact`` print as ``printed``, with as many digits and the same rounding?

    ``printed`` is a number with optional ``%`` (then compared as a percentage) and an
    optional minus sign (``-``, or U+2212 as typeset); the digits after its decimal point
    set the precision. ``round`` rounds half away from zero, as printed figures do;
    ``truncate`` drops the further digits.
    """
    argument(exact, (Fraction, int), "the exact value")
    argument(printed, str, "the published value", ' (text, e.g. "98.94%")')
    check_rounding(rounding)
    comparison = compare_printed(Fraction(exact), read_printed(printed), rounding)
    return ClaimCheck(printed.strip(), Fraction(exact), comparison.computed, comparison.passed)


def check_rounding(rounding: object, where: str = "") -> str:
    argument(rounding, str, "rounding", f" ({' or '.join(ROUNDINGS)})")
    if rounding not in ROUNDINGS:
        prefix = f"{where}: " if where else ""
        raise AnalyzerError(f"{prefix}unknown rounding {rounding!r} (use {' or '.join(ROUNDINGS)})")
    return rounding


def printed_value(
    exact: Fraction, digits: int, *, percent: bool = True, rounding: str = "round"
) -> str:
    """``exact`` printed with ``digits`` decimals (as a percentage: times 100, with ``%``),
    rounded half away from zero (``round``: -0.125% to two places is -0.13%, as it is
    printed) or truncated, from the exact value: no float between."""
    whole = rounded_at(Fraction(exact) * (100 if percent else 1), -digits, rounding)
    return _shown_like(whole, Printed("", Decimal(0), percent, -digits, "", ""))
