import sys
from pathlib import Path

import pytest

# tests/naive.py is imported as a plain module by the tests.
sys.path.insert(0, str(Path(__file__).parent))

import naive


@pytest.fixture(scope="session")
def reference_8_decks():
    """Brute-force outcome counts of a full 8-deck shoe (a few seconds; shared)."""
    return naive.reference_counts([[8] * 4 for _ in range(13)])
