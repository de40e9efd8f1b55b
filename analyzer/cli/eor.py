"""``baccarat-odds eor``: the exact effect of removing one card of each rank, and the
linear counts those effects imply."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.cli.options import (
    REPORT_SUFFIXES,
    add_bet_option,
    add_format_option,
    add_mode_option,
    add_paytable_option,
    add_progress_options,
    add_report_out_option,
    add_shoe_options,
    check_report_out,
    deliver_report,
    layout,
    paytable_from_args,
    shoe_fields,
    shoe_from_args,
    writes,
)
from analyzer.errors import AnalyzerError
from analyzer.files import check_outputs, output_error
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import RESERVED_MODES, Paytable
from analyzer.reports.document import Column, Document, Heading, records_table, table
from analyzer.reports.formats import REPORT_FORMATS

if TYPE_CHECKING:  # the analysis, pandas and Numba load when a command runs
    import pandas as pd

DESCRIPTION = """\
The exact change in each bet's expected value when one card of each rank (with --by-card,
each card) leaves the shoe, and the linear count those effects imply, with its betting
correlation."""
EXAMPLES = """\
examples:
  baccarat-odds eor --bet tie --bet lucky_six
  baccarat-odds eor --bet lucky_six --plot eor.png   # the effects as bar charts
  baccarat-odds eor --format json --decks 6
  baccarat-odds eor --paytable three-card-baccarat --bet tie --bet three_faces"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_paytable_option(parser)
    add_shoe_options(parser)
    add_mode_option(parser, "both", "betting mode, or both (default)")
    add_bet_option(parser)
    add_format_option(parser, REPORT_FORMATS, "--out")
    add_report_out_option(parser)
    writes(
        parser.add_argument(
            "--plot", metavar="FILE.png", help="also draw the EORs as bar charts (default: no plot)"
        )
    )
    parser.add_argument(
        "--by-card",
        action="store_true",
        help="the effect of removing each card (rank and suit), not each rank",
    )
    add_progress_options(parser)


