"""The ``baccarat-odds`` command line: the parser, and one way every command ends.

Each command is a module of this package with ``DESCRIPTION``, ``EXAMPLES``,
``add_arguments(parser)`` and ``run(args) -> (output, exit status)``, imported only when
its command runs (its help line is in :data:`COMMANDS`); options they share live in
:mod:`analyzer.cli.options`. A command module imports the analysis (pandas, Numba,
plotting) inside the functions that run it, never at its top: the parser, ``--help`` and
each command's help load none of it (a test checks the modules imported). Whatever
happens, the user sees the output, or one line on stderr and exit status 2 (bad input),
1 (a published claim failed) or 130 (interrupted).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import select
import sys
from collections.abc import Callable, Sequence

from analyzer.errors import PROG, AnalyzerError, tell
from analyzer.files import outputs_held
from analyzer.interrupts import (
    Interrupted,
    interrupt_requested,
    interrupts_noted,
    interrupts_raised,
    output_complete,
)

#: The commands, in the order ``--help`` lists them, with the line it gives each. A
#: command's module (:mod:`analyzer.cli.<name>`) is imported only when that command runs
#: or shows its own help: ``--help`` and ``play`` load no other command's imports.
COMMANDS = {
    "report": "exact house edge of every bet (default: the seed game, 8 decks)",
    "play": "deal one round from given cards and settle every bet",
    "verify": "check published figures in a claims file (or a shipped one, by name)",
    "certify": "find every figure a help page prints, tie each to a bet and check it exactly",
    "fit": "find the unknowns of a paytable's multipliers that published figures allow",
    "eor": "exact effect of removing one card of each rank on each bet, and counts",
    "simulate": "deal shoes and settle every bet on offer: Monte Carlo vs exact",
    "count": "which bets can a card counter beat, and what max round stops them?",
    "dealt": "the RTP a player meets over shoes as dealt: burn, cut card, max round",
    "docs": "write a paytable's odds tables in every format and language, or help pages (--site)",
    "solve": "solve the zero-sum game between Player and Banker (chemin de fer) exactly",
    "strategy": "the best play of each information set of a game with a decision, exactly",
    "audit": "check a log of dealt rounds: drawing rules, scores, cards of each shoe, payouts",
    "cache": "list or remove the runs kept for --resume in the user's cache folder",
}


def command_module(name: str):
    """The module of command ``name`` (``DESCRIPTION``, ``EXAMPLES``,
    ``add_arguments(parser)``, ``run(args)``)."""
    return importlib.import_module(f"analyzer.cli.{name}")


def _terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` finds it ($COLUMNS, else
    standard output's terminal, else 80), without importing shutil (and the compression
    modules it brings), which argparse does for every argument it adds."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's layout of help (descriptions and examples kept as written), as wide as
    the terminal less 2, as argparse makes it."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:  # fmt: skip
        width = _terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class _Top(argparse.HelpFormatter):
    """The top-level help's layout (argparse's own), at the same width."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:  # fmt: skip
        width = _terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


