"""Published figures: printed values against exact ones, and claims files."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import run, write_claims

from analyzer.paytables.claims import check_printed_value


@pytest.mark.parametrize(
    ("exact", "printed", "rounding", "passed"),
    [
        (Fraction(98942, 100000), "98.94%", "round", True),
        (Fraction(98945, 100000), "98.95%", "round", True),  # half rounds up
        (Fraction(98945, 100000), "98.94%", "truncate", True),
        (Fraction(98945, 100000), "98.94%", "round", False),
        (Fraction(1, 3), "0.333", "round", True),
    ],
)
def test_printed_value_checks(exact, printed, rounding, passed) -> None:
    assert check_printed_value(exact, printed, rounding).passed is passed


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
