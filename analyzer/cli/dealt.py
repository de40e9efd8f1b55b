"""``baccarat-odds dealt``: the round-average RTP a player meets over shoes dealt as live
tables deal them (the burn, the cut card, each bet's max round), per bet and mode, and by
how much it differs from the RTP off the top of a full shoe. Sampled from each round's
exact EV on the cards left, or exact (every order of a small shoe's cards); punto banco's
rounds, or a game of the family dealt once (:mod:`analyzer.runs.family_dealt`)."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from analyzer.cli.options import add_mode_option, reads
from analyzer.cli.runs import add_run_options, job_from_args
from analyzer.errors import AnalyzerError
from analyzer.words import counted

DESCRIPTION = """\
Is the RTP a player meets over a dealt shoe the printed one? Deals whole shoes as live
tables do: the first card shown and cards burned by its value, rounds dealt to the cut
card, each bet withdrawn after its max round (the paytable's). For every round, the exact
EV of each bet on the cards left; the round-average RTP is the sum of those EVs over the
rounds bet, over the rounds bet, averaged over shoes (a ratio estimator with a 95%
interval by the delta method). --exact enumerates instead every order of the point values
the deal looks at, for shoes up to one deck, and gives the figure as a fraction (bets on
values and pairs; each finished pass is kept in the run's folder, and a pass under way is
checkpointed every 5 minutes of work and on Ctrl-C: --resume deals on from it). A game of
the family dealt once (Dragon Tiger, Lightning Dragon Tiger with --unknowns, Three Card
Baccarat) is dealt in rounds of its own cards, each priced by its own batch engine
(--exact: every composition by rank of a small shoe); a game with a player's decision
(Lucky Draw, Peek Baccarat) by its best play solved on each round's cards (at most 20,000
rounds a run)."""
EXAMPLES = """\
examples:
  baccarat-odds dealt --shoes 200 --bet tie --bet player_pair
  baccarat-odds dealt --shoes 200 --bet banker --mode all --cut-card 60 --burn none
  baccarat-odds dealt --shoes 200 --decks 1 --cut-card 26 --bet lucky_six
  baccarat-odds dealt --paytable dragon-tiger --shoes 100 --bet tie --bet dragon"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_run_options(parser, shoes_required=False)
    parser.add_argument(
        "--bet",
        action="append",
        metavar="ID|all",
        help="the bet (repeatable), or all: every bet of the paytable (default: all)",
    )
    add_mode_option(parser, None, "betting mode, or all (default: the first)")
    parser.add_argument(
        "--burn",
        default="by-value",
        metavar="RULE",
        help="cards burned before round 1: by-value (the first card is shown and as many "
        "more burned as its point value, a ten or face card 10; the default, as live tables "
        "do), none, or N (the shown card and N more)",
    )
    reads(
        parser.add_argument(
            "--shoe",
            metavar="FILE",
            help="deal this shoe instead of full decks: its counts in a CSV or TOML file, per "
            "rank or card (default: none, --decks full decks)",
        ),
        "the shoe file read",
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="no sampling: every order of the point values the deal looks at, each round "
        "priced exactly, the cards' ranks and suits averaged (shoes up to one deck; bets on "
        "values and pairs); in one process: takes none of --shoes, --seed, --partition-size, "
        "--workers, --scheduler; the run's folder in --work-dir keeps each finished pass, and "
        "checkpoints the pass under way every 5 minutes of work and on Ctrl-C or SIGTERM "
        "(1.3 GB for one deck; without --work-dir, a shoe of more than a million "
        "compositions by value, minutes of work, is kept in the user's cache as a sampled "
        "run is, a smaller one nowhere); --resume reads the passes and deals on from the "
        "checkpoint",
    )


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.runs.as_dealt import exact_record, keeps_exact_work, parse_burn
    from analyzer.runs.family_dealt import dealt_task, exact_dealt

    if args.exact == (args.shoes is not None):
        raise AnalyzerError("give --shoes N (sampled) or --exact, one of them")
    if args.shoe is not None and args.decks is not None:
        raise AnalyzerError("give --decks or --shoe, not both")
    burn = parse_burn(args.burn)
    if args.work_dir == "":
        raise AnalyzerError("--work-dir '': name a folder")
    paytable, job, shoe = _job(args, burn)
    if args.exact:
        _refuse_sampling_options(args, paytable.game is not None)
        if args.work_dir is None and paytable.game is None and keeps_exact_work(job.counts):
            # Minutes of work: kept where a sampled run's partitions are, not lost to Ctrl-C.
            from analyzer.runs.kept import default_runs_folder

            args.work_dir = str(default_runs_folder())
        if args.resume and args.work_dir is None:
            raise AnalyzerError(
                "--exact --resume: a shoe this small is kept only in a --work-dir: name the "
                "one its passes were kept in"
            )
        records = [
            exact_record(r) for r in exact_dealt(job, work_dir=args.work_dir, resume=args.resume)
        ]
        return _output(args, paytable, job, shoe, records, exact=True), 0
    if args.work_dir is None:
        from analyzer.runs.kept import default_runs_folder

        args.work_dir = str(default_runs_folder())
    from analyzer.runs.as_dealt import dealt_summary, off_the_top

    results = job_from_args(args, dealt_task(job), job, job.check)
    records = dealt_summary(job, results, off_the_top(job))
    return _output(args, paytable, job, shoe, records, exact=False), 0


