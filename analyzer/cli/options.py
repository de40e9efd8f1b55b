"""Options shared by the commands, each defined and validated once.

Every value is checked when the command line is parsed, before any work starts or any
file or folder is created: a bad one is one line and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError, tell
from analyzer.game.cards import parse_cards
from analyzer.game.rules import Strategy, parse_strategy
from analyzer.game.shoe import INFINITE, MAX_DECKS, Decks, Shoe, decks_problem, shoe_from_file
from analyzer.memo import Pattern
from analyzer.paytables.library import SEED_GAME, is_path, load_paytable
from analyzer.paytables.model import (
    DECISION_COMMANDS,
    EVERY_GAME_COMMANDS,
    Paytable,
    with_values,
)
from analyzer.reports.formats import BINARY_FORMATS, TEXT_WIDTH
from analyzer.reports.i18n import LANGUAGES
from analyzer.schema import exact_number

if TYPE_CHECKING:  # the analysis (pandas, Numba) is imported when a command runs it
    from analyzer.analysis.exact import Analysis

_WHOLE = Pattern(r"^\s*[+-]?[0-9]{1,30}\s*$")


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, read without surprises
    (no floats, no numbers of thousands of digits)."""

    def parse(text: str) -> int:
        if not _WHOLE.match(text):
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise argparse.ArgumentTypeError(f"not a whole number: {shown!r}")
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low:,}, got {value:,}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, got {value:,}")
        return value

    return parse


positive_int = whole_number(1, 10**9)


