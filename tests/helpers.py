"""Helpers shared by the test modules (every folder imports them as ``helpers``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path

from analyzer.cli.main import main

#: The head of a one-mode paytable file; bets follow.
HEAD = 'name = "t"\ndecks = 8\nmodes = ["m"]\n'


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_paytable(tmp_path: Path, text: str) -> Path:
    """A paytable file ``table.toml`` in ``tmp_path``."""
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def write_claims(tmp_path: Path, text: str) -> Path:
    """A claims file ``claims.toml`` in ``tmp_path``."""
    path = tmp_path / "claims.toml"
    path.write_text(text, encoding="utf-8")
    return path


def reference_ev(counts: Mapping, settle: Callable) -> Fraction:
    """The exact EV of a bet settled by ``settle`` (net per unit of an outcome key of
    tests/naive.py) over brute-force reference counts."""
    return sum(Fraction(w) * settle(key) for key, w in counts.items()) / sum(counts.values())
