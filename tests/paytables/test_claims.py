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


def test_a_claim_says_how_its_source_played_the_decisions(tmp_path, capsys) -> None:
    """Baccarat Gold's Tie edge both ways (frixo.com prints 7.55% standing on 5 and 4.91%
    drawing); a file-level strategy applies to every claim that gives none."""
    path = write_claims(
        tmp_path,
        'paytable = "baccarat-gold"\nstrategy = "player:5=stand"\n'
        '[[claim]]\nbet = "tie"\nquantity = "house_edge"\nvalue = "7.55%"\n'
        '[[claim]]\nbet = "tie"\nquantity = "house_edge"\nvalue = "4.91%"\n'
        'strategy = "player:5=draw"\n',
    )
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0, out
    assert "[baccarat-gold, 8 decks, player:5=stand]" in out
    assert "[baccarat-gold, 8 decks, player:5=draw]" in out


@pytest.mark.parametrize(
    ("strategy", "message"),
    [
        ('"player:4=draw"', "claim 1: strategy: player:4 is not a decision cell"),
        ('"player:5=4/3"', "claim 1: strategy: player:5: the probability '4/3' is outside"),
        ("3", "claim 1: strategy: must be text"),
    ],
)
def test_a_bad_claim_strategy_is_one_line(tmp_path, capsys, strategy, message) -> None:
    path = write_claims(
        tmp_path,
        f'paytable = "baccarat-gold"\n[[claim]]\nstrategy = {strategy}\nbet = "tie"\n'
        'quantity = "house_edge"\nvalue = "4.91%"\n',
    )
    code, out, err = run(capsys, "verify", str(path))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