def decks_number(text: str) -> Decks:
    """An argparse type: a number of decks the exact engine can count, or ``inf`` (the
    infinite deck: cards dealt with replacement)."""
    if text.strip().lower() in ("inf", "infinite"):
        return INFINITE
    try:
        value = whole_number(-(10**30), 10**30)(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (or inf, for the infinite deck)") from None
    if not 1 <= value <= MAX_DECKS:
        raise argparse.ArgumentTypeError(f"{decks_problem(value)} (or inf, for the infinite deck)")
    return value


#: A decimal number as people write it: ASCII digits, a point, an exponent (float() also
#: takes "1_000", other scripts' digits and "nan").
_DECIMAL = Pattern(
    r"^\s*[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,4})?\s*$"
)


def finite_number(text: str) -> float:
    """An argparse type: a finite real number in decimal notation (no nan, no inf)."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is not None and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {shown!r}")
    if value is None or not _DECIMAL.match(text):
        raise argparse.ArgumentTypeError(f"not a decimal number: {shown!r}")
    return value


# -- Files read and written: no output over an input -----------------------------------------
#
# Every option (or argument) that names a file a command reads or writes is declared so
# where it is added; once the command line is parsed, main refuses an output that names
# an input (check_files_kept), whatever the command, before any of its work.


def reads(action: argparse.Action, what: str, *, names: bool = False) -> argparse.Action:
    """Declare ``action`` (an option or argument) to name a file the command reads,
    ``what`` as a refusal names it; ``names``: or a shipped name (not a file of the
    user's: not checked, see :func:`~analyzer.paytables.library.is_path`)."""
    action.file_role = ("reads", what, names)  # type: ignore[attr-defined]
    return action


def writes(
    action: argparse.Action, folder: bool | Callable[[], Iterable[str]] = False
) -> argparse.Action:
    """Declare ``action`` to name a file the command writes; ``folder``: a folder, True
    where it is replaced whole, or a function of the files written in it (relative paths)."""
    action.file_role = ("writes", folder)  # type: ignore[attr-defined]
    return action


def file_options(parser: argparse.ArgumentParser) -> tuple[argparse.Action, ...]:
    """The options and arguments of ``parser`` declared by :func:`reads` or :func:`writes`."""
    return tuple(a for a in parser._actions if hasattr(a, "file_role"))


def check_files_kept(args: argparse.Namespace, actions: Iterable[argparse.Action]) -> None:
    """Refuse, before any work, an output of ``args`` (as ``actions`` declare) that would be
    written over an input: one line, nothing written (:func:`analyzer.files.check_inputs_kept`)."""
    from analyzer.files import check_inputs_kept

    inputs: list[tuple[str, str]] = []
    outputs: list[tuple[str, str, str | None]] = []
    for action in actions:
        value = getattr(args, action.dest, None)
        given = [] if value is None else value if isinstance(value, list) else [value]
        option = action.option_strings[-1] if action.option_strings else ""
        role, *how = action.file_role  # type: ignore[attr-defined]
        for path in map(str, given):
            if not path:  # (refused by the command itself: "name a file")
                continue
            if role == "reads":
                what, names = how
                if not names or is_path(path):
                    inputs.append((f"{what} ({option + ' ' if option else ''}{path})", path))
            elif how[0] is False:
                outputs.append((option, path, path))
            elif how[0] is True:
                outputs.append((option, path, None))
            else:
                outputs += [(option, path, os.path.join(path, name)) for name in how[0]()]
    check_inputs_kept(outputs, inputs)


def add_paytable_option(parser: argparse.ArgumentParser) -> None:
    """--paytable, and --strategy: how its rules' decision cells are played."""
    reads(
        parser.add_argument(
            "--paytable",
            default=SEED_GAME,
            metavar="FILE|NAME",
            help="a paytable .toml file or a shipped name (default: seed-game)",
        ),
        "the paytable read",
        names=True,
    )
    parser.add_argument(
        "--strategy",
        type=strategy_option,
        default=None,
        metavar="CELL=CHOICE,...|best",
        help='how the decision cells of the paytable\'s rules are played, e.g. "player:5=draw" '
        'or "player:5=9/11,banker:3/9=stand" (Banker cells: total/third-card value or '
        "total/stood); best: each hand's cells for its own bet's EV (default: the "
        "paytable's [strategy])",
    )
    parser.add_argument(
        "--jackpot",
        type=meter_option,
        default=None,
        metavar="AMOUNT",
        help="the meter of the paytable's progressive jackpots, in stakes (default: the "
        "paytable's)",
    )
    add_unknowns_option(parser)


def add_decisions_option(parser: argparse.ArgumentParser) -> None:
    """``--decisions FILE``: a player's decision played as a strategy table says."""
    reads(
        parser.add_argument(
            "--decisions",
            default=None,
            metavar="FILE",
            help="a paytable with a player's decision played as FILE says instead of its "
            "best play: a strategy table as 'strategy --format csv' (or json) writes it, its "
            "best (or an action) column the action of each information set (default: each "
            "bet's best play)",
        ),
        "the decisions read",
    )


def add_unknowns_option(parser: argparse.ArgumentParser) -> None:
    """``--unknowns``: values of a paytable's unknowns."""
    parser.add_argument(
        "--unknowns",
        type=unknowns_option,
        default=None,
        metavar="NAME=VALUE,...",
        help="values of the unknowns of a paytable's [multipliers] or of its [decision]'s "
        'cards shown (e.g. "p=0.3,q=1/4"; see fit for what published figures allow; '
        "default: none given)",
    )


def meter_option(text: str) -> Fraction:
    """An argparse type: a jackpot meter, an exact number of stakes."""
    try:
        return exact_number(text.strip().replace(",", ""), "--jackpot", "the meter")
    except AnalyzerError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--jackpot: ")) from None


def unknowns_option(text: str) -> dict[str, Fraction]:
    """An argparse type: ``p=0.3,q=1/4``, exact values of a paytable's unknowns."""
    out: dict[str, Fraction] = {}
    for item in [part.strip() for part in text.split(",") if part.strip()][:10]:
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise argparse.ArgumentTypeError(f"{item[:30]!r}: write NAME=VALUE, e.g. p=0.3")
        if name.strip() in out:
            raise argparse.ArgumentTypeError(f"{name.strip()[:20]!r} is given twice")
        try:
            out[name.strip()] = exact_number(value.strip(), "--unknowns", name.strip()[:20])
        except AnalyzerError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix("--unknowns: ")) from None
    return out


def strategy_option(text: str) -> Strategy | str:
    """An argparse type: a strategy (checked against the rules once the paytable is read)
    or ``best``."""
    if text.strip().lower() == "best":
        return "best"
    try:
        return parse_strategy(text, "--strategy")
    except AnalyzerError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--strategy: ")) from None


#: The commands that take a paytable of any game (the others deal punto banco's hands);
#: strategy takes a game with a decision, and says so of any other.
_EVERY_GAME = (*EVERY_GAME_COMMANDS, "strategy")


def paytable_from_args(args: argparse.Namespace) -> Paytable:
    """The paytable --paytable names, its decision cells played as --strategy says (with
    ``best``, the best play for the main bets on the command's shoe, told on stderr)."""
    paytable = load_paytable(args.paytable)
    command = getattr(args, "command", None)
    if command not in _EVERY_GAME:
        paytable.require_punto_banco(f"'{command}'")
    if command not in DECISION_COMMANDS:
        paytable.require_played_as_dealt(f"'{command}'")
    paytable = with_values(
        paytable,
        unknowns=getattr(args, "unknowns", None),
        jackpot=getattr(args, "jackpot", None),
    )
    chosen = getattr(args, "strategy", None)
    if chosen == "best":
        from analyzer.analysis.strategy import told_best_strategy

        shoe = shoe_from_args(args, paytable.decks) if hasattr(args, "shoe") else None
        chosen = told_best_strategy(paytable, shoe, tell)
    if chosen is not None:
        paytable = paytable.with_strategy(chosen)
    decisions = getattr(args, "decisions", None)
    if decisions is not None:
        from analyzer.paytables.played import read_decisions

        paytable = read_decisions(paytable, decisions)
    paytable.mixture  # noqa: B018 - undecided cells are one line before any work
    return paytable


def add_decks_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--decks",
        type=decks_number,
        default=None,
        help="number of 52-card decks, 1 to 27, or inf: an infinite deck, cards dealt with "
        "replacement (default: the paytable's)",
    )


