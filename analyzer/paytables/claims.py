"""Checking a published figure (``"98.94%"``) against an exact value."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.files import check_untrusted
from analyzer.paytables.library import is_path
from analyzer.paytables.model import MAX_ROUND, parse_payout
from analyzer.schema import argument, check_keys, optional, optional_note, table, whole_number

#: The minus signs a published figure may carry: ASCII's and the typographic one (U+2212).
_MINUS = "-\u2212"
_PRINTED = re.compile(rf"^\s*([{_MINUS}]?[0-9]{{1,20}}(?:\.([0-9]{{1,30}}))?)\s*(%?)\s*$")
ROUNDINGS = ("round", "truncate")


@dataclass(frozen=True)
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
    argument(rounding, str, "rounding", f" ({' or '.join(ROUNDINGS)})")
    if rounding not in ROUNDINGS:
        raise AnalyzerError(f"unknown rounding {rounding!r} (use {' or '.join(ROUNDINGS)})")
    match = _PRINTED.match(str(printed))
    if not match:
        raise AnalyzerError(f'cannot read the published value {printed!r}: write e.g. "98.94%"')
    digits = len(match[2] or "")
    computed = printed_value(exact, digits, percent=bool(match[3]), rounding=rounding)
    claimed = Decimal(match[1].replace("\u2212", "-"))
    passed = Decimal(computed.rstrip("%")) == claimed  # exact: no context applies
    return ClaimCheck(printed.strip(), exact, computed, passed)


def printed_value(
    exact: Fraction, digits: int, *, percent: bool = True, rounding: str = "round"
) -> str:
    """``exact`` printed with ``digits`` decimals (as a percentage: times 100, with ``%``),
    rounded half away from zero (``round``: -0.125% to two places is -0.13%, as it is
    printed) or truncated, from the exact value: no float between."""
    scaled = exact * (100 if percent else 1) * 10**digits
    if rounding == "round":
        whole = math.floor(abs(scaled) + Fraction(1, 2)) * (-1 if scaled < 0 else 1)
    else:
        whole = math.trunc(scaled)
    # Built as text, not with Decimal arithmetic, whose context would round beyond 28 digits.
    magnitude = str(abs(whole)).rjust(digits + 1, "0")
    text = ("-" if whole < 0 else "") + (
        f"{magnitude[:-digits]}.{magnitude[-digits:]}" if digits else magnitude
    )
    return text + ("%" if percent else "")


# -- Claims files ------------------------------------------------------------------------

QUANTITIES = ("rtp", "house_edge", "hit_frequency", "max_rtp", "payouts", "max_round")
_CLAIM_KEYS = {"paytable", "bet", "mode", "quantity", "value", "rounding", "source"}


@dataclass(frozen=True)
class Claim:
    number: int
    paytable: str
    quantity: str
    value: object
    bet: str | None = None
    mode: str | None = None
    rounding: str = "round"
    source: str = ""


def claims_from_dict(data: Mapping[str, Any], source: str, base: Path | None) -> list[Claim]:
    """Validate a claims mapping (what ``tomllib`` returns for a claims file)."""
    table(data, source, "a claims file")
    check_untrusted(data, source)
    check_keys(data, {"paytable", "claim", "description"}, source)
    optional_note(data, "description", source)
    default_paytable = data.get("paytable")
    items = data.get("claim")
    if not isinstance(items, list) or not items:
        raise AnalyzerError(f"{source}: needs at least one [[claim]]")
    claims = []
    for number, item in enumerate(items, 1):
        where = f"{source}: claim {number}"
        table(item, where, "a claim")
        check_keys(item, _CLAIM_KEYS, where)
        paytable = item.get("paytable", default_paytable)
        if not isinstance(paytable, str):
            raise AnalyzerError(f"{where}: name its 'paytable' (a file or a shipped name)")
        if is_path(paytable):
            # A file named in a claims file is found beside the claims file, never
            # wherever the command happens to run.
            if base is None:
                raise AnalyzerError(f"{where}: a shipped claims file names shipped paytables")
            path = base / paytable
            if not os.path.isfile(path):
                raise AnalyzerError(
                    f"{where}: paytable file {paytable!r} not found beside the claims file ({path})"
                )
            paytable = str(path)
        quantity = item.get("quantity")
        if quantity not in QUANTITIES:
            raise AnalyzerError(
                f"{where}: 'quantity' must be one of {', '.join(QUANTITIES)}, got {quantity!r}"
            )
        if "value" not in item:
            raise AnalyzerError(f"{where}: missing 'value' (the published figure)")
        value = item["value"]
        bet, mode = item.get("bet"), item.get("mode")
        if quantity == "max_rtp" and (bet is not None or mode is not None):
            raise AnalyzerError(
                f"{where}: 'max_rtp' is the game's best bet: it takes no 'bet' or 'mode'"
            )
        if quantity != "max_rtp" and not isinstance(bet, str):
            raise AnalyzerError(f"{where}: quantity {quantity!r} needs a 'bet'")
        optional(item, "mode", str, where)
        rounding = item.get("rounding", "round")
        if rounding not in ROUNDINGS:
            raise AnalyzerError(f"{where}: 'rounding' must be {' or '.join(ROUNDINGS)}")
        if quantity == "payouts":
            if not (
                isinstance(value, list)
                and value
                and all(isinstance(v, (str, int, float)) for v in value)
            ):
                raise AnalyzerError(
                    f'{where}: \'payouts\' value must be a list such as ["12:1", "20:1"]'
                )
            for printed in value:
                try:
                    parse_payout(printed)
                except AnalyzerError as exc:
                    raise AnalyzerError(f"{where}: {exc}") from None
        if quantity == "max_round" and value != "none":
            whole_number(value, where, "a 'max_round' value (or \"none\")", 1, MAX_ROUND)
        if quantity in ("rtp", "house_edge", "hit_frequency", "max_rtp") and (
            not isinstance(value, str) or not _PRINTED.match(value)
        ):
            raise AnalyzerError(f'{where}: value must be printed as a string, e.g. "98.94%"')
        text = optional_note(item, "source", where)
        claims.append(Claim(number, paytable, quantity, value, bet, mode, rounding, text))
    return claims
