"""The document model: typed columns show their exact cells by one rule each."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from analyzer.reports.document import (
    Column,
    Document,
    Heading,
    Paragraph,
    Table,
    records_table,
    table,
)


def test_each_kind_of_column_shows_its_cells() -> None:
    assert Column("p", "percent", places=4).display(Fraction(1, 3)) == "33.3333%"
    assert Column("p", "percent", places=4).display(None) == "-"
    assert Column("r", "number", places=10, signed=True).display(Fraction(-1, 2)) == (
        "-0.5000000000"
    )
    assert Column("e", "number", places=5, signed=True, scale=100).display(0.001) == "+0.10000"
    assert Column("u", "number", signed=True).display(Fraction(19, 20)) == "+0.95"
    assert Column("n", "count").display(10**17 + 1) == "100000000000000001"
    assert Column("n", "count").display(Fraction(7, 2)) == "7/2"
    assert Column("f", "fraction").display(Fraction(2, 4)) == "1/2"
    assert Column("t").display("=1+1") == "=1+1"


def test_a_percentage_is_rounded_once_from_the_exact_value() -> None:
    value = Fraction(1, 8) / 100  # 0.125%: exactly half way at 2 places
    assert Column("p", "percent", places=2).display(value) == f"{float(100 * value):.2f}%"


def test_an_unknown_kind_and_a_ragged_row_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown column kind"):
        Column("x", "money")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a row of 1 cells under 2 columns"):
        table([Column("a"), Column("b")], [["x"]])


def test_records_take_their_kinds_from_their_values() -> None:
    made = records_table([{"a": 1, "b": 0.5, "c": Fraction(1, 3), "d": "x"}, {"a": None}])
    assert [c.kind for c in made.columns] == ["count", "number", "fraction", "text"]
    assert made.audience == "tools" and made.rows[1] == (None, None, None, None)
    assert made.records()[0] == {"a": 1, "b": 0.5, "c": Fraction(1, 3), "d": "x"}


def test_people_read_the_title_and_every_block_but_the_tools_tables() -> None:
    people = table([Column("a")], [["x"]], audience="people")
    tools = table([Column("a")], [["x"]], audience="tools")
    both = table([Column("a")], [["x"]])
    document = Document("T", (Paragraph("p"), people, tools, both))
    assert document.people_blocks() == [Heading("T"), Paragraph("p"), people, both]
    assert document.tables("tools") == [tools, both]
    assert document.tables("people") == [people, both]
    assert Document(None, (tools,)).people_blocks() == []
    assert isinstance(both, Table) and Paragraph("a\nb").lines == ["a", "b"]


def test_the_model_loads_neither_pandas_nor_numba() -> None:
    code = (
        "import sys, analyzer.reports.document, analyzer.reports.writers\n"
        "heavy = [m for m in ('pandas', 'numba', 'tabulate', 'xlsxwriter') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
