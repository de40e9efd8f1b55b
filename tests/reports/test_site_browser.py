"""The help pages as a reader sees them: Debian's ``chromium`` renders every page that
``docs --site`` builds for the shipped paytables, headless. The exact figures are read
back from the rendered DOM and compared with the analysis; no page may log a console
message (a missing stylesheet or image, a blocked request); the seed game's three pages
are kept as screenshots (in ``$BACCARAT_ODDS_SCREENSHOTS`` when set: CI keeps them).

Without chromium the module is skipped, unless ``BACCARAT_ODDS_REQUIRE_BROWSER=1`` (CI
sets it), when that is a failure.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import html5lib
import pytest
from browser import Browser, chromium_path
from helpers import check_odds_table

from analyzer import analyze
from analyzer.paytables.library import load_paytable, priced_names
from analyzer.reports.i18n import LANGUAGES

# Slow throughout (every help page rendered in a real browser (chromium)):
# left out of the quick check, pytest -m 'not slow'.
pytestmark = pytest.mark.slow

SEED_PAGES = ("seed-game",)


@pytest.fixture(scope="module")
def browser():
    executable = chromium_path()
    if executable is None:
        if os.environ.get("BACCARAT_ODDS_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed")
    opened = Browser(executable)
    yield opened
    opened.close()


def build(folder: Path, *options: str) -> Path:
    """``baccarat-odds docs --site`` as a user runs it (the installed package, a process)."""
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "docs", "--site", str(folder), *options],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote ")
    return folder


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> list[Path]:
    """Every shipped paytable; and the seed game's pages again with their charts."""
    root = tmp_path_factory.mktemp("sites")
    return [build(root / "all"), build(root / "seed", "--paytable", "seed-game", "--eor")]


def test_every_page_renders_with_the_exact_figures(browser, sites) -> None:
    analyses = {name: analyze(paytable=load_paytable(name)) for name in priced_names()}
    rendered = 0
    for site in sites:
        index = browser.render(site / "index.html")
        assert index.messages == () and index.styled
        for page in sorted(site.glob("*/*.html")):
            name, lang = page.parent.name, page.stem
            assert lang in LANGUAGES
            shown = browser.render(page)
            assert shown.messages == (), (page, shown.messages)
            assert shown.images_loaded and shown.styled, page
            assert f'<html lang="{lang}"' in shown.dom
            check_odds_table(html5lib.parse(shown.dom, namespaceHTMLElements=False), analyses[name])
            rendered += 1
    assert rendered == 3 * (len(priced_names()) + 1)


def test_seed_pages_screenshots(browser, sites, tmp_path) -> None:
    keep = Path(os.environ.get("BACCARAT_ODDS_SCREENSHOTS") or tmp_path)
    keep.mkdir(parents=True, exist_ok=True)
    for name in SEED_PAGES:
        for lang in LANGUAGES:
            shown = browser.render(sites[1] / name / f"{lang}.html")
            assert shown.messages == ()
            png = shown.screenshot
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", png[16:24])
            # The whole page: rules, both tables, the odds and the chart, one above the other.
            assert width >= 1000 and height > 4000, (lang, width, height)
            (keep / f"{name}-{lang}.png").write_bytes(png)
