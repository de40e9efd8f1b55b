"""Charts, drawn on :class:`matplotlib.figure.Figure` objects.

No pyplot: a figure made here never touches the global backend or figure manager, so
these functions are safe in a notebook or a server, and the caller decides where the
figure goes (:func:`save_png` writes one whole or not at all).
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.analysis.audit_fit import FitResult
from analyzer.errors import AnalyzerError
from analyzer.files import write_atomically
from analyzer.reports.i18n import sentence, word
from analyzer.reports.tables import bet_label
from analyzer.words import counted

#: Most bets a chart of effects of removal draws (a panel per bet and mode): past a few
#: dozen it is metres tall and minutes to draw. The tables show any number of bets.
MAX_CHART_BETS = 40
#: Most curves a chart of a count draws, one (bet, mode) each: one colour each (tab20).
MAX_CHART_CURVES = 20


def check_chart_size(count: int, limit: int, what: str) -> None:
    """Refuse a chart of more than ``limit`` ``what`` (see :data:`MAX_CHART_BETS`)."""
    if count > limit:
        raise AnalyzerError(f"a chart draws at most {limit} {what}, got {count}")


def _figure(width: float, height: float):
    # matplotlib warns on stderr when its config folder is not writable; a chart is no
    # reason for a second line on the user's terminal.
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    from analyzer.reports.chart import Chart  # a Figure that a notebook shows as a PNG

    # Constrained layout fits titles, labels and legends of any number of panels (tight
    # layout gave up on many, with a warning on stderr).
    return Chart(figsize=(width, height), layout="constrained")


def effects_figure(effects: pd.DataFrame, lang: str = "en", names: Mapping[str, str] | None = None):
    """Bar charts of the effects of removal of each (bet, mode), per rank; titles in
    ``lang``, bets by ``names`` (bet id -> name; default: the ids). A bet that no card
    moves (the pair bets) gets a panel that says so."""
    check_chart_size(effects["bet"].nunique(), MAX_CHART_BETS, "bets")
    groups = list(effects.groupby(["bet", "mode"], sort=False))
    columns = min(3, len(groups))
    rows = -(-len(groups) // columns)
    fig = _figure(4.5 * columns, 2.8 * rows)
    axes = fig.subplots(rows, columns, squeeze=False)
    for ax, ((bet, mode), group) in zip(axes.flat, groups, strict=False):
        values = 100 * group["delta_ev"].to_numpy()
        ax.bar(group["rank"], values, color=["tab:green" if v > 0 else "tab:red" for v in values])
        ax.axhline(0, color="black", linewidth=0.6)
        # A float effect is 0 only where the exact one is: the smallest other is some
        # 1e-32, far inside float's range.
        if not values.any():
            ax.set_yticks([0])
            ax.text(
                0.5,
                0.7,
                textwrap.fill(sentence("eor_no_effect", lang), 40),
                transform=ax.transAxes,
                ha="center",
                va="center",
                fontsize=8,
            )
        name = bet if names is None else names.get(bet, bet)
        # Names come from paytable files: shown as written, never read as math ($...$).
        ax.set_title(f"{name} ({word(mode, lang)})", fontsize=9, parse_math=False)
        ax.set_ylabel(sentence("eor_axis", lang), fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(groups) :]:
        ax.axis("off")
    fig.suptitle(sentence("eor_title", lang), fontsize=11)
    return fig


def _column_label(
    bet: str, mode: str, several_modes: bool, bet_names: Mapping[tuple[str, str], str] | None
) -> str:
    name = bet if bet_names is None else bet_names.get((bet, mode), bet)
    return bet_label(name, mode, several_modes)


#: A round is drawn in the EV-by-round chart when at least this many shoes reach it (all
#: of them, if fewer were dealt): the last rounds of a shoe, reached by a few shoes, would
#: otherwise be drawn with the weight of those that every shoe reaches.
MIN_ROUND_SHOES = 30


def rounds_figure(
    rounds: pd.DataFrame,
    max_rounds: dict[tuple[str, str], int | None],
    bet_names: Mapping[tuple[str, str], str] | None = None,
    min_shoes: int = MIN_ROUND_SHOES,
):
    """Counted bets by round of the shoe (``rounds``: as ``per_round_table`` gives it):
    mean exact EV with its 95% band (1.96 standard errors over the shoes reaching the
    round), and the share of rounds with a positive EV, one curve per (bet, mode), each
    max round marked in its colour; below, how many shoes reach each round. The curves
    stop where fewer than ``min_shoes`` shoes (all, if fewer were dealt) reach a round,
    and a note says where. Bets by ``bet_names`` ((bet id, mode) -> name; default: the
    ids)."""
    check_chart_size(len(max_rounds), MAX_CHART_CURVES, "curves")
    fig = _figure(9, 8)
    top, middle, bottom = fig.subplots(3, 1, sharex=True, height_ratios=(3, 2, 1.2))
    reach = rounds.drop_duplicates("round").sort_values("round")  # the same shoes for all
    dealt = int(reach["shoes"].max())  # every shoe reaches round 1
    needed = min(min_shoes, dealt)
    last = int(reach.loc[reach["shoes"] >= needed, "round"].max())
    several_modes = rounds["mode"].nunique() > 1
    colours = _colours(len(max_rounds))
    for colour, ((bet, mode), group) in zip(
        colours, rounds.groupby(["bet", "mode"], sort=False), strict=True
    ):
        label = _column_label(bet, mode, several_modes, bet_names)
        shown = group[group["round"] <= last]
        mean, error = 100 * shown["mean_ev"], 100 * 1.96 * shown["mean_ev_se"]
        top.plot(shown["round"], mean, color=colour, label=label)
        if error.notna().any():  # none from a single shoe
            top.fill_between(
                shown["round"], mean - error, mean + error, color=colour, alpha=0.15, linewidth=0
            )
        middle.plot(shown["round"], 100 * shown["positive_ev_share"], color=colour)
        cap = max_rounds[(bet, mode)]
        if cap:
            for ax in (top, middle):
                ax.axvline(cap, color=colour, linestyle="--", linewidth=0.9)
    bottom.plot(reach["round"], reach["shoes"], color="black", drawstyle="steps-mid")
    bottom.set_yscale("log")  # the last rounds' few shoes, beside the thousands before
    bottom.set_ylim(0.7, 2 * dealt)
    if last < reach["round"].max():
        for ax in (top, middle, bottom):
            ax.axvspan(last + 0.5, reach["round"].max() + 0.5, color="0.92", linewidth=0)
        bottom.axhline(needed, color="black", linestyle=":", linewidth=0.9)
        bottom.text(
            0.01,
            0.08,
            f"curves stop at round {last}: later rounds are reached by fewer than "
            f"{needed} of the {dealt:,} shoes (dotted)",
            transform=bottom.transAxes,
            ha="left",
            va="bottom",
            fontsize=7,
        )
    top.axhline(0, color="black", linewidth=0.6)
    top.set_ylabel("mean EV, % of a unit\n(band: 95%)")
    middle.set_ylabel("rounds with EV > 0, %")
    bottom.set_ylabel("shoes reaching\nthe round")
    bottom.set_xlabel("round of the shoe (dashed: the bet's max round)")
    top.legend(fontsize=7, ncol=2 if len(max_rounds) > 8 else 1)
    top.set_title("Exact EV of the cards left, by round")
    return fig


def gains_figure(
    summaries: list[dict],
    max_gain: float,
    bet_names: Mapping[tuple[str, str], str] | None = None,
):
    """The max-round advisor: a counter's gain per shoe (units) against the max round,
    one panel per play (perfect play, linear count), one curve per (bet, mode) with its
    95% band, the paytable's max round dotted in the curve's colour, ``max_gain`` dashed;
    bets by ``bet_names`` as in :func:`rounds_figure`."""
    check_chart_size(len(summaries), MAX_CHART_CURVES, "curves")
    plays = [play for play in ("perfect", "count") if any(play in s["curves"] for s in summaries)]
    fig = _figure(9, 4.2 * len(plays))
    axes = fig.subplots(len(plays), 1, sharex=True, squeeze=False)[:, 0]
    several_modes = len({s["mode"] for s in summaries}) > 1
    colours = _colours(len(summaries))
    names = {"perfect": "perfect play", "count": "linear count"}
    for ax, play in zip(axes, plays, strict=True):
        for colour, summary in zip(colours, summaries, strict=True):
            curve = summary["curves"].get(play)
            if not curve or play not in summary["advice"]:
                continue
            caps = [p["max_round"] for p in curve]
            gain = [p["units_per_shoe"] for p in curve]
            error = [1.96 * (p["units_per_shoe_se"] or 0.0) for p in curve]
            label = _column_label(summary["bet"], summary["mode"], several_modes, bet_names)
            ax.plot(caps, gain, color=colour, label=label)
            ax.fill_between(
                caps,
                [g - e for g, e in zip(gain, error, strict=True)],
                [g + e for g, e in zip(gain, error, strict=True)],
                color=colour,
                alpha=0.15,
                linewidth=0,
            )
            if summary["max_round"]:
                ax.axvline(summary["max_round"], color=colour, linestyle=":", linewidth=1.2)
        ax.axhline(max_gain, color="black", linestyle="--", linewidth=0.9, label="max gain")
        ax.set_ylabel("gain per shoe, units")
        ax.set_title(f"{names[play]}: gain per shoe with the bet offered up to round k")
        ax.legend(fontsize=7, ncol=2 if len(summaries) > 8 else 1)
    axes[-1].set_xlabel("max round k (dotted: the paytable's max round; band: 95%)")
    return fig


def _colours(n: int) -> list:
    from matplotlib import colormaps

    palette = colormaps["tab10" if n <= 10 else "tab20"]
    return [palette(i % palette.N) for i in range(n)]


def png_writer(fig):
    """A writer (for :mod:`analyzer.files`) that saves ``fig`` as PNG."""
    return lambda temporary: fig.savefig(temporary, dpi=110, format="png")


def save_png(fig, path: str | Path, *, held: bool = False) -> None:
    """Write ``fig`` to ``path`` as PNG, whole or not at all (``held``: see
    :func:`analyzer.files.outputs_held`)."""
    write_atomically(path, png_writer(fig), held=held)


def audit_figure(fit: FitResult):
    """The audit's fit, drawn: per outcome, the calibration of the shoe-aware test (each
    group of rounds' share with the outcome less their mean predicted probability, against
    that mean, with the band the level allows), and the running difference of the first
    two outcomes' wins (punto banco: Banker minus Player; another game: its first hand
    minus its second) less its expected drift, against the band of ``fit.level``
    (two-sided, normal: each round's own variance summed)."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(1 - fit.level / 2)
    band = f"{100 * (1 - fit.level):g}% band"
    fig = _figure(11, 7.5)
    grid = fig.add_gridspec(2, 3, height_ratios=(1, 1.1))
    names = {key: label[:1].upper() + label[1:] for key, label in fit.outcomes}
    colours = dict(zip(names, ("tab:red", "tab:blue", "tab:green"), strict=True))
    lead, other = (label.removesuffix(" wins") for _, label in fit.outcomes[:2])
    for column, outcome in enumerate(names):
        ax = fig.add_subplot(grid[0, column])
        bins = [b for b in fit.calibration if b.outcome == outcome and b.rounds]
        if not bins:
            ax.axis("off")
            continue
        predicted = np.array([b.predicted / b.rounds for b in bins])
        observed = np.array([b.observed / b.rounds for b in bins])
        error = z * np.sqrt(predicted * (1 - predicted) / np.array([b.rounds for b in bins]))
        # Observed less predicted: the predictions of a shoe's rounds lie close together,
        # so the residual shows what a plot of one against the other squeezes into a line.
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.errorbar(
            predicted, observed - predicted, yerr=error, fmt="o", color=colours[outcome],
            markersize=4, capsize=2, linewidth=0.8,
        )  # fmt: skip
        ax.set_title(f"{names[outcome]}: calibration", fontsize=9)
        ax.set_xlabel("predicted probability (mean of a group of rounds)", fontsize=8)
        ax.set_ylabel(f"observed share less predicted ({band})", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.locator_params(axis="x", nbins=4)  # (predictions close together: long labels)
    ax = fig.add_subplot(grid[1, :])
    running = fit.running
    if running is None:
        ax.axis("off")
        ax.text(0.5, 0.5, "no round in the shoe-aware test", ha="center", va="center")
    else:
        rounds = np.concatenate([[0], running.rounds])
        excess = np.concatenate([[0.0], running.observed - running.expected])
        spread = z * np.sqrt(np.concatenate([[0.0], running.variance]))
        ax.fill_between(rounds, -spread, spread, color="tab:grey", alpha=0.25, linewidth=0)
        ax.plot(rounds, excess, color="black", linewidth=0.9)
        ax.axhline(0, color="grey", linewidth=0.6)
        ax.set_xlim(0, rounds[-1])
        ax.set_xlabel("rounds (of the shoe-aware test, in log order)", fontsize=8)
        ax.set_ylabel(f"({lead} - {other} wins) - expected", fontsize=8)
        ax.set_title(
            f"{lead} minus {other} wins less the exact expectation, against its {band}",
            fontsize=9,
        )
        ax.tick_params(labelsize=7)
    rounds = fit.shoe_aware_rounds
    fig.suptitle(
        f"Audit: the fit to the exact odds ({counted(rounds, 'round')} "
        "priced on the cards left in their shoe)",
        fontsize=11,
    )
    return fig
