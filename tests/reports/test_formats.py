"""The formats tables are written in, and their file name extensions."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import analyze
from analyzer.cli.main import build_parser
from analyzer.errors import AnalyzerError
from analyzer.reports.formats import BINARY_FORMATS, EXTENSIONS, FORMATS, REPORT_FORMATS
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
        [
            f"{lang}/{name}.{EXTENSIONS[fmt]}"
            for lang in LANGUAGES
            for fmt in FORMATS
            for name in ("summary", "detail")
        ]
        + [f"{lang}/par-sheet.xlsx" for lang in LANGUAGES]  # the PAR sheet workbook
    )


def test_the_report_command_offers_every_format() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    option = next(a for a in commands["report"]._actions if a.dest == "format")
    assert tuple(option.choices) == REPORT_FORMATS == (*FORMATS, *BINARY_FORMATS)
    assert BINARY_FORMATS == ("xlsx",)


def test_a_report_renders_in_every_format_and_no_other() -> None:
    analysis = analyze(decks=1, mode="commission", bets=["tie"])
    for fmt in FORMATS:
        assert render_report(analysis, fmt).endswith("\n")
    for bad in ("xml", "TEXT", "md"):
        with pytest.raises(AnalyzerError, match=f"^unknown format '{bad}'"):
            render_report(analysis, bad)


HOSTILE_NAME = "<b>bold</b> \\write18{rm} | pipe | `tick` [link](http://x) *em* _u_ &amp; ~~s~~"


def test_markdown_shows_untrusted_text_as_written(tmp_path) -> None:
    """A paytable's names in Markdown: rendered (CommonMark with GitHub tables) they read
    as written, with no tag, link or emphasis, and every row keeps its cells."""
    import html5lib
    from markdown_it import MarkdownIt

    from analyzer import Shoe, paytable_from_dict

    paytable = paytable_from_dict(
        {
            "name": "<script>alert(1)</script> # | x",
            "modes": ["m"],
            "bet": [
                {
                    "id": "b1",
                    "name": HOSTILE_NAME,
                    "rule": [{"when": "winner == 'tie'", "pays": 8}],
                },
                {"id": "b2", "rule": [{"when": "winner == 'banker'", "pays": 1}]},
            ],
        }
    )
    text = render_report(analyze(paytable=paytable, shoe=Shoe.standard(1)), "markdown")
    page = MarkdownIt("commonmark").enable("table").enable("strikethrough").render(text)
    tree = html5lib.parse(page, namespaceHTMLElements=False)
    for tag in ("script", "b", "a", "em", "strong", "code", "s", "del"):
        assert tree.find(f".//{tag}") is None, tag
    heading = "".join(tree.find(".//h2").itertext())
    assert heading.startswith("<script>alert(1)</script> # | x: ")
    header = list(tree.iter("th"))
    rows = [row for row in tree.iter("tr") if row.find("td") is not None]
    assert len(rows) == 2 and all(len(row.findall("td")) == len(header) for row in rows)
    assert "".join(rows[0].find("td").itertext()) == HOSTILE_NAME


def test_markdown_keeps_names_that_look_like_numbers() -> None:
    """tabulate would print a bet named "1e3" as 1000 and "007" as 7."""
    from analyzer import Shoe, paytable_from_dict

    names = ["1e3", "007", "0.50", "nan"]
    paytable = paytable_from_dict(
        {
            "name": "n",
            "modes": ["m"],
            "bet": [
                {"id": f"b{i}", "name": name, "rule": [{"when": "winner == 'tie'", "pays": 8}]}
                for i, name in enumerate(names)
            ],
        }
    )
    text = render_report(analyze(paytable=paytable, shoe=Shoe.standard(1)), "markdown")
    cells = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")]
    assert cells[1:] == names


_CELLS = st.text(alphabet="ab AZ09+-.%_é", max_size=8)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda n: st.tuples(
            st.lists(
                st.from_regex(r"[abXY%]{1,6}( [abXY%]{1,6})?", fullmatch=True),
                min_size=n,
                max_size=n,
                unique=True,
            ),
            st.lists(st.lists(_CELLS, min_size=n, max_size=n), min_size=1, max_size=5),
        )
    )
)
def test_text_tables_are_laid_out_as_pandas_laid_them_out(table) -> None:
    """The text table written without pandas equals pandas' ``to_string`` as the tables
    used it (text columns left-aligned by a formatter, numbers as pandas aligns them),
    lines stripped of trailing spaces, on arbitrary cells: empty, numeric-looking, spaced."""
    import pandas as pd

    from analyzer.reports.formats import text_table

    header, rows = table
    frame = pd.DataFrame(rows, columns=header)
    formatters = {}
    for column in frame.columns:
        values = frame[column]
        if not values.str.match(r"^[-+]?[\d.]+%?$").all():
            width = max(len(column), *(len(v) for v in values))
            formatters[column] = f"{{:<{width}}}".format
    text = frame.to_string(index=False, formatters=formatters, justify="left")
    expected = "\n".join(line.rstrip() for line in text.splitlines())
    assert text_table(header, rows) == expected


# -- Text that fits its line ------------------------------------------------------------------


def _widths(text: str) -> list[int]:
    return [len(line) for line in text.splitlines()]


def test_a_wide_table_takes_its_headers_on_two_lines_then_panels() -> None:
    """`report` was 159 columns wide, `count --bet all` 209: a text table now fits 100."""
    from analyzer.reports.formats import TEXT_WIDTH, header_lines, text_table

    assert header_lines("Edge per resolved bet") == ["Edge per", "resolved bet"]
    assert header_lines("Bet") == ["", "Bet"]
    header = ["Bet", "Mode", *(f"Figure number {n}" for n in range(12))]
    rows = [["Banker", "commission", *("1.2345%" for _ in range(12))]]
    wide = text_table(header, rows, width=None)
    assert max(_widths(wide)) > TEXT_WIDTH and len(wide.splitlines()) == 2
    fitted = text_table(header, rows, labels=2)
    assert max(_widths(fitted)) <= TEXT_WIDTH
    panels = fitted.split("\n\n")
    assert len(panels) > 1
    for panel in panels:  # each panel: two header lines, the row, its labels repeated
        lines = panel.splitlines()
        assert len(lines) == 3 and lines[-1].startswith("Banker commission")
    # every figure is shown once, in order
    shown = [cell for panel in panels for cell in panel.splitlines()[-1].split()[2:]]
    assert shown == ["1.2345%"] * 12


def test_a_table_that_fits_is_unchanged_and_a_column_wider_than_the_line_stays_whole() -> None:
    from analyzer.reports.formats import text_table

    assert text_table(["Bet", "Edge"], [["Tie", "14.36%"]]) == "Bet Edge\nTie 14.36%"
    long = "x" * 150
    text = text_table(["Bet", "Condition"], [["Tie", long]])
    assert long in text  # never cut


@pytest.mark.parametrize(
    "argv",
    [
        ["report"],
        ["report", "--detail", "--paytable", "ez-baccarat"],
        ["eor"],
        ["play", "2S", "3H", "2D", "KC", "8H"],
    ],
)
def test_text_tables_of_the_commands_fit_100_columns_unless_wide(capsys, argv) -> None:
    from helpers import run

    from analyzer.reports.formats import TEXT_WIDTH

    code, out, _ = run(capsys, *argv)
    assert code == 0
    tables = [line for line in out.splitlines() if "  " in line]  # (prose has no runs)
    assert tables and max(map(len, tables)) <= TEXT_WIDTH
    if argv == ["report"]:  # 159 columns as it was
        code, wide, _ = run(capsys, *argv, "--wide")
        assert max(_widths(wide)) > TEXT_WIDTH
