"""The one exception type for bad input, and the one way a line reaches the terminal."""

from __future__ import annotations

import io
import sys

import pytest

from analyzer.errors import PROG, AnalyzerError, one_line, tell


def test_bad_input_is_a_value_error() -> None:
    assert issubclass(AnalyzerError, ValueError)
    with pytest.raises(ValueError, match=r"^bad$"):
        raise AnalyzerError("bad")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text", "plain text"),
        ("a\nb", "a\\nb"),
        ("tab\there", "tab\\there"),
        ("\x1b[31mred", "\\x1b[31mred"),
        ("nul\x00", "nul\\x00"),
        ("Jeu \u00e9 \u2713", "Jeu \u00e9 \u2713"),  # printable: kept as it is
        ("a\u2028b", "a\\u2028b"),  # a line separator is not printable
    ],
)
def test_one_line_escapes_what_a_terminal_would_obey(text, shown) -> None:
    assert one_line(text) == shown
    assert "\n" not in one_line(text)


def test_tell_writes_one_line_on_stderr(capsys) -> None:
    tell("error: two\nlines")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"{PROG}: error: two\\nlines\n"


def test_tell_escapes_what_the_stream_cannot_encode(monkeypatch) -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr(sys, "stderr", stream)
    tell("caf\u00e9")
    stream.flush()
    assert raw.getvalue() == b"baccarat-odds: caf\\xe9\n"


def test_tell_never_fails_on_a_closed_or_missing_stderr(monkeypatch) -> None:
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stderr", closed)
    tell("nobody hears this")  # ValueError on a closed file is swallowed
    monkeypatch.setattr(sys, "stderr", None)
    tell("nor this")