#: The options of the program itself, not of a command (given after one, they are said
#: to go before it, not taken for the command's nearest option).
_TOP_OPTIONS = ("--version",)
#: The hyphen and the dashes and minus sign that stand for it in text pasted from a page.
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212"


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2, an option is written
    whole (argparse's prefixes took ``count --shoe FILE`` for ``--shoes``, and said the
    file was not a whole number), and an option unknown to the command is answered with
    the command's nearest one."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        # A command's own parser (a subcommand's) names an option it does not know before
        # anything else: argparse would first ask for the required ones it was meant as.
        words = [] if args is None else list(args)
        words = words[: words.index("--")] if "--" in words else words
        asked_for_help = "-h" in words or "--help" in words  # (the help, whatever else)
        if args is not None and self._subparsers is None and not asked_for_help:
            import difflib

            known = [o for a in self._actions for o in a.option_strings]
            for given in args:
                if given == "--":
                    break
                # A word with a space is a value to argparse, never an option (a file
                # named "--my shoe.csv").
                name = given.split("=")[0]
                if name in known or " " in given:
                    continue
                if name.startswith("--"):
                    if name in _TOP_OPTIONS:
                        self.error(f"{name} goes before the command: {PROG} {name}")
                    near = difflib.get_close_matches(name.lower(), known, n=1, cutoff=0.7)
                    hint = f" (did you mean {near[0]}?)" if near else ""
                    self.error(f"unrecognized arguments: {name}{hint}")
                # An option with one dash, or a dash a word processor made (pasted from a
                # page): named when it is one of the command's written whole.
                whole = "--" + name.lstrip(_DASHES)
                if name[:1] in _DASHES and len(whole) > 3 and whole in known:
                    self.error(f"unrecognized arguments: {name} (did you mean {whole}?)")
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise AnalyzerError(message)


class _Version(argparse.Action):
    """--version, worked out when asked for (it digests the package's source files): the
    package version with that digest, and the git commit where run from a checkout."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from analyzer.runs.runner import program_version
        from analyzer.version import git_commit

        commit = git_commit()
        built = f" (git {commit})" if commit else ""
        sys.stdout.write(f"{parser.prog} {program_version()}{built}\n")
        parser.exit()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser: of every command, or, given the command line ``argv``, of the command
    it names only (the others listed by name and help line, their modules not imported)."""
    parser = _Parser(
        prog=PROG, description="Exact combinatorial odds for baccarat.", formatter_class=_Top
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    commands.required = True
    # The command is the first word not an option (the options before it, --help and
    # --version, take no value).
    named = None if argv is None else next((a for a in argv if not a.startswith("-")), "")
    for name, help_line in COMMANDS.items():
        if named is not None and name != named:
            if named not in COMMANDS:  # the list, for --help or an unknown command
                commands.add_parser(name, help=help_line, formatter_class=_Top)
            continue
        module = command_module(name)
        command = commands.add_parser(
            name,
            help=help_line,
            description=module.DESCRIPTION,
            epilog=module.EXAMPLES,
            # The description and examples are laid out by hand (examples keep their lines).
            formatter_class=_Formatter,
        )
        module.add_arguments(command)
        from analyzer.cli.options import file_options  # (the command's module imported it)

        # The files it reads and writes, as its options declare them (main checks them).
        command.set_defaults(run=module.run, file_options=file_options(command))
    return parser


#: Bytes written at a time: at most PIPE_BUF, so a pipe that polls writable takes a whole
#: chunk without blocking, and an interrupt is answered between two chunks.
_CHUNK = 4096
#: How long one wait for a full pipe or terminal lasts before the writer asks again
#: whether an interrupt came.
_WAIT_MS = 50


def _write_stdout(output: str, interrupted: Callable[[], bool]) -> int | None:
    """Write the result; ``None`` once all of it is written, or the number of bytes that
    went out before an interrupt stopped it. A closed or full standard output is one clear
    error; a reader that went away (piped into ``head``) had what it wanted."""
    if sys.stdout is None:
        raise AnalyzerError("cannot write the output: standard output is closed")
    buffer = getattr(sys.stdout, "buffer", None)
    try:
        sys.stdout.flush()
        if buffer is None:  # a text stream with no bytes beneath (an embedding program's)
            try:
                sys.stdout.write(output)
            except UnicodeEncodeError:
                raise AnalyzerError(
                    "cannot write the output: standard output cannot show these characters"
                ) from None
            sys.stdout.flush()
            return None
        try:
            data = output.encode(sys.stdout.encoding or "utf-8")
        except (UnicodeEncodeError, LookupError):
            # A terminal or pipe set to ASCII or Latin-1: the result is UTF-8 text (as every
            # file this tool writes), so it goes out as UTF-8 bytes rather than not at all.
            data = output.encode("utf-8")
        ready = _writable(buffer)
        for start in range(0, len(data), _CHUNK):
            while not ready():
                if interrupted():
                    return start
            if interrupted():
                return start
            buffer.write(data[start : start + _CHUNK])
            buffer.flush()
    except BrokenPipeError:  # e.g. piped into head: the reader has what it wanted
        _silence_stdout()
    except OSError as exc:
        _silence_stdout()
        raise AnalyzerError(f"cannot write the output: {exc.strerror or exc}") from None
    return None


def _writable(stream: object) -> Callable[[], bool]:
    """A function that waits a moment for ``stream`` to take a chunk without blocking, and
    says whether it will; always yes for a stream with no file descriptor to wait on."""
    try:
        descriptor = stream.fileno()  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return lambda: True
    waiting = select.poll()
    waiting.register(descriptor, select.POLLOUT)
    # An error or a hang-up is "ready" too: the write then says what is wrong.
    return lambda: bool(waiting.poll(_WAIT_MS))


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
    try:
        with interrupts_raised(), outputs_held() as move_outputs_in:
            argv = sys.argv[1:] if argv is None else list(argv)
            args = build_parser(argv).parse_args(argv)
            # Whatever the command, no output is written over a file it reads.
            from analyzer.cli.options import check_files_kept, progress_from_args, settle_format

            check_files_kept(args, args.file_options)
            settle_format(args)
            if not gc.isenabled():  # off while the modules loaded (analyzer.cli.console)
                # What start-up made (modules, classes, functions: some 10^5 objects)
                # lives as long as the process, so it is moved out of the collector's
                # sight: a collection during the command then looks only at what the
                # command makes (without, six collections took 5-7 ms of a `play`).
                gc.freeze()
                gc.enable()
            if sys.stdout is None:  # closed (>&-): said before the work, not after it
                raise AnalyzerError("cannot write the output: standard output is closed")
            with progress_from_args(args):
                output, status = args.run(args)
            # From here an interrupt is judged by what was written, never by when it came.
            with interrupts_noted() as interrupted:
                cut_at = _write_stdout(output, interrupted)
                if cut_at is None:
                    # Output files go into place only now: a failure above leaves none.
                    move_outputs_in()
                    output_complete()  # an interrupt from here on changes nothing
    except AnalyzerError as exc:
        tell(f"error: {exc}")
        return 2
    except Interrupted as exc:
        tell(str(exc))
        return 130
    except MemoryError:
        # What was asked for is too large for this machine's memory: the user's to change.
        tell(
            "error: out of memory: the paytable and options ask for more than this machine "
            "holds (fewer bets, shoes or --partition-size)"
        )
        return 2
    except KeyboardInterrupt:
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
    if cut_at is not None:
        tell(
            "interrupted while writing the output: it may be cut short"
            if cut_at
            else "interrupted: no output was written"
        )
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
