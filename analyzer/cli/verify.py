"""``baccarat-odds verify``: published figures (a claims file) against exact values."""

from __future__ import annotations

import argparse
import math
from fractions import Fraction
from pathlib import Path

from analyzer.cli.options import (
    add_format_option,
    add_progress_options,
    add_shoe_options,
    layout,
    reads,
    unknowns_option,
)
from analyzer.errors import AnalyzerError
from analyzer.game.cards import parse_cards
from analyzer.game.shoe import shoe_from_file

DESCRIPTION = """\
Check published figures against the exact values, each at the digits its source printed
(or, printed = "float", as the nearest double prints): house edges, RTPs, hit
frequencies, pushes, variances, standard deviations, returns, combination counts and
probabilities (of a paying line or of any event, given another), effects of removal,
sessions of N rounds, wins among resolved decisions, counting studies, payouts, largest
payouts and max rounds, on one shoe or across deck counts (verify --explain prints a
claims file's keys). On a paytable with unknowns and no --unknowns, a bet's figure or the
maximum RTP is answered by the set of unknowns it allows, as fit solves it. One line per
claim: PASS, FAIL (or FAIL (last digit): one off in the last printed digit), or
UNCHECKED where the shoe cannot give the figure exactly; exit status 1 unless every
claim passes. Shipped claims files:
the seed game's help pages (seed-game, seed-game-ms), the main game's published tables
(baccarat-tables), and one per shipped paytable with published figures."""
EXAMPLES = """\
examples:
  baccarat-odds verify --explain                    # a claims file's keys, and an example
  baccarat-odds verify seed-game                    # the help page's figures
  baccarat-odds verify dragon-bonus --format json   # Wizard of Odds' tables, line by line
  baccarat-odds verify seed-game --remove "5H 5H KS"  # exit 1: figures of a full shoe"""

#: The longest exact fraction a text line shows (a session's has thousands of digits).
MAX_FRACTION_SHOWN = 80

