"""Progress: --progress [FILE] and --no-progress on every slow command, the note before a
first walk that compiles, and the warnings of a run whose figures rest on too few rounds."""

from __future__ import annotations

import pytest
from helpers import run

from analyzer.cli.main import build_parser

#: The commands that can take more than two seconds, each with the pair of options.
SLOW = ("report", "verify", "eor", "fit", "simulate", "count", "docs", "audit", "solve")


@pytest.mark.parametrize("command", SLOW)
def test_every_slow_command_takes_the_progress_options(command) -> None:
    parser = build_parser([command])
    options = {
        o for a in parser._subparsers._group_actions[0].choices[command]._actions
        for o in a.option_strings
    }  # fmt: skip
    assert {"--progress", "--no-progress"} <= options


@pytest.mark.parametrize("command", ["play", "cache"])
def test_quick_commands_do_not(command) -> None:
    parser = build_parser([command])
    options = {
        o for a in parser._subparsers._group_actions[0].choices[command]._actions
        for o in a.option_strings
    }  # fmt: skip
    assert "--progress" not in options


def test_progress_file_gets_one_line_per_update(tmp_path, capsys) -> None:
    log = tmp_path / "progress.log"
    log.write_text("before\n", encoding="utf-8")
    code, out, err = run(capsys, "eor", "--bet", "tie", "--progress", str(log))
    assert code == 0 and err == "" and out
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "before"  # appended to
    # (a first walk in this process may say it compiles the kernels first)
    bars = [line for line in lines[1:] if not line.startswith(("compiling", "preparing"))]
    assert bars and all(line.startswith("effects of removal:") for line in bars)
    assert "100%" in bars[-1]  # the last update is kept
    assert not any("\r" in line for line in bars)


@pytest.mark.slow
def test_simulate_progress_file(tmp_path, capsys) -> None:
    log = tmp_path / "progress.log"
    argv = ["simulate", "--shoes", "20", "--seed", "1", "--workers", "1"]
    code, out, err = run(capsys, *argv, "--work-dir", str(tmp_path), "--progress", str(log))
    assert code == 0 and out and "simulate:" not in err
    assert any(line.startswith("simulate:") for line in log.read_text().splitlines())


def test_progress_without_file_shows_the_bar_on_stderr(capsys) -> None:
    code, _, err = run(capsys, "eor", "--bet", "tie", "--progress")
    assert code == 0 and "effects of removal" in err


def test_no_progress_writes_nothing_on_stderr(capsys) -> None:
    code, out, err = run(capsys, "eor", "--bet", "tie", "--no-progress")
    assert code == 0 and out and err == ""


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--paytable", "{log}"], "is the paytable read"),
        (["--no-progress"], "not allowed with argument --progress"),
    ],
)
def test_refused_progress_files(tmp_path, capsys, extra, message) -> None:
    table = tmp_path / "table.log"  # (a paytable file named so: the refusal is the clash)
    table.write_text('name = "t"\n', encoding="utf-8")
    argv = ["eor", "--bet", "tie", "--progress", str(table)]
    code, out, err = run(capsys, *argv, *[a.format(log=table) for a in extra])
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
    assert table.read_text(encoding="utf-8") == 'name = "t"\n'


def test_a_progress_file_named_like_data_is_refused(tmp_path, capsys) -> None:
    claims = tmp_path / "claims.toml"
    code, out, err = run(capsys, "verify", "--progress", str(claims))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "a progress file is a log" in err and not claims.exists()


def test_a_failing_command_leaves_no_progress_file(tmp_path, capsys) -> None:
    log = tmp_path / "progress.log"
    code, _, err = run(capsys, "eor", "--bet", "tie", "--remove", "ZZ", "--progress", str(log))
    assert code == 2 and err.count("\n") == 1 and not log.exists()


# -- warnings of count and simulate ----------------------------------------------------------


@pytest.mark.slow
def test_count_warns_when_a_strategy_never_bets(tmp_path, capsys) -> None:
    code, out, err = run(
        capsys, "count", "--bet", "tie", "--shoes", "2", "--seed", "1", "--workers", "1",
        "--tags", "6=-4,7=-4,8=2,9=2", "--threshold", "1000", "--no-progress",
        "--work-dir", str(tmp_path),
    )  # fmt: skip
    assert code == 0 and out
    assert err.splitlines() == [
        "baccarat-odds: warning: never bet by the count's strategy in the whole run, so "
        "without figures: Tie (commission)"
    ]


@pytest.mark.slow
def test_simulate_warns_of_figures_on_few_rounds(tmp_path, capsys) -> None:
    code, out, err = run(
        capsys, "simulate", "--shoes", "1", "--seed", "1", "--workers", "1", "--no-progress",
        "--work-dir", str(tmp_path), "--paytable", "ez-baccarat",
    )  # fmt: skip
    assert code == 0 and out
    (line,) = err.splitlines()  # one line for every bet, each bet once (not once a mode)
    assert line.startswith("baccarat-odds: warning: figures resting on fewer than 100 rounds")
    assert line.endswith(": deal more shoes")
    names = line.split("rounds bet: ", 1)[1].removesuffix(": deal more shoes").split(", ")
    bets = [name.rsplit(" ", 1)[0] for name in names]
    assert len(bets) == len(set(bets)) and all(n.rsplit(" ", 1)[1].isdigit() for n in names)
