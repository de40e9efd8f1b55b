"""Hostile claims files and odd arguments against ``verify``: each test is a bug found by
attacking it (a traceback, a wrong verdict, a line that is not one line, a valid input
refused). The contract: every user-facing error is one line on stderr, exit status 2, no
traceback and no partial output; verdicts are exact and about the shoe they name."""

from __future__ import annotations

import json

import pytest
from helpers import run, write_claims

from analyzer.errors import AnalyzerError

#: A counting claim cheap enough for a test (100 shoes: well under a second).
COUNTING = """
[[claim]]
bet = "tie"
mode = "commission"
quantity = "counting"
statistic = "rounds_per_shoe"
shoes = 100
value = "80"
"""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ONE_DECK_CSV = "rank,count\n" + "".join(f"{rank},4\n" for rank in RANKS)


def _one_line_error(code: int, out: str, err: str) -> None:
    assert code == 2, out
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("baccarat-odds: error:"), err


# -- Counting claims simulate full shoes of `decks`, whatever shoe the claim names --------


def test_counting_claim_does_not_ignore_the_files_remove(tmp_path, capsys) -> None:
    """The file's `remove` applies to every claim's shoe; a counting claim deals full
    shoes, yet its verdict line said "[seed-game, 8 decks less 5H]" over a simulation of
    full 8-deck shoes. Its own `remove` is refused; the file's must be too (or honoured)."""
    path = write_claims(tmp_path, 'paytable = "seed-game"\nremove = "5H"\n' + COUNTING)
    _one_line_error(*run(capsys, "verify", str(path)))


@pytest.mark.parametrize("option", ["--remove", "--shoe"])
def test_counting_claim_does_not_ignore_the_command_lines_shoe(tmp_path, capsys, option) -> None:
    """`verify --shoe one-deck.csv` on a counting claim simulated 8-deck shoes while the
    verdict line named the 52-card shoe (and `--remove 5H` likewise): a verdict about
    another shoe than the one it names. Refuse it in one line (or deal that shoe)."""
    path = write_claims(tmp_path, 'paytable = "seed-game"\n' + COUNTING)
    shoe = tmp_path / "shoe.csv"
    shoe.write_text(ONE_DECK_CSV, encoding="utf-8")
    value = "5H" if option == "--remove" else str(shoe)
    _one_line_error(*run(capsys, "verify", str(path), option, value))


def test_counting_claim_with_a_huge_exponent_is_no_traceback(tmp_path, capsys) -> None:
    """value = "1e999" on a counting claim raised OverflowError (10.0 ** 999) from
    analysis/verify.py's _counting: a traceback, exit status 1."""
    path = write_claims(tmp_path, 'paytable = "seed-game"\n' + COUNTING.replace('"80"', '"1e999"'))
    code, out, err = run(capsys, "verify", str(path))
    assert code in (1, 2), (out, err)
    if code == 2:
        _one_line_error(code, out, err)
    else:
        assert out.startswith("FAIL claim 1:")


def test_counting_claim_names_the_mode_when_the_bet_differs_by_mode(tmp_path, capsys) -> None:
    """Every other figure of a bet that differs by mode (Banker) asks for the `mode`; a
    counting claim silently counted the first mode and showed none."""
    path = write_claims(
        tmp_path,
        'paytable = "seed-game"\n'
        + COUNTING.replace('bet = "tie"\nmode = "commission"', 'bet = "banker"'),
    )
    code, out, err = run(capsys, "verify", str(path))
    _one_line_error(code, out, err)
    assert "mode" in err


# -- The verdict line ---------------------------------------------------------------------

FINE_PAYTABLE = """
name = "fine"
decks = 8
modes = ["m"]

[[bet]]
id = "f"
name = "F"
[[bet.rule]]
when = "winner == 'player'"
pays = "0.1234567891:1"
[[bet.rule]]
when = "winner == 'banker'"
pays = "0.9876543217:1"
"""


