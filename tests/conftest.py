import sys
from pathlib import Path

import pytest

# tests/naive.py and tests/helpers.py are imported as plain modules by the tests of every
# folder.
sys.path.insert(0, str(Path(__file__).parent))

import naive


def pytest_configure(config) -> None:
    # The store of exact counts (analyzer/engine/counts.py) of this run, its own and
    # fresh: no test reads counts an earlier run (or older code) left, and none writes
    # into the user's cache. Commands run in subprocesses inherit it.
    import os
    import tempfile

    if "BACCARAT_ODDS_TEST_STORE" not in os.environ:
        folder = tempfile.mkdtemp(prefix="baccarat-odds-store-")
        os.environ["BACCARAT_ODDS_TEST_STORE"] = folder
        os.environ["BACCARAT_ODDS_CACHE"] = folder
        config._baccarat_store = folder


def pytest_unconfigure(config) -> None:
    import shutil

    folder = getattr(config, "_baccarat_store", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def reference_8_decks():
    """Brute-force outcome counts of a full 8-deck shoe (a few seconds; shared)."""
    return naive.reference_counts([[8] * 4 for _ in range(13)])


@pytest.fixture(scope="session")
def expressions():
    """Exact sympy EVs of two value-level bets of the seed game (commission mode)."""
    from analyzer import seed_paytable
    from analyzer.engine.symbolic import expected_value_expression

    paytable = seed_paytable()
    return {
        bet: expected_value_expression(paytable.bet(bet, "commission"))
        for bet in ("banker", "lucky_six")
    }
