"""Charts, drawn on :class:`matplotlib.figure.Figure` objects.

No pyplot: a figure made here never touches the global backend or figure manager, so
these functions are safe in a notebook or a server, and the caller decides where the
figure goes (:func:`save_png` writes one whole or not at all).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from analyzer.files import write_atomically


def _figure(width: float, height: float):
    # matplotlib warns on stderr when its config folder is not writable; a chart is no
    # reason for a second line on the user's terminal.
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def effects_figure(effects: pd.DataFrame):
    """Bar charts of the effects of removal of each (bet, mode), per rank."""
    groups = list(effects.groupby(["bet", "mode"], sort=False))
    columns = min(3, len(groups))
    rows = -(-len(groups) // columns)
    fig = _figure(4.5 * columns, 2.8 * rows)
    axes = fig.subplots(rows, columns, squeeze=False)
    for ax, ((bet, mode), group) in zip(axes.flat, groups, strict=False):
        values = 100 * group["delta_ev"].to_numpy()
        ax.bar(group["rank"], values, color=["tab:green" if v > 0 else "tab:red" for v in values])
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_title(f"{bet} ({mode})", fontsize=9)
        ax.set_ylabel("EV change, % per card", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(groups) :]:
        ax.axis("off")
    fig.suptitle("Effect of removing one card of each rank", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


def rounds_figure(rounds: pd.DataFrame, bet: str, max_round: int | None):
    """A counted bet by round of the shoe: mean exact EV, and the share of rounds with a
    positive EV, the max round marked."""
    fig = _figure(8, 6)
    top, bottom = fig.subplots(2, 1, sharex=True)
    top.plot(rounds["round"], 100 * rounds["mean_ev"], color="tab:blue")
    top.axhline(0, color="black", linewidth=0.6)
    top.set_ylabel("mean EV, % of a unit")
    bottom.plot(rounds["round"], 100 * rounds["positive_ev_share"], color="tab:green")
    bottom.set_ylabel("rounds with EV > 0, %")
    bottom.set_xlabel("round of the shoe")
    if max_round:
        for ax in (top, bottom):
            ax.axvline(max_round, color="tab:red", linestyle="--", label=f"max round {max_round}")
        top.legend()
    top.set_title(f"{bet}: exact EV of the cards left, by round")
    fig.tight_layout()
    return fig


def png_writer(fig):
    """A writer (for :mod:`analyzer.files`) that saves ``fig`` as PNG."""
    return lambda temporary: fig.savefig(temporary, dpi=110, format="png")


def save_png(fig, path: str | Path) -> None:
    """Write ``fig`` to ``path`` as PNG, whole or not at all."""
    write_atomically(path, png_writer(fig))
