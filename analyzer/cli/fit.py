"""``baccarat-odds fit``: what published figures allow of a paytable's unknowns."""

from __future__ import annotations

import argparse

from analyzer.cli.options import add_format_option, add_progress_options, reads
from analyzer.game.shoe import Shoe

DESCRIPTION = """\
A paytable's [multipliers] may leave probabilities unknown ([unknowns] p = "0..1", values
= { 2 = "1 - p", 8 = "p" }). Every figure of a multiplied bet is then an exact polynomial
in the unknowns; each claim of the claims file (an RTP, house edge, return, variance...
as printed; the game's maximum RTP: some bet's RTP prints so and none is above) holds on
a set of them. For each claim, and for all of them together, fit
prints the interval of each unknown that holds every consistent value: exact where its
end is a simple fraction, else a decimal rounded outward; "[" or "]" where the end as
shown is itself consistent, "(" or ")" where it is not (a decimal rounded outward; an end
where a figure printed 98.8% reaches 98.85%, which prints 98.9%). With one unknown the set is exact
(between roots of the polynomials), and so it is where every figure is linear in the
unknowns (between the vertices of a polytope); else a branch and bound in
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
    add_progress_options(parser)


def run(args: argparse.Namespace) -> tuple[str, int]:
    import pandas as pd
    from tqdm import tqdm

    from analyzer.analysis.fit import (
        claims_to_fit,
        decimal_note,
        fit,
        fit_rows,
        sets_to_solve,
    )
    from analyzer.progress import bar_options
    from analyzer.reports.tables import json_text, render_table

    paytable, claims = claims_to_fit(args.claims)
    with tqdm(
        total=sets_to_solve(claims), desc="fit", unit="set", **bar_options(leave=False)
    ) as bar:
        each, together = fit(paytable, claims, bar.update)
        bar.update()
    status = 1 if together.empty else 0
    if args.format == "json":
        from analyzer.reports.outputs import fit_data

        return json_text(fit_data(paytable, each, together)), status
    rows = fit_rows(paytable, each, together)
    table = render_table(pd.DataFrame(rows), left_align=True)
    ranges = ", ".join(f"{name} in {low}..{high}" for name, low, high in paytable.unknowns)
    shoe = Shoe.standard(paytable.decks).describe()
    probabilities = (
        "of the multipliers" if paytable.multipliers is not None else "of the cards shown"
    )
    lines = [
        f"{paytable.name} on {shoe} (unless a claim names its shoe): the unknowns "
        f"({ranges}) each published figure allows, and all of them together",
        "",
        table,
        "",
        "Each interval holds every value of the unknown consistent with the figures as "
        f"printed (with every probability {probabilities} in [0, 1]); ends that are "
        "not simple fractions are rounded outward; an end in [ or ] is itself consistent, "
        "one in ( or ) is not.",
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
