"""`baccarat-odds cache`: the kept runs listed and removed, as a user runs it."""

from __future__ import annotations

import json
import os

import jsonschema
from helpers import run

from analyzer.reports.contract import schema_of

SIMULATE = ["simulate", "--shoes", "10", "--no-progress", "--workers", "1"]


def test_a_run_is_kept_in_the_cache_folder_listed_and_removed(
    capsys, tmp_path, monkeypatch
) -> None:
    """Runs once went to a hidden .baccarat-odds/ in the current folder (213 MB after the
    help's examples), with no way to list or clean them."""
    monkeypatch.chdir(tmp_path)
    code, _, _ = run(capsys, *SIMULATE)
    assert code == 0
    assert list(tmp_path.iterdir()) == []  # nothing in the folder it ran from
    code, out, _ = run(capsys, "cache", "dir")
    folder = out.strip()
    assert code == 0 and folder == os.path.join(os.environ["BACCARAT_ODDS_CACHE"], "runs")
    code, out, _ = run(capsys, "cache", "list", "--format", "json")
    listed = json.loads(out)
    ours = [r for r in listed["runs"] if r["command"] == "simulate" and r["shoes"] == 10]
    assert code == 0 and ours and ours[0]["saved_partitions"] >= 1
    run_id = ours[0]["id"]
    validator = jsonschema.Draft202012Validator(schema_of("cache"))
    validator.validate(listed)  # with a run listed: its row's keys and types
    code, out, _ = run(capsys, "cache", "list")
    assert code == 0 and run_id in out and "simulate" in out
    code, out, _ = run(capsys, "cache", "remove", run_id, "--format", "json")
    removed = json.loads(out)
    validator.validate(removed)
    assert code == 0 and [r["id"] for r in removed["runs"]] == [run_id]
    assert removed["options"] == {"action": "remove"}
    assert not os.path.exists(os.path.join(folder, run_id))


def test_work_dir_chooses_the_folder(capsys, tmp_path) -> None:
    code, _, _ = run(capsys, *SIMULATE, "--work-dir", str(tmp_path))
    assert code == 0
    code, out, _ = run(capsys, "cache", "list", "--work-dir", str(tmp_path))
    assert code == 0 and "1 kept run(s)" in out
    code, out, _ = run(capsys, "cache", "remove", "--all", "--work-dir", str(tmp_path))
    assert code == 0 and list(tmp_path.iterdir()) == []
    code, out, _ = run(capsys, "cache", "list", "--work-dir", str(tmp_path))
    assert out == f"no kept runs in {tmp_path}\n"


def test_bad_requests_are_one_line(capsys, tmp_path) -> None:
    cases = [
        (["cache", "remove"], "name the runs to remove, or give --all"),
        (["cache", "remove", "x", "--all"], "name the runs to remove, or give --all"),
        (["cache", "list", "x"], "takes no run ids"),
        (["cache", "remove", "nope", "--work-dir", str(tmp_path)], "no kept run 'nope'"),
        (["cache", "list", "--work-dir", ""], "--work-dir '': name a folder"),
        (["cache", "clean"], "invalid choice"),
    ]
    for argv, message in cases:
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, argv
