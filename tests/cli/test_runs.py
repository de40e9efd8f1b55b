"""Options of the long-running commands (count, simulate), checked before any work."""

from __future__ import annotations

import pytest
from helpers import run


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count", "--bet", "tie", "--shoes", "10", "--cut-card", "3"], "cut card must leave"),
        (["count", "--bet", "nope", "--shoes", "10"], "unknown bet 'nope'"),
        (["count", "--bet", "tie", "--shoes", "10", "--perfect", "--tags", "A=1"], "--perfect"),
        (["count", "--bet", "tie", "--shoes", "10", "--tags", "A=x"], "bad tag"),
        (["count", "--bet", "tie", "--shoes", "10", "--out", "r.xlsx"], ".csv or .parquet"),
        (["count", "--bet", "tie", "--shoes", "0"], "at least 1"),
        (["count", "--bet", "player_pair", "--shoes", "10"], "no linear count"),
        (["simulate"], "--shoes"),
        (
            ["simulate", "--shoes", "5", "--scheduler", "tcp://127.0.0.1:9", "--work-dir", "{tmp}"],
            "cannot reach the Dask scheduler",
        ),
    ],
)
def test_bad_run_options(tmp_path, capsys, argv, message) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if "--work-dir" not in argv:
        argv += ["--work-dir", str(tmp_path)]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
