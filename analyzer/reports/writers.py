"""Writers: a :class:`~analyzer.reports.document.Document` in each format.

One function per format, and :func:`write_document` to pick one by name: a new format is
one writer. Text and JSON (what ``play`` writes) import neither pandas nor anything
heavy; Markdown uses tabulate, HTML, LaTeX and CSV pandas' own writers (imported when
they run), the workbook XlsxWriter.

Blocks are separated by a blank line (in plain text a ``tight`` block follows on the
next line); a heading of level 1 is the title (``##`` in Markdown, ``<h2>`` in HTML,
``\\section*`` in LaTeX), level 2 a section.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.files import shipped_folder
from analyzer.memo import Pattern
from analyzer.reports.document import Block, Column, Document, Heading, Paragraph, Table
from analyzer.reports.formats import (
    FORMATS,
    TEXT_WIDTH,
    fraction_text,
    header_lines,
    in_panels,
    json_text,
    line_width,
    prose,
    text_table,
)

#: Every format a document is written in: the text formats and the workbook.
DOCUMENT_FORMATS = (*FORMATS, "xlsx")


# -- Escaping ----------------------------------------------------------------------------

#: What Markdown (CommonMark, GitHub tables) would read as markup in text from a
#: paytable: HTML tags and entities, emphasis, code, links (with no brackets there are
#: none, so parentheses stay as they are), table cells, headings, strike-through.
_MARKDOWN_SPECIALS = frozenset("\\`*_{}[]<>#|~&")


def markdown_escape(text: str) -> str:
    """Text as Markdown shows it literally: each special character escaped by a
    backslash (CommonMark escapes any ASCII punctuation so). An underscore inside a word
    (``lucky_six``) is never emphasis, and stays as it is."""
    out = []
    for i, char in enumerate(text):
        inside_word = char == "_" and text[i - 1 : i].isalnum() and text[i + 1 : i + 2].isalnum()
        out.append("\\" + char if char in _MARKDOWN_SPECIALS and not inside_word else char)
    return "".join(out)


_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    **{char: "\\" + char for char in "&%$#_{}"},
}


def latex_escape(text: str) -> str:
    """Text as LaTeX prints it literally: every special character escaped, one at a time
    (so an escape is never escaped again)."""
    return "".join(_LATEX_SPECIALS.get(char, char) for char in text)


#: A cell that is a number as this tool prints it: a decimal, a percentage or "p/q".
_NUMERIC_CELL = Pattern(r"[+-]?[0-9]+(\.[0-9]+)?(/[0-9]+)?%?")


def csv_safe(value: object) -> object:
    """A text cell that a spreadsheet would run as a formula (it starts with ``= + - @``,
    a tab or a carriage return) gets a leading apostrophe; numbers are left as they are."""
    if (
        isinstance(value, str)
        and value[:1] in ("=", "+", "-", "@", "\t", "\r")
        and not _NUMERIC_CELL.fullmatch(value)
        and value != "-"  # the tables' "none": text to any spreadsheet
    ):
        return "'" + value
    return value


def csv_text(frame: Any) -> str:
    """A pandas ``frame`` as CSV, text cells made safe to open in a spreadsheet."""
    import pandas as pd

    safe = frame.copy()
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(csv_safe)
    return safe.to_csv(index=False)


# -- Plain text ----------------------------------------------------------------------------


def _index_layout(table: Table, width: int | None) -> str:
    """A table whose first column labels the rows, as pandas lays out a frame with an
    index: the labels left-aligned, each other column right-aligned under its header
    (every cell after one space, as pandas leaves room for a sign), one space between;
    wider than ``width``, its headers on two lines, and if still too wide in panels."""
    rows = table.display_rows()

    def laid_out(two_lines: bool) -> list[list[str]]:
        columns = []
        for c, column in enumerate(table.columns):
            names = header_lines(column.name) if two_lines else [column.name]
            cells = [row[c] if c == 0 else " " + row[c] for row in rows]
            cell_width = max([*map(len, names), *map(len, cells)])
            align = str.ljust if c == 0 else str.rjust
            columns.append(
                [*(align(n, cell_width) for n in names), *(align(x, cell_width) for x in cells)]
            )
        return columns

    columns = laid_out(False)
    if width is not None and line_width(columns) > width:
        return in_panels(laid_out(True), width, table.labels, heading=2)
    return in_panels(columns, width, table.labels)


def _text_block(block: Block, width: int | None = TEXT_WIDTH) -> str:
    if isinstance(block, Table):
        if block.index:
            return _index_layout(block, width)
        return text_table(block.header, block.display_rows(), width, block.labels)
    if isinstance(block, Heading) or block.prose:
        return prose(block.text, width)
    # A record (a verdict, a finding, a check) stays one line whatever its length, so
    # that a reader can grep it.
    return block.text


def text_document(document: Document, width: int | None = TEXT_WIDTH) -> str:
    """Plain text, for people: a table's text columns left-aligned, its numbers
    right-aligned, no line ending in spaces; a table wider than ``width`` characters (None:
    no limit) in panels, its first column repeated in each."""
    parts: list[str] = []
    for block in document.people_blocks():
        if parts:
            parts.append("\n" if block.tight else "\n\n")
        parts.append(_text_block(block, width))
    return "".join(parts) + "\n"


# -- Markdown, HTML, LaTeX -------------------------------------------------------------------


def _markdown_table(table: Table) -> str:
    from tabulate import tabulate

    # Every cell as the text table shows it, taken as text: tabulate would read a bet
    # named "1e3" or "007" as a number and print 1000 or 7.
    header = [markdown_escape(name) for name in table.header]
    rows = [[markdown_escape(cell) for cell in row] for row in table.display_rows()]
    # Numbers right-aligned (the pipe table's "---:"), as the text table lays them out.
    align = ["left" if column.kind == "text" else "right" for column in table.columns]
    return tabulate(rows, header, tablefmt="pipe", disable_numparse=True, colalign=align)


def _markdown_block(block: Block) -> str:
    if isinstance(block, Table):
        return _markdown_table(block)
    if isinstance(block, Heading):
        return "#" * (block.level + 1) + " " + markdown_escape(block.text)
    return "\\\n".join(markdown_escape(line) for line in block.lines)  # hard line breaks


def _frame(table: Table) -> Any:
    """The table's display cells as a pandas frame (the first column as its index, for a
    table with row labels)."""
    import pandas as pd

    rows = table.display_rows()
    if not table.index:
        return pd.DataFrame(rows, columns=table.header)
    index = pd.Index([row[0] for row in rows], name=table.columns[0].name or None)
    return pd.DataFrame([row[1:] for row in rows], columns=table.header[1:], index=index)


def _html_block(block: Block) -> str:
    import html  # (here: its entity table costs a text command's start a millisecond)

    if isinstance(block, Table):
        return _frame(block).to_html(index=block.index, border=0)
    if isinstance(block, Heading):
        return f"<h{block.level + 1}>{html.escape(block.text)}</h{block.level + 1}>"
    return "<p>" + "<br>\n".join(html.escape(line) for line in block.lines) + "</p>"


def _pandas_latex_escape(text: str) -> str:
    """A cell as pandas' ``to_latex(escape=True)`` escapes it (pandas' own sequence of
    replacements, ``pandas.io.formats.style_render._escape_latex``)."""
    mark = "ab2\u00a7=\u00a78yz"
    return (
        text.replace("\\", mark)
        .replace(mark + " ", mark + "\\space ")
        .replace("&", "\\&")
        .replace("%", "\\%")
        .replace("$", "\\$")
        .replace("#", "\\#")
        .replace("_", "\\_")
        .replace("{", "\\{")
        .replace("}", "\\}")
        .replace("~ ", "~\\space ")
        .replace("~", "\\textasciitilde ")
        .replace("^ ", "^\\space ")
        .replace("^", "\\textasciicircum ")
        .replace(mark, "\\textbackslash ")
    )


def latex_tabular(header: list[str], rows: list[list[str]]) -> str:
    """A table of text cells (no row labels, at least one row) as pandas'
    ``to_latex(index=False, escape=True)`` writes it, without a pandas frame and styler
    per table: a detail document of 2,200 bets made 2,200 of them (20 s)."""
    lines = [
        "\\begin{tabular}{" + "l" * len(header) + "}",
        "\\toprule",
        " & ".join(map(_pandas_latex_escape, header)) + " \\\\",
        "\\midrule",
        *(" & ".join(map(_pandas_latex_escape, row)) + " \\\\" for row in rows),
        "\\bottomrule",
        "\\end{tabular}",
        "",
    ]
    return "\n".join(lines)


def _latex_block(block: Block) -> str:
    if isinstance(block, Table):
        rows = block.display_rows()
        if not block.index and rows:
            return latex_tabular(block.header, rows)
        return _frame(block).to_latex(index=block.index, escape=True)
    if isinstance(block, Heading):
        command = "\\section*{" if block.level == 1 else "\\subsection*{"
        return command + latex_escape(block.text) + "}"
    return " \\\\\n".join(latex_escape(line) for line in block.lines)


def _joined(document: Document, render: Callable[[Block], str]) -> str:
    return "\n\n".join(render(block) for block in document.people_blocks()) + "\n"


def markdown_document(document: Document) -> str:
    """Markdown (GitHub tables), text from a paytable escaped: it reads as written."""
    return _joined(document, _markdown_block)


def html_document(document: Document, fragment: bool = False) -> str:
    """A whole HTML page that opens as it is (UTF-8, the help pages' stylesheet inlined: no
    file or network to fetch), every text escaped; with ``fragment``, only its headings,
    paragraphs and pandas' tables, to paste into a page of one's own."""
    import html

    body = _joined(document, _html_block)
    if fragment:
        return body
    title = document.title or next(
        (block.text for block in document.people_blocks() if isinstance(block, Heading)),
        "baccarat-odds",
    )
    style = (shipped_folder("analyzer.reports", "site") / "style.css").read_text(encoding="utf-8")
    return (
        '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>\n{style}</style>\n</head>\n"
        f"<body>\n<main>\n{body}</main>\n</body>\n</html>\n"
    )


#: What a LaTeX document's preamble needs for these tables, said on their first line.
LATEX_NEEDS = "% baccarat-odds: the tables need \\usepackage{booktabs} in the preamble\n"


def latex_document(document: Document) -> str:
    """LaTeX (booktabs tables, as pandas writes them), every text escaped, its first line
    a comment saying the package the tables need."""
    return LATEX_NEEDS + _joined(document, _latex_block)


# -- For tools: CSV, JSON --------------------------------------------------------------------


def tool_value(value: Any) -> Any:
    """A cell as tools read it: an exact fraction as ``"p/q"``, anything else as it is."""
    return fraction_text(value) if isinstance(value, Fraction) else value


def tool_rows(table: Table) -> list[dict[str, Any]]:
    """A table's rows as tools read them, in JSON and CSV alike: a record per row, its
    cells under the columns' keys, exact fractions as ``"p/q"``."""
    return [{key: tool_value(cell) for key, cell in r.items()} for r in table.records()]


