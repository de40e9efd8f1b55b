"""``baccarat-odds verify``: published figures (a claims file) against exact values."""

from __future__ import annotations

import argparse
import math
from fractions import Fraction

from analyzer.analysis.verify import load_claims, verify_claims
from analyzer.cli.options import add_format_option, add_shoe_options
from analyzer.errors import AnalyzerError
from analyzer.game.cards import parse_cards
from analyzer.game.shoe import shoe_from_file
from analyzer.reports.tables import csv_text, json_text
from analyzer.runs.studies import CountingStudies

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

#: The longest exact fraction a text line shows (a session's has thousands of digits).
MAX_FRACTION_SHOWN = 80

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
    if args.shoe is not None and args.decks is not None:
        raise AnalyzerError("give --decks or --shoe, not both")
    shoe = shoe_from_file(args.shoe) if args.shoe else None
    removed = parse_cards(args.remove, suit_required=False) if args.remove else []
    try:
        results = verify_claims(
            claims, shoe, decks=args.decks, remove=removed, simulator=CountingStudies()
        )
    except AnalyzerError as exc:
        raise AnalyzerError(f"{args.claims}: {exc}") from None
    failed = int((results["result"] == "FAIL").sum())
    if args.format == "json":
        return json_text(results.to_dict("records")), 1 if failed else 0
    if args.format == "csv":
        return csv_text(results), 1 if failed else 0
    lines = [_verdict_line(row) for row in results.itertuples()]
    slips = int(results["last_digit"].sum())
    summary = f"{len(results) - failed} passed, {failed} failed"
    if slips:
        summary += f" ({slips} in the last printed digit only)"
    lines += ["", summary]
    if (results["quantity"] == "payouts").any():
        lines.append(PAYOUTS_COMPARED)
    return "\n".join(lines) + "\n", 1 if failed else 0


def _verdict_line(row) -> str:
    """One claim on one line: the verdict, what the figure is about, the printed figure,
    the exact value printed the same way, and as a fraction."""
    result = "FAIL (last digit)" if row.last_digit else row.result
    mode = "" if row.mode == "-" else f" ({row.mode})"
    where = row.paytable if row.shoe == "-" else f"{row.paytable}, {row.shoe}"
    digits = row.computed.replace(",", "").replace(" ", "")
    exact = row.exact
    if len(exact) > MAX_FRACTION_SHOWN:
        root = exact.startswith("sqrt(")
        fraction = Fraction(exact[5:-1] if root else exact)
        numerator, _, denominator = str(fraction).partition("/")
        shown = math.sqrt(fraction) if root else float(fraction)
        exact = (
            f"{shown:.12g} ({'the root of ' if root else ''}a fraction of "
            f"{len(numerator.lstrip('-'))}/{len(denominator)} digits: --format json gives it)"
        )
    exact = f" = {exact}" if exact and exact != digits else ""
    note = f"; {row.note}" if row.note else ""
    value = {"exact": "exact", "": "paytable"}.get(row.method, "computed")
    return (
        f"{result} claim {row.claim}: {row.quantity} of {row.bet}{mode} [{where}]: "
        f"published {row.claimed}, {value} {row.computed}{exact}{note}"
    )
