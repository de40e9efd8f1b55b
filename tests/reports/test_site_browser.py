"""The help pages as a reader sees them: Debian's ``chromium`` renders every page that
``docs --site`` builds for the shipped paytables, headless. The exact figures are read
back from the rendered DOM and compared with the analysis; no page may log a console
message (a missing stylesheet or image, a blocked request); the seed game's three pages,
and a site configured as an operator publishes it (name, logo, stylesheet, footer), are
kept as screenshots (in ``$BACCARAT_ODDS_SCREENSHOTS`` when set: CI keeps them).

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
from analyzer.paytables.library import library_names, load_paytable
from analyzer.reports.i18n import LANGUAGES
from analyzer.reports.site import site_games

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
    games, _ = site_games([(name, load_paytable(name)) for name in library_names()])
    analyses = {game.slug: analyze(paytable=game.paytable) for game in games}
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
        for page in sorted(site.glob("analyst/*/*.html")):  # the charts load
            shown = browser.render(page)
            assert shown.messages == () and shown.images_loaded and shown.styled, page
            assert "<img" in shown.dom
            rendered += 1
    assert rendered == 3 * (len(games) + 2)


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
            # The whole page: rules, both tables and the odds, one above the other (the chart
            # is on the analysts' page, never here).
            assert width >= 1000 and height > 4000, (lang, width, height)
            (keep / f"{name}-{lang}.png").write_bytes(png)


#: A logo as an operator might draw one: text and shapes, nothing that runs or loads.
LOGO = """<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48">
<rect width="160" height="48" rx="8" fill="#7a0f1d"/>
<circle cx="24" cy="24" r="14" fill="#f2c14e"/>
<text x="46" y="31" font-family="sans-serif" font-size="20" font-weight="bold"
 fill="#fff">ROYALE</text>
</svg>
"""
#: The operator's configuration: a hostile footer shows as text.
CONFIG = r"""operator = "Casino Royale <Online>"
logo = "logo.svg"
stylesheet = "brand.css"
footer = "Play responsibly: 18+ only. <script>alert(1)</script>\nLicensed by the Gaming Authority."
decimals = 3
"""


def test_a_configured_site_screenshots(browser, tmp_path) -> None:
    """A site as an operator publishes it: their name and logo in the header, their
    stylesheet after the shipped one, their footer, 3 decimals; rendered without a
    console message, the logo loaded, the operator's colours applied."""
    keep = Path(os.environ.get("BACCARAT_ODDS_SCREENSHOTS") or tmp_path)
    keep.mkdir(parents=True, exist_ok=True)
    (tmp_path / "logo.svg").write_text(LOGO)
    (tmp_path / "brand.css").write_text(
        "h1, h2 { color: #7a0f1d; } h2 { border-bottom-color: #f2c14e; }\n"
        "header.operator { border-bottom: 3px solid #7a0f1d; padding-bottom: 0.5rem; }\n"
    )
    (tmp_path / "site.toml").write_text(CONFIG)
    site = build(
        tmp_path / "site",
        "--paytable",
        "ez-baccarat",
        "--config",
        str(tmp_path / "site.toml"),
        "--eor",
    )
    for path, name in [
        (site / "ez-baccarat" / "en.html", "configured-ez-baccarat-en.png"),
        (site / "index.html", "configured-index.png"),
        (site / "analyst" / "ez-baccarat" / "en.html", "configured-analyst-en.png"),
    ]:
        shown = browser.render(path)
        assert shown.messages == (), (path, shown.messages)
        assert shown.images_loaded and shown.styled, path
        page = html5lib.parse(shown.dom, namespaceHTMLElements=False)
        header = page.find("body/header")
        assert "".join(header.itertext()).strip() == "Casino Royale <Online>"
        assert header.find("img").get("src").endswith("logo.svg")
        footer = [" ".join(p.itertext()) for p in page.find("body/footer")]
        assert footer[0] == "Play responsibly: 18+ only. <script>alert(1)</script>"
        assert page.find(".//script") is None
        colour = browser.evaluate("getComputedStyle(document.querySelector('h1')).color")
        assert colour == "rgb(122, 15, 29)", colour
        (keep / name).write_bytes(shown.screenshot)
    odds = html5lib.parse(
        (site / "ez-baccarat" / "en.html").read_text(encoding="utf-8"),
        namespaceHTMLElements=False,
    )
    cells = odds.findall(".//table[@class='odds']//td[@data-exact]")
    assert cells and all(len(td.text.rstrip("%").partition(".")[2]) == 3 for td in cells)