def _csv_table(table: Table) -> str:
    import pandas as pd

    frame = pd.DataFrame(tool_rows(table), columns=[c.tool_name for c in table.columns])
    for c, column in enumerate(table.columns):
        cells = [row[c] for row in table.rows]
        whole = all(cell is None or type(cell) is int for cell in cells)
        if whole and None in cells and any(type(cell) is int for cell in cells):
            # 50 and an empty cell, not 50.0 and NaN: built from the integers themselves
            # (through a float, a count over 2**53 would lose its last digits).
            if all(cell is None or -(2**63) <= cell < 2**63 for cell in cells):
                frame[column.tool_name] = pd.array(cells, dtype="Int64")
            else:
                frame[column.tool_name] = pd.Series(cells, dtype=object)
    return csv_text(frame)


def csv_document(document: Document) -> str:
    """The tables for tools as CSV (one after another, a blank line between), text cells
    safe to open in a spreadsheet; a document with none gives its tables for people."""
    tables = document.tables("tools") or document.tables("people")
    if document.tables("tools"):
        return "\n".join(_csv_table(t) for t in tables)
    shown = [table_of_display(t) for t in tables]
    return "\n".join(_csv_table(t) for t in shown)


def table_of_display(table: Table) -> Table:
    """The table with every cell as people read it (text columns)."""
    columns = tuple(Column(c.name, key=c.name) for c in table.columns)
    return Table(columns, tuple(map(tuple, table.display_rows())), audience=table.audience)


