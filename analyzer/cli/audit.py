"""``baccarat-odds audit``: check a log of the rounds a table dealt."""

from __future__ import annotations

import argparse
import json

from analyzer.cli.options import (
    add_decks_option,
    add_format_option,
    add_paytable_option,
    paytable_from_args,
)
from analyzer.game.shoe import INFINITE

HELP = "check a log of dealt rounds: drawing rules, scores, cards of each shoe, payouts"
DESCRIPTION = """\
Read a log of the rounds a table dealt (CSV or Parquet, one row per round: shoe, round,
player_cards, banker_cards; optionally burn, winner, player_score, banker_score and
payouts pay:<bet> or pay:<bet>:<mode>) and check every round against the paytable: the
drawing rules, the scores and winner, no card more often in a shoe than its decks hold,
rounds numbered in order, every payout as the paytable settles it, and no shoe dealt
twice. Findings are listed first, each with its shoe, round and row. Findings are about
the table, not errors: the exit status is 0 (1 with --fail-on-findings); a malformed log
is one line and exit status 2."""
EXAMPLES = """\
examples:
  baccarat-odds audit rounds.csv
  baccarat-odds audit rounds.parquet --paytable ez-baccarat --format json
  baccarat-odds audit rounds.csv --decks 6 --fail-on-findings   # exit 1 on any finding"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "log", metavar="LOG", help="the log: a CSV file with a header row, or a Parquet file"
    )
    add_paytable_option(parser)
    add_decks_option(parser)
    add_format_option(parser, ("text", "json"))
    parser.add_argument(
        "--fail-on-findings",
        action="store_true",
        help="exit status 1 when anything is found (default: 0, findings are not errors)",
    )


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.runs.audit_log import audit_log

    paytable = paytable_from_args(args)
    result = audit_log(args.log, paytable, args.decks)
    status = 1 if args.fail_on_findings and result.total else 0
    if args.format == "json":
        return json.dumps(_record(result, paytable), indent=2) + "\n", status
    return _text(result, paytable), status


def _column(bet_id: str, mode: str, paytable) -> str:
    from analyzer.analysis.audit import payout_column

    return payout_column(bet_id, mode, paytable)


def _record(result, paytable) -> dict:
    return {
        "paytable": paytable.name,
        "decks": None if result.decks == INFINITE else result.decks,
        "rounds": result.rounds,
        "shoes": result.shoes,
        "findings": [
            {
                "check": f.check,
                "row": f.row,
                "shoe": f.shoe,
                "round": f.round,
                "text": f.text,
            }
            for f in result.findings
        ],
        "findings_shown": len(result.findings),
        "findings_total": result.total,
        "counts": result.counts,
        "payouts_checked": [_column(b, m, paytable) for b, m in result.payouts_checked],
        "payouts_not_checkable": {
            _column(b, m, paytable): why for b, m, why in result.not_checkable
        },
    }


def _text(result, paytable) -> str:
    lines = []
    if result.findings:
        lines.append("Findings:")
        for f in result.findings:
            lines.append(f"  row {f.row}, shoe {f.shoe}, round {f.round}: {f.check}: {f.text}")
        hidden = result.total - len(result.findings)
        if hidden:
            lines.append(f"  ... and {hidden:,} more findings, not shown")
    else:
        lines.append("No findings.")
    lines.append("")
    decks = "an infinite deck" if result.decks == INFINITE else _count(result.decks, "deck")
    lines.append(
        f"Audited {_count(result.rounds, 'round')} of {_count(result.shoes, 'shoe')} against "
        f"{paytable.name} ({decks}): {_count(result.total, 'finding')}"
    )
    counted = ", ".join(f"{check} {n:,}" for check, n in result.counts.items())
    lines.append(f"  by check: {counted}")
    if result.payouts_checked:
        shown = ", ".join(_column(b, m, paytable) for b, m in result.payouts_checked)
        lines.append(f"  payouts checked: {shown}")
    for bet_id, mode, why in result.not_checkable:
        lines.append(f"  not checkable: {_column(bet_id, mode, paytable)}: {why}")
    return "\n".join(lines) + "\n"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"
