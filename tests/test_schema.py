"""What a key of an untrusted table must hold: every refusal names the place and the key."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.errors import AnalyzerError
from analyzer.schema import (
    argument,
    check_keys,
    list_of,
    optional,
    require,
    sequence_of,
    table,
    whole_number,
)

WHERE = "f.toml: bet 'x'"


def test_check_keys_names_the_unknown_key_and_the_allowed_ones() -> None:
    check_keys({"a": 1, "b": 2}, ["a", "b", "c"], WHERE)
    with pytest.raises(AnalyzerError, match=r"^f\.toml: bet 'x': unknown key 'd' \(keys: a, b\)$"):
        check_keys({"a": 1, "d": 2}, ("b", "a"), WHERE)


def test_table_takes_mappings_only() -> None:
    data = {"k": 1}
    assert table(data, WHERE) is data
    for value in ([1], "text", 3, None):
        with pytest.raises(AnalyzerError, match=r"^f\.toml: bet 'x': a rule must be a table$"):
            table(value, WHERE, "a rule")


def test_require() -> None:
    assert require({"id": "b"}, "id", str, WHERE) == "b"
    assert require({"on": False}, "on", bool, WHERE) is False
    with pytest.raises(AnalyzerError, match=r"^f\.toml: bet 'x': missing 'id'$"):
        require({}, "id", str, WHERE)
    with pytest.raises(AnalyzerError, match=r"'id' has the wrong type \(int\)$"):
        require({"id": 7}, "id", str, WHERE)


@pytest.mark.parametrize(
    ("value", "kind", "ok"),
    [
        (1, int, True),
        (True, int, False),  # TOML's true is a Python bool, which is an int: not a number here
        (1, bool, False),
        (True, bool, True),
        (1.0, int, False),
        ([], list, True),
        ("1", int, False),
    ],
)
def test_a_bool_is_never_a_number_nor_a_number_a_bool(value, kind, ok) -> None:
    if ok:
        assert require({"k": value}, "k", kind, WHERE) is value
        assert optional({"k": value}, "k", kind, WHERE) is value
    else:
        with pytest.raises(AnalyzerError, match="wrong type"):
            require({"k": value}, "k", kind, WHERE)
        with pytest.raises(AnalyzerError, match="'k' must be"):
            optional({"k": value}, "k", kind, WHERE)


def test_optional_names_the_kind_it_wanted() -> None:
    sentinel = object()
    assert optional({}, "k", int, WHERE, sentinel) is sentinel
    assert optional({}, "k", int, WHERE) is None
    for kind, name in ((str, "text"), (int, "a whole number"), (list, "a list")):
        with pytest.raises(AnalyzerError, match=f"^f\\.toml: bet 'x': 'k' must be {name}$"):
            optional({"k": None}, "k", kind, WHERE)
    with pytest.raises(AnalyzerError, match=r"'k' must be float$"):
        optional({"k": "x"}, "k", float, WHERE)


def test_whole_number_bounds_are_inclusive() -> None:
    assert whole_number(1, WHERE, "'max_round'", 1, 1_000_000) == 1
    assert whole_number(1_000_000, WHERE, "'max_round'", 1, 1_000_000) == 1_000_000
    for bad in (0, 1_000_001, -5):
        with pytest.raises(AnalyzerError, match=r"'max_round' must be from 1 to 1,000,000$"):
            whole_number(bad, WHERE, "'max_round'", 1, 1_000_000)
    for bad in (4.5, True, "50", None):
        with pytest.raises(AnalyzerError, match="'max_round' must be a whole number, got "):
            whole_number(bad, WHERE, "'max_round'", 1, 1_000_000)


def test_list_of() -> None:
    assert list_of(["a", "b"], str, WHERE, "'modes'") == ["a", "b"]
    assert list_of([], str, WHERE, "'modes'") == []
    for bad in ("a", ["a", 1], ("a",), None):
        with pytest.raises(
            AnalyzerError, match=r"^f\.toml: bet 'x': 'modes' must be a list of text$"
        ):
            list_of(bad, str, WHERE, "'modes'")
    with pytest.raises(AnalyzerError, match=r"^f\.toml: bet 'x': 'counts' must be a list of "):
        list_of([1, True], int, WHERE, "'counts'")


def test_an_argument_of_the_wrong_type_is_named_and_shown_short() -> None:
    assert argument(3, int, "decks") == 3
    assert argument(None, (str, type(None)), "mode") is None
    cases = [
        (list, Fraction, r"^exact must be a Fraction, got the class list$"),
        (True, int, r"^exact must be a whole number, got bool True$"),
        ("x" * 500, int, r"^exact must be a whole number, got str 'x{17}\.\.\.x{18}'$"),
        (10**5000, str, r"^exact must be text, got int$"),  # too long for Python to print
        (list(range(1000)), str, r"^exact must be text, got list \[0, 1, 2, 3, \.\.\.\]$"),
    ]
    for value, kind, message in cases:
        with pytest.raises(AnalyzerError, match=message):
            argument(value, kind, "exact")


def test_sequence_of() -> None:
    assert sequence_of(["a", "b"], str, "bets", "bet ids") == ("a", "b")
    assert sequence_of((), str, "bets") == ()
    for bad, shown in (("tie", "str 'tie'"), (None, "NoneType None"), ({"a"}, "set {'a'}")):
        with pytest.raises(AnalyzerError, match=f"^bets must be a list of bet ids, got {shown}$"):
            sequence_of(bad, str, "bets", "bet ids")
    with pytest.raises(AnalyzerError, match=r"^cards must be a list of Card objects: item 1 is "):
        sequence_of([Fraction(1), 2], Fraction, "cards", "Card objects")


@pytest.mark.parametrize(
    "text", ["1/10000000000000000000", "10000000000000000", "0." + "1234567890" * 3 + "1"]
)
def test_an_exact_number_too_long_is_refused_for_its_digits(text) -> None:
    """A number past 15 digits a side is told so (it was told to be a decimal or fraction,
    which it is); text that is no number is told what a number looks like."""
    from analyzer.schema import exact_number

    with pytest.raises(AnalyzerError, match=r"^w: the meter '.*' has too many digits \(at most 15"):
        exact_number(text, "w", "the meter")
    with pytest.raises(AnalyzerError, match="must be a decimal or fraction such as"):
        exact_number(text + "x", "w", "the meter")
    assert exact_number(text[:15], "w", "the meter") == Fraction(text[:15])


def test_a_bound_fit_prints_is_an_exact_number() -> None:
    """fit prints an end as a decimal of 15 significant digits (multipliers-fees-fit
    guide: 0.0598793653662002, 16 after the point): --unknowns takes it as printed."""
    from analyzer.schema import exact_number

    assert exact_number("0.0598793653662002", "--unknowns", "p") == Fraction(
        598793653662002, 10**16
    )
