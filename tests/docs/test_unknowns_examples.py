"""The values the examples give a shipped paytable's unknowns are values its published
figures allow.

A shipped paytable with ``[unknowns]`` (chances nobody publishes) has a shipped claims
file of its published figures. Its examples (the documentation's pages, the README, the
notebooks, each command's ``--help`` examples) take one set of values for its unknowns,
:data:`EXAMPLE_VALUES`, and at them ``verify --unknowns`` passes every claim of that
file: the one exception is a figure no values can hold together with the others
(:data:`CONFLICTS`, which the claims file and the documentation explain). An example
that shows a refusal (its expected exit status is not 0) may take other values.
"""

from __future__ import annotations

import argparse
import ast
import doctest
import json
import re
import shlex
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import run

from analyzer.analysis.verify import load_claims
from analyzer.cli.main import build_parser
from analyzer.cli.options import unknowns_option
from analyzer.paytables.library import library_names, load_paytable
from tests.docs.pages import DOCS, blocks, pages
from tests.docs.test_examples import parse_console

ROOT = DOCS.parent

#: The values every example gives the unknowns of each shipped paytable that has them:
#: simple values that its published figures all allow (``fit`` names such a point; the
#: claims file says why these), or, where no values allow them all, the values the
#: documentation says it chose and why.
EXAMPLE_VALUES = {
    "golden-wealth-baccarat": "a=37/64,b=1/125,c=1/64",
    "lightning-dragon-tiger": "p3=1/8,p5=1/60,p8=3/32",
    "peek-baccarat": "s1=1/4,s2=35/64,s3=1/8",
    "prosperity-tree-baccarat": "p=7/113",
}

#: The claims (by number) that FAIL at the example values because no values of the
#: unknowns give them together with the paytable's other published figures: Peek
#: Baccarat's Banker 98.8% (win2day) cannot print so where its Player prints 98.8%.
CONFLICTS = {"peek-baccarat": {2}}


def _values(text: str) -> dict[str, Fraction]:
    return unknowns_option(text)


# -- what the examples give ----------------------------------------------------------


def _uses_in_argv(argv: list[str]) -> list[tuple[str, dict[str, Fraction]]]:
    """``(paytable, values)`` for each shipped paytable with unknowns that a command line
    names together with ``--unknowns``."""
    given = None
    named = []
    for i, word in enumerate(argv):
        option, equals, value = word.partition("=")
        if option in ("--unknowns", "--paytable"):
            value = value if equals else (argv[i + 1] if i + 1 < len(argv) else "")
            if option == "--unknowns":
                given = _values(value)
            else:
                named.append(value)
    if given is None:
        return []
    command = argv.index("baccarat-odds") + 1 if "baccarat-odds" in argv else None
    if command is not None and argv[command : command + 1] in (["verify"], ["fit"]):
        named.append(argv[command + 1])
    return [(name, given) for name in named if name in EXAMPLE_VALUES]


def _uses_in_python(source: str) -> list[tuple[str, dict[str, Fraction]]]:
    """The same for Python: ``simulate("NAME", unknowns={...})``, a call whose string
    arguments are a command line (``run("play", ..., "--unknowns", "s1=...")``), and
    ``load_paytable("NAME").with_unknowns({...})``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        strings = [arg.value for arg in node.args if isinstance(arg, ast.Constant)]
        words = [word for word in strings if isinstance(word, str)]
        found += _uses_in_argv(["baccarat-odds", *words])
        mapping = None
        for keyword in node.keywords:
            if keyword.arg == "unknowns" and isinstance(keyword.value, ast.Dict):
                mapping = keyword.value
        name = words[0] if words else None
        if isinstance(node.func, ast.Attribute) and node.func.attr == "with_unknowns":
            inner = node.func.value
            if isinstance(inner, ast.Call) and inner.args and node.args:
                name = getattr(inner.args[0], "value", None)
                mapping = node.args[0] if isinstance(node.args[0], ast.Dict) else None
        if mapping is not None and name in EXAMPLE_VALUES:
            pairs = zip(mapping.keys, mapping.values, strict=True)
            text = ",".join(f"{ast.literal_eval(k)}={ast.literal_eval(v)}" for k, v in pairs)
            found.append((name, _values(text)))
    return found


def _python_source(text: str) -> str:
    """A doctest block's statements, one after the other."""
    return "\n".join(e.source for e in doctest.DocTestParser().get_examples(text))


