"""Writers: one document in every format (each command's own outputs are held byte for
byte in tests/reports/test_golden.py)."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest

from analyzer.errors import AnalyzerError
from analyzer.reports.document import Column, Document, Heading, Paragraph, records_table, table
from analyzer.reports.writers import (
    DOCUMENT_FORMATS,
    LATEX_NEEDS,
    WRITERS,
    csv_safe,
    latex_escape,
    latex_tabular,
    markdown_escape,
    write_document,
)


def sample() -> Document:
    people = table(
        [Column("Bet"), Column("Edge", "percent", places=4), Column("Ways", "count")],
        [["=HYPERLINK(1)", Fraction(1, 3), 10**17 + 1], ["Tie_*x*", None, 5]],
        audience="people",
    )
    tools = records_table(
        [
            {"bet": "=cmd", "edge": Fraction(1, 3), "max_round": 50},
            {"bet": "tie", "edge": Fraction(1, 7), "max_round": None},
        ],
        {"max_round": "count"},
    )
    blocks = (Paragraph("one\ntwo"), people, Heading("Part", 2), Paragraph("tight", tight=True))
    return Document("Title & <more>", (*blocks, tools))


def test_every_format_has_a_writer() -> None:
    assert set(WRITERS) == set(DOCUMENT_FORMATS)
    with pytest.raises(AnalyzerError, match="unknown format 'pdf'"):
        write_document(sample(), "pdf")


def test_text_lays_out_blocks_apart_and_tight_ones_together() -> None:
    text = write_document(sample(), "text")
    assert text == (
        "Title & <more>\n\none\ntwo\n\n"
        "Bet           Edge     Ways\n"
        "=HYPERLINK(1) 33.3333% 100000000000000001\n"
        "Tie_*x*       -                         5\n"
        "\nPart\ntight\n"
    )


def test_a_table_with_row_labels_is_laid_out_as_pandas_lays_out_an_index() -> None:
    import pandas as pd

    labelled = table(
        [Column(""), Column("with a long header"), Column("b")],
        [["row one", "1.0", "+2 ± 3"], ["second row", "-", "4"]],
        index=True,
    )
    frame = pd.DataFrame(
        {"with a long header": ["1.0", "-"], "b": ["+2 ± 3", "4"]}, index=["row one", "second row"]
    )
    expected = "\n".join(line.rstrip() for line in frame.to_string().splitlines()) + "\n"
    assert write_document(Document(None, (labelled,)), "text") == expected


def test_markdown_html_and_latex_escape_text_from_a_paytable() -> None:
    markdown = write_document(sample(), "markdown")
    assert markdown.startswith("## Title \\& \\<more\\>\n\none\\\ntwo\n")
    assert "Tie\\_\\*x\\*" in markdown and "### Part" in markdown
    html = write_document(sample(), "html")
    assert "<h2>Title &amp; &lt;more&gt;</h2>" in html and "<p>one<br>\ntwo</p>" in html
    latex = write_document(sample(), "latex")
    assert latex.startswith(LATEX_NEEDS + "\\section*{Title \\& <more>}") and "Tie\\_*x*" in latex
    assert markdown_escape("lucky_six *") == "lucky_six \\*"
    assert latex_escape("50% ~") == "50\\% \\textasciitilde{}"


def test_tools_read_exact_values_csv_safe_and_strict_json() -> None:
    csv = write_document(sample(), "csv")
    assert csv == "bet,edge,max_round\n'=cmd,1/3,50\ntie,1/7,\n"  # 50, not 50.0
    assert json.loads(write_document(sample(), "json")) == [
        {"bet": "=cmd", "edge": "1/3", "max_round": 50},
        {"bet": "tie", "edge": "1/7", "max_round": None},
    ]
    data = Document("t", (), {"x": float("nan")})
    assert write_document(data, "json") == '{\n  "x": null\n}\n'
    assert csv_safe("-0.5") == "-0.5" and csv_safe("@x") == "'@x"


def test_a_document_without_tools_tables_gives_its_people_tables_as_csv() -> None:
    shown = table([Column("a", "percent", places=1)], [[Fraction(1, 2)]], audience="people")
    assert write_document(Document("t", (shown,)), "csv") == "a\n50.0%\n"


def test_the_workbook_has_numbers_their_exact_text_and_never_a_formula() -> None:
    openpyxl = pytest.importorskip("openpyxl")
    data = write_document(sample(), "xlsx")
    assert isinstance(data, bytes) and data == write_document(sample(), "xlsx")  # same bytes
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert book.sheetnames == ["Report", "Data"]
    rows = [list(r) for r in book["Report"].iter_rows(values_only=True)]
    assert rows[0][0] == "Title & <more>"
    header = next(r for r in rows if r[0] == "Bet")
    assert header[:4] == ["Bet", "Edge", "Edge (exact)", "Ways"]
    first = rows[rows.index(header) + 1]
    assert first[0] == "=HYPERLINK(1)"  # text, not a formula
    assert first[1] == pytest.approx(1 / 3) and first[2] == "1/3"
    assert first[3] == "100000000000000001"  # beyond a double: its digits as text
    cell = book["Report"].cell(rows.index(header) + 2, 2)
    assert cell.data_type == "n" and cell.number_format == "0.0000%"
    assert book["Report"].cell(rows.index(header) + 2, 1).data_type == "s"
    data_rows = [list(r) for r in book["Data"].iter_rows(values_only=True)]
    assert data_rows[0][:4] == ["bet", "edge", "edge (exact)", "max_round"]
    assert data_rows[1][:4] == ["=cmd", pytest.approx(1 / 3), "1/3", 50]


@pytest.mark.parametrize(
    "cell",
    [
        "a\\ b",
        "\\\\x",
        "50%",
        "$&#_{}",
        "~ ~x^ ^y",
        "tab\there",
        "new\nline",
        "",
        " lead ",
        "ab2\u00a7=\u00a78yz q",
        "\u00e9\u4e2d",
        "\\textbf{x}",
        "nan",
        "None",
        "1.0",
        "-",
        "\r",
    ],
)
def test_latex_tables_are_written_as_pandas_writes_them(cell) -> None:
    """The LaTeX of a table of text cells is written without pandas (a frame and styler a
    table cost a detail document of 2,200 bets 20 s), exactly as pandas writes it."""
    import pandas as pd

    header = ["H_1", "%x", cell]
    rows = [[cell, "y", cell], ["1", cell, "z"]]
    expected = pd.DataFrame(rows, columns=header).to_latex(index=False, escape=True)
    assert latex_tabular(header, rows) == expected


def test_html_is_a_whole_page_that_opens_as_it_is_or_a_fragment_when_asked() -> None:
    """`--format html` was a bare pandas fragment: no page, no encoding, no style."""
    import html5lib

    page = write_document(sample(), "html")
    assert page.startswith("<!DOCTYPE html>\n") and page.endswith("</html>\n")
    tree = html5lib.parse(page, namespaceHTMLElements=False)
    assert tree.find("head/title").text == "Title & <more>"
    assert tree.find("head/meta").get("charset") == "utf-8"
    assert "border-collapse" in tree.find("head/style").text  # the help pages' stylesheet
    assert "<link" not in page and "<script" not in page  # nothing to fetch
    fragment = write_document(sample(), "html", fragment=True)
    assert fragment.startswith("<h2>Title &amp; &lt;more&gt;</h2>") and "<html" not in fragment
    assert fragment in page


def test_latex_says_what_its_tables_need() -> None:
    assert write_document(sample(), "latex").splitlines()[0] == (
        "% baccarat-odds: the tables need \\usepackage{booktabs} in the preamble"
    )


def test_markdown_aligns_numbers_right_and_text_left() -> None:
    lines = write_document(sample(), "markdown").splitlines()
    rule = next(line for line in lines if line.startswith("|:"))
    bet, edge, ways = (cell.strip() for cell in rule.strip("|").split("|"))
    assert bet.startswith(":") and not bet.endswith(":")  # text: left
    assert edge.endswith(":") and ways.endswith(":") and not edge.startswith(":")  # numbers
