"""What ``simulate`` and ``count`` share: their options, and running a job in saved,
resumable partitions (locally or on Dask)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from analyzer.cli.options import (
    add_decks_option,
    add_format_option,
    add_paytable_option,
    add_progress_options,
    whole_number,
)
from analyzer.errors import AnalyzerError, tell
from analyzer.game.shoe import MAX_DECKS
from analyzer.paytables.model import Paytable
from analyzer.runs import LAST_ROUND_RULES
from analyzer.runs.jobs import (
    DEFAULT_CUT_CARD,
    DEFAULT_PARTITION_SIZE,
    MAX_PARTITION_SIZE,
    MAX_SEED,
    MAX_SHOES,
    MAX_WORKERS,
    partition_sizes,
    run_job,
    run_procedure,
)

if TYPE_CHECKING:  # the analysis, pandas and Numba load when a command runs
    from analyzer.runs.dealer import Procedure

#: Where runs are kept without --work-dir, as help texts say it.
DEFAULT_WORK_DIR = "runs/ in the user's cache folder (~/.cache/baccarat-odds/runs)"


def add_run_options(
    parser: argparse.ArgumentParser,
    formats: tuple[str, ...] = ("text", "json"),
    out: str | None = None,
    *,
    shoes_required: bool = True,
) -> None:
    add_paytable_option(parser)
    parser.add_argument(
        "--shoes",
        type=whole_number(1, MAX_SHOES),
        required=shoes_required,
        help=f"shoes to deal (at most {MAX_SHOES:,})"
        + ("" if shoes_required else "; default: none, required unless --exact"),
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0, MAX_SEED),
        default=0,
        help="random seed, 0 to 2**64 - 1 (default 0)",
    )
    add_decks_option(parser)
    parser.add_argument(
        "--cut-card",
        type=whole_number(0, 52 * MAX_DECKS),
        default=DEFAULT_CUT_CARD,
        metavar="C",
        help=f"cards left behind the cut card (default {DEFAULT_CUT_CARD})",
    )
    parser.add_argument(
        "--last-round",
        choices=LAST_ROUND_RULES,
        default=LAST_ROUND_RULES[0],
        help="when the cut card comes out: that round is the last (cut-card, the default),"
        " or one more round is dealt unless the cut card came out in place of a round's"
        " first card (one-more, as in published counting studies)",
    )
    parser.add_argument(
        "--partition-size",
        type=whole_number(1, MAX_PARTITION_SIZE),
        default=DEFAULT_PARTITION_SIZE,
        metavar="SHOES",
        help="shoes per partition: the unit of work, saving and resuming (default "
        f"{DEFAULT_PARTITION_SIZE}, "
        f"at most {MAX_PARTITION_SIZE:,})",
    )
    add_partition_options(parser)
    add_progress_options(parser)
    add_format_option(parser, formats, out)


def add_partition_options(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    rest: str = "run the rest",
) -> None:
    """Where and how the partitions run: --workers, --scheduler, --work-dir (None when
    not given: :func:`analyzer.runs.kept.default_runs_folder`) and --resume."""
    parser.add_argument(
        "--workers",
        type=whole_number(1, MAX_WORKERS),
        default=None,
        help="local processes (default: one per core)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the partitions on this Dask scheduler (tcp://host:port; default: none, local "
        "processes)",
    )
    parser.add_argument(
        "--work-dir",
        default=None,
        metavar="DIR",
        help=f"where finished partitions are kept, for --resume (default: {DEFAULT_WORK_DIR}; "
        "baccarat-odds cache lists and removes them)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help=f"keep the partitions an interrupted run saved; {rest}",
    )


def procedure_from_args(args: argparse.Namespace, paytable: Paytable) -> Procedure:
    """How the shoes are dealt, with every run option checked before any work or folder."""
    if args.work_dir == "":
        raise AnalyzerError("--work-dir '': name a folder")
    if args.work_dir is None:
        from analyzer.runs.kept import default_runs_folder

        args.work_dir = str(default_runs_folder())
    return run_procedure(
        paytable,
        args.shoes,
        args.partition_size,
        args.decks,
        args.cut_card,
        args.last_round,
        args.scheduler,
    )


def job_from_args(args: argparse.Namespace, task, job, check) -> list:
    """Run ``task(job, index, shoes)`` over the partitions the options ask for, saved under
    a hash of everything the result depends on (partition sizes included)."""
    return run_job(
        task,
        job,
        check,
        partition_sizes(args.shoes, args.partition_size),
        args.work_dir,
        resume=args.resume,
        scheduler=args.scheduler,
        workers=args.workers,
        progress=None,  # as --progress / --no-progress say
    )


def warn_rounds_bet(warnings: Sequence[Mapping[str, Any]]) -> None:
    """Each warning of a run (:func:`analyzer.runs.few_rounds.rounds_warnings`: at most
    two) on stderr, one line each, as ``warning: <message>`` (not an error): the same
    warnings its JSON gives under ``warnings``."""
    for warning in warnings:
        tell(f"warning: {warning['message']}")
