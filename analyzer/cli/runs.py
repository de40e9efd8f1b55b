"""The long-running commands: ``simulate`` and ``count`` (partitioned, resumable)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.analysis.eor import effects_of_removal, linear_counts
from analyzer.analysis.exact import analyze
from analyzer.cli.options import add_decks_option, add_paytable_option, finite_number, whole_number
from analyzer.errors import AnalyzerError
from analyzer.files import check_writable, output_error, write_files_atomically
from analyzer.game.cards import RANKS
from analyzer.game.shoe import MAX_DECKS, Shoe
from analyzer.paytables.library import load_paytable
from analyzer.paytables.model import Paytable, restricted
from analyzer.reports.plots import png_writer, rounds_figure
from analyzer.reports.tables import json_text
from analyzer.runs.counting import (
    STRATEGIES,
    CountJob,
    check_count_partition,
    count_partition,
    count_summary,
    default_threshold,
    parse_tags,
    per_round_table,
)
from analyzer.runs.dealer import Procedure
from analyzer.runs.runner import run_folder, run_partitions, scheduler_address
from analyzer.runs.simulate import (
    SimulationJob,
    check_simulate_partition,
    simulate_partition,
    simulation_summary,
)

DEFAULT_WORK_DIR = ".baccarat-odds/runs"


#: Bounds of the run options: generous, but each one a size the machine can hold.
MAX_SHOES = 10**9
MAX_PARTITIONS = 10**6
MAX_WORKERS = 256
MAX_SEED = 2**64 - 1
MAX_TAG = 1000
MAX_THRESHOLD = 10**6


def _add_run_options(parser: argparse.ArgumentParser) -> None:
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
        "--partition-size",
        type=whole_number(1, MAX_SHOES),
        default=250,
        metavar="SHOES",
        help="shoes per partition: the unit of work, saving and resuming",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, MAX_WORKERS),
        default=None,
        help="local processes (default: one per core)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the partitions on this Dask scheduler (tcp://host:port)",
    )
    parser.add_argument(
        "--work-dir",
        default=DEFAULT_WORK_DIR,
        metavar="DIR",
        help=f"where finished partitions are kept (default {DEFAULT_WORK_DIR})",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the partitions an interrupted run saved; run the rest",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def add_run_commands(commands, run_simulate, run_count) -> None:
    simulate = commands.add_parser(
        "simulate", help="deal shoes and settle every bet on offer: Monte Carlo vs exact"
    )
    _add_run_options(simulate)
    simulate.set_defaults(run=run_simulate)

    count = commands.add_parser(
        "count", help="can a card counter beat a bet under the max-round limit?"
    )
    _add_run_options(count)
    count.add_argument("--bet", required=True, metavar="ID")
    count.add_argument("--mode", default=None, help="betting mode (default: the first)")
    count.add_argument(
        "--tags",
        help='linear count tags, e.g. "A=0,2=1,...,K=-1" '
        "(default: derived from the effects of removal)",
    )
    count.add_argument(
        "--threshold",
        type=finite_number,
        default=None,
        metavar="T",
        help="bet when the true count is at least T (default: break-even of the"
        " tags' linear model)",
    )
    count.add_argument(
        "--perfect",
        action="store_true",
        help="perfect play: bet exactly when the exact EV is positive",
    )
    count.add_argument(
        "--no-max-round",
        action="store_true",
        help="headline figures without the max-round limit (both are reported)",
    )
    count.add_argument("--out", metavar="FILE", help="per-round statistics (.csv or .parquet)")
    count.add_argument("--plot", metavar="FILE.png", help="EV by round, max round marked")
    count.set_defaults(run=run_count)


def _procedure(args: argparse.Namespace, paytable: Paytable) -> Procedure:
    """How the shoes are dealt, with every run option checked before any work or folder."""
    if not args.work_dir:
        raise AnalyzerError("--work-dir '': name a folder")
    if args.scheduler is not None:
        scheduler_address(args.scheduler)
    partitions = -(-args.shoes // args.partition_size)
    if partitions > MAX_PARTITIONS:
        raise AnalyzerError(
            f"--shoes {args.shoes:,} in partitions of {args.partition_size:,} makes "
            f"{partitions:,} partitions (at most {MAX_PARTITIONS:,}): raise --partition-size"
        )
    return Procedure(args.decks or paytable.decks, args.cut_card)


def _partitions(args: argparse.Namespace) -> list[int]:
    sizes = [args.partition_size] * (args.shoes // args.partition_size)
    if args.shoes % args.partition_size:
        sizes.append(args.shoes % args.partition_size)
    return sizes


def _run(args: argparse.Namespace, task, job, check) -> list:
    """Run ``task(job, index, shoes)`` over the partitions the options ask for, saved
    under a hash of everything the result depends on (partition sizes included)."""
    sizes = _partitions(args)
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


def run_simulate(args: argparse.Namespace) -> tuple[str, int]:
    paytable = load_paytable(args.paytable)
    procedure = _procedure(args, paytable)
    job = SimulationJob(paytable, procedure, args.seed)
    results = _run(args, simulate_partition, job, check_simulate_partition)
    summary = simulation_summary(paytable, procedure, results)
    rounds = int(sum(r["rounds"].sum() for r in results))
    if args.format == "json":
        return json_text(
            {
                "shoes": args.shoes,
                "rounds": rounds,
                "seed": args.seed,
                "bets": summary.to_dict("records"),
            }
        ), 0
    shown = summary.assign(
        **{
            "mean return": summary["mean_return"].map(lambda v: f"{v:+.5f}"),
            "95% interval": [
                f"[{lo:+.5f}, {hi:+.5f}]"
                for lo, hi in zip(summary["ci95_low"], summary["ci95_high"], strict=True)
            ],
            "exact EV": summary["exact_ev"].map(lambda v: f"{v:+.5f}"),
            "z": summary["z"].map(lambda v: f"{v:+.2f}"),
            "max round": summary["max_round"].map(lambda v: "-" if pd.isna(v) else str(int(v))),
        }
    )[["bet", "mode", "rounds_bet", "mean return", "95% interval", "exact EV", "z", "max round"]]
    head = (
        f"{paytable.name}: {args.shoes} shoes of {procedure.decks} decks, {rounds} rounds, "
        f"cut card {procedure.cut_card} from the end, seed {args.seed}"
    )
    return f"{head}\n\n{shown.to_string(index=False)}\n", 0


def run_count(args: argparse.Namespace) -> tuple[str, int]:
    paytable = load_paytable(args.paytable)
    mode = paytable.modes[0] if args.mode is None else args.mode
    paytable.check_modes((mode,))
    paytable.check_bet_ids((args.bet,))
    bet = paytable.bet(args.bet, mode)
    procedure = _procedure(args, paytable)
    if args.out is not None:
        check_writable(args.out, "--out", (".csv", ".parquet"))
    if args.plot is not None:
        check_writable(args.plot, "--plot", (".png",))
    if args.perfect and (args.tags or args.threshold is not None):
        raise AnalyzerError("--perfect bets on the exact EV: it takes no --tags or --threshold")
    tags = threshold = None
    if not args.perfect:
        tags, threshold = _linear_count(args, restricted(paytable, args.bet, mode), procedure)
    job = CountJob(
        restricted(paytable, args.bet, mode),
        procedure,
        args.seed,
        None if tags is None else tuple(tags.tolist()),
        0.0 if threshold is None else threshold,
    )
    results = _run(args, count_partition, job, check_count_partition)
    summary = count_summary(results)
    headline = "without_limit" if args.no_max_round or bet.max_round is None else "with_limit"
    rounds = per_round_table(results)
    writers = {}
    if args.out:
        writers[args.out] = (
            (lambda p: rounds.to_parquet(p, index=False))
            if Path(args.out).suffix.lower() == ".parquet"
            else (lambda p: rounds.to_csv(p, index=False))
        )
    if args.plot:
        writers[args.plot] = png_writer(rounds_figure(rounds, bet.id, bet.max_round))
    try:
        write_files_atomically(writers)  # both or neither
    except OSError as exc:
        option = "--out" if args.out else "--plot"
        raise output_error(option, " and ".join(writers), exc) from None
    strategy = (
        "perfect play (bet when the exact EV is positive)"
        if tags is None
        else "linear count "
        + ",".join(f"{r}={t:+d}" for r, t in zip(RANKS, tags.tolist(), strict=True))
        + f", bet at true count >= {threshold}"
    )
    record = {
        "bet": bet.id,
        "mode": mode,
        "max_round": bet.max_round,
        "strategy": strategy,
        "seed": args.seed,
        "shoes": summary["shoes"],
        "rounds_per_shoe": summary["rounds_per_shoe"],
        "headline": headline,
        **summary[headline],
        "with_limit": summary["with_limit"],
        "without_limit": summary["without_limit"],
    }
    if args.format == "json":
        return json_text(record), 0
    lines = [
        f"{paytable.name}: {bet.id} ({mode}), {summary['shoes']} shoes of "
        f"{procedure.decks} decks, {summary['rounds_per_shoe']:.2f} rounds per shoe, "
        f"seed {args.seed}",
        f"Strategy: {strategy}",
        "",
    ]
    table = pd.DataFrame(
        {
            name.replace("_", " ")
            + (f" (max round {bet.max_round})" if name == "with_limit" and bet.max_round else ""): {
                "bet frequency": _pm(summary[name], "bet_frequency", 100, "%"),
                "edge when bet": _pm(summary[name], "edge_when_bet", 100, "%"),
                "units per shoe": _pm(summary[name], "units_per_shoe", 1, ""),
                "units per 100 rounds": _pm(summary[name], "units_per_100_rounds", 1, ""),
            }
            for name in STRATEGIES
        }
    )
    lines.append(table.to_string())
    return "\n".join(lines) + "\n", 0


def _linear_count(
    args: argparse.Namespace, single: Paytable, procedure: Procedure
) -> tuple[np.ndarray, float]:
    """Tags and threshold of the linear count, given or derived from the effects of
    removal of the shoe that is dealt (its decks, not the paytable's)."""
    shoe = Shoe.standard(procedure.decks)
    need_effects = not args.tags or args.threshold is None
    effects = effects_of_removal(single, shoe) if need_effects else None
    if args.tags:
        tags = parse_tags(args.tags, MAX_TAG)
    else:
        tags = np.array([linear_counts(effects)[0].tags[r] for r in RANKS])
        if not tags.any():
            raise AnalyzerError(
                f"no linear count helps {args.bet!r}: removing a card of any rank moves it "
                "the same way (use --perfect, or give --tags and --threshold)"
            )
    if args.threshold is not None:
        if abs(args.threshold) > MAX_THRESHOLD:
            raise AnalyzerError(f"--threshold must be within ±{MAX_THRESHOLD:,}")
        return tags, args.threshold
    base = float(analyze(paytable=single, shoe=shoe).results[0].expected_value)
    return tags, default_threshold(effects, tags, base, procedure.decks)


def _pm(values: dict[str, Any], key: str, scale: float, unit: str) -> str:
    value, error = values[key], values[f"{key}_se"]
    if value is None or np.isnan(value):
        return "-"
    shown = f"{scale * value:+.4f}{unit}"
    return shown if error is None or np.isnan(error) else f"{shown} ± {scale * error:.4f}{unit}"
