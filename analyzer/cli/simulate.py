"""``baccarat-odds simulate``: deal whole shoes and settle every bet on offer, beside the
exact EV (the Monte Carlo check)."""

from __future__ import annotations

import argparse

import numpy as np

from analyzer.cli.options import add_decisions_option, layout, paytable_from_args, writes
from analyzer.cli.runs import add_run_options, job_from_args, procedure_from_args, warn_rounds_bet
from analyzer.errors import AnalyzerError
from analyzer.reports.i18n import word
from analyzer.words import counted

DESCRIPTION = """\
Deal whole shoes as the help pages do (shuffle, burn, cut card) and settle every bet on
offer: each bet's mean return with its 95% interval beside the exact EV. A paytable of
another game of the family (Dragon Tiger, Three Card Baccarat) is dealt in rounds of its
own cards; one whose hands take cards after the deal (Lucky Draw Baccarat) is played by
each bet's exact strategy, solved on a full shoe before any is dealt. A paytable with
random multipliers has each round's special cards (or Lightning suits) and their
multipliers drawn from the seed too, the chances of its unknowns given with --unknowns. A
punto banco paytable whose [decision] shows some of the first four cards (Peek Baccarat;
give its --unknowns) has each round show cards drawn by the chances of 'shown', and each
bet of the decision raised as its exact strategy (or --decisions) plays them, the fee on
the base stake. The shoes are dealt in saved partitions: after an interruption, --resume
goes on from them. --log writes every round dealt in the log format audit reads (another
game's names its hands: dragon_cards, tiger_cards; with a decision, the action each round
was played by; not for a punto banco paytable with a [decision]). --shuffle riffle:K deals
the shoes of each partition as one table that shuffles weakly: the first shoe shuffled
perfectly, each later one the cards of the one before, as the discard rack holds them,
riffled K times (a log of it is what audit --shuffle-tests looks for)."""
EXAMPLES = """\
examples:
  baccarat-odds simulate --shoes 1000 --seed 1
  baccarat-odds simulate --shoes 2000 --workers 2 --format json
  baccarat-odds simulate --paytable dragon-tiger --shoes 500 --seed 1
  baccarat-odds simulate --paytable lightning-dragon-tiger --shoes 200 \
      --unknowns p3=1/8,p5=1/60,p8=3/32   # a Lightning suit and multiplier drawn each round
  baccarat-odds simulate --paytable peek-baccarat --unknowns s1=1/4,s2=35/64,s3=1/8 --shoes 200
  baccarat-odds simulate --shoes 100 --seed 1 --log rounds.csv   # then: audit rounds.csv
  baccarat-odds simulate --shoes 50 --seed 1 --shuffle riffle:2 --log riffled.csv"""