def test_a_long_exact_standard_deviation_prints_in_text(tmp_path, capsys) -> None:
    """An exact standard deviation whose `sqrt(p/q)` is longer than the 80 characters a
    line shows raised ValueError (Fraction("sqrt(...)")) in cli/verify.py's
    _verdict_line: a traceback for a valid file (JSON output was fine)."""
    (tmp_path / "fine.toml").write_text(FINE_PAYTABLE, encoding="utf-8")
    path = write_claims(
        tmp_path,
        'paytable = "fine.toml"\nremove = "5H 7C 9D"\n'
        '[[claim]]\nquantity = "std_dev"\nbet = "f"\nvalue = "1"\n',
    )
    code, out, _ = run(capsys, "verify", str(path), "--format", "json")
    assert len(json.loads(out)["claims"][0]["exact"]) > 80  # the case: a long sqrt(p/q)
    code, out, err = run(capsys, "verify", str(path))
    assert code in (0, 1), err
    assert out.splitlines()[0].startswith(("PASS claim 1:", "FAIL claim 1:", "FAIL (last"))


@pytest.mark.parametrize("value", ["98.94%\n", "\n98.94%", "98.94%\n\n\n"])
def test_a_value_with_line_breaks_keeps_its_verdict_on_one_line(tmp_path, capsys, value) -> None:
    """value = "98.94%\\n" was read (stripped) and passed, but the verdict line printed
    the raw text: one claim over two lines. Refuse it, or print the figure on one line."""
    path = write_claims(
        tmp_path,
        f'paytable = "seed-game"\n[[claim]]\nquantity = "max_rtp"\nvalue = {json.dumps(value)}\n',
    )
    code, out, err = run(capsys, "verify", str(path))
    if code == 2:
        _one_line_error(code, out, err)
        return
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3 and lines[0].startswith("PASS claim 1:") and lines[1] == "", out


# -- A `given` is wrapped as "not (given)" as text ----------------------------------------


def _rows(capsys, path) -> list[dict]:
    code, out, err = run(capsys, "verify", str(path), "--format", "json")
    assert code in (0, 1), err
    return json.loads(out)["claims"]


def test_a_given_with_a_comment_is_read_as_without_it(tmp_path, capsys) -> None:
    """A comment is valid in a condition (an `event` with one is fine), but a `given`
    with one failed: "syntax error in condition 'not (player_score == 5 # five)': '('
    was never closed", a condition the file never wrote."""
    path = write_claims(
        tmp_path,
        """
paytable = "seed-game"
[[claim]]
quantity = "probability"
event = "winner == 'player'"
given = "player_score == 5"
value = "0.5"
[[claim]]
quantity = "probability"
event = "winner == 'player'"
given = "player_score == 5  # the Player has five"
value = "0.5"
""",
    )
    first, second = _rows(capsys, path)
    assert (first["computed"], first["exact"]) == (second["computed"], second["exact"])


def test_a_two_card_event_with_a_comment_is_read_as_without_it(tmp_path, capsys) -> None:
    """over = "two_cards" checks the event against itself swapped, as a `given`: an event
    with a comment failed the same way ("not (player_pair # a pair)")."""
    path = write_claims(
        tmp_path,
        """
paytable = "seed-game"
[[claim]]
quantity = "count"
event = "player_pair"
over = "two_cards"
value = "6,448"
[[claim]]
quantity = "count"
event = "player_pair  # a pair"
over = "two_cards"
value = "6,448"
""",
    )
    rows = _rows(capsys, path)
    assert [row["result"] for row in rows] == ["PASS", "PASS"]


@pytest.mark.parametrize(
    "given",
    [
        "not " * 98 + "(player_score == 5)",  # 99 levels: within the limit of 100
        "player_score in (" + ", ".join(["5"] * 660) + ")",  # 1,996 characters of 2,000
    ],
    ids=["deep", "long"],
)
def test_a_given_within_the_limits_of_a_condition_is_taken(tmp_path, capsys, given) -> None:
    """A `given` that parse_condition takes on its own was refused once wrapped in
    "not (...)": "condition 'not (not not ...' is nested too deeply: 101 levels" or
    "condition longer than 2000 characters", about text the file never wrote."""
    from analyzer.paytables.conditions import parse_condition

    parse_condition(given)  # a valid condition
    path = write_claims(
        tmp_path,
        'paytable = "seed-game"\n[[claim]]\nquantity = "probability"\n'
        f'event = "winner == \'player\'"\ngiven = {json.dumps(given)}\nvalue = "0.5"\n',
    )
    _rows(capsys, path)


# -- Figures that cannot be what they say ---------------------------------------------------


