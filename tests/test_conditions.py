"""The condition language: what it means, and that nothing in it is ever executed."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import AnalyzerError, parse_condition

COLUMNS = {
    "player_score": np.array([7, 6, 9, 0]),
    "banker_score": np.array([6, 6, 1, 5]),
    "player_cards": np.array([2, 3, 2, 3]),
    "banker_cards": np.array([3, 2, 2, 3]),
    "winner": np.array(["player", "tie", "player", "banker"], dtype=object),
    "natural": np.array([False, False, True, False]),
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("winner == 'player'", [1, 0, 1, 0]),
        ("winner != 'player'", [0, 1, 0, 1]),
        ("player_score - banker_score == 8", [0, 0, 1, 0]),
        ("player_score + banker_cards * 2 == 13", [1, 0, 1, 0]),
        ("not natural and winner in ('player', 'tie')", [1, 1, 0, 0]),
        ("player_cards not in (3,)", [1, 0, 1, 0]),
        ("banker_score in (6, 5) or natural", [1, 1, 1, 1]),
        ("1 <= player_score < 7", [0, 1, 0, 0]),
        ("(winner == 'tie') == false", [1, 0, 1, 1]),
        ("true", [1, 1, 1, 1]),
        ("-player_score < -6", [1, 0, 1, 0]),
    ],
)
def test_meaning(text, expected) -> None:
    mask = parse_condition(text).mask(COLUMNS, 4)
    assert mask.tolist() == [bool(x) for x in expected]


def test_fields_are_reported() -> None:
    assert parse_condition("winner == 'tie' and banker_cards == 2").fields == {
        "winner",
        "banker_cards",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("__import__('os').system('echo hacked')", "not allowed"),
        ("open('/etc/passwd')", "not allowed"),
        ("player_score.__class__", "not allowed"),
        ("[x for x in ()]", "not allowed"),
        ("lambda: 1", "not allowed"),
        ("player_score ** 2 == 4", "not allowed"),
        ("player_score / 2 == 3", "not allowed"),
        ("player_sore == 1", "unknown field 'player_sore'"),
        ("winner == 'dragon'", "winner is one of"),
        ("winner == 1", "compares a string with a number"),
        ("player_score", "not true/false"),
        ("player_score == ", "syntax error"),
        ("winner < 'tie'", "only numbers can be ordered"),
        ("player_score in 3", "parenthesised list"),
        ("player_score == 1.5", "not allowed"),
        ("player_score == 10**100", "not allowed"),
        ("player_score == 99999999", "out of range"),
        ("natural and 3", "expected true/false"),
    ],
)
def test_refusals(text, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        parse_condition(text)
