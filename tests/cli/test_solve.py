"""``solve``: the game of Player against Banker, from the installed command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import run, write_paytable

from analyzer.analysis.solve import solve_game
from analyzer.game.rules import named_rules
from analyzer.paytables.library import load_paytable
from analyzer.reports.formats import json_text
from analyzer.reports.outputs import solution_data

CLI = [sys.executable, "-m", "analyzer"]

#: A paytable of chemin de fer's rules on 2 decks, with no [strategy]: solve needs none.
CHEMIN_PAYTABLE = """\
name = "t"
decks = 2
modes = ["m"]
rules = "chemin-de-fer"

[[bet]]
id = "x"
[[bet.rule]]
when = "natural"
pays = "1:1"
"""


def _installed(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, check=False, timeout=300)


@pytest.mark.slow
def test_solve_json_from_the_installed_command() -> None:
    done = _installed("solve", "--paytable", "chemin-de-fer", "--decks", "inf", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    data = json.loads(done.stdout)
    assert data["shoe"]["decks"] == "inf"
    assert data["value_to_banker"] == "679568/53094899"
    plays = _plays(data)
    assert {cell: play for cell, play in plays.items() if cell.startswith("player")} == {
        "player:5": "9/11"
    }
    assert plays["banker:6/stood"] == "859/2288"
    assert plays["banker:3/9"] == "draw" and plays["banker:4/1"] == "stand"
    assert data["mixed"] == ["player:5", "banker:6/stood"]
    solution = solve_game(named_rules("chemin-de-fer"), None)
    expected = solution_data(solution, data["game"], load_paytable("chemin-de-fer"))
    assert data == json.loads(json_text(expected))


def _plays(data: dict) -> dict[str, str]:
    """Each decision cell's play in a solve JSON (draw, stand, or p/q)."""
    return {row["cell"]: row["play"] for row in data["cells"]}


@pytest.mark.parametrize(
    ("argv", "told"),
    [
        (["--decks", "0"], "argument --decks: 0: must be at least 1 (or inf"),
        (["--decks", "many"], "argument --decks: not a whole number: 'many' (or inf"),
        (["--decks", "28"], "at most 27 full decks"),
        (["--paytable", "no-such-game"], "unknown paytable or rule set 'no-such-game'"),
        (["--format", "csv"], "invalid choice: 'csv'"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(argv, told) -> None:
    done = _installed("solve", *argv)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and told in done.stderr
    assert done.stderr.startswith("baccarat-odds: error: ")


def test_solve_text_shows_the_value_the_cells_and_what_is_mixed(capsys) -> None:
    code, out, err = run(capsys, "solve", "--paytable", "chemin-de-fer", "--decks", "inf")
    assert code == 0 and err == ""
    assert "on the infinite deck" in out.replace("\n  ", " ")  # (wrapped at 100 columns)
    assert "Value to the Banker: 679568/53094899 = +0.01279912 per coup" in out
    assert "player:5: draws with probability 9/11 = 0.818182 (mixed)" in out
    table = [line.split() for line in out.splitlines() if line.startswith("  ")]
    rows = {row[0]: row[1:] for row in table if row[0] == "total" or row[0].isdigit()}
    assert rows["total"] == [*map(str, range(10)), "stood"]
    assert rows["6"] == ["S"] * 6 + ["D", "D", "S", "S", "859/2288"]
    assert rows["3"] == ["D"] * 8 + ["S", "D", "D"]
    assert rows["7"] == ["S"] * 11
    assert set(rows) == {"total", *map(str, range(8))}
    assert "Mixed cells: player:5 = 9/11, banker:6/stood = 859/2288." in out
    assert "departs from the standard (punto banco) table in: banker:6/stood." in out
    assert all(line == line.rstrip() for line in out.splitlines())


def test_a_paytable_file_gives_its_rules_and_decks(capsys, tmp_path) -> None:
    path = write_paytable(tmp_path, CHEMIN_PAYTABLE)
    code, out, _ = run(capsys, "solve", "--paytable", str(path), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["shoe"]["decks"] == 2 and data["options"]["drawing_rules"] == "chemin-de-fer"
    assert data["paytable"]["id"] == path.stem
    solution = solve_game(named_rules("chemin-de-fer"), 2)
    expected = solution_data(solution, data["game"], load_paytable(path))
    assert data == json.loads(json_text(expected))


def test_a_rule_set_by_name_and_the_standard_game(capsys) -> None:
    code, out, _ = run(capsys, "solve", "--paytable", "standard", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["shoe"]["decks"] == 8 and data["options"]["drawing_rules"] == "standard"
    assert data["paytable"] is None  # a rule set, not a paytable
    assert not [cell for cell in _plays(data) if cell.startswith("player")]
    assert data["mixed"] == []
    code, out, _ = run(capsys, "solve", "--paytable", "seed-game", "--decks", "1")
    assert code == 0
    assert "no decision of its own" in out
    assert "Mixed cells: none" in out


def test_out_writes_the_result_to_a_file(capsys, tmp_path) -> None:
    target = tmp_path / "game.json"
    code, out, err = run(
        capsys, "solve", "--decks", "infinite", "--format", "json", "--out", str(target)
    )
    assert code == 0 and out == "" and err == ""
    assert json.loads(target.read_text())["value_to_banker"] == "679568/53094899"
    missing = tmp_path / "no" / "game.json"
    code, out, err = run(capsys, "solve", "--out", str(missing))
    assert code == 2 and out == "" and err.count("\n") == 1 and "does not exist" in err
    assert not missing.parent.exists()


def test_peek_baccarats_drawing_game_is_solved_and_its_decision_pointed_at(capsys) -> None:
    """solve plays only the drawing rules: Peek Baccarat's [decision] raises bets and draws
    no card, so its game is the standard rules' (the same value), and the text says
    where the decision's strategy table is."""
    code, peek, err = run(capsys, "solve", "--paytable", "peek-baccarat", "--format", "json")
    assert code == 0, err
    code, seed, _ = run(capsys, "solve", "--paytable", "seed-game", "--format", "json")
    assert json.loads(peek)["value_to_banker"] == json.loads(seed)["value_to_banker"]
    code, text, _ = run(capsys, "solve", "--paytable", "peek-baccarat")
    assert code == 0 and "see baccarat-odds strategy" in " ".join(text.split())
