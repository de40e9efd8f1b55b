"""Options the commands share: the shoe options, checked before any work."""

from __future__ import annotations

import json

import pytest
from helpers import run, write_paytable


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "--remove", "5H " * 33], "cannot remove 5H"),
        (["report", "--remove", "ZZ"], "unknown card 'ZZ'"),
        (["report", "--shoe", "x.csv", "--decks", "2"], "--decks or --shoe"),
        (["report", "--shoe", "missing.csv"], "missing.csv: no such file"),
        (["verify", "seed-game", "--remove", "5H " * 40], "cannot remove 5H"),
        (["eor", "--plot", "chart.jpg"], "name a .png file"),
        (["eor", "--plot", "no/such/folder/chart.png"], "does not exist"),
    ],
)
def test_bad_shoe_options(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


# -- --strategy -----------------------------------------------------------------------------


def test_a_strategy_decides_the_paytables_cells(capsys) -> None:
    code, out, err = run(
        capsys, "report", "--paytable", "baccarat-gold", "--strategy", "player:5=stand"
    )
    assert code == 0 and err == ""
    # (the title wrapped at 100 columns, read as one line)
    assert "drawing rules: baccarat-gold; decisions: player:5=stand" in out.replace("\n  ", " ")
    code, out, err = run(capsys, "report", "--paytable", "baccarat-gold", "--strategy", "best")
    assert code == 0 and "decisions: player:5=draw" in out
    assert err.startswith("baccarat-odds: strategy best: player:5=draw (for the player bet")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--strategy", "player:5=7"], "the probability '7' is outside [0, 1]"),
        (["--strategy", "player:5"], "needs '='"),
        (["--paytable", "seed-game", "--strategy", "player:5=draw"], "not a decision cell"),
        (["--paytable", "seed-game", "--strategy", "best"], "no decision cell"),
    ],
)
def test_a_bad_strategy_is_one_line_and_exit_2(capsys, argv, message) -> None:
    code, out, err = run(capsys, "report", *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_undecided_cells_are_refused_before_any_work(capsys, tmp_path) -> None:
    path = write_paytable(
        tmp_path,
        'name = "t"\nrules = "chemin-de-fer"\n[[bet]]\nid = "player"\n'
        "[[bet.rule]]\nwhen = \"winner == 'player'\"\npays = 1\n",
    )
    code, out, err = run(capsys, "report", "--paytable", str(path))
    assert code == 2 and out == ""
    assert "leave player:5, banker:3/9, banker:5/4 to the players" in err
    code, out, err = run(capsys, "report", "--paytable", str(path), "--strategy", "best")
    assert code == 2 and "the Banker's cells for the bet 'banker', which the paytable" in err
    code, out, err = run(
        capsys,
        "report",
        "--paytable",
        str(path),
        "--strategy",
        "player:5=draw,banker:3/9=stand,banker:5/4=draw",
    )
    assert code == 0 and "decisions: player:5=draw,banker:3/9=stand,banker:5/4=draw" in out


# -- --decks inf: the infinite deck ------------------------------------------------------------


def test_the_infinite_deck_is_a_number_of_decks(capsys) -> None:
    code, out, err = run(capsys, "report", "--decks", "inf", "--bet", "player", "--format", "json")
    assert code == 0 and err == ""
    shoe = json.loads(out)["shoe"]
    assert shoe == {"decks": "inf", "cards": None, "removed": [], "ranks": None}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--decks", "inf", "--shoes", "10"], "an infinite deck has no shoe to deal"),
        (["count", "--decks", "inf", "--bet", "tie", "--shoes", "10"], "no shoe to deal"),
        (["eor", "--decks", "inf"], "an infinite deck has no effects of removal"),
        (["report", "--decks", "inf", "--remove", "AS"], "no card can be removed from an infinite"),
        (["report", "--decks", "infinity"], "not a whole number"),
    ],
)
def test_where_an_infinite_deck_means_nothing_it_is_one_line(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


#: Options naming a folder that holds no output over an input: --work-dir keeps each run's
#: partitions in a folder of its own, named by a hash of the run.
NEITHER_READ_NOR_WRITTEN_OVER = {"--work-dir"}


def test_every_option_naming_a_file_is_declared_read_or_written() -> None:
    """main refuses an output over an input (R3 of the review of 2026-12-06) from what
    the options declare: an option naming a file or folder that declares neither would
    slip by."""
    import argparse
    import re

    from analyzer.cli.main import COMMANDS, command_module

    for name in COMMANDS:
        parser = argparse.ArgumentParser()
        command_module(name).add_arguments(parser)
        for action in parser._actions:
            if re.search(r"\b(FILE|DIR|LOG|CLAIMS)\b", str(action.metavar)):
                if set(action.option_strings) & NEITHER_READ_NOR_WRITTEN_OVER:
                    continue
                assert hasattr(action, "file_role"), (name, action.option_strings or action.dest)


# -- A report file's format from its suffix ------------------------------------------------

#: What a file of each format starts with (the workbook: a zip file).
STARTS = {
    "text": "Baccarat: 8 decks",
    "markdown": "## ",
    "csv": "bet,",
    "html": "<!DOCTYPE html>",
    "latex": "% baccarat-odds",
    "json": "{",
    "xlsx": "PK",
}


@pytest.mark.parametrize(
    ("suffix", "fmt"),
    [
        (".txt", "text"),
        (".md", "markdown"),
        (".csv", "csv"),
        (".html", "html"),
        (".HTM", "html"),
        (".tex", "latex"),
        (".json", "json"),
        (".xlsx", "xlsx"),
        (".out", "text"),  # a suffix that names no format: text, as without a file
    ],
)
def test_report_out_writes_the_format_its_suffix_names(capsys, tmp_path, suffix, fmt) -> None:
    """`report --out par.xlsx` once wrote plain text into par.xlsx, exit 0."""
    path = tmp_path / f"report{suffix}"
    code, out, err = run(capsys, "report", "--out", str(path))
    assert (code, out, err) == (0, "", "")
    assert path.read_bytes().decode("latin-1").startswith(STARTS[fmt])


@pytest.mark.parametrize(
    ("argv", "named", "given"),
    [
        (["report", "--format", "json", "--out", "{}.md"], "markdown", "json"),
        (["report", "--format", "text", "--out", "{}.xlsx"], "xlsx", "text"),
        (["report", "--format", "xlsx", "--out", "{}.csv"], "csv", "xlsx"),
        (["eor", "--format", "csv", "--out", "{}.json"], "json", "csv"),
        (["audit", "--format", "html", "--out", "{}.tex", "log.csv"], "latex", "html"),
        (
            [
                "count",
                "--shoes",
                "2",
                "--bet",
                "tie",
                "--format",
                "json",
                *("--report-out", "{}.txt"),
            ],
            "text",
            "json",
        ),
    ],
)
def test_a_suffix_that_contradicts_format_is_refused(capsys, tmp_path, argv, named, given) -> None:
    argv = [a.replace("{}", str(tmp_path / "out")) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"names {named} but --format is {given}" in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_an_explicit_format_with_a_suffix_naming_none_is_kept(capsys, tmp_path) -> None:
    path = tmp_path / "report.data"
    code, _, _ = run(capsys, "report", "--format", "json", "--out", str(path))
    assert code == 0 and path.read_text().startswith("{")
