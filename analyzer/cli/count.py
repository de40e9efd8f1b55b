"""``baccarat-odds count``: which bets can a card counter beat, with and without their
max-round limits, and which max round keeps the gain negligible? Every round's exact EV of
every bet counted on the cards left (the shoes dealt once), bet by a linear count or by
perfect play."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from analyzer.cli.options import (
    REPORT_SUFFIXES,
    add_mode_option,
    add_report_out_option,
    check_report_out,
    deliver_report,
    finite_number,
    layout,
    paytable_from_args,
    writes,
)
from analyzer.cli.runs import add_run_options, job_from_args, procedure_from_args, warn_rounds_bet
from analyzer.errors import AnalyzerError
from analyzer.files import check_outputs, output_error, write_files_atomically
from analyzer.reports.document import Block, Column, Document, Paragraph, table
from analyzer.reports.formats import REPORT_FORMATS
from analyzer.reports.i18n import word
from analyzer.runs import TRUE_COUNT_DECKS
from analyzer.runs.jobs import DEFAULT_MAX_GAIN
from analyzer.words import counted

if TYPE_CHECKING:  # the analysis, pandas and Numba load when a command runs
    from analyzer.runs.counting import CountJob

DESCRIPTION = """\
Which bets can a card counter beat? Deals whole shoes, works out every round's exact EV
of each bet on the cards left, and bets it by perfect play and by a linear count, with and
without its max round; advises the largest max round that keeps a counter's gain per shoe
at most --max-gain; rates each play as the counting literature does (the desirability
index, N0, the standard deviation per round, and with --rounds-per-hour the win and
standard deviation per hour). Punto banco, the games of the family dealt once (Dragon
Tiger, Three Card Baccarat, a game of your own), and games with a player's decision (Lucky
Draw, Peek Baccarat: each round's best play solved on its cards, at most 20,000 rounds a
run)."""
EXAMPLES = """\
examples:
  baccarat-odds count --bet lucky_six --shoes 500 --perfect
  baccarat-odds count --bet lucky_six --shoes 500 --perfect --rounds-per-hour 60   # per hour
  baccarat-odds count --bet all --shoes 500 --gain-plot gain.png   # every bet at once
  baccarat-odds count --bet tie --shoes 500 --tags "6=-4,7=-4,8=2,9=2" --threshold 20
  baccarat-odds count --paytable dragon-tiger --bet tie --bet suited_tie --shoes 200 --perfect"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_run_options(parser, REPORT_FORMATS, "--report-out")
    parser.add_argument(
        "--bet",
        action="append",
        required=True,
        metavar="ID|all",
        help="required: the bet to count (repeatable), or all: every bet of the paytable, on "
        "the same shoes, dealt once",
    )
    add_mode_option(parser, None, "betting mode, or all (default: the first)")
    parser.add_argument(
        "--tags",
        help='linear count tags, e.g. "A=0,2=1,...,K=-1", for every bet counted '
        "(default: derived per bet from its effects of removal, balanced: their sum over "
        "the shoe is 0)",
    )
    parser.add_argument(
        "--threshold",
        type=finite_number,
        default=None,
        metavar="T",
        help="bet when the true count is at least T (default: break-even of the"
        " tags' linear model, per bet)",
    )
    parser.add_argument(
        "--true-count-decks",
        choices=TRUE_COUNT_DECKS,
        default=None,
        help="the true count divides by the decks still in the shoe (in-shoe, the default)"
        " or by every card not seen, face-down burn cards included (unseen, as in"
        " published counting studies)",
    )
    parser.add_argument(
        "--perfect",
        action="store_true",
        help="perfect play only: bet exactly when the exact EV is positive",
    )
    parser.add_argument(
        "--no-max-round",
        action="store_true",
        help="headline figures without the max-round limit (both are reported)",
    )
    parser.add_argument(
        "--max-gain",
        type=finite_number,
        default=DEFAULT_MAX_GAIN,
        metavar="UNITS",
        help=f"the largest gain per shoe the max-round advice accepts (default {DEFAULT_MAX_GAIN})",
    )
    parser.add_argument(
        "--rounds-per-hour",
        type=finite_number,
        default=None,
        metavar="R",
        help="also give the win and standard deviation per hour at R rounds dealt an hour "
        "(no default: the pace of your table, e.g. 60 or 80 at a live table, more at a "
        "studio or a machine)",
    )
    writes(
        parser.add_argument(
            "--out",
            metavar="FILE",
            help="also write per-round statistics (.csv or .parquet; default: none)",
        )
    )
    add_report_out_option(parser, "--report-out")
    writes(
        parser.add_argument(
            "--plot",
            metavar="FILE.png",
            help="also draw EV by round, max rounds marked (default: no plot)",
        )
    )
    writes(
        parser.add_argument(
            "--gain-plot",
            metavar="FILE.png",
            help="also draw gain per shoe by max round, per bet and play, max rounds marked "
            "(default: no plot)",
        )
    )


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.reports.outputs import count_data, count_options, count_table
    from analyzer.reports.plots import MAX_CHART_CURVES
    from analyzer.reports.writers import write_document
    from analyzer.runs.count_plan import (
        check_max_gain,
        check_rounds_per_hour,
        count_columns,
        count_job,
        count_record,
        second_moments,
    )
    from analyzer.runs.counting import count_partition, count_summary, per_round_table
    from analyzer.runs.few_rounds import count_warnings
    from analyzer.runs.jobs import partition_sizes

    paytable = paytable_from_args(args)
    columns = count_columns(paytable, args.bet, args.mode)
    check_max_gain(args.max_gain)
    check_rounds_per_hour(args.rounds_per_hour)
    procedure = procedure_from_args(args, paytable)
    check_report_out(args.format, args.report_out, "--report-out")
    check_outputs(
        {
            "--out": (args.out, (".csv", ".parquet")),
            "--plot": (args.plot, (".png",)),
            "--gain-plot": (args.gain_plot, (".png",)),
            "--report-out": (args.report_out, REPORT_SUFFIXES.get(args.format)),
        }
    )
    for option, target in (("--plot", args.plot), ("--gain-plot", args.gain_plot)):
        if target is not None and len(columns) > MAX_CHART_CURVES:
            raise AnalyzerError(
                f"{option} draws at most {MAX_CHART_CURVES} curves, one per bet and mode, and "
                f"{len(columns)} are counted: choose the bets to draw with --bet, or one --mode"
            )
    job = count_job(
        paytable,
        columns,
        procedure,
        args.seed,
        partition_sizes(args.shoes, args.partition_size),
        tags=args.tags,
        threshold=args.threshold,
        true_count_decks=args.true_count_decks,
        perfect=args.perfect,
    )
    moments = second_moments(job)  # (exact, off the top: before the shoes are dealt)
    results = job_from_args(args, count_partition, job, job.check)
    summaries = count_summary(job, results, args.max_gain)
    rounds = per_round_table(job, results)
    _write_outputs(args, job, summaries, rounds)
    records = [
        count_record(
            job,
            summary,
            c,
            args.no_max_round,
            second_moment=moments[c],
            rounds_per_hour=args.rounds_per_hour,
        )
        for c, summary in enumerate(summaries)
    ]
    # A strategy that never bets, or bets too seldom, is said, and given in JSON.
    warnings = count_warnings(records)
    warn_rounds_bet(warnings)
    shoes, decks = summaries[0]["shoes"], procedure.decks
    head = (
        f"{paytable.name}: {counted(shoes, 'shoe')} of {counted(decks, 'deck')}, "
        f"{summaries[0]['rounds_per_shoe']:.2f} rounds per shoe, seed {args.seed}"
    )
    if len(records) == 1:
        blocks = _one_bet_blocks(records[0], args.rounds_per_hour)
    else:
        plays = [_PLAY_NAMES[job.headline_of(c)] for c in range(len(job.columns))]
        blocks = _many_bets_blocks(records, plays, args.max_gain)
    options = count_options(
        paytable,
        procedure,
        args.shoes,
        args.seed,
        args.partition_size,
        bets=args.bet,
        mode=args.mode,
        tags=args.tags,
        threshold=args.threshold,
        true_count_decks=job.true_count_decks,
        perfect=args.perfect,
        no_max_round=args.no_max_round,
        max_gain=args.max_gain,
        rounds_per_hour=args.rounds_per_hour,
    )
    data = count_data(paytable, procedure, options, records, warnings)
    document = Document(head, (*blocks, count_table(records)), data)
    content = write_document(document, args.format, **layout(args))
    return deliver_report(content, args.report_out), 0


