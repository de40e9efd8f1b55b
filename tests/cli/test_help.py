"""Each command's ``--help``: what it does, its options with their defaults, and examples
that run as written.

An example is a line under ``examples:`` (a line ending in ``\\`` goes on on the next;
a line that is only a comment explains the one above). It runs as written, in order
after the examples above it, in an empty folder of its own per command: an example that
needs a file shows first the command that makes it. It exits 0, unless its trailing
comment begins ``exit N`` (``# exit 1: why``): then it exits N.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from analyzer.cli.main import COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parents[2]

#: The one way an example says the status it exits with: its comment begins so.
_EXIT = re.compile(r"^exit (\d+)\b")


def _help(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def _command_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(commands.choices)


def _split_comment(line: str) -> tuple[str, str]:
    """The command and its trailing comment: from the first ``#`` outside quotes that
    begins a word."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


def _examples(text: str) -> list[tuple[str, list[str], int]]:
    """The examples under ``examples:``: each as written, its argv and the exit status it
    says (0 unless its comment begins ``exit N``)."""
    assert "\nexamples:\n" in text
    lines = [line.strip() for line in text.split("\nexamples:\n", 1)[1].splitlines()]
    joined: list[str] = []
    going_on = False
    for line in lines:
        if going_on:
            joined[-1] = joined[-1][:-1] + " " + line
        elif line and not line.startswith("#"):
            joined.append(line)
        going_on = line.endswith("\\")
    out = []
    for line in joined:
        command, comment = _split_comment(line)
        status = _EXIT.match(comment)
        out.append((line, shlex.split(command), int(status[1]) if status else 0))
    return out


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_says_what_it_does_and_shows_examples_that_parse(capsys, name) -> None:
    text = _help(capsys, name)
    usage, description = text.split("\n\n")[:2]
    assert usage.startswith(f"usage: baccarat-odds {name} ")
    # A sentence or more on what the command does, under the usage line.
    assert description[0].isupper() and description.rstrip().endswith((".", "?"))
    assert len(description.split()) >= 15
    examples = _examples(text)
    assert any(argv[1] == name for _, argv, _ in examples)
    for example, argv, _ in examples:
        # An example of another command makes a file this command's examples read.
        assert argv[0] == "baccarat-odds" and argv[1] in COMMANDS, example
        build_parser(argv[1:]).parse_args(argv[1:])  # an example that does not parse raises


@pytest.mark.parametrize("name", COMMANDS)
def test_examples_stay_in_their_folder_and_say_their_status_one_way(capsys, name) -> None:
    for example, argv, _ in _examples(_help(capsys, name)):
        for word in argv[2:]:
            for value in (word, word.partition("=")[2]):
                assert not value.startswith(("/", "~")), example
                assert ".." not in Path(value).parts, example
        # A comment that speaks of an exit status says it the one way the test reads.
        comment = _split_comment(example)[1]
        assert "exit" not in comment or _EXIT.match(comment), example


def test_the_exit_status_an_example_says_is_read() -> None:
    text = (
        "x\n\nexamples:\n  baccarat-odds verify a.toml   # exit 1: fails\n"
        '  baccarat-odds play "#1" \\\n      2S   # exits as it should\n'
        "                 # (a comment of its own)\n"
    )
    assert _examples(text) == [
        ("baccarat-odds verify a.toml   # exit 1: fails", ["baccarat-odds", "verify", "a.toml"], 1),
        (
            'baccarat-odds play "#1"  2S   # exits as it should',
            ["baccarat-odds", "play", "#1", "2S"],
            0,
        ),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name", COMMANDS)
def test_each_commands_examples_run_in_order_in_an_empty_folder(capsys, tmp_path, name) -> None:
    """The installed command, as a user types it: each example exits with the status it
    says, one after the other in one fresh folder."""
    program = shutil.which("baccarat-odds")
    assert program, "install the package (pip install -e .): baccarat-odds is not on PATH"
    env = dict(os.environ)
    # This checkout's code, whichever installation the command on PATH belongs to.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.pop("COLUMNS", None)
    for example, argv, status in _examples(_help(capsys, name)):
        done = subprocess.run(
            [program, *argv[1:]], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert done.returncode == status, (example, done.stderr[-2000:])


def _needs_no_default(action: argparse.Action, required_groups: set[int]) -> bool:
    """A flag, a required option or argument, help, --version, a repeatable option: what
    needs no default said."""
    flags = (
        argparse._HelpAction,
        argparse._StoreTrueAction,
        argparse._StoreFalseAction,
        argparse._StoreConstAction,
        argparse._CountAction,
        argparse._AppendAction,
    )
    return (
        isinstance(action, flags)
        or action.nargs == 0  # --version
        or action.required
        or id(action) in required_groups
    )


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_says_its_default(name) -> None:
    parser = _command_parsers()[name]
    required_groups = {
        id(action)
        for group in parser._mutually_exclusive_groups
        if group.required
        for action in group._group_actions
    }
    for action in parser._actions:
        assert action.help, (name, action.dest)
        if not _needs_no_default(action, required_groups):
            assert "default" in action.help.lower(), (name, action.option_strings or action.dest)


def test_no_help_sends_the_user_to_the_readme(capsys) -> None:
    texts = [_help(capsys)] + [_help(capsys, name) for name in COMMANDS]
    for text in texts:
        assert "readme" not in text.lower()
        assert "../shared" not in text and "shared/" not in text


def test_verify_help_points_at_explain(capsys) -> None:
    text = " ".join(_help(capsys, "verify").split())
    assert "verify --explain prints a claims file's keys" in text
    assert "--explain print a claims file's format instead" in text


@pytest.mark.parametrize("name", [name for name in COMMANDS if name != "docs"])
def test_format_says_its_choices_and_default(capsys, name) -> None:
    text = " ".join(_help(capsys, name).split())  # help lines joined as they wrap
    assert "--format {text," in text
    assert "output format: text, " in text and "(default: text" in text


def test_count_says_bet_is_required_and_takes_all(capsys) -> None:
    text = _help(capsys, "count")
    usage = " ".join(text.split("\n\n")[0].split())
    assert " --bet ID|all " in usage and "[--bet" not in usage  # required, as it is
    assert "required: the bet to count (repeatable), or all" in " ".join(text.split())


def test_docs_site_says_what_it_refuses(capsys) -> None:
    text = " ".join(_help(capsys, "docs").split())
    site = text.split("--site DIR build help pages", 1)[1].split("--paytable FILE|NAME", 1)[0]
    for told in ("missing or empty", "--force", "symbolic link", "--remove and --shoe do not"):
        assert told in site, told
