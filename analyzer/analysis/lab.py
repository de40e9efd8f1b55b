"""The figures a test lab puts beside a paytable: each paying line's "1 in N", and how
likely a bet's top award is to come at least once in many rounds (a GLI-11 style check).

Everything is exact until it is printed: "1 in N" is ``N = 1/p`` as a Fraction, printed
rounded half up from the exact value (:func:`one_in_text`); the chance of at least one top
award in ``n`` rounds, ``1 - (1 - p)^n``, is worked out in decimal arithmetic with enough
guard digits that every one of the :data:`TRUSTED_DIGITS` significant digits it gives is
right (:func:`at_least_once`): a double's ``1 - (1 - p)**n`` would lose them all to
rounding when ``p`` is small, and even ``-expm1(n * log1p(-p))`` keeps only some 15.
"""

from __future__ import annotations

import decimal
import math
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.errors import AnalyzerError
from analyzer.records import record

if TYPE_CHECKING:  # (the command line reads this module's defaults without numpy)
    from analyzer.analysis.bets import BetResult, Line

#: The rounds of the top-award check unless asked otherwise: GLI-11's hundred million.
TOP_AWARD_ROUNDS = 100_000_000
#: The most rounds the check takes (a round a second for thirty billion years).
MAX_TOP_AWARD_ROUNDS = 10**18
#: Significant digits given of the top-award chance (each of them right).
TRUSTED_DIGITS = 15
#: Guard digits carried beyond those needed (see :func:`at_least_once`).
_GUARD = 10
#: "1 in N" at or above this is printed whole (``1 in 4,165``), below it to two places
#: (``1 in 10.51``).
WHOLE_FROM = 1000


def one_in(probability: Fraction) -> Fraction | None:
    """``N`` of "1 in N": ``1/p``, exactly; None where ``p`` is 0 (never)."""
    if not 0 <= probability <= 1:
        raise AnalyzerError(f"a probability is between 0 and 1, got {probability}")
    return None if probability == 0 else 1 / probability


def rounded_half_up(value: Fraction, places: int) -> Fraction:
    """``value`` (not negative) to ``places`` decimal places, a half rounded up, exactly."""
    scale = 10**places
    return Fraction(math.floor(value * scale + Fraction(1, 2)), scale)


