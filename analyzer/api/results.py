"""What every result of the Python API shares: a table view and a notebook view.

A result keeps its exact figures (Fractions, integers) as attributes; :meth:`to_frame`
gives them as a pandas DataFrame (one row per bet, claim, line ... as the result says),
and Jupyter shows a result as that table (:meth:`_repr_html_`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TableResult"]


class TableResult:
    """A result whose figures form a table.

    Subclasses define :meth:`to_frame`; a notebook then shows the result as that table.
    """

    def to_frame(self) -> pd.DataFrame:
        """The result's figures as a DataFrame."""
        raise NotImplementedError

    def _repr_html_(self) -> str:
        return self.to_frame().to_html()
