"""The test run's own settings, which a newcomer reads: pyproject.toml keeps them.

`-ra` prints why each test skipped (a missing browser or spreadsheet program), and the
`slow` marker makes `pytest -m "not slow"` the quick first check; neither may leave
pyproject.toml silently.
"""

import shlex
import tomllib
from pathlib import Path

import pytest

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@pytest.fixture(scope="module")
def settings() -> dict:
    """pyproject.toml's ``[tool.pytest.ini_options]``."""
    with PYPROJECT.open("rb") as file:
        return tomllib.load(file)["tool"]["pytest"]["ini_options"]


def registered(settings: dict) -> dict[str, str]:
    """The registered markers: name -> description."""
    names = {}
    for line in settings.get("markers", []):
        name, _, description = line.partition(":")
        names[name.strip()] = description.strip()
    return names


def test_skip_reasons_are_printed(settings):
    assert "-ra" in shlex.split(settings["addopts"])


def test_slow_marker_is_registered(settings):
    markers = registered(settings)
    assert "slow" in markers
    assert "not slow" in markers["slow"]


def test_kernels_marker_is_still_registered(settings):
    # CI runs `pytest -m kernels`: an unregistered marker would select nothing, silently.
    assert "kernels" in registered(settings)


def test_slow_marker_is_in_use():
    """Some test carries the marker, so the quick check leaves the slow ones out."""
    here = Path(__file__).resolve().parent
    marked = [
        path
        for path in here.rglob("test_*.py")
        if path != Path(__file__).resolve() and "pytest.mark.slow" in path.read_text()
    ]
    assert marked