def effects_with_progress(
    paytable: Paytable,
    shoe: Shoe,
    mode: str | None,
    bets: list[str] | None,
    every_card: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`removal_effects` with a progress bar on stderr, on a terminal only (as a
    run's): it counts the bets, each advancing as its cards are removed, and names the
    bet in hand (a bet on the cards takes minutes)."""
    from tqdm import tqdm

    from analyzer.analysis.eor import removal_effects
    from analyzer.analysis.exact import resolve_modes
    from analyzer.progress import bar_options

    offered = paytable.offered(resolve_modes(paytable, mode), None if bets is None else tuple(bets))
    done_of: dict[str, Fraction] = {}
    bets_done = Fraction(0)  # exact: a float sum of the bets' shares could pass the total
    with tqdm(
        total=len({bet.id for bet, _ in offered}),
        desc="effects of removal",
        **bar_options(leave=False),
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.1f}/{total} bets "
        "[{elapsed}<{remaining}{postfix}]",
    ) as bar:

        def advance(bet: str, done: int, total: int) -> None:
            nonlocal bets_done
            share = Fraction(done, total)
            bets_done += share - done_of.get(bet, Fraction(0))
            done_of[bet] = share
            bar.n = float(bets_done)
            bar.set_postfix_str(bet)  # drawn at once: each card removed takes a while

        return removal_effects(paytable, shoe, mode, bets, every_card, progress=advance)


def run(args: argparse.Namespace) -> tuple[str, int]:
    from analyzer.analysis.eor import with_linear_counts
    from analyzer.analysis.exact import resolve_modes
    from analyzer.reports.contract import played_options
    from analyzer.reports.plots import MAX_CHART_BETS, effects_figure, save_png
    from analyzer.reports.tables import rows_shown_once, with_names
    from analyzer.reports.writers import write_document

    check_report_out(args.format, args.report_out)
    paytable = paytable_from_args(args)
    outputs = {"--out": (args.report_out, REPORT_SUFFIXES.get(args.format))}
    check_outputs(outputs | {"--plot": (args.plot, (".png",))})
    shoe = shoe_from_args(args, paytable.decks)
    mode = None if args.mode in RESERVED_MODES else args.mode  # "both" and "all": every mode
    if args.plot is not None:
        modes = resolve_modes(paytable, mode)
        bets = {bet.id for bet, _ in paytable.offered(modes, args.bet and tuple(args.bet))}
        if len(bets) > MAX_CHART_BETS:
            raise AnalyzerError(
                f"--plot draws at most {MAX_CHART_BETS} bets, a panel each, and {len(bets)} "
                "are asked for: choose the bets to draw with --bet (the tables take any number)"
            )
    effects, by_card = effects_with_progress(paytable, shoe, mode, args.bet, args.by_card)
    effects, counts = with_linear_counts(effects)
    effects = with_names(effects, paytable)
    if by_card is not None:
        by_card = with_names(by_card, paytable)
    # Tools get every (bet, mode) as JSON; the tables each bet once.
    every = (by_card if args.by_card else effects).drop(columns="cards").to_dict("records")
    modes = paytable.modes if mode is None else (mode,)
    effects = rows_shown_once(effects, modes, ["name", "delta_ev_exact"])
    if by_card is not None:
        by_card = rows_shown_once(by_card, modes, ["name", "delta_ev_exact"])
    if args.plot is not None:
        names = dict(zip(effects["bet"], effects["name"], strict=True))
        try:
            save_png(effects_figure(effects, names=names), args.plot, held=True)
        except OSError as exc:
            raise output_error("--plot", args.plot, exc) from None
    per_card = by_card if args.by_card else None
    header = {
        "shoe": shoe_fields(args, shoe, paytable.decks),
        "options": {
            "modes": list(modes),
            "bets": args.bet,
            "by_card": args.by_card,
            **played_options(paytable),
        },
    }
    document = effects_document(paytable, shoe, effects, per_card, counts, modes, every, header)
    content = write_document(document, args.format, **layout(args))
    return deliver_report(content, args.report_out), 0


def effects_document(
    paytable: Paytable,
    shoe: Shoe,
    effects: pd.DataFrame,
    by_card: pd.DataFrame | None,
    counts: dict,
    modes: tuple[str, ...],
    every: list[dict],
    header: dict | None = None,
) -> Document:
    """The effects of removal as a document: for people, the change in each bet's EV
    (in % of a unit) per rank (or card: a row per card) removed, and each bet's linear
    count; for tools, ``every`` row (bet, mode, rank or card) with its exact change, in
    JSON (the eor contract, ``header`` its shoe and options) and CSV alike."""
    from analyzer.reports.contract import envelope, shoe_record
    from analyzer.reports.tables import ALL_MODES, bet_label
    from analyzer.reports.writers import tool_rows

    shown = effects if by_card is None else by_card
    column = "rank" if by_card is None else "card"
    several_modes = len(modes) > 1
    keys = list(dict.fromkeys(zip(shown["bet"], shown["mode"], shown["name"], strict=True)))
    labels = [bet_label(name, bet_mode, several_modes) for _, bet_mode, name in keys]
    removed = list(dict.fromkeys(shown[column]))
    change = {
        (bet, bet_mode, card): value
        for bet, bet_mode, card, value in zip(
            shown["bet"], shown["mode"], shown[column], shown["delta_ev_exact"], strict=True
        )
    }
    title = "EV change (% of a unit) per card removed"
    cell = {"kind": "number", "places": 5, "signed": True, "scale": 100}
    if by_card is None:
        columns = [Column(title), *(Column(str(card), **cell) for card in removed)]
        rows = [
            [label, *(change[(bet, bet_mode, card)] for card in removed)]
            for (bet, bet_mode, _), label in zip(keys, labels, strict=True)
        ]
    else:  # 52 columns: a row per card, a column per bet, reads better
        columns = [Column(column), *(Column(label, **cell) for label in labels)]
        rows = [
            [card, *(change[(bet, bet_mode, card)] for bet, bet_mode, _ in keys)]
            for card in removed
        ]
    count_rows = []
    for bet, shown_mode, name in dict.fromkeys(
        zip(effects["bet"], effects["mode"], effects["name"], strict=True)
    ):
        # A bet shown once for all modes has the same count in each: the first mode's.
        c = counts[(bet, paytable.modes[0] if shown_mode == ALL_MODES else shown_mode)]
        count_rows.append(
            [
                bet_label(name, shown_mode, several_modes),
                " ".join(f"{rank}={tag:+d}" for rank, tag in c.tags.items()),
                c.betting_correlation,
            ]
        )
    counts_table = table(
        [Column("bet"), Column("tags"), Column("betting correlation", "number", places=4)],
        count_rows,
        audience="people",
        tight=True,
    )
    kinds = {"delta_ev_exact": "fraction", "tag": "count"}
    tools = records_table(every, kinds)
    blocks = (
        table(columns, rows, audience="people"),
        Heading("Linear counts", 2),
        counts_table,
        tools,
    )
    header = header or {"shoe": shoe_record(shoe), "options": {"modes": list(modes)}}
    data = envelope("eor", paytable=paytable, rows=tool_rows(tools), **header)
    return Document(f"{paytable.name}: {shoe.describe()}", blocks, data)