def _split_comment(line: str) -> tuple[str, str]:
    """A shell line's command and its trailing comment (from a ``#`` outside quotes that
    begins a word)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


def _shell_lines(text: str) -> list[tuple[list[str], str]]:
    """A plain shell block's commands (a README ``sh`` block, a notebook's ``!`` lines, a
    command's help examples): continuation lines joined, each command's words and its
    trailing comment."""
    joined: list[str] = []
    going_on = False
    for line in text.splitlines():
        if going_on:
            joined[-1] = joined[-1][:-1] + " " + line.strip()
        elif line.strip() and not line.strip().startswith("#"):
            joined.append(line.strip())
        going_on = line.rstrip().endswith("\\")
    out = []
    for line in joined:
        command, comment = _split_comment(line)
        out.append((shlex.split(command), comment))
    return out


def _markdown_uses(page: Path) -> list[tuple[str, str, dict[str, Fraction]]]:
    found = []
    for block in blocks(page):
        where = f"{page.relative_to(ROOT)}:{block.line}"
        if block.language == "console":
            for command, _, status in parse_console(block):
                if status == 0:
                    argv = shlex.split(command.replace("\\\n", " "))
                    found += [(where, *use) for use in _uses_in_argv(argv)]
        elif block.language in ("sh", "bash", "shell"):
            for argv, _ in _shell_lines(block.text):
                found += [(where, *use) for use in _uses_in_argv(argv)]
        elif block.language == "python":
            found += [(where, *use) for use in _uses_in_python(_python_source(block.text))]
    return found


def _notebook_uses(path: Path) -> list[tuple[str, str, dict[str, Fraction]]]:
    found = []
    for number, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] != "code":
            continue
        where = f"{path.relative_to(ROOT)}, cell {number}"
        source = "".join(cell["source"])
        shell = [line[1:] for line in source.splitlines() if line.startswith("!")]
        python = "\n".join(line for line in source.splitlines() if not line.startswith(("!", "%")))
        for argv, _ in _shell_lines("\n".join(shell)):
            found += [(where, *use) for use in _uses_in_argv(argv)]
        found += [(where, *use) for use in _uses_in_python(python)]
    return found


def _help_uses() -> list[tuple[str, str, dict[str, Fraction]]]:
    """Each command's ``--help`` examples (the lines under ``examples:`` in its epilog; a
    trailing comment ``exit N`` marks one that fails)."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for name, command in commands.choices.items():
        epilog = command.epilog or ""
        if "examples:" not in epilog:
            continue
        for argv, comment in _shell_lines(epilog.split("examples:", 1)[1]):
            if re.match(r"exit [1-9]", comment):
                continue
            found += [(f"baccarat-odds {name} --help", *use) for use in _uses_in_argv(argv)]
    return found


def example_uses() -> list[tuple[str, str, dict[str, Fraction]]]:
    """``(where, paytable, values)`` for every example that gives values to the unknowns
    of a shipped paytable and is meant to succeed."""
    found = []
    for page in [*pages(), ROOT / "README.md"]:
        found += _markdown_uses(page)
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        found += _notebook_uses(notebook)
    return found + _help_uses()


# -- the tests -------------------------------------------------------------------------


def test_every_shipped_paytable_with_unknowns_has_its_example_values() -> None:
    with_unknowns = {name for name in library_names() if load_paytable(name).unknowns}
    assert with_unknowns == set(EXAMPLE_VALUES)
    for name, text in EXAMPLE_VALUES.items():
        assert set(_values(text)) == {unknown for unknown, *_ in load_paytable(name).unknowns}


