"""The analyst's notebook runs top to bottom."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat
import pytest

# Slow throughout (the notebook run top to bottom in a fresh kernel):
# left out of the quick check, pytest -m 'not slow'.
pytestmark = pytest.mark.slow

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "odds_tables.ipynb"


def test_notebook_runs_top_to_bottom(monkeypatch) -> None:
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")  # silence jupyter_core's path warning
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    text = "".join(out.get("text", "") for out in outputs)
    assert "max RTP: banker (commission) = 98.9421%" in text
