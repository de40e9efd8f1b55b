"""Published figures: printed values against exact ones, and claims files."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from helpers import run, write_claims

from analyzer import AnalyzerError
from analyzer.paytables.claims import check_printed_value


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
    ("body", "message"),
    [
        ('[[claim]]\nquantity = "max_rtp"\nvalue = "98.94%"\n', "claim 1: name its 'paytable'"),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp_max"\nvalue = "1%"\n',
            "claim 1: 'quantity' must be one of",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "max_rtp"\nvalue = 98.94\n',
            "claim 1: value must be printed as a string",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nbet = "nope"\nquantity = "rtp"\nvalue = "1%"\n',
            "claim 1: unknown bet 'nope'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp"\nvalue = "1%"\n',
            "claim 1: quantity 'rtp' needs a 'bet'",
        ),
        (
            'paytable = "nowhere"\n[[claim]]\nquantity = "max_rtp"\nvalue = "1%"\n',
            "unknown paytable 'nowhere'",
        ),
        ('paytable = "seed-game"\n', "needs at least one [[claim]]"),
        ("[[claim\n", "invalid TOML"),
    ],
)
def test_bad_claims_files(tmp_path, capsys, body, message) -> None:
    code, out, err = run(capsys, "verify", str(write_claims(tmp_path, body)))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
