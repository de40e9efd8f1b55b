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
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "odds"\nvalue = "1%"\n',
            "claim 1: 'quantity' must be one of",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\nbet = "tie"\nrule = 3\n'
            'value = "1"\n',
            "claim 1: bet 'tie' (commission) has 1 rule(s): there is no rule 3",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\nbet = "tie"\n'
            'label = "Nope"\nvalue = "1"\n',
            "has no rule labelled 'Nope'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "probability"\n'
            'event = "__import__(\'os\')"\nvalue = "0.1"\n',
            "claim 1: 'event': ",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "probability"\nevent = "tie"\n'
            'value = "0.1"\n',
            "claim 1: 'event': ",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "session"\nbet = "tie"\n'
            'rounds = 0\nstatistic = "mean"\nvalue = "1"\n',
            "claim 1: 'rounds' must be from 1",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "session"\nrounds = 10\n'
            'mix = { player = 1, nope = 1 }\nstatistic = "mean"\nvalue = "1"\n',
            "claim 1: unknown bet 'nope'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "session"\nbet = "tie"\n'
            'rounds = 10\nstatistic = "quantile"\nlevel = 2\nvalue = "1"\n',
            "claim 1: 'level' is a probability between 0 and 1",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "session"\nbet = "tie"\n'
            'rounds = 10\nstatistic = "p_between"\nlow = 1\nvalue = "1"\n',
            "claim 1: statistic 'p_between' needs 'high'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp"\nbet = "tie"\n'
            'given = "natural"\nvalue = "1%"\n',
            "claim 1: unknown key 'given'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\n'
            'event = "player_pair and banker_pair"\nover = "two_cards"\nvalue = "1"\n',
            "counts unordered pairs of one hand's first two cards, but the condition asks",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\nevent = "natural"\n'
            'value = "12.5"\n',
            "claim 1: a count is a whole number",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "count"\nevent = "natural"\n'
            'value = "1"\ndigits = 0\n',
            "'digits' is the number of significant digits",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "eor"\nbet = "tie"\nvalue = "0.1"\n',
            "quantity 'eor' needs 'remove'",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "eor"\nbet = "tie"\n'
            'remove = "QX"\nvalue = "0.1"\n',
            "claim 1: 'remove': ",
        ),
        (
            'paytable = "seed-game"\n[[claim]]\nquantity = "rtp"\nbet = "tie"\n'
            'scale = -1\nvalue = "1%"\n',
            "claim 1: 'scale' must be more than 0",
        ),
        (
            'paytable = "seed-game"\ndecks = 1\nremove = "AS AS"\n[[claim]]\n'
            'quantity = "rtp"\nbet = "tie"\nvalue = "1%"\n',
            "claim 1: cannot remove AS: none left in the shoe",
        ),
        (
            'paytable = "seed-game"\ndecks = 99\n[[claim]]\nquantity = "rtp"\nbet = "tie"\n'
            'value = "1%"\n',
            "'decks'",
        ),
        ("[[claim\n", "invalid TOML"),
    ],
)
def test_bad_claims_files(tmp_path, capsys, body, message) -> None:
    code, out, err = run(capsys, "verify", str(write_claims(tmp_path, body)))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
