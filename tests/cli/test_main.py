"""The command line's one way to end: every bad input is one line and exit status 2."""

from __future__ import annotations

import io
import signal
import sys

import pytest
from helpers import run

from analyzer.cli.main import COMMANDS, main


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
        # An option is written whole: --shoe was once taken for count's --shoes (and the
        # file named for a number of shoes); the nearest option is named.
        (["count", "--shoe", "x.csv"], "unrecognized arguments: --shoe (did you mean --shoes?)"),
        (["report", "--deck", "6"], "unrecognized arguments: --deck (did you mean --decks?)"),
        (["report", "--dekcs=6"], "unrecognized arguments: --dekcs (did you mean --decks?)"),
        (["report", "--bogus"], "unrecognized arguments: --bogus\n"),
        (["report", "--bogus", "--", "--help"], "unrecognized arguments: --bogus\n"),
        # The program's own option after a command is said to go before it (it was taken
        # for report's nearest option, --decisions).
        (["report", "--version"], "--version goes before the command: baccarat-odds --version"),
        # A word with a space is a value to argparse, never an option: the paytable is
        # looked for (it was refused as an unrecognized argument).
        (["report", "--paytable", "--my table.toml"], "--my table.toml: no such file"),
        # One dash, a word processor's dash, capitals: the option meant is named (they were
        # 'unrecognized arguments: \u2014decks 6', no hint).
        (["report", "-decks", "6"], "unrecognized arguments: -decks (did you mean --decks?)"),
        (["report", "\u2014decks", "6"], "\u2014decks (did you mean --decks?)"),
        (["report", "\u2013\u2013decks=6"], "\u2013\u2013decks (did you mean --decks?)"),
        (["report", "--DECKS", "6"], "unrecognized arguments: --DECKS (did you mean --decks?)"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["report", "--help", "--bogus"], ["report", "--bogus", "-h"]])
def test_the_help_asked_for_is_given_whatever_else(capsys, argv) -> None:
    """As argparse does: --help prints the command's help even beside an option it does
    not know (the scan for unknown options had refused it first)."""
    from analyzer.cli.main import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("usage: baccarat-odds report")


@pytest.mark.parametrize("commit", ["v0.1.0-3-gabc1234-dirty", None])
def test_version_names_the_package_its_code_and_commit(capsys, monkeypatch, commit) -> None:
    from analyzer import version
    from analyzer.cli.main import main
    from analyzer.runs.runner import program_version

    monkeypatch.setattr(version, "git_commit", lambda: commit)
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    built = f" (git {commit})" if commit else ""
    assert capsys.readouterr().out == f"baccarat-odds {program_version()}{built}\n"
    assert program_version().startswith(version.package_version())


class _SignallingOutput(io.RawIOBase):
    """A standard output that keeps what it is given and raises SIGINT (as Ctrl-C does)
    once ``after`` bytes have gone out: a signal at an exact point of the output."""

    def __init__(self, after: int) -> None:
        self.data = bytearray()
        self.after = after
        self.sent = False

    def writable(self) -> bool:
        return True

    def write(self, chunk) -> int:
        self.data += bytes(chunk)
        if not self.sent and len(self.data) >= self.after:
            self.sent = True
            signal.raise_signal(signal.SIGINT)
        return len(chunk)


def _run_into(monkeypatch, capsys, output: _SignallingOutput, *argv: str) -> tuple[int, str]:
    stream = io.TextIOWrapper(io.BufferedWriter(output), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stream)
    code = main(list(argv))
    return code, capsys.readouterr().err


def test_a_signal_just_after_the_last_byte_changes_nothing(monkeypatch, capsys) -> None:
    """The output is whole when the signal comes: exit 0, nothing on stderr (a handler
    that raised there once made it 130, 'it may be cut short')."""
    argv = ("report", "--bet", "tie", "--format", "json")
    reference = _SignallingOutput(after=10**9)
    assert _run_into(monkeypatch, capsys, reference, *argv) == (0, "")
    whole = bytes(reference.data)
    assert len(whole) > 100
    signalled = _SignallingOutput(after=len(whole))
    assert _run_into(monkeypatch, capsys, signalled, *argv) == (0, "")
    assert signalled.sent and bytes(signalled.data) == whole


def test_a_signal_in_the_middle_of_the_output_says_it_is_cut_short(monkeypatch, capsys):
    argv = ("report", "--format", "json")
    reference = _SignallingOutput(after=10**9)
    assert _run_into(monkeypatch, capsys, reference, *argv)[0] == 0
    whole = bytes(reference.data)
    assert len(whole) > 3 * 4096  # several chunks: the writer stops between two
    signalled = _SignallingOutput(after=1)
    code, err = _run_into(monkeypatch, capsys, signalled, *argv)
    assert code == 130
    assert err == "baccarat-odds: interrupted while writing the output: it may be cut short\n"
    assert 0 < len(signalled.data) < len(whole) and whole.startswith(bytes(signalled.data))


def test_memory_exhaustion_is_one_line_exit_2(monkeypatch, capsys) -> None:
    """Memory running out anywhere in a command is one line, not a traceback."""
    from analyzer.cli import report

    def exhausted(args):
        raise MemoryError

    monkeypatch.setattr(report, "run", exhausted)
    code, out, err = run(capsys, "report")
    assert code == 2 and out == ""
    assert err.startswith("baccarat-odds: error: out of memory") and err.count("\n") == 1


HEAVY = ("pandas", "numba", "matplotlib", "jinja2", "sympy", "scipy", "pyarrow", "xlsxwriter")


@pytest.mark.parametrize("argv", [["--help"], *([name, "--help"] for name in COMMANDS)])
def test_help_starts_without_the_heavy_libraries(argv) -> None:
    """--help, and each command's, builds the whole parser and loads neither pandas nor
    Numba nor any plotting, templating or symbolic library: a command imports them when it
    runs (issue 21: a command line that starts fast). In a fresh interpreter, as a user's."""
    import subprocess

    code = (
        "import contextlib, io, sys\n"
        "from analyzer.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    try: main({argv!r})\n"
        "    except SystemExit: pass\n"
        "assert 'usage:' in out.getvalue()\n"
        f"print(sorted(h for h in {HEAVY!r} if h in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["audit", "--help"]])
def test_a_command_line_imports_only_the_command_it_runs(argv) -> None:
    """Command modules are imported when their command runs (issue 21): the top-level
    help lists every command without importing one; a command's help imports its own."""
    import subprocess

    code = (
        "import contextlib, io, sys\n"
        "from analyzer.cli.main import COMMANDS, main\n"
        f"argv = {argv!r}\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    try: main({argv!r})\n"
        "    except SystemExit: pass\n"
        f"assert 'usage: baccarat-odds {' '.join(argv[:-1])}' in out.getvalue()\n"
        "assert argv[1:] or all(name in out.getvalue() for name in COMMANDS)\n"
        "print(sorted(n for n in COMMANDS if f'analyzer.cli.{n}' in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    expected = [] if argv[0] == "--help" else [argv[0]]
    assert done.stdout.strip() == repr(expected)


@pytest.mark.parametrize("columns", [None, "57", "200", "junk", "-3", "0"])
def test_help_is_as_wide_as_shutil_finds_the_terminal(monkeypatch, columns) -> None:
    # The width argparse would ask shutil for, worked out without importing it.
    import shutil

    from analyzer.cli.main import _terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _terminal_columns() == shutil.get_terminal_size().columns