#: How a payouts claim is checked, said under the table that shows them.
PAYOUTS_COMPARED = (
    "Payouts are compared as a multiset (a help page lists them in its own order), "
    "and shown highest first."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    reads(
        parser.add_argument(
            "claims",
            metavar="CLAIMS",
            nargs="?",
            help="a claims .toml file or a shipped name (no default: required but with --explain)",
        ),
        "the claims file read",
        names=True,
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print a claims file's format instead (every key: its type, whether required, "
        "its default, what it means, an example; how printed digits decide PASS or FAIL; "
        "an example file) and exit",
    )
    add_shoe_options(parser)
    parser.add_argument(
        "--unknowns",
        type=unknowns_option,
        default=None,
        metavar="NAME=VALUE,...",
        help="values of the unknowns of the claims' paytable's [multipliers] (e.g. "
        '"p=7/113"): its claims are then checked at them (default: none given: a bet\'s '
        "figure or max_rtp is answered by the set of unknowns it allows, as fit solves it, "
        "and other claims that depend on them are left unchecked)",
    )
    add_format_option(parser, ("text", "json", "csv"))
    add_progress_options(parser)


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.analysis.verify import load_claims, verify_claims
    from analyzer.reports.document import Document, Paragraph, records_table
    from analyzer.reports.writers import tool_rows, write_document
    from analyzer.runs.studies import CountingStudies

    if args.explain:
        if args.claims is not None:
            raise AnalyzerError("--explain prints the claims file format: give it no CLAIMS")
        from analyzer.paytables.claims import claims_format

        return claims_format(), 0
    if args.claims is None:
        raise AnalyzerError(
            "give CLAIMS: a claims .toml file or a shipped name (--explain: the file format)"
        )
    claims = load_claims(args.claims)
    if args.shoe is not None and args.decks is not None:
        raise AnalyzerError("give --decks or --shoe, not both")
    shoe = shoe_from_file(args.shoe) if args.shoe else None
    removed = parse_cards(args.remove, suit_required=False) if args.remove else []
    given = None
    if args.unknowns is not None:
        from analyzer.paytables.library import load_paytable
        from analyzer.paytables.model import with_values

        named = {claim.paytable for claim in claims}
        if len(named) > 1:
            raise AnalyzerError("--unknowns: the claims name several paytables; give one's")
        given = with_values(load_paytable(named.pop()), unknowns=args.unknowns)
    try:
        results = verify_claims(
            claims,
            shoe,
            decks=args.decks,
            remove=removed,
            simulator=CountingStudies(),
            paytable=given,
        )
    except AnalyzerError as exc:
        raise AnalyzerError(f"{args.claims}: {exc}") from None
    counts = results["result"].value_counts()
    passed, failed = int(counts.get("PASS", 0)), int(counts.get("FAIL", 0))
    unchecked = int(counts.get("UNCHECKED", 0))
    status = 0 if passed == len(results) else 1
    lines = [_verdict_line(row) for row in results.itertuples()]
    known = {claim.number for claim in claims if claim.slip}
    slips = int(results["result"].eq("FAIL")[results["claim"].isin(known)].sum())
    last = int(results["last_digit"].sum())
    notes = [
        f"{slips} known slip{'s' if slips != 1 else ''} of the source" if slips else "",
        f"{last} in the last printed digit only" if last else "",
    ]
    summary = f"{passed} passed, {failed} failed"
    if any(notes):
        summary += f" ({'; '.join(filter(None, notes))})"
    if unchecked:
        summary += (
            f", {unchecked} not checked (this shoe cannot give them exactly, or they need "
            "values of unknowns)"
        )
    notes = []
    if (results["quantity"] == "payouts").any():
        notes = [Paragraph(PAYOUTS_COMPARED, tight=True, prose=True)]
    records = results.to_dict("records")
    tools = records_table(records)
    data = _verify_data(args, claims, shoe, removed, tool_rows(tools))
    blocks = (Paragraph("\n".join(lines)), Paragraph(summary), *notes, tools)
    return write_document(Document(None, blocks, data), args.format, **layout(args)), status


def _verify_data(args: argparse.Namespace, claims: list, shoe, removed: list, rows: list) -> dict:
    """The verify contract: the claims file (its id and the sha256 of its content), the
    paytable where every claim names the same one, the shoe the options impose on every
    claim (null: each claim's own), and a row per claim."""
    import hashlib

    from analyzer.game.shoe import Shoe
    from analyzer.paytables.library import is_path, load_paytable, shipped_claims
    from analyzer.reports.contract import envelope, shoe_record

    path = Path(args.claims) if is_path(args.claims) else shipped_claims(args.claims)
    named = {claim.paytable for claim in claims}
    paytable = load_paytable(named.pop()) if len(named) == 1 else None
    fields = None
    if shoe is not None or args.decks is not None or removed:
        if shoe is None:
            base = args.decks if args.decks is not None else None
            if base is None and paytable is not None:
                base = paytable.decks
            start = None if base is None else Shoe.standard(base)
        else:
            base, start = None, shoe
        if start is not None:
            fields = shoe_record(start.remove(removed), base, removed)
        else:  # cards out of each claim's own shoe, of several paytables' decks
            fields = {"decks": None, "cards": None, "removed": [str(c) for c in removed]}
            fields["ranks"] = None
    claims_file = {
        "id": Path(args.claims).stem if is_path(args.claims) else args.claims,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }
    return envelope(
        "verify",
        paytable=paytable,
        shoe=fields,
        options={"claims": args.claims}
        | (
            {}
            if args.unknowns is None
            else {"unknowns": {name: str(value) for name, value in args.unknowns.items()}}
        ),
        rows=rows,
        claims_file=claims_file,
    )


def _shortened(exact: str) -> str:
    """An exact value for a text line: a long fraction (or its root) as a decimal, with
    its size."""
    if len(exact) <= MAX_FRACTION_SHOWN or "/" not in exact:
        return exact
    root = exact.startswith("sqrt(")
    fraction = Fraction(exact[5:-1] if root else exact)
    numerator, _, denominator = str(fraction).partition("/")
    shown = math.sqrt(fraction) if root else float(fraction)
    return (
        f"{shown:.12g}: {'the root of ' if root else ''}a fraction of "
        f"{len(numerator.lstrip('-')):,} digits over {len(denominator):,}, which "
        "--format json gives"
    )


def _verdict_line(row) -> str:
    """One claim on one line: the verdict, what the figure is about, the printed figure,
    the exact value printed the same way, and as a fraction."""
    result = "FAIL (last digit)" if row.last_digit else row.result
    if row.result == "UNCHECKED":
        return f"UNCHECKED claim {row.claim}: {row.quantity} of {row.bet}: {row.note}"
    mode = "" if row.mode == "-" else f" ({row.mode})"
    where = row.paytable if row.shoe == "-" else f"{row.paytable}, {row.shoe}"
    digits = row.computed.replace(",", "").replace(" ", "")
    # (a range's exact values are its two ends', each shortened alone)
    exact = " to ".join(_shortened(part) for part in row.exact.split(" to ")) if row.exact else ""
    exact = f" (exactly {exact})" if exact and exact != digits else ""
    note = f"; {row.note}" if row.note else ""
    value = {"exact": "exact", "": "paytable", "fit": "allows"}.get(row.method, "computed")
    return (
        f"{result} claim {row.claim}: {row.quantity} of {row.bet}{mode} [{where}]: "
        f"published {row.claimed}, {value} {row.computed}{exact}{note}"
    )
