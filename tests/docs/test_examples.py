"""Every code example of every page of the documentation runs, and shows what it prints.

Each page runs top to bottom in a fresh empty folder of its own, with the installed
``baccarat-odds`` command on ``PATH`` (the rules are the site's conventions, written out in
docs/contributing.md):

- a ``{code-block}`` with ``:caption: NAME`` is a file the reader writes: its text is
  written to ``NAME`` in the page's folder;
- a ``console`` block holds commands (``$ `` lines; a line ending in ``\\`` goes on) each
  followed by its expected output, compared after stripping trailing spaces, where a line
  ``...`` matches any number of lines and ``...`` in a line any text; ``[exit N]`` as the
  last line says the command fails with status N, else it must exit 0; a command with no
  lines under it must succeed, its output not compared;
- ``python`` blocks are doctests (ELLIPSIS and NORMALIZE_WHITESPACE), sharing one
  namespace per page, run in order with the console blocks, in the page's folder;
- a ``toml`` block without a caption is a fragment that must parse, a ``json`` block a
  document that must parse; ``text`` is shown, not run. Any other block fails the page.

A page marked ``<!-- examples: slow -->`` is marked ``slow``.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.docs.pages import DOCS, Block, blocks, is_slow, pages

#: How long one command of a page may take (a page's examples are meant to take seconds).
COMMAND_TIMEOUT = 300
SHOWN_ONLY = {"text"}


def _page_params():
    return [
        pytest.param(page, id=str(page.relative_to(DOCS)), marks=[pytest.mark.slow])
        if is_slow(page)
        else pytest.param(page, id=str(page.relative_to(DOCS)))
        for page in pages()
    ]


# -- console blocks -------------------------------------------------------------------


def parse_console(block: Block) -> list[tuple[str, list[str], int]]:
    """``(command, expected lines or None, exit status)`` for each ``$`` command."""
    commands: list[tuple[str, list[str] | None, int]] = []
    lines = block.text.rstrip("\n").split("\n")
    i = 0
    if lines and not lines[0].startswith("$ "):
        raise AssertionError(f"{block.where}: a console block starts with a '$ ' command")
    while i < len(lines):
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command + "\n" + lines[i]  # (the shell joins the lines)
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i].rstrip())
            i += 1
        status = 0
        if expected and (last := re.fullmatch(r"\[exit (\d+)\]", expected[-1])):
            status = int(last.group(1))
            expected.pop()
        while expected and not expected[-1]:
            expected.pop()
        commands.append((command, expected or None, status))
    return commands


def output_pattern(expected: list[str]) -> re.Pattern[str]:
    """The regular expression an output must match in full: ``...`` alone on a line is
    any number of lines, ``...`` in a line any text."""
    parts = []
    for line in expected:
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(piece) for piece in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def matches(expected: list[str], output: str) -> bool:
    lines = [line.rstrip() for line in output.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    text = "".join(line + "\n" for line in lines)
    return output_pattern(expected).fullmatch(text) is not None


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    # The installed command and this Python first; help laid out for 80 columns.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["COLUMNS"] = "80"
    env.pop("FORCE_COLOR", None)
    return env


def run_console(block: Block, folder: Path) -> None:
    for command, expected, status in parse_console(block):
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=folder,
            env=_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
        shown = f"{block.where}: $ {command}\n--- output (exit {done.returncode}) ---\n"
        shown += done.stdout
        assert done.returncode == status, f"exit {done.returncode}, expected {status}\n{shown}"
        if expected is not None:
            assert matches(expected, done.stdout), (
                "output differs\n--- expected ---\n" + "\n".join(expected) + "\n" + shown
            )


# -- python blocks ------------------------------------------------------------------------


def run_python(block: Block, namespace: dict) -> None:
    test = doctest.DocTestParser().get_doctest(
        block.text, namespace, block.where, str(block.page), block.line
    )
    assert test.examples, f"{block.where}: a python block is written as a doctest (>>> lines)"
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    report: list[str] = []
    runner.run(test, out=report.append, clear_globs=False)
    namespace.update(test.globs)  # (a doctest runs in a copy of the names it is given)
    assert runner.failures == 0, "".join(report)


# -- the pages ---------------------------------------------------------------------------


def run_page(page: Path, folder: Path) -> int:
    """Run every example of ``page`` in ``folder``; the number of blocks run or checked."""
    namespace: dict = {"__name__": "__docs__"}
    checked = 0
    for block in blocks(page):
        if block.caption is not None:
            name = block.caption
            assert "/" not in name and "\\" not in name and name not in ("", ".", ".."), (
                f"{block.where}: a caption names a file in the page's folder: {name!r}"
            )
            (folder / name).write_text(block.text, encoding="utf-8")
        elif block.language == "console":
            run_console(block, folder)
        elif block.language == "python":
            run_python(block, namespace)
        elif block.language == "toml":
            try:
                tomllib.loads(block.text)
            except tomllib.TOMLDecodeError as exc:
                raise AssertionError(f"{block.where}: TOML fragment: {exc}") from None
        elif block.language == "json":
            try:
                json.loads(block.text)
            except json.JSONDecodeError as exc:
                raise AssertionError(f"{block.where}: JSON: {exc}") from None
        elif block.language == "{literalinclude}":
            # A file of the repository shown whole (a JSON Schema): it must be there, in
            # the repository, and a JSON file must parse.
            included = (block.page.parent / block.text).resolve()
            assert included.is_relative_to(DOCS.parent), f"{block.where}: outside the repository"
            assert included.is_file(), f"{block.where}: no file {block.text}"
            if included.suffix == ".json":
                json.loads(included.read_text(encoding="utf-8"))
        elif block.language in SHOWN_ONLY:
            continue
        else:
            raise AssertionError(
                f"{block.where}: a {block.language or 'plain'!r} block is neither run nor "
                "checked: use console (commands), python (doctests), a {code-block} with "
                ":caption: (a file), toml or json (fragments), or text"
            )
        checked += 1
    return checked


@pytest.mark.parametrize("page", _page_params())
def test_page_examples(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # python blocks run in the page's folder too
    run_page(page, tmp_path)


@pytest.mark.parametrize("page", _page_params())
def test_no_page_points_outside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text
    assert "/work/" not in text


def test_every_page_has_a_title() -> None:
    for page in pages():
        first = page.read_text(encoding="utf-8").lstrip().split("\n", 1)[0]
        assert first.startswith("# "), f"{page.relative_to(DOCS)} starts with its '# title'"


# -- the runner's own rules, on made-up pages ------------------------------------------


def _page(tmp_path: Path, text: str) -> Path:
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    return page


FENCE = "```"


@pytest.mark.parametrize(
    ("expected", "output", "ok"),
    [
        (["a", "b"], "a\nb\n", True),
        (["a", "b"], "a  \nb\n\n", True),
        (["a", "c"], "a\nb\n", False),
        (["a"], "a\nb\n", False),
        (["a", "...", "d"], "a\nb\nc\nd\n", True),
        (["a", "...", "d"], "a\nd\n", True),
        (["a", "...", "d"], "a\nb\n", False),
        (["edge ...%"], "edge 1.24%\n", True),
        (["edge ...%"], "edge 1.24\n", False),
        (["x.y"], "xzy\n", False),
    ],
)
def test_output_matching(expected, output, ok) -> None:
    assert matches(expected, output) is ok


def test_console_parsing() -> None:
    block = Block(
        DOCS / "x.md", 1, "console", None, "$ a \\\n  b\nout\n\n$ c\n$ d\nerr\n[exit 2]\n"
    )
    assert parse_console(block) == [("a \\\n  b", ["out"], 0), ("c", None, 0), ("d", ["err"], 2)]


def test_runner_runs_files_commands_and_doctests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page(
        tmp_path,
        f"# T\n\n{FENCE}{{code-block}} toml\n:caption: f.toml\n\nx = 1\n{FENCE}\n\n"
        f"{FENCE}console\n$ cat f.toml\nx = 1\n$ exit 3\n[exit 3]\n{FENCE}\n\n"
        f"{FENCE}python\n>>> import tomllib, pathlib\n"
        f">>> tomllib.loads(pathlib.Path('f.toml').read_text())\n{{'x': 1}}\n{FENCE}\n\n"
        f"{FENCE}python\n>>> y = 2\n{FENCE}\n{FENCE}python\n>>> y + 1\n3\n{FENCE}\n"
        f"{FENCE}toml\na = [1, 2]\n{FENCE}\n{FENCE}text\nnot run\n{FENCE}\n",
    )
    folder = tmp_path / "run"
    folder.mkdir()
    monkeypatch.chdir(folder)
    assert run_page(page, folder) == 6


@pytest.mark.parametrize(
    "body",
    [
        f"{FENCE}console\n$ echo hi\nho\n{FENCE}\n",  # wrong output
        f"{FENCE}console\n$ false\n{FENCE}\n",  # fails without [exit N]
        f"{FENCE}console\n$ true\n[exit 1]\n{FENCE}\n",  # succeeds but should fail
        f"{FENCE}python\n>>> 1 + 1\n3\n{FENCE}\n",  # wrong doctest
        f"{FENCE}python\nprint(1)\n{FENCE}\n",  # not a doctest
        f"{FENCE}toml\na = \n{FENCE}\n",  # bad TOML
        f"{FENCE}sh\necho hi\n{FENCE}\n",  # a block nobody runs
        f"{FENCE}{{code-block}} toml\n:caption: ../x.toml\n\na = 1\n{FENCE}\n",  # outside
    ],
)
def test_runner_fails_a_wrong_example(tmp_path: Path, body: str) -> None:
    page = _page(tmp_path, f"# T\n\n{body}")
    folder = tmp_path / "run"
    folder.mkdir()
    with pytest.raises(AssertionError):
        run_page(page, folder)