def test_a_value_with_more_significant_digits_than_its_digits_is_refused(tmp_path, capsys) -> None:
    """digits = 4 on "98.942094%" (six more digits shown than the source is said to
    show) is a contradiction: it FAILed whatever the exact value (the printed figure is
    no whole number at the 4th significant digit), though the exact value prints as
    98.942094%. It should be one line naming the problem."""
    path = write_claims(
        tmp_path,
        'paytable = "seed-game"\n[[claim]]\nquantity = "max_rtp"\n'
        'value = "98.942094%"\ndigits = 4\n',
    )
    _one_line_error(*run(capsys, "verify", str(path)))


# -- The Python API ---------------------------------------------------------------------------


def _claims(tmp_path):
    from analyzer.analysis.verify import load_claims

    path = write_claims(
        tmp_path, 'paytable = "seed-game"\n[[claim]]\nquantity = "max_rtp"\nvalue = "98.94%"\n'
    )
    return load_claims(path)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((None,), {}), (("seed-game",), {}), (([1],), {}), (("CLAIMS",), {"remove": None})],
    ids=["None", "a name", "a list of ints", "remove=None"],
)
def test_verify_claims_refuses_wrong_types_in_one_line(tmp_path, args, kwargs) -> None:
    """verify_claims(None), ("seed-game"), ([1]) and remove=None raised TypeError or
    AttributeError from inside; the public functions refuse wrong types with one
    AnalyzerError (tests/test_hostile.py), as verify_claims already does for `shoe`."""
    from analyzer.analysis.verify import verify_claims

    args = tuple(_claims(tmp_path) if arg == "CLAIMS" else arg for arg in args)
    with pytest.raises(AnalyzerError) as caught:
        verify_claims(*args, **kwargs)
    assert "\n" not in str(caught.value)


def test_verify_claims_refuses_zero_decks(tmp_path) -> None:
    """decks=0 was taken as "no decks given" (`self.decks or ...`) and every claim was
    checked on the paytable's 8 decks; the CLI refuses --decks 0, and decks=-1 is refused."""
    from analyzer.analysis.verify import verify_claims

    with pytest.raises(AnalyzerError, match="decks"):
        verify_claims(_claims(tmp_path), decks=0)


def test_verify_claims_refuses_a_shoe_and_decks_together(tmp_path) -> None:
    """verify_claims(claims, shoe, decks=2) silently ignored decks (the CLI refuses
    --shoe with --decks)."""
    from analyzer.analysis.verify import verify_claims
    from analyzer.game.shoe import Shoe

    with pytest.raises(AnalyzerError):
        verify_claims(_claims(tmp_path), Shoe.standard(6), decks=2)


# -- Errors that come from the shared analysis of several claims ------------------------------


def test_an_error_in_a_later_claims_event_names_that_claim(tmp_path, capsys) -> None:
    """Every event of a paytable and shoe is settled in one analysis, run while checking
    the first claim that needs it: an error in claim 2's `given` was reported as "claim
    1: syntax error in condition ...", naming a claim that is fine."""
    path = write_claims(
        tmp_path,
        """
paytable = "seed-game"
[[claim]]
quantity = "probability"
event = "winner == 'tie'"
value = "0.0952"
[[claim]]
quantity = "probability"
event = "winner == 'player'"
given = "player_score == 5  # five"
value = "0.5"
""",
    )
    code, out, err = run(capsys, "verify", str(path))
    if code == 2:
        _one_line_error(code, out, err)
        assert ": claim 2:" in err, err


def test_an_event_on_suits_of_a_shoe_without_them_says_so(tmp_path, capsys) -> None:
    """On a shoe whose suits are unknown (remove = "5"), an event on suits beside another
    claim said "claim 2: no result for bet '#event1'": the internal name of the event's
    bet, and not why. Alone it says the shoe's suits are not known; so should it here."""
    path = write_claims(
        tmp_path,
        """
paytable = "seed-game"
remove = "5"
[[claim]]
quantity = "probability"
event = "winner == 'tie'"
value = "0.0952"
[[claim]]
quantity = "probability"
event = "player_card1_suit == 'H'"
value = "0.25"
""",
    )
    code, out, err = run(capsys, "verify", str(path))
    # The claim the shoe cannot give is not checked, saying why; the others still are.
    assert code == 1 and err == "", err
    assert "#event" not in out and out.startswith("FAIL (last digit) claim 1:"), out
    unchecked = out.splitlines()[1]
    assert unchecked.startswith("UNCHECKED claim 2:") and "suits" in unchecked, out
    assert "0 passed, 1 failed (1 in the last printed digit only), 1 not checked" in out
