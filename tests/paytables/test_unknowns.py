"""Unknowns: the expression parser against Python's own arithmetic, and bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.errors import AnalyzerError
from analyzer.paytables.model import paytable_from_dict
from analyzer.paytables.unknowns import Poly, parse_expression, parse_unknowns

NAMES = ("p", "q")


@st.composite
def expressions(draw, depth=0):
    """An expression as text, and the function of (p, q) it means."""
    if depth > 3 or draw(st.booleans()):
        choice = draw(st.sampled_from(["p", "q", "number"]))
        if choice == "number":
            n = draw(st.fractions(min_value=0, max_value=20, max_denominator=8))
            text = f"{n.numerator}/{n.denominator}" if n.denominator > 1 else str(n.numerator)
            return text, lambda p, q, n=n: n
        return choice, (lambda p, q: p) if choice == "p" else (lambda p, q: q)
    left_text, left = draw(expressions(depth + 1))
    right_text, right = draw(expressions(depth + 1))
    operator = draw(st.sampled_from(["+", "-", "*"]))
    function = {
        "+": lambda p, q: left(p, q) + right(p, q),
        "-": lambda p, q: left(p, q) - right(p, q),
        "*": lambda p, q: left(p, q) * right(p, q),
    }[operator]
    return f"({left_text} {operator} {right_text})", function


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    expressions(), st.fractions(0, 1, max_denominator=10), st.fractions(0, 1, max_denominator=10)
)
def test_an_expression_is_the_polynomial_it_writes(expression, p, q) -> None:
    text, function = expression
    assert parse_expression(text, NAMES, "t").at({"p": p, "q": q}) == function(p, q)


def test_division_by_a_number_and_signs() -> None:
    poly = parse_expression("-(1 - p - q) / 4 + +q", NAMES, "t")
    assert poly.at({"p": Fraction(1, 2), "q": Fraction(1, 3)}) == Fraction(-1, 24) + Fraction(1, 3)
    assert parse_expression("0.25", NAMES, "t") == Fraction(1, 4)
    assert str(parse_expression("1 - p", NAMES, "t")) == "-p + 1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p / q", "not by an unknown"),
        ("p / 0", "nonzero number"),
        ("x + 1", r"'x' is not an unknown of the paytable \(unknowns: p, q\)"),
        ("p ** 2", "unexpected '\\*'"),
        ("p ^ 2", "unexpected '\\^'"),
        ("(p", "ends too soon"),
        ("p)", "cannot read"),
        ("(" * 30 + "p" + ")" * 30, "nests too deeply"),
        ("p" + " + p" * 60, "longer than 200"),
        ("__import__('os')", "unexpected"),
        ("1e5", "cannot read"),
        ("", "ends too soon"),
    ],
)
def test_bad_expressions_are_one_line(text, message) -> None:
    with pytest.raises(AnalyzerError, match=message) as error:
        parse_expression(text, NAMES, "t")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("unknowns", "message"),
    [
        ({"p": "0..1", "q": 0.5}, "must be bounded"),
        ({"p": "1..0"}, "is empty"),
        ({"p": "0"}, "must be bounded"),
        ({"multiplier": "0..1"}, "not an unknown's name"),
        ({"P": "0..1"}, "not an unknown's name"),
        ({f"u{i}": "0..1" for i in range(5)}, "at most 3 unknowns"),
        ({}, "names no unknown"),
        ({"p": "0..-1"}, "high end must not be negative"),
    ],
)
def test_bad_unknowns_are_one_line(unknowns, message) -> None:
    with pytest.raises(AnalyzerError, match=message):
        parse_unknowns(unknowns, "[unknowns]")


def _paytable(values: dict, unknowns: dict | None = None, **extra) -> dict:
    data = {
        "name": "U",
        "multipliers": {"cards": 5, "values": values},
        "bet": [
            {
                "id": "player",
                "multiply": "winner",
                "rule": [{"when": "winner == 'player'", "pays": "multiplier"}],
            }
        ],
        **extra,
    }
    if unknowns is not None:
        data["unknowns"] = unknowns
    return data


def test_probabilities_must_sum_to_one_whatever_the_unknowns() -> None:
    paytable_from_dict(_paytable({"2": "1 - p", "8": "p"}, {"p": "0..1"}))
    with pytest.raises(AnalyzerError, match="sum to -p \\+ 1, not 1"):
        paytable_from_dict(_paytable({"2": "1 - p", "8": "0"}, {"p": "0..1"}))
    with pytest.raises(AnalyzerError, match="the unknown 'q' is in no probability"):
        paytable_from_dict(_paytable({"2": "1 - p", "8": "p"}, {"p": "0..1", "q": "0..1"}))
    with pytest.raises(AnalyzerError, match=r"\[unknowns\] need \[multipliers\]"):
        data = _paytable({"2": "1"}, {"p": "0..1"})
        del data["multipliers"]
        data["bet"][0].pop("multiply")
        data["bet"][0]["rule"][0]["pays"] = "1:1"
        paytable_from_dict(data)
    with pytest.raises(AnalyzerError, match="names 'p', which is not an unknown"):
        paytable_from_dict(_paytable({"2": "1 - p", "8": "p"}))


def test_with_unknowns_gives_the_model_values() -> None:
    paytable = paytable_from_dict(_paytable({"2": "1 - p", "8": "p"}, {"p": "0..1/2"}))
    fixed = paytable.with_unknowns({"p": Fraction(1, 4)})
    assert fixed.multipliers.values == ((2, Fraction(3, 4)), (8, Fraction(1, 4)))
    assert not fixed.unknowns and fixed.bets[0].multipliers == fixed.multipliers
    with pytest.raises(AnalyzerError, match=r"outside its range 0\.\.1/2"):
        paytable.with_unknowns({"p": Fraction(3, 4)})
    with pytest.raises(AnalyzerError, match="has no value"):
        paytable.with_unknowns({})
    with pytest.raises(AnalyzerError, match="'r' is not an unknown"):
        paytable.with_unknowns({"p": Fraction(0), "r": Fraction(0)})
    # Values that make a probability negative are refused.
    negative = paytable_from_dict(_paytable({"2": "1 - 2*p", "8": "2*p"}, {"p": "0..1"}))
    with pytest.raises(AnalyzerError, match="outside \\[0, 1\\]"):
        negative.with_unknowns({"p": Fraction(3, 4)})
    assert isinstance(paytable.multipliers.values[0][1], Poly)