def shuffle_riffles(text: str) -> int:
    """An argparse type: ``perfect`` (0) or ``riffle:K``, K riffles (1 to
    :data:`~analyzer.runs.simulate.MAX_RIFFLES`)."""
    from analyzer.runs.simulate import shuffle_riffles as riffles

    try:
        return riffles(text)
    except AnalyzerError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_run_options(parser)
    add_decisions_option(parser)
    parser.add_argument(
        "--shuffle",
        type=shuffle_riffles,
        default=0,
        metavar="perfect|riffle:K",
        help="how each shoe is shuffled: perfect (the default: every order alike), or "
        "riffle:K, each partition's shoes dealt as one table's, the first shuffled "
        "perfectly and each later one the cards of the shoe before (the last card dealt on "
        "top, the cards never dealt beneath) given K Gilbert-Shannon-Reeds riffles "
        "(punto banco only)",
    )
    writes(
        parser.add_argument(
            "--log",
            metavar="FILE",
            help="also write every round dealt to FILE (.csv or .parquet, by the suffix) as "
            "audit reads it: cards, burn, winner, scores, each bet's payout; dealt in this "
            "process, no partitions saved (not with --resume, --scheduler or --workers over "
            "1); about 120 bytes a round as CSV for the seed game (default: no log)",
        )
    )


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.reports.document import Column, Document, table
    from analyzer.reports.outputs import simulate_options, simulation_data
    from analyzer.reports.tables import rows_shown_once, with_names
    from analyzer.reports.writers import write_document
    from analyzer.runs.few_rounds import simulation_warnings
    from analyzer.runs.jobs import partition_sizes
    from analyzer.runs.round_log import check_log_run, simulate_to_log
    from analyzer.runs.simulate import (
        SimulationJob,
        check_simulate_partition,
        check_simulation,
        simulate_partition,
        simulated_rounds,
        simulation_summary,
    )

    paytable = paytable_from_args(args)
    procedure = procedure_from_args(args, paytable)
    check_simulation(paytable, procedure, log=args.log is not None)
    if args.log is not None:
        check_log_run(args.log, args.resume, args.scheduler, args.workers)
    job = SimulationJob(
        paytable, procedure, args.seed, logged=args.log is not None, riffles=args.shuffle
    )
    if args.log is None:
        results = job_from_args(args, simulate_partition, job, check_simulate_partition)
    else:
        sizes = partition_sizes(args.shoes, args.partition_size)
        results = simulate_to_log(job, sizes, args.log)
    summary = with_names(simulation_summary(paytable, procedure, results), paytable)
    rounds = simulated_rounds(results)
    bets = summary.to_dict("records")
    # A bet settled in no round, or too few, is said (once where its modes settle alike),
    # and given in JSON.
    warnings = simulation_warnings(bets)
    warn_rounds_bet(warnings)
    options = simulate_options(
        paytable, procedure, args.shoes, args.seed, args.partition_size, args.shuffle
    )
    data = simulation_data(paytable, procedure, options, rounds, bets, warnings)
    # Tools get every (bet, mode); people each bet once where every mode has the same
    # figures (the same shoes settle a bet that pays alike in each mode).
    summary = rows_shown_once(
        summary, paytable.modes, [c for c in summary.columns if c not in ("bet", "mode")]
    )
    shown = summary.assign(
        **{
            "bet": summary["name"],
            "mode": summary["mode"].map(lambda mode: word(mode, "en")),
            "rounds bet": summary["rounds_bet"].map(str),
            "mean return": summary["mean_return"].map(_signed),
            # No interval and no z without a spread over shoes (one shoe, or every shoe
            # alike): "-", as JSON has null.
            "95% interval": [
                f"[{_signed(lo)}, {_signed(hi)}]" if np.isfinite(error) and error > 0 else "-"
                for lo, hi, error in zip(
                    summary["ci95_low"], summary["ci95_high"], summary["std_error"], strict=True
                )
            ],
            "exact EV": summary["exact_ev"].map(_signed),
            "z": summary["z"].map(lambda v: _signed(v, 2)),
            "max round": summary["max_round"].map(lambda v: "-" if v is None else str(v)),
        }
    )[["bet", "mode", "rounds bet", "mean return", "95% interval", "exact EV", "z", "max round"]]
    if len(paytable.modes) == 1:
        shown = shown.drop(columns="mode")
    head = (
        f"{paytable.name}: {counted(args.shoes, 'shoe')} of {counted(procedure.decks, 'deck')}, "
        f"{rounds} rounds, "
        f"cut card {procedure.cut_card} from the end, seed {args.seed}"
    )
    if args.shuffle:
        head += f", each shoe the last one's cards riffled {args.shuffle} times"
    bets = table([Column(str(c)) for c in shown.columns], shown.values.tolist())
    return write_document(Document(head, (bets,), data), args.format, **layout(args)), 0


def _signed(value: float, digits: int = 5) -> str:
    """A figure with its sign, or "-" where there is none (NaN)."""
    return f"{value:+.{digits}f}" if np.isfinite(value) else "-"
