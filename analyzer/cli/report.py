"""``baccarat-odds report``: the exact house edge of every bet (the main job)."""

from __future__ import annotations

import argparse

from analyzer.analysis.lab import MAX_TOP_AWARD_ROUNDS, TOP_AWARD_ROUNDS
from analyzer.cli.options import (
    add_bet_option,
    add_decisions_option,
    add_format_option,
    add_lang_option,
    add_mode_option,
    add_paytable_option,
    add_progress_options,
    add_report_out_option,
    add_shoe_options,
    check_report_out,
    deliver_report,
    exact_analysis,
    layout,
    paytable_from_args,
    shoe_fields,
    whole_number,
)
from analyzer.reports.formats import REPORT_FORMATS

DESCRIPTION = """\
The exact house edge, RTP, hit frequency, push and standard deviation of every bet of a
paytable, in every betting mode, counted over every card-removal path of the shoe. A whole
shipped game (no --bet, no --mode) ends with the check of its published maximum RTP.
--format xlsx writes a PAR sheet workbook (a Summary sheet, a sheet per bet with its
paying lines, a Volatility sheet) to the file --out names. The paying lines (--detail, and
the workbook) give each line's "1 in N" and each bet's top award with the chance of at
least one in --top-award-rounds rounds."""
EXAMPLES = """\
examples:
  baccarat-odds report                                  # every bet, both modes, the claim
  baccarat-odds report --decks 6 --mode no_commission   # another shoe, one mode
  baccarat-odds report --bet lucky_six --detail         # one bet, by paying line
  baccarat-odds report --bet tie --detail --top-award-rounds 1000   # top award in 1,000 rounds
  baccarat-odds report --paytable ez-baccarat --format markdown --lang tl
  baccarat-odds report --format xlsx --out par-sheet.xlsx   # the PAR sheet workbook"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_paytable_option(parser)
    add_shoe_options(parser)
    add_mode_option(
        parser, "both", "betting mode, or both (default): e.g. commission, no_commission"
    )
    add_bet_option(parser)
    parser.add_argument(
        "--detail",
        action="store_true",
        help="also print each bet's breakdown by paying line, with each paying line's "
        '"1 in N" and the bet\'s top award (a workbook always has it)',
    )
    parser.add_argument(
        "--top-award-rounds",
        type=whole_number(1, MAX_TOP_AWARD_ROUNDS),
        default=TOP_AWARD_ROUNDS,
        metavar="N",
        help="the rounds of the top-award check: the chance of at least one top award in N "
        f"rounds, 1 - (1 - p)^N (default {TOP_AWARD_ROUNDS:,}, as GLI-11 checks; with "
        "--detail, and in the workbook)",
    )
    add_decisions_option(parser)
    add_format_option(parser, REPORT_FORMATS, "--out")
    add_lang_option(parser)
    add_report_out_option(parser)
    add_progress_options(parser)


def run(args: argparse.Namespace) -> tuple[str, int]:
    # Imported here: --help, and every other command, start without pandas and Numba.
    from analyzer.paytables.claims import published_max_rtp
    from analyzer.reports.tables import render_report

    check_report_out(args.format, args.report_out)  # before any work
    paytable = paytable_from_args(args)
    mode = None if args.mode == "both" else args.mode
    analysis = exact_analysis(args, paytable, mode=mode, bets=args.bet)
    whole_game = args.bet is None and mode is None
    claim = published_max_rtp(paytable) if whole_game else None
    if args.format == "xlsx":
        from analyzer.reports.workbook import workbook_bytes

        content: str | bytes = workbook_bytes(
            analysis,
            claimed_max_rtp=claim,
            lang=args.lang,
            top_award_rounds=args.top_award_rounds,
        )
    else:
        content = render_report(
            analysis,
            args.format,
            detail=args.detail,
            claimed_max_rtp=claim,
            lang=args.lang,
            **layout(args),
            # (the shoe as the JSON contract writes it: only JSON writes the envelope)
            shoe=shoe_fields(args, analysis.shoe, paytable.decks)
            if args.format == "json"
            else None,
            bets=args.bet,
            top_award_rounds=args.top_award_rounds,
        )
    return deliver_report(content, args.report_out), 0