def _write_outputs(args: argparse.Namespace, job: CountJob, summaries: list, rounds) -> None:
    from analyzer.reports.plots import gains_figure, png_writer, rounds_figure

    writers = {}
    if args.out:
        writers[args.out] = (
            (lambda p: rounds.to_parquet(p, index=False))
            if Path(args.out).suffix.lower() == ".parquet"
            else (lambda p: rounds.to_csv(p, index=False))
        )
    names = {
        (s["bet"], s["mode"]): job.paytable.bet(s["bet"], s["mode"]).display_name()
        for s in summaries
    }
    if args.plot:
        marks = {(s["bet"], s["mode"]): s["max_round"] for s in summaries}
        writers[args.plot] = png_writer(rounds_figure(rounds, marks, names))
    if args.gain_plot:
        writers[args.gain_plot] = png_writer(gains_figure(summaries, args.max_gain, names))
    options = {args.out: "--out", args.plot: "--plot", args.gain_plot: "--gain-plot"}
    try:
        # All or none, after the standard output.
        write_files_atomically(writers, held=True, labels=options)
    except OSError as exc:
        failed = getattr(exc, "target", None)
        raise output_error(options.get(failed, "--out"), failed, exc) from None


_PLAY_NAMES = {"perfect": "perfect play", "count": "linear count"}