def one_in_number(n: Fraction | None) -> str:
    """``N`` of "1 in N" as labs print it: rounded half up from its exact value, to two
    decimal places below :data:`WHOLE_FROM` (``10.51``) and to a whole number from it
    (``4,165``), with thousands separators; ``-`` for none."""
    if n is None:
        return "-"
    if n >= WHOLE_FROM:
        return f"{rounded_half_up(n, 0).numerator:,}"
    shown = rounded_half_up(n, 2)
    whole, cents = divmod(shown.numerator * 100 // shown.denominator, 100)
    return f"{whole:,}.{cents:02d}"


def one_in_text(n: Fraction | None) -> str:
    """ "1 in N" (:func:`one_in_number`): ``1 in 10.51``, ``1 in 4,165``; ``-`` for none."""
    return "-" if n is None else f"1 in {one_in_number(n)}"


def check_rounds(rounds: int) -> int:
    """Refuse a round count for the top-award check outside 1 to :data:`MAX_TOP_AWARD_ROUNDS`."""
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise AnalyzerError(f"the rounds of the top-award check are a whole number, got {rounds!r}")
    if not 1 <= rounds <= MAX_TOP_AWARD_ROUNDS:
        raise AnalyzerError(
            f"the rounds of the top-award check are 1 to {MAX_TOP_AWARD_ROUNDS:,}, got {rounds:,}"
        )
    return rounds


def at_least_once(
    probability: Fraction, rounds: int, digits: int = TRUSTED_DIGITS
) -> tuple[Decimal, Decimal]:
    """The chance that an event of ``probability`` per round comes at least once in
    ``rounds`` independent rounds, ``1 - (1 - p)^n``, and the chance that it never
    does, ``(1 - p)^n``; each to ``digits`` significant digits, every one of them right.

    Worked in decimal arithmetic (``ln`` and ``exp`` correctly rounded) at a precision
    of ``digits`` plus twice the digits of ``p``'s denominator plus those of ``n`` plus
    guard digits: ``1 - p`` rounded to it keeps ``p`` to ``digits`` + guard digits, so
    does ``n ln(1 - p)``, and the subtraction ``1 - exp(...)`` loses at most the digits
    of ``p``'s denominator (its size is at least ``p``). The exponent range is the widest
    decimal arithmetic has (``(1 - p)^n`` may be ``1E-2171472``); a chance of none below
    ``1E-999999999999999999`` is given as 0 (and at least once as 1).
    """
    check_rounds(rounds)
    if not 0 <= probability <= 1:
        raise AnalyzerError(f"a probability is between 0 and 1, got {probability}")
    if probability == 0:
        return Decimal(0), Decimal(1)
    if probability == 1:
        return Decimal(1), Decimal(0)
    p, q = probability.numerator, probability.denominator
    precision = digits + 2 * len(str(q)) + len(str(rounds)) + _GUARD
    with decimal.localcontext() as context:
        context.prec = precision
        context.Emin, context.Emax = decimal.MIN_EMIN, decimal.MAX_EMAX
        log_stay = (Decimal(q - p) / Decimal(q)).ln()
        never = (rounds * log_stay).exp()
        if not never or context.flags[decimal.Subnormal]:  # (too small to hold its digits)
            return Decimal(1), Decimal(0)
        once = 1 - never
        context.prec = digits
        return +once, +never


def probability_text(once: Decimal, never: Decimal, digits: int = 10) -> str:
    """The chance of at least once as people read it, to ``digits`` significant digits:
    as it is (``0.6321205588``), or, where it is 1 to that many, as one less the chance
    of never (``1 - 2.6306E-2171472``)."""
    with decimal.localcontext() as context:
        context.prec = digits
        context.Emin, context.Emax = decimal.MIN_EMIN, decimal.MAX_EMAX
        shown = +once
        if never and shown == 1:
            return f"1 - {+never:.4E}"
        if shown == 0:
            return "0"
        return f"{shown:f}" if shown.adjusted() >= -6 else f"{shown:E}"


@record
class TopAward:
    """A bet's top award: its highest net (per unit staked, before any fee; a multiplied
    line by its mean net) of the lines it pays, what they pay, their probability
    together (several lines may pay it), "1 in N", and the chance of at least one in
    ``rounds`` rounds (see :func:`at_least_once`)."""

    pays: str
    net: Fraction
    lines: tuple[int, ...]
    probability: Fraction
    rounds: int
    at_least_once: Decimal
    never: Decimal

    @property
    def one_in(self) -> Fraction:
        n = one_in(self.probability)
        assert n is not None  # (a top award has rounds that pay it)
        return n

    @property
    def text(self) -> str:
        """The chance of at least once as people read it (:func:`probability_text`)."""
        return probability_text(self.at_least_once, self.never)


def paying(line: Line) -> bool:
    """Is ``line`` one the bet pays on (a win, or the jackpot), in some rounds?"""
    return line.payout.pays and line.ways > 0


def line_one_in(line: Line) -> Fraction | None:
    """A line's "1 in N" where the bet pays on it (None for a push or a loss)."""
    return one_in(line.probability) if paying(line) else None


def top_award(result: BetResult, rounds: int = TOP_AWARD_ROUNDS) -> TopAward | None:
    """``result``'s top award (None for a bet that pays on no line), with the chance of
    at least one in ``rounds`` rounds."""
    check_rounds(rounds)
    paid = [(number, line) for number, line in enumerate(result.lines) if paying(line)]
    if not paid:
        return None
    best = max(line.net for _, line in paid)
    top = [(number, line) for number, line in paid if line.net == best]
    probability = sum((line.probability for _, line in top), start=Fraction(0))
    once, never = at_least_once(probability, rounds)
    pays = " / ".join(dict.fromkeys(line.payout.text for _, line in top))
    return TopAward(pays, best, tuple(n for n, _ in top), probability, rounds, once, never)
