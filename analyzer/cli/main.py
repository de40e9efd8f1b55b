"""The ``baccarat-odds`` command line: the parser, and one way every command ends.

Each command is a module of this package with ``HELP``, ``add_arguments(parser)`` and
``run(args) -> (output, exit status)``; options they share live in
:mod:`analyzer.cli.options`. Whatever happens, the user sees the output, or one line on
stderr and exit status 2 (bad input), 1 (a published claim failed) or 130 (interrupted).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from analyzer.cli import count, docs, eor, play, report, simulate, verify
from analyzer.errors import PROG, AnalyzerError, tell
from analyzer.files import outputs_held
from analyzer.interrupts import interrupt_requested, interrupts_raised
from analyzer.runs.runner import Interrupted, program_version

#: The commands, in the order ``--help`` lists them.
COMMANDS = {
    "report": report,
    "play": play,
    "verify": verify,
    "eor": eor,
    "simulate": simulate,
    "count": count,
    "docs": docs,
}


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise AnalyzerError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Exact combinatorial odds for baccarat.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {program_version()}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    commands.required = True
    for name, module in COMMANDS.items():
        command = commands.add_parser(name, help=module.HELP)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def _write_stdout(output: str) -> None:
    """Write the result; a closed or full standard output is one clear error."""
    if sys.stdout is None:
        raise AnalyzerError("cannot write the output: standard output is closed")
    try:
        try:
            sys.stdout.write(output)
        except UnicodeEncodeError:
            # A terminal or pipe set to ASCII or Latin-1: the result is UTF-8 text (as every
            # file this tool writes), so it goes out as UTF-8 bytes rather than not at all.
            buffer = getattr(sys.stdout, "buffer", None)
            if buffer is None:
                raise AnalyzerError(
                    "cannot write the output: standard output cannot show these characters"
                ) from None
            sys.stdout.flush()
            buffer.write(output.encode("utf-8"))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: the reader has what it wanted
        _silence_stdout()
    except OSError as exc:
        _silence_stdout()
        raise AnalyzerError(f"cannot write the output: {exc.strerror or exc}") from None


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush of what is
    still buffered cannot fail again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status: 0, 1 (a claim failed), 2 (an error), 130."""
    stage = "working"  # then "writing" the output, then "done"
    try:
        with interrupts_raised(), outputs_held() as move_outputs_in:
            args = build_parser().parse_args(argv)
            if sys.stdout is None:  # closed (>&-): said before the work, not after it
                raise AnalyzerError("cannot write the output: standard output is closed")
            output, status = args.run(args)
            stage = "writing"
            _write_stdout(output)
            # Output files go into place only now: a failure above leaves none behind.
            move_outputs_in()
            stage = "done"
    except AnalyzerError as exc:
        tell(f"error: {exc}")
        return 2
    except Interrupted as exc:
        tell(str(exc))
        return 130
    except KeyboardInterrupt:
        if stage == "done":  # everything is written: an interrupt now changes nothing
            return status
        if stage == "writing":
            tell("interrupted while writing the output: it may be cut short")
            return 130
        # Partitions a run saved are kept (the run's own message says so when it is
        # interrupted); no output, no output file.
        tell("interrupted: no output was written")
        return 130
    except Exception:
        if not interrupt_requested():
            raise  # a bug keeps its traceback
        # An interrupt inside a library (a C extension's import, say) can surface as
        # another exception: it is still the user's Ctrl-C.
        tell("interrupted: no output was written")
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
