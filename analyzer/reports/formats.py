"""The formats tables are written in, and the file name extension of each."""

from __future__ import annotations

FORMATS = ("text", "markdown", "csv", "html", "latex", "json")
#: File name extension of each format, for ``docs``.
EXTENSIONS = {
    "text": "txt",
    "markdown": "md",
    "csv": "csv",
    "html": "html",
    "latex": "tex",
    "json": "json",
}
