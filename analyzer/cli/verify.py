"""``baccarat-odds verify``: published figures (a claims file) against exact values."""

from __future__ import annotations

import argparse
import functools

from analyzer.analysis.verify import load_claims, verify_claims
from analyzer.cli.options import add_format_option, add_shoe_options, shoe_from_args
from analyzer.errors import AnalyzerError
from analyzer.game.cards import parse_cards
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import Paytable
from analyzer.reports.tables import csv_text, json_text, render_table

HELP = "check published figures in a claims file (or a shipped one, by name)"
DESCRIPTION = """\
Check published figures (a claims file: RTP, house edge, hit frequency, maximum RTP,
payouts, max rounds) against the exact values: PASS or FAIL for each, and exit status 1
when any fails."""
EXAMPLES = """\
examples:
  baccarat-odds verify seed-game                    # the help page's figures
  baccarat-odds verify my-claims.toml --format json
  baccarat-odds verify my-claims.toml --remove "5H 5H KS"  # your figures for a partly dealt shoe"""

#: How a payouts claim is checked, said under the table that shows them.
PAYOUTS_COMPARED = (
    "Payouts are compared as a multiset (a help page lists them in its own order), "
    "and shown highest first."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("claims", metavar="CLAIMS", help="a claims .toml file or a shipped name")
    add_shoe_options(parser)
    add_format_option(parser, ("text", "json", "csv"))


def run(args: argparse.Namespace) -> tuple[str, int]:
    claims = load_claims(args.claims)
    shoe = None
    if args.decks is not None or args.shoe is not None:
        shoe = shoe_from_args(args, 0)  # --decks or --shoe: the same shoe for every claim
    elif args.remove:
        # Cards removed from each paytable's own shoe (the decks it is dealt from).
        shoe = functools.partial(_own_shoe_less, args)
        parse_cards(args.remove, suit_required=False)  # a bad card is an error up front
    try:
        results = verify_claims(claims, shoe)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{args.claims}: {exc}") from None
    failed = int((results["result"] == "FAIL").sum())
    if args.format == "json":
        text = json_text(results.to_dict("records"))
    elif args.format == "csv":
        text = csv_text(results)
    else:
        shown = results.drop(columns="source")
        text = render_table(shown) + "\n\n"
        text += f"{len(results) - failed} passed, {failed} failed\n"
        if (results["quantity"] == "payouts").any():
            text += f"{PAYOUTS_COMPARED}\n"
        for row in results[results["result"] == "FAIL"].itertuples():
            text += (
                f"FAIL claim {row.claim}: {row.quantity} of {row.bet} ({row.paytable}"
                + ("" if row.mode == "-" else f", {row.mode}")
                + f") is {row.computed}, published {row.claimed}\n"
            )
    return text, 1 if failed else 0


def _own_shoe_less(args: argparse.Namespace, paytable: Paytable) -> Shoe:
    """The paytable's standard shoe less the --remove cards."""
    try:
        return shoe_from_args(args, paytable.decks)
    except AnalyzerError as exc:
        raise AnalyzerError(f"{exc} of {paytable.decks} deck(s) ({paytable.source})") from None