def _confidence(advice: dict) -> str:
    if advice["confidence"] is None:
        return "no confidence from a single shoe"
    return f"confidence {100 * advice['confidence']:.1f}%"


def _advice_line(play: str, advice: dict, max_round: int | None) -> str:
    safe = advice["largest_safe_max_round"]
    if safe is None:
        cap = "no max round keeps the gain below it, not even 1"
    elif advice["needs_no_limit"]:
        cap = f"needs no max round (safe to the last round, {safe}; {_confidence(advice)})"
    else:
        cap = f"largest safe max round {safe} ({_confidence(advice)})"
    verdict = "meets it" if advice["printed_max_round_is_safe"] else "does not meet it"
    printed = (
        f"the paytable's max round {max_round} {verdict}"
        if max_round
        else f"the paytable, with no max round, {verdict}"
    )
    return f"  {_PLAY_NAMES[play]}: {cap}; {printed}"


def _one_bet_blocks(record: dict, rounds_per_hour: float | None = None) -> list[Block]:
    """The bet, its strategy, a row per figure with and without its max round (each
    with its standard error), the counter's figures (DI, N0, sd per round; per hour at
    ``rounds_per_hour``), and the max-round advice."""
    from analyzer.reports.tables import bet_label
    from analyzer.runs.counting import STRATEGIES

    caption = (
        f"Bet: {bet_label(record['name'], record['mode'], True)}\nStrategy: {record['strategy']}"
    )
    headers = [
        name.replace("_", " ")
        + (
            f" (max round {record['max_round']})"
            if name == "with_limit" and record["max_round"]
            else ""
        )
        for name in STRATEGIES
    ]
    figures = [
        ("bet frequency", "bet_frequency", 100, "%"),
        ("edge when bet", "edge_when_bet", 100, "%"),
        ("units per shoe", "units_per_shoe", 1, ""),
        ("units per 100 rounds", "units_per_100_rounds", 1, ""),
    ]
    rows = [
        [label, *(_pm(record[name], key, scale, unit) for name in STRATEGIES)]
        for label, key, scale, unit in figures
    ]
    counter = [
        ("sd per round", "sd_per_round", "{:.4f}"),
        ("DI", "di", "{:+.2f}"),
        ("N0 (rounds)", "n0", "{:,.0f}"),
    ]
    if rounds_per_hour is not None:
        pace = f"{rounds_per_hour:g} rounds"
        counter += [
            (f"win per hour ({pace})", "win_per_hour", "{:+.4f}"),
            (f"sd per hour ({pace})", "sd_per_hour", "{:.4f}"),
        ]
    for label, key, shape in counter:
        cells = [_counter(record[name], key, shape) for name in STRATEGIES]
        if key == "di":
            cells = [
                cell if record[name]["di_se"] is None else f"{cell} ± {record[name]['di_se']:.2f}"
                for cell, name in zip(cells, STRATEGIES, strict=True)
            ]
        rows.append([label, *cells])
    figures_table = table([Column(""), *map(Column, headers)], rows, audience="people", index=True)
    max_gain = next(iter(record["advice"].values()))["max_gain"]
    advice = [f"Max-round advice (gain per shoe at most {max_gain:g} units, 95% one-sided):"]
    for play, values in record["advice"].items():
        advice.append(_advice_line(play, values, record["max_round"]))
    return [Paragraph(caption, tight=True), figures_table, Paragraph("\n".join(advice))]