def add_shoe_options(parser: argparse.ArgumentParser) -> None:
    """--decks, --remove and --shoe: the shoe a command works on."""
    add_decks_option(parser)
    parser.add_argument(
        "--remove",
        action="append",
        metavar="CARDS",
        help='cards dealt out of the shoe, e.g. "5H 5H KS 9D"; a bare rank (5) removes a card '
        "of unknown suit (repeatable)",
    )
    reads(
        parser.add_argument(
            "--shoe",
            metavar="FILE",
            help="the shoe's counts: a CSV or TOML file, per rank or card (default: none, "
            "the full shoe of --decks)",
        ),
        "the shoe file read",
    )


def shoe_from_args(args: argparse.Namespace, decks: int) -> Shoe:
    """The shoe that --decks, --shoe and --remove describe."""
    if args.shoe is not None and args.decks is not None:
        raise AnalyzerError("give --decks or --shoe, not both")
    shoe = shoe_from_file(args.shoe) if args.shoe else Shoe.standard(args.decks or decks)
    removed = getattr(args, "remove", None)  # (dealt takes --shoe but no --remove)
    if removed:
        shoe = shoe.remove(parse_cards(removed, suit_required=False))
    return shoe


def shoe_fields(args: argparse.Namespace, shoe: Shoe, decks: Decks) -> dict[str, Any]:
    """``shoe`` (the one :func:`shoe_from_args` made) as the JSON contract writes it: the
    decks it was made of (``decks``, the paytable's, unless --decks; none for --shoe) and
    the cards --remove took out of it, as given."""
    from analyzer.reports.contract import shoe_record

    removed = parse_cards(args.remove, suit_required=False) if args.remove else []
    base = None if args.shoe else (args.decks or decks)
    return shoe_record(shoe, base, removed)


