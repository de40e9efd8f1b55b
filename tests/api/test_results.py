"""The view every API result shares."""

from __future__ import annotations

import pandas as pd
import pytest

from analyzer.api.results import TableResult


class _Two(TableResult):
    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"bet": ["player", "banker"], "edge": [0.0124, 0.0106]})


def test_a_result_shows_itself_in_a_notebook_as_its_table() -> None:
    html = _Two()._repr_html_()
    assert "<table" in html and "banker" in html


def test_a_result_without_a_table_says_so() -> None:
    with pytest.raises(NotImplementedError):
        TableResult().to_frame()
