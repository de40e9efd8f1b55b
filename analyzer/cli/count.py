"""``baccarat-odds count``: can a card counter beat a bet, with and without its max-round
limit? Every round's exact EV on the cards left, bet by a linear count or perfect play."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.analysis.eor import effects_of_removal, linear_counts
from analyzer.analysis.exact import analyze
from analyzer.cli.options import add_mode_option, finite_number
from analyzer.cli.runs import MAX_TAG, MAX_THRESHOLD, add_run_options, procedure_from_args, run_job
from analyzer.errors import AnalyzerError
from analyzer.files import check_writable, output_error, write_files_atomically
from analyzer.game.cards import RANKS
from analyzer.game.shoe import Shoe
from analyzer.paytables.library import load_paytable
from analyzer.paytables.model import Paytable, restricted
from analyzer.reports.plots import png_writer, rounds_figure
from analyzer.reports.tables import json_text, render_table
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

HELP = "can a card counter beat a bet under the max-round limit?"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_run_options(parser)
    parser.add_argument("--bet", required=True, metavar="ID")
    add_mode_option(parser, None, "betting mode (default: the first)")
    parser.add_argument(
        "--tags",
        help='linear count tags, e.g. "A=0,2=1,...,K=-1" '
        "(default: derived from the effects of removal)",
    )
    parser.add_argument(
        "--threshold",
        type=finite_number,
        default=None,
        metavar="T",
        help="bet when the true count is at least T (default: break-even of the"
        " tags' linear model)",
    )
    parser.add_argument(
        "--perfect",
        action="store_true",
        help="perfect play: bet exactly when the exact EV is positive",
    )
    parser.add_argument(
        "--no-max-round",
        action="store_true",
        help="headline figures without the max-round limit (both are reported)",
    )
    parser.add_argument("--out", metavar="FILE", help="per-round statistics (.csv or .parquet)")
    parser.add_argument("--plot", metavar="FILE.png", help="EV by round, max round marked")


def run(args: argparse.Namespace) -> tuple[str, int]:
    paytable = load_paytable(args.paytable)
    mode = paytable.modes[0] if args.mode is None else args.mode
    paytable.check_modes((mode,))
    paytable.check_bet_ids((args.bet,))
    bet = paytable.bet(args.bet, mode)
    procedure = procedure_from_args(args, paytable)
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
    results = run_job(args, count_partition, job, check_count_partition)
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
    lines.append(render_table(table, index=True))
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