def _many_bets_blocks(records: list[dict], plays: list[str], max_gain: float) -> list[Block]:
    """One row per bet; ``plays``: the play each bet's figures follow."""
    import pandas as pd

    from analyzer.reports.tables import rows_shown_once

    mixed = len(set(plays)) > 1
    rows = []
    for record, play_name in zip(records, plays, strict=True):
        advice = record["advice"]
        row = {"bet": record["bet"], "name": record["name"], "mode": record["mode"]}
        if mixed:
            row["play"] = play_name
        row |= {
            "max round": record["max_round"] or "-",
            "frequency": _pm(record[record["headline"]], "bet_frequency", 100, "%", False),
            "edge when bet": _pm(record[record["headline"]], "edge_when_bet", 100, "%", False),
            "units/shoe, limit": _pm(record["with_limit"], "units_per_shoe", 1, ""),
            "units/shoe, no limit": _pm(record["without_limit"], "units_per_shoe", 1, ""),
            "DI": _counter(record, "di", "{:+.2f}"),
            "N0": _counter(record, "n0", "{:,.0f}"),
        }
        for play, name in _PLAY_NAMES.items():
            shown = "-"
            if play in advice:
                safe = advice[play]["largest_safe_max_round"]
                shown = "none" if advice[play]["needs_no_limit"] else (safe or "-")
            if play in advice or any(play in r["advice"] for r in records):
                row[f"safe max round ({name})"] = shown
        row["printed max round safe"] = (
            "yes" if advice["perfect"]["printed_max_round_is_safe"] else "no"
        )
        rows.append(row)
    # A bet counted in every mode with the same figures is shown once, as report does.
    frame = pd.DataFrame(rows)
    modes = list(dict.fromkeys(frame["mode"]))
    frame = rows_shown_once(frame, modes, [c for c in frame if c not in ("bet", "name", "mode")])
    frame = frame.assign(
        bet=frame["name"], mode=frame["mode"].map(lambda mode: word(mode, "en"))
    ).drop(columns="name")
    frame = frame.fillna("-").astype(str)
    headline = "the play of each bet" if mixed else plays[0]
    caption = (
        f"Headline: {headline}; safe max round: the largest cap whose gain per shoe"
        f" stays at most {max_gain:g} units (95% one-sided); none: no cap needed;"
        " DI and N0 (rounds) of the headline figures"
    )
    columns = [Column(str(name)) for name in frame.columns]
    bets = table(columns, frame.values.tolist(), audience="people")
    return [Paragraph(caption, tight=True, prose=True), bets]


def _counter(values: dict[str, Any], key: str, shape: str) -> str:
    """A counter's figure (DI, N0, ...) as the text shows it; ``-`` where there is none
    (N0 of a play that does not win, any of a play that never bets)."""
    value = values[key]
    return "-" if value is None else shape.format(value)


def _pm(values: dict[str, Any], key: str, scale: float, unit: str, error: bool = True) -> str:
    value, se = values[key], values[f"{key}_se"]
    if value is None or np.isnan(value):
        return "-"
    # A frequency is never negative: a sign only where a gain could be a loss.
    sign = "" if key == "bet_frequency" else "+"
    shown = f"{scale * value:{sign}.4f}{unit}"
    if not error or se is None or np.isnan(se):
        return shown
    return f"{shown} ± {scale * se:.4f}{unit}"
