"""The document model: what a command reports, built once, written in any format.

A :class:`Document` is a title and a sequence of blocks: :class:`Heading`,
:class:`Paragraph` and :class:`Table`. A table's :class:`Column` has a header (already in
the reader's language), a kind (``text``, ``count``, ``number``, ``percent``,
``fraction``) and its display rules (decimal places, a sign); its cells keep the exact
values (``Fraction``, ``int``, ``float``, text, or ``None`` for none), and each writer
(:mod:`analyzer.reports.writers`) shows them its own way: the text formats the display
string (:meth:`Column.display`), JSON and CSV the values themselves (a fraction as
``"p/q"``), a workbook numeric cells with their exact text beside them.

Some tables are for people (``audience="people"``: names, rounded percentages), some for
tools (``"tools"``: ids, exact values and floats under machine names, what a spreadsheet
or ``read_csv`` reads); most are for both. Text, Markdown, HTML, LaTeX and the workbook
show what people read; CSV writes the tables for tools; JSON writes the document's
``data`` where a command gives its JSON a shape of its own (an object with parts), else
the tables for tools as lists of records.

Nothing here imports pandas or Numba: ``play`` builds its document too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from fractions import Fraction
from typing import Any, Literal

from analyzer.records import record

#: The kinds of a column.
KINDS = ("text", "count", "number", "percent", "fraction")
Kind = Literal["text", "count", "number", "percent", "fraction"]
Audience = Literal["all", "people", "tools"]


@record
class Column:
    """A table's column: ``name`` is its header as people read it (translated), ``key``
    its name for tools (JSON keys, CSV headers; default the header).

    ``kind`` says what its cells are and how they show: ``text`` as written; ``count``
    a whole number (or an expected count, a fraction, as ``p/q``); ``number`` a real
    number with ``places`` decimals (all its digits without), times ``scale``;
    ``percent`` the same times 100 with ``%``; ``fraction`` an exact value as ``p/q``.
    ``signed`` shows a sign on every number (``+0.0123``); ``none`` is what a missing
    value (``None``) shows."""

    name: str
    kind: Kind = "text"
    places: int | None = None
    signed: bool = False
    scale: int = 1
    key: str | None = None
    none: str = "-"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r} (kinds: {', '.join(KINDS)})")

    @property
    def tool_name(self) -> str:
        return self.name if self.key is None else self.key

    def display(self, value: Any) -> str:
        """The cell as the text formats show it."""
        if value is None:
            return self.none
        if self.kind in ("number", "percent"):
            if isinstance(value, str):
                return value
            scale = self.scale * (100 if self.kind == "percent" else 1)
            # Exact times the scale, then rounded once (a Fraction's 100 * p/q is exact).
            shown = float(value * scale) if scale != 1 else float(value)
            sign = "+" if self.signed else ""
            places = "g" if self.places is None else f".{self.places}f"
            text = f"{shown:{sign}{places}}"
            return text + ("%" if self.kind == "percent" else "")
        if self.kind == "fraction" and isinstance(value, Fraction):
            return f"{value.numerator}/{value.denominator}"
        return str(value)


@record
class Heading:
    """A heading: level 1 is a document's title, 2 a section's."""

    text: str
    level: int = 1
    tight: bool = False


@record
class Paragraph:
    """Text people read; each of its lines on a line of its own. ``tight``: in plain
    text, on the line after the block before it, with no blank line between (a heading's
    subtitle, a table's caption). ``prose``: a note, wrapped in plain text at the page's
    width; else its lines are records (verdicts, findings), one line each."""

    text: str
    tight: bool = False
    prose: bool = False

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


@record
class Table:
    """Rows of cells under typed columns. ``index``: the first column labels the rows
    (laid out as row labels, the other columns right-aligned under their headers).
    ``labels``: how many first columns name a row (a bet, and its mode), repeated in
    each panel of a text table too wide for its line."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Any, ...], ...]
    audience: Audience = "all"
    index: bool = False
    tight: bool = False
    labels: int = 1

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"a row of {len(row)} cells under {len(self.columns)} columns")

    @property
    def header(self) -> list[str]:
        return [column.name for column in self.columns]

    def display_rows(self) -> list[list[str]]:
        """Every cell as the text formats show it."""
        return [
            [column.display(cell) for column, cell in zip(self.columns, row, strict=True)]
            for row in self.rows
        ]

    def records(self) -> list[dict[str, Any]]:
        """Each row as a record for tools: its cells under the columns' keys."""
        keys = [column.tool_name for column in self.columns]
        return [dict(zip(keys, row, strict=True)) for row in self.rows]


def table(columns: Sequence[Column], rows: Sequence[Sequence[Any]], **options: Any) -> Table:
    """A :class:`Table` of any sequences."""
    return Table(tuple(columns), tuple(tuple(row) for row in rows), **options)


def records_table(
    records: Sequence[dict[str, Any]],
    kinds: dict[str, Kind] | None = None,
    columns: Sequence[str] | None = None,
    **options: Any,
) -> Table:
    """A table for tools of ``records`` (each a mapping of the same keys, in order): a
    column per key (``columns``: these keys, in this order, a record's missing key
    None), of the kind ``kinds`` gives it, else of its first value's (a whole number a
    count, a float a number, a ``Fraction`` a fraction, anything else text)."""
    kinds = kinds or {}
    if columns is not None:
        keys = list(columns)
        extra = {key for record in records for key in record} - set(keys)
        if extra:
            raise ValueError(f"records with keys outside the columns: {sorted(extra)}")
    else:
        keys = list(dict.fromkeys(key for record in records for key in record))
    rows = [[record.get(key) for key in keys] for record in records]
    made = [
        Column(key, kinds.get(key) or _kind_of(row[k] for row in rows))
        for k, key in enumerate(keys)
    ]
    return table(made, rows, **{"audience": "tools", **options})


def _kind_of(cells: Any) -> Kind:
    value = next((cell for cell in cells if cell is not None), None)
    if isinstance(value, bool) or value is None:
        return "text"
    if isinstance(value, int):
        return "count"
    if isinstance(value, float):
        return "number"
    if isinstance(value, Fraction):
        return "fraction"
    return "text"


Block = Heading | Paragraph | Table


@record
class Document:
    """A report: its ``title`` (None: none), its ``blocks`` in order, and ``data``, the
    JSON value of a command whose JSON has a shape of its own (None: its tables for
    tools as records)."""

    title: str | None
    blocks: tuple[Block, ...] = ()
    data: Any = field(default=None, compare=False)

    def tables(self, audience: Literal["people", "tools"]) -> list[Table]:
        """The tables for people, or for tools (a table for all is both)."""
        return [
            block
            for block in self.blocks
            if isinstance(block, Table) and block.audience in ("all", audience)
        ]

    def people_blocks(self) -> list[Block]:
        """The title (a heading) and every block but the tables for tools only."""
        head: list[Block] = [] if self.title is None else [Heading(self.title, 1)]
        return head + [
            block
            for block in self.blocks
            if not (isinstance(block, Table) and block.audience == "tools")
        ]
