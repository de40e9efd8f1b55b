"""A :class:`matplotlib.figure.Figure` that Jupyter shows as a picture, whatever the backend.

The charts are made without pyplot (see :mod:`analyzer.reports.plots`), so nothing loads
Jupyter's inline backend, whose hook is what shows a plain Figure as a PNG: the first chart
of a session showed as ``<Figure size 450x280 with 1 Axes>``. A :class:`Chart` draws
itself (:meth:`Chart._repr_png_`), so a cell that ends with one shows the picture once,
with any backend or none chosen. This module imports matplotlib; it is imported when the
first chart is made.
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure

__all__ = ["Chart"]


class Chart(Figure):
    """A Figure whose notebook view is its PNG."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()