def add_mode_option(parser: argparse.ArgumentParser, default: str | None, help: str) -> None:
    parser.add_argument("--mode", default=default, help=help)


def add_format_option(
    parser: argparse.ArgumentParser, formats: tuple[str, ...], out: str | None = None
) -> None:
    """``--format``; with ``out`` (the command's report-file option), its default is the
    format that file's suffix names (:func:`settle_format`), else text."""
    default = "text, for people to read"
    if out is not None:
        suffixes = " ".join(SUFFIX_FORMATS)
        default = f"text, or the one {out} FILE's suffix names: {suffixes}"
    parser.add_argument(
        "--format",
        choices=formats,
        default=None if out is not None else "text",
        help=f"output format: {', '.join(formats)} (default: {default})",
    )
    if "text" in formats:
        parser.add_argument(
            "--wide",
            action="store_true",
            help=f"with text, each table as wide as its columns (default: at most "
            f"{TEXT_WIDTH} characters a line, a wider table in panels, what names a row "
            "repeated in each)",
        )
    if "html" in formats:
        parser.add_argument(
            "--fragment",
            action="store_true",
            help="with HTML, only the headings, paragraphs and tables, to paste into a page "
            "of your own (default: a whole page that opens as it is)",
        )


#: The format each report file suffix names (``--out par.xlsx`` writes the PAR sheet).
SUFFIX_FORMATS = {
    ".txt": "text",
    ".md": "markdown",
    ".csv": "csv",
    ".html": "html",
    ".htm": "html",
    ".tex": "latex",
    ".json": "json",
    ".xlsx": "xlsx",
}


def layout(args: argparse.Namespace) -> dict[str, Any]:
    """How the command's document is laid out (``write_document``'s options): ``--wide``
    and ``--fragment``, where the command has them."""
    return {
        "width": None if getattr(args, "wide", False) else TEXT_WIDTH,
        "fragment": getattr(args, "fragment", False),
    }


def settle_format(args: argparse.Namespace) -> None:
    """A command whose ``--format`` follows its report file: without ``--format`` the
    format is the one the file's suffix names (text without a file, or for a suffix that
    names none); a suffix naming another format than ``--format`` is refused before any
    work (a file ``par.xlsx`` of text, or ``x.json`` of a table, is always a mistake).
    ``--wide`` and ``--fragment`` are refused with any other format than theirs."""
    if not hasattr(args, "format"):
        return
    if not hasattr(args, "report_out"):
        _check_layout(args)
        return
    path = args.report_out
    named = None if path is None else SUFFIX_FORMATS.get(os.path.splitext(path)[1].lower())
    if args.format is None:
        args.format = named or "text"
    elif named is not None and named != args.format:
        raise AnalyzerError(
            f"{args.report_out_option} {path} names {named} but --format is {args.format}: "
            f"give a file ending in the format's suffix, or leave --format out"
        )
    _check_layout(args)


def _check_layout(args: argparse.Namespace) -> None:
    if getattr(args, "fragment", False) and args.format != "html":
        raise AnalyzerError(f"--fragment is for --format html, not {args.format}")
    if getattr(args, "wide", False) and args.format != "text":
        raise AnalyzerError(f"--wide is for --format text, not {args.format}")


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="bet names and headers in English, Tagalog or Malay (default en)",
    )


def add_bet_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bet", action="append", metavar="ID", help="only this bet (repeatable); default every bet"
    )


def exact_analysis(args: argparse.Namespace, paytable: Paytable, **options: Any) -> Analysis:
    """The exact analysis of ``paytable`` on the shoe the options describe; a rule that
    settles no round is a warning on stderr."""
    from analyzer.analysis.exact import analyze

    analysis = analyze(paytable=paytable, shoe=shoe_from_args(args, paytable.decks), **options)
    for warning in analysis.warnings():
        tell(f"warning: {warning}")
    return analysis


