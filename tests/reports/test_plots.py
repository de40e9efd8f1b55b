"""Charts on Figure objects (no pyplot), written whole or not at all."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

from analyzer.game.cards import RANKS
from analyzer.reports.plots import effects_figure, gains_figure, rounds_figure, save_png

PNG = b"\x89PNG\r\n\x1a\n"


def _effects(groups: int) -> pd.DataFrame:
    rows = [
        {"bet": f"bet{g}", "mode": "m", "rank": rank, "delta_ev": (r - 6) * 1e-4 * (g + 1)}
        for g in range(groups)
        for r, rank in enumerate(RANKS)
    ]
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("groups", "grid"), [(1, (1, 1)), (3, (1, 3)), (4, (2, 3))])
def test_one_bar_chart_per_bet_and_mode(groups, grid) -> None:
    backend = matplotlib.get_backend()
    effects = _effects(groups)
    fig = effects_figure(effects)
    axes = fig.get_axes()
    assert len(axes) == grid[0] * grid[1]
    shown = [ax for ax in axes if ax.axison]
    assert [ax.get_title() for ax in shown] == [f"bet{g} (m)" for g in range(groups)]
    for g, ax in enumerate(shown):
        heights = [bar.get_height() for bar in ax.patches]
        expected = 100 * effects[effects["bet"] == f"bet{g}"]["delta_ev"].to_numpy()
        assert np.allclose(heights, expected, rtol=1e-12)
        assert [t.get_text() for t in ax.get_xticklabels()] == list(RANKS)
    assert matplotlib.get_backend() == backend  # no pyplot, no global state touched


@pytest.mark.parametrize("max_round", [None, 50])
def test_rounds_chart_marks_the_max_round(max_round) -> None:
    rounds = pd.DataFrame(
        {
            "bet": ["lucky_six"] * 3 + ["tie"] * 3,
            "mode": "m",
            "round": [1, 2, 3] * 2,
            "mean_ev": [-0.01, 0.0, 0.02, 0.0, 0.0, 0.0],
            "positive_ev_share": [0.1, 0.4, 0.5, 0.0, 0.0, 0.0],
        }
    )
    fig = rounds_figure(rounds, {("lucky_six", "m"): max_round, ("tie", "m"): None})
    top, bottom = fig.get_axes()
    assert top.get_title() == "Exact EV of the cards left, by round"
    assert np.allclose(top.get_lines()[0].get_ydata(), [-1.0, 0.0, 2.0])
    assert np.allclose(bottom.get_lines()[0].get_ydata(), [10.0, 40.0, 50.0])
    assert [t.get_text() for t in top.get_legend().get_texts()] == ["lucky_six", "tie"]
    marked = [line for line in top.get_lines() if list(line.get_xdata()) == [50, 50]]
    assert len(marked) == (1 if max_round else 0)


def _summary(bet: str, max_round: int | None, gains: list[float], plays=("perfect", "count")):
    curve = [
        {"max_round": k + 1, "units_per_shoe": g, "units_per_shoe_se": 0.001, "bet_frequency": 0}
        for k, g in enumerate(gains)
    ]
    return {
        "bet": bet,
        "mode": "m",
        "max_round": max_round,
        "curves": {play: curve for play in plays},
        "advice": {play: {} for play in plays},
    }


def test_gain_chart_one_panel_per_play_one_curve_per_bet() -> None:
    summaries = [
        _summary("lucky_six", 2, [0.0, 0.01, 0.05]),
        _summary("player_pair", None, [0.0, 0.0, 0.02], plays=("perfect",)),
    ]
    fig = gains_figure(summaries, 0.02)
    perfect, count = fig.get_axes()
    assert perfect.get_title().startswith("perfect play") and count.get_title().startswith(
        "linear count"
    )
    labels = [t.get_text() for t in perfect.get_legend().get_texts()]
    assert labels == ["lucky_six", "player_pair", "max gain"]
    assert [t.get_text() for t in count.get_legend().get_texts()] == ["lucky_six", "max gain"]
    assert np.allclose(perfect.get_lines()[0].get_ydata(), [0.0, 0.01, 0.05])
    assert any(list(line.get_xdata()) == [2, 2] for line in perfect.get_lines())
    assert any(list(line.get_ydata()) == [0.02, 0.02] for line in perfect.get_lines())


def test_save_png_whole_or_not_at_all(tmp_path) -> None:
    fig = effects_figure(_effects(1))
    path = tmp_path / "eor.png"
    save_png(fig, path)
    assert path.read_bytes()[:8] == PNG
    with pytest.raises(FileNotFoundError):
        save_png(fig, tmp_path / "missing" / "eor.png")
    assert [p.name for p in tmp_path.iterdir()] == ["eor.png"]


def test_bet_names_in_a_chart_are_text_never_math(tmp_path) -> None:
    """Names come from paytable files: ``$...$`` is shown as written (matplotlib would
    read it as a formula, and fail on a bad one)."""
    effects = _effects(2)
    names = {"bet0": r"Tie $\frac$", "bet1": "Pays $5 or $10"}
    fig = effects_figure(effects, lang="tl", names=names)
    shown = [ax for ax in fig.get_axes() if ax.axison]
    assert [ax.get_title() for ax in shown] == [
        r"Tie $\frac$ (m)",
        "Pays $5 or $10 (m)",
    ]
    save_png(fig, tmp_path / "chart.png")  # drawn whole: no parse error
    assert (tmp_path / "chart.png").read_bytes()[:8] == PNG
    assert fig._suptitle.get_text() == "Epekto ng pag-alis ng isang baraha ng bawat ranggo"
