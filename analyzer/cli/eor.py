"""``baccarat-odds eor``: the exact effect of removing one card of each rank, and the
linear counts those effects imply."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.cli.options import (
    add_bet_option,
    add_format_option,
    add_mode_option,
    add_paytable_option,
    add_shoe_options,
    paytable_from_args,
    shoe_from_args,
)
from analyzer.errors import AnalyzerError
from analyzer.files import check_writable, output_error
from analyzer.game.shoe import Shoe
from analyzer.paytables.model import RESERVED_MODES, Paytable

if TYPE_CHECKING:  # the analysis, pandas and Numba load when a command runs
    import pandas as pd

HELP = "exact effect of removing one card of each rank on each bet, and counts"
DESCRIPTION = """\
The exact change in each bet's expected value when one card of each rank (with --by-card,
each card) leaves the shoe, and the linear count those effects imply, with its betting
correlation."""
EXAMPLES = """\
examples:
  baccarat-odds eor --bet tie --bet lucky_six
  baccarat-odds eor --bet lucky_six --plot eor.png   # the effects as bar charts
  baccarat-odds eor --format json --decks 6"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_paytable_option(parser)
    add_shoe_options(parser)
    add_mode_option(parser, "both", "betting mode, or both (default)")
    add_bet_option(parser)
    add_format_option(parser, ("text", "markdown", "csv", "json"))
    parser.add_argument("--plot", metavar="FILE.png", help="also draw the EORs as bar charts")
    parser.add_argument(
        "--by-card",
        action="store_true",
        help="the effect of removing each card (rank and suit), not each rank",
    )


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

    offered = paytable.offered(resolve_modes(paytable, mode), None if bets is None else tuple(bets))
    done_of: dict[str, Fraction] = {}
    bets_done = Fraction(0)  # exact: a float sum of the bets' shares could pass the total
    with tqdm(
        total=len({bet.id for bet, _ in offered}),
        desc="effects of removal",
        leave=False,
        disable=None,  # only on a terminal
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
    import pandas as pd

    from analyzer.analysis.eor import linear_counts
    from analyzer.analysis.exact import resolve_modes
    from analyzer.reports.plots import MAX_CHART_BETS, effects_figure, save_png
    from analyzer.reports.tables import (
        ALL_MODES,
        bet_label,
        csv_text,
        fraction_text,
        json_text,
        markdown_escape,
        render_table,
        rows_shown_once,
        with_names,
    )

    paytable = paytable_from_args(args)
    if args.plot is not None:
        check_writable(args.plot, "--plot", (".png",))
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
    counts = {(c.bet, c.mode): c for c in linear_counts(effects)}
    effects["tag"] = [
        counts[(b, m)].tags[r]
        for b, m, r in zip(effects["bet"], effects["mode"], effects["rank"], strict=True)
    ]
    effects["betting_correlation"] = [
        counts[(b, m)].betting_correlation
        for b, m in zip(effects["bet"], effects["mode"], strict=True)
    ]
    effects["delta_ev_exact"] = effects["delta_ev_exact"].map(fraction_text)
    effects = with_names(effects, paytable)
    if by_card is not None:
        by_card = with_names(by_card, paytable)
    modes = paytable.modes if mode is None else (mode,)
    if args.format != "json":  # tools get every (bet, mode); people each bet once
        effects = rows_shown_once(effects, modes, ["name", "delta_ev_exact"])
        if by_card is not None:
            by_card = rows_shown_once(by_card, modes, ["name", "delta_ev_exact"])
    if args.plot is not None:
        names = dict(zip(effects["bet"], effects["name"], strict=True))
        try:
            save_png(effects_figure(effects, names=names), args.plot, held=True)
        except OSError as exc:
            raise output_error("--plot", args.plot, exc) from None
    if args.by_card:
        by_card = by_card.assign(delta_ev_exact=by_card["delta_ev_exact"].map(fraction_text))
        rows = by_card.drop(columns="cards")
    else:
        rows = effects.drop(columns="cards")
    if args.format == "json":
        return json_text(rows.to_dict("records")), 0
    if args.format == "csv":
        return csv_text(rows), 0
    shown = by_card if args.by_card else effects
    column = "card" if args.by_card else "rank"
    several_modes = len(modes) > 1
    labels = {  # each (bet, mode) as people read it: its name, and its mode
        (bet, bet_mode): bet_label(name, bet_mode, several_modes)
        for bet, bet_mode, name in zip(shown["bet"], shown["mode"], shown["name"], strict=True)
    }
    wide = shown.assign(change=(100 * shown["delta_ev"]).map(lambda v: f"{v:+.5f}")).pivot(
        index=["bet", "mode"], columns=column, values="change"
    )
    wide = wide.loc[list(labels), list(dict.fromkeys(shown[column]))]
    wide.index = pd.Index(list(labels.values()), name="EV change (% of a unit) per card removed")
    if args.by_card:  # 52 columns: one table per rank's four cards reads better
        wide = wide.T
    count_rows = []
    keys = zip(effects["bet"], effects["mode"], effects["name"], strict=True)
    for bet, shown_mode, name in dict.fromkeys(keys):
        # A bet shown once for all modes has the same count in each: the first mode's.
        c = counts[(bet, paytable.modes[0] if shown_mode == ALL_MODES else shown_mode)]
        count_rows.append(
            {
                "bet": bet_label(name, shown_mode, several_modes),
                "tags": " ".join(f"{rank}={tag:+d}" for rank, tag in c.tags.items()),
                "betting correlation": f"{c.betting_correlation:.4f}",
            }
        )
    count_rows = pd.DataFrame(count_rows)
    title = f"{paytable.name}: {shoe.describe()}"
    if args.format == "markdown":
        body = [
            f"## {markdown_escape(title)}",
            "",
            render_table(wide.reset_index(), "markdown"),
            "",
            "### Linear counts",
            "",
            render_table(count_rows, "markdown"),
        ]
    else:
        body = [
            title,
            "",
            render_table(wide.reset_index(), left_align=True),
            "",
            "Linear counts",
            render_table(count_rows, left_align=True),
        ]
    return "\n".join(body) + "\n", 0
