"""``baccarat-odds fit``: what published figures allow of a paytable's unknowns."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from analyzer.cli.options import add_format_option, reads
from analyzer.errors import AnalyzerError
from analyzer.game.shoe import Shoe
from analyzer.paytables.library import load_paytable

if TYPE_CHECKING:  # the analysis, pandas and Numba load when a command runs
    from analyzer.analysis.fit import FitResult

DESCRIPTION = """\
A paytable's [multipliers] may leave probabilities unknown ([unknowns] p = "0..1", values
= { 2 = "1 - p", 8 = "p" }). Every figure of a multiplied bet is then an exact polynomial
in the unknowns; each claim of the claims file (an RTP, house edge, return, variance...
as printed) holds on a set of them. For each claim, and for all of them together, fit
prints the interval of each unknown that holds every consistent value: exact where its
end is a simple fraction, else a decimal rounded outward. With one unknown the set is
exact (between roots of the polynomials); with several, a branch and bound in
outward-rounded interval arithmetic bounds it to 12 significant digits. "none": the
figures contradict the rules as encoded; the exit status is then 1."""
EXAMPLES = """\
examples:
  baccarat-odds fit prosperity-tree-baccarat      # win2day's published returns
  baccarat-odds fit prosperity-tree-baccarat --format json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    reads(
        parser.add_argument(
            "claims", metavar="CLAIMS", help="a claims .toml file or a shipped name"
        ),
        "the claims file read",
        names=True,
    )
    add_format_option(parser, ("text", "json"))


def _cell(result: FitResult | None, name: str) -> str:
    if result is None:
        return "-"
    pieces = result.intervals[name]
    return " or ".join(piece.text() for piece in pieces) if pieces else "none"


def _record(result: FitResult) -> dict:
    return {
        "intervals": {
            name: [[piece.low.text(False), piece.high.text(True)] for piece in pieces]
            for name, pieces in result.intervals.items()
        },
        "consistent": not result.empty,
        "exact": result.exact
        and all(
            piece.low.exact and piece.high.exact
            for pieces in result.intervals.values()
            for piece in pieces
        ),
        "digits": result.digits,
        "witness": None
        if result.witness is None
        else {name: str(value) for name, value in result.witness.items()},
    }


def run(args: argparse.Namespace) -> tuple[str, int]:
    import pandas as pd
    from tqdm import tqdm

    from analyzer.analysis.fit import FIT_FIGURES, decimal_note, fit
    from analyzer.analysis.verify import load_claims
    from analyzer.reports.tables import json_text, render_table

    claims = load_claims(args.claims)
    names = {claim.paytable for claim in claims}
    if len(names) > 1:
        raise AnalyzerError("fit solves one paytable's unknowns: the claims name several")
    paytable = load_paytable(claims[0].paytable)
    solves = sum(claim.quantity in FIT_FIGURES for claim in claims) + 1
    with tqdm(total=solves, desc="fit", unit="set", leave=False, disable=None) as bar:
        each, together = fit(paytable, claims, bar.update)
        bar.update()
    unknowns = [name for name, _, _ in paytable.unknowns]
    status = 1 if together.empty else 0
    if args.format == "json":
        record = {
            "paytable": paytable.name,
            "unknowns": {name: f"{low}..{high}" for name, low, high in paytable.unknowns},
            "claims": [
                {"claim": item.claim.number, "figure": item.figure}
                | (
                    _record(item.result)
                    if item.result is not None
                    else {"consistent": item.consistent, "moved_by_unknowns": False}
                )
                for item in each
            ],
            "together": _record(together),
        }
        return json_text(record), status
    rows = []
    for item in each:
        row = {"claim": str(item.claim.number), "figure": item.figure}
        for name in unknowns:
            if item.result is not None:
                row[name] = _cell(item.result, name)
            elif item.consistent is None:
                row[name] = "(not a figure of one bet: verify checks it)"
            else:
                row[name] = "any" if item.consistent else "none"
        rows.append(row)
    rows.append({"claim": "all", "figure": ""} | {n: _cell(together, n) for n in unknowns})
    table = render_table(pd.DataFrame(rows), left_align=True)
    ranges = ", ".join(f"{name} in {low}..{high}" for name, low, high in paytable.unknowns)
    shoe = Shoe.standard(paytable.decks).describe()
    lines = [
        f"{paytable.name} on {shoe} (unless a claim names its shoe): the unknowns "
        f"({ranges}) each published figure allows, and all of them together",
        "",
        table,
        "",
        "Each interval holds every value of the unknown consistent with the figures as "
        "printed (with every probability of the multipliers in [0, 1]); ends that are "
        "not simple fractions are rounded outward.",
    ]
    if together.witness is not None:
        point = ", ".join(
            f"{name} = {value}" + (f" ({note})" if (note := decimal_note(value)) else "")
            for name, value in together.witness.items()
        )
        lines.append(
            f"A point consistent with every figure (checked exactly, at these fractions): {point}."
        )
    if together.digits is not None:
        lines.append(f"The bounds reached {together.digits} significant digits, not 12.")
    if together.empty:
        lines.append("none: the figures contradict the rules as encoded.")
    return "\n".join(lines) + "\n", status