def json_document(document: Document) -> str:
    """Strict JSON: the document's data (every command's follows its contract,
    :mod:`analyzer.reports.contract`), or its tables for tools as lists of records (one
    table: a list)."""
    if document.data is not None:
        return json_text(document.data)
    tables = [tool_rows(t) for t in document.tables("tools")]
    return json_text(tables[0] if len(tables) == 1 else tables)


# -- The workbook ----------------------------------------------------------------------------

#: The creation date written into every workbook: the date XlsxWriter gives the files
#: inside it, so that one document always gives the same bytes.
CREATED = datetime(1980, 1, 1, tzinfo=UTC)


def open_workbook(buffer: io.BytesIO, title: str) -> Any:
    """An XlsxWriter workbook writing into ``buffer``, titled ``title`` and dated
    :data:`CREATED`, that never makes a string a formula, a number or a link (text from a
    paytable or a log stays text, even written with ``write``)."""
    import xlsxwriter  # only here: no command loads it before it writes a workbook

    options = {
        "in_memory": True,
        "strings_to_formulas": False,
        "strings_to_numbers": False,
        "strings_to_urls": False,
    }
    book = xlsxwriter.Workbook(buffer, options)
    book.set_properties({"title": title[:255], "created": CREATED})
    return book


#: Integers a spreadsheet's double holds exactly; a larger count is written as text.
_EXACT_DOUBLE = 2**53


