"""Claims files: every bad claim is one line, exit status 2."""

from __future__ import annotations

import pytest
from helpers import run, write_claims


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
