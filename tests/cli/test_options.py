"""Options the commands share: the shoe options, checked before any work."""

from __future__ import annotations

import pytest
from helpers import run


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "--remove", "5H " * 33], "cannot remove 5H"),
        (["report", "--remove", "ZZ"], "unknown card 'ZZ'"),
        (["report", "--shoe", "x.csv", "--decks", "2"], "--decks or --shoe"),
        (["report", "--shoe", "missing.csv"], "missing.csv: no such file"),
        (["verify", "seed-game", "--remove", "5H " * 40], "cannot remove 5H"),
        (["eor", "--plot", "chart.jpg"], "name a .png file"),
        (["eor", "--plot", "no/such/folder/chart.png"], "does not exist"),
    ],
)
def test_bad_shoe_options(capsys, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
