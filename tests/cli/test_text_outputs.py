"""What every command prints for people (``--format text``), as they read it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run

#: Each command's text output, as a user runs it (runs of shoes kept small).
TEXT_COMMANDS = {
    "report": ["report"],
    "report --detail": ["report", "--bet", "player_bonus", "--bet", "banker", "--detail"],
    "report --decks 6": ["report", "--decks", "6"],
    "play": ["play", "2S", "3H", "2D", "KC", "8H"],
    "eor": ["eor", "--bet", "tie", "--bet", "banker"],
    "simulate": ["simulate", "--shoes", "2", "--seed", "1"],
    "count one bet": ["count", "--bet", "lucky_six", "--shoes", "2", "--perfect"],
    "count several bets": ["count", "--bet", "tie", "--bet", "lucky_six", "--shoes", "2"],
    "dealt": ["dealt", "--shoes", "2", "--bet", "tie", "--bet", "player_pair", "--mode", "all"],
    "dealt --exact": [
        *("dealt", "--exact", "--cut-card", "6", "--bet", "tie"),
        *("--shoe", str(Path(__file__).resolve().parents[1] / "data" / "tiny-shoe.csv")),
    ],
    "verify": ["verify", "seed-game"],
    "certify": [
        "certify",
        str(Path(__file__).resolve().parents[1] / "data" / "seeds" / "003_e9fe957e965a18c5.txt"),
        "--paytable",
        "seed-game",
    ],
    "solve": ["solve", "--decks", "inf"],
    "report, other rules": ["report", "--paytable", "chemin-de-fer", "--decks", "inf"],
    "strategy": ["strategy"],
    "strategy --summary": ["strategy", "--summary"],
    "report, a decision": ["report", "--paytable", "lucky-draw-baccarat-1"],
    "play, a decision": [
        "play",
        "5S",
        "3H",
        "KD",
        "KC",
        "9H",
        "--paytable",
        "baccarat-gold",
        "--strategy",
        "player:5=stand",
    ],
}


def _argv(name: str, tmp_path) -> list[str]:
    argv = TEXT_COMMANDS[name]
    if "--exact" in argv:  # (no shoes dealt: it takes none of the runs' options)
        argv = [*argv, "--no-progress"]
    elif argv[0] in ("simulate", "count", "dealt"):
        argv = [*argv, "--no-progress", "--workers", "1", "--work-dir", str(tmp_path)]
    return argv


@pytest.mark.parametrize("name", TEXT_COMMANDS)
def test_no_line_of_a_text_output_ends_in_a_space(tmp_path, capsys, name) -> None:
    code, out, err = run(capsys, *_argv(name, tmp_path))
    # (a run of a few shoes warns that its figures rest on few rounds)
    assert code == 0 and all(
        line.startswith("baccarat-odds: warning: ") for line in err.splitlines()
    )
    padded = [line for line in out.splitlines() if line != line.rstrip()]
    assert not padded, padded[:3]


@pytest.mark.parametrize("name", TEXT_COMMANDS)
def test_tables_and_titles_of_a_text_output_fit_100_columns(tmp_path, capsys, name) -> None:
    """Every line fits 100 columns but a record: a verdict, a finding or a check line is
    one line whatever its length (read with grep), as is a word never cut."""
    code, out, _ = run(capsys, *_argv(name, tmp_path))
    assert code == 0
    records = ("PASS ", "FAIL ", "NOT CHECKED", "Claimed maximum RTP", "Max-round advice")
    records += ("UNCHECKED ", "NOT STATEABLE ", "UNMATCHED ", "HIDDEN ")  # (certify's)
    wide = [
        line
        for line in out.splitlines()
        if len(line) > 100 and not line.lstrip().startswith(records) and " " in line.strip()
    ]
    assert not wide, wide[:3]


def test_a_long_title_wraps_and_wide_keeps_it_on_one_line(capsys) -> None:
    code, out, _ = run(capsys, "report", "--paytable", "chemin-de-fer", "--bet", "player")
    first, second = out.splitlines()[:2]
    assert code == 0 and len(first) <= 100 and second.startswith("  ")
    code, out, _ = run(capsys, "report", "--paytable", "chemin-de-fer", "--bet", "player", "--wide")
    assert code == 0 and len(out.splitlines()[0]) > 100 and out.splitlines()[1] == ""
