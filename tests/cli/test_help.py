"""Each command's ``--help``: what it does, its options with their defaults, and examples
that run as written."""

from __future__ import annotations

import shlex

import pytest

from analyzer.cli.main import COMMANDS, build_parser, main


def _help(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def _examples(text: str) -> list[str]:
    """The lines under ``examples:``, each one command line."""
    assert "\nexamples:\n" in text
    lines = text.split("\nexamples:\n", 1)[1].splitlines()
    return [line.strip() for line in lines if line.strip()]


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_says_what_it_does_and_shows_examples_that_parse(capsys, name) -> None:
    text = _help(capsys, name)
    usage, description = text.split("\n\n")[:2]
    assert usage.startswith(f"usage: baccarat-odds {name} ")
    # A sentence or more on what the command does, under the usage line.
    assert description[0].isupper() and description.rstrip().endswith((".", "?"))
    assert len(description.split()) >= 15
    examples = _examples(text)
    assert examples
    for example in examples:
        argv = shlex.split(example, comments=True)
        assert argv[:2] == ["baccarat-odds", name], example
        build_parser().parse_args(argv[1:])  # an example that does not parse raises


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