def _refuse_sampling_options(args: argparse.Namespace, family: bool) -> None:
    """--exact deals no shoes: an option of the sampled runs given with it is refused
    (it was once ignored without a word). Punto banco's passes are kept in --work-dir
    (without it, a large shoe's in the user's cache) and read back by --resume; a game of
    the family's exact run keeps nothing."""
    from analyzer.cli.runs import DEFAULT_PARTITION_SIZE

    given = {
        "--seed": args.seed != 0,
        "--partition-size": args.partition_size != DEFAULT_PARTITION_SIZE,
        "--workers": args.workers is not None,
        "--scheduler": args.scheduler is not None,
    }
    if family:
        given |= {"--work-dir": args.work_dir is not None, "--resume": args.resume}
    for option, is_given in given.items():
        if is_given:
            what = "a game of the family's keeps nothing" if family else "runs in one process"
            raise AnalyzerError(
                f"--exact deals no shoes and {what}: {option} is for sampled runs (--shoes N)"
            )


def _job(args: argparse.Namespace, burn: str):
    """The paytable, the job (every option checked, the work weighed) and the shoe."""
    from analyzer.cli.options import paytable_from_args
    from analyzer.game.shoe import shoe_from_file
    from analyzer.runs.as_dealt import DealRule, dealt_job

    paytable = paytable_from_args(args)
    shoe = None if args.shoe is None else shoe_from_file(args.shoe)
    job, shoe = dealt_job(
        paytable, args.bet, args.mode, decks=args.decks, shoe=shoe,
        rule=DealRule(args.cut_card, burn, args.last_round), seed=args.seed,
        exact=args.exact, shoes=args.shoes, partition_size=args.partition_size,
    )  # fmt: skip
    return paytable, job, shoe


def _output(args, paytable, job, shoe, records, *, exact: bool) -> str:
    from analyzer.reports.formats import json_text
    from analyzer.reports.outputs import dealt_data
    from analyzer.runs.as_dealt import rank_text

    rule = job.rule
    if args.format == "json":
        data = dealt_data(
            paytable, job, shoe, records, exact=exact, shoes=args.shoes, seed=args.seed,
            partition_size=args.partition_size, bets=args.bet, mode=args.mode,
            shoe_given=args.shoe is not None,
        )  # fmt: skip
        return json_text(data)
    from tabulate import tabulate

    shown = f"{job.size} cards ({rank_text(job.counts)})" if args.shoe else _decks(shoe.decks)
    dealt = counted(args.shoes, "shoe") if args.shoes else ""
    how = "exact, every order of the cards" if exact else f"{dealt}, seed {args.seed}"
    per_shoe = records[0]["rounds_per_shoe"]
    head = (
        f"{paytable.name}: {shown}, burn {rule.burn}, cut card {rule.cut_card} from the end, "
        f"last round {rule.last_round}; {how}; {float(per_shoe):.2f} rounds per shoe"
    )
    rows, unlimited = [], []
    for r in records:
        figures = r["with_limit"]
        rows.append(
            [
                r["name"],
                r["mode"],
                r["max_round"] or "-",
                _percent(r["rtp_off_the_top"]),
                _rtp(figures, exact),
                _signed(figures["difference"]),
            ]
        )
        if r["max_round"] is not None:
            figures = r["without_limit"]
            unlimited.append(
                [r["name"], r["mode"], _rtp(figures, exact), _signed(figures["difference"])]
            )
    headers = ["bet", "mode", "max round", "RTP off the top", "RTP dealt", "difference"]
    parts = [tabulate(rows, headers, tablefmt="simple", disable_numparse=True)]
    if unlimited:
        headers = ["bet", "mode", "RTP dealt, no max round", "difference"]
        parts.append(
            "The bets with a max round, on offer in every round dealt:\n\n"
            + tabulate(unlimited, headers, tablefmt="simple", disable_numparse=True)
        )
    note = "RTP dealt: the sum of the round EVs over the rounds bet, per round bet, over shoes" + (
        "" if exact else "; ± the 95% interval (delta method over shoes)"
    )
    text = "\n\n".join([textwrap.fill(head, 100), *parts, textwrap.fill(note, 100)])
    return text + "\n"


def _percent(value) -> str:
    return "-" if value is None else f"{100 * float(value):.4f}%"


def _signed(value) -> str:
    return "-" if value is None else f"{100 * float(value):+.4f}%"


def _rtp(figures: dict[str, Any], exact: bool) -> str:
    if figures["rtp"] is None:
        return "-"
    shown = _percent(figures["rtp"])
    se = figures.get("rtp_se")
    if exact or se is None:
        return shown
    from analyzer.runs.stats import Z_95

    return f"{shown} ± {100 * Z_95 * se:.4f}%"


def _decks(decks: int) -> str:
    return "1 deck" if decks == 1 else f"{decks} decks"
