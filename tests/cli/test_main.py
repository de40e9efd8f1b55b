"""The command line's one way to end: every bad input is one line and exit status 2."""

from __future__ import annotations

import pytest
from helpers import run


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "--decks", "0"], "decks"),
        (["report", "--decks", "many"], "decks"),
        (["report", "--decks", "40"], "too large"),
        (["report", "--bet", "nope"], "unknown bet 'nope'"),
        (["report", "--mode", "nope"], "unknown mode 'nope'"),
        (["report", "--format", "xml"], "format"),
        (["play", "2S", "3H", "2D"], "too few cards"),
        (["play", "2S", "3H", "2D", "ZZ"], "unknown card 'ZZ'"),
        (["play", "2S", "3H", "2D", "KC", "8H", "9D"], "too many cards"),
        (["play", "2S", "3H", "2D", "KC", "8H", "--mode", "x"], "unknown mode"),
        ([], "COMMAND"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_version_names_the_package_and_its_code(capsys) -> None:
    import pytest

    from analyzer.cli.main import main
    from analyzer.runs.runner import program_version

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"baccarat-odds {program_version()}\n"
