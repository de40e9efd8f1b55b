"""What ``simulate`` and ``count`` share: their options, and running a job in saved,
resumable partitions (locally or on Dask)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.cli.options import (
    add_decks_option,
    add_format_option,
    add_paytable_option,
    whole_number,
)
from analyzer.errors import AnalyzerError
from analyzer.game.rules import STANDARD_MIXTURE, Mixture
from analyzer.game.shoe import MAX_DECKS, Shoe
from analyzer.paytables.model import Bet, Paytable
from analyzer.runs import LAST_ROUND_RULES

if TYPE_CHECKING:  # the analysis, pandas and Numba load when a command runs
    from analyzer.runs.dealer import Procedure

DEFAULT_WORK_DIR = ".baccarat-odds/runs"


#: Bounds of the run options: generous, but each one a size the machine can hold.
MAX_SHOES = 10**9
MAX_PARTITIONS = 10**6
#: A partition's rounds and results are held in memory until it is saved: 10,000 shoes
#: is some 800,000 rounds (tens of MB of round fields), and a few numbers per bet per shoe.
MAX_PARTITION_SIZE = 10**4
#: The most memory one partition may take while it is worked out (each job estimates its
#: own: ``job.partition_bytes(shoes)``), one partition per worker at a time.
MAX_PARTITION_BYTES = 2**30
MAX_WORKERS = 256
MAX_SEED = 2**64 - 1
MAX_TAG = 1000
MAX_THRESHOLD = 10**6


def add_run_options(
    parser: argparse.ArgumentParser, formats: tuple[str, ...] = ("text", "json")
) -> None:
    add_paytable_option(parser)
    parser.add_argument(
        "--shoes",
        type=whole_number(1, MAX_SHOES),
        required=True,
        help=f"shoes to deal (at most {MAX_SHOES:,})",
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
        default=14,
        metavar="C",
        help="cards left behind the cut card (default 14)",
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
        default=250,
        metavar="SHOES",
        help="shoes per partition: the unit of work, saving and resuming (default 250, "
        f"at most {MAX_PARTITION_SIZE:,})",
    )
    add_partition_options(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_format_option(parser, formats)


def add_partition_options(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    work_dir: str | None = DEFAULT_WORK_DIR,
    rest: str = "run the rest",
) -> None:
    """Where and how the partitions run: --workers, --scheduler, --work-dir (its default
    ``work_dir``; None: a command that tells whether it was given) and --resume."""
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
        default=work_dir,
        metavar="DIR",
        help=f"where finished partitions are kept (default {DEFAULT_WORK_DIR})",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help=f"keep the partitions an interrupted run saved; {rest}",
    )


def procedure_from_args(args: argparse.Namespace, paytable: Paytable) -> Procedure:
    """How the shoes are dealt, with every run option checked before any work or folder."""
    from analyzer.runs.dealer import Procedure

    if not args.work_dir:
        raise AnalyzerError("--work-dir '': name a folder")
    if args.scheduler is not None:
        from analyzer.runs.runner import scheduler_address

        scheduler_address(args.scheduler)
    partitions = -(-args.shoes // args.partition_size)
    if partitions > MAX_PARTITIONS:
        raise AnalyzerError(
            f"--shoes {args.shoes:,} in partitions of {args.partition_size:,} makes "
            f"{partitions:,} partitions (at most {MAX_PARTITIONS:,}): raise --partition-size"
        )
    return Procedure(args.decks or paytable.decks, args.cut_card, last_round=args.last_round)


def check_exact_work(
    bets: list[Bet],
    procedure: Procedure,
    shoes: int | None = None,
    tags: bool = False,
    mixture: Mixture = STANDARD_MIXTURE,
) -> None:
    """The exact work of a run beside its dealing, weighed in all before any shoe is
    dealt or folder made: an exact analysis of ``bets`` on a full shoe (simulate's exact
    EVs), with ``tags`` the effects of removal a count derives its tags from, and with
    ``shoes`` (count) the exact EV of every round dealt: compiling the bets on the cards
    into terms, or walking each round where a walk is too long to compile. ``mixture``:
    the pure tableaus the rules are played by (a paytable's), each walked and compiled."""
    from analyzer.analysis.budget import card_walks, check_analyses, check_visits
    from analyzer.analysis.eor import needs_suits, removal_visits
    from analyzer.engine.batch import compiled_per_process, walked_per_composition
    from analyzer.engine.card_walk import COMPILING

    shoe = Shoe.standard(procedure.decks)
    check_analyses(bets, shoe, mixture=mixture)
    if shoes is not None:
        rounds = shoes * (procedure.cards // 4)  # at most: a round takes 4 cards or more
        visits = rounds * walked_per_composition(bets) + COMPILING * compiled_per_process(bets)
        visits *= len(mixture)
        if tags:
            by_card = any(needs_suits(bet) for bet in bets)
            walks = card_walks(bets, shoe, mixture)
            visits += removal_visits(walks, 1 + (52 if by_card else 13))
        check_visits(  # (each worker compiles the terms once, side by side)
            visits,
            f"counting up to {rounds:,} rounds with the exact EV of each",
            "count fewer shoes (--shoes), or count the other bets apart",
        )


def partition_sizes(args: argparse.Namespace) -> list[int]:
    sizes = [args.partition_size] * (args.shoes // args.partition_size)
    if args.shoes % args.partition_size:
        sizes.append(args.shoes % args.partition_size)
    return sizes


def check_partition_memory(args: argparse.Namespace, job) -> None:
    """Refuse partitions whose estimated memory (``job.partition_bytes``) is over
    :data:`MAX_PARTITION_BYTES`, naming the largest size that fits: before any work."""
    largest = max(partition_sizes(args))
    held = job.partition_bytes(largest)
    if held > MAX_PARTITION_BYTES:
        fits = MAX_PARTITION_BYTES // job.partition_bytes(1)  # (linear in the shoes)
        advice = f"lower --partition-size to {fits:,}" if fits else "choose fewer bets"
        raise AnalyzerError(
            f"--partition-size {largest:,} with {job.n_columns:,} bets needs about "
            f"{held / 1e6:,.0f} MB of memory per partition (at most "
            f"{MAX_PARTITION_BYTES / 1e6:,.0f} MB): {advice}"
        )


def run_job(args: argparse.Namespace, task, job, check) -> list:
    """Run ``task(job, index, shoes)`` over the partitions the options ask for, saved
    under a hash of everything the result depends on (partition sizes included)."""
    from analyzer.runs.runner import run_folder, run_partitions

    sizes = partition_sizes(args)
    check_partition_memory(args, job)
    identity = {**job.identity, "partitions": sizes}
    return run_partitions(
        task,
        job,
        sizes,
        run_folder(Path(args.work_dir), identity),
        identity,
        resume=args.resume,
        scheduler=args.scheduler,
        workers=args.workers,
        progress=False if args.no_progress else None,
        description=identity["command"],
        unit="shoes",
        check=check,
    )
