"""The documentation site builds as CI builds it (``sphinx-build -W --keep-going -n``:
every warning, a broken cross-reference among them, fails it), documents every command and
option of the real parser, and renders in a real browser (Debian's ``chromium``, headless,
as the help pages are tested).

Without Sphinx (the ``docs`` extra) or chromium these tests are skipped, unless
``BACCARAT_ODDS_REQUIRE_DOCS=1`` (CI sets it, with ``BACCARAT_ODDS_REQUIRE_BROWSER=1``),
when that is a failure.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from browser import Browser, chromium_path

from analyzer.cli.main import COMMANDS, build_parser
from tests.docs.pages import DOCS


def _need_sphinx() -> None:
    missing = [
        name
        for name in ("sphinx", "myst_parser", "sphinxarg", "furo")
        if importlib.util.find_spec(name) is None
    ]
    if missing:
        reason = (
            f"the documentation's packages are not installed ({', '.join(missing)}): "
            "pip install -e '.[docs]'"
        )
        if os.environ.get("BACCARAT_ODDS_REQUIRE_DOCS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


#: The options of the build the README and CI give (-q: warnings only; -E: from scratch).
BUILD_OPTIONS = ("-W", "--keep-going", "-n", "-q", "-E", "-b", "html")


def sphinx_build(source: Path, out: Path) -> subprocess.CompletedProcess:
    """The build the README and CI give, into ``out``."""
    return subprocess.run(
        [sys.executable, "-m", "sphinx", *BUILD_OPTIONS, str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    _need_sphinx()
    out = tmp_path_factory.mktemp("site")
    done = sphinx_build(DOCS, out)
    assert done.returncode == 0, done.stderr + done.stdout
    # docutils' own errors (a help text that is not valid reStructuredText) print without
    # "WARNING" and leave the status 0
    assert "(ERROR/" not in done.stderr + done.stdout, done.stderr
    return out


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))


def test_the_site_builds_with_warnings_as_errors(site: Path) -> None:
    for page in ("index", "reference/commands", "reference/python-api", "release-notes"):
        assert (site / f"{page}.html").is_file()


def _actions(parser: argparse.ArgumentParser):
    """(command, action) for every option and argument of every command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for sub_action in sub._actions:
                    yield name, sub_action
        else:
            yield "", action


def test_every_option_has_help() -> None:
    """An option without help text would be listed bare in the command reference."""
    bare = [
        f"{command or 'baccarat-odds'} {'/'.join(a.option_strings) or a.dest}"
        for command, a in _actions(build_parser())
        if not isinstance(a, argparse._HelpAction)
        and (a.help is None or a.help is argparse.SUPPRESS or not a.help.strip())
    ]
    assert not bare, f"options with no help text: {bare}"


def test_the_command_reference_lists_every_command_and_option(site: Path) -> None:
    text = _text(site / "reference" / "commands.html")
    for command, action in _actions(build_parser()):
        if isinstance(action, argparse._HelpAction):  # (-h is every command's; not listed)
            continue
        for spelling in action.option_strings or [action.metavar or action.dest]:
            assert spelling in text, f"{command}: {spelling} is not in the command reference"
    for command in COMMANDS:
        assert f'id="{command}"' in (site / "reference" / "commands.html").read_text()


def test_the_python_api_documents_every_public_name(site: Path) -> None:
    import analyzer

    page = (site / "reference" / "python-api.html").read_text(encoding="utf-8")
    for name in analyzer.__all__:
        assert f'id="analyzer.{name}"' in page, f"analyzer.{name} is not in the Python API"


def test_the_changelog_is_in_the_release_notes(site: Path) -> None:
    changelog = (DOCS.parent / "CHANGELOG.md").read_text(encoding="utf-8")
    first = next(line for line in changelog.splitlines() if line.startswith("## "))
    assert first[3:].strip() in _text(site / "release-notes.html")


@pytest.mark.slow
def test_a_broken_reference_fails_the_build(tmp_path: Path) -> None:
    _need_sphinx()
    source = tmp_path / "docs"
    shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns("_build"))
    index = source / "index.md"
    index.write_text(index.read_text().replace("\nrelease-notes\n", "\nrelease-notes\nbad\n"))
    (source / "bad.md").write_text(
        "# Bad\n\nSee {py:func}`analyzer.no_such_function` and [a page](no-such-page.md).\n"
    )
    done = sphinx_build(source, tmp_path / "out")
    assert done.returncode != 0
    assert "analyzer.no_such_function" in done.stderr
    assert "no-such-page" in done.stderr


@pytest.fixture(scope="module")
def browser():
    executable = chromium_path()
    if executable is None:
        required = ("BACCARAT_ODDS_REQUIRE_BROWSER", "BACCARAT_ODDS_REQUIRE_DOCS")
        if any(os.environ.get(variable) == "1" for variable in required):
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed")
    opened = Browser(executable)
    yield opened
    opened.close()


@pytest.mark.parametrize(
    ("page", "title", "shown"),
    [
        ("index.html", "baccarat-odds", ["Getting started", "Commands", "Python API"]),
        ("reference/commands.html", "Commands", list(COMMANDS)),
        ("reference/python-api.html", "Python API", ["analyzer.analyze", "analyzer.Shoe"]),
    ],
)
def test_pages_render_in_a_browser(site: Path, browser, page: str, title: str, shown) -> None:
    rendered = browser.render(site / page)
    assert rendered.messages == (), rendered.messages
    assert browser.evaluate("document.title").startswith(title)
    visible = browser.evaluate("document.body.innerText")
    for text in shown:
        assert text in visible, f"{page}: {text!r} is not shown"
    # The theme's stylesheet is applied (its sidebar is laid out beside the content).
    assert browser.evaluate("getComputedStyle(document.body).display") != "inline"
    assert browser.evaluate("document.styleSheets.length") >= 2