@pytest.mark.parametrize("name", sorted(EXAMPLE_VALUES))
def test_the_published_figures_hold_at_the_example_values(capsys, name) -> None:
    """``verify NAME --unknowns VALUES``: every claim of the shipped claims file PASSes,
    but those no values can give together with the others, which FAIL."""
    code, out, err = run(
        capsys, "verify", name, "--unknowns", EXAMPLE_VALUES[name], "--format", "json"
    )
    rows = json.loads(out)["claims"]
    assert len(rows) == len(load_claims(name)) and err == ""
    failed = {row["claim"] for row in rows if row["result"] != "PASS"}
    assert failed == CONFLICTS.get(name, set()), [r for r in rows if r["claim"] in failed]
    assert {row["result"] for row in rows if row["claim"] in failed} <= {"FAIL"}
    assert code == (1 if failed else 0)


@pytest.mark.parametrize("name", sorted(CONFLICTS))
def test_a_conflict_is_one_no_values_resolve(capsys, name) -> None:
    """Where a figure is left failing, ``fit`` finds no values that give all of them: the
    choice was forced (the test above shows the others hold at the values chosen)."""
    code, out, _ = run(capsys, "fit", name, "--format", "json", "--no-progress")
    assert code == 1 and not json.loads(out)["together"]["consistent"]


def test_the_examples_give_the_unknowns_the_example_values() -> None:
    uses = example_uses()
    wrong = [
        (where, name, values)
        for where, name, values in uses
        if {k: v for k, v in values.items() if k in _values(EXAMPLE_VALUES[name])}
        != _values(EXAMPLE_VALUES[name])
    ]
    assert not wrong, wrong
    # The scan finds the examples it is meant to (so that it cannot pass by finding none).
    assert {name for _, name, _ in uses} >= {
        "lightning-dragon-tiger",
        "peek-baccarat",
        "prosperity-tree-baccarat",
    }
    places = {where.partition(":")[0] for where, _, _ in uses}
    assert {"docs/guides/games.md", "docs/reference/json-outputs.md"} <= places
    assert {"baccarat-odds play --help", "baccarat-odds docs --help"} <= places


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$ baccarat-odds report --paytable peek-baccarat --unknowns s1=1/2,s2=0,s3=0", 1),
        ("$ baccarat-odds verify lightning-dragon-tiger --unknowns p3=0,p5=0,p8=1/10", 1),
        ("$ baccarat-odds report --paytable my.toml --unknowns p=1/2", 0),
        ("$ baccarat-odds report --paytable peek-baccarat --unknowns s1=0\nx\n[exit 2]", 0),
    ],
)
def test_the_scan_reads_a_console_example(tmp_path, text, expected) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"```console\n{text}\n```\n", encoding="utf-8")
    uses = [use for block in blocks(page) for use in _console(block)]
    assert len(uses) == expected


def _console(block):
    return [
        use
        for command, _, status in parse_console(block)
        if status == 0
        for use in _uses_in_argv(shlex.split(command.replace("\\\n", " ")))
    ]


def test_the_scan_reads_python_and_shell_examples() -> None:
    source = _python_source(
        '>>> simulate(\n...     "lightning-dragon-tiger",\n'
        '...     unknowns={"p3": "1/5", "p5": "0", "p8": "0"},\n... )\n'
        '>>> run("play", "--paytable", "peek-baccarat", "--unknowns", "s1=1,s2=0,s3=0")\n'
        '>>> load_paytable("prosperity-tree-baccarat").with_unknowns({"p": 1})\n'
    )
    assert sorted((name, values) for name, values in _uses_in_python(source)) == [
        ("lightning-dragon-tiger", {"p3": Fraction(1, 5), "p5": 0, "p8": 0}),
        ("peek-baccarat", {"s1": 1, "s2": 0, "s3": 0}),
        ("prosperity-tree-baccarat", {"p": 1}),
    ]
    text = "baccarat-odds fit peek-baccarat \\\n  --unknowns s1=1  # exit 1: why\n# a note"
    assert _shell_lines(text) == [
        (["baccarat-odds", "fit", "peek-baccarat", "--unknowns", "s1=1"], "exit 1: why")
    ]