#: The file name ending a report file must have for each binary format.
REPORT_SUFFIXES = {"xlsx": (".xlsx",)}


def add_report_out_option(parser: argparse.ArgumentParser, option: str = "--out") -> None:
    """The option that writes the report (what standard output shows) to a file, as
    ``report --out`` does: whole or not at all; required for a binary format."""
    writes(
        parser.add_argument(
            option,
            dest="report_out",
            metavar="FILE",
            help="write the report to FILE instead of standard output, whole or not at all, "
            "in the format its suffix names unless --format says (default: standard output); "
            "required with --format xlsx (a workbook is binary: FILE must end in .xlsx)",
        )
    )
    parser.set_defaults(report_out_option=option)


def check_report_out(fmt: str, path: str | None, option: str = "--out") -> None:
    """Refused before any work: a binary format (a workbook) on standard output (a
    terminal shows bytes, and even a pipe is more often a mistake than meant), and a
    report file that cannot be written."""
    from analyzer.files import check_writable

    if fmt in BINARY_FORMATS and path is None:
        raise AnalyzerError(f"--format {fmt} is a binary format: give {option} FILE.{fmt}")
    if path is not None:
        check_writable(path, option, REPORT_SUFFIXES.get(fmt))


def deliver_report(content: str | bytes, path: str | None, option: str = "--out") -> str:
    """What goes to standard output: ``content``, or nothing once it is held to go into
    ``path`` when the command has ended well (no partial file)."""
    from analyzer.files import content_writer, output_error, write_atomically

    if path is None:
        assert isinstance(content, str)
        return content
    try:
        write_atomically(path, content_writer(content), held=True)
    except OSError as exc:
        raise output_error(option, path, exc) from None
    return ""


# -- Progress --------------------------------------------------------------------------------


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    """``--progress [FILE]`` and ``--no-progress``: where the progress of a command that can
    take more than two seconds goes (default: standard error, on a terminal only)."""
    shown = parser.add_mutually_exclusive_group()
    writes(
        shown.add_argument(
            "--progress",
            nargs="?",
            const="",
            default=None,
            metavar="FILE",
            help="show progress on standard error even when it is not a terminal; with "
            "FILE, append each update to FILE as one line instead (default: on a terminal "
            "only)",
        )
    )
    shown.add_argument(
        "--no-progress", action="store_true", help="show no progress, not even on a terminal"
    )


#: Suffixes of the files the commands read and write: a progress FILE named so is more
#: likely a command's argument taken by --progress (``verify --progress claims.toml``).
_NOT_PROGRESS = (".toml", ".csv", ".parquet", ".json", ".xlsx", ".html", ".htm", ".md", ".tex",
                 ".png")  # fmt: skip


def progress_from_args(args: argparse.Namespace) -> contextlib.AbstractContextManager[None]:
    """Progress as ``--progress`` and ``--no-progress`` ask, for the command's run (a
    command without them: on a terminal only); a FILE that cannot be written, or named
    like a command's data, is one line before any work.

    Raises
    ------
    AnalyzerError
        The progress FILE is a folder, in no folder, or named like a data file.
    """
    from analyzer.files import check_writable
    from analyzer.progress import progress_to

    path = getattr(args, "progress", None)
    if getattr(args, "no_progress", False):
        return progress_to(False)
    if not path:
        return progress_to(True if path == "" else None)
    if os.path.splitext(path)[1].lower() in _NOT_PROGRESS:
        raise AnalyzerError(
            f"--progress {path}: a progress file is a log, not data: name another file "
            "(e.g. progress.log), and give the command's own arguments before --progress"
        )
    check_writable(path, "--progress")
    return progress_to(True, path)
