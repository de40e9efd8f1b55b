"""The figures a page prints, found as printed (analyzer.analysis.figures): percentages in
the page's own decimal and grouping marks, payouts in their phrasings, max rounds, deck
counts; numbers too long to be figures counted, not read."""

from __future__ import annotations

import pytest

from analyzer.analysis.figures import MAX_FIGURES, find_figures, plain_number
from analyzer.analysis.page import page_from_bytes
from analyzer.errors import AnalyzerError


def _found(text: str, name: str = "page.txt"):
    return find_figures(page_from_bytes(text.encode("utf-8"), name))


def _values(text: str, name: str = "page.txt") -> list[tuple[str, object]]:
    return [(f.kind, f.value) for f in _found(text, name).figures]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("RTP 98.94%", "98.94%"),
        ("RTP 98,8 %", "98.8%"),
        ("RTP 98,8\u00a0%", "98.8%"),
        ("RTP 98,80\u202f%", "98.80%"),  # every printed digit kept: checked to 0.01%
        ("house edge -1.06%", "-1.06%"),
        ("house edge \u22121.06%", "-1.06%"),
        ("share 1\u00a0234,5 %", "1234.5%"),
        ("share 1,234.5%", "1234.5%"),
        ("share 1.234,5%", "1234.5%"),
        ("RTP \u0669\u0668\u066b\u0669\u0664\u066a", "98.94%"),  # Arabic-Indic digits
        ("RTP \uff19\uff18.\uff19\uff14\uff05", "98.94%"),  # full-width
    ],
)
def test_percentages_in_the_pages_marks(text, value) -> None:
    assert _values(text) == [("percent", value)]


def test_the_pages_decimal_mark_settles_three_digits_after_a_mark() -> None:
    commas = _found("RTP 98,8 %. Edge 1,2 %. Share 1,234 %.")
    assert commas.decimal_mark == ","
    assert [f.value for f in commas.figures] == ["98.8%", "1.2%", "1.234%"]
    assert "decimal comma" in commas.figures[0].reading
    points = _found("RTP 98.8 %. Share 1,234 %.")
    assert points.decimal_mark == "." and points.figures[-1].value == "1234%"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Tie 8:1", ["8:1"]),
        ("Banker wins 0.95:1", ["0.95:1"]),
        ("Banker wins 0,95:1 and RTP 98,94 %", ["0.95:1", "98.94%"]),
        ("Tie pays 8 to 1", ["8:1"]),
        ("Natural pays 7 to 2", ["7:2"]),
        ("Tie pays 8", ["8:1"]),
        ("Tie pays 8 times", ["8:1"]),
        ("Tie: 9 for 1", ["8:1"]),
        ("Player pays even money", ["1:1"]),
        ("Tie 8 sa 1", ["8:1"]),
        ("Seri 8 kepada 1", ["8:1"]),
        ("membayar 11:1", ["11:1"]),
        ("Panalo ang Banker na may score na 6 1:2", ["1:2"]),  # a plain space groups nothing
        ("Cards 2 to 9 count as their value", []),  # a range, not odds
        ("a tie on 6 to 9", []),
        ("open 10:30 am", []),
        ("Tie 8:0", []),  # no payout divides by zero
        ("score 3 laban sa 2", []),
        ("between 0 to 5", []),
    ],
)
def test_payouts_in_their_phrasings(text, values) -> None:
    assert [value for _, value in _values(text)] == values


def test_a_page_that_writes_the_stake_first() -> None:
    found = _found("Player 1:1. Banker 1:0.95. Tie 1:8. Pair 1:11.")
    assert found.stake_first
    assert [f.value for f in found.figures] == ["1:1", "0.95:1", "8:1", "11:1"]
    assert "stake written first" in found.figures[2].reading
    # Odds to one as the seed pages write them (1:2 is half the stake): odds first.
    assert not _found("Banker 0.95:1. Banker six 1:2. Player 1:1.").stake_first
    # 1:0.95 is the stake first on any page.
    assert _values("Tie 8:1. Banker 1:0.95.") == [("payout", "8:1"), ("payout", "0.95:1")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("*Max round: 60", 60),
        ("*Max na Round: 60", 60),
        ("*Had Pusingan Maks: 50", 50),
        ("Maximum rounds 40", 40),
    ],
)
def test_max_rounds(text, value) -> None:
    assert _values(text) == [("max_round", value)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The game uses 8 decks.", 8),
        ("uses 8 standard 52-card decks", 8),
        ("gumagamit ng 8 standard na deck", 8),
        ("menggunakan 8 dek standard kad", 8),
        ("dealt from six decks", 6),
        ("a single deck", 1),
    ],
)
def test_deck_counts(text, value) -> None:
    assert _values(text) == [("decks", value)]


def test_a_max_round_column_reads_bare_numbers() -> None:
    page = "| Bet | Max round |\n|---|---|\n| Player Pair | 60 |\n| Tie | - |\n"
    assert _values(page) == [("max_round", 60)]


def test_a_number_too_long_is_counted_not_read() -> None:
    text = "RTP " + "9" * 1_000_000 + "%. Edge 1e1000000000%. Tie 8:1. " + "1" * 40 + ":1"
    found = _found(text)
    assert [f.value for f in found.figures] == ["8:1"]
    assert found.too_long == 2


def test_a_page_of_too_many_figures_is_refused() -> None:
    with pytest.raises(AnalyzerError, match=f"more than {MAX_FIGURES:,} figures"):
        _found("Tie 8:1 " * (MAX_FIGURES + 1))


def test_figures_keep_where_they_are() -> None:
    found = _found("| Bet | Pays |\n|---|---|\n| Tie | 8:1 |\n")
    (figure,) = found.figures
    assert (figure.block, figure.cell, figure.printed) == (1, 1, "8:1")
    assert (figure.start, figure.end) == (0, 3)


def test_plain_numbers() -> None:
    assert plain_number("98,8") == "98.8"
    assert plain_number("1,234") == "1234" and plain_number("1,234", ",") == "1.234"
    assert plain_number("1\u00a0234\u00a0567") == "1234567"
    assert plain_number("-0.95") == "-0.95"
    assert plain_number("1" * 31) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("RTP \uff18\uff15\uff0e\uff16\uff14\uff05", "85.64%"),
        ("RTP \uff19\uff18\uff0c\uff18\uff05", "98.8%"),
        ("RTP 98\u00b794%", "98.94%"),
    ],
)
def test_fullwidth_and_raised_decimal_marks(text, value) -> None:
    # Before, a fullwidth 85.64% was read as 64%: the fullwidth full stop was no decimal mark.
    assert _values(text) == [("percent", value)]


def test_a_text_stops_at_the_figures_budget() -> None:
    # (Before, a line of 400,000 "1 to 1" was read whole before the count was checked, and
    # each figure compared with every one before it: minutes.)
    from analyzer.analysis.figures import _in_text, _TooMany

    with pytest.raises(_TooMany):
        _in_text("Tie pays 1 to 1. " * 10, 0, None, ".", False, "", budget=3)
    found, _ = _in_text("pays 1 to 1, 8:1, 9%, pays 7 to 2", 0, None, ".", False, "")
    assert [f.value for f in found] == ["1:1", "8:1", "9%", "7:2"]
    with pytest.raises(AnalyzerError, match="more than 5,000 figures"):
        _found("1 to " * 100_000)
