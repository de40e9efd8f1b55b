"""The installed entry point (``python -m analyzer``, ``baccarat-odds``)."""

from __future__ import annotations

import subprocess
import sys


def test_module_entry_point_exit_status() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "play", "AS"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "baccarat-odds: error: too few cards: a round starts with 4 "
        "(Player, Banker, Player, Banker), got 1"
    ]
