"""Checking a published figure (``"98.94%"``) against an exact value."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from analyzer.errors import AnalyzerError

_PRINTED = re.compile(r"^\s*(-?\d+(?:\.(\d+))?)\s*(%?)\s*$")
ROUNDINGS = ("round", "truncate")


@dataclass(frozen=True)
class ClaimCheck:
    claimed: str
    exact: Fraction
    computed: str  # the exact value printed the way the claim was printed
    passed: bool


def check_printed_value(exact: Fraction, printed: str, rounding: str = "round") -> ClaimCheck:
    """Does ``exact`` print as ``printed``, with as many digits and the same rounding?

    ``printed`` is a number with optional ``%`` (then compared as a percentage); the digits
    after its decimal point set the precision. ``round`` is round-half-up, ``truncate``
    drops the further digits.
    """
    if rounding not in ROUNDINGS:
        raise AnalyzerError(f"unknown rounding {rounding!r} (use {' or '.join(ROUNDINGS)})")
    match = _PRINTED.match(str(printed))
    if not match:
        raise AnalyzerError(f'cannot read the published value {printed!r}: write e.g. "98.94%"')
    digits = len(match[2] or "")
    scale = 100 if match[3] else 1
    scaled = exact * scale * 10**digits
    whole = math.floor(scaled + Fraction(1, 2)) if rounding == "round" else math.trunc(scaled)
    computed = Decimal(whole).scaleb(-digits)
    claimed = Decimal(match[1])
    return ClaimCheck(printed.strip(), exact, f"{computed}{match[3]}", computed == claimed)
