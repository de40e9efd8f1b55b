"""The formats tables are written in, and the file name extension of each."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from analyzer.memo import Pattern

FORMATS = ("text", "markdown", "csv", "html", "latex", "json")
#: Formats that are files of bytes, not text (a workbook): written to a file (``--out``),
#: never to standard output.
BINARY_FORMATS = ("xlsx",)
#: Every format ``report`` writes.
REPORT_FORMATS = (*FORMATS, *BINARY_FORMATS)
#: File name extension of each format, for ``docs``.
EXTENSIONS = {
    "text": "txt",
    "markdown": "md",
    "csv": "csv",
    "html": "html",
    "latex": "tex",
    "json": "json",
}

#: A cell of a numeric column as the text tables lay it out: right-aligned to the others.
_NUMBER = Pattern(r"[-+]?[\d.]+%?")


#: The widest line of a text table (characters), unless asked for wide (``--wide``): a
#: wider table is laid out in panels, each at most this wide, the first column (what
#: names the rows) repeated in each.
TEXT_WIDTH = 100


def prose(text: str, width: int | None = TEXT_WIDTH) -> str:
    """Each line of ``text`` wrapped at a space to ``width`` columns (None: as it is), its
    continuation indented two spaces; a word is never cut (a long exact fraction stays
    whole, over the width)."""
    if width is None:
        return text
    return "\n".join(
        "\n".join(
            textwrap.wrap(
                line,
                width,
                subsequent_indent="  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
        or line
        for line in text.split("\n")
    )


def text_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int | None = TEXT_WIDTH,
    labels: int = 1,
) -> str:
    """A plain-text table of text cells, no line ending in spaces: a column of numbers
    (``+0.95``, ``12.5%``) right-aligned within its cells, any other left-aligned, each
    under its header on the left, one space between columns. Wider than ``width``, its
    headers take two lines (``Edge per`` over ``resolved bet``), and where that is still
    too wide it is laid out in panels (:func:`in_panels`). The layout of every text table
    (pandas' ``to_string`` gave it before; a test holds them equal), written without
    pandas so that ``play`` need not load it."""

    def laid_out(two_lines: bool) -> list[list[str]]:
        columns = []
        for c, name in enumerate(header):
            cells = [row[c] for row in rows]
            longest = max((len(cell) for cell in cells), default=0)
            names = header_lines(name) if two_lines else [name]
            column_width = max(longest, *map(len, names))
            if cells and all(_NUMBER.fullmatch(cell) for cell in cells):
                cells = [cell.rjust(longest) for cell in cells]
            columns.append([*(line.ljust(column_width) for line in names), *cells])
            columns[-1][len(names) :] = [cell.ljust(column_width) for cell in cells]
        return columns

    columns = laid_out(False)
    if width is not None and line_width(columns) > width:
        columns = laid_out(True)
        return in_panels(columns, width, labels, heading=2)
    return in_panels(columns, width, labels)


def header_lines(name: str) -> list[str]:
    """A header on two lines, split between words where the longer line is shortest
    (``["Edge per", "resolved bet"]``); a one-word header on the second line, under an
    empty one (headers stand on the table)."""
    words = name.split(" ")
    if len(words) < 2:
        return ["", name]
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return list(min(splits, key=lambda lines: max(map(len, lines))))


def line_width(columns: Sequence[Sequence[str]]) -> int:
    """The width of the lines of padded columns laid out one space apart."""
    return sum(len(column[0]) for column in columns) + len(columns) - 1


def in_panels(
    columns: Sequence[Sequence[str]],
    width: int | None = TEXT_WIDTH,
    labels: int = 1,
    heading: int = 1,
) -> str:
    """Columns of padded cells (header first) laid out one space apart, no line ending
    in spaces. Where the lines would be wider than ``width`` (None: never), the columns
    are cut into panels, one under another a blank line apart, each at most ``width``
    wide (but for a column wider than that alone), the first ``labels`` columns (what
    names a row) repeated at the left of each, as pandas lays out a frame too wide for
    its line. Of the ``heading`` lines of headers, one that is empty in a panel is left
    out of it."""

    def lines(panel: Sequence[Sequence[str]]) -> str:
        rows = [" ".join(parts).rstrip() for parts in zip(*panel, strict=True)]
        rows = [row for number, row in enumerate(rows) if row or number >= heading]
        return "\n".join(rows)

    wide = line_width
    if width is None or len(columns) <= labels or wide(columns) <= width:
        return lines(columns)
    head = list(columns[:labels])
    panels: list[list[Sequence[str]]] = []
    panel = list(head)
    for column in columns[labels:]:
        if len(panel) > labels and wide([*panel, column]) > width:
            panels.append(panel)
            panel = list(head)
        panel.append(column)
    panels.append(panel)
    return "\n\n".join(lines(panel) for panel in panels)


#: The mode shown for a bet whose figures are the same in every mode (shown once).
ALL_MODES = "all"


def fraction_text(value: Fraction | None) -> str | None:
    """Lowest terms as ``"p/q"`` (``Fraction`` is always reduced)."""
    if value is None:
        return None
    return f"{value.numerator}/{value.denominator}"


def same_in_every_mode(figures_by_mode: Mapping[str, Hashable], modes: Sequence[str]) -> bool:
    """The rule for showing a bet once, as applying to all modes (:data:`ALL_MODES`): it
    is offered in every one of ``modes`` (two or more), with the same figures in each.
    Every table people read (report, play, eor, simulate, the help pages) follows it."""
    if len(modes) < 2 or len(figures_by_mode) != len(modes):
        return False
    # (compared, not put in a set: hashing a Fraction finds a modular inverse, and a
    # report asked this of every bet)
    first, *others = figures_by_mode.values()
    return all(other is first or other == first for other in others)


def _json_ready(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(item) for item in value]
    if isinstance(value, np.generic):
        return _json_ready(value.item())
    return value


def json_text(value: Any) -> str:
    """Strict JSON (NaN and infinities become null, as JSON has neither), one newline."""
    import json  # (here: most commands print no JSON, and start faster without it)

    return json.dumps(_json_ready(value), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
