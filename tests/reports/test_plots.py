"""Charts on Figure objects (no pyplot), written whole or not at all."""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

from analyzer.errors import AnalyzerError
from analyzer.game.cards import RANKS
from analyzer.reports.i18n import sentence
from analyzer.reports.plots import (
    MAX_CHART_BETS,
    MAX_CHART_CURVES,
    effects_figure,
    gains_figure,
    rounds_figure,
    save_png,
)

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
            "shoes": [40] * 6,
            "mean_ev": [-0.01, 0.0, 0.02, 0.0, 0.0, 0.0],
            "mean_ev_se": [0.001] * 6,
            "positive_ev_share": [0.1, 0.4, 0.5, 0.0, 0.0, 0.0],
        }
    )
    fig = rounds_figure(rounds, {("lucky_six", "m"): max_round, ("tie", "m"): None})
    top, bottom, _ = fig.get_axes()
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


@pytest.mark.parametrize("lang", ["en", "tl", "ms"])
def test_a_bet_no_card_moves_says_so_in_its_panel(lang) -> None:
    """A pair bet's effects are exactly 0 for every rank: its panel has no bars to show,
    so it says why, in the chart's language; a bet that moves has no such note."""
    effects = _effects(2)
    effects.loc[effects["bet"] == "bet1", "delta_ev"] = 0.0
    moved, still = [ax for ax in effects_figure(effects, lang=lang).get_axes() if ax.axison]
    assert list(moved.texts) == []
    (note,) = still.texts
    assert " ".join(note.get_text().split()) == sentence("eor_no_effect", lang)


def _rounds(shoes: list[int]) -> pd.DataFrame:
    """One bet by round: 0.1% EV, +-0.05% standard error, ``shoes`` reaching each round."""
    n = len(shoes)
    return pd.DataFrame(
        {
            "bet": "b",
            "mode": "m",
            "round": range(1, n + 1),
            "shoes": shoes,
            "mean_ev": [0.001] * n,
            "mean_ev_se": [0.0005] * n,
            "positive_ev_share": [0.5] * n,
        }
    )


def test_the_rounds_chart_stops_where_few_shoes_reach_a_round() -> None:
    """Rounds 4 and 5 rest on 29 and 1 of 100 shoes: the curves stop at round 3, with a
    note; the band is 1.96 standard errors; the third panel shows every round's shoes."""
    fig = rounds_figure(_rounds([100, 100, 100, 29, 1]), {("b", "m"): None})
    top, middle, bottom = fig.get_axes()
    assert list(top.get_lines()[0].get_xdata()) == [1, 2, 3]
    assert list(middle.get_lines()[0].get_xdata()) == [1, 2, 3]
    (band,) = top.collections
    edges = band.get_paths()[0].vertices[:, 1]
    assert edges.min() == pytest.approx(0.1 - 1.96 * 0.05) and edges.max() == pytest.approx(
        0.1 + 1.96 * 0.05
    )
    assert list(bottom.get_lines()[0].get_ydata()) == [100, 100, 100, 29, 1]
    (note,) = bottom.texts
    assert note.get_text().startswith("curves stop at round 3: later rounds are reached by")
    assert "fewer than 30 of the 100 shoes" in note.get_text()
    # Every round reached by enough shoes: drawn to the end, and no note.
    fig = rounds_figure(_rounds([100, 100, 100, 40, 30]), {("b", "m"): None})
    assert list(fig.get_axes()[0].get_lines()[0].get_xdata()) == [1, 2, 3, 4, 5]
    assert list(fig.get_axes()[2].texts) == []
    # Fewer than 30 shoes dealt: the rounds all of them reach.
    fig = rounds_figure(_rounds([8, 8, 5]), {("b", "m"): None})
    assert list(fig.get_axes()[0].get_lines()[0].get_xdata()) == [1, 2]
    assert "fewer than 8 of the 8 shoes" in fig.get_axes()[2].texts[0].get_text()


