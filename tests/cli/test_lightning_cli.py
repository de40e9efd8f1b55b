"""Lightning suits from the command line: bad files are one line and exit 2 from the
installed command; the shipped Lightning Dragon Tiger takes values of its unknowns, and
fit says what its published RTP allows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import analyze, load_paytable
from analyzer.analysis.verify import load_claims
from analyzer.paytables.printed import compare_printed, read_printed

#: The installed command (the virtual environment's script beside this Python).
COMMAND = str(Path(sys.executable).parent / "baccarat-odds")

HEAD = 'name = "Lightning"\ngame = "dragon-tiger"\n'
BET = """
[[bet]]
id = "dragon"
{multiply}
rule = [{{ when = "winner == 'dragon'", pays = "multiplier" }}]
"""
MULTIPLIERS = '[multipliers]\nsuits = 1\nvalues = { 2 = "1/2", 8 = "1/2" }\n'


def installed(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [COMMAND, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=cwd,
        env=os.environ | {"PYTHONWARNINGS": "error"},
    )


BAD = [
    (
        MULTIPLIERS.replace("suits = 1", "suits = 1\ncards = 1"),
        'multiply = "dragon"',
        "give 'cards' (special card identities) or 'suits' (Lightning suits), not both",
    ),
    (
        MULTIPLIERS.replace("suits = 1", "suits = 5"),
        'multiply = "dragon"',
        "'suits' must be from 0 to 4",
    ),
    (
        MULTIPLIERS.replace("suits = 1", 'suits = { 0 = "1/2", 6 = "1/2" }'),
        'multiply = "dragon"',
        "'suits' counts are whole numbers from 0 to 4, got 6",
    ),
    (
        MULTIPLIERS.replace("suits = 1", 'suits = "one"'),
        'multiply = "dragon"',
        "'suits' must be a whole number",
    ),
    (
        MULTIPLIERS.replace("suits = 1\n", ""),
        'multiply = "dragon"',
        "missing 'cards' (or 'suits')",
    ),
    (
        MULTIPLIERS,
        'multiply = "player"',
        "unknown 'multiply' 'player' (use dragon, tiger, winner, both)",
    ),
    ("", 'multiply = "dragon"', "'multiply' needs the paytable's [multipliers]"),
    (MULTIPLIERS, "", "rule 1 pays by the multiplier, but the bet has no 'multiply'"),
    (
        MULTIPLIERS.replace(
            'values = { 2 = "1/2", 8 = "1/2" }', 'values = { 2 = "p", 8 = "1 - p" }'
        ),
        'multiply = "dragon"',
        "names 'p', which is not an unknown of the paytable",
    ),
    ('rules = "standard"\n' + MULTIPLIERS, 'multiply = "dragon"', "'rules' is punto banco's"),
]


@pytest.mark.parametrize(("extra", "multiply", "message"), BAD)
def test_a_bad_lightning_file_is_one_line_exit_2(tmp_path, extra, multiply, message) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(HEAD + extra + BET.format(multiply=multiply), encoding="utf-8")
    done = installed("report", "--paytable", str(path))
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_suits_on_punto_banco_and_multiply_on_a_drawing_game_are_one_line(tmp_path) -> None:
    cases = [
        (
            'name = "P"\n' + MULTIPLIERS + '[[bet]]\nid = "banker"\nmultiply = "winner"\n'
            'rule = [{ when = "winner == \'banker\'", pays = "multiplier" }]\n',
            "'suits' (Lightning suits) is for the other games of the family so far",
        ),
        (
            'name = "L"\ngame = "lucky-draw-baccarat"\n'
            + MULTIPLIERS
            + '[[bet]]\nid = "enter"\nmultiply = "player"\n'
            'rule = [{ when = "winner == \'player\'", pays = "multiplier" }]\n',
            "whose hands draw or decide, is not priced yet",
        ),
    ]
    for text, message in cases:
        path = tmp_path / "bad.toml"
        path.write_text(text, encoding="utf-8")
        done = installed("report", "--paytable", str(path))
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert message in done.stderr, done.stderr


def test_the_shipped_game_needs_values_and_takes_them() -> None:
    done = installed("report", "--paytable", "lightning-dragon-tiger")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "has unknowns (p3, p5, p8)" in done.stderr
    done = installed("report", "--paytable", "lightning-dragon-tiger", "--unknowns", "p3=0.7")
    assert done.returncode == 2 and "the unknown 'p5' has no value" in done.stderr
    values = "p3=0.5,p5=0.3,p8=0.3"  # 2x would have a chance of -0.1
    done = installed("report", "--paytable", "lightning-dragon-tiger", "--unknowns", values)
    assert done.returncode == 2 and "outside [0, 1]" in done.stderr
    values = "p3=1/5,p5=1/10,p8=1/20"
    done = installed(
        "report", "--paytable", "lightning-dragon-tiger", "--unknowns", values, "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    rtp = {row["bet"]: Fraction(row["rtp"]) for row in json.loads(done.stdout)["bets"]}
    # E[M] = 2 (65%) + 3 (20%) + 5 (10%) + 8 (5%) = 2.8: the Dragon's RTP by hand
    tie = Fraction(13 * 32 * 31, 416 * 415)
    win = (1 - tie) / 2
    assert (
        rtp["dragon"]
        == rtp["tiger"]
        == (win * (Fraction(7, 4) + Fraction(7, 10)) + tie / 2) / Fraction(6, 5)
    )
    done = installed("verify", "lightning-dragon-tiger", "--unknowns", values)
    assert done.returncode == 1  # 97.57% at these values, not 96.97%
    assert "FAIL claim 1: rtp of dragon" in done.stdout


def test_the_published_rtp_holds_at_the_point_fit_named() -> None:
    """At the point ``fit lightning-dragon-tiger`` named, Dragon and Tiger print as the
    sources print them (96.97%), by the exact analysis."""
    point = {"p3": Fraction(1, 187), "p5": Fraction(1, 46), "p8": Fraction(1, 9)}
    analysis = analyze(paytable=load_paytable("lightning-dragon-tiger").with_unknowns(point))
    for claim in load_claims("lightning-dragon-tiger"):
        if claim.quantity == "rtp":
            exact = analysis.result(claim.bet).rtp
            assert compare_printed(exact, read_printed(claim.value)).passed, claim.bet


def test_every_published_figure_holds_at_one_point() -> None:
    """The Dragon's 96.97% and the game's optimal 96.99% (max_rtp, from two sources)
    together: at 3x 5x 8x with chances 1/8, 1/60, 3/32 (the documentation's values) the
    Dragon returns 4829/4980 and the best bet is the Suited Tie, at 161/166 = 96.99%."""
    done = installed("verify", "lightning-dragon-tiger", "--unknowns", "p3=1/8,p5=1/60,p8=3/32")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "9 passed, 0 failed" in done.stdout  # (five RTPs, four largest payouts)
    assert "exact 96.97% (exactly 4829/4980)" in done.stdout
    assert "exact 96.99% (suited_tie, standard) (exactly 161/166)" in done.stdout
    # Without values, each RTP passes with the set of the unknowns it allows (as fit).
    done = installed("verify", "lightning-dragon-tiger")
    assert done.returncode == 0 and "9 passed, 0 failed" in done.stdout
    assert "published 96.99%, allows p3 in [0, 355351/480000)" in done.stdout


def test_fit_says_what_the_published_rtp_allows() -> None:
    """Three unknowns, every figure linear in them: the Dragon's RTP fixes the mean
    multiplier E[M] = 2 + p3 + 3 p5 + 6 p8 within what 96.97% allows, so each unknown runs
    from 0 to (E[M] - 2) over its step, exactly, that end left out (96.975% prints
    96.98%); the max_rtp claim (96.99%, the best bet's) narrows the set of all of them, and
    the point fit gives prints every figure as published."""
    done = installed("fit", "lightning-dragon-tiger", "--format", "json", "--no-progress")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    tie = Fraction(13 * 32 * 31, 416 * 415)
    win = (1 - tie) / 2
    highest = ((Fraction("0.96975") * Fraction(6, 5) - tie / 2) / win - Fraction(7, 4)) * 4
    dragon = data["claims"][0]
    assert dragon["figure"] == "dragon rtp 96.97%"
    for name, step in (("p3", 1), ("p5", 3), ("p8", 6)):
        ((low, high),) = dragon["intervals"][name]
        assert Fraction(low) == 0 and Fraction(high) == (highest - 2) / step, name
        assert dragon["closed"][name] == [[True, False]]
    assert data["claims"][3]["figure"] == "max_rtp 96.99%"
    assert data["claims"][3]["intervals"] is not None
    # The largest payouts do not move with the unknowns: fit leaves them to verify.
    last = data["claims"][-1]
    assert (last["claim"], last["figure"]) == (9, "suited_tie max_payout 1,280")
    assert last["consistent"] is None and last["moved_by_unknowns"] is False
    witness = {name: Fraction(v) for name, v in data["together"]["witness"].items()}
    analysis = analyze(paytable=load_paytable("lightning-dragon-tiger").with_unknowns(witness))
    assert compare_printed(analysis.result("dragon").rtp, read_printed("96.97%")).passed
    assert compare_printed(analysis.max_rtp, read_printed("96.99%")).passed
