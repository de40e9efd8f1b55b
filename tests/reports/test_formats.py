"""The formats tables are written in, and their file name extensions."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import analyze
from analyzer.cli.main import build_parser
from analyzer.errors import AnalyzerError
from analyzer.reports.formats import EXTENSIONS, FORMATS
from analyzer.reports.i18n import LANGUAGES
from analyzer.reports.tables import render_report

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "tables" / "seed-game"


def test_every_format_has_its_own_extension() -> None:
    assert set(EXTENSIONS) == set(FORMATS)
    assert len(set(EXTENSIONS.values())) == len(FORMATS)
    assert EXTENSIONS["markdown"] == "md" and EXTENSIONS["latex"] == "tex"


def test_the_shipped_tables_are_one_file_per_format_and_language() -> None:
    shipped = sorted(str(p.relative_to(SHIPPED)) for p in SHIPPED.rglob("*") if p.is_file())
    assert shipped == sorted(
        f"{lang}/{name}.{EXTENSIONS[fmt]}"
        for lang in LANGUAGES
        for fmt in FORMATS
        for name in ("summary", "detail")
    )


def test_the_report_command_offers_every_format() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    option = next(a for a in commands["report"]._actions if a.dest == "format")
    assert tuple(option.choices) == FORMATS


def test_a_report_renders_in_every_format_and_no_other() -> None:
    analysis = analyze(decks=1, mode="commission", bets=["tie"])
    for fmt in FORMATS:
        assert render_report(analysis, fmt).endswith("\n")
    for bad in ("xml", "TEXT", "md"):
        with pytest.raises(AnalyzerError, match=f"^unknown format '{bad}'"):
            render_report(analysis, bad)
