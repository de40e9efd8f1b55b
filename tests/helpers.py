"""Helpers shared by the test modules."""

from __future__ import annotations

from analyzer.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
