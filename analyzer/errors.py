"""The one exception type that user-facing code raises for bad input, and the one way a
line reaches the user's terminal on stderr.

The CLI turns an :class:`AnalyzerError` into a single line on stderr and exit status 2;
anything else escaping is a bug and keeps its traceback.
"""

from __future__ import annotations

import contextlib
import sys

PROG = "baccarat-odds"


class AnalyzerError(ValueError):
    """Bad input from the user: a card, a shoe, an option, a paytable or a claims file."""


def one_line(text: str) -> str:
    """``text`` with every control character shown as an escape: one line, and nothing
    (from a file name, say) that a terminal would obey."""
    return "".join(
        char if char.isprintable() or char == " " else char.encode("unicode_escape").decode()
        for char in text
    )


def tell(message: str) -> None:
    """Print ``baccarat-odds: message`` on stderr, as one line. A closed or broken stderr
    is no reason to fail, and never a reason to write on stdout instead."""
    stream = sys.stderr
    if stream is None:
        return
    line = f"{PROG}: {one_line(message)}\n"
    encoding = getattr(stream, "encoding", None) or "utf-8"
    # A terminal that cannot show a character gets its escape instead of an error.
    line = line.encode(encoding, "backslashreplace").decode(encoding, "replace")
    with contextlib.suppress(OSError, ValueError):
        stream.write(line)
        stream.flush()
