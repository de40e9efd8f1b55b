"""The formats tables are written in, and the file name extension of each."""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

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
_NUMBER = re.compile(r"[-+]?[\d.]+%?")


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table of text cells, no line ending in spaces: a column of numbers
    (``+0.95``, ``12.5%``) right-aligned within its cells, any other left-aligned, each
    under its header on the left, one space between columns. The layout of every text
    table (pandas' ``to_string`` gave it before; a test holds them equal), written without
    pandas so that ``play`` need not load it."""
    columns = []
    for c, name in enumerate(header):
        cells = [row[c] for row in rows]
        longest = max((len(cell) for cell in cells), default=0)
        width = max(len(name), longest)
        if cells and all(_NUMBER.fullmatch(cell) for cell in cells):
            cells = [cell.rjust(longest) for cell in cells]
        columns.append([name.ljust(width), *(cell.ljust(width) for cell in cells)])
    lines = (" ".join(parts).rstrip() for parts in zip(*columns, strict=True))
    return "\n".join(lines)


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
    return (
        len(modes) > 1
        and len(figures_by_mode) == len(modes)
        and len(set(figures_by_mode.values())) == 1
    )


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