def _xlsx_format(column: Column) -> str:
    if column.places is None and column.kind in ("number", "fraction"):
        return "General"
    places = column.places if column.places is not None else 4
    decimals = "0." + "0" * places if places else "0"
    if column.kind == "percent":
        return decimals + "%"
    if column.kind == "count":
        return "0"
    return decimals


def _number(column: Column, value: Any) -> float | None:
    """The cell as a spreadsheet's number (a percentage as its fraction of 1: the
    display format multiplies), or None where it is not one (text, none, an expected
    count, a count larger than a double holds)."""
    if column.kind == "text" or isinstance(value, bool):
        return None
    if not isinstance(value, (int, float, Fraction)):
        return None
    if column.kind == "count" and (not isinstance(value, int) or abs(value) >= _EXACT_DOUBLE):
        return None
    number = float(value * column.scale) if column.scale != 1 else float(value)
    return number if math.isfinite(number) else None


def _write_table(sheet: Any, row: int, table: Table, formats: Callable[[str], Any]) -> int:
    """Write ``table`` from ``row``: a header, then each row; a column of exact values
    (fractions) gets their text (``p/q``) in a column beside it. The next free row."""
    layout: list[tuple[int, Column, bool]] = []
    col = 0
    for c, column in enumerate(table.columns):
        exact = column.kind != "text" and any(isinstance(r[c], Fraction) for r in table.rows)
        layout.append((col, column, exact))
        sheet.write_string(row, col, column.name, formats("header"))
        if exact:
            sheet.write_string(row, col + 1, f"{column.name} (exact)", formats("header"))
        col += 2 if exact else 1
    numbers = {col: formats(_xlsx_format(column)) for col, column, _ in layout}
    for r, cells in enumerate(table.rows, start=row + 1):
        for (col, column, exact), value in zip(layout, cells, strict=True):
            number = _number(column, value)
            if number is not None:
                sheet.write_number(r, col, number, numbers[col])
            else:
                sheet.write_string(r, col, column.display(value))
            if exact:
                shown = tool_value(value) if isinstance(value, Fraction) else column.display(value)
                sheet.write_string(r, col + 1, str(shown))
    return row + len(table.rows) + 2


def xlsx_document(document: Document) -> bytes:
    """A workbook: a ``Report`` sheet with what people read (the title, headings and
    paragraphs as text; each table's numbers as numeric cells with a display format,
    an exact value's ``p/q`` beside it), and a ``Data`` sheet with the tables for tools
    only, where there are some. Text is always a text cell, never a formula."""
    buffer = io.BytesIO()
    with open_workbook(buffer, document.title or "") as book:
        styles: dict[str, Any] = {
            "title": book.add_format({"bold": True, "font_size": 14}),
            "heading": book.add_format({"bold": True}),
            "header": book.add_format({"bold": True, "bottom": 1}),
        }

        def formats(name: str) -> Any:  # a style, or a number format made once
            if name not in styles:
                styles[name] = book.add_format({"num_format": name})
            return styles[name]

        sheet = book.add_worksheet("Report")
        row = 0
        for block in document.people_blocks():
            if isinstance(block, Heading):
                style = formats("title" if block.level == 1 else "heading")
                sheet.write_string(row, 0, block.text, style)
                row += 2
            elif isinstance(block, Paragraph):
                for line in block.lines:
                    sheet.write_string(row, 0, line)
                    row += 1
                row += 1
            else:
                row = _write_table(sheet, row, block, formats)
        tools = [t for t in document.tables("tools") if t.audience == "tools"]
        if tools:
            data = book.add_worksheet("Data")
            row = 0
            for block in tools:
                row = _write_table(data, row, block, formats)
    return buffer.getvalue()


# -- By name ---------------------------------------------------------------------------------

WRITERS: dict[str, Callable[[Document], str | bytes]] = {
    "text": text_document,
    "markdown": markdown_document,
    "csv": csv_document,
    "html": html_document,
    "latex": latex_document,
    "json": json_document,
    "xlsx": xlsx_document,
}


def write_document(
    document: Document, fmt: str, *, fragment: bool = False, width: int | None = TEXT_WIDTH
) -> str | bytes:
    """``document`` in ``fmt`` (text for every format but the workbook's bytes); HTML as
    a whole page, or with ``fragment`` its body only; text at most ``width`` characters a
    line (None: as wide as its tables)."""
    writer = WRITERS.get(fmt)
    if writer is None:
        raise AnalyzerError(f"unknown format {fmt!r} (formats: {', '.join(WRITERS)})")
    if fmt == "html":
        return html_document(document, fragment=fragment)
    if fmt == "text":
        return text_document(document, width)
    return writer(document)