def test_charts_of_many_bets_are_laid_out_whole_and_more_are_refused() -> None:
    """The most bets a chart takes, with long names, are laid out without a warning
    (pytest makes one an error; tight layout gave up on many panels); one more is refused
    in one line that names the limit."""
    long = "a bet with a name long enough to crowd its panel"
    effects = _effects(MAX_CHART_BETS)
    names = {f"bet{g}": f"{long} {g}" for g in range(MAX_CHART_BETS)}
    effects_figure(effects, names=names).draw_without_rendering()
    with pytest.raises(AnalyzerError, match=f"^a chart draws at most {MAX_CHART_BETS} bets, got"):
        effects_figure(_effects(MAX_CHART_BETS + 1))
    curves = pd.concat(
        [_rounds([100] * 80).assign(bet=f"{long} {c}") for c in range(MAX_CHART_CURVES)]
    )
    marks = {(f"{long} {c}", "m"): 50 for c in range(MAX_CHART_CURVES)}
    rounds_figure(curves, marks).draw_without_rendering()
    summaries = [_summary(f"{long} {c}", 50, [0.0] * 80) for c in range(MAX_CHART_CURVES)]
    gains_figure(summaries, 0.01).draw_without_rendering()
    extra = _summary("one more", None, [0.0] * 80)
    with pytest.raises(AnalyzerError, match=f"^a chart draws at most {MAX_CHART_CURVES} curves"):
        gains_figure([*summaries, extra], 0.01)
    with pytest.raises(AnalyzerError, match=f"^a chart draws at most {MAX_CHART_CURVES} curves"):
        rounds_figure(
            pd.concat([curves, _rounds([100] * 80).assign(bet="x")]), {**marks, ("x", "m"): None}
        )


def _fit_result(level: float = 0.01):
    from analyzer.analysis.audit_fit import CalibrationBin, FitResult, RunningDifference

    calibration = (
        CalibrationBin("banker", 0.45, 0.46, 1000, 455.0, 470),
        CalibrationBin("banker", 0.46, 0.47, 500, 232.0, 220),
        CalibrationBin("player", 0.44, 0.45, 1500, 669.0, 660),
        CalibrationBin("tie", 0.09, 0.10, 1500, 143.0, 150),
    )
    running = RunningDifference(
        np.array([2, 4, 6]), np.array([1.0, 0.0, 2.0]), np.array([0.1, 0.2, 0.3]),
        np.array([1.8, 3.6, 5.4]), 2,
    )  # fmt: skip
    return FitResult(level, (), calibration, 8, 6, 0, (), running)


def test_the_audit_chart_draws_each_outcomes_calibration_and_the_running_difference() -> None:
    from statistics import NormalDist

    from analyzer.reports.plots import audit_figure

    fig = audit_figure(_fit_result())
    calibration, running = fig.get_axes()[:3], fig.get_axes()[3]
    assert [ax.get_title() for ax in calibration] == [
        "Banker wins: calibration",
        "Player wins: calibration",
        "Ties: calibration",
    ]
    # Each group's point: its mean prediction, and its share less that.
    x, y = calibration[0].containers[0][0].get_data()  # the errorbar's points
    assert np.allclose(x, [0.455, 232 / 500]) and np.allclose(y, [0.015, 220 / 500 - 232 / 500])
    # The running excess over the expectation, from 0, inside the band of the level.
    line = running.lines[0]
    assert np.allclose(line.get_xdata(), [0, 2, 4, 6])
    assert np.allclose(line.get_ydata(), [0, 0.9, -0.2, 1.7])
    band = running.collections[0].get_paths()[0].vertices
    z = NormalDist().inv_cdf(1 - 0.01 / 2)
    assert np.isclose(band[:, 1].max(), z * np.sqrt(5.4))
    assert "99% band" in running.get_title()


def test_the_audit_chart_of_no_priced_round_says_so(tmp_path) -> None:
    from dataclasses import replace

    from analyzer.reports.plots import audit_figure

    fit = replace(_fit_result(), calibration=(), running=None, shoe_aware_rounds=0)
    fig = audit_figure(fit)
    assert "no round in the shoe-aware test" in [t.get_text() for t in fig.get_axes()[3].texts]
    save_png(fig, tmp_path / "a.png")
    assert (tmp_path / "a.png").read_bytes()[:8] == PNG
