"""A chart shows in a notebook as a picture, whatever the backend."""

from __future__ import annotations

import matplotlib
from matplotlib.figure import Figure

from analyzer.reports.chart import Chart

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_chart_is_a_figure_whose_notebook_view_is_its_png() -> None:
    # Made without pyplot, nothing loads Jupyter's inline hook for Figures: the chart
    # itself gives IPython its picture (else a notebook shows "<Figure size ...>").
    backend = matplotlib.get_backend()
    chart = Chart(figsize=(4, 3))
    ax = chart.subplots()
    ax.bar(["A", "2", "3"], [1, -2, 3])
    ax.set_title("three bars")
    picture = chart._repr_png_()
    assert isinstance(chart, Figure)
    assert picture.startswith(PNG)
    assert len(picture) > 5_000  # bars, ticks and a title, not an empty canvas
    assert matplotlib.get_backend() == backend  # no backend chosen


def test_the_charts_of_the_reports_are_charts() -> None:
    import pandas as pd

    from analyzer.reports.plots import effects_figure

    effects = pd.DataFrame(
        [{"bet": "tie", "mode": "m", "rank": r, "delta_ev": 1e-4 * i} for i, r in enumerate("A23")]
    )
    assert isinstance(effects_figure(effects), Chart)
